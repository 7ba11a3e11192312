#pragma once
// Normal contact-force laws: the registry's types (a law's row, its parameters, per-pair
// coefficients and history), without the kernels' bodies: a law names its kernel by a Kernel
// value (kernel_id.hpp). The kernels are in families/, joined in contact_law.hpp, which only
// code that evaluates a force includes.
//
// A law is declared exactly once, as a LawEntry row of its family (src/laws/families/): identifier,
// citation, formula, parameters with units and ranges, the kernel that evaluates it, its damping
// factor as a function of the restitution, its tension policy, and where it holds. The case parser,
// `chaindem models`, docs/contact-laws.md and the tests all read that registry.
//
// Laws of one family share one kernel: the hysteresis laws differ only by their damping factor
// alpha(c_r), the viscous laws by their damping coefficient chi and exponent m. The kernel is
// chosen once per force loop (with_kernel), so the hot loop has no virtual call and no per-pair
// branch on the law.
//
// Conventions (docs/contact-laws.md): overlap delta > 0 in contact, approach
// rate v = d(delta)/dt > 0 while compressing, force F > 0 when repulsive.

#include <math.h>  // lgamma_r
#include <algorithm>
#include <array>

#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "chaindem/laws/kernel_id.hpp"
#include "chaindem/laws/pair.hpp"
#include "chaindem/value_range.hpp"

namespace chaindem {

/// Law families, as grouped in docs/contact-laws.md.
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

/// How a law treats a tensile force at the end of contact (docs/contact-laws.md, each law's tension
/// line).
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
  ValueRange range;
  std::optional<double> default_value = std::nullopt;  ///< nullopt: required, unless default_text
  std::string_view default_text = {};                  ///< how a derived default is obtained

  bool admits(double x) const { return range.admits(x); }
  std::string range_text() const { return range.text(); }  ///< e.g. "(0, 1]"
};

/// The overlap strain delta/R* up to which chaindem takes Hertz's theory to hold: a contact radius
/// a = sqrt(R* delta) of at most 0.14 R*, small against the radii as the theory assumes (Johnson
/// 1985, chapter 4). The bound of the Hertzian laws' validity, and of the overlaps a run may start
/// with (docs/case-format.md, "Plausibility").
inline constexpr double hertz_strain_bound = 0.02;

/// A bound of a law's validity, and who states it.
struct StatedBound {
  double value = ValueRange::inf;  ///< infinite: none stated
  std::string_view source = {};    ///< author and year, and where
  constexpr bool stated() const { return value < ValueRange::inf; }
};

/// Where a law holds, as its sources state it (docs/contact-laws.md, each law's validity line).
/// A run is watched against it and says when it leaves it (docs/engine.md, "Validity of the
/// laws"); nothing is clamped. A bound is none where the sources state none.
struct LawValidity {
  StatedBound strain = {};        ///< largest overlap over the effective radius, delta/R*
  StatedBound impact_speed = {};  ///< largest impact speed over the wave speed sqrt(E/rho)
  /// Largest peak Hertz pressure p0 = (2 E*/pi) sqrt(delta/R*) over the smaller yield stress of
  /// the bodies, where their materials give one: the bound of elastic laws, whose bodies must not
  /// yield (plastic laws hold beyond yield: none).
  StatedBound yield_pressure = {};
  ValueRange restitution = ValueRange::any();  ///< c_r the derivation assumes (any: none stated)
  std::string_view restitution_source = {};
};
/// The bounds as one line: "delta/R* <= 0.02 (SOURCE); ...", or "none stated".
std::string validity_text(const LawValidity& v);

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

/// Resolved numeric parameters of the chosen law, by key.
using LawParams = std::map<std::string, double, std::less<>>;

/// The value of `spec` in `p`, or nullopt when `p` has none (an optional parameter not given).
/// Laws read their parameters through the ParamSpec objects their rows declare, not by a key
/// typed again: a misspelt name does not compile, and a row and its prepare function cannot name
/// different parameters.
inline std::optional<double> find_value(const LawParams& p, const ParamSpec& spec) {
  const auto it = p.find(spec.key);
  return it == p.end() ? std::nullopt : std::optional<double>(it->second);
}

/// The value of `spec` in `p`, for a parameter resolve_law_params always fills in (required, or
/// with a default); see find_value. Throws std::out_of_range when `p` has none.
inline double value_of(const LawParams& p, const ParamSpec& spec) {
  const auto it = p.find(spec.key);
  if (it == p.end())
    throw std::out_of_range("law parameter '" + std::string(spec.key) + "' has no value");
  return it->second;
}

struct LawEntry {
  std::string_view id;        ///< identifier, as in docs/contact-laws.md
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
  LawValidity validity;  ///< where its sources state it holds

  const ParamSpec* find_param(std::string_view key) const;
  bool uses_impact_velocity() const;  ///< v0 in the damping term (needs a floor)
};

/// All laws, in documentation order.
std::span<const LawEntry> all_laws();
/// The law with this identifier, or nullptr.
const LawEntry* find_law(std::string_view id);
/// The identifier a law had in earlier versions of chaindem and has now, for case files written
/// then: find_law accepts the old names too.
struct RenamedLaw {
  std::string_view old_id, id;
};
std::span<const RenamedLaw> renamed_laws();

/// A published law chaindem does not implement, and why.
struct UnimplementedLaw {
  std::string_view id, source, reason;
};
std::span<const UnimplementedLaw> unimplemented_laws();

/// A name a user brings from another code or from the literature for a law chaindem has under
/// another identifier ("hertz_mindlin" for edem_hertz_mindlin): not read as the law (the name
/// may mean other things elsewhere), but named in the message that refuses it.
struct ForeignLawName {
  std::string_view name, id, meaning;
};
std::span<const ForeignLawName> foreign_law_names();

/// Why `id` is not a law: "'ID' is not a law of chaindem", then what it most likely meant (a
/// foreign name's chaindem law, a law chaindem does not implement and why, or the closest
/// identifiers), then where the laws are listed.
std::string unknown_law_text(std::string_view id);

/// A law parameter that is unknown to the law, out of its range, or missing; `key` is the
/// parameter's key (without a section), what() says what is wrong with it.
struct LawParamError : std::invalid_argument {
  std::string key;
  LawParamError(std::string k, const std::string& what)
      : std::invalid_argument(what), key(std::move(k)) {}
};

/// The law's parameters from the values a user gave (by key): each checked against its declared
/// range, the declared defaults filled in. Every command that takes law parameters (case files,
/// sweeps, `collide`, `compare`) reads them through this. Throws LawParamError for a key the law
/// does not declare, a value out of range, or a required parameter not given (one without a
/// default or a derived default, ParamSpec::default_text).
LawParams resolve_law_params(const LawEntry& law, const LawParams& given);

/// The tension policy named by a word: "law" (the law's own), "clamp" or "allow"; nullopt for
/// any other word.
std::optional<TensionPolicy> tension_from(std::string_view word, const LawEntry& law);

/// What a contact law reads of the two bodies' materials.
struct BodyMaterial {
  double youngs_modulus;      ///< E [Pa]
  double poisson_ratio;       ///< nu
  double yield_stress = 0.0;  ///< [Pa]; 0: none given
};
/// The material part of a pair's PairInput (geometry and mass left at 0): E* = 1/(h_i + h_j)
/// with h = (1 - nu^2)/E, the mean E and nu, and the smaller yield stress of those given.
PairInput mixed_materials(const BodyMaterial& a, const BodyMaterial& b);

/// Markdown reference of every law (docs/contact-laws.md is this text).
std::string laws_markdown();

/// Hertz stiffness K = (4/3) E* sqrt(R*) [N/m^1.5].
inline double hertz_stiffness(double effective_modulus, double effective_radius) {
  return 4.0 / 3.0 * effective_modulus * std::sqrt(effective_radius);
}
/// beta = ln c_r / sqrt(ln^2 c_r + pi^2) in [-1, 0]; the limit -1 at c_r = 0.
double restitution_beta(double restitution);

/// ln Gamma(x) for x > 0, safe to call from several threads: std::lgamma also writes the sign of
/// Gamma to the global `signgam` (glibc), a data race when sweeps and comparisons prepare laws in
/// parallel; lgamma_r returns the same value and keeps the sign to itself.
inline double log_gamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);
}

/// Duration of a free binary impact under F = K delta^n at approach speed v [s]
/// (docs/contact-laws.md, elastic: t_c = 2 (delta_max/v) B(1/(n+1), 1/2)/(n+1)).
/// (Inline: the two-body impact integrator scales its step with it, and the registry calibrates
/// laws with that integrator.)
inline double elastic_contact_time(double stiffness, double exponent, double effective_mass,
                                   double speed) {
  const double n = exponent;
  const double delta_max =
      std::pow((n + 1.0) * effective_mass * speed * speed / (2.0 * stiffness), 1.0 / (n + 1.0));
  const double a = 1.0 / (n + 1.0);
  const double beta = std::exp(log_gamma(a) + log_gamma(0.5) - log_gamma(a + 0.5));
  return 2.0 * delta_max / speed * beta / (n + 1.0);
}

}  // namespace chaindem
