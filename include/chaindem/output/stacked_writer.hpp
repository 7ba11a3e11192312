#pragma once
// A sweep's cases stacked (sweep.keep = stacked, docs/sweeps.md): every time series and
// per-particle constant of the cases in one dataset, a row per case, under /stacked of the sweep
// file. Creating HDF5 objects is what a case's own group costs (~150 of them); a stacked case
// writes rows of datasets made once for the whole sweep, so a sweep of small cases writes its
// frames at about the speed of their steps. The cases must have equal shapes (particles written,
// frames of each group, walls, sections): StackedShape says what each writes.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_layout.hpp"
#include "chaindem/output/run_writer.hpp"

namespace chaindem {

/// What one case writes: the sizes of its rows. A stacked sweep's cases all have the first one's.
struct StackedShape {
  layout::OutputSelection output;
  std::int64_t particles = 0;  ///< particles written
  /// Rows of each group's series (layout::SeriesGroup): the output frames it is written at.
  std::array<std::int64_t, layout::series_group_count> frames{};
  std::int64_t striker = -1, chain_first = 0, chain_count = 0;
  std::size_t materials = 0;
  Compression compression = Compression::gzip;  ///< output.compression
  std::vector<std::string> walls;               ///< their names
  std::vector<std::int64_t> section_beads;      ///< beads of each chain section (several models)
  std::vector<std::int64_t> section_starts;     ///< each section's first chain bead
  bool operator==(const StackedShape&) const = default;
};

/// The shape of a run of `scene` writing `output` over `steps` steps, a frame every
/// `output_every`, with `models` contact models.
StackedShape stacked_shape(const Scene& scene, const layout::OutputSelection& output,
                           std::int64_t steps, std::int64_t output_every, int models,
                           Compression compression);
/// What makes `shape` differ from `first` ("it writes 21 particles, the first case 11"), or ""
/// when they are equal.
std::string shape_difference(const StackedShape& shape, const StackedShape& first);

/// /stacked of an open sweep file: its datasets, made for `cases` cases of `shape`, each case's
/// row written by its StackedCase.
class StackedFile {
 public:
  /// Creates the group and its datasets in `file`, or opens those it has (a sweep run again
  /// into its partial file: every row is then marked unwritten, to be written again).
  StackedFile(hid_t file, std::size_t cases, const StackedShape& shape);
  ~StackedFile();
  StackedFile(const StackedFile&) = delete;
  StackedFile& operator=(const StackedFile&) = delete;

  const StackedShape& shape() const { return shape_; }
  /// Closes every dataset, each close checked; the caller holds the lock.
  void close();
  /// Lets go of every dataset unclosed: the file's writes failed (hdf5::Handle::release).
  void abandon();

  /// Copies the rows of `cases` (written there, `written` = 1) from the /stacked of `source`,
  /// another rank's file of the same sweep, into this one's; the caller holds the lock.
  void copy_rows(hid_t source, const std::vector<std::size_t>& cases);

 private:
  friend class StackedCase;
  struct Datasets;
  struct Builder;
  std::unique_ptr<Datasets> sets_;
  StackedShape shape_;
};

/// One case's row of a StackedFile: its frames held in memory as the run computes, written as
/// row `index` of every dataset by finish(), whose HDF5 calls hold `lock`.
class StackedCase final : public RunWriter {
 public:
  /// Throws std::logic_error when the run's shape is not the file's (validation refuses such
  /// a case first).
  StackedCase(StackedFile& file, std::size_t index, const Simulation& sim,
              const layout::OutputSelection& output, std::int64_t steps, std::int64_t output_every,
              Compression compression, std::mutex* lock);
  ~StackedCase() override;
  void write_frame(const Simulation& sim, const EnergyReport& e) override;
  /// Compresses the case's rows (where their datasets are compressed), on the calling thread,
  /// and checks that they fill the file's rows.
  void computed() override;
  void finish(const layout::RunSummary& summary) override;
  std::size_t buffered_bytes() const override;

 private:
  struct Rows;
  struct Payload;
  void gather_payloads();
  StackedFile& file_;
  std::size_t index_;
  std::mutex* lock_;
  std::unique_ptr<Rows> rows_;
  std::vector<Payload> payloads_;
};

}  // namespace chaindem
