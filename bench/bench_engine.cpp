// Engine benchmarks: Simulation::advance in the process, without output or set-up, in ns per
// bead-step. The case is bench/engine_speed.py's (and the peer benchmark's): N touching steel
// beads (R = 5 mm) struck at 1 m/s, dt = 3e-7 s, tension allowed, no wall.
//   build/bench/bench_engine --benchmark_filter='chain/1000000' --benchmark_repetitions=3
// Arguments: beads, threads, law (0 Hertz, 1 EDEM's Hertz-Mindlin with e = 0.9).
// `media`: the chain of two media (below), its contacts under several laws or one.
//   build/bench/bench_engine --benchmark_filter='media/' --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

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

// A chain of N/2 steel beads then N/2 PTFE beads (R = 5 mm, touching), struck by its first bead
// at 1 m/s, dt = 3e-7 s, tension allowed, under `contacts`:
//   0  steel-steel Hertz, steel-PTFE Hunt-Crossley (e = 0.9), PTFE-PTFE Thornton (1997): the
//      chain of several laws;
//   1, 2, 3  every pair Hertz, Hunt-Crossley or Thornton: one law on the same chain (its pairs
//      differ between the media, so that no loop takes it as uniform);
//   4, 5  N steel beads under Hertz, N PTFE beads under Thornton: one medium, one law.
enum MediaContacts {
  several,
  all_hertz,
  all_hunt_crossley,
  all_thornton,
  steel_hertz,
  ptfe_thornton
};

Simulation media_chain(long beads, int contacts) {
  const Material steel{"steel", 200e9, 0.3, 7800.0, 1.5e9}, ptfe{"ptfe", 0.5e9, 0.46, 2200.0, 2e7};
  Scene scene;
  scene.materials = {steel, ptfe};
  scene.particles.resize(beads);
  for (Eigen::Index i = 0; i < beads; ++i) {
    const int m = contacts == steel_hertz     ? 0
                  : contacts == ptfe_thornton ? 1
                  : i < beads / 2             ? 0
                                              : 1;
    scene.particles.set(i, {0.005 + 0.01 * static_cast<double>(i), 0.0, 0.0},
                        {i == 0 ? 1.0 : 0.0, 0.0, 0.0}, 0.005, m,
                        scene.materials[static_cast<std::size_t>(m)].density);
  }
  scene.striker = 0;
  scene.chain_first = 1;
  scene.chain_count = beads - 1;
  auto model = [](std::string_view id, const LawParams& given) {
    const LawEntry* law = find_law(id);
    return ContactModel{law, resolve_law_params(*law, given), TensionPolicy::allow};
  };
  const ContactModel hertz = model("hertz", {}), thornton = model("thornton_1997", {}),
                     hunt_crossley = model("hunt_crossley", {{"restitution", 0.9}});
  const ContactModel& first = contacts == all_hunt_crossley ? hunt_crossley
                              : contacts == all_thornton || contacts == ptfe_thornton ? thornton
                                                                                      : hertz;
  SimulationSettings s;
  s.law = first.law;
  s.law_params = first.params;
  s.tension = first.tension;
  s.time_step = 3e-7;
  s.skin = 5e-4;
  if (contacts == several) {
    s.contact_table.models = {hunt_crossley, thornton};
    s.contact_table.materials = 2;
    s.contact_table.pair_model = {0, 1, 1, 2};
  }
  Simulation sim(std::move(scene), s);
  sim.track_extremes();
  return sim;
}

void media(benchmark::State& state) {
  Simulation sim = media_chain(state.range(0), static_cast<int>(state.range(1)));
  constexpr std::int64_t steps = 64;
  sim.advance(steps);
  for (auto _ : state) sim.advance(steps);
  state.SetItemsProcessed(state.iterations() * sim.particles().size() * steps);
  state.SetLabel(sim.uses_vectorised_pairs() ? "vectorised" : "per-pair");
}

BENCHMARK(media)
    ->Name("media")
    ->ArgNames({"beads", "contacts"})
    ->ArgsProduct({{100000},
                   {several, all_hertz, all_hunt_crossley, all_thornton, steel_hertz,
                    ptfe_thornton}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
