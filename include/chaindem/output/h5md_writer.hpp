#pragma once
// HDF5 output in the H5MD 1.1 layout, readable by h5py, MATLAB and ParaView: /h5md (version,
// author, creator), and under the run's root the groups of output/output_layout.hpp, whose
// tables say what each holds: /particles/chain (per-particle time series and constants),
// /observables, /walls, /contacts (ragged, per touching contact), /parameters (every resolved
// case key, the case text, derived values) and /summary (RunSummary).
// The file is written under NAME.partial and renamed to NAME only when the run completed and
// every write succeeded (PartialOutput), so a run that is interrupted or fails never leaves a
// file that looks complete; NAME.xdmf is written beside it for ParaView, committed with it.
// docs/output-format.md has the details.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/output/output_file.hpp"  // Existing
#include "chaindem/output/output_layout.hpp"
#include "chaindem/output/run_writer.hpp"

namespace chaindem {

class PartialOutput;

/// Refuses (OutputPathError) a run's output `path` that check_output_path() refuses, or whose
/// XDMF file beside it would be: the pair must not replace each other, an input, or what is not
/// a regular file; unless `existing` allows it, neither may exist. `with_xdmf`: the run writes
/// the XDMF file (output.xdmf); without it only `path` is checked.
void check_run_output(const std::string& path, const std::vector<std::string>& inputs,
                      Existing existing, bool with_xdmf = true);

struct RunMetadata {
  std::map<std::string, std::string> parameters;  ///< resolved case keys
  std::string case_text;                          ///< the case file as read
  std::string case_origin;                        ///< its path
  std::map<std::string, double> derived;          ///< time step, steps, output interval, ...
  std::string time_step_note;
  std::int64_t expected_frames = 4096;  ///< sizes the chunks of the time series
  /// The run's steps and the steps between its frames: which frames each group of series is
  /// written at (OutputSelection::every). steps < 0: every frame, whatever the group.
  std::int64_t steps = -1;
  std::int64_t output_every = 1;
  /// The filter of every chunked dataset (output.compression); its availability is checked
  /// before the run (compression_unavailable).
  Compression compression = Compression::gzip;
  /// String attributes of the run's root group, written with its status (a sweep's
  /// `sweep_invocation`): a group that has its status has its labels.
  std::map<std::string, std::string> labels;
  /// The case section of each contact model of the run's settings ("contact",
  /// "contact.steel.ptfe"), for a run of several models; one not named is "model K".
  std::vector<std::string> model_sections;
  bool xdmf = true;  ///< a run's own file: NAME.xdmf is written beside it
};

/// How far a run's file has been written: what a checkpoint records of it.
struct OutputPosition {
  std::int64_t frames = 0;
  std::int64_t contact_rows = 0;
};

class H5mdWriter final : public RunWriter {
 public:
  /// Creates `path`.partial and writes the static parts. `swmr`: the file is written in SWMR
  /// mode (HDF5 1.10 format), so that it stays readable, up to its last sync(), if the process
  /// is killed (read it with h5py.File(path, "r", swmr=True) until it completes).
  /// `output`: the quantities it writes over time. `existing`: whether the finished file may
  /// replace one at `path`.
  H5mdWriter(std::string path, Existing existing, const RunMetadata& meta, const Simulation& sim,
             const layout::OutputSelection& output, bool swmr = false);
  /// Writes the run into a new group `group_name` of an open file, which several writers may
  /// share. Nothing touches HDF5 before finish() (or before the buffers of a long run reach
  /// ~4 MiB): the run computes without the file, and every HDF5 call holds `lock`. The group
  /// has the layout of a run's file but for /h5md, which the shared file has once, at its root.
  H5mdWriter(std::int64_t parent, std::string group_name, const RunMetadata& meta,
             const Simulation& sim, const layout::OutputSelection& output, std::mutex* lock);
  ~H5mdWriter() override;  ///< removes the partial file (or group) unless finish() was called
  /// Frames waiting to be written by the writer's thread take at most this many bytes; the run
  /// waits beyond it.
  static constexpr std::size_t queue_bytes = std::size_t{32} << 20;
  /// Bytes of one frame in memory, of `particles` particles and `contacts` contacts, of a run
  /// of one contact model or of several.
  static std::size_t frame_bytes(std::size_t particles, std::size_t contacts,
                                 const layout::OutputSelection& output,
                                 bool several_models = false);
  H5mdWriter(const H5mdWriter&) = delete;
  H5mdWriter& operator=(const H5mdWriter&) = delete;

  /// Appends one frame: particle state, the energies `e` (sim.energies(), which the caller has
  /// at hand), contacts, walls. Writing a run's own file happens on a background thread.
  void write_frame(const Simulation& sim, const EnergyReport& e) override;
  /// Writes the run summary (/summary: its numbers and words as attributes, its per-bead arrays
  /// as datasets) and closes every object, each close checked; a run's own file is then
  /// committed with its XDMF file (PartialOutput::commit). Throws OutputError for a run's own
  /// file, naming it.
  void finish(const layout::RunSummary& summary) override;

  /// Writes every frame so far to the file and waits until it is on disk; returns how far the
  /// file now goes. A run's own file only.
  OutputPosition sync();
  /// Appends the first `at` frames (and contact rows) of `previous`, the partial file of the run
  /// this one continues from a checkpoint; before any write_frame(). Throws CheckpointError when
  /// `previous` cannot be read or does not hold those frames (input), OutputError when the new
  /// file cannot be written.
  void continue_from(const std::string& previous, OutputPosition at);
  /// Writes every frame so far, closes the file and leaves it on disk as `path`.partial, to be
  /// continued from a checkpoint. Throws OutputError.
  void keep_partial();

  const std::string& path() const { return path_; }
  /// The frames held in memory, not yet handed to HDF5 [bytes].
  std::size_t buffered_bytes() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<PartialOutput> output_;  ///< a run's own file; none in a shared file
  std::string path_;
  bool finished_ = false;
  bool swmr_ = false;
  bool xdmf_ = true;                 ///< NAME.xdmf is committed with the file
  std::int64_t parent_ = -1;         ///< hid_t of the shared file's parent group, or -1
  std::vector<double> frame_times_;  ///< of the particles' frames, for the XDMF file
  std::int64_t frames_ = 0;          ///< output frames so far, whatever each group wrote
  std::int64_t particles_ = 0;
  layout::OutputSelection output_selection_;
};

/// The summary of the run in group `run_group` of the open HDF5 file `file` (hid_t), as
/// H5mdWriter::finish wrote it: the values its /summary has (an optional one it lacks stays
/// empty). Throws hdf5::Error when the group cannot be read.
layout::RunSummary read_run_summary(std::int64_t file, const std::string& run_group);

}  // namespace chaindem
