#pragma once
// Line-contact family: cylinders of axial length L, elastic parts composed with hysteresis.

#include <numbers>

#include "chaindem/laws/families/hysteresis.hpp"

namespace chaindem::kernels {

// ---- Cylindrical line-contact laws (docs/contact-laws.md, cylindrical line contact)
// --------------------------------
//
// Two parallel cylinders of axial length L; every law is an elastic force F_e(delta) times the
// Lankarani-Nikravesh hysteresis factor (1 + alpha v/v0) of Skrinjar et al. (2018), §6 (alpha = 0:
// undamped). A wall contact is half of the symmetric contact of the body with its mirror image
// (src/laws/families/line_contact.cpp).

/// Hysteresis damping on a general power law: F = K delta^n (1 + alpha v/v0).
using PowerHysteresis = Hysteresis<PowerLaw>;

/// y = -W_-1(z) >= 1 for z in [-1/e, 0) (Boost.Math lambert_wm1; src/laws/line_contact.cpp).
double minus_lambert_wm1(double z);

/// The implicit laws (hertz_cylindrical, johnson_cylindrical, radzimovsky,
/// goldsmith_cylindrical, dubowsky_freudenstein_cylindrical, esdu_78035) all read
/// delta = a F (ln(b/F) + k). With y = ln(b/F) + k this is y e^(-y) = delta e^(-k)/(a b), so
/// y = -W_-1(-delta e^(-k)/(a b)) and F = delta/(a y): a closed form instead of the per-step
/// Newton iteration of Skrinjar et al. (2018). delta(F) peaks at F* = b e^(k-1), delta* = a F* (y =
/// 1); past the peak no force exists, and the force continues along the secant F = delta/a through
/// the peak (continuous, monotone, energy conserving). Coefficients: a (`compliance`) and e^(-k)/(a
/// b) (`inverse_reach`, so delta* = 1/(e inverse_reach)): k and b enter only through inverse_reach;
/// stiffness = 1/a and exponent = 1 (the secant through the peak: the largest secant stiffness),
/// a scale for integrators; the time step uses the law's own tangent (scene_builder.cpp).
struct ImplicitLineElastic {
  // Its coefficients in PairCoeffs::law.
  static constexpr int compliance = 0;      ///< a [m/N]
  static constexpr int inverse_reach = 1;   ///< e^(-k)/(a b) [1/m]
  static constexpr bool power_law = false;  // `stiffness` and `exponent` are only a scale
  static constexpr double minus_inverse_e = -0.36787944117144233;
  static double elastic(const PairCoeffs& c, double d) {
    if (!(d > 0.0)) return 0.0;
    const double z = -d * c.law[inverse_reach];
    const double y = z > minus_inverse_e ? minus_lambert_wm1(z) : 1.0;
    return d / (c.law[compliance] * y);
  }
  /// Energy L int W d(delta) = F delta/2 - a F^2/4 (integration by parts of delta(F)); past
  /// the peak the secant adds (delta^2 - delta*^2)/(2a).
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    if (!(d > 0.0)) return 0.0;
    const double a = c.law[compliance];
    if (-d * c.law[inverse_reach] > minus_inverse_e) {
      const double f = elastic(c, d);
      return 0.5 * f * d - 0.25 * a * f * f;
    }
    const double peak = -minus_inverse_e / c.law[inverse_reach];
    return (0.5 * d * d - 0.25 * peak * peak) / a;
  }
  /// delta(F), the law as printed: -a F ln(a law[inverse_reach] F) up to F*, then a F.
  static double overlap_at(const PairCoeffs& c, double f) {
    const double a = c.law[compliance];
    const double x = a * c.law[inverse_reach] * f;  // e^(-y)
    return x < -minus_inverse_e ? -a * f * std::log(x) : a * f;
  }
};
using LineContactImplicit = Hysteresis<ImplicitLineElastic>;

/// liu_line_contact_potential: q int_0^delta x^(3/2) (dR + x)^(-1/2) dx
/// (src/laws/line_contact.cpp).
double liu_line_contact_potential(double q, double clearance, double d);

/// C.-S. Liu et al. (2007): F = L (pi/2) E* delta (delta/(2 (dR + delta)))^(1/2).
/// Coefficients: q = L (pi/2) E*/sqrt(2) and dR; stiffness q/sqrt(dR) with exponent
/// 3/2 bounds it from above (the small-overlap limit), a scale for integrators.
struct LiuLineElastic {
  // Its coefficients in PairCoeffs::law.
  static constexpr int load_scale = 0;  ///< q = L (pi/2) E*/sqrt(2) [N/m]
  static constexpr int clearance = 1;   ///< dR [m]
  static constexpr bool power_law = false;
  static constexpr bool costly_potential = true;
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {  // q delta^(3/2) / sqrt(dR)
    return power_edge(c.stiffness, 1.5, v);
  }
  static double elastic(const PairCoeffs& c, double d) {
    return d > 0.0 ? c.law[load_scale] * d * std::sqrt(d / (c.law[clearance] + d)) : 0.0;
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d) {
    return d > 0.0 ? liu_line_contact_potential(c.law[load_scale], c.law[clearance], d) : 0.0;
  }
};
using LiuLineContact = Hysteresis<LiuLineElastic>;

/// Persson (Pereira et al. 2013, Eq. 6): P = E* dR pi (b^2 + 1) b^2 / (2 - log10(b^2 + 1) - 2 b^4)
/// with b = tan(eps/2), cos(eps) = dR/(dR + delta), so b^2 = u = delta/(2 dR + delta) (no
/// trigonometry). The load turns infinite at b = 0.9623 (eps = 87.8°, delta = 25 dR) and
/// negative beyond (Pereira et al. 2013, Eq. 9); past delta_c (16 dR, eps = 86.6°, where Pereira et
/// al. (2013) first reports the inconsistency) the force continues along its tangent at delta_c.
/// Coefficients: C = L E* dR pi, dR and delta_c; stiffness L pi E*/4
/// with exponent 1 is the small-overlap limit, a scale for integrators.
struct PerssonLineElastic {
  // Its coefficients in PairCoeffs::law.
  static constexpr int load_scale = 0;  ///< C = L E* dR pi [N]
  static constexpr int clearance = 1;   ///< dR [m]
  static constexpr int last_exact = 2;  ///< delta_c, where the tangent continuation starts [m]
  static constexpr bool power_law = false;
  static constexpr bool costly_potential = true;
  static EdgeTerm elastic_edge(const PairCoeffs& c, double v) {  // L pi E* delta / 4
    return power_edge(c.stiffness, 1.0, v);
  }
  static double curve(const PairCoeffs& c, double d) {
    const double u = d / (2.0 * c.law[clearance] + d);
    return c.law[load_scale] * (u + 1.0) * u / (2.0 - std::log10(1.0 + u) - 2.0 * u * u);
  }
  static double slope(const PairCoeffs& c, double d) {
    const double dr = c.law[clearance], u = d / (2.0 * dr + d);
    const double num = (u + 1.0) * u, den = 2.0 - std::log10(1.0 + u) - 2.0 * u * u;
    const double dnum = 2.0 * u + 1.0;
    const double dden = -1.0 / ((1.0 + u) * std::numbers::ln10) - 4.0 * u;
    const double du = 2.0 * dr / ((2.0 * dr + d) * (2.0 * dr + d));
    return c.law[load_scale] * (dnum * den - num * dden) / (den * den) * du;
  }
  static double elastic(const PairCoeffs& c, double d) {
    if (!(d > 0.0)) return 0.0;
    const double dc = c.law[last_exact];
    return d <= dc ? curve(c, d) : curve(c, dc) + slope(c, dc) * (d - dc);
  }
  static double potential(const PairCoeffs& c, const ContactState&, double d);
};
using PerssonLineContact = Hysteresis<PerssonLineElastic>;

}  // namespace chaindem::kernels

// This family's kernels, one line each: X(enumerator of Kernel, type) (kernel_list.hpp; each
// name is also in kernel_id.hpp).
// clang-format off
#define CHAINDEM_LINE_CONTACT_KERNELS(X) \
  X(power_hysteresis, kernels::PowerHysteresis) /* F = K delta^n (1 + alpha v/v0) */ \
  X(line_contact_implicit, kernels::LineContactImplicit) /* delta = a F (ln(b/F) + k) */ \
  X(liu_line_contact, kernels::LiuLineContact) /* F = q delta (delta/(dR + delta))^(1/2) */ \
  X(persson_line_contact, kernels::PerssonLineContact) /* Persson's u = delta/(2 dR + delta) */
// clang-format on
