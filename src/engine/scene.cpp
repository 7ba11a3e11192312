// Particles: the structure-of-arrays store of the bodies (scene.hpp).
#include <bit>
#include <cstdint>
#include <numbers>

#include "chaindem/engine/scene.hpp"

#include "chaindem/engine/huge_pages.hpp"

namespace chaindem {

void Particles::resize(Eigen::Index n) {
  conservative_resize_zeroed(position, n);
  conservative_resize_zeroed(position_carry, n);
  conservative_resize_zeroed(velocity, n);
  conservative_resize_zeroed(force, n);
  if (external_force.rows() > 0) conservative_resize_zeroed(external_force, n);
  conservative_resize_zeroed(radius, n);
  conservative_resize_zeroed(mass, n);
  conservative_resize_zeroed(inverse_mass, n);
  resize_on_huge_pages(material, static_cast<std::size_t>(n));
}

namespace {

// Sets row i of `a` to v, writing only the components that differ (in bits): resize() leaves
// zeros untouched (conservative_resize_zeroed), and the y and z of a chain on the x axis stay so.
void put(Vec3Array& a, Eigen::Index i, const Eigen::Vector3d& v) {
  for (Eigen::Index k = 0; k < 3; ++k)
    if (std::bit_cast<std::uint64_t>(a(i, k)) != std::bit_cast<std::uint64_t>(v[k])) a(i, k) = v[k];
}

}  // namespace

void Particles::set(Eigen::Index i, const Eigen::Vector3d& x, const Eigen::Vector3d& v, double r,
                    int material_index, double density, double length) {
  put(position, i, x);
  put(position_carry, i, Eigen::Vector3d::Zero());
  put(velocity, i, v);
  put(force, i, Eigen::Vector3d::Zero());
  if (external_force.rows() > 0) external_force.row(i).setZero();
  radius(i) = r;
  mass(i) = length > 0.0 ? density * std::numbers::pi * r * r * length
                         : density * 4.0 / 3.0 * std::numbers::pi * r * r * r;
  inverse_mass(i) = 1.0 / mass(i);
  material[static_cast<std::size_t>(i)] = material_index;
}

void Particles::set_load(Eigen::Index i, const Eigen::Vector3d& f) {
  if (external_force.rows() == 0) {
    if (f == Eigen::Vector3d::Zero()) return;
    external_force = Vec3Array::Zero(size(), 3);
  }
  external_force.row(i) = f.transpose().array();
}

}  // namespace chaindem
