#pragma once
// What a kernel computes from: a pair's coefficients (prepared once from the law's parameters,
// the materials and the geometry) and its history.

#include <array>

namespace chaindem {

/// Per-pair coefficients, computed once when a pair enters the neighbor structure. The meaning
/// of `damping` is fixed by the kernel (chi, C, alpha, |beta| or D).
struct PairCoeffs {
  double stiffness = 0.0;         ///< K [N/m^n]
  double exponent = 1.5;          ///< n, elastic exponent
  double damping = 0.0;           ///< damping coefficient or factor, per kernel
  double damping_exponent = 0.0;  ///< m, exponent of delta in the damping term
  double effective_mass = 0.0;    ///< m* [kg]
  double restitution = 1.0;       ///< c_r, for kernels that use it directly
  double length = 0.0;            ///< a length scale of the law (Lee-Wang epsilon) [m]
  double shape = 0.0;             ///< a dimensionless shape parameter (Lee-Wang q)
  // Elastoplastic laws (group (e)); `stiffness` is then the Hertz K = (4/3) E* sqrt(R*).
  double radius = 0.0;           ///< R* (R against a plane) [m]
  double yield_overlap = 0.0;    ///< delta_y, end of the elastic (Hertz) branch [m]
  double yield_force = 0.0;      ///< F_y = K delta_y^(3/2) [N]
  double plastic_overlap = 0.0;  ///< delta_p, start of the last (fully plastic) branch [m]
  double plastic_force = 0.0;    ///< F_p, loading force at delta_p [N]
  std::array<double, 3> law{};   ///< law-specific constants, documented per model (kernels::ep)
};

/// The law's history of one pair: what its kernel reads and advances (the engine keeps its own
/// per-contact bookkeeping, touching and work, in ContactList). Plastic laws keep it across
/// separations.
struct ContactState {
  double impact_velocity =
      0.0;  ///< v0 of the hysteresis laws, as the engine's policy sets it [m/s]
  /// Hysteresis laws: the damping scale g(delta_s) their damping is measured from, for a contact
  /// that started pre-compressed at delta_s (0: from delta = 0; Hysteresis), and that origin's
  /// overlap delta_s, elastic force F_e(delta_s) and stored energy U(delta_s).
  double damping_origin = 0.0;
  double origin_overlap = 0.0;    ///< [m]
  double origin_force = 0.0;      ///< [N]
  double origin_energy = 0.0;     ///< [J]
  double max_overlap = 0.0;       ///< plastic laws: largest overlap ever reached [m]
  double max_force = 0.0;         ///< plastic laws: force at max_overlap [N]
  double residual_overlap = 0.0;  ///< plastic laws: overlap where unloading reaches F = 0 [m]
  double unload_stiffness = 0.0;  ///< plastic laws: K_u of the frozen unloading branch
  double unload_exponent = 0.0;   ///< elastoplastic laws: n_u of the frozen unloading branch
  int unloading = 0;              ///< plastic laws: on the frozen unloading branch
  int regime = 0;  ///< elastoplastic laws: 0 elastic, 1 elastoplastic, 2 fully plastic
};

}  // namespace chaindem
