#pragma once
// Hysteresis family: an elastic part times (1 + alpha v/v0), the damping written once for every
// elastic part it composes with.

#include "chaindem/laws/families/elastic.hpp"

namespace chaindem::kernels {

// ---- Hysteresis damping (v0 in the damping term)
// -------------------------------------------------

/// The hysteresis family composed with an elastic part E (docs/validation.md#restitution-identity):
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
  /// Skrinjar et al.'s (2018) Jankowski reading, the damping scale's term K (|v| tau)^(1/2) alpha
  /// v/v0 and the elastic one.
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

/// Skrinjar et al. (2018), Table 1's Jankowski row as printed: K delta^(3/2) + alpha K delta^(1/2)
/// v/v0, i.e. the hysteresis damping scaled by K delta^(1/2) instead of the elastic force.
struct HertzRootScale : Hertz {
  static double damping_scale(const PairCoeffs& c, double d, double) {
    return c.stiffness * std::sqrt(d);
  }
  static EdgeTerm scale_edge(const PairCoeffs& c, double v) {
    return power_edge(c.stiffness, 0.5, v);
  }
};
using HertzV0RootDamping = Hysteresis<HertzRootScale>;

}  // namespace chaindem::kernels

// This family's kernels, one line each: X(enumerator of Kernel, type) (kernel_list.hpp; each
// name is also in kernel_id.hpp).
// clang-format off
#define CHAINDEM_HYSTERESIS_KERNELS(X) \
  X(hertz_hysteresis, kernels::HertzHysteresis) /* F = K delta^(3/2) (1 + alpha v/v0) */ \
  X(linear_hysteresis, kernels::LinearHysteresis) /* F = K delta (1 + alpha v/v0) */ \
  X(hertz_v0_root_damping, kernels::HertzV0RootDamping) /* F = K delta^(3/2) + alpha K delta^(1/2) v/v0 */
// clang-format on
