#pragma once
// Which output frames each group of time series is written at (OutputSelection::every), and the
// step and time datasets the groups share. Private to src/output/ (H5mdWriter).
//
// Groups written at the same frames share one clock, held by the first of them (the position
// holds the particles' clock, the first observable the observables', /contacts its own) and
// linked into every other element of those groups when the run ends, as H5MD allows: a run
// whose groups are all written at every frame has one clock, in the position.

#include <array>
#include <cstdint>
#include <mutex>

#include "chaindem/output/compression.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_layout.hpp"

namespace chaindem::output_detail {

/// The steps and times of the frames one group of series is written at.
struct Clock {
  hdf5::Growing step, time;
  Clock() = default;
  Clock(hsize_t frames, std::mutex* lock, Compression compression)
      : step(-1, "step", {}, hdf5::Scalar::int64, "", frames, lock, compression),
        time(-1, "time", {}, hdf5::Scalar::float64, "s", frames, lock, compression) {}
  void append(std::int64_t s, double t) {
    step.append(&s, 1);
    time.append(&t, 1);
  }
};

class SeriesClocks {
 public:
  static constexpr std::size_t groups = layout::series_group_count;
  static constexpr std::size_t particles = 0, observables = 1, contacts = 2;

  SeriesClocks() = default;
  /// `written[g]`: group g has a series in the file; `steps` < 0: every group at every frame.
  SeriesClocks(const layout::OutputSelection& output, std::array<bool, groups> written,
               std::int64_t steps, std::int64_t output_every)
      : written_(written), steps_(steps), output_every_(output_every) {
    for (std::size_t g = 0; g < groups; ++g) {
      every_[g] = output.every(static_cast<layout::SeriesGroup>(g));
      leader_[g] = g;
      for (std::size_t h = 0; h < g; ++h)
        if (written_[h] && every_[h] == every_[g]) {
          leader_[g] = h;
          break;
        }
    }
  }

  /// Whether group g's series are written at the frame of step `step`: at every every(g)-th
  /// frame, and at the run's last step.
  bool due(std::size_t g, std::int64_t step) const {
    return steps_ < 0 || step == steps_ || step % (output_every_ * every_[g]) == 0;
  }
  /// The rows group g's series hold once `frames` frames are written, the run not yet at its
  /// last step (a checkpoint's): every every(g)-th frame from the first.
  std::int64_t rows(std::size_t g, std::int64_t frames) const {
    return frames <= 0 ? 0 : (frames - 1) / every_[g] + 1;
  }
  bool written(std::size_t g) const { return written_[g]; }
  /// The group whose clock group g's series share: g itself when it holds a clock.
  std::size_t leader(std::size_t g) const { return leader_[g]; }
  bool holds_clock(std::size_t g) const { return written_[g] && leader_[g] == g; }

 private:
  std::array<bool, groups> written_{};
  std::array<std::int64_t, groups> every_{1, 1, 1};
  std::array<std::size_t, groups> leader_{0, 1, 2};
  std::int64_t steps_ = -1, output_every_ = 1;
};

}  // namespace chaindem::output_detail
