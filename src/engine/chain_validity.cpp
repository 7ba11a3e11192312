// The chain engine's watch of its pairs' strains (docs/engine.md, "Validity of the laws";
// validity_watch.hpp): the runs of pairs of one kind, and the pass over a range's overlaps after
// the per-pair loop (and the vectorised loop's blocks of pairs of several kinds or R*); and the
// largest of overlaps, vectorised for the machine, which the general engine takes too.
#include <algorithm>

#include "chain_engine.hpp"

namespace chaindem::detail {

CHAINDEM_HOT double largest_overlap(std::size_t c0, std::size_t c1,
                                    const double* __restrict overlap) {
  return largest_overlap_of(overlap, c0, c1);
}

// kind_runs_: maximal runs of consecutive pairs of one kind, with their R* where they share one.
void ChainEngine::build_kind_runs() {
  kind_runs_.clear();
  for (std::size_t c = 0; c < state_.pairs.size(); ++c) {
    const int kind = state_.pair_kind(c);
    const double radius = state_.pair_radius(c);
    if (kind_runs_.empty() || kind_runs_.back().kind != kind) {
      if (kind_runs_.size() == most_kind_runs) {
        kind_runs_.assign(1, {0, state_.pairs.size(), -1, 0.0, 0.0});
        return;
      }
      kind_runs_.push_back({c, c + 1, kind, radius, radius});
      continue;
    }
    KindRun& run = kind_runs_.back();
    run.end = c + 1;
    if (run.radius != radius) run.radius = 0.0;
    run.least_radius = std::min(run.least_radius, radius);
  }
}

// The strains of pairs [c0, c1), their overlaps evaluated, into `tally`, per run of one kind
// (kind_runs_) from its largest overlap d: d/R* where its pairs share one R*; else, only where
// d over its smallest R* (which no pair's strain exceeds) is beyond the kind's largest, each
// pair's; in a run of kind -1, each touching pair's by its own kind. The pair loops leave them to
// this pass over the overlaps, which costs far less than a test per pair in the loop.
void ChainEngine::watch_pairs(std::size_t c0, std::size_t c1, const ValidityTally& tally) const {
  const double* overlap = state_.pairs.overlap.data();
  const double* radius = state_.scene.particles.radius.data();
  auto run = std::upper_bound(kind_runs_.begin(), kind_runs_.end(), c0,
                              [](std::size_t c, const KindRun& r) { return c < r.begin; }) -
             1;
  for (; c0 < c1; ++run) {
    const std::size_t hi = std::min(c1, run->end);
    const double d = largest_overlap(c0, hi, overlap);
    if (d > 0.0 && run->radius > 0.0) {
      tally.note_strain(run->kind, d / run->radius);
    } else if (d > 0.0 && (run->kind < 0 || d / run->least_radius > tally.strain[run->kind])) {
      for (std::size_t c = c0; c < hi; ++c)
        if (overlap[c] > 0.0)
          tally.note_strain(run->kind < 0 ? state_.pair_kind(c) : run->kind, overlap[c], radius[c],
                            radius[c + 1]);
    }
    c0 = hi;
  }
}

// Pair c's impact speed, as record_onset booked it at its first touch, into the thread's tally.
// Out of the pair loop: first touches are rare.
void ChainEngine::note_onset(std::size_t c) const {
  state_.validity.here().note_speed(state_.pair_kind(c), state_.pairs.onset_rate[c]);
}

}  // namespace chaindem::detail
