#pragma once
// A sweep's cases, each read, checked and set up before any runs (docs/sweeps.md): what
// `chaindem run` would refuse of a case is refused before the first case of the sweep runs.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/commands/sweep_definition.hpp"
#include "chaindem/output/stacked_writer.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/scene_builder.hpp"

namespace chaindem::sweep {

/// Every case, parsed and built once before any runs, and its cost (steps x particles).
struct ValidSweep {
  std::vector<std::string> notes;  ///< how cases were read (law parameters ignored), each once
  SweepDefinition d;
  std::vector<double> cost;
  std::vector<std::optional<CaseConfig>> configs;  ///< parsed once, kept for the run
  /// Built once, kept for the run when small: a rank's own cases while the set-ups kept take at
  /// most kept_setup_bytes (the others are built again when they run).
  std::vector<std::optional<RunSetup>> setups;
  /// sweep.keep = stacked: the shape every case has (the first case's).
  std::optional<StackedShape> shape;
};

/// Memory for the set-ups kept from validation: a small case's set-up costs as much time as its
/// steps, and a large one is built again (its set-up is then a small part of its run).
inline constexpr std::size_t kept_setup_bytes = std::size_t{256} << 20;

/// What the command line gives a sweep besides its file.
struct SweepInput {
  std::string path;                ///< SWEEP.ini
  std::vector<std::string> sets;   ///< --set section.key=value, for every case
  std::vector<std::string> unset;  ///< --unset section.key
  std::string output;              ///< -o, or empty: the sweep file's, or the default
  bool force = false;              ///< --force: the output may replace a file
  int threads = 1;                 ///< to read and check the cases on
  int rank = 0, ranks = 1;         ///< the MPI rank that keeps the set-ups of cases k % ranks
};

/// Reads the sweep and validates every case, in parallel; the first invalid case (lowest
/// index) is reported (CaseError naming the case by its axis values). The cost orders the work,
/// longest first, so that no thread is left with one long case at the end.
ValidSweep validate_sweep(const SweepInput& in);

}  // namespace chaindem::sweep
