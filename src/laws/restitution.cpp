// Restitution predictors (the restitution predictors, include/chaindem/laws/restitution.hpp) and
// Newton's and Poisson's impact laws (group (h)). Every predictor is declared here exactly once;
// see include/chaindem/laws/restitution.hpp for the conventions; each predictor's row names its
// source.
#include "chaindem/laws/restitution.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace chaindem {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double pi = std::numbers::pi;

// ---- Errors and input checks --------------------------------------------------------------------

std::string number(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

std::string unit_suffix(const PredictorParam& p) {
  std::string s;
  if (p.unit == "-") return s;
  // Appended piecewise: `" " + std::string(...)` trips GCC 12's false -Wrestrict positive.
  s += ' ';
  s += p.unit;
  return s;
}

[[noreturn]] void fail(std::string_view where, const std::string& message) {
  throw std::invalid_argument(std::string(where) + ": " + message);
}

/// Returns x if p admits it; otherwise throws naming the parameter and its range.
double check(std::string_view where, const PredictorParam& p, double x) {
  if (!p.admits(x))
    fail(where, std::string(p.key) + " = " + number(x) + unit_suffix(p) +
                    " is outside the allowed range " + p.range_text() + unit_suffix(p));
  return x;
}

/// The input p.key of `in`, checked against p's range.
double get(std::string_view where, const PredictorInputs& in, const PredictorParam& p) {
  const auto it = in.find(p.key);
  if (it == in.end())
    fail(where, "missing input " + std::string(p.key) + " (" + std::string(p.description) +
                    "), allowed range " + p.range_text() + unit_suffix(p));
  return check(where, p, it->second);
}

/// Checks every declared input in declaration order, so that the first problem reported does not
/// depend on the (unspecified) evaluation order of function arguments.
void validate(std::string_view where, const PredictorInputs& in,
              std::span<const PredictorParam> params) {
  for (const auto& p : params) get(where, in, p);
}

constexpr PredictorParam param(std::string_view key, std::string_view unit,
                               std::string_view description, ValueRange range) {
  return {key, unit, description, range};
}

// ---- Inputs -------------------------------------------------------------------------------------
// The keys are the argument names of the typed functions.

constexpr auto p_impact_velocity =
    param("impact_velocity", "m/s", "impact velocity v0: normal approach rate at first touch",
          ValueRange::above(0.0));
constexpr auto p_impact_velocity_from_zero =
    param("impact_velocity", "m/s", "impact velocity v0: normal approach rate at first touch",
          ValueRange::at_least(0.0));
// e = 1 - 0.026 (1000 v0)^(1/3) >= 0 up to v0 = 1/(1000 * 0.026^3) = 56.896 m/s.
constexpr double herbert_mcwhannell_max_velocity = 1.0 / (1000.0 * 0.026 * 0.026 * 0.026);
constexpr auto p_impact_velocity_herbert_mcwhannell =
    param("impact_velocity", "m/s",
          "impact velocity v0 (the formula takes mm/s; converted internally); above 56.9 m/s "
          "the formula is negative",
          ValueRange::closed(0.0, herbert_mcwhannell_max_velocity));
constexpr auto p_yield_velocity =
    param("yield_velocity", "m/s",
          "yield velocity V_y = sqrt(16 E* sqrt(R*) delta_y^(5/2)/(15 m*)), delta_y = "
          "(pi p_y/(2 E*))^2 R* (the restitution predictors, include/chaindem/laws/restitution.hpp "
          "header; yield_velocity())",
          ValueRange::above(0.0));
constexpr auto p_effective_modulus =
    param("effective_modulus", "Pa", "E* = 1/((1 - nu_i^2)/E_i + (1 - nu_j^2)/E_j)",
          ValueRange::above(0.0));
constexpr auto p_effective_radius =
    param("effective_radius", "m", "R* = R_i R_j/(R_i + R_j), or R for a sphere on a flat",
          ValueRange::above(0.0));
constexpr auto p_effective_mass =
    param("effective_mass", "kg", "m* = m_i m_j/(m_i + m_j), or m against a fixed wall",
          ValueRange::above(0.0));
constexpr auto p_yield_pressure =
    param("yield_pressure", "Pa",
          "limiting contact pressure p_y at first yield (Thornton's p_y; Jackson-Green's C S_y)",
          ValueRange::above(0.0));
// Chang & Ling.
constexpr auto p_max_deformation =
    param("max_deformation", "m",
          "w_m, maximum deformation in compression (from an impact-energy balance the table "
          "does not give)",
          ValueRange::above(0.0));
constexpr auto p_critical_deformation =
    param("critical_deformation", "m", "w_c, critical elastic deformation (onset of yield)",
          ValueRange::above(0.0));
constexpr auto p_yield_strength =
    param("yield_strength", "Pa", "yield strength Y", ValueRange::above(0.0));
constexpr auto p_poisson_ratio =
    param("poisson_ratio", "-", "Poisson's ratio nu in K = 1.282 + 1.158 nu",
          ValueRange::above_to(-1.0, 0.5));
// Wu, Li & Thornton.
constexpr auto p_plastic_onset_velocity =
    param("plastic_onset_velocity", "m/s",
          "V_c, initial impact velocity leading to plastic deformation", ValueRange::above(0.0));
constexpr auto p_critical_velocity = param(
    "critical_velocity", "m/s",
    "V_f, critical impact velocity separating the two branches (not given in the CJTAM review)",
    ValueRange::above(0.0));
constexpr auto p_yield_stress =
    param("yield_stress", "Pa", "yield stress S_y", ValueRange::above(0.0));
// Weir & Tallon.
constexpr auto p_youngs_modulus =
    param("youngs_modulus", "Pa",
          "Young's modulus E in c0 = sqrt(E/rho) (as printed; E vs E* is uncertain)",
          ValueRange::above(0.0));
constexpr auto p_density =
    param("density", "kg/m^3", "density rho in c0 = sqrt(E/rho)", ValueRange::above(0.0));
constexpr auto p_radius_r1 =
    param("radius_r1", "m",
          "R1, printed as 'contact radius after contact' (uncertain; probably a radius of "
          "curvature or particle radius)",
          ValueRange::above(0.0));
constexpr auto p_radius = param("radius", "m", "R, particle radius", ValueRange::above(0.0));
// Jackson, Green & Marghitu.
constexpr auto p_normalised_velocity =
    param("normalised_velocity", "-",
          "V1 = v0/V_y, impact velocity normalised by the yield velocity (uncertain: the "
          "normalising velocity is defined in the original paper)",
          ValueRange::above_to(0.0, 1000.0));
constexpr auto p_yield_strain =
    param("yield_strain", "-", "eps_y = S_y/E*", ValueRange::open(0.0, 1.0));
// Ma & Liu.
constexpr auto p_unloading_radius =
    param("unloading_radius", "m",
          "R_p^e, unloading radius of curvature after plastic deformation (ma_liu_2015)",
          ValueRange::above(0.0));
constexpr auto p_plastic_stiffness = param(
    "plastic_stiffness", "N/m", "k1 = 2 pi R psi sigma_y, fully plastic stiffness of ma_liu_2015",
    ValueRange::above(0.0));
// Linear empirical fits.
constexpr auto p_alpha_hc =
    param("alpha_hc", "s/m", "alpha_HC; 0.08-0.32 s/m for steel, bronze and ivory",
          ValueRange::at_least(0.0));
constexpr auto p_alpha0 =
    param("alpha0", "-", "alpha0, restitution at v0 -> 0", ValueRange::above_to(0.0, 1.0));
constexpr auto p_alpha1 =
    param("alpha1", "s/m", "alpha1, slope of e against v0", ValueRange::at_least(0.0));
// Group (h).
constexpr auto p_restitution =
    param("restitution", "-", "coefficient of restitution c_r", ValueRange::closed(0.0, 1.0));
constexpr auto p_velocity =
    param("velocity", "m/s", "velocity along the line of centres", ValueRange::above(-inf));

// ---- Inputs of each predictor, in the order they are checked ------------------------------------

constexpr std::array chang_ling_params{p_max_deformation,   p_critical_deformation,
                                       p_effective_modulus, p_effective_radius,
                                       p_yield_strength,    p_poisson_ratio};
constexpr std::array thornton_params{p_impact_velocity, p_yield_velocity};
constexpr std::array wu_params{p_impact_velocity, p_plastic_onset_velocity, p_critical_velocity,
                               p_yield_stress, p_effective_modulus};
constexpr std::array weir_tallon_params{p_impact_velocity, p_yield_stress, p_effective_modulus,
                                        p_youngs_modulus,  p_density,      p_radius_r1,
                                        p_radius};
constexpr std::array jackson_params{p_normalised_velocity, p_yield_strain};
constexpr std::array ma_liu_params{p_impact_velocity, p_effective_modulus, p_unloading_radius,
                                   p_plastic_stiffness, p_effective_mass};
constexpr std::array hunt_crossley_params{p_alpha_hc, p_impact_velocity_from_zero};
constexpr std::array herbert_mcwhannell_params{p_impact_velocity_herbert_mcwhannell};
constexpr std::array lee_wang_params{p_alpha0, p_alpha1, p_impact_velocity_from_zero};

// ---- Registry adapters: inputs by key -> typed function -----------------------------------------

double eval_chang_ling(const PredictorInputs& in) {
  constexpr std::string_view id = "chang_ling_1992";
  validate(id, in, chang_ling_params);
  return chang_ling_1992_cor(get(id, in, p_max_deformation), get(id, in, p_critical_deformation),
                             get(id, in, p_effective_modulus), get(id, in, p_effective_radius),
                             get(id, in, p_yield_strength), get(id, in, p_poisson_ratio));
}
double eval_thornton(const PredictorInputs& in) {
  constexpr std::string_view id = "thornton_1997_cor";
  validate(id, in, thornton_params);
  return thornton_1997_cor(get(id, in, p_impact_velocity), get(id, in, p_yield_velocity));
}
double eval_wu(const PredictorInputs& in) {
  constexpr std::string_view id = "wu_2005_cor";
  validate(id, in, wu_params);
  return wu_2005_cor(get(id, in, p_impact_velocity), get(id, in, p_plastic_onset_velocity),
                     get(id, in, p_critical_velocity), get(id, in, p_yield_stress),
                     get(id, in, p_effective_modulus));
}
double eval_weir_tallon(const PredictorInputs& in) {
  constexpr std::string_view id = "weir_tallon_2005";
  validate(id, in, weir_tallon_params);
  return weir_tallon_2005_cor(get(id, in, p_impact_velocity), get(id, in, p_yield_stress),
                              get(id, in, p_effective_modulus), get(id, in, p_youngs_modulus),
                              get(id, in, p_density), get(id, in, p_radius_r1),
                              get(id, in, p_radius));
}
double eval_jackson(const PredictorInputs& in) {
  constexpr std::string_view id = "jackson_2010_cor";
  validate(id, in, jackson_params);
  return jackson_2010_cor(get(id, in, p_normalised_velocity), get(id, in, p_yield_strain));
}
double eval_ma_liu(const PredictorInputs& in) {
  constexpr std::string_view id = "ma_liu_2015_cor";
  validate(id, in, ma_liu_params);
  return ma_liu_2015_cor(get(id, in, p_impact_velocity), get(id, in, p_effective_modulus),
                         get(id, in, p_unloading_radius), get(id, in, p_plastic_stiffness),
                         get(id, in, p_effective_mass));
}
double eval_hunt_crossley(const PredictorInputs& in) {
  constexpr std::string_view id = "hunt_crossley_cor";
  validate(id, in, hunt_crossley_params);
  return hunt_crossley_cor(get(id, in, p_alpha_hc), get(id, in, p_impact_velocity_from_zero));
}
double eval_herbert_mcwhannell(const PredictorInputs& in) {
  constexpr std::string_view id = "herbert_mcwhannell_cor";
  validate(id, in, herbert_mcwhannell_params);
  return herbert_mcwhannell_cor(get(id, in, p_impact_velocity_herbert_mcwhannell));
}
double eval_lee_wang(const PredictorInputs& in) {
  constexpr std::string_view id = "lee_wang_cor";
  validate(id, in, lee_wang_params);
  return lee_wang_cor(get(id, in, p_alpha0), get(id, in, p_alpha1),
                      get(id, in, p_impact_velocity_from_zero));
}

// ---- The registry -------------------------------------------------------------------------------

constexpr std::array predictors{
    RestitutionPredictor{
        "chang_ling_1992", "Chang & Ling (1992), rough-surface normal impact",
        "CJTAM review, Table 4 row 1 (Chang & Ling 1992)",
        "c_r = sqrt( (8/15) E* sqrt(R) [w_c w_m (2 - w_c/w_m)]^(5/4) / [ (8/15) E* sqrt(R) "
        "w_c^(5/2) + pi K Y R w_m (w_m - w_c) ] ), K = 1.282 + 1.158 nu. Reading: bracket "
        "exponent 5/4 (printed 3/2 is dimensionally inconsistent; 5/4 gives c_r = 1 at w_m = w_c, "
        "uncertain; docs/validation.md)",
        "elastic-plastic impact, w_m >= w_c (w_m <= w_c: elastic, returns 1); w_m comes from an "
        "impact-energy balance the table does not give; a result above 1 (w_c inconsistent with "
        "Y, E*, R) is rejected",
        chang_ling_params, eval_chang_ling},
    RestitutionPredictor{
        "thornton_1997_cor", "Thornton (1997), elastic-perfectly plastic spheres",
        "CJTAM review, Table 4 row 2 (Thornton 1997)",
        "r = V_y/V_l; c_r = (6 sqrt(3)/5)^(1/2) sqrt(1 - r^2/6) [r/(r + 2 sqrt(6/5 - "
        "r^2/5))]^(1/4) for V_l > V_y, 1 otherwise",
        "elastic-perfectly plastic spheres (pairs with thornton_1997); c_r = 1 up to V_y; "
        "asymptote 1.1850 (V_y/V_l)^(1/4)",
        thornton_params, eval_thornton},
    RestitutionPredictor{
        "wu_2005_cor", "Wu, Li & Thornton (2005), as printed",
        "CJTAM review, Table 4 row 3 (Wu, Li & Thornton 2005)",
        "c_r = 2.08 (V1/V_c)^0.156 for V1 < V_f; c_r = 0.62 (V1 S_y/(V_c E*))^(-1/2) for "
        "V1 >= V_f",
        "as printed, uncertain (docs/validation.md): the first branch is at most 1 only for "
        "V1/V_c <= 0.0091, the second only for (V1/V_c)(S_y/E*) >= 0.384, V_f is not given; "
        "results above 1 are rejected",
        wu_params, eval_wu},
    RestitutionPredictor{
        "weir_tallon_2005", "Weir & Tallon (2005), low-velocity particle impacts",
        "CJTAM review, Table 4 row 4 (Weir & Tallon 2005)",
        "c_r = min(1, 3.1 (S_y/E*)^(5/8) (R1/R)^(3/8) (c0/v0)^(1/4)), c0 = sqrt(E/rho)",
        "plastic regime only, clipped to 1 (steel, S_y/E* = 0.01, 1 m/s, R1 = R: the formula "
        "gives about 1.4, i.e. elastic); meaning of R1 and E vs E* in c0 uncertain",
        weir_tallon_params, eval_weir_tallon},
    RestitutionPredictor{
        "jackson_2010_cor", "Jackson, Green & Marghitu (2010), elastic-perfectly plastic spheres",
        "CJTAM review, Table 4 row 5 (Jackson, Green & Marghitu 2010)",
        "c_r = 1 for V1 <= 1; 1 - 0.1 ln(V1) ((V1 - 1)/59)^0.156 for 1 < V1 <= 60; 1 - 0.1 ln(60) "
        "- 0.1 ln(V1/60) (V1 - 60)^(2.36 eps_y) for 60 < V1 <= 1000; V1 = v0/V_y, eps_y = S_y/E*",
        "0 < V1 <= 1000, V1 normalised by the yield velocity (reading; the normalising velocity "
        "is uncertain, V_y with Jackson-Green's p_y = C S_y is the natural choice); a negative "
        "result (large eps_y) is rejected",
        jackson_params, eval_jackson},
    RestitutionPredictor{
        "ma_liu_2015_cor", "Ma & Liu (2015), elastoplastic spheres",
        "CJTAM review, Table 4 row 6 (Ma & Liu 2015)",
        "c_r = min(1, 0.81 E*^(-1/3) (R_p^e)^(-1/6) k1^(5/12) m^(-1/12) v0^(-1/6)), "
        "k1 = 2 pi R psi sigma_y",
        "fully plastic regime of ma_liu_2015; clipped to 1 (implementation choice: the power "
        "law diverges as v0 -> 0); m read as m* for two bodies",
        ma_liu_params, eval_ma_liu},
    RestitutionPredictor{"hunt_crossley_cor", "Hunt & Crossley linear restitution-velocity law",
                         "Autiero et al. (2022), §3.2 (Hunt & Crossley 1975)",
                         "e = 1 - alpha_HC v0",
                         "empirical; alpha_HC = 0.08-0.32 s/m (0.002-0.008 s/in) for steel, "
                         "bronze and ivory; v0 <= 1/alpha_HC (e >= 0)",
                         hunt_crossley_params, eval_hunt_crossley},
    RestitutionPredictor{"herbert_mcwhannell_cor", "Herbert & McWhannell empirical restitution",
                         "Autiero et al. (2022), §3.3 (Herbert & McWhannell 1977)",
                         "e = 1 - 0.026 v0^(1/3), v0 in mm/s (minus sign inferred from "
                         "flattened text); input in m/s, converted internally",
                         "empirical; 0 <= v0 <= 56.9 m/s (e >= 0)", herbert_mcwhannell_params,
                         eval_herbert_mcwhannell},
    RestitutionPredictor{"lee_wang_cor", "Lee & Wang linear restitution fit",
                         "Autiero et al. (2022), §3.4 (Lee & Wang 1983)", "e = alpha0 - alpha1 v0",
                         "empirical linear fit; with alpha0 = 1 the Lee-Wang damping is "
                         "zeta1 = (3/4) alpha1 K; e >= 0 required",
                         lee_wang_params, eval_lee_wang},
};

// ---- Group (h) helpers --------------------------------------------------------------------------

void check_impact(std::string_view where, double mass_i, double mass_j, double velocity_i,
                  double velocity_j, double restitution) {
  // A mass may be +infinity (a wall), so the ParamSpec range check does not apply to masses.
  const auto check_mass = [&](const char* key, double m) {
    if (!(m > 0.0))
      fail(where, std::string(key) + " = " + number(m) +
                      " kg is outside the allowed range (0, inf] kg (inf: a wall)");
  };
  check_mass("mass_i", mass_i);
  check_mass("mass_j", mass_j);
  if (std::isinf(mass_i) && std::isinf(mass_j))
    fail(where, "mass_i and mass_j are both infinite; at most one body may be a wall");
  auto velocity = p_velocity;
  velocity.key = "velocity_i";
  check(where, velocity, velocity_i);
  velocity.key = "velocity_j";
  check(where, velocity, velocity_j);
  check(where, p_restitution, restitution);
}

/// m* = m_i m_j/(m_i + m_j), written so that an infinite mass (a wall) gives the other mass.
double reduced_mass(double mass_i, double mass_j) {
  return 1.0 / (1.0 / mass_i + 1.0 / mass_j);
}

}  // namespace

// ---- Registry -----------------------------------------------------------------------------------

const PredictorParam* RestitutionPredictor::find_param(std::string_view key) const {
  for (const auto& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

double RestitutionPredictor::predict(const PredictorInputs& inputs) const {
  for (const auto& [key, value] : inputs) {
    if (find_param(key)) continue;
    std::string expected;
    for (const auto& p : params) expected += (expected.empty() ? "" : ", ") + std::string(p.key);
    fail(id, "unknown input " + key + "; expected " + expected);
  }
  return evaluate(inputs);
}

std::span<const RestitutionPredictor> all_restitution_predictors() {
  return predictors;
}

const RestitutionPredictor* find_restitution_predictor(std::string_view id) {
  for (const auto& p : predictors)
    if (p.id == id) return &p;
  return nullptr;
}

// ---- Group (g) ----------------------------------------------------------------------------------

double yield_velocity(double effective_modulus, double effective_radius, double effective_mass,
                      double yield_pressure) {
  constexpr std::string_view where = "yield_velocity";
  check(where, p_effective_modulus, effective_modulus);
  check(where, p_effective_radius, effective_radius);
  check(where, p_effective_mass, effective_mass);
  check(where, p_yield_pressure, yield_pressure);
  const double ratio = pi * yield_pressure / (2.0 * effective_modulus);
  const double delta_y = ratio * ratio * effective_radius;
  // 1/2 m* V_y^2 = (8/15) E* sqrt(R*) delta_y^(5/2)
  return std::sqrt(16.0 * effective_modulus * std::sqrt(effective_radius) * delta_y * delta_y *
                   std::sqrt(delta_y) / (15.0 * effective_mass));
}

double chang_ling_1992_cor(double max_deformation, double critical_deformation,
                           double effective_modulus, double effective_radius, double yield_strength,
                           double poisson_ratio) {
  constexpr std::string_view where = "chang_ling_1992_cor";
  const double wm = check(where, p_max_deformation, max_deformation);
  const double wc = check(where, p_critical_deformation, critical_deformation);
  check(where, p_effective_modulus, effective_modulus);
  check(where, p_effective_radius, effective_radius);
  check(where, p_yield_strength, yield_strength);
  check(where, p_poisson_ratio, poisson_ratio);
  if (wm <= wc) return 1.0;  // no plastic work: elastic impact (implementation choice)
  const double k = 1.282 + 1.158 * poisson_ratio;
  const double hertz = 8.0 / 15.0 * effective_modulus * std::sqrt(effective_radius);
  // Reading: exponent 5/4 on the bracket (printed 3/2), docs/validation.md#predictors.
  const double recovered = hertz * std::pow(wc * wm * (2.0 - wc / wm), 1.25);
  const double work =
      hertz * std::pow(wc, 2.5) + pi * k * yield_strength * effective_radius * wm * (wm - wc);
  const double c = std::sqrt(recovered / work);
  if (c > 1.0)
    fail(where, "the formula gives c_r = " + number(c) +
                    " > 1: critical_deformation = " + number(wc) +
                    " m is too large for yield_strength, effective_modulus and effective_radius "
                    "(the plastic work is smaller than the recovered elastic energy)");
  return c;
}

double thornton_1997_cor(double impact_velocity, double yield_velocity) {
  constexpr std::string_view where = "thornton_1997_cor";
  check(where, p_impact_velocity, impact_velocity);
  check(where, p_yield_velocity, yield_velocity);
  if (impact_velocity <= yield_velocity) return 1.0;
  const double r = yield_velocity / impact_velocity;
  return std::sqrt(6.0 * std::numbers::sqrt3 / 5.0) * std::sqrt(1.0 - r * r / 6.0) *
         std::pow(r / (r + 2.0 * std::sqrt(6.0 / 5.0 - r * r / 5.0)), 0.25);
}

double wu_2005_cor(double impact_velocity, double plastic_onset_velocity, double critical_velocity,
                   double yield_stress, double effective_modulus) {
  constexpr std::string_view where = "wu_2005_cor";
  check(where, p_impact_velocity, impact_velocity);
  check(where, p_plastic_onset_velocity, plastic_onset_velocity);
  check(where, p_critical_velocity, critical_velocity);
  check(where, p_yield_stress, yield_stress);
  check(where, p_effective_modulus, effective_modulus);
  const double v = impact_velocity / plastic_onset_velocity;
  if (impact_velocity < critical_velocity) {
    const double c = 2.08 * std::pow(v, 0.156);
    if (c > 1.0)
      fail(where,
           "the printed branch 2.08 (V1/V_c)^0.156 (impact_velocity < critical_velocity) "
           "gives c_r = " +
               number(c) + " > 1; it needs impact_velocity/plastic_onset_velocity in (0, " +
               number(std::pow(1.0 / 2.08, 1.0 / 0.156)) + "], got " + number(v) +
               " (CJTAM review, Table 4 row 3 as printed; uncertain)");
    return c;
  }
  const double x = v * yield_stress / effective_modulus;
  const double c = 0.62 / std::sqrt(x);
  if (c > 1.0)
    fail(where,
         "the printed branch 0.62 (V1 S_y/(V_c E*))^(-1/2) (impact_velocity >= "
         "critical_velocity) gives c_r = " +
             number(c) +
             " > 1; it needs (impact_velocity/plastic_onset_velocity)(yield_stress/"
             "effective_modulus) in [0.3844, inf), got " +
             number(x) + " (CJTAM review, Table 4 row 3 as printed; uncertain)");
  return c;
}

double weir_tallon_2005_cor(double impact_velocity, double yield_stress, double effective_modulus,
                            double youngs_modulus, double density, double radius_r1,
                            double radius) {
  constexpr std::string_view where = "weir_tallon_2005_cor";
  check(where, p_impact_velocity, impact_velocity);
  check(where, p_yield_stress, yield_stress);
  check(where, p_effective_modulus, effective_modulus);
  check(where, p_youngs_modulus, youngs_modulus);
  check(where, p_density, density);
  check(where, p_radius_r1, radius_r1);
  check(where, p_radius, radius);
  const double wave_speed = std::sqrt(youngs_modulus / density);  // c0
  const double c = 3.1 * std::pow(yield_stress / effective_modulus, 0.625) *
                   std::pow(radius_r1 / radius, 0.375) *
                   std::pow(wave_speed / impact_velocity, 0.25);
  return std::min(1.0, c);
}

double jackson_2010_cor(double normalised_velocity, double yield_strain) {
  constexpr std::string_view where = "jackson_2010_cor";
  const double v = check(where, p_normalised_velocity, normalised_velocity);
  check(where, p_yield_strain, yield_strain);
  if (v <= 1.0) return 1.0;
  if (v <= 60.0) return 1.0 - 0.1 * std::log(v) * std::pow((v - 1.0) / 59.0, 0.156);
  const double c = 1.0 - 0.1 * std::log(60.0) -
                   0.1 * std::log(v / 60.0) * std::pow(v - 60.0, 2.36 * yield_strain);
  if (c < 0.0)
    fail(where, "the formula gives c_r = " + number(c) +
                    " < 0 at normalised_velocity = " + number(v) +
                    "; yield_strain = " + number(yield_strain) + " is too large for this velocity");
  return c;
}

double ma_liu_2015_cor(double impact_velocity, double effective_modulus, double unloading_radius,
                       double plastic_stiffness, double effective_mass) {
  constexpr std::string_view where = "ma_liu_2015_cor";
  check(where, p_impact_velocity, impact_velocity);
  check(where, p_effective_modulus, effective_modulus);
  check(where, p_unloading_radius, unloading_radius);
  check(where, p_plastic_stiffness, plastic_stiffness);
  check(where, p_effective_mass, effective_mass);
  const double c = 0.81 * std::pow(effective_modulus, -1.0 / 3.0) *
                   std::pow(unloading_radius, -1.0 / 6.0) *
                   std::pow(plastic_stiffness, 5.0 / 12.0) * std::pow(effective_mass, -1.0 / 12.0) *
                   std::pow(impact_velocity, -1.0 / 6.0);
  return std::min(1.0, c);
}

double hunt_crossley_cor(double alpha_hc, double impact_velocity) {
  constexpr std::string_view where = "hunt_crossley_cor";
  check(where, p_alpha_hc, alpha_hc);
  check(where, p_impact_velocity_from_zero, impact_velocity);
  const double e = 1.0 - alpha_hc * impact_velocity;
  if (e < 0.0)
    fail(where, "1 - alpha_hc v0 = " + number(e) + " < 0; impact_velocity must be in [0, " +
                    number(1.0 / alpha_hc) + "] m/s (1/alpha_hc), got " + number(impact_velocity) +
                    " m/s");
  return e;
}

double herbert_mcwhannell_cor(double impact_velocity) {
  constexpr std::string_view where = "herbert_mcwhannell_cor";
  check(where, p_impact_velocity_herbert_mcwhannell, impact_velocity);
  const double mm_per_s = 1000.0 * impact_velocity;
  // Round-off at the upper end of the range may give -1e-16.
  return std::max(0.0, 1.0 - 0.026 * std::cbrt(mm_per_s));
}

double lee_wang_cor(double alpha0, double alpha1, double impact_velocity) {
  constexpr std::string_view where = "lee_wang_cor";
  check(where, p_alpha0, alpha0);
  check(where, p_alpha1, alpha1);
  check(where, p_impact_velocity_from_zero, impact_velocity);
  const double e = alpha0 - alpha1 * impact_velocity;
  if (e < 0.0)
    fail(where, "alpha0 - alpha1 v0 = " + number(e) + " < 0; impact_velocity must be in [0, " +
                    number(alpha0 / alpha1) + "] m/s (alpha0/alpha1), got " +
                    number(impact_velocity) + " m/s");
  return e;
}

// ---- Group (h) ----------------------------------------------------------------------------------

BinaryImpactOutcome newton_restitution(double mass_i, double mass_j, double velocity_i,
                                       double velocity_j, double restitution) {
  check_impact("newton_restitution", mass_i, mass_j, velocity_i, velocity_j, restitution);
  const double approach = velocity_i - velocity_j;                 // v0 > 0 when i and j close in
  if (approach <= 0.0) return {velocity_i, velocity_j, 0.0, 0.0};  // complementarity: no impulse
  const double m = reduced_mass(mass_i, mass_j);
  const double impulse = (1.0 + restitution) * m * approach;
  return {velocity_i - impulse / mass_i, velocity_j + impulse / mass_j, impulse,
          0.5 * m * approach * approach * (1.0 - restitution * restitution)};
}

BinaryImpactOutcome poisson_restitution(double mass_i, double mass_j, double velocity_i,
                                        double velocity_j, double restitution) {
  check_impact("poisson_restitution", mass_i, mass_j, velocity_i, velocity_j, restitution);
  const double approach = velocity_i - velocity_j;
  if (approach <= 0.0) return {velocity_i, velocity_j, 0.0, 0.0};
  const double m = reduced_mass(mass_i, mass_j);
  const double compression = m * approach;             // brings the approach rate to zero
  const double expansion = restitution * compression;  // Banerjee et al. (2017), Eq. 44
  const double impulse = compression + expansion;
  // Compression removes the relative kinetic energy compression^2/(2 m*); expansion gives back
  // expansion^2/(2 m*).
  const double dissipated = (compression - expansion) * (compression + expansion) / (2.0 * m);
  return {velocity_i - impulse / mass_i, velocity_j + impulse / mass_j, impulse, dissipated};
}

}  // namespace chaindem
