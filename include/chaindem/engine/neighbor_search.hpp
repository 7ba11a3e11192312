#pragma once
// Neighbor search by sort and sweep along the axis of largest extent. A chain is long in one
// direction and thin in the others, so sorting the bounding intervals along that axis finds the
// candidate pairs in O(N log N) without a grid, and still handles particles off the axis.

#include <utility>
#include <vector>

#include "chaindem/engine/scene.hpp"

namespace chaindem {

/// Candidate particle pairs (i < j) whose surfaces are closer than `skin`, sorted by (i, j).
std::vector<std::pair<int, int>> find_particle_pairs(const Vec3Array& position,
                                                     const Eigen::ArrayXd& radius, double skin);

/// Candidate (particle, wall) pairs whose gap is below `skin`, sorted by (particle, wall).
/// `wall_offset[w]` is the displacement of wall w since t = 0.
std::vector<std::pair<int, int>> find_wall_pairs(const Vec3Array& position,
                                                 const Eigen::ArrayXd& radius,
                                                 const std::vector<Wall>& walls,
                                                 const std::vector<Eigen::Vector3d>& wall_offset,
                                                 double skin);

}  // namespace chaindem
