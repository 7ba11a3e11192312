#pragma once
// What the contacts of each kind reach over a run, for the watch of their laws' validity
// (docs/engine.md, "Validity of the laws"): the largest strain delta/R* and the largest impact
// speed (approach rate at first touch). A kind is a pair of bead materials, or a bead material on
// one wall; its materials give its model, and so its law. Private to src/engine/.
//
// Each thread of a loop keeps its own maxima, in cache lines no other thread writes, merged when
// read: a maximum does not depend on the order it was taken in, so the merged ones are the same
// bits for any thread count and any grouping of the contacts.

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace chaindem::detail {

/// The largest of overlaps [c0, c1), numbers >= +0 (the engines leave a pair apart at +0, a NaN
/// one too): the integer maximum of their bits, which doubles >= +0 order as they do, and which
/// vectorises where a maximum of doubles (unordered under NaN and signed zeros, as the compiler
/// must take them) does not.
[[gnu::always_inline]] inline double largest_overlap_of(const double* __restrict overlap,
                                                        std::size_t c0, std::size_t c1) {
  std::int64_t most = 0;
  for (std::size_t c = c0; c < c1; ++c)
    most = std::max(most, std::bit_cast<std::int64_t>(overlap[c]));
  return std::bit_cast<double>(most);
}

/// largest_overlap_of, vectorised for the machine (chain_validity.cpp).
double largest_overlap(std::size_t c0, std::size_t c1, const double* __restrict overlap);

/// A strain delta/R* = d (ri + rj)/(ri rj) may raise the largest, `most`, where d (ri + rj) >=
/// most ri rj times this: the test without the division errs by a few roundings, far within.
inline constexpr double strain_margin = 1.0 - 0x1p-40;

/// One thread's maxima, per kind.
struct ValidityTally {
  double* strain = nullptr;  ///< [kind] largest delta/R*
  double* speed = nullptr;   ///< [kind] largest approach rate at first touch [m/s]
  void note_strain(int kind, double s) const {
    double& most = strain[static_cast<std::size_t>(kind)];
    most = s > most ? s : most;  // a NaN (a diverged state, stopped elsewhere) is not kept
  }
  /// The strain d/R* of a contact of bodies of radii ri and rj, R* = ri rj/(ri + rj) as
  /// pair_input has it; divided only where it may raise the largest (strain_margin).
  void note_strain(int kind, double d, double ri, double rj) const {
    const double most = strain[static_cast<std::size_t>(kind)];
    if (d * (ri + rj) >= most * (ri * rj) * strain_margin)
      note_strain(kind, d / (ri * rj / (ri + rj)));
  }
  void note_speed(int kind, double v) const {
    double& most = speed[static_cast<std::size_t>(kind)];
    most = v > most ? v : most;
  }
};

class ValidityWatch {
 public:
  /// Kinds for `materials` materials and `walls` walls, maxima 0, for `threads` threads.
  void reset(std::size_t materials, std::size_t walls, int threads) {
    materials_ = materials;
    kinds_ = materials * materials + walls * materials;
    // A row per thread, 64 bytes (8 doubles) of gap between rows wherever they start.
    stride_ = (2 * kinds_ + 7) / 8 * 8 + 8;
    values_.assign(stride_ * static_cast<std::size_t>(std::max(threads, 1)), 0.0);
  }
  std::size_t kinds() const { return kinds_; }
  /// Beads of materials a and b (either order), and a bead of material a on wall w.
  int pair_kind(int a, int b) const {
    const auto lo = static_cast<std::size_t>(std::min(a, b));
    const auto hi = static_cast<std::size_t>(std::max(a, b));
    return static_cast<int>(lo * materials_ + hi);
  }
  int wall_kind(int a, std::size_t w) const {
    return static_cast<int>(materials_ * materials_ + w * materials_ + static_cast<std::size_t>(a));
  }
  /// Kind k's materials: (a, b) of beads, or (a, w) of a bead on wall w.
  bool is_wall_kind(std::size_t k) const { return k >= materials_ * materials_; }
  std::pair<int, int> parts_of(std::size_t k) const {
    const std::size_t m = is_wall_kind(k) ? k - materials_ * materials_ : k;
    return is_wall_kind(k)
               ? std::pair{static_cast<int>(m % materials_), static_cast<int>(m / materials_)}
               : std::pair{static_cast<int>(m / materials_), static_cast<int>(m % materials_)};
  }
  /// The maxima of the calling thread: its number in the enclosing parallel region, or any row
  /// outside one (the run then has no other thread).
  ValidityTally here() {
    const std::size_t rows = values_.size() / stride_;
    const auto thread = static_cast<std::size_t>(omp_get_thread_num());
    double* row = values_.data() + std::min(thread, rows - 1) * stride_;
    return {row, row + kinds_};
  }
  /// The maxima over every thread, per kind.
  std::vector<double> strain() const { return merged(0); }
  std::vector<double> speed() const { return merged(kinds_); }
  /// Sets the maxima (a checkpoint's), per kind; false if they are not one per kind.
  bool restore(const std::vector<double>& strain, const std::vector<double>& speed) {
    if (strain.size() != kinds_ || speed.size() != kinds_) return false;
    std::fill(values_.begin(), values_.end(), 0.0);
    std::copy(strain.begin(), strain.end(), values_.begin());
    std::copy(speed.begin(), speed.end(), values_.begin() + static_cast<std::ptrdiff_t>(kinds_));
    return true;
  }

 private:
  std::vector<double> merged(std::size_t offset) const {
    std::vector<double> most(kinds_, 0.0);
    for (std::size_t row = 0; row < values_.size(); row += stride_)
      for (std::size_t k = 0; k < kinds_; ++k)
        most[k] = std::max(most[k], values_[row + offset + k]);
    return most;
  }

  std::size_t materials_ = 0, kinds_ = 0, stride_ = 8;
  std::vector<double> values_;  ///< per thread: strain [kind], then speed [kind]
};

}  // namespace chaindem::detail
