// Elastoplastic family: quasi-static loading curves with frozen unloading branches.
// Its parameters, how they become per-pair coefficients, its damping factors and its rows of the
// registry (src/laws/registry.cpp joins the families in documentation order).
#include "common.hpp"

namespace chaindem {
namespace {

// Group (e): every law takes the yield stress from the materials, or from this parameter.
constexpr ParamSpec yield_stress_param{
    .key = "yield_stress",
    .unit = "Pa",
    .description =
        "yield stress sigma_y (S_y, Y) of the softer body; overrides the materials' yield_stress "
        "for "
        "every pair",
    .range = ValueRange::above(0.0),
    .default_text =
        "the smaller yield_stress of the two materials ([material.NAME] yield_stress; collide: "
        "--yield-stress)"};

constexpr ParamSpec yield_pressure_ratio_param{
    .key = "yield_pressure_ratio",
    .unit = "-",
    .description =
        "p_y/sigma_y, Hertz pressure at the onset of yield (delta_y = (pi p_y/(2E*))^2 R, not "
        "defined "
        "by the row); default 1.6, the Hertz first-yield pressure for nu ~ 0.3 printed in "
        "burgoyne_daraio_2014's row",
    .range = ValueRange::above(0.0),
    .default_value = 1.6};

constexpr ParamSpec hardness_ratio_param{
    .key = "hardness_ratio",
    .unit = "-",
    .description =
        "H/sigma_y, hardness over yield stress; default 2.8 (H = 2.8 Y of the Chang-Etsion-Bogy "
        "framework, as Kogut & Etsion 2002 and Jackson & Green 2005 take it)",
    .range = ValueRange::above(0.0),
    .default_value = 2.8};

constexpr ParamSpec limiting_pressure_ratio{.key = "limiting_pressure_ratio",
                                            .unit = "-",
                                            .description =
                                                "p_y/sigma_y, Thornton's limiting contact pressure "
                                                "over the yield stress; default 1: the row "
                                                "prints sigma_y where Thornton has p_y (uncertain; "
                                                "1.6 would be the Hertz first-yield value)",
                                            .range = ValueRange::above(0.0),
                                            .default_value = 1.0};
constexpr std::array thornton_params{yield_stress_param, limiting_pressure_ratio};

constexpr ParamSpec theta_y_param{
    .key = "theta_y",
    .unit = "-",
    .description =
        "yield coefficient: mean contact pressure theta_y sigma_y at first yield (the printed F_y "
        "is "
        "the Hertz load at that mean pressure); delta_p = delta_y (1 + e^(3 (2.8 - theta_y)))/2 "
        "needs "
        "theta_y < 2.8; default 1.1, the mean pressure at first yield 1.1 Y = (2/3) 1.6 Y of Hertz "
        "theory (delta_p = 82 delta_y)",
    .range = ValueRange::open(0.0, 2.8),
    .default_value = 1.1};
constexpr std::array stronge_params{yield_stress_param, theta_y_param};

constexpr ParamSpec k_c_param{
    .key = "k_c",
    .unit = "1/N",
    .description =
        "K_c, growth of the radius of curvature R^ep = (1 + K_c (F - F_y)) "
        "R (empirical; no value in the sources)",
    .range = ValueRange::at_least(0.0)};
constexpr ParamSpec c_a_param{.key = "c_a",
                              .unit = "m/N",
                              .description =
                                  "C_a, plastic growth of the contact radius a^p = C_a (F - F_y) "
                                  "(empirical; no value in the sources)",
                              .range = ValueRange::at_least(0.0)};
constexpr std::array vu_quoc_zhang_params{yield_stress_param, yield_pressure_ratio_param, k_c_param,
                                          c_a_param};

constexpr ParamSpec residual_fraction{
    .key = "residual_fraction",
    .unit = "-",
    .description =
        "delta_res/delta_max = omega_res/omega_max after a plastic loading (not in the sources)",
    .range = ValueRange::from_below(0.0, 1.0),
    .default_text =
        "the finite-element fit 1.02 [1 - ((omega_max + 5.9)/6.9)^(-0.54)] of the unloading "
        "literature of this law (not among the sources; uncertain), capped at 0.99"};
constexpr std::array kogut_etsion_params{yield_stress_param, hardness_ratio_param,
                                         residual_fraction};

// Jackson & Green's own description of the same ratio.
constexpr ParamSpec jackson_green_hardness_ratio{
    .key = "hardness_ratio",
    .unit = "-",
    .description =
        "H/S_y in the fully plastic term 4 H/(C S_y); default 2.8 (the branches then "
        "meet at omega = 1.9 within 0.07 % for nu = 0.3; the original's H is geometry dependent)",
    .range = ValueRange::above(0.0),
    .default_value = 2.8};
constexpr std::array jackson_green_params{yield_stress_param, jackson_green_hardness_ratio};

constexpr std::array du_wang_params{yield_stress_param};

constexpr ParamSpec pressure_hardness_ratio{
    .key = "pressure_hardness_ratio",
    .unit = "-",
    .description =
        "p0/H, fully plastic contact pressure over the hardness; default 1 (the row: p0 ~ H)",
    .range = ValueRange::above(0.0),
    .default_value = 1.0};
constexpr ParamSpec brake_plastic_overlap_ratio{
    .key = "plastic_overlap_ratio",
    .unit = "-",
    .description =
        "delta_p/delta_y, onset of the fully plastic branch (not defined in the sources; F_p = pi "
        "p0 "
        "a_p^2 lies below the Hertz curve only for delta_p/delta_y > (9/4) (p0/p_y)^2, 6.9 with "
        "the "
        "default pressures)",
    .range = ValueRange::above(1.0)};
constexpr std::array brake_params{yield_stress_param, yield_pressure_ratio_param,
                                  hardness_ratio_param, pressure_hardness_ratio,
                                  brake_plastic_overlap_ratio};

constexpr ParamSpec c1_param{
    .key = "c1",
    .unit = "-",
    .description =
        "p0 = c1 sigma_y, fully plastic contact pressure (empirical; no value in the sources)",
    .range = ValueRange::above(0.0)};
constexpr ParamSpec c2_param{
    .key = "c2",
    .unit = "m^2",
    .description =
        "c2 of the fully plastic branch p0 pi (2 R delta + c2), the same for every pair "
        "(empirical; no "
        "value in the sources; Brake's c = a_p^2 - 2 R delta_p plays this role)",
    .range = ValueRange::above(-inf)};
constexpr ParamSpec burgoyne_daraio_plastic_overlap_ratio{
    .key = "plastic_overlap_ratio",
    .unit = "-",
    .description =
        "delta_p/delta_y, onset of the fully plastic branch (empirical; no value in the sources)",
    .range = ValueRange::above(1.0)};
constexpr std::array burgoyne_daraio_params{yield_stress_param, c1_param, c2_param,
                                            burgoyne_daraio_plastic_overlap_ratio};

constexpr ParamSpec ma_liu_xi{.key = "xi",
                              .unit = "-",
                              .description =
                                  "xi: the fully plastic branch starts at delta_p = (xi^2/2) "
                                  "delta_y (no value in the sources)",
                              .range = ValueRange::above(std::numbers::sqrt2)};
constexpr ParamSpec ma_liu_psi{
    .key = "psi",
    .unit = "-",
    .description =
        "psi: fully plastic stiffness k1 = 2 pi R psi sigma_y, i.e. mean "
        "pressure psi sigma_y (no value in the sources)",
    .range = ValueRange::above(0.0)};
constexpr std::array ma_liu_params{yield_stress_param, ma_liu_xi, ma_liu_psi};

// The yield stress of the pair: the law parameter if given, else the materials'.
double yield_stress_of(const LawEntry& law, const PairInput& in, const LawParams& p) {
  if (!(in.effective_modulus > 0.0) || !(in.effective_radius > 0.0) ||
      !std::isfinite(in.effective_modulus) || !std::isfinite(in.effective_radius))
    throw std::invalid_argument("law '" + std::string(law.id) +
                                "' needs the materials (Young's modulus, Poisson ratio) and the "
                                "radii: E* and R* must be > 0");
  const double s = find_value(p, yield_stress_param).value_or(in.yield_stress);
  if (!(s > 0.0) || !std::isfinite(s))
    throw std::invalid_argument(
        "law '" + std::string(law.id) +
        "' needs a yield stress: give the materials a yield_stress ([material.NAME] "
        "yield_stress; collide: --yield-stress) or set the law parameter yield_stress [Pa]");
  return s;
}

// Hertz K and R, and the yield onset at the Hertz pressure p_y (docs/contact-laws.md,
// elastoplastic, "Hertz yield onset"): delta_y = (pi p_y/(2E*))^2 R, F_y = K delta_y^(3/2).
PairCoeffs elastoplastic_base(const PairInput& in, double p_y) {
  PairCoeffs c = base(hertz_stiffness(in.effective_modulus, in.effective_radius), 1.5, in);
  c.radius = in.effective_radius;
  const double r = pi * p_y / (2.0 * in.effective_modulus);
  c.yield_overlap = r * r * c.radius;
  c.yield_force = c.stiffness * std::pow(c.yield_overlap, 1.5);
  return c;
}

PairCoeffs prepare_thornton(const LawEntry& law, const PairInput& in, const LawParams& p) {
  return elastoplastic_base(in, value_of(p, limiting_pressure_ratio) * yield_stress_of(law, in, p));
}

PairCoeffs prepare_stronge(const LawEntry& law, const PairInput& in, const LawParams& p) {
  // F_y = pi theta_y sigma_y R^2 (3 pi/4)^2 (theta_y sigma_y/E*)^2 as printed: the Hertz load at
  // which the mean pressure 4 E* a/(3 pi R) reaches theta_y sigma_y, i.e. the yield onset with
  // the peak pressure p_y = (3/2) theta_y sigma_y. delta_y = (F_y/K)^(2/3) (value continuity).
  const double theta = value_of(p, theta_y_param);
  PairCoeffs c = elastoplastic_base(in, 1.5 * theta * yield_stress_of(law, in, p));
  c.law[kernels::ep::Stronge::yield_angle] = theta;
  c.plastic_overlap = 0.5 * c.yield_overlap * (1.0 + std::exp(3.0 * (2.8 - theta)));
  c.plastic_force = 2.8 * c.yield_force / theta * (2.0 * c.plastic_overlap / c.yield_overlap - 1.0);
  return c;
}

PairCoeffs prepare_vu_quoc_zhang(const LawEntry& law, const PairInput& in, const LawParams& p) {
  PairCoeffs c =
      elastoplastic_base(in, value_of(p, yield_pressure_ratio_param) * yield_stress_of(law, in, p));
  const double kc = value_of(p, k_c_param), ca = value_of(p, c_a_param);
  c.law[kernels::ep::VuQuocZhang::k_c] = kc;
  c.law[kernels::ep::VuQuocZhang::c_a] = ca;
  // The root solve needs delta(F) increasing on the elastoplastic branch:
  // d ln(delta)/dF > 0  <=>  2 (a_e' + C_a)(1 + K_c x) > K_c (a_e + C_a x), x = F - F_y,
  // a_e = R^(1/2) (F/K)^(1/3). Checked from F_y to 1e12 F_y (it holds for large F whenever
  // C_a > 0 or K_c = 0).
  for (int k = 0; k <= 240; ++k) {
    const double f = c.yield_force * std::pow(10.0, k / 20.0), x = f - c.yield_force;
    const double ae = std::sqrt(c.radius) * std::cbrt(f / c.stiffness);
    if (!(2.0 * (ae / (3.0 * f) + ca) * (1.0 + kc * x) > kc * (ae + ca * x))) {
      std::ostringstream m;
      m << "law 'vu_quoc_zhang_2002': k_c = " << kc << " 1/N is too large for c_a = " << ca
        << " m/N: the overlap delta(F) of the elastoplastic branch decreases near F = " << f
        << " N (F_y = " << c.yield_force
        << " N), so F(delta) is not unique; the root solve needs 2 (a_e/(3F) + C_a)(1 + K_c (F - "
           "F_y)) > K_c (a_e + C_a (F - F_y)) with a_e = (3 R F/(4 E*))^(1/3): reduce k_c or "
           "increase c_a";
      throw std::invalid_argument(m.str());
    }
  }
  return c;
}

PairCoeffs prepare_kogut_etsion(const LawEntry& law, const PairInput& in, const LawParams& p) {
  // Critical pressure K H (Chang-Etsion-Bogy), K = 0.454 + 0.41 nu, H = (H/Y) Y.
  const double k = 0.454 + 0.41 * in.poisson_ratio;
  PairCoeffs c =
      elastoplastic_base(in, k * value_of(p, hardness_ratio_param) * yield_stress_of(law, in, p));
  c.law[kernels::ep::KogutEtsion::given_residual] = find_value(p, residual_fraction).value_or(-1.0);
  c.plastic_overlap = 6.0 * c.yield_overlap;
  c.plastic_force = 1.40 * c.yield_force * std::pow(6.0, 1.263);
  return c;
}

PairCoeffs prepare_jackson_green(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double cc = 1.295 * std::exp(0.736 * in.poisson_ratio);
  PairCoeffs c = elastoplastic_base(in, cc * yield_stress_of(law, in, p));
  c.law[kernels::ep::JacksonGreen::hardness_factor] =
      4.0 * value_of(p, jackson_green_hardness_ratio) / cc;
  return c;
}

PairCoeffs prepare_du_wang(const LawEntry& law, const PairInput& in, const LawParams& p) {
  return elastoplastic_base(in, (1.0 + pi / 2.0) * yield_stress_of(law, in, p));
}

PairCoeffs prepare_brake(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double sy = yield_stress_of(law, in, p);
  PairCoeffs c = elastoplastic_base(in, value_of(p, yield_pressure_ratio_param) * sy);
  const double p0 = value_of(p, pressure_hardness_ratio) * value_of(p, hardness_ratio_param) * sy;
  const double a_p = 3.0 * pi * c.radius * p0 / (4.0 * in.effective_modulus);
  c.plastic_overlap = value_of(p, brake_plastic_overlap_ratio) * c.yield_overlap;
  c.plastic_force = pi * p0 * a_p * a_p;
  c.law[kernels::ep::Brake::yield_slope] =
      2.0 * in.effective_modulus * std::sqrt(c.radius * c.yield_overlap);  // F'_y
  c.law[kernels::ep::Brake::plastic_slope] = 2.0 * pi * c.radius * p0;     // F'_p
  return c;
}

PairCoeffs prepare_burgoyne_daraio(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double sy = yield_stress_of(law, in, p);
  PairCoeffs c = elastoplastic_base(in, 1.6 * sy);
  const double p0 = value_of(p, c1_param) * sy;
  c.plastic_overlap = value_of(p, burgoyne_daraio_plastic_overlap_ratio) * c.yield_overlap;
  c.plastic_force = p0 * pi * (2.0 * c.radius * c.plastic_overlap + value_of(p, c2_param));
  c.law[kernels::ep::BurgoyneDaraio::plastic_slope] = 2.0 * pi * c.radius * p0;
  if (!(c.plastic_force > 0.0)) {
    std::ostringstream m;
    m << "law 'burgoyne_daraio_2014': c2 = " << value_of(p, c2_param)
      << " m^2 makes the force at delta_p "
      << "negative: it needs c2 > -2 R delta_p = " << -2.0 * c.radius * c.plastic_overlap
      << " m^2 for R = " << c.radius << " m";
    throw std::invalid_argument(m.str());
  }
  return c;
}

PairCoeffs prepare_ma_liu(const LawEntry& law, const PairInput& in, const LawParams& p) {
  const double sy = yield_stress_of(law, in, p), xi = value_of(p, ma_liu_xi),
               psi = value_of(p, ma_liu_psi);
  const double p_y = 1.61 * sy;
  PairCoeffs c = elastoplastic_base(in, p_y);
  const double l = std::log(xi * xi / 2.0), r = c.radius;
  c.law[kernels::ep::MaLiu::c1] = pi * r * (p_y * (1.0 + l) - 2.0 * psi * sy) / l;  // c1
  c.law[kernels::ep::MaLiu::c2] = pi * r * (2.0 * psi * sy - p_y) / l;              // c2
  c.law[kernels::ep::MaLiu::k1] = 2.0 * pi * r * psi * sy;                          // k1
  c.plastic_overlap = xi * xi / 2.0 * c.yield_overlap;
  c.plastic_force =
      c.plastic_overlap * (c.law[kernels::ep::MaLiu::c1] + c.law[kernels::ep::MaLiu::c2] * l) +
      c.yield_force - c.law[kernels::ep::MaLiu::c1] * c.yield_overlap;
  return c;
}

constexpr std::string_view elastoplastic_damping =
    "none: energy is lost in the loading/unloading hysteresis, so the restitution falls with the "
    "impact velocity and is not an input";

constexpr std::array rows{
    // (e) Quasi-static elastoplastic laws (CJTAM review, Table 3); K = (4/3) E* sqrt(R), R = R*.
    LawEntry{"thornton_1997", "Thornton (1997), elastic-perfectly plastic spheres",
             "Thornton (1997); CJTAM review, Table 3 row 1; predictor thornton_1997_cor",
             "F = K delta^(3/2) (delta < delta_y); F = F_y + pi p_y R (delta - delta_y); unloading "
             "F = (4/3) E* sqrt(R_p) (delta - delta_p)^(3/2), R_p = (4E*/(3F_max)) ((2F_max + "
             "F_y)/(2 pi p_y))^(3/2)",
             elastoplastic_damping,
             "reading: p_y = limiting_pressure_ratio sigma_y (the row prints sigma_y for "
             "Thornton's limiting pressure; uncertain); delta_y = (pi p_y/(2E*))^2 R and F_y = "
             "pi^3 p_y^3 "
             "R^2/(6E*^2) (yield onset, not printed): loading continuous in value and slope; R_p "
             "= R at F_max = F_y; permanent overlap delta_p from continuity at (delta_max, F_max) "
             "(not printed)",
             Family::elastoplastic, Kernel::thornton_1997, TensionPolicy::clamp, thornton_params,
             nullptr, prepare_thornton, none_stated},
    LawEntry{"stronge_2000", "Stronge (2000)", "Stronge (2000); CJTAM review, Table 3 row 2",
             "x = 2 delta/delta_y - 1: F = K delta^(3/2) (delta < delta_y); F = F_y x [1 + "
             "ln(x)/(3 theta_y)] (delta_y <= delta < delta_p); F = (2.8 F_y/theta_y) x (delta >= "
             "delta_p); unloading F = (4/3) E* sqrt(R_bar) (delta - delta_f)^(3/2), R_bar = (2 "
             "delta_c/delta_y - 1)^(1/2) R",
             elastoplastic_damping,
             "F_y = pi theta_y sigma_y R^2 (3 pi/4)^2 (theta_y sigma_y/E*)^2 as printed; reading: "
             "this is exactly the Hertz load at the mean pressure theta_y sigma_y (peak 1.5 "
             "theta_y sigma_y; read as a peak pressure it would change F_y by (3/2)^3 = 3.375), so "
             "delta_y = "
             "(F_y/K)^(2/3) by value continuity and the fully plastic branch has the mean "
             "pressure 2.8 sigma_y; delta_p = delta_y (1 + e^(3 (2.8 - theta_y)))/2 (value "
             "continuity); the slope jumps up at delta_y (2 (1 + 1/(3 theta_y)) F_y/delta_y vs "
             "1.5 F_y/delta_y), so the loading curve rises above every Hertzian unloading branch "
             "through the origin and impacts that end just past delta_y return more energy than "
             "they absorb (a property of the law: restitution up to 1.08 for delta_max < 3.1 "
             "delta_y at theta_y = 1.1); "
             "misprint: delta_f, not delta_r, is the residual overlap, delta_r = delta_c - "
             "delta_f = (3F_c/(4E* sqrt(R_bar)))^(2/3)",
             Family::elastoplastic, Kernel::stronge_2000, TensionPolicy::clamp, stronge_params,
             nullptr, prepare_stronge, none_stated},
    LawEntry{"vu_quoc_zhang_2002", "Vu-Quoc & Zhang (2002), force-driven elastoplastic model",
             "Zhang & Vu-Quoc (2002a, 2002b); CJTAM review, Table 3 row 3",
             "delta(F) = (a^ep)^2/R^ep, a^ep = a^e + C_a (F - F_y), a^e = (3RF/(4E*))^(1/3), R^ep "
             "= (1 + K_c (F - F_y)) R for F > F_y, Hertz below; unloading F = (4E*/(3R)) a_e^3, "
             "a_e = ((C_R)_max R (delta - delta_r))^(1/2)",
             elastoplastic_damping,
             "force-driven: F(delta) by a bracketed toms748 root solve per evaluation, warm "
             "started from F_max; reading: the row's E is Young's modulus of identical spheres "
             "(E/(1 - nu^2) = 2E*), R = R* and its delta the approach of one centre (half the "
             "overlap), so the elastic branch is exactly Hertz (with E*, R* and the overlap as "
             "printed it would be sqrt(2)/(1 - nu^2) times Hertz); F_y = K delta_y^(3/2) with p_y "
             "= yield_pressure_ratio sigma_y (not printed); unloading as printed, R (not R^ep) in "
             "the prefactor: K (C_R)_max^(3/2) (delta - delta_r)^(3/2); the missing square root "
             "in a_e restored; delta_r from continuity; K_c, C_a for which delta(F) is not "
             "increasing are rejected",
             Family::elastoplastic, Kernel::vu_quoc_zhang_2002, TensionPolicy::clamp,
             vu_quoc_zhang_params, nullptr, prepare_vu_quoc_zhang, none_stated},
    LawEntry{"kogut_etsion_2002", "Kogut & Etsion (2002), sphere on a rigid flat",
             "Kogut & Etsion (2002), unloading Etsion, Kligerman & Kadin (2005); CJTAM review, "
             "Table 3 row 4",
             "omega = delta/delta_y: F = K delta^(3/2) (omega < 1); F = 1.03 F_c omega^1.425 (1 "
             "<= omega < 6); F = 1.40 F_c omega^1.263 (omega >= 6); unloading F = F_max ((omega - "
             "omega_res)/(omega_max - omega_res))^n_p, n_p = 1.5 omega_max^(-0.0331)",
             elastoplastic_damping,
             "reading (not printed): critical pressure K H with K = 0.454 + 0.41 nu and H = "
             "hardness_ratio Y, delta_y = (pi K H/(2E*))^2 R, F_c = K_H delta_y^(3/2); the loading "
             "curve jumps as published (+3.0 % at omega = 1, +1.7 % at omega = 6; an impact "
             "ending just past omega = 1 returns slightly more energy than it absorbed, "
             "restitution up to 1.002); fitted up to "
             "omega = 110, continued above; omega_res is not in the sources (from the unloading "
             "paper, Etsion, Kligerman & Kadin 2005): residual_fraction, or by default the "
             "finite-element fit 1.02 [1 - "
             "((omega_max + 5.9)/6.9)^(-0.54)] (uncertain; continued above omega = 110, capped at "
             "0.99); written for a sphere on a rigid flat, "
             "used with E* and R* for two bodies",
             Family::elastoplastic, Kernel::kogut_etsion_2002, TensionPolicy::clamp,
             kogut_etsion_params, nullptr, prepare_kogut_etsion, none_stated},
    LawEntry{
        "jackson_green_2005", "Jackson & Green (2005), hemisphere against a rigid flat",
        "Jackson & Green (2005), unloading Jackson, Chusoipin & Green (2005); CJTAM review, "
        "Table 3 row 5; predictor jackson_2010_cor",
        "omega = delta/delta_y: F = K delta^(3/2) (omega <= 1.9); F = F_c {exp(-omega^(5/12)/4) "
        "omega^(3/2) + (4H/(C S_y)) [1 - exp(-omega^(5/9)/25)] omega}; unloading F = (4/3) E* "
        "sqrt(R_b) (delta - delta_r)^(3/2), R_b = R cos(a_c/R)",
        elastoplastic_damping,
        "C = 1.295 exp(0.736 nu); reading (not printed): delta_y = (pi C S_y/(2E*))^2 R, F_c "
        "= K delta_y^(3/2); branch mismatch 0.07 % at omega = 1.9 (H/S_y = 2.8, nu = 0.3); "
        "elastic, no residual overlap, up to delta_max = 1.9 delta_y; readings: sqrt(R_b) "
        "for the printed sqrt(R), a_c = (R delta_max)^(1/2), the Hertz contact radius at "
        "delta_max (not printed; uncertain), delta_r from continuity; H constant (geometry "
        "dependent in the original)",
        Family::elastoplastic, Kernel::jackson_green_2005, TensionPolicy::clamp,
        jackson_green_params, nullptr, prepare_jackson_green, none_stated},
    LawEntry{"du_wang_2009", "Du & Wang (2009), elastoplastic impact of two spheres",
             "Du & Wang (2009); CJTAM review, Table 3 row 6",
             "F = K delta^(3/2) (delta <= delta_e); F = pi R p_p delta - p_p^3 pi^3 R^2/(12 E*^2) "
             "(delta > delta_e), p_p = (1 + pi/2) sigma_y; unloading F = K (delta - "
             "delta_res)^(3/2)",
             elastoplastic_damping,
             "misprint: the second condition is delta > delta_e (printed <=); delta_e = (pi "
             "p_p/(2E*))^2 R makes value and slope continuous (not printed); delta_res = "
             "delta_max - (F_max/K)^(2/3) (unloading radius unchanged)",
             Family::elastoplastic, Kernel::du_wang_2009, TensionPolicy::clamp, du_wang_params,
             nullptr, prepare_du_wang, none_stated},
    LawEntry{"brake_2012", "Brake (2012), analytical elastic-perfectly plastic model",
             "Brake (2012); CJTAM review, Table 3 row 7",
             "F = K delta^(3/2) (delta < delta_y); cubic Hermite between (delta_y, F_y, F'_y) and "
             "(delta_p, F_p, F'_p); F = pi p0 (2R delta + c) (delta >= delta_p); unloading F = "
             "(4/3) E* sqrt(R_b) (delta - delta_bar)^(3/2), R_b = R + delta_m/2",
             elastoplastic_damping,
             "misprints read as: Delta F'_y s in the cubic, F_p = pi p0 a_p^2 (printed pi p0 a_p), "
             "fully plastic pi p0 (2R delta + c) (printed 4R delta), exponent 2/3 in delta_bar; "
             "a_p = 3 pi R p0/(4E*), c = a_p^2 - 2R delta_p, F'_y = 2E* sqrt(R delta_y), F'_p = 2 "
             "pi R p0: value and slope continuous at both ends; delta_y, delta_p not in the "
             "sources: delta_y from the yield-onset relation with p_y = yield_pressure_ratio "
             "sigma_y, delta_p = plastic_overlap_ratio delta_y; p0 = pressure_hardness_ratio H, H "
             "= hardness_ratio sigma_y; F_p is the Hertz force at (9/4)(p0/p_y)^2 delta_y: for a "
             "smaller delta_p the loading curve rises above Hertz, for a larger one the cubic "
             "sags (not monotone once delta_p - delta_y > 3 (F_p - F_y)/F'_p) and the steeper "
             "fully plastic branch approaches Hertz again, so the restitution is not monotone in "
             "v0 and can exceed 1 (e.g. near 20 V_y at delta_p = 10 delta_y with the default "
             "pressures; delta_p of the original paper needed)",
             Family::elastoplastic, Kernel::brake_2012, TensionPolicy::clamp, brake_params, nullptr,
             prepare_brake, none_stated},
    LawEntry{"burgoyne_daraio_2014", "Burgoyne & Daraio (2014), elastoplastic spheres",
             "Burgoyne & Daraio (2014); CJTAM review, Table 3 row 8",
             "F = K delta^(3/2) (delta < delta_y); F = delta (alpha + beta ln delta) (delta_y <= "
             "delta < delta_p); F = p0 pi (2R delta + c2) (delta >= delta_p); unloading F = "
             "(4/3) E* sqrt(R_p) (delta - delta_r)^(3/2), R_p = (4E*/(3F_max)) ((2F_max + "
             "F_y)/(2 pi p_y))^(3/2)",
             elastoplastic_damping,
             "p_y = 1.6 sigma_y: delta_y = (1.6 pi sigma_y/(2E*))^2 R, F_y = (R/E*)^2 (1.6 pi "
             "sigma_y)^3/6; p0 = c1 sigma_y; alpha, beta as printed put the middle branch through "
             "(delta_y, F_y) and (delta_p, F_p) (value continuity only; F does not depend on the "
             "length unit); misprint: exponent 3/2 restored in R_p; delta_p = "
             "plastic_overlap_ratio delta_y; the original's strain-rate dependence is not in the "
             "row; with k = F/delta, the slope at delta_y exceeds the Hertz slope when k_p/k_y > 1 "
             "+ ln(delta_p/delta_y)/2, and impacts ending just past delta_y then gain energy",
             Family::elastoplastic, Kernel::burgoyne_daraio_2014, TensionPolicy::clamp,
             burgoyne_daraio_params, nullptr, prepare_burgoyne_daraio, none_stated},
    LawEntry{"ma_liu_2015", "Ma & Liu (2015), elastoplastic spheres",
             "Ma & Liu (2015); CJTAM review, Table 3 row 9; predictor ma_liu_2015_cor",
             "F = K delta^(3/2) (delta < delta_y); F = delta (c1 + c2 ln(delta/delta_y)) + c3 "
             "(delta_y <= delta < delta_p); F = F_p + k1 (delta - delta_p); unloading F = (4/3) "
             "E* sqrt(R_u) (delta - delta_r)^(3/2), R_u = R^e = F^e R/F_max (delta_max < delta_p) "
             "or R_p^e = F_p^e R/F_ep (fully plastic)",
             elastoplastic_damping,
             "p_y = 1.61 sigma_y, delta_y = (pi p_y/(2E*))^2 R, F_y = pi^3 R^2 p_y^3/(6E*^2); k1 = "
             "2 pi R psi sigma_y; c1, c2, c3 as printed; readings: delta_c = delta_y and delta_p "
             "= (xi^2/2) delta_y (implied by F_p): value and slope continuous (pi R p_y at "
             "delta_y, k1 at delta_p); the unloading branch is chosen by delta_max (printed in "
             "terms of delta); reading (another one, F^e = K "
             "delta_y^(3/2) = F_y, leaves F_ep undefined): F^e = K delta_max^(3/2), the Hertz "
             "force at delta_max, and F_ep = F_p, so R_u = R (Hertz force)/(loading force): R at "
             "delta_y, continuous at delta_p, constant in the fully plastic regime (as the "
             "explicit v0^(-1/6) of ma_liu_2015_cor needs); with F^e = F_y, R^e < R and "
             "continuity would need a negative residual overlap (energy gain) after every "
             "elastoplastic impact; delta_r from continuity",
             Family::elastoplastic, Kernel::ma_liu_2015, TensionPolicy::clamp, ma_liu_params,
             nullptr, prepare_ma_liu, none_stated},
};

}  // namespace

std::span<const LawEntry> elastoplastic_laws() {
  return rows;
}

namespace kernels::ep {

// F(delta) on Vu-Quoc & Zhang's elastoplastic branch: the root of delta(F) = d, bracketed between
// max(F_y, lower_bound) (the force at a smaller overlap: F_max at delta_max when loading) and a
// value grown until delta(F) >= d. delta(F) is increasing (checked in prepare_vu_quoc_zhang).
double vu_quoc_zhang_force(const PairCoeffs& c, double d, double lower_bound) {
  auto g = [&](double f) { return VuQuocZhang::overlap(c, f) - d; };
  const double lo = std::max(c.yield_force, lower_bound);
  const double g_lo = g(lo);
  if (g_lo >= 0.0) return lo;
  // delta grows at least like F^(2/3) near the elastic branch: start there.
  double hi = lo * std::max(1.5, std::pow(d / (g_lo + d), 1.5));
  double g_hi = g(hi);
  while (g_hi < 0.0) {
    hi *= 2.0;
    g_hi = g(hi);
  }
  if (g_hi == 0.0) return hi;
  boost::math::tools::eps_tolerance<double> tol(50);
  std::uintmax_t iterations = 100;
  const auto [a, b] = boost::math::tools::toms748_solve(g, lo, hi, g_lo, g_hi, tol, iterations);
  return 0.5 * (a + b);
}

}  // namespace kernels::ep

}  // namespace chaindem
