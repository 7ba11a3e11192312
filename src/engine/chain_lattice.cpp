// The chain engine's displacements from the touching lattice (chain_engine.hpp, displacement_):
// how they are set from the positions at the start, how the positions are set from them after
// each advance, the end beads' overlaps with their walls, and their place in checkpoints
// (docs/engine.md, "Positions and round-off").
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "chain_engine.hpp"

namespace chaindem::detail {

namespace {

// The median of `values` (the upper one of an even count); 0 for none.
double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

}  // namespace

// Each segment's gap is the median of its pairs' initial gaps; L_c is summed in double-double
// arithmetic from x_0 and its carry, and u_c = (x_c - hi) + (carry_c - lo), x_c - hi exact
// where the bead is near its lattice place (Sterbenz 1974). (L_0 = x_0: a striker apart from a
// touching chain gives every bead its gap as displacement, whose last digit, at 1e-5 m, is
// 2e-21 m. Moving L_0 to the median displacement would make the engine follow the motions of
// 1e-26 m that beads placed "touching" make, pressed by the rounding of their positions, which
// the general engine rounds away: the engines would differ by those artefacts.)
void ChainEngine::build_lattice() {
  const Particles& p = state_.scene.particles;
  const auto n = static_cast<std::size_t>(p.size());
  for (Segment& g : segments_) {
    std::vector<double> gaps;
    for (std::size_t c = g.begin; c < g.end; ++c) {
      const auto i = static_cast<Eigen::Index>(c);
      gaps.push_back(separation(p.position(i, 0), p.position_carry(i, 0), p.position(i + 1, 0),
                                p.position_carry(i + 1, 0)) -
                     radius_sum(c));
    }
    g.gap = median(std::move(gaps));
    // Beads placed touching are apart or pressed by the rounding of their positions: such a gap
    // is 0, so that a chain that starts touching lays the touching lattice whatever its
    // segments (and a table of copies of one model leaves every bit as the model alone).
    double farthest = 0.0;
    for (std::size_t c = g.begin; c <= g.end; ++c)
      farthest = std::max(farthest, std::abs(p.position(static_cast<Eigen::Index>(c), 0)));
    if (std::abs(g.gap) <= 8.0 * (std::nextafter(farthest, INFINITY) - farthest)) g.gap = 0.0;
  }
  displacement_.resize(n);
  lattice_.resize(n);
  double hi = p.position(0, 0), lo = p.position_carry(0, 0);
  auto g = segments_.begin();
  for (std::size_t c = 0; c < n; ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    if (c > 0) {
      while (c - 1 >= g->end) ++g;  // the segment of pair c - 1
      add_exactly(hi, lo, radius_sum(c - 1));
      add_exactly(hi, lo, g->gap);
    }
    lattice_[c] = hi;
    displacement_[c] = (p.position(i, 0) - hi) + (p.position_carry(i, 0) - lo);
    if (c == 0) first_lattice_low_ = lo;
    last_lattice_low_ = lo;
  }
}

void ChainEngine::place_particles() {
  double* x = state_.scene.particles.position.col(0).data();
  const std::size_t n = lattice_.size();
  const double* lattice = lattice_.data();
  const double* u = displacement_.data();
  for (std::size_t c = 0; c < n; ++c) x[c] = lattice[c] + u[c];
  // The end beads to the last digit, as their walls see them.
  x[0] = lattice[0] + (first_lattice_low_ + u[0]);
  x[n - 1] = lattice[n - 1] + (last_lattice_low_ + u[n - 1]);
}

// The displacements, and the lattice they are measured from (its origin and its segments' gaps),
// which the restored run rebuilds from its case: the same only if the case's initial state is.
std::vector<double> ChainEngine::lattice_record() const {
  std::vector<double> record{lattice_.front(), first_lattice_low_};  // L_0
  for (const Segment& g : segments_) record.push_back(g.gap);
  return record;
}

void ChainEngine::save(StateArchive& a) const {
  a.put("chain.displacement", displacement_);
  a.put("chain.lattice", lattice_record());
}

void ChainEngine::restore(const StateArchive& a) {
  std::vector<double> saved, lattice;
  a.get("chain.displacement", saved);
  a.get("chain.lattice", lattice);
  if (saved.size() != displacement_.size())
    throw StateArchiveError("checkpoint holds " + std::to_string(saved.size()) +
                            " displacements; this chain has " +
                            std::to_string(displacement_.size()) + " beads");
  if (lattice != lattice_record())
    throw StateArchiveError(
        "checkpoint: the chain started from other positions than this "
        "case's (its initial state, or initial.file, has changed)");
  displacement_ = std::move(saved);
}

}  // namespace chaindem::detail
