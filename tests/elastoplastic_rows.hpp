#pragma once
// What the elastoplastic tests (test_elastoplastic_*.cpp) share: the pair of steel spheres, the
// rows of docs/contact-laws.md, elastoplastic (CJTAM review, Table 3) typed again here with the
// readings the registry documents (loading curves, residual overlaps, printed constants), and
// ways to drive a law's kernel through loading, unloading and integrated impacts. Nothing here is
// read from the library's rows, so the tests stay independent of the implementation.

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/contact_law.hpp"
#include "chaindem/laws/restitution.hpp"
#include "reference_tables.hpp"
#include "test_support.hpp"

namespace chaindem::test::elastoplastic {

using test::kernel_force;
using test::law;

inline constexpr double pi = std::numbers::pi;

// Two steel spheres of R = 10 mm (test::elastoplastic_steel: E = 200 GPa, nu = 0.3,
// sigma_y = 1 GPa, rho = 7800 kg/m^3).
inline constexpr double youngs = test::elastoplastic_steel.youngs_modulus,
                        nu = test::elastoplastic_steel.poisson_ratio,
                        sigma = test::elastoplastic_steel.yield_stress, radius = 0.01,
                        density = test::elastoplastic_steel.density;
inline const double e_star = youngs / (2.0 * (1.0 - nu * nu));
inline const double r_star = radius / 2.0;
inline const double m_star = density * 4.0 / 3.0 * pi * radius * radius * radius / 2.0;
inline const double k_hertz = 4.0 / 3.0 * e_star * std::sqrt(r_star);

inline PairInput steel(double yield_stress = sigma) {
  PairInput in{e_star, r_star, m_star};
  in.youngs_modulus = youngs;
  in.poisson_ratio = nu;
  in.yield_stress = yield_stress;
  return in;
}

inline double hertz(double d) {
  return k_hertz * std::pow(d, 1.5);
}
// Yield onset at the Hertz peak pressure p (group (e), "Hertz yield onset").
inline double yield_overlap(double p) {
  return std::pow(pi * p / (2.0 * e_star), 2) * r_star;
}

// The law's parameters with the registry's defaults filled in, as the case parser does.
inline LawParams resolved(const LawEntry& l, LawParams p) {
  for (const auto& spec : l.params)
    if (!p.count(std::string(spec.key)) && spec.default_value)
      p[std::string(spec.key)] = *spec.default_value;
  return p;
}

// ---- The rows, typed from docs/contact-laws.md, elastoplastic ----------------------------------

inline const double dy16 = yield_overlap(1.6 * sigma);  // p_y = 1.6 sigma_y
inline const double fy16 = hertz(dy16);
inline const double p0_brake = 2.8 * sigma;  // p0 = H = 2.8 sigma_y (defaults)
inline const double a_p = 3.0 * pi * r_star * p0_brake / (4.0 * e_star);
inline const double theta_stronge = 1.1;
inline const double jg_c = 1.295 * std::exp(0.736 * nu);

struct LawRow {
  std::string id;
  LawParams params;    // beyond the defaults: test::elastoplastic_laws and the pair's own
  double delta_y;      // end of the Hertz branch in units of its own scale (see elastic_end)
  double elastic_end;  // the loading curve is Hertz up to elastic_end * delta_y
};

// The parameters of test::elastoplastic_laws, with `pair` (the row's parameters that depend on
// the pair) added.
inline LawParams params_of(std::string_view id, const LawParams& pair = {}) {
  LawParams p = test::elastoplastic_law(id).params;
  for (const auto& [key, value] : pair) p[key] = value;
  return p;
}

inline std::vector<LawRow> cases() {
  // Stronge: F_y = pi theta sigma R^2 (3 pi/4)^2 (theta sigma/E*)^2 as printed; delta_y from
  // value continuity with Hertz.
  const double fy_stronge = pi * theta_stronge * sigma * r_star * r_star * std::pow(3 * pi / 4, 2) *
                            std::pow(theta_stronge * sigma / e_star, 2);
  const double ratio_bd =
      test::elastoplastic_law("burgoyne_daraio_2014").params.at("plastic_overlap_ratio");
  return {
      {"thornton_1997", params_of("thornton_1997"), yield_overlap(sigma), 1.0},
      {"stronge_2000", params_of("stronge_2000"), std::pow(fy_stronge / k_hertz, 2.0 / 3.0), 1.0},
      // K_c F_y = 0.05, C_a F_y/a_y = 0.3 (no values in the sources).
      {"vu_quoc_zhang_2002",
       params_of("vu_quoc_zhang_2002",
                 {{"k_c", 0.05 / fy16}, {"c_a", 0.3 * std::sqrt(r_star * dy16) / fy16}}),
       dy16, 1.0},
      {"kogut_etsion_2002", params_of("kogut_etsion_2002"),
       yield_overlap((0.454 + 0.41 * nu) * 2.8 * sigma), 1.0},
      {"jackson_green_2005", params_of("jackson_green_2005"), yield_overlap(jg_c * sigma), 1.9},
      {"du_wang_2009", params_of("du_wang_2009"), yield_overlap((1.0 + pi / 2.0) * sigma), 1.0},
      {"brake_2012", params_of("brake_2012"), dy16, 1.0},
      // c2 = a_p^2 - 2 R delta_p, with Brake's a_p (p0 = 2.8 sigma_y).
      {"burgoyne_daraio_2014",
       params_of("burgoyne_daraio_2014", {{"c2", a_p * a_p - 2.0 * r_star * ratio_bd * dy16}}),
       dy16, 1.0},
      {"ma_liu_2015", params_of("ma_liu_2015"), yield_overlap(1.61 * sigma), 1.0},
  };
}

inline LawRow find_case(const std::string& id) {
  for (const LawRow& k : cases())
    if (k.id == id) return k;
  throw std::runtime_error("no case " + id);
}

inline PairCoeffs coeffs(const LawRow& k, PairInput in = steel()) {
  const LawEntry& l = law(k.id);
  return l.prepare(l, in, resolved(l, k.params));
}

// Vu-Quoc & Zhang's delta(F) as printed, with the registry's reading of its symbols: E Young's
// modulus of identical spheres, R = R*, the row's delta is half the overlap.
inline double vqz_overlap(double f, double f_y, double k_c, double c_a) {
  if (f <= f_y) {
    // F = [2E/(3R(1 - nu^2))] a^3, a = (2 R delta_row)^(1/2)
    const double a = std::cbrt(f * 3.0 * r_star * (1.0 - nu * nu) / (2.0 * youngs));
    return 2.0 * a * a / (2.0 * r_star);
  }
  const double a_e = std::cbrt(3.0 * r_star * (1.0 - nu * nu) * f / (2.0 * youngs));
  const double a_ep = a_e + c_a * (f - f_y);
  const double r_ep = (1.0 + k_c * (f - f_y)) * r_star;
  return 2.0 * a_ep * a_ep / (2.0 * r_ep);
}
inline double vqz_force(double d, double f_y, double k_c, double c_a) {  // bisection, independent
  double lo = 0.0, hi = 1.0;
  while (vqz_overlap(hi, f_y, k_c, c_a) < d) hi *= 2.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (vqz_overlap(mid, f_y, k_c, c_a) < d ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

// Ma & Liu's printed constants.
struct MaLiuRow {
  double p_y, dy, fy, dp, c1, c2, c3, k1, fp;
};
inline MaLiuRow ma_liu_row(double xi, double psi) {
  MaLiuRow r{};
  r.p_y = 1.61 * sigma;
  r.dy = yield_overlap(r.p_y);
  r.fy = pi * pi * pi * r_star * r_star * std::pow(r.p_y, 3) / (6.0 * e_star * e_star);
  const double l = std::log(xi * xi / 2.0);
  r.dp = xi * xi / 2.0 * r.dy;
  r.k1 = 2.0 * pi * r_star * psi * sigma;
  r.c1 = pi * r_star * (r.p_y * (1.0 + l) - 2.0 * psi * sigma) / l;
  r.c2 = pi * r_star * (2.0 * psi * sigma - r.p_y) / l;
  r.c3 = r.fy - r.c1 * r.dy;
  r.fp = r.dp * (r.c1 + r.c2 * l) + r.c3;
  return r;
}

// Brake's printed constants (with the documented readings of its misprints).
struct BrakeRow {
  double dy, fy, dp, fp, dfy, dfp, c;
};
inline BrakeRow brake_row(double ratio) {
  BrakeRow b{};
  b.dy = dy16;
  b.fy = 4.0 / 3.0 * e_star * std::sqrt(r_star) * std::pow(b.dy, 1.5);
  b.dp = ratio * b.dy;
  b.fp = pi * p0_brake * a_p * a_p;
  b.dfy = 2.0 * e_star * std::sqrt(r_star * b.dy);
  b.dfp = 2.0 * pi * r_star * p0_brake;
  b.c = a_p * a_p - 2.0 * r_star * b.dp;
  return b;
}

// Burgoyne & Daraio's printed constants.
struct BurgoyneRow {
  double dy, fy, dp, fp, alpha, beta, p0, c2;
};
inline BurgoyneRow burgoyne_row(const LawRow& k) {
  BurgoyneRow b{};
  b.fy = std::pow(r_star / e_star, 2) * std::pow(1.6 * pi * sigma, 3) / 6.0;
  b.dy = std::pow(1.6 * pi * sigma / (2.0 * e_star), 2) * r_star;
  b.dp = k.params.at("plastic_overlap_ratio") * b.dy;
  b.p0 = k.params.at("c1") * sigma;
  b.c2 = k.params.at("c2");
  b.fp = b.p0 * pi * (2.0 * r_star * b.dp + b.c2);
  const double ly = std::log(b.dy), lp = std::log(b.dp);
  b.alpha = (b.dp * b.fy * lp - b.dy * b.fp * ly) / (b.dy * b.dp * (lp - ly));
  b.beta = (b.dy * b.fp - b.dp * b.fy) / (b.dy * b.dp * (lp - ly));
  return b;
}

// The loading curve of each row, typed from contact-laws.md.
inline double row_loading(const LawRow& k, double d) {
  const double dy = k.delta_y;
  if (d < dy * k.elastic_end && k.id != "vu_quoc_zhang_2002") return hertz(d);
  if (k.id == "thornton_1997") return hertz(dy) + pi * sigma * r_star * (d - dy);
  if (k.id == "stronge_2000") {
    const double fy = hertz(dy), x = 2.0 * d / dy - 1.0;
    const double dp = dy * (1.0 + std::exp(3.0 * (2.8 - theta_stronge))) / 2.0;
    if (d < dp) return fy * x * (1.0 + std::log(x) / (3.0 * theta_stronge));
    return 2.8 * fy / theta_stronge * x;
  }
  if (k.id == "vu_quoc_zhang_2002")
    return vqz_force(d, fy16, k.params.at("k_c"), k.params.at("c_a"));
  if (k.id == "kogut_etsion_2002") {
    const double w = d / dy, fc = hertz(dy);
    return w < 6.0 ? fc * 1.03 * std::pow(w, 1.425) : fc * 1.40 * std::pow(w, 1.263);
  }
  if (k.id == "jackson_green_2005") {
    const double w = d / dy, fc = hertz(dy);
    return fc * (std::exp(-0.25 * std::pow(w, 5.0 / 12.0)) * std::pow(w, 1.5) +
                 4.0 * 2.8 / jg_c * (1.0 - std::exp(-std::pow(w, 5.0 / 9.0) / 25.0)) * w);
  }
  if (k.id == "du_wang_2009") {
    const double pp = (1.0 + pi / 2.0) * sigma;
    return pi * r_star * pp * d - std::pow(pp * pi, 3) * r_star * r_star / (12.0 * e_star * e_star);
  }
  if (k.id == "brake_2012") {
    const BrakeRow b = brake_row(k.params.at("plastic_overlap_ratio"));
    if (d >= b.dp) return pi * p0_brake * (2.0 * r_star * d + b.c);
    const double span = b.dp - b.dy, s = (d - b.dy) / span;
    return (2 * b.fy - 2 * b.fp + span * (b.dfy + b.dfp)) * s * s * s +
           (-3 * b.fy + 3 * b.fp + span * (-2 * b.dfy - b.dfp)) * s * s + span * b.dfy * s + b.fy;
  }
  if (k.id == "burgoyne_daraio_2014") {
    const BurgoyneRow b = burgoyne_row(k);
    if (d >= b.dp) return b.p0 * pi * (2.0 * r_star * d + b.c2);
    return d * (b.alpha + b.beta * std::log(d));
  }
  if (k.id == "ma_liu_2015") {
    const MaLiuRow r = ma_liu_row(k.params.at("xi"), k.params.at("psi"));
    if (d >= r.dp) return r.fp + r.k1 * (d - r.dp);
    return d * (r.c1 + r.c2 * std::log(d / r.dy)) + r.c3;
  }
  throw std::runtime_error("no row for " + k.id);
}

// The residual overlap each row prints or implies after loading to (d, f) (above yield).
inline double row_residual(const LawRow& k, double d, double f) {
  auto continuity = [&](double r_u) {
    return d - std::pow(3.0 * f / (4.0 * e_star * std::sqrt(r_u)), 2.0 / 3.0);
  };
  const double dy = k.delta_y, fy = hertz(dy);
  if (k.id == "thornton_1997")
    return continuity(4.0 * e_star / (3.0 * f) * std::pow((2 * f + fy) / (2 * pi * sigma), 1.5));
  if (k.id == "stronge_2000") return continuity(std::sqrt(2.0 * d / dy - 1.0) * r_star);
  if (k.id == "vu_quoc_zhang_2002") {
    const double cr = 1.0 + k.params.at("k_c") * (f - fy16);
    // F = [2E/(3R(1 - nu^2))] a_e^3, a_e = (2 C_R R delta_row)^(1/2), delta_row = overlap/2
    const double k_u = 2.0 * youngs / (3.0 * r_star * (1.0 - nu * nu)) * std::pow(cr * r_star, 1.5);
    return d - std::pow(f / k_u, 2.0 / 3.0);
  }
  if (k.id == "kogut_etsion_2002")  // the fit (capped at 0.99 far beyond its range)
    return d * std::min(0.99, 1.02 * (1.0 - std::pow((d / dy + 5.9) / 6.9, -0.54)));
  if (k.id == "jackson_green_2005")
    return continuity(r_star * std::cos(std::sqrt(r_star * d) / r_star));
  if (k.id == "du_wang_2009") return continuity(r_star);
  if (k.id == "brake_2012") return continuity(r_star + d / 2.0);
  if (k.id == "burgoyne_daraio_2014")
    return continuity(4.0 * e_star / (3.0 * f) *
                      std::pow((2 * f + fy) / (2 * pi * 1.6 * sigma), 1.5));
  if (k.id == "ma_liu_2015") {
    const MaLiuRow r = ma_liu_row(k.params.at("xi"), k.params.at("psi"));
    if (d < r.dp) return continuity(hertz(d) * r_star / f);
    return continuity(hertz(r.dp) * r_star / r.fp);
  }
  throw std::runtime_error("no row for " + k.id);
}

inline double kernel_potential(const LawEntry& l, const PairCoeffs& c, const ContactState& s,
                               double d) {
  return with_kernel(l.kernel, [&](auto kernel) { return decltype(kernel)::potential(c, s, d); });
}
// The loading curve alone: a fresh history at every point.
inline double loading_force(const LawEntry& l, const PairCoeffs& c, double d) {
  ContactState s;
  return kernel_force(l, c, s, d, 1.0);
}
// A history loaded monotonically to d_max.
inline ContactState loaded_to(const LawEntry& l, const PairCoeffs& c, double d_max) {
  ContactState s;
  for (int i = 1; i <= 400; ++i) kernel_force(l, c, s, d_max * i / 400.0, 1.0);
  return s;
}

inline ImpactResult impact(const LawEntry& l, const PairCoeffs& c, double v0,
                           const ContactState& state = {}) {
  ImpactOptions o;
  o.tension = TensionPolicy::clamp;
  o.record = true;
  return simulate_impact(l, c, m_star, v0, o, state);
}
inline double loop_area(const ImpactResult& r) {
  double area = 0.0;
  for (std::size_t k = 1; k < r.history.size(); ++k) {
    const auto& a = r.history[k - 1];
    const auto& b = r.history[k];
    area += 0.5 * (a.force + b.force) * (b.overlap - a.overlap);
  }
  return area;
}
// Yield velocity of the Hertz branch's end delta_y (group (g) header).
inline double yield_speed(const LawRow& k) {
  const double p = 2.0 * e_star * std::sqrt(k.delta_y / r_star) / pi;
  return yield_velocity(e_star, r_star, m_star, p);
}

}  // namespace chaindem::test::elastoplastic
