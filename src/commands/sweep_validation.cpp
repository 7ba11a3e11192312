#include "chaindem/commands/sweep_validation.hpp"

#include <algorithm>
#include <atomic>
#include <new>

#include "chaindem/commands/command_line.hpp"

namespace chaindem::sweep {
namespace {

// What a kept set-up holds in memory [bytes]: its particles' arrays and a fixed part (the typed
// case, the law's tables), rounded up from what a 10-bead and a 2000-bead chain measured (about
// 2.3 kB, and 100 bytes per particle).
std::size_t setup_bytes(const RunSetup& run) {
  return (std::size_t{4} << 10) + run.scene.particles.size() * 128;
}

}  // namespace

ValidSweep validate_sweep(const SweepInput& in) {
  ValidSweep v;
  v.d = read_sweep(in.path, in.sets);
  v.d.unset = in.unset;
  if (!in.output.empty()) v.d.output = in.output;
  if (v.d.output.empty()) v.d.output = default_output_path(in.path, ".h5", in.sets, in.unset);
  v.d.existing = existing_output(in.force);
  const std::size_t n = v.d.cases.size();
  v.cost.assign(n, 0.0);
  v.configs.resize(n);
  v.setups.resize(n);
  std::atomic<std::size_t> kept_bytes = 0;
  std::vector<std::string> invalid(n);
  std::vector<std::vector<std::string>> notes(n);
  const bool stacked = v.d.keep == Keep::stacked;
  std::vector<StackedShape> shapes(stacked ? n : 0);
  std::atomic<bool> out_of_memory = false;  // not the input's fault: reported as a failure
  // The first case is read from the files; the others differ from it only in the values of
  // their axes (CaseConfig::with_values), so the base case is read once, not once per case.
  const std::vector<std::string> sources = case_sources(v.d);
  const auto axes_begin = static_cast<std::ptrdiff_t>(v.d.fixed.size());
  const auto axes_end = axes_begin + static_cast<std::ptrdiff_t>(v.d.axes.size());
  const std::vector<std::string> axis_sources(sources.begin() + axes_begin,
                                              sources.begin() + axes_end);
  std::optional<CaseConfig> first;
  try {
    first = CaseConfig::load(v.d.base, case_overrides(v.d, 0), v.d.unset, sources);
  } catch (const CaseError& e) {
    throw CaseError(case_label(v.d, 0) + ": " + e.what());
  }
#pragma omp parallel for schedule(dynamic, 8) num_threads(in.threads)
  for (std::size_t k = 0; k < n; ++k) {
    try {
      const std::vector<std::string> overrides = case_overrides(v.d, k);
      v.configs[k] = first->with_values(
          {overrides.begin() + axes_begin, overrides.begin() + axes_end}, axis_sources);
      RunSetup run = build_run(*v.configs[k]);
      refuse_accuracy(*v.configs[k], run, "sweep");
      notes[k] = run.notes;
      if (stacked) {
        if (run.output.has_contacts())
          throw CaseError(
              "sweep.keep = stacked writes no contacts (each case touches its own number of "
              "times): set output.contacts = false, or keep = cases");
        shapes[k] = stacked_shape(run.scene, run.output, run.steps, run.output_every,
                                  run.settings.model_count(), run.spec.output.compression);
      }
      v.cost[k] = static_cast<double>(run.steps) * static_cast<double>(run.scene.particles.size());
      const std::size_t bytes = setup_bytes(run);
      if (k % static_cast<std::size_t>(in.ranks) == static_cast<std::size_t>(in.rank)) {
        if (kept_bytes.fetch_add(bytes) + bytes <= kept_setup_bytes)
          v.setups[k] = std::move(run);
        else
          kept_bytes -= bytes;
      }
    } catch (const std::bad_alloc&) {  // none may leave the parallel loop
      v.configs[k].reset();
      v.setups[k].reset();
      out_of_memory = true;
    } catch (const std::exception& e) {
      invalid[k] = case_label(v.d, k) + ": " + e.what();
    }
  }
  if (out_of_memory) throw std::bad_alloc();
  for (const auto& message : invalid)
    if (!message.empty()) throw CaseError(message);
  if (stacked && n > 0) {
    for (std::size_t k = 1; k < n; ++k)
      if (const std::string d = shape_difference(shapes[k], shapes[0]); !d.empty())
        throw CaseError(case_label(v.d, k) +
                        ": sweep.keep = stacked takes cases whose series have one shape, and " + d +
                        ": keep = cases, or one sweep per shape");
    v.shape = shapes[0];
  }
  for (const auto& case_notes : notes)
    for (const std::string& note : case_notes)
      if (std::find(v.notes.begin(), v.notes.end(), note) == v.notes.end()) v.notes.push_back(note);
  return v;
}

}  // namespace chaindem::sweep
