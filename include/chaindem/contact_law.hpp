#pragma once
// Normal contact-force laws: declarations, per-pair coefficients and the inline force kernels.
//
// A law is declared exactly once, as a LawEntry in the registry (src/laws.cpp): identifier,
// citation, formula, parameters with units and ranges, the kernel that evaluates it and the
// function that turns materials, geometry and parameters into per-pair coefficients. The case
// parser, `chaindem models`, docs/contact-laws.md and the tests all read that registry.
//
// Laws of one family share one kernel: the hysteresis laws differ only by their damping factor
// alpha(c_r), the viscous laws by their damping coefficient chi. The kernel is chosen once per
// force loop (see Simulation), so the hot loop has no virtual call and no per-pair branch on the
// law.
//
// Conventions (../shared/reference/contact-laws.md §0.2): overlap delta > 0 in contact, approach
// rate v = d(delta)/dt > 0 while compressing, force F > 0 when repulsive.

#include <cmath>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace chaindem {

/// Which shared kernel evaluates a law. Each enumerator names one force formula.
enum class Kernel {
  linear_spring,          ///< F = K delta
  hertz,                  ///< F = K delta^(3/2)
  hertz_viscous_quarter,  ///< F = K delta^(3/2) + chi delta^(1/4) v
  hertz_mindlin,     ///< commercial-DEM form: F = K delta^(3/2) + 2 sqrt(5/6) |beta| sqrt(S_n m*) v
  hertz_hysteresis,  ///< F = K delta^(3/2) (1 + alpha v / v0)
};

/// Law families, as grouped in contact-laws.md.
enum class Family { elastic, viscous, hysteresis };
std::string_view to_string(Family f);

/// One parameter of a law: key in the [contact] section, unit, allowed range, default.
struct ParamSpec {
  std::string_view key;
  std::string_view unit;
  std::string_view description;
  double min;
  double max;
  bool min_inclusive;
  bool max_inclusive;
  std::optional<double> default_value;  ///< nullopt: required
  std::string_view default_text = {};   ///< how the default is described when it is derived

  bool admits(double x) const {
    const bool lo = min_inclusive ? x >= min : x > min;
    const bool hi = max_inclusive ? x <= max : x < max;
    return std::isfinite(x) && lo && hi;
  }
  std::string range_text() const;  ///< e.g. "(0, 1]"
};

/// Geometry of one contact: two spheres, or a sphere and a plane (a fixed or moving wall).
struct PairInput {
  double effective_modulus;  ///< E* = 1/((1-nu_i^2)/E_i + (1-nu_j^2)/E_j) [Pa]
  double effective_radius;   ///< R* = R_i R_j/(R_i+R_j), or R for a sphere on a plane [m]
  double effective_mass;     ///< m* = m_i m_j/(m_i+m_j), or m against a wall [kg]
};

/// Per-pair coefficients, computed once when a pair enters the neighbor structure.
/// The meaning of `damping` is fixed by the kernel (chi, alpha, or |beta|).
struct PairCoeffs {
  double stiffness = 0.0;  ///< K [N/m^n]
  double exponent = 1.5;   ///< n, the elastic exponent (kernels hard-code it; kept for analysis)
  double damping = 0.0;    ///< chi [N s/m^(m+1)], alpha [-] or |beta| [-], per kernel
  double aux = 0.0;        ///< kernel-specific constant (hertz_mindlin: m*; others unused)
};

/// History of one pair, kept while the pair stays in the neighbor structure.
struct ContactState {
  double impact_velocity = 0.0;  ///< v0: approach rate at first touch (after the floor) [m/s]
  double max_overlap = 0.0;      ///< largest overlap of the current contact [m]
  double max_force = 0.0;        ///< largest force of the current contact [N]
  double plastic_overlap = 0.0;  ///< permanent overlap (plastic laws) [m]
  double dissipated = 0.0;       ///< energy dissipated by this pair over its life [J]
  int touching = 0;              ///< 1 while delta > 0
  int floor_hits = 0;            ///< contacts of this pair whose v0 was raised to the floor
};

/// Resolved numeric parameters of the chosen law, by key.
using LawParams = std::map<std::string, double, std::less<>>;

struct LawEntry {
  std::string_view id;        ///< identifier, as in contact-laws.md
  std::string_view title;     ///< short human name
  std::string_view citation;  ///< paper and equation/table
  std::string_view formula;   ///< plain-text force law
  std::string_view damping;   ///< how the damping follows from the parameters
  Family family;
  Kernel kernel;
  std::span<const ParamSpec> params;
  /// Dimensionless damping factor as a function of the restitution c_r (alpha of the hysteresis
  /// family, chi/sqrt(K m*) of the viscous laws); nullptr for laws without one.
  double (*damping_factor)(double restitution);
  /// Per-pair coefficients from materials, geometry and the law's parameters.
  PairCoeffs (*prepare)(const LawEntry&, const PairInput&, const LawParams&);

  const ParamSpec* find_param(std::string_view key) const;
};

/// All laws, in documentation order.
std::span<const LawEntry> all_laws();
/// The law with this identifier, or nullptr.
const LawEntry* find_law(std::string_view id);

/// Hertz stiffness K = (4/3) E* sqrt(R*) [N/m^1.5].
inline double hertz_stiffness(double effective_modulus, double effective_radius) {
  return 4.0 / 3.0 * effective_modulus * std::sqrt(effective_radius);
}
/// beta = ln c_r / sqrt(ln^2 c_r + pi^2) in [-1, 0]; the limit -1 at c_r = 0.
double restitution_beta(double restitution);

/// Duration of a free binary impact under F = K delta^n at approach speed v [s]
/// (contact-laws.md group (a): t_c = 2 (delta_max/v) B(1/(n+1), 1/2)/(n+1)).
double elastic_contact_time(double stiffness, double exponent, double effective_mass, double speed);

// ---------------------------------------------------------------------------------------------
// Kernels. Each provides
//   elastic(c, d)          conservative part of the force [N]
//   potential(c, d)        energy stored by the conservative part [J]
//   force(c, s, d, v)      total force before the tension policy [N]
// All are pure inline functions of the coefficients, the pair's history and (delta, v).
namespace kernels {

inline double pow15(double d) {
  return d * std::sqrt(d);
}

struct LinearSpring {
  static double elastic(const PairCoeffs& c, double d) { return c.stiffness * d; }
  static double potential(const PairCoeffs& c, double d) { return 0.5 * c.stiffness * d * d; }
  static double force(const PairCoeffs& c, const ContactState&, double d, double) {
    return elastic(c, d);
  }
};

struct Hertz {
  static double elastic(const PairCoeffs& c, double d) { return c.stiffness * pow15(d); }
  static double potential(const PairCoeffs& c, double d) {
    return 0.4 * c.stiffness * d * pow15(d);
  }
  static double force(const PairCoeffs& c, const ContactState&, double d, double) {
    return elastic(c, d);
  }
};

/// Viscous damping with delta^(1/4) (Tsuji): restitution independent of impact velocity.
struct HertzViscousQuarter : Hertz {
  static double force(const PairCoeffs& c, const ContactState&, double d, double v) {
    return c.stiffness * pow15(d) + c.damping * std::sqrt(std::sqrt(d)) * v;
  }
};

/// The same law written as commercial DEM codes do (S_n = 2 E* sqrt(R* delta) = 1.5 K sqrt(delta)).
/// Kept as a separate code path so a test can prove the two forms equal to round-off.
struct HertzMindlin : Hertz {
  static double force(const PairCoeffs& c, const ContactState&, double d, double v) {
    const double normal_stiffness = 1.5 * c.stiffness * std::sqrt(d);  // S_n
    const double damping_coefficient =
        2.0 * std::sqrt(5.0 / 6.0) * c.damping * std::sqrt(normal_stiffness * c.aux);
    return c.stiffness * pow15(d) + damping_coefficient * v;
  }
};

/// Hysteresis family: F = K delta^(3/2) (1 + alpha v/v0).
struct HertzHysteresis : Hertz {
  static double force(const PairCoeffs& c, const ContactState& s, double d, double v) {
    return c.stiffness * pow15(d) * (1.0 + c.damping * v / s.impact_velocity);
  }
};

}  // namespace kernels

/// Calls f(kernel_type{}) with the kernel type for k: the one place where a Kernel value becomes
/// a type, so loops are instantiated per kernel and dispatched once.
template <class F>
decltype(auto) with_kernel(Kernel k, F&& f) {
  switch (k) {
    case Kernel::linear_spring:
      return f(kernels::LinearSpring{});
    case Kernel::hertz:
      return f(kernels::Hertz{});
    case Kernel::hertz_viscous_quarter:
      return f(kernels::HertzViscousQuarter{});
    case Kernel::hertz_mindlin:
      return f(kernels::HertzMindlin{});
    case Kernel::hertz_hysteresis:
      break;
  }
  return f(kernels::HertzHysteresis{});
}

}  // namespace chaindem
