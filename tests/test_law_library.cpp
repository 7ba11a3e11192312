// The contact-law library against the reference: every law's force at given (delta, v, v0)
// against its formula typed again here from its source paper (docs/contact-laws.md), and every
// damped law's achieved restitution in an integrated impact against the reference's values
// (docs/validation.md#scaled-frame) or the exact identity of the hysteresis family (§1.4).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <sstream>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/contact_law.hpp"
#include "reference_tables.hpp"
#include "test_support.hpp"

using namespace chaindem;
using chaindem::test::hysteresis_alpha;
using chaindem::test::hysteresis_alpha_formulas;
using chaindem::test::identity_restitution;
using chaindem::test::kernel_force;
using chaindem::test::law;

namespace {

constexpr double pi = std::numbers::pi;

// A steel-like pair: E = 200 GPa, nu = 0.3, R* = 2.5 mm, m* = 2.04 g.
PairInput steel_pair() {
  PairInput in{200e9 / (2.0 * (1.0 - 0.09)), 0.0025, 2.04e-3};
  in.youngs_modulus = 200e9;
  in.poisson_ratio = 0.3;
  return in;
}

// Scaled frame of docs/validation.md#scaled-frame: m* = 1, K = 1, v0 = 1.
ImpactResult scaled_impact(std::string_view id, double c_r, TensionPolicy tension,
                           LawParams extra = {}) {
  const LawEntry& l = law(id);
  LawParams p = std::move(extra);
  p["stiffness"] = 1.0;
  if (l.find_param("restitution")) p["restitution"] = c_r;
  const PairCoeffs c = l.prepare(l, PairInput{0.0, 0.0, 1.0}, p);
  ImpactOptions o;
  o.tension = tension;
  return simulate_impact(l, c, 1.0, 1.0, o);
}

}  // namespace

// ---- Forces against the formulas ---------------------------------------------------------------

TEST(LawForces, HysteresisFamilyMatchesFormulas) {
  const PairInput in = steel_pair();
  const double k_hertz = 4.0 / 3.0 * in.effective_modulus * std::sqrt(in.effective_radius);
  int checked = 0;
  for (const auto& l : all_laws()) {
    if (l.kernel != Kernel::hertz_hysteresis && l.kernel != Kernel::linear_hysteresis) continue;
    const bool exact = l.id == "gonthier_exact" || l.id == "zhang_sharf" || l.id == "luo_nahon" ||
                       l.id == "khatiwada";
    ASSERT_TRUE(exact || hysteresis_alpha_formulas.count(l.id)) << l.id << " has no test formula";
    for (double c : {0.2, 0.5, 0.8, 0.95}) {
      const bool linear = l.kernel == Kernel::linear_hysteresis;
      const double k = linear ? 3e7 : k_hertz;
      const PairCoeffs co = l.prepare(l, in, {{"restitution", c}, {"stiffness", k}});
      ContactState s;
      s.impact_velocity = 0.8;
      const double d = 6e-6, v = -0.35;
      double alpha = 0;
      if (exact) {  // the root of the identity at e = c: check the identity itself
        alpha = co.damping;
        EXPECT_NEAR(identity_restitution(alpha), c, 1e-9) << l.id;
      } else {
        alpha = hysteresis_alpha(l.id, c);
      }
      const double elastic = linear ? k * d : k * std::pow(d, 1.5);
      EXPECT_NEAR(kernel_force(l, co, s, d, v), elastic * (1 + alpha * v / 0.8), 1e-12 * elastic)
          << l.id << " c = " << c;
      ++checked;
    }
  }
  EXPECT_GE(checked, 4 * 24);
}

TEST(LawForces, ViscousAndLinearViscoelasticMatchFormulas) {
  const PairInput in = steel_pair();
  const double kh = 4.0 / 3.0 * in.effective_modulus * std::sqrt(in.effective_radius);
  const double m = in.effective_mass, c = 0.6, d = 4e-6, v = 0.27;
  const double lnc = std::log(c), xi_log = -lnc / std::sqrt(pi * pi + lnc * lnc);
  const double kl = 2e7;  // linear stiffness for the Kelvin-Voigt family
  const double nu = 0.3, E = 200e9, eta1 = 3.0, eta2 = 2.0;
  const double chi_kk = kh / 2 * std::pow(3 * eta2 - eta1, 2) / (3 * eta2 + 2 * eta1) *
                        (1 - nu * nu) * (1 - 2 * nu) / (E * nu * nu);
  const double xi_j = 9 * std::sqrt(5.0) / 2 * (1 - c * c) / (c * (c * (9 * pi - 16) + 16));
  struct Case {
    const char* id;
    LawParams params;
    double expected;
  };
  const Case cases[] = {
      {"kelvin_voigt", {{"stiffness", kl}, {"damping_coefficient", 3.0}}, kl * d + 3.0 * v},
      {"anagnostopoulos",
       {{"stiffness", kl}, {"restitution", c}},
       kl * d + 2 * xi_log * std::sqrt(kl * m) * v},
      {"anagnostopoulos_skrinjar",
       {{"stiffness", kh}, {"restitution", c}},
       kh * d + 2 * -lnc / (pi * pi + lnc * lnc) * std::sqrt(kh * m) * d * v},
      {"kuwabara_kono",
       {{"eta1", eta1}, {"eta2", eta2}},
       kh * std::pow(d, 1.5) + chi_kk * std::sqrt(d) * v},
      {"brilliantov",
       {{"eta1", eta1}, {"eta2", eta2}},
       kh * std::pow(d, 1.5) + chi_kk * std::sqrt(d) * v},
      {"tsuji",
       {{"restitution", c}},
       kh * std::pow(d, 1.5) + std::sqrt(5.0) * xi_log * std::sqrt(kh * m) * std::pow(d, 0.25) * v},
      {"jankowski_viscous",
       {{"restitution", c}},
       kh * std::pow(d, 1.5) + 2 * xi_j * std::sqrt(kh * m) * std::pow(d, 0.25) * v},
      {"schwager_poschel",
       {{"damping_coefficient", 5.0}},
       kh * std::pow(d, 1.5) + 5.0 * std::pow(d, 0.65) * v},
      {"bordbar_hyppanen",
       {{"damping_coefficient", 5.0}},
       kh * std::pow(d, 1.5) + 5.0 * std::pow(d, 0.65) * v},
      {"lee_herrmann", {{"xi", 500.0}}, kh * std::pow(d, 1.5) + m * 500.0 * d * v},
      {"ristow", {{"damping_coefficient", 7e4}}, kh * std::pow(d, 1.5) + 7e4 * d * v},
      {"schafer", {{"damping_coefficient", 7e4}}, kh * std::pow(d, 1.5) + 7e4 * d * v},
      // Lee-Wang transition, inside the zone (d < eps) and above it.
      {"lee_wang_transition",
       {{"restitution", c}, {"transition_width", 1e-5}, {"shape", 3.0}},
       kh * std::pow(d, 1.5) + std::exp(-2 * 3.0 * (1e-5 - d) / 1e-5) * 2 * -lnc *
                                   std::sqrt(kh * m / (pi * pi + lnc * lnc)) * v},
      {"lee_wang_transition",
       {{"restitution", c}, {"transition_width", 1e-6}, {"shape", 3.0}},
       kh * std::pow(d, 1.5) + 2 * -lnc * std::sqrt(kh * m / (pi * pi + lnc * lnc)) * v},
      // Jankowski's approach-only damping: v > 0 here.
      {"jankowski_piecewise",
       {{"restitution", c}},
       kh * std::pow(d, 1.5) + 2 * xi_j * std::sqrt(kh * m) * std::pow(d, 0.25) * v},
      // Equivalent oscillator: 2 xi sqrt(k_t m*) v with k_t = 1.5 K sqrt(d); xi from the law.
      {"power_law", {{"stiffness", 3e8}, {"exponent", 1.3}}, 3e8 * std::pow(d, 1.3)},
      {"brandlein", {{"stiffness", 3e8}}, 3e8 * std::pow(d, 1.08)},
      {"hertz_plane_plane", {{"half_width", 1e-3}}, 1e-3 * in.effective_modulus / 0.475 * d},
      {"luo_nahon_contact_area",
       {{"contact_area", 1e-6}, {"mean_radius", 2e-3}},
       2 * in.effective_modulus * 1e-6 * d / (pi * 2e-3)},
  };
  for (const Case& k : cases) {
    const LawEntry& l = law(k.id);
    const PairCoeffs co = l.prepare(l, in, k.params);
    ContactState s;
    EXPECT_NEAR(kernel_force(l, co, s, d, v), k.expected, 1e-11 * std::abs(k.expected)) << k.id;
  }
  // Jankowski without damping while receding.
  const LawEntry& j = law("jankowski_piecewise");
  ContactState s;
  EXPECT_DOUBLE_EQ(kernel_force(j, j.prepare(j, in, {{"restitution", c}}), s, d, -v),
                   kh * std::pow(d, 1.5));
  // Equivalent oscillator: the damping coefficient is 2 xi sqrt(1.5 K m*) delta^(1/4).
  const LawEntry& eo = law("equivalent_oscillator_viscous");
  const PairCoeffs co = eo.prepare(eo, in, {{"restitution", c}});
  const double xi = co.damping / (2 * std::sqrt(1.5 * kh * m));
  EXPECT_NEAR(kernel_force(eo, co, s, d, v),
              kh * std::pow(d, 1.5) + 2 * xi * std::sqrt(1.5 * kh * std::sqrt(d) * m) * v,
              1e-11 * kh * std::pow(d, 1.5));
  EXPECT_GT(xi, 0.8 * xi_log);  // same order as the linear oscillator's ratio
  EXPECT_LT(xi, 1.2 * xi_log);
}

// ---- Achieved restitution of every hysteresis law: simulation vs exact identity --------------

TEST(LawRestitution, HysteresisFamilyAgreesWithExactIdentity) {
  int checked = 0;
  for (const auto& l : all_laws()) {
    if (l.kernel != Kernel::hertz_hysteresis && l.kernel != Kernel::linear_hysteresis) continue;
    for (int i = 1; i <= 9; ++i) {
      const double c = i / 10.0;
      if (!l.find_param("restitution")->admits(c)) continue;
      const ImpactResult r = scaled_impact(l.id, c, TensionPolicy::allow);
      ASSERT_TRUE(r.separated) << l.id;
      EXPECT_NEAR(r.restitution, identity_restitution(l.damping_factor(c)), 1e-3)
          << l.id << " c_r = " << c;
      EXPECT_GE(r.min_force, 0.0) << l.id;  // no tension in an isolated impact
      ++checked;
    }
  }
  EXPECT_GE(checked, 200);
}

// docs/validation.md#restitution-identity (printed to 4 decimals): e_out at c_r = 0.1 ... 0.9.
TEST(LawRestitution, HysteresisTableOfTheReference) {
  const std::map<std::string, std::array<double, 9>> table{
      {"hunt_crossley", {0.5158, 0.5469, 0.5813, 0.6197, 0.6630, 0.7120, 0.7680, 0.8329, 0.9090}},
      {"herbert_mcwhannell",
       {0.4907, 0.5008, 0.5200, 0.5503, 0.5936, 0.6511, 0.7227, 0.8070, 0.9009}},
      {"herbert_mcwhannell_banerjee",
       {0.5029, 0.5221, 0.5461, 0.5761, 0.6135, 0.6601, 0.7181, 0.7908, 0.8825}},
      {"lee_wang", {0.6867, 0.7120, 0.7390, 0.7680, 0.7992, 0.8329, 0.8693, 0.9090, 0.9524}},
      {"lankarani_nikravesh",
       {0.6653, 0.6723, 0.6842, 0.7016, 0.7252, 0.7561, 0.7960, 0.8471, 0.9132}},
      {"khulief_shabana", {0.6653, 0.6723, 0.6842, 0.7016, 0.7252, 0.7561, 0.7960, 0.8471, 0.9132}},
      {"gonthier", {0.1010, 0.2046, 0.3042, 0.3978, 0.4877, 0.5773, 0.6696, 0.7680, 0.8764}},
      {"gonthier_exact", {0.1000, 0.2000, 0.3000, 0.4000, 0.5000, 0.6000, 0.7000, 0.8000, 0.9000}},
      {"zhiying_qishao", {0.2175, 0.2664, 0.3267, 0.3988, 0.4826, 0.5769, 0.6796, 0.7874, 0.8959}},
      {"flores", {0.0694, 0.1555, 0.2562, 0.3629, 0.4704, 0.5773, 0.6832, 0.7885, 0.8939}},
      {"gharib_hurmuzlu", {0.1000, 0.1970, 0.2819, 0.3524, 0.4107, 0.4595, 0.5008, 0.5362, 0.5668}},
      {"hu_guo", {0.0741, 0.1656, 0.2707, 0.3796, 0.4877, 0.5936, 0.6973, 0.7992, 0.8999}},
      {"hu_guo_skrinjar", {0.1477, 0.3069, 0.4464, 0.5636, 0.6630, 0.7484, 0.8230, 0.8888, 0.9474}},
      {"hu_et_al", {0.1010, 0.2054, 0.3046, 0.4004, 0.4946, 0.5890, 0.6851, 0.7845, 0.8888}},
      {"shen", {0.0954, 0.1960, 0.3017, 0.4062, 0.5081, 0.6076, 0.7057, 0.8031, 0.9009}},
      {"carvalho_martins",
       {0.1289, 0.2116, 0.3040, 0.4011, 0.5002, 0.6000, 0.7000, 0.8000, 0.9000}},
      {"safaeifar_farshidianfar",
       {0.0889, 0.1970, 0.3138, 0.4279, 0.5362, 0.6383, 0.7350, 0.8271, 0.9152}},
      {"zhang_et_al_2020",
       {0.1003, 0.2028, 0.3048, 0.4049, 0.5039, 0.6027, 0.7018, 0.8012, 0.9006}},
      {"zhao_et_al_2021", {0.0362, 0.0814, 0.1392, 0.2124, 0.3012, 0.4044, 0.5225, 0.6575, 0.8140}},
  };
  for (const auto& [id, values] : table)
    for (int i = 0; i < 9; ++i)
      EXPECT_NEAR(scaled_impact(id, (i + 1) / 10.0, TensionPolicy::allow).restitution, values[i],
                  6e-4)
          << id << " c_r = " << (i + 1) / 10.0;
}

// docs/validation.md#kelvin-voigt, docs/validation.md#jankowski, docs/validation.md#edem-damping:
// the other damped laws, with their end rules.
TEST(LawRestitution, ViscousAndKelvinVoigtLawsMatchReference) {
  struct Row {
    const char* id;
    TensionPolicy tension;
    double c_r, e_out;
  };
  const auto allow = TensionPolicy::allow, clamp = TensionPolicy::clamp;
  const Row rows[] = {
      // §2.2 Kelvin-Voigt family
      {"anagnostopoulos", allow, 0.25, 0.2500},
      {"anagnostopoulos", allow, 0.75, 0.7500},
      {"goyal", clamp, 0.25, 0.5000},
      {"goyal", clamp, 0.5, 0.7071},
      {"goyal", clamp, 0.75, 0.8660},
      {"goyal", allow, 0.25, 0.4363},
      {"goyal", allow, 0.5, 0.6873},
      {"brogliato", clamp, 0.25, 0.2500},
      {"brogliato", clamp, 0.5, 0.5000},
      {"brogliato", clamp, 0.75, 0.7500},
      {"brogliato", clamp, 0.1, 0.1000},  // overdamped branch (xi > 1)
      {"brogliato", allow, 0.25, 0.0963},
      {"brogliato", allow, 0.5, 0.4363},
      // §2.5 Tsuji / commercial DEM damping
      {"tsuji", allow, 0.1, 0.1000},
      {"tsuji", allow, 0.5, 0.5000},
      {"tsuji", clamp, 0.05, 0.2137},
      {"tsuji", clamp, 0.5, 0.5503},
      {"tsuji", clamp, 0.9, 0.9020},
      {"edem_hertz_mindlin", allow, 0.3, 0.3000},
      {"edem_hertz_mindlin", clamp, 0.25, 0.3608},
      // §2.4 Jankowski
      {"jankowski_piecewise", clamp, 0.25, 0.2414},
      {"jankowski_piecewise", clamp, 0.5, 0.4946},
      {"jankowski_piecewise", clamp, 0.75, 0.7484},
      {"jankowski_piecewise", clamp, 0.9, 0.8997},
      {"jankowski_viscous", clamp, 0.25, 0.0583},
      {"jankowski_viscous", clamp, 0.5, 0.2446},
      {"jankowski_viscous", clamp, 0.9, 0.8095},
      {"jankowski_viscous", allow, 0.5, 0.0892},
      {"jankowski_viscous", allow, 0.75, 0.5122},
      // Piecewise plastic laws: exact by construction (docs/contact-laws.md, hysteresis).
      {"lankarani_nikravesh_plastic", clamp, 0.3, 0.3},
      {"lankarani_nikravesh_plastic", clamp, 0.8, 0.8},
      {"gharib_hurmuzlu_plastic", clamp, 0.5, 0.5},
      {"valles_reinhorn", clamp, 0.4, 0.4},
      // chaindem's equivalent-oscillator law: exact without tension by construction.
      {"equivalent_oscillator_viscous", clamp, 0.2, 0.2},
      {"equivalent_oscillator_viscous", clamp, 0.7, 0.7},
  };
  for (const Row& r : rows) {
    const ImpactResult x = scaled_impact(r.id, r.c_r, r.tension);
    EXPECT_NEAR(x.restitution, r.e_out, 6e-4)
        << r.id << " c_r = " << r.c_r << " " << to_string(r.tension);
  }
  // jankowski_viscous with tension at c_r = 0.25: no return to delta = 0 (§2.4).
  EXPECT_FALSE(scaled_impact("jankowski_viscous", 0.25, allow).separated);
}

// §0.6: with n = 3/2 the restitution of K delta^n + chi delta^m v depends on v0 unless
// m = 1/4; 1 - e grows like v0^((1 - n + 2m)/(n + 1)) while the dissipation is small.
TEST(LawRestitution, VelocityDependenceOfViscousLaws) {
  const PairInput in = steel_pair();
  auto e_at = [&](std::string_view id, const LawParams& p, double v0) {
    const LawEntry& l = law(id);
    ImpactOptions o;
    o.tension = TensionPolicy::allow;
    return simulate_impact(l, l.prepare(l, in, p), in.effective_mass, v0, o).restitution;
  };
  struct Row {
    const char* id;
    LawParams params;
    double exponent;
  };
  const Row rows[] = {{"kuwabara_kono", {{"eta1", 2e4}, {"eta2", 1e4}}, 0.2},
                      {"schwager_poschel", {{"damping_coefficient", 0.5}}, 0.32},
                      {"ristow", {{"damping_coefficient", 20.0}}, 0.6}};
  for (const Row& r : rows) {
    const double e1 = e_at(r.id, r.params, 0.1), e2 = e_at(r.id, r.params, 1.0);
    ASSERT_LT(1 - e1, 0.02) << r.id;  // small dissipation, where the power law holds
    EXPECT_NEAR(std::log((1 - e2) / (1 - e1)) / std::log(10.0), r.exponent, 0.01) << r.id;
  }
  // Tsuji (m = 1/4): independent of v0.
  EXPECT_NEAR(e_at("tsuji", {{"restitution", 0.6}}, 0.05),
              e_at("tsuji", {{"restitution", 0.6}}, 5.0), 1e-6);
  EXPECT_NEAR(e_at("equivalent_oscillator_viscous", {{"restitution", 0.6}}, 0.05),
              e_at("equivalent_oscillator_viscous", {{"restitution", 0.6}}, 5.0), 1e-6);
}

// ---- Piecewise plastic laws: history and energy ------------------------------------------------

TEST(PlasticLaws, ContinuityResidualOverlapLoopAreaAndSecondImpact) {
  for (const char* id :
       {"lankarani_nikravesh_plastic", "gharib_hurmuzlu_plastic", "valles_reinhorn"}) {
    const LawEntry& l = law(id);
    const double c = 0.6;
    const PairCoeffs co = l.prepare(l, steel_pair(), {{"restitution", c}, {"stiffness", 5e9}});
    ContactState s;
    const double n = co.exponent;
    // Loading to 1e-5 then unloading: force continuous at the turning point.
    double f_load = 0;
    for (double d = 1e-7; d <= 1e-5; d += 1e-7) f_load = kernel_force(l, co, s, d, 1.0);
    const double d_max = s.max_overlap;
    const double f_unload = kernel_force(l, co, s, d_max * (1 - 1e-12), -1.0);
    EXPECT_NEAR(f_unload, f_load, 1e-9 * f_load) << id;
    // Zero force at (and below) the residual overlap (1 - c^2) delta_max.
    EXPECT_NEAR(s.residual_overlap, (1 - c * c) * d_max, 1e-18) << id;
    EXPECT_EQ(kernel_force(l, co, s, s.residual_overlap, -1.0), 0.0) << id;
    EXPECT_EQ(kernel_force(l, co, s, 0.5 * s.residual_overlap, -1.0), 0.0) << id;
    // Reloading follows the unloading curve back to delta_max, then loads plastically again.
    const double f_reload = kernel_force(l, co, s, 0.9 * d_max, 1.0);
    EXPECT_NEAR(
        f_reload,
        f_load * std::pow((0.9 * d_max - s.residual_overlap) / (d_max - s.residual_overlap), n),
        1e-9 * f_load)
        << id;
    EXPECT_NEAR(kernel_force(l, co, s, 1.1 * d_max, 1.0), co.stiffness * std::pow(1.1 * d_max, n),
                1e-9 * f_load)
        << id;

    // An integrated impact: energy lost = loop area = work of loading - work of unloading.
    ImpactOptions o;
    o.tension = TensionPolicy::clamp;
    o.record = true;
    const double m = 2e-3, v0 = 0.5;
    const ImpactResult first = simulate_impact(l, co, m, v0, o);
    double loop = 0.0;
    for (std::size_t k = 1; k < first.history.size(); ++k) {
      const auto& a = first.history[k - 1];
      const auto& b = first.history[k];
      loop += 0.5 * (a.force + b.force) * (b.overlap - a.overlap);
    }
    EXPECT_NEAR(loop, first.dissipated_energy, 1e-4 * first.dissipated_energy) << id;
    EXPECT_NEAR(first.restitution, c, 1e-6) << id;
    EXPECT_NEAR(first.final_state.residual_overlap, (1 - c * c) * first.max_overlap,
                1e-6 * first.max_overlap)
        << id;
    // A second impact on the same pair starts from the stored plastic state. At the first
    // impact's rebound speed c v0 it only re-loads the flattened surfaces: elastic (e = 1), the
    // force starts past the residual overlap and peaks exactly at the old maximum.
    const ImpactResult second = simulate_impact(l, co, m, c * v0, o, first.final_state);
    EXPECT_NEAR(second.restitution, 1.0, 1e-6) << id;
    EXPECT_NEAR(second.max_overlap, first.max_overlap, 1e-6 * first.max_overlap) << id;
    EXPECT_NEAR(second.final_state.residual_overlap, first.final_state.residual_overlap,
                1e-9 * first.max_overlap)
        << id;
    // At the original speed the surfaces store only c^2 of the energy before the old maximum:
    // the contact loads plastically again past it and the permanent overlap grows.
    const ImpactResult third = simulate_impact(l, co, m, v0, o, first.final_state);
    EXPECT_GT(third.max_overlap, first.max_overlap * (1 + 1e-3)) << id;
    EXPECT_LT(third.restitution, 1.0 - 1e-3) << id;
    EXPECT_GT(third.final_state.residual_overlap, first.final_state.residual_overlap) << id;
  }
}

// ---- Registry and documentation ----------------------------------------------------------------

TEST(LawRegistry, SingularLawsRefuseZeroRestitution) {
  for (const auto& l : all_laws()) {
    const ParamSpec* r = l.find_param("restitution");
    if (!r || !l.damping_factor) continue;
    if (r->admits(0.0)) {
      const double f = l.damping_factor(0.0);
      EXPECT_TRUE(std::isfinite(f)) << l.id << " admits c_r = 0 but its factor is " << f;
    } else {
      const double smallest = r->range.min_inclusive ? r->range.min : r->range.min + 1e-3;
      EXPECT_TRUE(std::isfinite(l.damping_factor(smallest))) << l.id;
    }
  }
  // the CJTAM review's laws that divide by c_r (docs/validation.md#restitution-identity) refuse it.
  for (const char* id :
       {"gonthier", "flores", "gharib_hurmuzlu", "hu_guo", "safaeifar_farshidianfar", "shen",
        "zhang_et_al_2020", "zhao_et_al_2021", "jankowski_piecewise"})
    EXPECT_FALSE(law(id).find_param("restitution")->admits(0.0)) << id;
  EXPECT_FALSE(law("hu_et_al").find_param("restitution")->admits(0.02));
}

// The integration stops where the overlap reaches ImpactOptions::overlap_limit (a radius, for
// `chaindem collide`), and at a state that is not a finite number, instead of returning what
// would follow as a result. Hertz in the scaled frame reaches delta_max = (5/4)^(2/5).
TEST(ImpactStops, AtTheOverlapLimitAndAtAStateThatIsNotFinite) {
  const LawEntry& l = law("hertz");
  const PairCoeffs c = l.prepare(l, PairInput{0.0, 0.0, 1.0}, {{"stiffness", 1.0}});
  const double delta_max = std::pow(1.25, 0.4);
  ImpactOptions o;
  const ImpactResult free = simulate_impact(l, c, 1.0, 1.0, o);
  ASSERT_TRUE(free.separated);
  EXPECT_FALSE(free.too_deep || free.not_finite);
  EXPECT_NEAR(free.max_overlap, delta_max, 1e-9);
  for (const double limit : {0.5 * delta_max, 0.99 * delta_max}) {
    o.overlap_limit = limit;
    const ImpactResult r = simulate_impact(l, c, 1.0, 1.0, o);
    EXPECT_TRUE(r.too_deep) << limit;
    EXPECT_FALSE(r.separated);
    EXPECT_GE(r.max_overlap, limit);
    EXPECT_LT(r.max_overlap, delta_max);
    EXPECT_GT(r.separation_velocity, 0.0);  // stopped while the bodies still approach
  }
  o.overlap_limit = 1.01 * delta_max;
  EXPECT_FALSE(simulate_impact(l, c, 1.0, 1.0, o).too_deep);
  // A stiffness whose product with the mass overflows a double makes Tsuji's damping, which
  // scales with sqrt(K m*), infinite: the integration stops at its first step.
  const LawEntry& tsuji = law("tsuji");
  const PairCoeffs huge =
      tsuji.prepare(tsuji, PairInput{0.0, 0.0, 1e10}, {{"stiffness", 1e300}, {"restitution", 0.5}});
  const ImpactResult r = simulate_impact(tsuji, huge, 1e10, 1e-3, ImpactOptions{});
  EXPECT_TRUE(r.not_finite);
  EXPECT_FALSE(r.separated);
}

// An impact takes a few hundred steps; the cap (ImpactOptions::max_steps) stops one whose law
// needs ever shorter steps, which ran for minutes, and says so.
TEST(ImpactStops, AfterItsMostSteps) {
  const LawEntry& l = law("hertz");
  const PairCoeffs c = l.prepare(l, PairInput{0.0, 0.0, 1.0}, {{"stiffness", 1.0}});
  ImpactOptions o;
  const ImpactResult free = simulate_impact(l, c, 1.0, 1.0, o);
  ASSERT_TRUE(free.separated);
  EXPECT_FALSE(free.too_many_steps);
  EXPECT_GT(free.steps, 10);
  EXPECT_LT(free.steps, 2000);
  o.max_steps = free.steps - 1;
  const ImpactResult capped = simulate_impact(l, c, 1.0, 1.0, o);
  EXPECT_TRUE(capped.too_many_steps);
  EXPECT_FALSE(capped.separated);
  EXPECT_EQ(capped.steps, o.max_steps);
  o.max_steps = free.steps;
  EXPECT_TRUE(simulate_impact(l, c, 1.0, 1.0, o).separated);
}

TEST(LawRegistry, DocumentationMatchesRegistry) {
  std::ifstream in(std::string(CHAINDEM_SOURCE_DIR) + "/docs/contact-laws.md");
  ASSERT_TRUE(in) << "docs/contact-laws.md missing";
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), laws_markdown())
      << "regenerate with: build/chaindem models --markdown > docs/contact-laws.md";
}

// Laws whose damping constant is empirical have no restitution in the sources: their impact is
// checked against a plain fixed-step RK4 integration of m* x'' = -F written here, independent of
// the library's adaptive integrator (same force formula, typed again).
TEST(LawRestitution, EmpiricalViscousLawsAgainstIndependentIntegration) {
  const PairInput in = steel_pair();
  const double kh = 4.0 / 3.0 * in.effective_modulus * std::sqrt(in.effective_radius);
  const double m = in.effective_mass, v0 = 0.8;
  const double nu = 0.3, E = 200e9;
  auto chi_kk = [&](double eta1, double eta2) {
    return kh / 2 * std::pow(3 * eta2 - eta1, 2) / (3 * eta2 + 2 * eta1) * (1 - nu * nu) *
           (1 - 2 * nu) / (E * nu * nu);
  };
  const double lnc = std::log(0.6), d_lw = 2 * -lnc * std::sqrt(kh * m / (pi * pi + lnc * lnc));
  struct Case {
    const char* id;
    LawParams params;
    std::function<double(double, double)> force;  // (delta, v)
  };
  const Case cases[] = {
      {"brilliantov",
       {{"eta1", 3e4}, {"eta2", 2e4}},
       [&](double d, double v) {
         return kh * std::pow(d, 1.5) + chi_kk(3e4, 2e4) * std::sqrt(d) * v;
       }},
      {"bordbar_hyppanen",
       {{"damping_coefficient", 3000.0}},
       [&](double d, double v) { return kh * std::pow(d, 1.5) + 3000.0 * std::pow(d, 0.65) * v; }},
      {"lee_herrmann",
       {{"xi", 5e7}},
       [&](double d, double v) { return kh * std::pow(d, 1.5) + m * 5e7 * d * v; }},
      {"schafer",
       {{"damping_coefficient", 1e6}},
       [&](double d, double v) { return kh * std::pow(d, 1.5) + 1e6 * d * v; }},
      {"lee_wang_transition",
       {{"restitution", 0.6}, {"transition_width", 2e-6}, {"shape", 2.0}},
       [&](double d, double v) {
         const double t = d < 2e-6 ? std::exp(-2 * 2.0 * (2e-6 - d) / 2e-6) : 1.0;
         return kh * std::pow(d, 1.5) + t * d_lw * v;
       }},
      {"kelvin_voigt",
       {{"stiffness", 3e7}, {"damping_coefficient", 1.5}},
       [&](double d, double v) { return 3e7 * d + 1.5 * v; }},
  };
  for (const Case& k : cases) {
    const LawEntry& l = law(k.id);
    ImpactOptions o;
    o.tension = TensionPolicy::clamp;
    const ImpactResult r = simulate_impact(l, l.prepare(l, in, k.params), m, v0, o);
    // RK4 with the force clamped at zero, until delta returns to 0.
    const double dt = r.contact_duration / 200000;
    double d = 0, v = v0;
    auto acc = [&](double dd, double vv) {
      return dd > 0 ? -std::max(k.force(dd, vv), 0.0) / m : 0.0;
    };
    for (int s = 0; s < 400000 && !(s > 10 && d <= 0); ++s) {
      const double k1d = v, k1v = acc(d, v);
      const double k2d = v + 0.5 * dt * k1v, k2v = acc(d + 0.5 * dt * k1d, v + 0.5 * dt * k1v);
      const double k3d = v + 0.5 * dt * k2v, k3v = acc(d + 0.5 * dt * k2d, v + 0.5 * dt * k2v);
      const double k4d = v + dt * k3v, k4v = acc(d + dt * k3d, v + dt * k3v);
      d += dt / 6 * (k1d + 2 * k2d + 2 * k3d + k4d);
      v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    }
    ASSERT_TRUE(r.separated) << k.id;
    EXPECT_LT(r.restitution, 0.999) << k.id;  // the damping is not negligible
    EXPECT_NEAR(r.restitution, -v / v0, 2e-4) << k.id;
  }
}
