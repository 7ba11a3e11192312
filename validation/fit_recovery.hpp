#pragma once
// Parameter recovery and law ranking on synthetic impacts (docs/fit.md, "What is shown"): one
// law of each family with known parameters makes the restitution, peak force and contact
// duration of a steel sphere hitting a steel wall at 10 velocities from 0.05 to 3 m/s, each
// value with 2 % Gaussian noise and that uncertainty. Each draw is fitted by the law that made
// it (does each parameter's 95 % interval hold its true value?) and by all five laws (does
// AICc rank the generating law first?). Read by tests/test_fit_recovery.cpp (a few draws) and
// bench/fit_recovery.cpp (100 draws per law).

#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "chaindem/fit/impact_data.hpp"
#include "chaindem/fit/least_squares.hpp"

namespace chaindem::fit::recovery {

/// A law that makes data: its parameters' true values, and where its fits start (a law
/// parameter without a default and with an unbounded range needs one).
struct Generator {
  std::string law;
  std::vector<std::string> keys;
  std::vector<double> truth;
  std::vector<double> starts;  ///< per key; NaN: the registry's default or range
};

/// One of each family that has a parameter to fit on spheres (the elastic laws have none, the
/// cylindrical ones are for pins in holes).
inline std::vector<Generator> generators() {
  const double none = std::nan("");
  return {{"anagnostopoulos", {"restitution", "stiffness"}, {0.7, 2e7}, {none, 1e7}},
          {"tsuji", {"restitution"}, {0.6}, {none}},
          {"hunt_crossley", {"restitution"}, {0.6}, {none}},
          {"lankarani_nikravesh_plastic", {"restitution"}, {0.6}, {none}},
          {"thornton_1997", {"yield_stress"}, {4e8}, {2e8}}};
}

/// A steel sphere of radius 5 mm against a steel wall (yield stress given by the generator).
inline PairInput steel_on_wall() {
  PairInput pair = mixed_materials({200e9, 0.3, 0.0}, {200e9, 0.3, 0.0});
  const double radius = 0.005;
  pair.effective_radius = radius;
  pair.effective_mass = 7800.0 * 4.0 / 3.0 * M_PI * radius * radius * radius;
  pair.radius_i = radius;
  return pair;
}

constexpr double noise = 0.02;  ///< relative, of every value
inline const std::vector<ImpactQuantity> measured = {
    ImpactQuantity::restitution, ImpactQuantity::peak_force, ImpactQuantity::contact_duration};

inline std::vector<double> velocities() {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(0.05 * std::pow(3.0 / 0.05, i / 9.0));
  return v;
}

/// The law's model with `keys` free and its fits' parameters (the registry's ranges).
inline ImpactModel model_of(const Generator& g) {
  return ImpactModel(*find_law(g.law), steel_on_wall(), {}, {}, g.keys);
}
inline std::vector<FreeParameter> parameters_of(const Generator& g) {
  std::vector<FreeParameter> out;
  const LawEntry& law = *find_law(g.law);
  for (std::size_t j = 0; j < g.keys.size(); ++j) {
    const ParamSpec& p = *law.find_param(g.keys[j]);
    FreeParameter f{g.keys[j],      std::string(p.unit),    p.range.min,
                    p.range.max,    !p.range.min_inclusive, !p.range.max_inclusive,
                    p.default_value};
    if (!std::isnan(g.starts[j])) f.start = g.starts[j];
    out.push_back(f);
  }
  return out;
}

/// A noise draw of `g`'s impacts.
inline ImpactData draw(const Generator& g, std::mt19937_64& random) {
  ImpactData d;
  d.velocity = velocities();
  std::vector<std::vector<double>> exact;
  if (!model_of(g).predict(g.truth, d.velocity, measured, exact))
    throw std::runtime_error(g.law + ": an impact of the generating law did not end");
  std::normal_distribution<double> unit(0.0, 1.0);
  for (std::size_t q = 0; q < measured.size(); ++q) {
    Series s{measured[q], {}, {}};
    for (double x : exact[q]) {
      s.value.push_back(x * (1.0 + noise * unit(random)));
      s.sigma.push_back(noise * x);
    }
    d.series.push_back(s);
  }
  return d;
}

struct Outcome {
  int draws = 0;
  std::vector<int> covered;  ///< per parameter of the generator: intervals holding the truth
  int ranked_first = 0;      ///< draws where the generator has the lowest AICc of the five
  std::vector<int> wins;     ///< per generator: draws it ranked first
  int unfitted = 0;          ///< draws the generating law could not be fitted to (none missed)
  double seconds = 0.0;      ///< of all fits
};

/// `draws` noise draws of generators()[index], each fitted by every generator's law with
/// `starts` starts; the draws from `seed`.
inline Outcome run(std::size_t index, int draws, std::uint64_t seed, int starts = 2) {
  const std::vector<Generator> all = generators();
  const Generator& g = all.at(index);
  std::vector<ImpactModel> models;
  for (const Generator& candidate : all) models.push_back(model_of(candidate));
  Outcome out;
  out.covered.assign(g.keys.size(), 0);
  out.wins.assign(all.size(), 0);
  std::mt19937_64 random(seed);
  for (int k = 0; k < draws; ++k) {
    const ImpactData d = draw(g, random);
    std::size_t best = all.size();  // none yet
    double best_aicc = std::numeric_limits<double>::infinity();
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t c = 0; c < all.size(); ++c) {
      Result r;
      try {
        r = solve(impact_problem(models[c], d, parameters_of(all[c])), {starts, 1, 0.95});
      } catch (const std::runtime_error&) {
        out.unfitted += c == index;
        continue;  // no usable fit: this law is not a candidate for the draw
      }
      if (r.aicc < best_aicc) best_aicc = r.aicc, best = c;
      if (c == index)
        for (std::size_t j = 0; j < g.keys.size(); ++j)
          out.covered[j] += r.intervals[j].low <= g.truth[j] && g.truth[j] <= r.intervals[j].high;
    }
    out.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (best < all.size()) ++out.wins[best];
    out.ranked_first += best == index;
    ++out.draws;
  }
  return out;
}

}  // namespace chaindem::fit::recovery
