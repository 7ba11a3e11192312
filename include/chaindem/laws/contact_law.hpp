#pragma once
// Normal contact-force laws: declarations, per-pair coefficients and the inline force kernels.
//
// A law is declared exactly once, as a LawEntry in the registry (src/laws/laws.cpp): identifier,
// citation, formula, parameters with units and ranges, the kernel that evaluates it, its damping
// factor as a function of the restitution, and its tension policy. The case parser,
// `chaindem models`, docs/contact-laws.md and the tests all read that registry.
//
// Laws of one family share one kernel: the hysteresis laws differ only by their damping factor
// alpha(c_r), the viscous laws by their damping coefficient chi and exponent m. The kernel is
// chosen once per force loop (with_kernel), so the hot loop has no virtual call and no per-pair
// branch on the law.
//
// Conventions (docs/contact-laws.md): overlap delta > 0 in contact, approach
// rate v = d(delta)/dt > 0 while compressing, force F > 0 when repulsive.

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

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
  // Quasi-static elastoplastic laws (group (e)): piecewise loading curve, frozen unloading branch
  // K_u (delta - delta_res)^n_u from the turning point.
  thornton_1997,  ///< Hertz, then F_y + pi p_y R (delta - delta_y); Thornton unloading
  stronge_2000,   ///< Hertz, logarithmic, linear; unloading radius (2 delta_c/delta_y - 1)^(1/2) R
  vu_quoc_zhang_2002,  ///< force-driven delta(F), one root solve per evaluation
  kogut_etsion_2002,   ///< power-law fits in omega = delta/delta_y; power-law unloading
  jackson_green_2005,  ///< Hertz to omega = 1.9, then the Jackson-Green fit
  du_wang_2009,        ///< Hertz, then linear tangent; Hertz unloading with R
  brake_2012,  ///< Hertz, Hermite cubic, fully plastic linear; unloading radius R + delta_m/2
  burgoyne_daraio_2014,  ///< Hertz, delta (alpha + beta ln delta), linear; Thornton-type unloading
  ma_liu_2015,           ///< Hertz, logarithmic, linear; unloading radius per regime
  // Cylindrical line-contact laws (group (f)), each times (1 + alpha v/v0).
  power_hysteresis,       ///< F = K delta^n (1 + alpha v/v0)
  line_contact_implicit,  ///< delta = a F (ln(b/F) + k), inverted with Lambert W_-1
  liu_line_contact,       ///< F = q delta (delta/(dR + delta))^(1/2)
  persson_line_contact,   ///< F = C (u + 1) u/(2 - log10(1 + u) - 2 u^2), u = delta/(2 dR + delta)
};

/// Law families, as grouped in contact-laws.md.
enum class Family {
  elastic,
  linear_viscoelastic,
  viscous,
  hysteresis,
  piecewise,
  elastoplastic,
  cylindrical
};
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
  // Line-contact laws (group (f)) need the bodies themselves, not only R*.
  double radius_i = 0.0;        ///< radius of body i [m]
  double radius_j = 0.0;        ///< radius of body j; 0 for a wall [m]
  double contact_length = 0.0;  ///< axial length L of cylinders (0: spheres) [m]
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
/// (Inline: the two-body impact integrator scales its step with it, and the registry calibrates
/// laws with that integrator.)
inline double elastic_contact_time(double stiffness, double exponent, double effective_mass,
                                   double speed) {
  const double n = exponent;
  const double delta_max =
      std::pow((n + 1.0) * effective_mass * speed * speed / (2.0 * stiffness), 1.0 / (n + 1.0));
  const double a = 1.0 / (n + 1.0);
  const double beta = std::exp(std::lgamma(a) + std::lgamma(0.5) - std::lgamma(a + 0.5));
  return 2.0 * delta_max / speed * beta / (n + 1.0);
}

// ---------------------------------------------------------------------------------------------
// Kernels. Each provides
//   force(c, s, d, v)      total force before the tension policy [N]; plastic kernels also
//                          advance the pair's loading history in s
//   potential(c, s, d)     energy the contact would return on unloading from here [J]
// Kernels without a loading history split their force in two (the engine books the work of the
// second part as dissipated energy, so an undamped law dissipates exactly nothing):
//   parts(c, s, d, v)      {elastic, damping}: the conservative part F_e(delta), whose integral
//                          is potential(), and the velocity-dependent rest; force = their sum
//   conservative           (constant, optional) true when the damping part is always 0
//   edge_terms(c, s, v)    (optional) the leading terms a tau^p, p < 2, of the force of a contact
//                          that begins (or ends) at approach rate v: F(|v| tau, v) -> sum a tau^p
//                          as the time tau from the edge goes to 0. Sampled at steps, such a term
//                          is integrated to O(dt^(1+p)) only; the engine adds what the samples
//                          miss (EdgeTerm; edge_impulse.hpp, docs/engine.md).
// They are pure inline functions of the coefficients, the pair's history and (delta, v).
namespace kernels {

/// A leading term a tau^p of a contact force at the edge of a contact (its first touch or its
/// separation), where tau is the time from the edge and 0 <= p < 2; a = 0: none.
struct EdgeTerm {
  double a = 0.0;              ///< [N / s^p]
  double p = 1.0;              ///< exponent
  double damping_share = 0.0;  ///< the part of a that is damping force (its work is dissipated)
};
/// The (at most two) leading terms of a kernel at an edge, the one of smallest p first.
using EdgeTerms = std::array<EdgeTerm, 2>;

/// K (|v| tau)^n, the edge term of an elastic power law (none from n = 2 on: O(dt^3)).
inline EdgeTerm power_edge(double stiffness, double exponent, double v) {
  if (!(exponent < 2.0)) return {};
  return {stiffness * std::pow(std::abs(v), exponent), exponent, 0.0};
}
/// The edge term chi (|v| tau)^m v of a damping term chi delta^m v.
inline EdgeTerm damping_edge(double coefficient, double exponent, double v) {
  if (!(exponent < 2.0) || coefficient == 0.0) return {};
  return {coefficient * std::pow(std::abs(v), exponent) * v, exponent, 1.0};
}

/// A force split into its conservative and its velocity-dependent part.
struct Parts {
  double elastic;  ///< F_e(delta) [N]
  double damping;  ///< the rest, zero at v = 0 [N]
};

/// force() of a kernel that provides parts().
template <class KernelT>
inline double sum_of_parts(const PairCoeffs& c, ContactState& s, double d, double v) {
  const Parts p = KernelT::parts(c, s, d, v);
  return p.elastic + p.damping;
}

inline double pow15(double d) {
  return d * std::sqrt(d);
}

/// x^n, with the Hertz exponent as x sqrt(x): std::pow costs ~10 times more, and the vectorised
/// history loops (force_columns below) compute x sqrt(x) too.
inline double power(double x, double n) {
  return n == 1.5 ? pow15(x) : std::pow(x, n);
}

/// A plastic kernel's history (ContactState without v0) as plain numbers, the flags as 0 or 1:
/// what an engine keeping the history in columns, one array per field, loads and stores per pair.
/// Kernels that can be evaluated on it provide
///   columns_usable(c)        the coefficients allow it at all (plastic_power: n = 3/2)
///   columns_exact(c, h, d)   force_columns reproduces force() at this state and overlap, bit for
///                            bit, history included (else the engine calls force())
///   force_columns(c, h, d)   force() without branches, so that a loop over pairs vectorises
///   columns_moved            the fields force_columns may change (Field bits): the engine
///                            stores only those (the loop is bound by its stores)
///   columns_always_exact     columns_exact is true for every state
struct PlasticHistory {
  double max_overlap, max_force, residual_overlap, unload_stiffness, unload_exponent;
  double unloading, regime;
  enum Field : unsigned {
    max_overlap_field = 1,
    max_force_field = 2,
    residual_overlap_field = 4,
    unload_stiffness_field = 8,
    unload_exponent_field = 16,
    unloading_field = 32,
    regime_field = 64
  };

  static PlasticHistory of(const ContactState& s) {
    return {s.max_overlap,
            s.max_force,
            s.residual_overlap,
            s.unload_stiffness,
            s.unload_exponent,
            static_cast<double>(s.unloading),
            static_cast<double>(s.regime)};
  }
  void store(ContactState& s) const {
    s.max_overlap = max_overlap;
    s.max_force = max_force;
    s.residual_overlap = residual_overlap;
    s.unload_stiffness = unload_stiffness;
    s.unload_exponent = unload_exponent;
    s.unloading = static_cast<int>(unloading);
    s.regime = static_cast<int>(regime);
  }
};

// ---- Elastic parts ------------------------------------------------------------------------------
// Each provides elastic(c, d), the force at overlap d > 0, and potential(c, s, d). As kernels of
// their own they are the elastic laws.

struct LinearSpring {
  static constexpr bool conservative = true;
  static double elastic(const PairCoeffs& c, double d) { return c.stiffness * d; }
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, 1.0, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {elastic_edge(c, v), {}};
  }
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double) {
    return {elastic(c, d), 0.0};
  }
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return elastic(c, d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return 0.5 * c.stiffness * d * d;
  }
};

struct PowerLaw {
  static constexpr bool conservative = true;
  static double elastic(const PairCoeffs& c, double d) {
    return c.stiffness * std::pow(d, c.exponent);
  }
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, c.exponent, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {elastic_edge(c, v), {}};
  }
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double) {
    return {elastic(c, d), 0.0};
  }
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return elastic(c, d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return c.stiffness * std::pow(d, c.exponent + 1.0) / (c.exponent + 1.0);
  }
};

struct Hertz {
  static constexpr bool conservative = true;
  static double elastic(const PairCoeffs& c, double d) { return c.stiffness * pow15(d); }
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, 1.5, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {elastic_edge(c, v), {}};
  }
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double) {
    return {elastic(c, d), 0.0};
  }
  static double force(const PairCoeffs& c, ContactState&, double d, double) {
    return elastic(c, d);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return 0.4 * c.stiffness * d * pow15(d);
  }
};

// ---- Viscous damping (no impact velocity) ------------------------------------------------------

/// Kelvin-Voigt family: linear spring and linear dashpot.
struct LinearViscoelastic : LinearSpring {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    return {c.stiffness * d, c.damping * v};
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {damping_edge(c.damping, 0.0, v), elastic_edge(c, v)};  // the dashpot jumps
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<LinearViscoelastic>(c, s, d, v);
  }
};

/// Viscous laws with general exponents: K delta^n + chi delta^m v.
struct ViscousPower : PowerLaw {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    const double dn = std::pow(d, c.exponent);  // the damping often shares it (002's power fit)
    const double dm = c.damping_exponent == c.exponent ? dn : std::pow(d, c.damping_exponent);
    return {c.stiffness * dn, c.damping * dm * v};
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    const EdgeTerm damping = damping_edge(c.damping, c.damping_exponent, v);
    const EdgeTerm spring = elastic_edge(c, v);
    return damping.p <= spring.p ? EdgeTerms{damping, spring} : EdgeTerms{spring, damping};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<ViscousPower>(c, s, d, v);
  }
};

/// Viscous damping with delta^(1/4) (Tsuji): restitution independent of impact velocity.
struct HertzViscousQuarter : Hertz {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    return {c.stiffness * pow15(d), c.damping * std::sqrt(std::sqrt(d)) * v};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<HertzViscousQuarter>(c, s, d, v);
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {damping_edge(c.damping, 0.25, v), elastic_edge(c, v)};
  }
};

/// The same law written as commercial DEM codes do (S_n = 2 E* sqrt(R* delta) = 1.5 K sqrt(delta)).
/// Kept as a separate code path so a test can prove the two forms equal to round-off.
struct HertzMindlin : Hertz {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    const double normal_stiffness = 1.5 * c.stiffness * std::sqrt(d);  // S_n
    const double damping_coefficient =
        2.0 * std::sqrt(5.0 / 6.0) * c.damping * std::sqrt(normal_stiffness * c.effective_mass);
    return {c.stiffness * pow15(d), damping_coefficient * v};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<HertzMindlin>(c, s, d, v);
  }
  /// The damping is 2 sqrt(5/6) |beta| sqrt(1.5 K m*) delta^(1/4) v.
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    const double coefficient =
        2.0 * std::sqrt(5.0 / 6.0) * c.damping * std::sqrt(1.5 * c.stiffness * c.effective_mass);
    return {damping_edge(coefficient, 0.25, v), elastic_edge(c, v)};
  }
};

/// Jankowski (2005): the dashpot acts only while the bodies approach.
struct JankowskiPiecewise : Hertz {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    return {c.stiffness * pow15(d), v > 0.0 ? c.damping * std::sqrt(std::sqrt(d)) * v : 0.0};
  }
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    return {v > 0.0 ? damping_edge(c.damping, 0.25, v) : EdgeTerm{}, elastic_edge(c, v)};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<JankowskiPiecewise>(c, s, d, v);
  }
};

/// Lee-Wang transition function: T = exp(-2q (eps - delta)/eps) below eps, 1 above.
struct LeeWangTransition : Hertz {
  static constexpr bool conservative = false;
  static Parts parts(const PairCoeffs& c, const ContactState&, double d, double v) {
    const double t = d < c.length ? std::exp(-2.0 * c.shape * (c.length - d) / c.length) : 1.0;
    return {c.stiffness * pow15(d), t * c.damping * v};
  }
  /// The dashpot's residual jump T(0) D v = exp(-2q) D v.
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState&, double v) {
    const double t = c.length > 0.0 ? std::exp(-2.0 * c.shape) : 1.0;
    return {damping_edge(t * c.damping, 0.0, v), elastic_edge(c, v)};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<LeeWangTransition>(c, s, d, v);
  }
};

// ---- Hysteresis damping (v0 in the damping term)
// -------------------------------------------------

/// The hysteresis family composed with an elastic part E (contact-laws.md §0.5):
///   F = F_e(delta) + alpha |g(delta) - g_0| v / v0,
/// g = F_e (E::damping_scale where a law scales its damping otherwise), g_0 = the pair's
/// ContactState::damping_origin. For a contact that starts from delta = 0, g_0 = 0 and this is
/// the published F_e (1 + alpha v/v0). A contact that starts pre-compressed at delta_s may
/// measure its hysteresis from there (g_0 = g(delta_s)): only the dynamic part of its force is
/// damped, so a small motion about a static load meets a small damping force. v0 is the
/// impact velocity as the engine's policy defines it (ContactState::impact_velocity, > 0).
template <class E>
struct Hysteresis : E {
  static constexpr bool conservative = false;
  static constexpr bool uses_impact_velocity = true;
  static double damping_scale(const PairCoeffs& c, double d, double elastic) {
    if constexpr (requires { E::damping_scale(c, d, elastic); })
      return E::damping_scale(c, d, elastic);
    else
      return elastic;
  }
  static Parts parts(const PairCoeffs& c, const ContactState& s, double d, double v) {
    const double e = E::elastic(c, d);
    const double g = std::abs(damping_scale(c, d, e) - s.damping_origin);
    return {e, c.damping * g * v / s.impact_velocity};
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double v) {
    return sum_of_parts<Hysteresis>(c, s, d, v);
  }
  /// The square of the speed whose kinetic energy m* v^2 / 2 equals the elastic energy the
  /// contact stores beyond its origin, U(delta) - U(delta_s) - F_e(delta_s) (delta - delta_s)
  /// (just U(delta) from delta = 0): a contact cannot have met an impact slower than this, so it
  /// bounds v0 from below (SimulationSettings::ImpactVelocity::energy).
  static double stored_speed_squared(const PairCoeffs& c, const ContactState& s, double d) {
    const double u =
        E::potential(c, s, d) - s.origin_energy - s.origin_force * (d - s.origin_overlap);
    return u > 0.0 ? u * (2.0 / c.effective_mass) : 0.0;
  }
  /// An upper bound of stored_speed_squared from the elastic force e = F_e(delta): the exact
  /// value where the potential is cheap (power laws, the implicit line contacts' closed form),
  /// else, without the potential (a series or a quadrature for Liu's and Persson's laws), the
  /// bound |F_e(delta) - F_e(delta_s)| |delta - delta_s| of a monotone elastic force.
  static constexpr bool costly_potential = requires { E::costly_potential; };
  static double stored_speed_squared_bound(const PairCoeffs& c, const ContactState& s, double d,
                                           double e) {
    if constexpr (costly_potential) {
      return std::abs(e - s.origin_force) * std::abs(d - s.origin_overlap) *
             (2.0 / c.effective_mass);
    } else {
      (void)e;
      return stored_speed_squared(c, s, d);
    }
  }
  /// For a contact from delta = 0: the elastic part's edge term times (1 + alpha v/v0), or, for
  /// 000's Jankowski reading, the damping scale's term K (|v| tau)^(1/2) alpha v/v0 and the
  /// elastic one.
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState& s, double v) {
    if constexpr (requires { E::elastic_edge(c, v); }) {
      const double ratio = c.damping * v / s.impact_velocity;
      EdgeTerm elastic = E::elastic_edge(c, v);
      if constexpr (requires { E::scale_edge(c, v); }) {
        EdgeTerm damping = E::scale_edge(c, v);
        damping.a *= ratio;
        damping.damping_share = 1.0;
        return {damping, elastic};
      } else {
        const double factor = 1.0 + ratio;
        elastic.damping_share = factor != 0.0 ? ratio / factor : 0.0;
        elastic.a *= factor;
        return {elastic, {}};
      }
    } else {
      return {};
    }
  }
};

/// Hysteresis family on Hertz: F = K delta^(3/2) (1 + alpha v/v0).
using HertzHysteresis = Hysteresis<Hertz>;
/// Hysteresis damping on a linear spring (Khulief-Shabana): F = K delta (1 + alpha v/v0).
using LinearHysteresis = Hysteresis<LinearSpring>;

/// 000 Table 1's Jankowski row as printed: K delta^(3/2) + alpha K delta^(1/2) v/v0, i.e. the
/// hysteresis damping scaled by K delta^(1/2) instead of the elastic force.
struct HertzRootScale : Hertz {
  static double damping_scale(const PairCoeffs& c, double d, double) {
    return c.stiffness * std::sqrt(d);
  }
  static EdgeTerm scale_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, 0.5, v);
  }
};
using HertzV0RootDamping = Hysteresis<HertzRootScale>;

/// Loading K delta^n; unloading from (delta_max, F_max) along
/// F = F_max ((delta - delta_p)/(delta_max - delta_p))^n with delta_p = (1 - c^2) delta_max,
/// i.e. K_u = K c^(-2n); reloading follows the unloading curve up to delta_max. The pair keeps
/// its permanent overlap across separations (re-contact starts on the flattened surfaces).
struct PlasticPower {
  static double unload_force(const ContactState& s, double n, double d) {
    return d > s.residual_overlap ? s.unload_stiffness * power(d - s.residual_overlap, n) : 0.0;
  }
  /// The unloading branch from the turning point; c.law[0] = c_r^(-2n) (prepared once).
  static void freeze(const PairCoeffs& c, ContactState& s) {
    const double c2 = c.restitution * c.restitution;
    s.residual_overlap = (1.0 - c2) * s.max_overlap;
    s.unload_stiffness = c.stiffness * c.law[0];
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double) {
    if (d >= s.max_overlap) {  // virgin loading
      s.unloading = 0;
      s.max_overlap = d;
      s.max_force = c.stiffness * power(d, c.exponent);
      return s.max_force;
    }
    if (!s.unloading) {
      s.unloading = 1;
      freeze(c, s);
    }
    return unload_force(s, c.exponent, d);
  }
  /// Loading from delta = 0 on surfaces not yet flattened: K (|v| tau)^n.
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState& s, double v) {
    if (s.residual_overlap != 0.0) return {};
    return {power_edge(c.stiffness, c.exponent, v), {}};
  }
  static bool columns_usable(const PairCoeffs& c) { return c.exponent == 1.5; }
  static constexpr bool columns_always_exact = true;
  static bool columns_exact(const PairCoeffs&, const PlasticHistory&, double) { return true; }
  static constexpr unsigned columns_moved =
      PlasticHistory::max_overlap_field | PlasticHistory::max_force_field |
      PlasticHistory::residual_overlap_field | PlasticHistory::unload_stiffness_field |
      PlasticHistory::unloading_field;
  static double force_columns(const PairCoeffs& c, PlasticHistory& h, double d) {
    const bool loading = d >= h.max_overlap;
    const double f_load = c.stiffness * pow15(d);
    const bool freeze_now = !loading & (h.unloading == 0.0);  // freeze(), as selects
    const double c2 = c.restitution * c.restitution;
    const double residual = freeze_now ? (1.0 - c2) * h.max_overlap : h.residual_overlap;
    const double k_u = freeze_now ? c.stiffness * c.law[0] : h.unload_stiffness;
    const double x = d > residual ? d - residual : 0.0;
    const double f_unload = d > residual ? k_u * pow15(x) : 0.0;
    h.unloading = loading ? 0.0 : 1.0;
    h.max_overlap = loading ? d : h.max_overlap;
    h.max_force = loading ? f_load : h.max_force;
    h.residual_overlap = residual;
    h.unload_stiffness = k_u;
    return loading ? f_load : f_unload;
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

// ---- Quasi-static elastoplastic laws (contact-laws.md group (e)) ------------------------------
//
// One state machine for all nine laws (group (e) "Common conventions"); a Model supplies
//   loading(c, s, d)          the piecewise loading curve F(delta) (s: warm start, read only)
//   unloading(c, d_max, f_max) the frozen unloading branch {K_u, n_u, delta_res, regime} for
//                             F = K_u (delta - delta_res)^n_u, with delta_res from continuity at
//                             (d_max, f_max) unless the law prints it (through() below)
// 1. virgin loading while delta >= delta_max: loading branch, delta_max and F_max follow;
// 2. at the first delta < delta_max the unloading branch is frozen from (delta_max, F_max);
// 3. unloading and reloading follow the frozen branch, F = 0 at and below delta_res;
// 4. past delta_max the contact loads plastically again on the loading branch;
// 5. the pair keeps its history across separations: a later impact starts on the flattened
//    surfaces (no force until delta > delta_res, then the frozen branch up to delta_max), and a
//    later plastic loading never reduces delta_res (Elastoplastic::freeze).
// An unloading from the elastic branch (delta_max below the law's end of the elastic branch) is
// the loading curve itself: delta_res = 0, no dissipation.
namespace ep {

struct Branch {
  double stiffness;  ///< K_u [N/m^n_u]
  double exponent;   ///< n_u
  double residual;   ///< delta_res [m]
  int regime;        ///< 0 elastic, 1 elastoplastic, 2 fully plastic
};

/// The branch K_u (delta - delta_res)^n through (d_max, f_max): delta_res from continuity,
/// delta_res = d_max - (f_max/K_u)^(1/n). Where continuity would put delta_res below 0 (a loading
/// force above what the unloading curve can reach from delta = 0, e.g. just past a jump of a
/// fitted loading curve), delta_res = 0 and K_u = f_max/d_max^n: the branch stays continuous and
/// never pulls or pushes at delta = 0.
inline Branch through(double d_max, double f_max, double k_u, double n, int regime) {
  const double res = d_max - std::pow(f_max / k_u, 1.0 / n);
  if (res > 0.0) return {k_u, n, res, regime};
  return {f_max / std::pow(d_max, n), n, 0.0, regime};
}
/// Unloading along the loading curve itself (elastic regime).
inline Branch elastic(const PairCoeffs& c) {
  return {c.stiffness, 1.5, 0.0, 0};
}
inline double hertz(const PairCoeffs& c, double d) {
  return c.stiffness * pow15(d);
}
/// Thornton's unloading radius ratio R_p/R at F_max = f F_y, from
/// R_p = (4E*/(3 F_max)) ((2 F_max + F_y)/(2 pi p_y))^(3/2) with F_y = pi^3 p_y^3 R^2/(6 E*^2):
/// R_p/R = ((2f + 1)/3)^(3/2)/f (1 at f = 1).
inline double thornton_radius_ratio(double f) {
  const double g = (2.0 * f + 1.0) / 3.0;
  return g * std::sqrt(g) / f;
}

/// thornton_1997. law: unused. Loading F_y + pi p_y R (delta - delta_y) = F_y + (3/2)(F_y/delta_y)
/// (delta - delta_y) (the yield-onset slope).
struct Thornton {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    return c.yield_force * (1.0 + 1.5 * (d - c.yield_overlap) / c.yield_overlap);
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    const double ratio = thornton_radius_ratio(f_max / c.yield_force);
    return through(d_max, f_max, c.stiffness * std::sqrt(ratio), 1.5, 1);
  }
};

/// stronge_2000. law[0] = theta_y; F_y as printed, delta_y = (F_y/K)^(2/3);
/// x = 2 delta/delta_y - 1.
struct Stronge {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    const double x = 2.0 * d / c.yield_overlap - 1.0;
    if (d < c.plastic_overlap) return c.yield_force * x * (1.0 + std::log(x) / (3.0 * c.law[0]));
    return 2.8 * c.yield_force / c.law[0] * x;
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    // R_bar = (2 delta_c/delta_y - 1)^(1/2) R, so K_u = K (R_bar/R)^(1/2).
    const double x = 2.0 * d_max / c.yield_overlap - 1.0;
    return through(d_max, f_max, c.stiffness * std::sqrt(std::sqrt(x)), 1.5,
                   d_max < c.plastic_overlap ? 1 : 2);
  }
};

/// vu_quoc_zhang_2002. law[0] = K_c [1/N], law[1] = C_a [m/N]. Force-driven: delta(F) below,
/// F(delta) by a bracketed root solve (src/laws/laws.cpp).
double vu_quoc_zhang_force(const PairCoeffs& c, double d, double lower_bound);
struct VuQuocZhang {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  /// delta(F) on the elastoplastic branch (F >= F_y), with the row's symbols read as: E the
  /// Young's modulus of identical spheres (E/(1 - nu^2) = 2 E*), R = R*, and the row's delta the
  /// approach of one centre, half the overlap. Then a^e = R^(1/2) (F/K)^(1/3) (Hertz),
  /// a^ep = a^e + C_a (F - F_y), R^ep = (1 + K_c (F - F_y)) R, overlap = (a^ep)^2 / R^ep.
  static double overlap(const PairCoeffs& c, double f) {
    const double x = f - c.yield_force;
    const double a = std::sqrt(c.radius) * std::cbrt(f / c.stiffness) + c.law[1] * x;
    return a * a / (c.radius * (1.0 + c.law[0] * x));
  }
  static double loading(const PairCoeffs& c, const ContactState& s, double d) {
    if (d <= c.yield_overlap) return hertz(c, d);
    // The loading branch is only evaluated at delta >= delta_max, so F >= F_max there.
    const double hint = d >= s.max_overlap ? s.max_force : 0.0;
    return vu_quoc_zhang_force(c, d, hint);
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (f_max <= c.yield_force) return elastic(c);
    // As printed: F = (4E*/(3R)) a_e^3, a_e^2 = (C_R)_max R (delta - delta_r), i.e.
    // K (C_R)_max^(3/2) (delta - delta_r)^(3/2).
    const double cr = 1.0 + c.law[0] * (f_max - c.yield_force);
    return through(d_max, f_max, c.stiffness * cr * std::sqrt(cr), 1.5, 1);
  }
};

/// kogut_etsion_2002. law[0] = delta_res/delta_max if >= 0, else (< 0) the finite-element fit.
struct KogutEtsion {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    const double w = d / c.yield_overlap;
    if (w < 1.0) return hertz(c, d);
    if (w < 6.0) return c.yield_force * 1.03 * std::pow(w, 1.425);
    return c.yield_force * 1.40 * std::pow(w, 1.263);  // fitted to omega = 110, continued above
  }
  /// delta_res/delta_max: the parameter, or the fit, continued above omega = 110 like the loading
  /// fit and capped at 0.99 (reached near omega = 4700; the fit itself passes 1 near 1e4).
  static double residual_fraction(const PairCoeffs& c, double w_max) {
    if (c.law[0] >= 0.0) return c.law[0];
    return std::min(0.99, 1.02 * (1.0 - std::pow((w_max + 5.9) / 6.9, -0.54)));
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    const double w = d_max / c.yield_overlap;
    if (w < 1.0) return elastic(c);
    const double n = 1.5 * std::pow(w, -0.0331);
    const double res = residual_fraction(c, w) * d_max;
    // F = F_max ((omega - omega_res)/(omega_max - omega_res))^n_p
    return {f_max / std::pow(d_max - res, n), n, res, w < 6.0 ? 1 : 2};
  }
};

/// jackson_green_2005. law[0] = 4 H/(C S_y).
struct JacksonGreen {
  static constexpr double elastic_end = 1.9;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    const double w = d / c.yield_overlap;
    if (w <= 1.9) return hertz(c, d);
    return c.yield_force * (std::exp(-0.25 * std::pow(w, 5.0 / 12.0)) * w * std::sqrt(w) +
                            c.law[0] * (1.0 - std::exp(-0.04 * std::pow(w, 5.0 / 9.0))) * w);
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max <= 1.9 * c.yield_overlap) return elastic(c);
    // R_b = R cos(theta), theta = a_c/R with the Hertz contact radius a_c = (R delta_max)^(1/2).
    const double cos_theta = std::cos(std::sqrt(d_max / c.radius));
    return through(d_max, f_max, c.stiffness * std::sqrt(cos_theta), 1.5, 1);
  }
};

/// du_wang_2009. Loading pi R p_p delta - p_p^3 pi^3 R^2/(12 E*^2) = F_e + (3/2)(F_e/delta_e)
/// (delta - delta_e), the tangent of the Hertz curve at delta_e.
struct DuWang {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d <= c.yield_overlap) return hertz(c, d);
    return c.yield_force * (1.0 + 1.5 * (d - c.yield_overlap) / c.yield_overlap);
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max <= c.yield_overlap) return elastic(c);
    return through(d_max, f_max, c.stiffness, 1.5, 1);
  }
};

/// brake_2012. law[0] = F'_y, law[1] = F'_p = 2 pi R p0 (the fully plastic branch
/// pi p0 (2 R delta + c) = F_p + F'_p (delta - delta_p)).
struct Brake {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    if (d >= c.plastic_overlap) return c.plastic_force + c.law[1] * (d - c.plastic_overlap);
    const double span = c.plastic_overlap - c.yield_overlap;
    const double s = (d - c.yield_overlap) / span;
    const double fy = c.yield_force, fp = c.plastic_force;
    const double a3 = 2.0 * fy - 2.0 * fp + span * (c.law[0] + c.law[1]);
    const double a2 = -3.0 * fy + 3.0 * fp - span * (2.0 * c.law[0] + c.law[1]);
    return ((a3 * s + a2) * s + span * c.law[0]) * s + fy;
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    // R_b = R + delta_m/2
    return through(d_max, f_max, c.stiffness * std::sqrt(1.0 + 0.5 * d_max / c.radius), 1.5,
                   d_max < c.plastic_overlap ? 1 : 2);
  }
};

/// burgoyne_daraio_2014. law[0] = 2 pi R p0 (fully plastic slope). The middle branch
/// delta (alpha + beta ln delta) through (delta_y, F_y) and (delta_p, F_p), written without the
/// unit-dependent alpha, beta.
struct BurgoyneDaraio {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    if (d >= c.plastic_overlap) return c.plastic_force + c.law[0] * (d - c.plastic_overlap);
    const double ky = c.yield_force / c.yield_overlap, kp = c.plastic_force / c.plastic_overlap;
    return d * (ky + (kp - ky) * std::log(d / c.yield_overlap) /
                         std::log(c.plastic_overlap / c.yield_overlap));
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    const double ratio = thornton_radius_ratio(f_max / c.yield_force);
    return through(d_max, f_max, c.stiffness * std::sqrt(ratio), 1.5,
                   d_max < c.plastic_overlap ? 1 : 2);
  }
};

/// ma_liu_2015. law[0] = c1 [N/m], law[1] = c2 [N/m], law[2] = k1 [N/m]; c3 = F_y - c1 delta_y.
struct MaLiu {
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    if (d >= c.plastic_overlap) return c.plastic_force + c.law[2] * (d - c.plastic_overlap);
    return d * (c.law[0] + c.law[1] * std::log(d / c.yield_overlap)) + c.yield_force -
           c.law[0] * c.yield_overlap;
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    // R_u/R = (Hertz force)/(loading force): R^e = F^e R/F_max with F^e = K delta_max^(3/2)
    // below delta_p; R_p^e = F_p^e R/F_ep with F_p^e = K delta_p^(3/2), F_ep = F_p above
    // (constant, and continuous at delta_max = delta_p). Reading: see the law's notes.
    if (d_max < c.plastic_overlap)
      return through(d_max, f_max, c.stiffness * std::sqrt(hertz(c, d_max) / f_max), 1.5, 1);
    return through(d_max, f_max,
                   c.stiffness * std::sqrt(hertz(c, c.plastic_overlap) / c.plastic_force), 1.5, 2);
  }
};

}  // namespace ep

/// The state machine of group (e) around a Model of namespace ep.
template <class Model>
struct Elastoplastic {
  /// Freezes the unloading branch at (max_overlap, max_force). A later plastic loading never
  /// reduces the permanent overlap left by an earlier one (the sources specify one cycle only):
  /// where the row's branch would end below the current residual_overlap, that overlap is kept
  /// and K_u scaled through (delta_max, F_max); otherwise the part between the two residual
  /// overlaps would return energy that was never stored.
  static void freeze(const PairCoeffs& c, ContactState& s) {
    ep::Branch b = Model::unloading(c, s.max_overlap, s.max_force);
    if (b.residual < s.residual_overlap) {
      b.residual = s.residual_overlap;
      b.stiffness = s.max_force / std::pow(s.max_overlap - b.residual, b.exponent);
    }
    s.unload_stiffness = b.stiffness;
    s.unload_exponent = b.exponent;
    s.residual_overlap = b.residual;
    s.regime = b.regime;
  }
  static double force(const PairCoeffs& c, ContactState& s, double d, double) {
    if (d >= s.max_overlap) {  // virgin loading
      const double f = Model::loading(c, s, d);
      s.unloading = 0;
      s.max_overlap = d;
      s.max_force = f;
      return f;
    }
    if (!s.unloading) {
      s.unloading = 1;
      freeze(c, s);
    }
    return d > s.residual_overlap
               ? s.unload_stiffness * power(d - s.residual_overlap, s.unload_exponent)
               : 0.0;
  }

  /// Below this overlap (now and ever before) the contact is on the Hertz curve both ways:
  /// Model::elastic_end delta_y, less 1e-12 so that no rounding of the models' own tests at
  /// the end of the elastic branch matters.
  static double hertz_limit(const PairCoeffs& c) {
    return Model::elastic_end * c.yield_overlap * (1.0 - 1e-12);
  }
  /// Loading from delta = 0 on surfaces not yet flattened: the Hertz branch.
  static EdgeTerms edge_terms(const PairCoeffs& c, const ContactState& s, double v) {
    if (s.residual_overlap != 0.0) return {};
    return {power_edge(c.stiffness, 1.5, v), {}};
  }
  static bool columns_usable(const PairCoeffs&) { return true; }
  static constexpr bool columns_always_exact = false;
  static constexpr unsigned columns_moved =
      PlasticHistory::max_overlap_field | PlasticHistory::max_force_field |
      PlasticHistory::unload_stiffness_field | PlasticHistory::unload_exponent_field |
      PlasticHistory::unloading_field | PlasticHistory::regime_field;
  static bool columns_exact(const PairCoeffs& c, const PlasticHistory& h, double d) {
    const double limit = hertz_limit(c);
    return (d < limit) & (h.max_overlap < limit);
  }
  /// The elastic regime only (columns_exact): Hertz loading and unloading, and the freeze of
  /// the elastic branch {K, 3/2, no residual overlap, regime 0}.
  static double force_columns(const PairCoeffs& c, PlasticHistory& h, double d) {
    const bool loading = d >= h.max_overlap;
    const double f = ep::hertz(c, d);
    const bool freeze_now = !loading & (h.unloading == 0.0);
    h.unloading = loading ? 0.0 : 1.0;
    h.max_overlap = loading ? d : h.max_overlap;
    h.max_force = loading ? f : h.max_force;
    h.unload_stiffness = freeze_now ? c.stiffness : h.unload_stiffness;
    h.unload_exponent = freeze_now ? 1.5 : h.unload_exponent;
    h.regime = freeze_now ? 0.0 : h.regime;
    return f;
  }
  /// Energy returned by unloading from here: the frozen branch, or the branch that would be
  /// frozen at d if the contact is on the loading curve.
  static double potential(const PairCoeffs& c, const ContactState& s, double d) {
    ContactState u = s;
    if (!u.unloading || d >= u.max_overlap) {
      if (d >= u.max_overlap) {
        u.max_force = Model::loading(c, s, d);
        u.max_overlap = d;
      }
      freeze(c, u);
    }
    if (d <= u.residual_overlap) return 0.0;
    const double n = u.unload_exponent;
    return u.unload_stiffness * std::pow(d - u.residual_overlap, n + 1.0) / (n + 1.0);
  }
};

// ---- Cylindrical line-contact laws (contact-laws.md group (f)) --------------------------------
//
// Two parallel cylinders of axial length L; every law is an elastic force F_e(delta) times the
// Lankarani-Nikravesh hysteresis factor (1 + alpha v/v0) of 000 §6 (alpha = 0: undamped). A wall
// contact is half of the symmetric contact of the body with its mirror image (src/laws/laws.cpp).

/// Hysteresis damping on a general power law: F = K delta^n (1 + alpha v/v0).
using PowerHysteresis = Hysteresis<PowerLaw>;

/// y = -W_-1(z) >= 1 for z in [-1/e, 0) (Boost.Math lambert_wm1; src/laws/line_contact.cpp).
double minus_lambert_wm1(double z);

/// The implicit laws (hertz_cylindrical, johnson_cylindrical, radzimovsky,
/// goldsmith_cylindrical, dubowsky_freudenstein_cylindrical, esdu_78035) all read
/// delta = a F (ln(b/F) + k). With y = ln(b/F) + k this is y e^(-y) = delta e^(-k)/(a b), so
/// y = -W_-1(-delta e^(-k)/(a b)) and F = delta/(a y): a closed form instead of the per-step
/// Newton iteration of 000. delta(F) peaks at F* = b e^(k-1), delta* = a F* (y = 1); past the
/// peak no force exists, and the force continues along the secant F = delta/a through the peak
/// (continuous, monotone, energy conserving).
/// law[0] = a [m/N], law[1] = e^(-k)/(a b) [1/m] (so delta* = 1/(e law[1])): k and b enter
/// only through law[1];
/// stiffness = 1/a and exponent = 1 (the secant through the peak: the largest secant stiffness),
/// a scale for integrators; the time step uses the law's own tangent (scene_builder.cpp).
struct ImplicitLineElastic {
  static constexpr double minus_inverse_e = -0.36787944117144233;
  static double elastic(const PairCoeffs& c, double d) {
    if (!(d > 0.0)) return 0.0;
    const double z = -d * c.law[1];
    const double y = z > minus_inverse_e ? minus_lambert_wm1(z) : 1.0;
    return d / (c.law[0] * y);
  }
  /// Energy L int W d(delta) = F delta/2 - a F^2/4 (integration by parts of delta(F)); past
  /// the peak the secant adds (delta^2 - delta*^2)/(2a).
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    if (!(d > 0.0)) return 0.0;
    const double a = c.law[0];
    if (-d * c.law[1] > minus_inverse_e) {
      const double f = elastic(c, d);
      return 0.5 * f * d - 0.25 * a * f * f;
    }
    const double peak = -minus_inverse_e / c.law[1];
    return (0.5 * d * d - 0.25 * peak * peak) / a;
  }
  /// delta(F), the law as printed: -a F ln(a law[1] F) up to F*, then a F.
  static double overlap_at(const PairCoeffs& c, double f) {
    const double a = c.law[0];
    const double x = a * c.law[1] * f;  // e^(-y)
    return x < -minus_inverse_e ? -a * f * std::log(x) : a * f;
  }
};
using LineContactImplicit = Hysteresis<ImplicitLineElastic>;

/// liu_line_contact_potential: q int_0^delta x^(3/2) (dR + x)^(-1/2) dx
/// (src/laws/line_contact.cpp).
double liu_line_contact_potential(double q, double clearance, double d);

/// C.-S. Liu et al. (2007): F = L (pi/2) E* delta (delta/(2 (dR + delta)))^(1/2).
/// law[0] = q = L (pi/2) E*/sqrt(2) [N/m], law[1] = dR [m]; stiffness q/sqrt(dR) with exponent
/// 3/2 bounds it from above (the small-overlap limit), a scale for integrators.
struct LiuLineElastic {
  static constexpr bool costly_potential = true;
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {  // q delta^(3/2) / sqrt(dR)
    return power_edge(c.stiffness, 1.5, v);
  }
  static double elastic(const PairCoeffs& c, double d) {
    return d > 0.0 ? c.law[0] * d * std::sqrt(d / (c.law[1] + d)) : 0.0;
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return d > 0.0 ? liu_line_contact_potential(c.law[0], c.law[1], d) : 0.0;
  }
};
using LiuLineContact = Hysteresis<LiuLineElastic>;

/// Persson (003 Eq. 6): P = E* dR pi (b^2 + 1) b^2 / (2 - log10(b^2 + 1) - 2 b^4) with
/// b = tan(eps/2), cos(eps) = dR/(dR + delta), so b^2 = u = delta/(2 dR + delta) (no
/// trigonometry). The load turns infinite at b = 0.9623 (eps = 87.8°, delta = 25 dR) and
/// negative beyond (003 Eq. 9); past delta_c = law[2] (16 dR, eps = 86.6°, where 003 first
/// reports the inconsistency) the force continues along its tangent at delta_c.
/// law[0] = C = L E* dR pi [N], law[1] = dR [m], law[2] = delta_c [m]; stiffness L pi E*/4
/// with exponent 1 is the small-overlap limit, a scale for integrators.
struct PerssonLineElastic {
  static constexpr bool costly_potential = true;
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {  // L pi E* delta / 4
    return power_edge(c.stiffness, 1.0, v);
  }
  static double curve(const PairCoeffs& c, double d) {
    const double u = d / (2.0 * c.law[1] + d);
    return c.law[0] * (u + 1.0) * u / (2.0 - std::log10(1.0 + u) - 2.0 * u * u);
  }
  static double slope(const PairCoeffs& c, double d) {
    const double dr = c.law[1], u = d / (2.0 * dr + d);
    const double num = (u + 1.0) * u, den = 2.0 - std::log10(1.0 + u) - 2.0 * u * u;
    const double dnum = 2.0 * u + 1.0;
    const double dden = -1.0 / ((1.0 + u) * std::numbers::ln10) - 4.0 * u;
    const double du = 2.0 * dr / ((2.0 * dr + d) * (2.0 * dr + d));
    return c.law[0] * (dnum * den - num * dden) / (den * den) * du;
  }
  static double elastic(const PairCoeffs& c, double d) {
    if (!(d > 0.0)) return 0.0;
    const double dc = c.law[2];
    return d <= dc ? curve(c, d) : curve(c, dc) + slope(c, dc) * (d - dc);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d);
};
using PerssonLineContact = Hysteresis<PerssonLineElastic>;

/// True for kernels that read the impact velocity v0 (the hysteresis family).
template <class KernelT>
inline constexpr bool reads_impact_velocity = requires {
  KernelT::uses_impact_velocity;
};

/// True for kernels without a loading history: their force is parts(), a function of the
/// coefficients, delta, v and, for the hysteresis family, v0 and the damping origin. Engines may
/// evaluate them in vectorised loops and book their damping work as dissipation.
template <class KernelT>
inline constexpr bool splits_force = requires(const PairCoeffs& c, const ContactState& s) {
  KernelT::parts(c, s, 0.0, 0.0);
};

/// True for kernels whose force depends on (coefficients, delta, v) alone.
template <class KernelT>
inline constexpr bool history_free = splits_force<KernelT> && !reads_impact_velocity<KernelT>;

/// True for kernels whose only history is v0 and the damping origin (the hysteresis family): an
/// engine may evaluate them like history-free ones, given those.
template <class KernelT>
inline constexpr bool reads_only_impact_velocity =
    splits_force<KernelT>&& reads_impact_velocity<KernelT>;

/// True for kernels that declare the leading terms of their force at a contact's edges
/// (edge_terms).
template <class KernelT>
inline constexpr bool has_edge_term = requires(const PairCoeffs& c, const ContactState& s) {
  KernelT::edge_terms(c, s, 0.0);
};

/// True for kernels whose damping part is always zero.
template <class KernelT>
consteval bool is_conservative() {
  if constexpr (requires { KernelT::conservative; })
    return KernelT::conservative;
  else
    return false;
}
template <class KernelT>
inline constexpr bool conservative = is_conservative<KernelT>();

/// True for kernels an engine may evaluate on their history kept in columns (PlasticHistory).
template <class KernelT>
inline constexpr bool history_in_columns = requires(const PairCoeffs& c, PlasticHistory& h) {
  KernelT::force_columns(c, h, 0.0);
};

}  // namespace kernels

/// Overlap at which the law's elastic force (no damping, fresh history) equals `force` > 0: the
/// static overlap of a pre-compressed contact. Exact for the power laws and the implicit line
/// contacts, a root solve for the other line contacts; the Hertz part for plastic laws.
double elastic_overlap(Kernel kernel, const PairCoeffs& coeffs, double force);

/// F = K delta^n fitted to an implicit line-contact law (002 §2).
struct PowerFit {
  double stiffness;  ///< K [N/m^n]
  double exponent;   ///< n
};
/// Least squares of ln F = ln K + n ln delta over `samples` loads uniformly spaced in
/// [force_min, force_max], delta(F) from the law as printed (kernels::LineContactImplicit
/// coefficients). 002 fits 600 loads per unit length in [1, 3000] N/mm.
PowerFit fit_power_law(const PairCoeffs& implicit, double force_min, double force_max, int samples);

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
      return f(kernels::PlasticPower{});
    case Kernel::thornton_1997:
      return f(kernels::Elastoplastic<kernels::ep::Thornton>{});
    case Kernel::stronge_2000:
      return f(kernels::Elastoplastic<kernels::ep::Stronge>{});
    case Kernel::vu_quoc_zhang_2002:
      return f(kernels::Elastoplastic<kernels::ep::VuQuocZhang>{});
    case Kernel::kogut_etsion_2002:
      return f(kernels::Elastoplastic<kernels::ep::KogutEtsion>{});
    case Kernel::jackson_green_2005:
      return f(kernels::Elastoplastic<kernels::ep::JacksonGreen>{});
    case Kernel::du_wang_2009:
      return f(kernels::Elastoplastic<kernels::ep::DuWang>{});
    case Kernel::brake_2012:
      return f(kernels::Elastoplastic<kernels::ep::Brake>{});
    case Kernel::burgoyne_daraio_2014:
      return f(kernels::Elastoplastic<kernels::ep::BurgoyneDaraio>{});
    case Kernel::power_hysteresis:
      return f(kernels::PowerHysteresis{});
    case Kernel::line_contact_implicit:
      return f(kernels::LineContactImplicit{});
    case Kernel::liu_line_contact:
      return f(kernels::LiuLineContact{});
    case Kernel::persson_line_contact:
      return f(kernels::PerssonLineContact{});
    case Kernel::ma_liu_2015:
      break;
  }
  return f(kernels::Elastoplastic<kernels::ep::MaLiu>{});
}

}  // namespace chaindem
