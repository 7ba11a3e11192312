#pragma once
// Shared helpers for the tests: build a simulation from INI text, follow one contact.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/setup/scene_builder.hpp"

namespace chaindem::test {

inline RunSetup setup_from(const std::string& ini, const std::vector<std::string>& overrides = {}) {
  return build_run(CaseConfig::parse(ini, "test.ini", overrides));
}

inline Simulation simulation_from(const std::string& ini,
                                  const std::vector<std::string>& overrides = {}) {
  RunSetup run = setup_from(ini, overrides);
  return Simulation(std::move(run.scene), run.settings);
}

/// The simulation of a case file, with overrides.
inline Simulation simulation_from_file(const std::string& path,
                                       const std::vector<std::string>& overrides = {}) {
  RunSetup run = build_run(CaseConfig::load(path, overrides));
  return Simulation(std::move(run.scene), run.settings);
}

/// The energy balance of a driven run, which make(dt) builds at step dt, to `duration`: the
/// largest |balance - initial| (read every `read_every` seconds) relative to the largest
/// |wall_work|, the drives' work, which must exceed `least_work` (the books must have something
/// to count). Expected below 1e-3 at dt and falling four-fold per halving of the step to dt/4:
/// the balance closes at second order.
inline void expect_balance_second_order(const std::function<Simulation(double dt)>& make,
                                        double duration, double dt, double read_every,
                                        double least_work, const std::string& what) {
  std::vector<double> e;
  for (double step = dt; e.size() < 3; step /= 2) {
    Simulation sim = make(step);
    const double e0 = sim.energies().balance();
    const auto per_read = std::max<std::int64_t>(1, std::llround(read_every / step));
    double error = 0.0, work = 0.0;
    while (sim.time() < duration - 1e-12) {
      sim.advance(per_read);
      const EnergyReport r = sim.energies();
      error = std::max(error, std::abs(r.balance() - e0));
      work = std::max(work, std::abs(r.wall_work));
    }
    EXPECT_GT(work, least_work) << what;
    e.push_back(error / work);
  }
  EXPECT_LT(e[0], 1e-3) << what;
  EXPECT_NEAR(e[0] / e[1], 4.0, 1.0) << what;
  EXPECT_NEAR(e[1] / e[2], 4.0, 1.0) << what;
}

/// The same for case text `ini` on `engine` ("chain" or "general"), every 10 steps from 4e-7 s.
inline void expect_drive_balance_second_order(const std::string& ini, const std::string& engine,
                                              double duration) {
  expect_balance_second_order(
      [&](double dt) {
        char step[32];
        std::snprintf(step, sizeof step, "%.17g", dt);  // every digit: the step, not a rounding
        Simulation sim = simulation_from(
            ini, {"simulation.engine=" + engine, std::string("simulation.time_step=") + step});
        EXPECT_EQ(sim.uses_chain_engine(), engine == "chain");
        return sim;
      },
      duration, 4e-7, 4e-6, 1e-9, engine + "\n" + ini);
}

/// A bead (the striker, 2 m/s) between two walls with a resting bead before the far wall:
/// elastic Hertz impacts go on for 0.05 s.
inline std::string bead_between_walls(const std::string& contact = "law = hertz\n") {
  return "[simulation]\nduration = 0.05\nsteps_per_contact = 100\n"
         "[contact]\n" +
         contact +
         "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
         "[chain]\ncount = 1\nmaterials = steel\nradii = 0.005\n"
         "[striker]\nvelocity = 2.0\ngap = 0.002\n"
         "[wall_start]\nenabled = true\nmaterial = steel\ngap = 0.001\n"
         "[wall_end]\nenabled = true\nmaterial = steel\ngap = 0.003\n";
}

/// How many contacts began (apart -> touching) with any wall and between particles.
struct ImpactCounts {
  int wall = 0, pair = 0;
};
inline ImpactCounts count_impacts(Simulation& sim, std::int64_t steps) {
  ImpactCounts n;
  bool wall_touch = false, pair_touch = false;
  for (std::int64_t s = 0; s < steps; ++s) {
    sim.step();
    bool w = false, p = false;
    for (const auto t : sim.wall_contacts().touching) w = w || t;
    for (const auto t : sim.pair_contacts().touching) p = p || t;
    n.wall += (w && !wall_touch);
    n.pair += (p && !pair_touch);
    wall_touch = w;
    pair_touch = p;
  }
  return n;
}

/// Runs bead_between_walls (elastic Hertz) for its 0.05 s: at least four impacts on the walls
/// and between the particles, each seen, and the energy back to its initial value up to the
/// integrator's error per impact at 100 steps per contact (about 3e-6 each).
inline void expect_elastic_bounces(Simulation& sim) {
  const ImpactCounts hits = count_impacts(sim, static_cast<std::int64_t>(0.05 / sim.time_step()));
  EXPECT_GE(hits.wall, 4);
  EXPECT_GE(hits.pair, 4);
  const double e0 = 0.5 * sim.particles().mass(0) * 4.0;  // the striker at 2 m/s
  EXPECT_NEAR(sim.energies().kinetic + sim.energies().stored, e0, 2e-4 * e0);
}

/// What one binary impact produced, measured on the engine's own contact record.
struct ImpactRecord {
  double duration = 0.0;     ///< from first to last step with delta > 0, interpolated [s]
  double max_overlap = 0.0;  ///< [m]
  double max_force = 0.0;    ///< [N]
  double approach = 0.0;     ///< approach rate at onset [m/s]
  double separation = 0.0;   ///< approach rate after the contact [m/s] (negative)
};

/// Steps `sim` until contact `c` of `list` (pairs or walls) has started and ended.
/// Onset and end times are interpolated linearly on the overlap.
template <class ListGetter>
ImpactRecord follow_impact(Simulation& sim, ListGetter list, std::size_t c,
                           std::int64_t max_steps) {
  ImpactRecord r;
  double t_start = -1.0, previous_overlap = 0.0, previous_time = sim.time();
  auto geometric_overlap = [&] {
    const ContactList& cl = list(sim);
    return cl.overlap[c];
  };
  for (std::int64_t s = 0; s < max_steps; ++s) {
    sim.step();
    const ContactList& cl = list(sim);
    const bool touching = cl.touching[c] != 0;
    if (touching && t_start < 0) {
      // delta went from <= 0 to > 0 during this step; the previous value is unknown (0 stored),
      // so interpolate with the approach rate.
      t_start = sim.time() - geometric_overlap() / cl.onset_rate[c];
      r.approach = cl.onset_rate[c];
    }
    if (t_start >= 0) {
      r.max_overlap = std::max(r.max_overlap, cl.overlap[c]);
      r.max_force = std::max(r.max_force, cl.force[c]);
      if (!touching) {
        // Ended during this step: the last overlap was previous_overlap > 0, now <= 0.
        const double t_end = previous_time + previous_overlap / -cl.end_rate[c];
        r.duration = t_end - t_start;
        r.separation = cl.end_rate[c];
        return r;
      }
    }
    previous_overlap = geometric_overlap();
    previous_time = sim.time();
  }
  throw std::runtime_error("follow_impact: contact did not end");
}

/// The registered law `id`; a name the registry does not have throws (a test's typo).
inline const LawEntry& law(std::string_view id) {
  const LawEntry* l = find_law(id);
  if (!l) throw std::runtime_error("no law " + std::string(id));
  return *l;
}

/// The law's kernel force at overlap d and rate v, updating the contact's history s.
inline double kernel_force(const LawEntry& l, const PairCoeffs& c, ContactState& s, double d,
                           double v) {
  return with_kernel(l.kernel, [&](auto kernel) { return decltype(kernel)::force(c, s, d, v); });
}

/// e_out of the hysteresis family's exact identity (1 + e) alpha = ln((1 + alpha)/(1 - alpha e))
/// for damping factor alpha (docs/validation.md#restitution-identity), by bisection.
inline double identity_restitution(double alpha) {
  if (alpha == 0.0) return 1.0;
  auto g = [alpha](double e) {
    return (1.0 + e) * alpha - std::log((1.0 + alpha) / (1.0 - alpha * e));
  };
  double lo = 1e-12, hi = std::min(1.0, 1.0 / alpha) * (1.0 - 1e-15);
  for (int k = 0; k < 200; ++k) {
    const double mid = 0.5 * (lo + hi);
    (g(mid) > 0.0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// The two histories are the same, field by field, bit for bit.
inline void expect_same_history(const ContactState& a, const ContactState& b,
                                const std::string& where) {
  EXPECT_EQ(a.impact_velocity, b.impact_velocity) << where;
  EXPECT_EQ(a.damping_origin, b.damping_origin) << where;
  EXPECT_EQ(a.origin_overlap, b.origin_overlap) << where;
  EXPECT_EQ(a.origin_force, b.origin_force) << where;
  EXPECT_EQ(a.origin_energy, b.origin_energy) << where;
  EXPECT_EQ(a.max_overlap, b.max_overlap) << where;
  EXPECT_EQ(a.max_force, b.max_force) << where;
  EXPECT_EQ(a.residual_overlap, b.residual_overlap) << where;
  EXPECT_EQ(a.unload_stiffness, b.unload_stiffness) << where;
  EXPECT_EQ(a.unload_exponent, b.unload_exponent) << where;
  EXPECT_EQ(a.unloading, b.unloading) << where;
  EXPECT_EQ(a.regime, b.regime) << where;
}

}  // namespace chaindem::test
