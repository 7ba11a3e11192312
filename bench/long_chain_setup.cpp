// The set-up of a run, phase by phase: what `chaindem run` does before its first step (reading
// and building the case, constructing the simulation with its per-bead extremes, creating the
// output file with its static part), timed here in one process; bench/long_chain.py reports it.
//
//   build/bench/long_chain_setup CASE.ini OUT.h5 [section.key=value ...]
//
// Prints one line of JSON: the seconds of each phase, their total, the particles and the memory
// the set-up estimates for the run (estimated_peak_memory) [bytes]. OUT.h5 is not kept.

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/setup/scene_builder.hpp"

int main(int argc, char** argv) {
  using namespace chaindem;
  using Clock = std::chrono::steady_clock;
  if (argc < 3) {
    std::cerr << "usage: long_chain_setup CASE.ini OUT.h5 [section.key=value ...]\n";
    return 2;
  }
  const std::vector<std::string> overrides(argv + 3, argv + argc);
  auto seconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  };
  try {
    const auto t0 = Clock::now();
    const CaseConfig cfg = CaseConfig::load(argv[1], overrides);
    RunSetup run = build_run(cfg);
    const std::size_t estimate = run.memory_estimate;
    const auto t1 = Clock::now();
    Simulation sim(std::move(run.scene), run.settings);
    sim.track_extremes();
    const auto t2 = Clock::now();
    const H5mdWriter writer(argv[2], Existing::replace, RunMetadata{}, sim, run.output);
    const auto t3 = Clock::now();
    std::cout << "{\"particles\": " << sim.particles().size() << ", \"build\": " << seconds(t0, t1)
              << ", \"simulation\": " << seconds(t1, t2) << ", \"writer\": " << seconds(t2, t3)
              << ", \"total\": " << seconds(t0, t3) << ", \"estimated_peak_memory\": " << estimate
              << "}\n";
  } catch (const std::exception& e) {
    std::cerr << "long_chain_setup: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
