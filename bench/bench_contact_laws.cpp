// Contact-law benchmarks: force-kernel cost per pair evaluation for each family, and the sweep of
// binary collisions of Table 2 of Skrinjar et al. (2018) (docs/validation.md#skrinjar-two-spheres).
//   build/bench/bench_contact_laws --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <vector>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/contact_law.hpp"

using namespace chaindem;

namespace {

// Force of one law over a batch of pairs with varying overlap and rate: ns per evaluation.
void force_kernel(benchmark::State& state, const char* id, LawParams params) {
  const LawEntry& law = *find_law(id);
  PairInput in{1.0989e11, 0.0025, 2.04e-3};
  in.youngs_modulus = 200e9;
  in.poisson_ratio = 0.3;
  in.yield_stress = 1.5e9;  // elastoplastic laws: yield at ~1e-6 m, inside the overlaps below
  in.radius_i = in.radius_j = 0.005;  // line contacts: cylinders of 5 mm, 20 mm long
  in.contact_length = 0.02;
  for (const ParamSpec& spec : law.params)  // the law's own defaults for what is not given
    if (spec.default_value && !params.count(std::string(spec.key)))
      params[std::string(spec.key)] = *spec.default_value;
  const PairCoeffs c = law.prepare(law, in, params);
  constexpr int n = 4096;
  std::vector<double> overlap(n), rate(n);
  std::vector<ContactState> history(n);
  for (int k = 0; k < n; ++k) {
    overlap[k] = 1e-6 * (1 + k % 17);
    rate[k] = 0.5 - 0.07 * (k % 13);
    history[k].impact_velocity = 0.6;
  }
  with_kernel(law.kernel, [&](auto kernel) {
    using K = decltype(kernel);
    for (auto _ : state) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k) sum += K::force(c, history[k], overlap[k], rate[k]);
      benchmark::DoNotOptimize(sum);
    }
  });
  state.SetItemsProcessed(state.iterations() * n);
}

BENCHMARK_CAPTURE(force_kernel, elastic_hertz, "hertz", {});
BENCHMARK_CAPTURE(force_kernel, viscous_tsuji, "tsuji", {{"restitution", 0.8}});
BENCHMARK_CAPTURE(force_kernel, viscous_edem, "edem_hertz_mindlin", {{"restitution", 0.8}});
BENCHMARK_CAPTURE(force_kernel, viscous_power_m065, "schwager_poschel",
                  {{"damping_coefficient", 1.0}});
BENCHMARK_CAPTURE(force_kernel, hysteresis_hunt_crossley, "hunt_crossley",
                  {{"restitution", 0.8}, {"impact_velocity_floor", 1e-3}});
BENCHMARK_CAPTURE(force_kernel, piecewise_jankowski, "jankowski_piecewise", {{"restitution", 0.8}});
BENCHMARK_CAPTURE(force_kernel, plastic_lankarani_nikravesh, "lankarani_nikravesh_plastic",
                  {{"restitution", 0.8}});
BENCHMARK_CAPTURE(force_kernel, elastoplastic_thornton, "thornton_1997",
                  {{"limiting_pressure_ratio", 1.0}});
// One root solve per evaluation; K_c F_y = 0.05 and C_a F_y/a_y = 0.3 as in the elastoplastic
// tests (F_y ~ 0.03 N, a_y ~ 5e-5 m here; the sources give no values).
BENCHMARK_CAPTURE(force_kernel, elastoplastic_implicit_vu_quoc_zhang, "vu_quoc_zhang_2002",
                  {{"k_c", 0.05 / 0.03}, {"c_a", 0.3 * 5e-5 / 0.03}});

// Cylindrical line contacts (group (f)), damped with the LN factor (c_r = 0.8). The implicit
// laws invert delta(F) in closed form (Lambert W_-1); the alternatives below measure what the
// per-step root solves of Skrinjar et al. (2018) would cost instead.
BENCHMARK_CAPTURE(force_kernel, cylindrical_implicit_johnson, "johnson_cylindrical",
                  {{"restitution", 0.8}, {"impact_velocity_floor", 1e-3}});
BENCHMARK_CAPTURE(force_kernel, cylindrical_implicit_dubowsky_freudenstein,
                  "dubowsky_freudenstein_cylindrical",
                  {{"restitution", 0.8}, {"impact_velocity_floor", 1e-3}, {"clearance", 1e-4}});
BENCHMARK_CAPTURE(force_kernel, cylindrical_explicit_liu, "liu_cylindrical",
                  {{"restitution", 0.8}, {"impact_velocity_floor", 1e-3}});
BENCHMARK_CAPTURE(force_kernel, cylindrical_explicit_persson, "persson",
                  {{"restitution", 0.8}, {"impact_velocity_floor", 1e-3}});
BENCHMARK_CAPTURE(force_kernel, cylindrical_power_pereira, "pereira_2015_external",
                  {{"restitution", 0.8}, {"impact_velocity_floor", 1e-3}});
BENCHMARK_CAPTURE(force_kernel, cylindrical_power_fit, "cylindrical_power_fit",
                  {{"hunt_crossley_alpha", 0.32}});

// Johnson's force by a root solve of the printed delta = a F (ln(b/F) + k) per evaluation, as
// Skrinjar et al. (2018) do: Newton from the force at 0.98 delta (the previous step's value at ~50
// steps per contact), or toms748 bracketed in [delta/(a y_max), delta/a]. Checked against the
// kernel.
void johnson_by_root_solve(benchmark::State& state, bool newton) {
  const LawEntry& law = *find_law("johnson_cylindrical");
  PairInput in{1.0989e11, 0.0025, 2.04e-3};
  in.radius_i = in.radius_j = 0.005;
  in.contact_length = 0.02;
  const PairCoeffs c = law.prepare(law, in, {{"restitution", 1.0}});
  const double a = c.law[0];
  auto delta_of = [&](double f) { return -a * f * std::log(a * c.law[1] * f); };
  constexpr int n = 4096;
  std::vector<double> overlap(n), guess(n), exact(n);
  for (int i = 0; i < n; ++i) {
    overlap[i] = 1e-6 * (1 + i % 17);
    exact[i] = kernels::LineContactImplicit::elastic(c, overlap[i]);
    guess[i] = kernels::LineContactImplicit::elastic(c, 0.98 * overlap[i]);
  }
  auto solve = [&](int i) {
    const double d = overlap[i];
    if (newton) {  // g(F) = delta(F) - d, g' = a (ln(b/F) + k - 1) = -a (ln(a law1 F) + 1)
      double f = guess[i];
      for (int it = 0; it < 100; ++it) {
        const double step = (delta_of(f) - d) / (-a * (std::log(a * c.law[1] * f) + 1.0));
        f -= step;
        if (std::abs(step) <= 1e-14 * f) break;
      }
      return f;
    }
    boost::math::tools::eps_tolerance<double> tol(50);
    std::uintmax_t iterations = 100;
    const auto [lo, hi] = boost::math::tools::toms748_solve(
        [&](double f) { return delta_of(f) - d; }, d / (a * 60.0), d / a, tol, iterations);
    return 0.5 * (lo + hi);
  };
  for (int i = 0; i < n; ++i)
    if (std::abs(solve(i) / exact[i] - 1.0) > 1e-12) {
      state.SkipWithError("root solve disagrees with the closed form");
      return;
    }
  for (auto _ : state) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += solve(i);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK_CAPTURE(johnson_by_root_solve, newton_warm_start, true);
BENCHMARK_CAPTURE(johnson_by_root_solve, toms748_bracketed, false);

// Skrinjar et al. (2018), Table 2: 12 laws x 11 restitution values, two 9.2 kg spheres, K = 5.2e9,
// 0.3 m/s.
void table2_sweep(benchmark::State& state) {
  const char* laws[] = {"hertz",
                        "hunt_crossley",
                        "herbert_mcwhannell",
                        "lee_wang",
                        "anagnostopoulos_skrinjar",
                        "lankarani_nikravesh",
                        "jankowski_skrinjar",
                        "zhiying_qishao",
                        "gonthier",
                        "flores",
                        "gharib_hurmuzlu",
                        "hu_guo_skrinjar"};
  for (auto _ : state) {
    int collisions = 0;
    for (const char* id : laws) {
      const LawEntry& law = *find_law(id);
      for (int i = 0; i <= 10; ++i) {
        const double c_r = i / 10.0;
        const ParamSpec* r = law.find_param("restitution");
        if (r && !r->admits(c_r) && id != std::string("anagnostopoulos_skrinjar")) continue;
        LawParams p{{"stiffness", 5.2e9}};
        if (r) p["restitution"] = c_r;
        ImpactOptions o;
        o.tension = law.tension;
        const ImpactResult x =
            simulate_impact(law, law.prepare(law, {0.0, 0.0, 4.6}, p), 4.6, 0.3, o);
        benchmark::DoNotOptimize(x.restitution);
        ++collisions;
      }
    }
    state.counters["collisions"] = collisions;
  }
}
BENCHMARK(table2_sweep)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
