#pragma once
// What the law families share: parameter declarations every family uses and the helpers that turn
// parameters into per-pair coefficients. Private to src/laws/.
#include <array>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numbers>
#include <span>
#include <stdexcept>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/contact_law.hpp"

namespace chaindem {

inline constexpr double inf = std::numeric_limits<double>::infinity();

inline constexpr double pi = std::numbers::pi;

inline constexpr ParamSpec hertz_stiffness_param{
    .key = "stiffness",
    .unit = "N/m^1.5",
    .description =
        "Hertz stiffness K; overrides (4/3) E* sqrt(R*) from the materials for every pair",
    .range = ValueRange::above(0.0),
    .default_text = "(4/3) E* sqrt(R*) from the materials"};

inline constexpr ParamSpec linear_stiffness_param{.key = "stiffness",
                                                  .unit = "N/m",
                                                  .description = "linear spring stiffness K",
                                                  .range = ValueRange::above(0.0)};

inline constexpr ParamSpec impact_velocity_floor_param{
    .key = "impact_velocity_floor",
    .unit = "m/s",
    .description =
        "with contact.impact_velocity = onset only: smallest impact velocity v0 used in the "
        "damping "
        "term; contacts that start slower (touching, resting or pre-compressed beads, where v0 -> "
        "0 "
        "makes the damping infinite) use this value and are counted in the run summary",
    .range = ValueRange::above(0.0),
    .default_text =
        "automatic: 1 % of the case's largest relative speed (collide: none); the automatic time "
        "step keeps damping at the floor stable"};

/// `spec` allowed only above `min`: the same parameter, for a law singular at or below `min`.
constexpr ParamSpec only_above(ParamSpec spec, double min) {
  spec.range.min = min;
  spec.range.min_inclusive = false;
  return spec;
}

// Every law with a damping factor reads its restitution through this key (factor()); a law's
// own variant changes the range or the description, never the key.
inline constexpr ParamSpec restitution_closed{
    .key = "restitution",
    .unit = "-",
    .description =
        "c_r, the coefficient of restitution the law's damping is derived from; what one impact "
        "returns depends on the law (its achieved restitution, `chaindem models LAW`, "
        "`chaindem collide`)",
    .range = ValueRange::closed(0.0, 1.0)};

inline constexpr ParamSpec restitution_open = only_above(restitution_closed, 0.0);

// Restitution and Hertz stiffness: the viscous laws, and the laws of other families that damp
// like them.
inline constexpr std::array viscous_closed_params{restitution_closed, hertz_stiffness_param};
inline constexpr std::array viscous_open_params{restitution_open, hertz_stiffness_param};

// Where the laws hold (LawValidity), as the families share it.
inline constexpr StatedBound hertz_small_strain{
    hertz_strain_bound,
    "Hertz (1881), Johnson (1985), chapter 4: contact radius a = sqrt(R* delta) small against R* "
    "(chaindem takes a <= 0.14 R*)"};
inline constexpr StatedBound hertz_first_yield{
    1.6, "Johnson (1985), chapter 6: first yield at p0 = 1.60 sigma_y (nu = 0.3)"};
// Elastic laws on Hertz's contact: small overlaps, and bodies that do not yield.
inline constexpr LawValidity hertz_elastic{.strain = hertz_small_strain,
                                           .yield_pressure = hertz_first_yield};
// Plastic laws on Hertz's contact: small overlaps; they hold beyond yield.
inline constexpr LawValidity hertz_plastic{.strain = hertz_small_strain};
// Laws whose sources state no range: springs not derived from the contact's geometry, and the
// laws that state their own ranges in other terms (the elastoplastic fits, in delta/delta_y).
inline constexpr LawValidity none_stated{};

inline double hertz_k(const PairInput& in, const LawParams& p) {
  return find_value(p, hertz_stiffness_param)
      .value_or(hertz_stiffness(in.effective_modulus, in.effective_radius));
}

inline double factor(const LawEntry& law, const LawParams& p) {
  return law.damping_factor(value_of(p, restitution_closed));
}

inline PairCoeffs base(double k, double n, const PairInput& in) {
  PairCoeffs c;
  c.stiffness = k;
  c.exponent = n;
  c.effective_mass = in.effective_mass;
  return c;
}

inline double log_decrement_ratio(double c) {
  return -restitution_beta(c);
}  // xi of the linear oscillator

// Shared by the viscous laws and Jankowski's piecewise law (a viscous law while approaching).
// Viscous laws with chi = factor(c_r) sqrt(K m*).
inline PairCoeffs prepare_viscous(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c = base(hertz_k(in, p), 1.5, in);
  c.damping = factor(law, p) * std::sqrt(c.stiffness * in.effective_mass);
  c.damping_exponent = 0.25;
  return c;
}

// Jankowski's damping ratio, Banerjee et al. (2017), Eq. 36 in the reading that reproduces Banerjee
// et al. (2017), Table 1.
inline double jankowski_xi(double c) {
  return 4.5 * std::sqrt(5.0) * (1.0 - c * c) / (c * (c * (9.0 * pi - 16.0) + 16.0));
}

inline double jankowski_factor(double c) {
  return 2.0 * jankowski_xi(c);
}

// Each family's rows of the registry, in documentation order.
std::span<const LawEntry> elastic_laws();
std::span<const LawEntry> kelvin_voigt_laws();
std::span<const LawEntry> viscous_laws();
std::span<const LawEntry> hysteresis_laws();
std::span<const LawEntry> piecewise_laws();
std::span<const LawEntry> elastoplastic_laws();
std::span<const LawEntry> line_contact_laws();

}  // namespace chaindem
