#pragma once
// Kelvin-Voigt and viscous families: an elastic part plus a dashpot that needs no impact
// velocity.

#include "chaindem/laws/families/elastic.hpp"

namespace chaindem::kernels {

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
    const double dn =
        std::pow(d, c.exponent);  // the damping often shares it (Autiero et al.'s (2022) power fit)
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

}  // namespace chaindem::kernels

// This family's kernels, one line each: X(enumerator of Kernel, type) (kernel_list.hpp; each
// name is also in kernel_id.hpp).
// clang-format off
#define CHAINDEM_VISCOUS_KERNELS(X) \
  X(linear_viscoelastic, kernels::LinearViscoelastic) /* F = K delta + C v */ \
  X(viscous_power, kernels::ViscousPower) /* F = K delta^n + chi delta^m v */ \
  X(hertz_viscous_quarter, kernels::HertzViscousQuarter) /* F = K delta^(3/2) + chi delta^(1/4) v */ \
  X(hertz_mindlin, kernels::HertzMindlin) /* F = K delta^(3/2) + 2 sqrt(5/6) |beta| sqrt(S_n m*) v */ \
  X(lee_wang_transition, kernels::LeeWangTransition) /* F = K delta^(3/2) + T(delta) D v */
// clang-format on
