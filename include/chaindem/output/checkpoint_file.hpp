#pragma once
// A run's checkpoint, OUTPUT.checkpoint beside its partial output: the case it belongs to, the
// simulation's state and the run's observers (StateArchive), and how far the output file had
// been written. It is written under a temporary name, flushed to disk and renamed, so a crash
// leaves either the previous checkpoint or the new one, never half of one. docs/output-format.md,
// "Checkpoints and restart".

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "chaindem/engine/state_archive.hpp"

namespace chaindem {

/// A checkpoint that is missing, unreadable, from another build, or from another case.
struct CheckpointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Checkpoint {
  std::int64_t step = 0;
  double time = 0.0;
  std::int64_t frames = 0;        ///< output frames written up to the checkpoint
  std::int64_t contact_rows = 0;  ///< rows of /contacts written up to it
  /// The case's resolved keys (CaseConfig::resolved), so that a restart can tell its case.
  std::map<std::string, std::string> parameters;
  StateArchive simulation;  ///< Simulation::save_state
  StateArchive run;         ///< the run's observers and running results
};

/// The checkpoint file of the output `output`.
std::string checkpoint_path_for(const std::string& output);

/// Writes `cp` to `path` atomically and durably: `path`.partial, fsync, rename, fsync of the
/// directory. Throws OutputError naming the file.
void write_checkpoint(const std::string& path, const Checkpoint& cp);

/// Reads the checkpoint at `path`, written by this build of chaindem. Throws CheckpointError.
Checkpoint read_checkpoint(const std::string& path);

/// The first key in which `current` and the checkpoint's parameters differ, as a sentence
/// ("contact.restitution is 0.9 in the checkpoint and 0.8 here"), or "" if none does. Keys for
/// which `may_differ` is true (how a run computes, not what: threads, checkpointing) are not
/// compared.
std::string parameter_difference(const std::map<std::string, std::string>& checkpoint,
                                 const std::map<std::string, std::string>& current,
                                 const std::function<bool(const std::string&)>& may_differ);

}  // namespace chaindem
