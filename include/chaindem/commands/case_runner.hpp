#pragma once
// Runs one case to its HDF5 file and returns its summary: the loop shared by `chaindem run` and
// `chaindem sweep`, so a case in a sweep gives exactly the numbers of a single run.

#include <csignal>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "chaindem/output/output_file.hpp"  // Existing
#include "chaindem/output/output_layout.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/scene_builder.hpp"
#include "chaindem/text.hpp"

namespace chaindem {

/// Checkpoints of a run to its own file (run_to_file), OUTPUT.checkpoint beside OUTPUT.partial
/// (docs/output-format.md, "Checkpoints and restart").
struct CheckpointPlan {
  /// Wall-clock seconds between checkpoints (the output is then written in SWMR mode, so that a
  /// killed run's partial file stays readable up to its last checkpoint); 0: a checkpoint only
  /// when the run receives SIGTERM.
  double interval = 0.0;
  bool restart = false;  ///< continue from the output's checkpoint instead of starting
  /// A new run (not `restart`) over a checkpoint that this case could continue: start over,
  /// deleting it. Without it such a run is refused (CheckpointError): computed work is not
  /// discarded because --restart was forgotten.
  bool discard = false;
};

struct RunControl {
  std::ostream* progress = nullptr;                  ///< progress lines (stderr), or none
  const volatile std::sig_atomic_t* stop = nullptr;  ///< set by a signal handler: stop cleanly
  /// Checkpointing (run_to_file only); none: a stopped run leaves nothing.
  const CheckpointPlan* checkpoint = nullptr;
  /// A run of its own (`chaindem run`, chaindem.run()), not a case of a sweep, a comparison or a
  /// fit: simulation.error_estimate = auto estimates its error (estimates_error).
  bool own_run = false;
};

/// The run was stopped by a signal. It left no output file, or, when `checkpoint` is not
/// empty, that checkpoint and the partial output it continues.
struct Interrupted : std::runtime_error {
  int signal;
  std::string checkpoint;
  Interrupted(int s, double t, std::string checkpoint_path = "")
      : std::runtime_error("interrupted by signal " + std::to_string(s) +
                           " at t = " + rounded_text(t, 6) + " s"),
        signal(s),
        checkpoint(std::move(checkpoint_path)) {}
};

/// The message of a fault the engine stopped a case's run with: the engine's account of it
/// (what(), which names bodies and steps) and what to change in the case, by its keys. The runs
/// below throw their faults with this message.
std::string case_fault_text(const EngineFault& fault);

/// Installs handlers of stop_signals() that set the flag returned by stop_flag(): runs stop
/// between steps and remove their partial files instead of dying mid-write.
void install_stop_handlers();
/// The signals every command that writes handles: SIGINT (Ctrl-C), SIGTERM (a batch system's
/// time limit) and SIGHUP (a closed terminal or ssh connection).
std::span<const int> stop_signals();
/// Whether a stop by `signal` keeps what was computed (a run's checkpoint): SIGTERM and SIGHUP,
/// which end a job that did not choose to stop; not SIGINT, a user's Ctrl-C.
bool keeps_work(int signal);
const volatile std::sig_atomic_t* stop_flag();
/// For a process that runs several commands at once (the Python module): after
/// install_stop_handlers(), hold_stop_handlers(true) makes later calls of it leave the handlers
/// and the flag alone, so that no command's start clears a stop requested for all, until
/// hold_stop_handlers(false).
void hold_stop_handlers(bool hold);

/// Runs the case and writes `path` (via path.partial, renamed when complete, PartialOutput).
/// Throws Interrupted, OutputError when the file cannot be written, CheckpointError when a
/// restart finds no checkpoint of this case, or std::runtime_error when the integration
/// diverges; none leaves a file behind, but for the checkpoint of an interruption (Interrupted)
/// and the checkpoint a failed restart started from. `existing`: whether the finished file may
/// replace one at `path`.
layout::RunSummary run_to_file(const CaseConfig& cfg, RunSetup run, const std::string& path,
                               Existing existing, const RunControl& control = {});

class RunWriter;

/// A run that has been computed and holds its whole output in memory. commit() writes it (its
/// HDF5 calls hold the file's lock); destroyed uncommitted, it leaves nothing in the file.
class PendingRun {
 public:
  PendingRun(layout::RunSummary summary, std::unique_ptr<RunWriter> writer);
  PendingRun(PendingRun&&) noexcept;
  PendingRun& operator=(PendingRun&&) noexcept;
  ~PendingRun();

  const layout::RunSummary& summary() const { return summary_; }
  /// The output it holds in memory until commit() [bytes].
  std::size_t buffered_bytes() const;
  void commit();

 private:
  layout::RunSummary summary_;
  std::unique_ptr<RunWriter> writer_;
};

/// Same as run_to_file, into a new group `name` of an open HDF5 file (hid_t `parent`) shared by
/// several threads. The run computes without touching the file; its output is written by
/// commit() of the result, so that the caller chooses when the (serialised) HDF5 work happens.
/// `labels` become string attributes of the group, written with its completion status.
PendingRun run_to_group(const CaseConfig& cfg, RunSetup run, std::int64_t parent,
                        const std::string& name, std::mutex* lock, const RunControl& control = {},
                        const std::map<std::string, std::string>& labels = {});

class StackedFile;
/// Same as run_to_group, as row `index` of every dataset of `file`, the stacked cases of a sweep
/// (sweep.keep = stacked), whose shape the run must have.
PendingRun run_to_stacked(const CaseConfig& cfg, RunSetup run, StackedFile& file, std::size_t index,
                          std::mutex* lock, const RunControl& control = {});

/// `run`, or, when its case asks for simulation.accuracy, the same case built again at the step
/// that reaches it: a first run (no output; its progress to `progress`) estimates its error at
/// the automatic step, and the error goes as dt^2. The time-step note says what was done. Throws
/// std::runtime_error when the first run's error cannot be estimated, and what run_to_file
/// throws of a run.
RunSetup step_for_accuracy(const CaseConfig& cfg, RunSetup run, std::ostream* progress);

/// Same as run_to_file, writing nothing: the run's summary alone. Every result of the summary
/// is that of a run to a file (the energy balance is checked at the same output frames), but no
/// frame is copied and no metadata gathered.
layout::RunSummary run_summary_only(const CaseConfig& cfg, RunSetup run,
                                    const RunControl& control = {});

}  // namespace chaindem
