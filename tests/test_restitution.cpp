// Restitution predictors and Newton's and Poisson's impact laws. Expected values come from the
// algebra on the printed formulas (docs/validation.md#predictors, docs/validation.md#closed-forms)
// or were computed independently of the
// implementation (in Python from the printed formulas, or by hand algebra stated in a comment).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "chaindem/laws/restitution.hpp"

using namespace chaindem;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// Runs f, expects std::invalid_argument, and returns its message ("" if nothing was thrown).
template <class F>
std::string invalid_argument_message(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument thrown";
  return {};
}

bool contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

const RestitutionPredictor& predictor(std::string_view id) {
  const RestitutionPredictor* p = find_restitution_predictor(id);
  if (!p) throw std::runtime_error("no predictor " + std::string(id));
  return *p;
}

}  // namespace

// ---- Yield velocity (the restitution predictors, include/chaindem/laws/restitution.hpp header)
// ------------------------------------------

TEST(RestitutionYieldVelocity, SphereOnFlatMatchesThorntonConstant) {
  // docs/validation.md#closed-forms: for a sphere of density rho on a rigid flat (m* = rho 4/3 pi
  // R^3, R* = R), V_y = 1.5605 sqrt(p_y^5/(E*^4 rho)), independent of R. (1.5605 is pi^2/sqrt(40)
  // rounded; 5e-5 relative covers the rounding.)
  const double e_star = 1.1e11, p_y = 2.0e9, rho = 7800.0;
  const double expected = 1.5605 * std::sqrt(std::pow(p_y, 5) / (std::pow(e_star, 4) * rho));
  double previous = 0.0;
  for (double radius : {1e-3, 2.5e-2}) {
    const double mass = rho * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
    const double v_y = yield_velocity(e_star, radius, mass, p_y);
    EXPECT_NEAR(v_y, expected, 5e-5 * expected) << "R = " << radius;
    if (previous > 0.0) {
      EXPECT_NEAR(v_y, previous, 1e-12 * previous);
    }
    previous = v_y;
  }
}

TEST(RestitutionYieldVelocity, TwoIdenticalSpheresHalveTheSphereOnFlatValue) {
  // Hand algebra: V_y^2 is proportional to R*^3/m*. Two identical spheres have R* = R/2 and
  // m* = m/2, so R*^3/m* = R^3/(4 m) and V_y is half the sphere-on-flat value at the same E*, p_y.
  const double e_star = 7.0e10, p_y = 1.2e9, rho = 2700.0, radius = 4e-3;
  const double mass = rho * 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
  EXPECT_NEAR(yield_velocity(e_star, radius / 2.0, mass / 2.0, p_y),
              0.5 * yield_velocity(e_star, radius, mass, p_y),
              1e-12 * yield_velocity(e_star, radius, mass, p_y));
}

TEST(RestitutionYieldVelocity, RejectsInvalidInputs) {
  EXPECT_TRUE(contains(invalid_argument_message([] { yield_velocity(-1.0, 1e-3, 1e-3, 1e9); }),
                       "effective_modulus"));
  EXPECT_TRUE(contains(invalid_argument_message([] { yield_velocity(1e11, 1e-3, 0.0, 1e9); }),
                       "effective_mass"));
  EXPECT_TRUE(
      contains(invalid_argument_message([] { yield_velocity(1e11, 1e-3, 1e-3, std::nan("")); }),
               "yield_pressure"));
}

// ---- Predictors (group (g)) ---------------------------------------------------------------------

TEST(RestitutionPredictors, ThorntonMatchesReferenceValues) {
  // docs/validation.md#predictors, Thornton (4 decimals).
  const double v_y = 0.37;
  EXPECT_DOUBLE_EQ(thornton_1997_cor(v_y, v_y), 1.0);
  EXPECT_EQ(thornton_1997_cor(0.5 * v_y, v_y), 1.0);  // elastic below V_y
  const struct {
    double ratio, c;
  } rows[] = {{1.5, 0.9712}, {2, 0.9306}, {5, 0.7733}, {10, 0.6586}, {100, 0.3743}, {1000, 0.2107}};
  for (const auto& row : rows)
    EXPECT_NEAR(thornton_1997_cor(row.ratio * v_y, v_y), row.c, 5e-5) << row.ratio;
  // Asymptote 1.1850 (V_y/V_l)^(1/4) (4 decimals on the constant).
  for (double ratio : {1e6, 1e9}) {
    EXPECT_NEAR(thornton_1997_cor(ratio * v_y, v_y) * std::pow(ratio, 0.25), 1.1850, 5e-5);
  }
  // Continuous and decreasing above V_y.
  EXPECT_NEAR(thornton_1997_cor(v_y * (1.0 + 1e-9), v_y), 1.0, 1e-6);
  double previous = 1.0;
  for (double ratio = 1.01; ratio < 2000.0; ratio *= 1.3) {
    const double c = thornton_1997_cor(ratio * v_y, v_y);
    EXPECT_LT(c, previous) << ratio;
    previous = c;
  }
}

TEST(RestitutionPredictors, JacksonMatchesReferenceValues) {
  // docs/validation.md#predictors, Jackson, Green & Marghitu (4 decimals; 0.5906 at 60, 0.8283
  // at 10).
  const double eps_y = 0.005;
  EXPECT_EQ(jackson_2010_cor(0.5, eps_y), 1.0);
  EXPECT_DOUBLE_EQ(jackson_2010_cor(1.0, eps_y), 1.0);
  EXPECT_NEAR(jackson_2010_cor(1.0 + 1e-9, eps_y), 1.0, 1e-6);  // continuous at 1
  const struct {
    double v, c;
  } rows[] = {{2, 0.9633},  {5, 0.8942},   {10, 0.8283},  {30, 0.6956},
              {60, 0.5906}, {100, 0.5372}, {300, 0.4189}, {1000, 0.2856}};
  for (const auto& row : rows) EXPECT_NEAR(jackson_2010_cor(row.v, eps_y), row.c, 5e-5) << row.v;
  // Continuous at 60: both branches give 1 - 0.1 ln 60.
  const double at_60 = 1.0 - 0.1 * std::log(60.0);
  EXPECT_NEAR(jackson_2010_cor(60.0, eps_y), at_60, 1e-12);
  EXPECT_NEAR(jackson_2010_cor(60.0 + 1e-9, eps_y), at_60, 1e-6);
  EXPECT_NEAR(jackson_2010_cor(60.0 - 1e-9, eps_y), at_60, 1e-6);
  // Outside (0, 1000] and a yield strain large enough to make the last branch negative.
  EXPECT_TRUE(contains(invalid_argument_message([] { jackson_2010_cor(1001.0, 0.005); }),
                       "normalised_velocity"));
  EXPECT_TRUE(contains(invalid_argument_message([] { jackson_2010_cor(0.0, 0.005); }),
                       "normalised_velocity"));
  EXPECT_TRUE(
      contains(invalid_argument_message([] { jackson_2010_cor(1000.0, 0.2); }), "yield_strain"));
}

TEST(RestitutionPredictors, WeirTallonReferenceExampleAndClipping) {
  // docs/validation.md#predictors, Weir & Tallon: steel (S_y/E* = 0.01) at 1 m/s with R1 = R gives
  // "about 1.4" before clipping, i.e. elastic. With E = 200 GPa, rho = 7800 kg/m^3 (c0 = 5064 m/s)
  // the printed formula gives 3.1 * 0.01^(5/8) * 5064^(1/4) = 1.4705 (Python); with E* in
  // c0, 1.365.
  const double e_star = 1.1e11, s_y = 0.01 * e_star, e = 200e9, rho = 7800.0, r = 2.5e-3;
  const double unclipped = 3.1 * std::pow(0.01, 0.625) * std::pow(std::sqrt(e / rho), 0.25);
  EXPECT_NEAR(unclipped, 1.4705, 1e-4);
  EXPECT_GT(unclipped, 1.3);
  EXPECT_EQ(weir_tallon_2005_cor(1.0, s_y, e_star, e, rho, r, r), 1.0);
  // In the plastic regime (S_y/E* = 0.001, 10 m/s): 3.1 * 0.001^(5/8) * (5063.7/10)^(1/4)
  // = 0.196100 (Python).
  EXPECT_NEAR(weir_tallon_2005_cor(10.0, 0.001 * e_star, e_star, e, rho, r, r), 0.19610046, 1e-7);
  // (R1/R)^(3/8): halving R1 multiplies c_r by 2^(-3/8).
  EXPECT_NEAR(weir_tallon_2005_cor(10.0, 0.001 * e_star, e_star, e, rho, r / 2.0, r),
              0.19610046 * std::pow(2.0, -0.375), 1e-7);
}

TEST(RestitutionPredictors, WeirTallonIsDimensionless) {
  // Every factor is a ratio (S_y/E*, R1/R, c0/v0), so c_r must not change when the units of
  // mass, length and time change, nor when the problem is scaled geometrically (lengths x10,
  // masses x1000 so density, stresses and velocities stay the same).
  const double v0 = 7.0, s_y = 1.5e8, e_star = 1.1e11, e = 2.0e11, rho = 7800.0, r1 = 1e-3,
               r = 3e-3;
  const double base = weir_tallon_2005_cor(v0, s_y, e_star, e, rho, r1, r);
  ASSERT_LT(base, 1.0);
  // Unit change: mass x M, length x L, time x T. Stress ~ M/(L T^2), density ~ M/L^3,
  // velocity ~ L/T.
  for (const auto& [mu, lambda, tau] : {std::tuple{1e3, 1.0, 1.0}, std::tuple{1.0, 1e2, 1.0},
                                        std::tuple{1.0, 1.0, 1e-3}, std::tuple{7.0, 0.1, 3.0}}) {
    const double stress = mu / (lambda * tau * tau), speed = lambda / tau;
    EXPECT_NEAR(
        weir_tallon_2005_cor(v0 * speed, s_y * stress, e_star * stress, e * stress,
                             rho * mu / (lambda * lambda * lambda), r1 * lambda, r * lambda),
        base, 1e-12 * base);
  }
  // Geometric scaling: lengths x10, density unchanged.
  EXPECT_NEAR(weir_tallon_2005_cor(v0, s_y, e_star, e, rho, 10.0 * r1, 10.0 * r), base,
              1e-12 * base);
}

TEST(RestitutionPredictors, MaLiuValueAndDimensionlessness) {
  // Inputs: E* = 1.1e11 Pa, R_p^e = 5 mm, k1 = 2 pi (5 mm) psi sigma_y with psi = 3,
  // sigma_y = 1 GPa (9.4248e7 N/m), m* = 4.08 g. Values from the printed formula in Python.
  const double e_star = 1.1e11, rp = 5e-3, k1 = 2.0 * std::numbers::pi * 5e-3 * 3.0 * 1e9,
               m = 4.08e-3;
  EXPECT_NEAR(ma_liu_2015_cor(10.0, e_star, rp, k1, m), 0.92594192, 1e-7);
  EXPECT_NEAR(ma_liu_2015_cor(100.0, e_star, rp, k1, m), 0.63083689, 1e-7);
  // At 1 m/s the power law gives 1.3591 (> 1, below its fully plastic regime): clipped.
  EXPECT_EQ(ma_liu_2015_cor(1.0, e_star, rp, k1, m), 1.0);
  // v0^(-1/6).
  EXPECT_NEAR(ma_liu_2015_cor(640.0, e_star, rp, k1, m),
              ma_liu_2015_cor(10.0, e_star, rp, k1, m) * std::pow(64.0, -1.0 / 6.0), 1e-12);
  // Dimensionless: unit changes mass x M, length x L, time x T leave c_r unchanged
  // (E* ~ M/(L T^2), R ~ L, k1 ~ M/T^2, m ~ M, v0 ~ L/T; exponents cancel).
  const double base = ma_liu_2015_cor(10.0, e_star, rp, k1, m);
  for (const auto& [mu, lambda, tau] : {std::tuple{1e3, 1.0, 1.0}, std::tuple{1.0, 1e2, 1.0},
                                        std::tuple{1.0, 1.0, 1e-3}, std::tuple{7.0, 0.1, 3.0}}) {
    EXPECT_NEAR(ma_liu_2015_cor(10.0 * lambda / tau, e_star * mu / (lambda * tau * tau),
                                rp * lambda, k1 * mu / (tau * tau), m * mu),
                base, 1e-12 * base);
  }
  // Geometric scaling: lengths x10, masses x1000 (same density), same stresses and velocity;
  // k1 = 2 pi R psi sigma_y scales with R. Exponents: -1/6 + 5/12 - 3/12 = 0.
  EXPECT_NEAR(ma_liu_2015_cor(10.0, e_star, 10.0 * rp, 10.0 * k1, 1000.0 * m), base, 1e-12 * base);
}

TEST(RestitutionPredictors, ChangLingReadingIsConsistent) {
  const double e_star = 1.1e11, r = 5e-3, y = 1e9, nu = 0.3;
  const double k = 1.282 + 1.158 * nu;
  // With the 5/4 reading, c_r = 1 at w_m = w_c for any inputs (docs/validation.md#predictors).
  for (double wc : {1e-7, 3e-6})
    EXPECT_NEAR(chang_ling_1992_cor(wc, wc, e_star, r, y, nu), 1.0, 1e-15);
  EXPECT_EQ(chang_ling_1992_cor(1e-7, 2e-7, e_star, r, y, nu), 1.0);  // elastic: w_m < w_c
  // Hand algebra: with the consistent w_c = (pi K Y/(2 E*))^2 R and x = w_m/w_c the formula
  // reduces to c_r^2 = (2x - 1)^(5/4)/(1 + (15/4) x (x - 1)); x = 2: 0.681540 (Python, also the
  // direct formula).
  const double wc = std::pow(std::numbers::pi * k * y / (2.0 * e_star), 2) * r;
  for (double x : {1.5, 2.0, 10.0}) {
    const double expected = std::sqrt(std::pow(2.0 * x - 1.0, 1.25) / (1.0 + 3.75 * x * (x - 1.0)));
    EXPECT_NEAR(chang_ling_1992_cor(x * wc, wc, e_star, r, y, nu), expected, 1e-12) << x;
  }
  EXPECT_NEAR(chang_ling_1992_cor(2.0 * wc, wc, e_star, r, y, nu), 0.68153996, 1e-7);
  // Dimensionless: unit change mass x M, length x L, time x T.
  const double base = chang_ling_1992_cor(2.0 * wc, wc, e_star, r, y, nu);
  for (const auto& [mu, lambda, tau] :
       {std::tuple{1e3, 1.0, 1.0}, std::tuple{1.0, 1e2, 1.0}, std::tuple{1.0, 1.0, 1e-3}}) {
    const double stress = mu / (lambda * tau * tau);
    EXPECT_NEAR(chang_ling_1992_cor(2.0 * wc * lambda, wc * lambda, e_star * stress, r * lambda,
                                    y * stress, nu),
                base, 1e-12);
  }
  // A w_c 100 times the consistent value leaves too little plastic work: c_r = 1.098 > 1.
  EXPECT_TRUE(contains(invalid_argument_message(
                           [&] { chang_ling_1992_cor(110.0 * wc, 100.0 * wc, e_star, r, y, nu); }),
                       "critical_deformation"));
}

TEST(RestitutionPredictors, WuAsPrintedRejectsValuesAboveOne) {
  const double e_star = 1.1e11;
  // Second branch: 0.62 (V1 S_y/(V_c E*))^(-1/2); with V1/V_c = 100, S_y/E* = 0.01 the bracket
  // is 1 and c_r = 0.62; with bracket 4, 0.31.
  EXPECT_NEAR(wu_2005_cor(10.0, 0.1, 5.0, 0.01 * e_star, e_star), 0.62, 1e-12);
  EXPECT_NEAR(wu_2005_cor(40.0, 0.1, 5.0, 0.01 * e_star, e_star), 0.31, 1e-12);
  // First branch as printed: 2.08 (V1/V_c)^0.156 > 1 for V1/V_c > 0.00914: rejected.
  const std::string m =
      invalid_argument_message([&] { wu_2005_cor(1.0, 0.1, 5.0, 0.01 * e_star, e_star); });
  EXPECT_TRUE(contains(m, "impact_velocity")) << m;
  EXPECT_TRUE(contains(m, "plastic_onset_velocity")) << m;
  // ... and at most 1 below: V1/V_c = 0.005 gives 2.08 * 0.005^0.156 = 0.91013 (Python).
  EXPECT_NEAR(wu_2005_cor(0.0005, 0.1, 5.0, 0.01 * e_star, e_star), 2.08 * std::pow(0.005, 0.156),
              1e-12);
  // Second branch above 1 (bracket < 0.3844): rejected.
  EXPECT_THROW(wu_2005_cor(10.0, 1.0, 5.0, 0.01 * e_star, e_star), std::invalid_argument);
}

TEST(RestitutionPredictors, LinearEmpiricalFits) {
  // Hunt & Crossley (Autiero et al. 2022, §3.2): e = 1 - alpha v0.
  EXPECT_DOUBLE_EQ(hunt_crossley_cor(0.2, 1.5), 0.7);
  EXPECT_EQ(hunt_crossley_cor(0.2, 0.0), 1.0);
  EXPECT_EQ(hunt_crossley_cor(0.0, 3.0), 1.0);
  EXPECT_TRUE(
      contains(invalid_argument_message([] { hunt_crossley_cor(0.2, 6.0); }), "impact_velocity"));
  EXPECT_TRUE(contains(invalid_argument_message([] { hunt_crossley_cor(-0.1, 1.0); }), "alpha_hc"));
  // Herbert & McWhannell (Autiero et al. 2022, §3.3): e = 1 - 0.026 v0^(1/3), v0 in mm/s. 1 m/s =
  // 1000 mm/s, cube root 10: e = 0.74; 8 m/s: cube root 20, e = 0.48; 1 mm/s: e = 0.974.
  EXPECT_NEAR(herbert_mcwhannell_cor(1.0), 0.74, 1e-12);
  EXPECT_NEAR(herbert_mcwhannell_cor(8.0), 0.48, 1e-12);
  EXPECT_NEAR(herbert_mcwhannell_cor(1e-3), 0.974, 1e-12);
  EXPECT_EQ(herbert_mcwhannell_cor(0.0), 1.0);
  // e = 0 at v0 = 1/(1000 * 0.026^3) = 56.8958 m/s; beyond, rejected.
  const double v_max = 1.0 / (1000.0 * 0.026 * 0.026 * 0.026);
  EXPECT_NEAR(herbert_mcwhannell_cor(56.8957), 0.0, 1e-6);
  EXPECT_GE(herbert_mcwhannell_cor(v_max), 0.0);
  EXPECT_NEAR(herbert_mcwhannell_cor(v_max), 0.0, 1e-12);
  EXPECT_TRUE(
      contains(invalid_argument_message([] { herbert_mcwhannell_cor(60.0); }), "impact_velocity"));
  // Lee & Wang (Autiero et al. 2022, §3.4): e = alpha0 - alpha1 v0.
  EXPECT_DOUBLE_EQ(lee_wang_cor(0.95, 0.1, 2.0), 0.75);
  EXPECT_EQ(lee_wang_cor(1.0, 0.3, 0.0), 1.0);
  EXPECT_TRUE(contains(invalid_argument_message([] { lee_wang_cor(1.2, 0.1, 1.0); }), "alpha0"));
  EXPECT_TRUE(
      contains(invalid_argument_message([] { lee_wang_cor(0.9, 0.1, 10.0); }), "impact_velocity"));
}

// ---- Registry -----------------------------------------------------------------------------------

TEST(RestitutionRegistry, EveryPredictorIsFullyDeclared) {
  std::set<std::string_view> ids;
  for (const auto& p : all_restitution_predictors()) {
    EXPECT_FALSE(p.id.empty());
    EXPECT_TRUE(ids.insert(p.id).second) << "duplicate " << p.id;
    EXPECT_FALSE(p.title.empty()) << p.id;
    EXPECT_FALSE(p.citation.empty()) << p.id;
    EXPECT_FALSE(p.formula.empty()) << p.id;
    EXPECT_FALSE(p.validity.empty()) << p.id;
    EXPECT_NE(p.evaluate, nullptr) << p.id;
    EXPECT_FALSE(p.params.empty()) << p.id;
    EXPECT_EQ(find_restitution_predictor(p.id), &p);
    std::set<std::string_view> keys;
    for (const auto& param : p.params) {
      EXPECT_TRUE(keys.insert(param.key).second) << p.id << "." << param.key;
      EXPECT_FALSE(param.unit.empty()) << p.id << "." << param.key;
      EXPECT_FALSE(param.description.empty()) << p.id << "." << param.key;
      EXPECT_EQ(p.find_param(param.key), &param);
    }
  }
  // The identifiers of docs/contact-laws.md, group (g).
  for (const char* id : {"chang_ling_1992", "thornton_1997_cor", "wu_2005_cor", "weir_tallon_2005",
                         "jackson_2010_cor", "ma_liu_2015_cor", "hunt_crossley_cor",
                         "herbert_mcwhannell_cor", "lee_wang_cor"})
    EXPECT_NE(find_restitution_predictor(id), nullptr) << id;
  EXPECT_EQ(all_restitution_predictors().size(), 9u);
  EXPECT_EQ(find_restitution_predictor("no_such_predictor"), nullptr);
  EXPECT_EQ(find_restitution_predictor("thornton_1997"), nullptr);  // the group (e) law
  EXPECT_TRUE(contains(std::string(predictor("thornton_1997_cor").citation),
                       "CJTAM review, Table 4 row 2"));
}

TEST(RestitutionRegistry, RegistryEvaluatesTheTypedFunctions) {
  const double e_star = 1.1e11;
  EXPECT_EQ(
      predictor("thornton_1997_cor").predict({{"impact_velocity", 2.0}, {"yield_velocity", 0.2}}),
      thornton_1997_cor(2.0, 0.2));
  EXPECT_EQ(predictor("jackson_2010_cor")
                .predict({{"normalised_velocity", 30.0}, {"yield_strain", 0.005}}),
            jackson_2010_cor(30.0, 0.005));
  EXPECT_EQ(predictor("weir_tallon_2005")
                .predict({{"impact_velocity", 10.0},
                          {"yield_stress", 1.1e8},
                          {"effective_modulus", e_star},
                          {"youngs_modulus", 2e11},
                          {"density", 7800.0},
                          {"radius_r1", 2e-3},
                          {"radius", 2.5e-3}}),
            weir_tallon_2005_cor(10.0, 1.1e8, e_star, 2e11, 7800.0, 2e-3, 2.5e-3));
  EXPECT_EQ(predictor("ma_liu_2015_cor")
                .predict({{"impact_velocity", 10.0},
                          {"effective_modulus", e_star},
                          {"unloading_radius", 5e-3},
                          {"plastic_stiffness", 9.4e7},
                          {"effective_mass", 4e-3}}),
            ma_liu_2015_cor(10.0, e_star, 5e-3, 9.4e7, 4e-3));
  EXPECT_EQ(predictor("chang_ling_1992")
                .predict({{"max_deformation", 6e-6},
                          {"critical_deformation", 3e-6},
                          {"effective_modulus", e_star},
                          {"effective_radius", 5e-3},
                          {"yield_strength", 1e9},
                          {"poisson_ratio", 0.3}}),
            chang_ling_1992_cor(6e-6, 3e-6, e_star, 5e-3, 1e9, 0.3));
  EXPECT_EQ(predictor("wu_2005_cor")
                .predict({{"impact_velocity", 10.0},
                          {"plastic_onset_velocity", 0.1},
                          {"critical_velocity", 5.0},
                          {"yield_stress", 0.01 * e_star},
                          {"effective_modulus", e_star}}),
            wu_2005_cor(10.0, 0.1, 5.0, 0.01 * e_star, e_star));
  EXPECT_EQ(predictor("hunt_crossley_cor").predict({{"alpha_hc", 0.2}, {"impact_velocity", 1.5}}),
            hunt_crossley_cor(0.2, 1.5));
  EXPECT_EQ(predictor("herbert_mcwhannell_cor").predict({{"impact_velocity", 1.0}}),
            herbert_mcwhannell_cor(1.0));
  EXPECT_EQ(predictor("lee_wang_cor")
                .predict({{"alpha0", 0.95}, {"alpha1", 0.1}, {"impact_velocity", 2.0}}),
            lee_wang_cor(0.95, 0.1, 2.0));
}

TEST(RestitutionRegistry, InvalidInputsNameTheParameterAndRange) {
  const RestitutionPredictor& th = predictor("thornton_1997_cor");
  // Missing input.
  std::string m = invalid_argument_message([&] { th.predict({{"impact_velocity", 2.0}}); });
  EXPECT_TRUE(contains(m, "yield_velocity")) << m;
  EXPECT_TRUE(contains(m, "(0, inf)")) << m;
  m = invalid_argument_message([&] { th.evaluate({{"yield_velocity", 2.0}}); });
  EXPECT_TRUE(contains(m, "impact_velocity")) << m;
  // Out of range, non-finite.
  m = invalid_argument_message([&] {
    th.predict({{"impact_velocity", -2.0}, {"yield_velocity", 0.2}});
  });
  EXPECT_TRUE(contains(m, "impact_velocity")) << m;
  EXPECT_TRUE(contains(m, "(0, inf)")) << m;
  m = invalid_argument_message([&] {
    th.predict({{"impact_velocity", 2.0}, {"yield_velocity", std::nan("")}});
  });
  EXPECT_TRUE(contains(m, "yield_velocity")) << m;
  m = invalid_argument_message([&] {
    predictor("jackson_2010_cor")
        .predict({{"normalised_velocity", 2000.0}, {"yield_strain", 0.005}});
  });
  EXPECT_TRUE(contains(m, "normalised_velocity")) << m;
  EXPECT_TRUE(contains(m, "(0, 1000]")) << m;
  m = invalid_argument_message([&] {
    predictor("herbert_mcwhannell_cor").predict({{"impact_velocity", 100.0}});
  });
  EXPECT_TRUE(contains(m, "impact_velocity")) << m;
  EXPECT_TRUE(contains(m, "56.89")) << m;
  // Unknown key (a typo) is rejected by predict().
  m = invalid_argument_message([&] {
    th.predict({{"impact_velocity", 2.0}, {"yield_velocity", 0.2}, {"yield_velocty", 0.2}});
  });
  EXPECT_TRUE(contains(m, "yield_velocty")) << m;
  // Every declared input of every predictor is required.
  for (const auto& p : all_restitution_predictors()) {
    for (const auto& param : p.params) {
      PredictorInputs in;
      for (const auto& other : p.params)
        if (other.key != param.key) in.emplace(std::string(other.key), 0.25);
      m = invalid_argument_message([&] { p.predict(in); });
      EXPECT_TRUE(contains(m, param.key)) << p.id << ": " << m;
    }
  }
}

// ---- Non-smooth reference (group (h)) -----------------------------------------------------------

TEST(NewtonRestitution, DimensionlessReferenceValues) {
  // docs/validation.md#closed-forms: m* = 1, v0 = 1, c_r = 0.5: impulse 1 + c_r = 1.5, dissipated
  // 1/2 (1 - c_r^2) = 0.375. Equal masses 2 and 2 give m* = 1; post-impact velocities by hand:
  // u_i+ = 1 - 1.5/2 = 0.25, u_j+ = 0 + 1.5/2 = 0.75.
  const BinaryImpactOutcome o = newton_restitution(2.0, 2.0, 1.0, 0.0, 0.5);
  EXPECT_DOUBLE_EQ(o.impulse, 1.5);
  EXPECT_DOUBLE_EQ(o.dissipated_energy, 0.375);
  EXPECT_DOUBLE_EQ(o.velocity_i, 0.25);
  EXPECT_DOUBLE_EQ(o.velocity_j, 0.75);
  // c_r = 1 with equal masses swaps the velocities; c_r = 0 gives the common velocity.
  const BinaryImpactOutcome elastic = newton_restitution(3.0, 3.0, 2.0, -1.0, 1.0);
  EXPECT_DOUBLE_EQ(elastic.velocity_i, -1.0);
  EXPECT_DOUBLE_EQ(elastic.velocity_j, 2.0);
  EXPECT_EQ(elastic.dissipated_energy, 0.0);
  const BinaryImpactOutcome plastic = newton_restitution(1.0, 3.0, 2.0, -2.0, 0.0);
  EXPECT_DOUBLE_EQ(plastic.velocity_i, -1.0);  // (1*2 + 3*(-2))/4
  EXPECT_DOUBLE_EQ(plastic.velocity_j, -1.0);
}

TEST(NewtonRestitution, ConservesMomentumAndMatchesTheClosedForms) {
  for (const auto& [mi, mj] : {std::pair{1.0, 1.0}, std::pair{0.013, 4.6}, std::pair{7.0, 0.2}}) {
    for (const auto& [ui, uj] :
         {std::pair{1.0, 0.0}, std::pair{0.3, -2.1}, std::pair{-1.0, -4.0}}) {
      for (double c : {0.0, 0.25, 0.8, 1.0}) {
        const BinaryImpactOutcome o = newton_restitution(mi, mj, ui, uj, c);
        const double m_star = mi * mj / (mi + mj), v0 = ui - uj;
        const double momentum = mi * ui + mj * uj;
        const double scale = std::abs(mi * ui) + std::abs(mj * uj);
        EXPECT_NEAR(mi * o.velocity_i + mj * o.velocity_j, momentum, 1e-15 * scale);
        EXPECT_NEAR(o.velocity_i - o.velocity_j, -c * v0, 1e-14 * std::abs(v0));
        EXPECT_NEAR(o.impulse, (1.0 + c) * m_star * v0, 1e-14 * m_star * v0);
        EXPECT_NEAR(o.dissipated_energy, 0.5 * m_star * v0 * v0 * (1.0 - c * c),
                    1e-14 * m_star * v0 * v0);
        // The energy balance of the velocities themselves.
        const double before = 0.5 * mi * ui * ui + 0.5 * mj * uj * uj;
        const double after =
            0.5 * mi * o.velocity_i * o.velocity_i + 0.5 * mj * o.velocity_j * o.velocity_j;
        EXPECT_NEAR(before - after, o.dissipated_energy, 1e-13 * before);
        // Banerjee et al. (2017), Eqs. 37: u_i+ = u_i - (1 + c) m_j/(m_i + m_j) (u_i - u_j).
        EXPECT_NEAR(o.velocity_i, ui - (1.0 + c) * mj / (mi + mj) * v0, 1e-14 * std::abs(v0));
      }
    }
  }
}

TEST(NewtonRestitution, WallIsAnInfiniteMass) {
  // Fixed wall: u+ = -c u, impulse (1 + c) m u, dissipated 1/2 m u^2 (1 - c^2).
  const BinaryImpactOutcome o = newton_restitution(0.2, inf, 3.0, 0.0, 0.6);
  EXPECT_DOUBLE_EQ(o.velocity_i, -1.8);
  EXPECT_EQ(o.velocity_j, 0.0);
  EXPECT_DOUBLE_EQ(o.impulse, 1.6 * 0.2 * 3.0);
  EXPECT_DOUBLE_EQ(o.dissipated_energy, 0.5 * 0.2 * 9.0 * (1.0 - 0.36));
  // Moving wall (towards i at 0.5 m/s): the relative velocity reverses, the wall keeps its speed.
  const BinaryImpactOutcome moving = newton_restitution(0.2, inf, 3.0, -0.5, 0.6);
  EXPECT_EQ(moving.velocity_j, -0.5);
  EXPECT_DOUBLE_EQ(moving.velocity_i - moving.velocity_j, -0.6 * 3.5);
  // The wall may be body i instead.
  const BinaryImpactOutcome left = newton_restitution(inf, 0.2, 0.0, -3.0, 0.6);
  EXPECT_EQ(left.velocity_i, 0.0);
  EXPECT_DOUBLE_EQ(left.velocity_j, 1.8);
  // A wall is the limit of a very heavy body.
  const BinaryImpactOutcome heavy = newton_restitution(0.2, 1e12, 3.0, 0.0, 0.6);
  EXPECT_NEAR(heavy.velocity_i, o.velocity_i, 1e-10);
  EXPECT_NEAR(heavy.impulse, o.impulse, 1e-10);
}

TEST(NewtonRestitution, SeparatingBodiesGetNoImpulse) {
  // Complementarity (Banerjee et al. 2017, Eq. 38): not approaching -> Lambda = 0, velocities
  // unchanged.
  for (double uj : {1.0, 2.0}) {
    const BinaryImpactOutcome o = newton_restitution(1.0, 2.0, 1.0, uj, 0.5);
    EXPECT_EQ(o.impulse, 0.0);
    EXPECT_EQ(o.dissipated_energy, 0.0);
    EXPECT_EQ(o.velocity_i, 1.0);
    EXPECT_EQ(o.velocity_j, uj);
  }
}

TEST(NewtonRestitution, RejectsInvalidArguments) {
  std::string m = invalid_argument_message([] { newton_restitution(1.0, 1.0, 1.0, 0.0, 1.1); });
  EXPECT_TRUE(contains(m, "restitution")) << m;
  EXPECT_TRUE(contains(m, "[0, 1]")) << m;
  EXPECT_TRUE(
      contains(invalid_argument_message([] { newton_restitution(1.0, 1.0, 1.0, 0.0, -0.1); }),
               "restitution"));
  EXPECT_TRUE(contains(
      invalid_argument_message([] { newton_restitution(0.0, 1.0, 1.0, 0.0, 0.5); }), "mass_i"));
  EXPECT_TRUE(contains(
      invalid_argument_message([] { newton_restitution(1.0, -2.0, 1.0, 0.0, 0.5); }), "mass_j"));
  EXPECT_THROW(newton_restitution(inf, inf, 1.0, 0.0, 0.5), std::invalid_argument);
  EXPECT_THROW(newton_restitution(1.0, std::nan(""), 1.0, 0.0, 0.5), std::invalid_argument);
  EXPECT_TRUE(contains(
      invalid_argument_message([] { newton_restitution(1.0, 1.0, inf, 0.0, 0.5); }), "velocity_i"));
  EXPECT_TRUE(
      contains(invalid_argument_message([] { poisson_restitution(1.0, 1.0, 1.0, 0.0, 2.0); }),
               "restitution"));
}

TEST(PoissonRestitution, EqualsNewtonForOneFrictionlessContact) {
  // Banerjee et al. (2017), Eq. 43 = Eq. 51.
  for (const auto& [mi, mj] : {std::pair{1.0, 1.0}, std::pair{0.013, 4.6}, std::pair{7.0, inf}}) {
    for (const auto& [ui, uj] : {std::pair{1.0, 0.0}, std::pair{0.3, -2.1}, std::pair{0.0, 0.5}}) {
      for (double c : {0.0, 0.25, 0.8, 0.999, 1.0}) {
        const BinaryImpactOutcome n = newton_restitution(mi, mj, ui, uj, c);
        const BinaryImpactOutcome p = poisson_restitution(mi, mj, ui, uj, c);
        const double m_star = 1.0 / (1.0 / mi + 1.0 / mj), v0 = std::abs(ui - uj);
        EXPECT_NEAR(p.velocity_i, n.velocity_i, 1e-14 * v0);
        EXPECT_NEAR(p.velocity_j, n.velocity_j, 1e-14 * v0);
        EXPECT_NEAR(p.impulse, n.impulse, 1e-14 * m_star * v0);
        EXPECT_NEAR(p.dissipated_energy, n.dissipated_energy, 1e-14 * m_star * v0 * v0);
      }
    }
  }
}
