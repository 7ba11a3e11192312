#include "chaindem/engine/neighbor_search.hpp"

#include <algorithm>
#include <numeric>

namespace chaindem {

std::vector<std::pair<int, int>> find_particle_pairs(const Vec3Array& position,
                                                     const Eigen::ArrayXd& radius, double skin) {
  const Eigen::Index n = radius.size();
  std::vector<std::pair<int, int>> pairs;
  if (n < 2) return pairs;

  // Sweep along the axis where the particles spread the most.
  Eigen::Index axis = 0;
  (position.colwise().maxCoeff() - position.colwise().minCoeff()).maxCoeff(&axis);
  const auto x = position.col(axis);

  // Interval of particle k along the axis: [x - r - skin/2, x + r + skin/2].
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double la = x(a) - radius(a), lb = x(b) - radius(b);
    return la < lb || (la == lb && a < b);
  });

  for (std::size_t s = 0; s < order.size(); ++s) {
    const int a = order[s];
    const double reach = x(a) + radius(a) + skin;
    for (std::size_t t = s + 1; t < order.size(); ++t) {
      const int b = order[t];
      if (x(b) - radius(b) > reach) break;  // sorted by lower end: no later b can overlap
      const double cutoff = radius(a) + radius(b) + skin;
      const double d2 = (position.row(a) - position.row(b)).square().sum();
      if (d2 < cutoff * cutoff) pairs.emplace_back(std::min(a, b), std::max(a, b));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

std::vector<std::pair<int, int>> find_wall_pairs(const Vec3Array& position,
                                                 const Eigen::ArrayXd& radius,
                                                 const std::vector<Wall>& walls,
                                                 const std::vector<Eigen::Vector3d>& wall_offset,
                                                 double skin) {
  std::vector<std::pair<int, int>> pairs;
  for (Eigen::Index i = 0; i < radius.size(); ++i) {
    for (std::size_t w = 0; w < walls.size(); ++w) {
      const Eigen::Vector3d p = walls[w].point + wall_offset[w];
      const double distance = (position.row(i).transpose().matrix() - p).dot(walls[w].normal);
      if (distance - radius(i) < skin) pairs.emplace_back(static_cast<int>(i), static_cast<int>(w));
    }
  }
  return pairs;
}

}  // namespace chaindem
