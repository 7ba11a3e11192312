// Particles: the structure-of-arrays store of the bodies (scene.hpp).
#include <numbers>

#include "chaindem/engine/scene.hpp"

namespace chaindem {

void Particles::resize(Eigen::Index n) {
  position.conservativeResize(n, 3);
  velocity.conservativeResize(n, 3);
  force.conservativeResize(n, 3);
  external_force.conservativeResize(n, 3);
  radius.conservativeResize(n);
  mass.conservativeResize(n);
  inverse_mass.conservativeResize(n);
  material.resize(static_cast<std::size_t>(n));
}

void Particles::set(Eigen::Index i, const Eigen::Vector3d& x, const Eigen::Vector3d& v, double r,
                    int material_index, double density, double length) {
  position.row(i) = x.transpose().array();
  velocity.row(i) = v.transpose().array();
  force.row(i).setZero();
  external_force.row(i).setZero();
  radius(i) = r;
  mass(i) = length > 0.0 ? density * std::numbers::pi * r * r * length
                         : density * 4.0 / 3.0 * std::numbers::pi * r * r * r;
  inverse_mass(i) = 1.0 / mass(i);
  material[static_cast<std::size_t>(i)] = material_index;
}

}  // namespace chaindem
