// The chain engine's displacements from the touching lattice (chain_engine.hpp, displacement_):
// how they are set from the positions at the start, how the positions are set from them after
// each advance, the end beads' overlaps with their walls, and their place in checkpoints
// (docs/engine.md, "Positions and round-off").
#include <string>
#include <utility>

#include "chain_engine.hpp"

namespace chaindem::detail {

// L_c in double-double arithmetic (hi, lo: TwoSum, then renormalised), from x_0 and its carry,
// and u_c = (x_c - hi) + (carry_c - lo): x_c - hi is exact where the bead is near its lattice
// place (Sterbenz 1974), as for any chain that starts touching or nearly so.
void ChainEngine::build_lattice() {
  const Particles& p = state_.scene.particles;
  const auto n = static_cast<std::size_t>(p.size());
  displacement_.resize(n);
  lattice_.resize(n);
  double hi = p.position(0, 0), lo = p.position_carry(0, 0);
  for (std::size_t c = 0; c < n; ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    if (c > 0) {
      const double s = radius_sum(c - 1), t = hi + s, back = t - hi;
      lo += (hi - (t - back)) + (s - back);
      hi = t + lo;
      lo -= hi - t;
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

double ChainEngine::wall_overlap(std::size_t c, const Eigen::Vector3d& point) const {
  const auto i = static_cast<std::size_t>(state_.wall_contacts.first[c]);
  const Wall& wall = state_.scene.walls[static_cast<std::size_t>(state_.wall_contacts.second[c])];
  const double low = i == 0 ? first_lattice_low_ : last_lattice_low_;
  return state_.scene.particles.radius(static_cast<Eigen::Index>(i)) -
         ((lattice_[i] - point.x()) + (low + displacement_[i])) * wall.normal.x();
}

void ChainEngine::save(StateArchive& a) const {
  a.put("chain.displacement", displacement_);
}

void ChainEngine::restore(const StateArchive& a) {
  std::vector<double> saved;
  a.get("chain.displacement", saved);
  if (saved.size() != displacement_.size())
    throw StateArchiveError("checkpoint holds " + std::to_string(saved.size()) +
                            " displacements; this chain has " +
                            std::to_string(displacement_.size()) + " beads");
  displacement_ = std::move(saved);
}

}  // namespace chaindem::detail
