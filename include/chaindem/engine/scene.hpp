#pragma once
// What is simulated: materials, spheres (structure of arrays), planar walls, body forces.

#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/engine/motion.hpp"

namespace chaindem {

struct Material {
  std::string name;
  double youngs_modulus = 0.0;         ///< E [Pa]
  double poisson_ratio = 0.0;          ///< nu [-]
  double density = 0.0;                ///< rho [kg/m^3]
  std::optional<double> yield_stress;  ///< sigma_y [Pa], for plastic laws

  /// (1 - nu^2)/E [1/Pa]; E* = 1/(h_i + h_j).
  double compliance() const { return (1.0 - poisson_ratio * poisson_ratio) / youngs_modulus; }
};

/// hi + lo += s, exactly (TwoSum), then renormalised so that |lo| stays within half an ulp of hi
/// (Fast2Sum): a sum in double-double arithmetic (Dekker 1971), for positions far from the
/// origin that must keep the digits of small distances (Particles::position_carry).
inline void add_exactly(double& hi, double& lo, double s) {
  const double t = hi + s, back = t - hi;
  lo += (hi - (t - back)) + (s - back);
  hi = t + lo;
  lo -= hi - t;
}

/// N x 3 array, one column per component: x, y and z each contiguous (structure of arrays).
using Vec3Array = Eigen::Array<double, Eigen::Dynamic, 3>;

/// Spheres, stored as structure of arrays.
struct Particles {
  Vec3Array position;  ///< [m]
  /// What each position holds below its last digit: body i is at position(i) + this [m]. The
  /// steps add their displacements to the sum (compensated summation, Kahan 1965), and data
  /// read from text keep the digits of their positions a double cannot hold: a run's
  /// trajectories then do not depend on how far from the origin it lies, and keep converging
  /// down to any step. Each component below half an ulp of the position's; zero when set().
  Vec3Array position_carry;
  Vec3Array velocity;  ///< [m/s]
  Vec3Array force;     ///< total force of the last evaluation [N]
  /// Constant applied force (an end load), excluding gravity [N]: no rows while no particle
  /// carries one, as in most runs, a row per particle once one does (set_load).
  Vec3Array external_force;
  Eigen::ArrayXd radius;        ///< [m]
  Eigen::ArrayXd mass;          ///< [kg]
  Eigen::ArrayXd inverse_mass;  ///< [1/kg]
  std::vector<int> material;    ///< index into Scene::materials

  Eigen::Index size() const { return radius.size(); }
  void resize(Eigen::Index n);
  /// The applied force on particle i (zero where none was applied) [N].
  Eigen::Vector3d load(Eigen::Index i) const {
    return external_force.rows() > 0 ? Eigen::Vector3d(external_force.row(i).transpose())
                                     : Eigen::Vector3d::Zero();
  }
  /// Applies force f to particle i, in place of the one it had [N].
  void set_load(Eigen::Index i, const Eigen::Vector3d& f);
  /// Sets body i, a sphere, or a cylinder of axial length `length` > 0 (mass from density,
  /// radius and length); i < size().
  void set(Eigen::Index i, const Eigen::Vector3d& x, const Eigen::Vector3d& v, double r,
           int material_index, double density, double length = 0.0);
};

/// An infinite plane. `normal` points into the half-space where the particles are.
struct Wall {
  std::string name;
  Eigen::Vector3d point = Eigen::Vector3d::Zero();     ///< a point of the plane at t = 0 [m]
  Eigen::Vector3d normal = Eigen::Vector3d::UnitX();   ///< unit normal
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();  ///< prescribed constant velocity [m/s]
  int material = 0;
  /// What `point` holds below its last digit (as Particles::position_carry) [m]
  Eigen::Vector3d point_carry = Eigen::Vector3d::Zero();
  /// A prescribed motion along `normal`, beside the constant velocity: at time t the plane
  /// passes through point + t velocity + motion.displacement(t) normal, at the velocity
  /// velocity + motion.velocity(t) normal, both evaluated exactly at each step's time.
  Motion motion;

  /// True when the wall never moves.
  bool at_rest() const { return (velocity.array() == 0.0).all() && motion.at_rest(); }
  /// True when it moves along its normal at some time (and so may do work on the bodies).
  bool moves_along_normal() const { return velocity.dot(normal) != 0.0 || !motion.at_rest(); }
};

/// A load that varies in time beside a particle's constant one (Particles::external_force), as a
/// force shaker applies: at time t particle `particle` feels motion.displacement(t) direction
/// more, the Motion read in newtons and evaluated exactly at each step's time (docs/driven.md,
/// "A driven end load").
struct DrivenLoad {
  Eigen::Index particle = 0;
  Eigen::Vector3d direction = Eigen::Vector3d::UnitX();  ///< unit
  Motion motion;  ///< the change of the load from the constant one [N]

  /// The load's change at time t [N].
  Eigen::Vector3d at(double t) const { return motion.displacement(t) * direction; }
};

struct Scene {
  std::vector<Material> materials;
  Particles particles;
  std::vector<Wall> walls;
  /// Loads that vary in time, beside the particles' constant ones (usually none).
  std::vector<DrivenLoad> driven_loads;
  Eigen::Vector3d gravity = Eigen::Vector3d::Zero();  ///< [m/s^2]
  /// Index of the striker, if there is one; the chain beads are the other particles in chain
  /// order.
  std::optional<Eigen::Index> striker;
  Eigen::Index chain_first = 0;  ///< first chain bead
  Eigen::Index chain_count = 0;  ///< number of chain beads (consecutive indices)
  /// Axial length of every body when they are parallel cylinders (line contacts); 0: spheres.
  double cylinder_length = 0.0;
};

}  // namespace chaindem
