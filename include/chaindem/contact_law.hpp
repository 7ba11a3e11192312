#pragma once
// Normal contact-force laws: declarations, per-pair coefficients and the inline force kernels.
//
// A law is declared exactly once, as a LawEntry in the registry (src/laws.cpp): identifier,
// citation, formula, parameters with units and ranges, the kernel that evaluates it, its damping
// factor as a function of the restitution, and its tension policy. The case parser,
// `chaindem models`, docs/contact-laws.md and the tests all read that registry.
//
// Laws of one family share one kernel: the hysteresis laws differ only by their damping factor
// alpha(c_r), the viscous laws by their damping coefficient chi and exponent m. The kernel is
// chosen once per force loop (with_kernel), so the hot loop has no virtual call and no per-pair
// branch on the law.
//
// Conventions (../shared/reference/contact-laws.md §0.2): overlap delta > 0 in contact, approach
// rate v = d(delta)/dt > 0 while compressing, force F > 0 when repulsive.

#include <cmath>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace chaindem {

/// Which shared kernel evaluates a law. Each enumerator names one force formula.
enum class Kernel {
  linear_spring,          ///< F = K delta
  power_law,              ///< F = K delta^n
  hertz,                  ///< F = K delta^(3/2)
  linear_viscoelastic,    ///< F = K delta + C v
  viscous_power,          ///< F = K delta^n + chi delta^m v
  hertz_viscous_quarter,  ///< F = K delta^(3/2) + chi delta^(1/4) v
  hertz_mindlin,          ///< F = K delta^(3/2) + 2 sqrt(5/6) |beta| sqrt(S_n m*) v
  hertz_hysteresis,       ///< F = K delta^(3/2) (1 + alpha v/v0)
  linear_hysteresis,      ///< F = K delta (1 + alpha v/v0)
  hertz_v0_root_damping,  ///< F = K delta^(3/2) + alpha K delta^(1/2) v/v0 (000's Jankowski)
  jankowski_piecewise,    ///< F = K delta^(3/2) + chi delta^(1/4) v while approaching
  lee_wang_transition,    ///< F = K delta^(3/2) + T(delta) D v
  plastic_power,          ///< loading K delta^n, unloading K c^(-2n) (delta - (1-c^2) delta_max)^n
};

/// Law families, as grouped in contact-laws.md.
enum class Family { elastic, linear_viscoelastic, viscous, hysteresis, piecewise };
std::string_view to_string(Family f);

/// How a law treats a tensile force at the end of contact (contact-laws.md §0.4).
enum class TensionPolicy {
  clamp,  ///< F = max(F, 0): the bodies separate at F = 0, still overlapped (end at F = 0)
  allow,  ///< tensile force allowed until the overlap closes (end at delta = 0)
};
std::string_view to_string(TensionPolicy t);

/// One parameter of a law: key in the [contact] section, unit, allowed range, default.
struct ParamSpec {
  std::string_view key;
  std::string_view unit;
  std::string_view description;
  double min;
  double max;
  bool min_inclusive;
  bool max_inclusive;
  std::optional<double> default_value;  ///< nullopt: required, unless default_text says how
  std::string_view default_text = {};   ///< how a derived default is obtained

  bool admits(double x) const {
    const bool lo = min_inclusive ? x >= min : x > min;
    const bool hi = max_inclusive ? x <= max : x < max;
    return std::isfinite(x) && lo && hi;
  }
  std::string range_text() const;  ///< e.g. "(0, 1]"
};

/// Geometry and materials of one contact: two spheres, or a sphere and a plane (a wall).
struct PairInput {
  double effective_modulus;     ///< E* = 1/((1-nu_i^2)/E_i + (1-nu_j^2)/E_j) [Pa]
  double effective_radius;      ///< R* = R_i R_j/(R_i+R_j), or R for a sphere on a plane [m]
  double effective_mass;        ///< m* = m_i m_j/(m_i+m_j), or m against a wall [kg]
  double youngs_modulus = 0.0;  ///< E, mean of the two bodies (laws written for one material)
  double poisson_ratio = 0.0;   ///< nu, mean of the two bodies
  double yield_stress = 0.0;    ///< smaller yield stress of the two (0: none given) [Pa]
};

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
};

/// History of one pair, kept while the pair stays in the neighbor structure.
struct ContactState {
  double impact_velocity = 0.0;   ///< v0: approach rate at first touch (after the floor) [m/s]
  double peak_overlap = 0.0;      ///< largest overlap of the current contact [m]
  double peak_force = 0.0;        ///< largest force of the current contact [N]
  double max_overlap = 0.0;       ///< plastic laws: largest overlap ever reached [m]
  double max_force = 0.0;         ///< plastic laws: force at max_overlap [N]
  double residual_overlap = 0.0;  ///< plastic laws: overlap where unloading reaches F = 0 [m]
  double unload_stiffness = 0.0;  ///< plastic laws: K_u of the frozen unloading branch
  double work = 0.0;              ///< work absorbed by the contact over the pair's life [J]
  int touching = 0;               ///< 1 while delta > 0
  int unloading = 0;              ///< plastic laws: on the frozen unloading branch
  int floor_hits = 0;             ///< contacts of this pair whose v0 was raised to the floor
  int reserved = 0;
};

/// Resolved numeric parameters of the chosen law, by key.
using LawParams = std::map<std::string, double, std::less<>>;

struct LawEntry {
  std::string_view id;        ///< identifier, as in contact-laws.md
  std::string_view title;     ///< short human name
  std::string_view citation;  ///< paper and equation/table
  std::string_view formula;   ///< plain-text force law
  std::string_view damping;   ///< how the damping follows from the parameters
  std::string_view notes;     ///< readings, misprints, validity, hazards
  Family family;
  Kernel kernel;
  TensionPolicy tension;  ///< default tension policy (the case may override it)
  std::span<const ParamSpec> params;
  /// Dimensionless damping factor as a function of the restitution c_r: alpha of the hysteresis
  /// family, chi/sqrt(K m*) or C/sqrt(K m*) of the viscous laws; nullptr for laws without one.
  double (*damping_factor)(double restitution);
  /// Per-pair coefficients from materials, geometry and the law's parameters.
  PairCoeffs (*prepare)(const LawEntry&, const PairInput&, const LawParams&);

  const ParamSpec* find_param(std::string_view key) const;
  bool uses_impact_velocity() const;  ///< v0 in the damping term (needs a floor)
};

/// All laws, in documentation order.
std::span<const LawEntry> all_laws();
/// The law with this identifier, or nullptr.
const LawEntry* find_law(std::string_view id);

/// A published law chaindem does not implement, and why.
struct UnimplementedLaw {
  std::string_view id, source, reason;
};
std::span<const UnimplementedLaw> unimplemented_laws();

/// Markdown reference of every law (docs/contact-laws.md is this text).
std::string laws_markdown();

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
//   force(c, s, d, v)      total force before the tension policy [N]; plastic kernels also
//                          advance the pair's loading history in s
//   potential(c, s, d)     energy the contact would return on unloading from here [J]
// They are pure inline functions of the coefficients, the pair's history and (delta, v).
namespace kernels {

inline double pow15(double d) {
  return d * std::sqrt(d);
}

struct LinearSpring {
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return c.stiffness * d;
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return 0.5 * c.stiffness * d * d;
  }
};

struct PowerLaw {
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return c.stiffness * std::pow(d, c.exponent);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return c.stiffness * std::pow(d, c.exponent + 1.0) / (c.exponent + 1.0);
  }
};

struct Hertz {
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return c.stiffness * pow15(d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return 0.4 * c.stiffness * d * pow15(d);
  }
};

/// Kelvin-Voigt family: linear spring and linear dashpot.
struct LinearViscoelastic : LinearSpring {
  static double force(const PairCoeffs& c, ContactState&, double d, double v) {
    return c.stiffness * d + c.damping * v;
  }
};

/// Viscous laws with general exponents: K delta^n + chi delta^m v.
struct ViscousPower : PowerLaw {
  static double force(const PairCoeffs& c, ContactState&, double d, double v) {
    return c.stiffness * std::pow(d, c.exponent) + c.damping * std::pow(d, c.damping_exponent) * v;
  }
};

/// Viscous damping with delta^(1/4) (Tsuji): restitution independent of impact velocity.
struct HertzViscousQuarter : Hertz {
  static double force(const PairCoeffs& c, ContactState&, double d, double v) {
    return c.stiffness * pow15(d) + c.damping * std::sqrt(std::sqrt(d)) * v;
  }
};

/// The same law written as commercial DEM codes do (S_n = 2 E* sqrt(R* delta) = 1.5 K sqrt(delta)).
/// Kept as a separate code path so a test can prove the two forms equal to round-off.
struct HertzMindlin : Hertz {
  static double force(const PairCoeffs& c, ContactState&, double d, double v) {
    const double normal_stiffness = 1.5 * c.stiffness * std::sqrt(d);  // S_n
    const double damping_coefficient =
        2.0 * std::sqrt(5.0 / 6.0) * c.damping * std::sqrt(normal_stiffness * c.effective_mass);
    return c.stiffness * pow15(d) + damping_coefficient * v;
  }
};

/// Hysteresis family: F = K delta^(3/2) (1 + alpha v/v0).
struct HertzHysteresis : Hertz {
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return c.stiffness * pow15(d) * (1.0 + c.damping * v / s.impact_velocity);
  }
};

/// Hysteresis damping on a linear spring (Khulief-Shabana): F = K delta (1 + alpha v/v0).
struct LinearHysteresis : LinearSpring {
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return c.stiffness * d * (1.0 + c.damping * v / s.impact_velocity);
  }
};

/// 000 Table 1's Jankowski row as printed: K delta^(3/2) + alpha K delta^(1/2) v/v0.
struct HertzV0RootDamping : Hertz {
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return c.stiffness * (pow15(d) + c.damping * std::sqrt(d) * v / s.impact_velocity);
  }
};

/// Jankowski (2005): the dashpot acts only while the bodies approach.
struct JankowskiPiecewise : Hertz {
  static double force(const PairCoeffs& c, ContactState&, double d, double v) {
    const double elastic = c.stiffness * pow15(d);
    return v > 0.0 ? elastic + c.damping * std::sqrt(std::sqrt(d)) * v : elastic;
  }
};

/// Lee-Wang transition function: T = exp(-2q (eps - delta)/eps) below eps, 1 above.
struct LeeWangTransition : Hertz {
  static double force(const PairCoeffs& c, ContactState&, double d, double v) {
    const double t = d < c.length ? std::exp(-2.0 * c.shape * (c.length - d) / c.length) : 1.0;
    return c.stiffness * pow15(d) + t * c.damping * v;
  }
};

/// Loading K delta^n; unloading from (delta_max, F_max) along
/// F = F_max ((delta - delta_p)/(delta_max - delta_p))^n with delta_p = (1 - c^2) delta_max,
/// i.e. K_u = K c^(-2n); reloading follows the unloading curve up to delta_max. The pair keeps
/// its permanent overlap across separations (re-contact starts on the flattened surfaces).
struct PlasticPower {
  static double unload_force(const ContactState& s, double n, double d) {
    return d > s.residual_overlap ? s.unload_stiffness * std::pow(d - s.residual_overlap, n) : 0.0;
  }
  static void freeze(const PairCoeffs& c, ContactState& s) {
    const double c2 = c.restitution * c.restitution;
    s.residual_overlap = (1.0 - c2) * s.max_overlap;
    s.unload_stiffness = c.stiffness * std::pow(c2, -c.exponent);
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double) {
    if (d >= s.max_overlap) {  // virgin loading
      s.unloading = 0;
      s.max_overlap = d;
      s.max_force = c.stiffness * std::pow(d, c.exponent);
      return s.max_force;
    }
    if (!s.unloading) {
      s.unloading = 1;
      freeze(c, s);
    }
    return unload_force(s, c.exponent, d);
  }
  static double potential(const PairCoeffs& c, const ContactState& s, double d) {
    ContactState u = s;
    if (!u.unloading || d >= u.max_overlap) {  // what unloading from here would return
      u.max_overlap = std::max(d, s.max_overlap);
      freeze(c, u);
    }
    return d > u.residual_overlap
               ? u.unload_stiffness * std::pow(d - u.residual_overlap, c.exponent + 1.0) /
                     (c.exponent + 1.0)
               : 0.0;
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
    case Kernel::power_law:
      return f(kernels::PowerLaw{});
    case Kernel::hertz:
      return f(kernels::Hertz{});
    case Kernel::linear_viscoelastic:
      return f(kernels::LinearViscoelastic{});
    case Kernel::viscous_power:
      return f(kernels::ViscousPower{});
    case Kernel::hertz_viscous_quarter:
      return f(kernels::HertzViscousQuarter{});
    case Kernel::hertz_mindlin:
      return f(kernels::HertzMindlin{});
    case Kernel::hertz_hysteresis:
      return f(kernels::HertzHysteresis{});
    case Kernel::linear_hysteresis:
      return f(kernels::LinearHysteresis{});
    case Kernel::hertz_v0_root_damping:
      return f(kernels::HertzV0RootDamping{});
    case Kernel::jankowski_piecewise:
      return f(kernels::JankowskiPiecewise{});
    case Kernel::lee_wang_transition:
      return f(kernels::LeeWangTransition{});
    case Kernel::plastic_power:
      break;
  }
  return f(kernels::PlasticPower{});
}

}  // namespace chaindem
