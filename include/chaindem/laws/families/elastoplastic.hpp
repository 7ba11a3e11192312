#pragma once
// Elastoplastic family (quasi-static laws): one state machine over per-law loading and unloading
// branches.

#include <algorithm>
#include "chaindem/laws/kernel_basics.hpp"

namespace chaindem::kernels {

// ---- Quasi-static elastoplastic laws (docs/contact-laws.md, elastoplastic)
// ------------------------------
//
// One state machine for every law of the group (group (e) "Common conventions"); a Model supplies
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

/// stronge_2000. Coefficient yield_angle = theta_y; F_y as printed, delta_y = (F_y/K)^(2/3);
/// x = 2 delta/delta_y - 1.
struct Stronge {
  // Its coefficients in PairCoeffs::law.
  static constexpr int yield_angle = 0;       ///< theta_y, the printed yield parameter
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    const double x = 2.0 * d / c.yield_overlap - 1.0;
    if (d < c.plastic_overlap)
      return c.yield_force * x * (1.0 + std::log(x) / (3.0 * c.law[yield_angle]));
    return 2.8 * c.yield_force / c.law[yield_angle] * x;
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    // R_bar = (2 delta_c/delta_y - 1)^(1/2) R, so K_u = K (R_bar/R)^(1/2).
    const double x = 2.0 * d_max / c.yield_overlap - 1.0;
    return through(d_max, f_max, c.stiffness * std::sqrt(std::sqrt(x)), 1.5,
                   d_max < c.plastic_overlap ? 1 : 2);
  }
};

/// vu_quoc_zhang_2002. Coefficients k_c = K_c [1/N], c_a = C_a [m/N]. Force-driven: delta(F) below,
/// F(delta) by a bracketed root solve (src/laws/families/elastoplastic.cpp).
double vu_quoc_zhang_force(const PairCoeffs& c, double d, double lower_bound);
struct VuQuocZhang {
  // Its coefficients in PairCoeffs::law.
  static constexpr int k_c = 0;               ///< K_c [1/N]
  static constexpr int c_a = 1;               ///< C_a [m/N]
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  /// delta(F) on the elastoplastic branch (F >= F_y), with the row's symbols read as: E the
  /// Young's modulus of identical spheres (E/(1 - nu^2) = 2 E*), R = R*, and the row's delta the
  /// approach of one centre, half the overlap. Then a^e = R^(1/2) (F/K)^(1/3) (Hertz),
  /// a^ep = a^e + C_a (F - F_y), R^ep = (1 + K_c (F - F_y)) R, overlap = (a^ep)^2 / R^ep.
  static double overlap(const PairCoeffs& c, double f) {
    const double x = f - c.yield_force;
    const double a = std::sqrt(c.radius) * std::cbrt(f / c.stiffness) + c.law[c_a] * x;
    return a * a / (c.radius * (1.0 + c.law[k_c] * x));
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
    const double cr = 1.0 + c.law[k_c] * (f_max - c.yield_force);
    return through(d_max, f_max, c.stiffness * cr * std::sqrt(cr), 1.5, 1);
  }
};

/// kogut_etsion_2002. Coefficient given_residual = delta_res/delta_max if >= 0, else (< 0) the
/// finite-element fit.
struct KogutEtsion {
  // Its coefficients in PairCoeffs::law.
  static constexpr int given_residual =
      0;  ///< delta_res/delta_max if >= 0, else (< 0) the finite-element fit
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
    if (c.law[given_residual] >= 0.0) return c.law[given_residual];
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

/// jackson_green_2005. Coefficient hardness_factor = 4 H/(C S_y).
struct JacksonGreen {
  // Its coefficients in PairCoeffs::law.
  static constexpr int hardness_factor = 0;   ///< 4 H/(C S_y)
  static constexpr double elastic_end = 1.9;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    const double w = d / c.yield_overlap;
    if (w <= 1.9) return hertz(c, d);
    return c.yield_force *
           (std::exp(-0.25 * std::pow(w, 5.0 / 12.0)) * w * std::sqrt(w) +
            c.law[hardness_factor] * (1.0 - std::exp(-0.04 * std::pow(w, 5.0 / 9.0))) * w);
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

/// brake_2012. Coefficients yield_slope = F'_y, plastic_slope = F'_p = 2 pi R p0 (the fully plastic
/// branch pi p0 (2 R delta + c) = F_p + F'_p (delta - delta_p)).
struct Brake {
  // Its coefficients in PairCoeffs::law.
  static constexpr int yield_slope = 0;       ///< F'_y, the loading slope at delta_y [N/m]
  static constexpr int plastic_slope = 1;     ///< F'_p = 2 pi R p0 [N/m]
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    if (d >= c.plastic_overlap)
      return c.plastic_force + c.law[plastic_slope] * (d - c.plastic_overlap);
    const double span = c.plastic_overlap - c.yield_overlap;
    const double s = (d - c.yield_overlap) / span;
    const double fy = c.yield_force, fp = c.plastic_force;
    const double a3 = 2.0 * fy - 2.0 * fp + span * (c.law[yield_slope] + c.law[plastic_slope]);
    const double a2 =
        -3.0 * fy + 3.0 * fp - span * (2.0 * c.law[yield_slope] + c.law[plastic_slope]);
    return ((a3 * s + a2) * s + span * c.law[yield_slope]) * s + fy;
  }
  static Branch unloading(const PairCoeffs& c, double d_max, double f_max) {
    if (d_max < c.yield_overlap) return elastic(c);
    // R_b = R + delta_m/2
    return through(d_max, f_max, c.stiffness * std::sqrt(1.0 + 0.5 * d_max / c.radius), 1.5,
                   d_max < c.plastic_overlap ? 1 : 2);
  }
};

/// burgoyne_daraio_2014. Coefficient plastic_slope = 2 pi R p0. The middle branch
/// delta (alpha + beta ln delta) through (delta_y, F_y) and (delta_p, F_p), written without the
/// unit-dependent alpha, beta.
struct BurgoyneDaraio {
  // Its coefficients in PairCoeffs::law.
  static constexpr int plastic_slope = 0;     ///< 2 pi R p0, the fully plastic slope [N/m]
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    if (d >= c.plastic_overlap)
      return c.plastic_force + c.law[plastic_slope] * (d - c.plastic_overlap);
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

/// ma_liu_2015. Coefficients c1, c2, k1 [N/m]; c3 = F_y - c1 delta_y.
struct MaLiu {
  // Its coefficients in PairCoeffs::law.
  static constexpr int c1 = 0;                ///< c1 [N/m]
  static constexpr int c2 = 1;                ///< c2 [N/m]
  static constexpr int k1 = 2;                ///< k1, the fully plastic slope [N/m]
  static constexpr double elastic_end = 1.0;  ///< Hertz below elastic_end delta_y
  static double loading(const PairCoeffs& c, const ContactState&, double d) {
    if (d < c.yield_overlap) return hertz(c, d);
    if (d >= c.plastic_overlap) return c.plastic_force + c.law[k1] * (d - c.plastic_overlap);
    return d * (c.law[c1] + c.law[c2] * std::log(d / c.yield_overlap)) + c.yield_force -
           c.law[c1] * c.yield_overlap;
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

}  // namespace chaindem::kernels

// This family's kernels, one line each: X(enumerator of Kernel, type) (kernel_list.hpp; each
// name is also in kernel_id.hpp).
// clang-format off
#define CHAINDEM_ELASTOPLASTIC_KERNELS(X) \
  X(thornton_1997, kernels::Elastoplastic<kernels::ep::Thornton>) /* Hertz, then F_y + pi p_y R (delta - delta_y) */ \
  X(stronge_2000, kernels::Elastoplastic<kernels::ep::Stronge>) /* Hertz, logarithmic, linear */ \
  X(vu_quoc_zhang_2002, kernels::Elastoplastic<kernels::ep::VuQuocZhang>) /* force-driven delta(F) */ \
  X(kogut_etsion_2002, kernels::Elastoplastic<kernels::ep::KogutEtsion>) /* power-law fits in delta/delta_y */ \
  X(jackson_green_2005, kernels::Elastoplastic<kernels::ep::JacksonGreen>) /* Hertz to omega = 1.9, then the Jackson-Green fit */ \
  X(du_wang_2009, kernels::Elastoplastic<kernels::ep::DuWang>) /* Hertz, then linear tangent */ \
  X(brake_2012, kernels::Elastoplastic<kernels::ep::Brake>) /* Hertz, Hermite cubic, fully plastic linear */ \
  X(burgoyne_daraio_2014, kernels::Elastoplastic<kernels::ep::BurgoyneDaraio>) /* Hertz, delta (alpha + beta ln delta), linear */ \
  X(ma_liu_2015, kernels::Elastoplastic<kernels::ep::MaLiu>) /* Hertz, logarithmic, linear */
// clang-format on
