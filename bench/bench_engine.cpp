// Engine benchmarks: Simulation::advance in the process, without output or set-up, in ns per
// bead-step. The case is bench/engine_speed.py's (and the peer benchmark's): N touching steel
// beads (R = 5 mm) struck at 1 m/s, dt = 3e-7 s, tension allowed, no wall.
//   build/bench/bench_engine --benchmark_filter='chain/1000000' --benchmark_repetitions=3
// Arguments: beads, threads, law (0 Hertz, 1 EDEM's Hertz-Mindlin with e = 0.9).
#include <benchmark/benchmark.h>

#include <string>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/setup/scene_builder.hpp"

using namespace chaindem;

namespace {

Simulation chain(long beads, long threads, bool damped) {
  const std::string ini =
      "[simulation]\nduration = 1\ntime_step = 3e-7\nthreads = " + std::to_string(threads) +
      "\n[contact]\n" +
      (damped ? "law = edem_hertz_mindlin\nrestitution = 0.9\n" : "law = hertz\n") +
      "tension = allow\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = " +
      std::to_string(beads) +
      "\nmaterials = steel\nradii = 0.005\n"
      "[striker]\nvelocity = 1.0\n";
  RunSetup run = build_run(CaseConfig::parse(ini, "bench_engine.ini", {}));
  Simulation sim(std::move(run.scene), run.settings);
  sim.track_extremes();  // as `chaindem run` does
  return sim;
}

void chain_engine(benchmark::State& state) {
  Simulation sim = chain(state.range(0), state.range(1), state.range(2) != 0);
  constexpr std::int64_t steps = 64;  // two passes
  sim.advance(steps);                 // first touch of the arrays
  for (auto _ : state) sim.advance(steps);
  // items per second = bead-steps per second; ns per bead-step = 1e9 / items_per_second.
  state.SetItemsProcessed(state.iterations() * sim.particles().size() * steps);
}

BENCHMARK(chain_engine)
    ->Name("chain")
    ->ArgNames({"beads", "threads", "edem"})
    ->ArgsProduct({{1000, 10000, 100000, 1000000}, {1, 2}, {0, 1}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
