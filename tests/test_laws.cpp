// Contact-law kernels against their formulas as the source papers print them (docs/contact-laws.md
// names each source), computed independently here.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <set>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/contact_law.hpp"
#include "test_support.hpp"

using namespace chaindem;
using chaindem::test::law;

namespace {

// A steel-like pair (E* = 1.0989e11 Pa, R* = 2.5 mm, m* = 2.04 g).
const PairInput pair{200e9 / (2.0 * (1.0 - 0.09)), 0.0025, 2.04e-3};

double evaluate(const LawEntry& law, const LawParams& params, double delta, double rate,
                double impact_velocity) {
  const PairCoeffs c = law.prepare(law, pair, params);
  ContactState s;
  s.impact_velocity = impact_velocity;
  return with_kernel(law.kernel, [&](auto k) { return decltype(k)::force(c, s, delta, rate); });
}

}  // namespace

TEST(Registry, EveryLawIsFullyDeclared) {
  std::set<std::string_view> ids;
  for (const auto& l : all_laws()) {
    EXPECT_TRUE(ids.insert(l.id).second) << "duplicate " << l.id;
    EXPECT_FALSE(l.citation.empty()) << l.id;
    EXPECT_FALSE(l.formula.empty()) << l.id;
    EXPECT_EQ(find_law(l.id), &l);
    for (const auto& p : l.params) {
      EXPECT_FALSE(p.unit.empty()) << l.id << "." << p.key;
      EXPECT_FALSE(p.description.empty()) << l.id << "." << p.key;
      if (p.default_value) {
        EXPECT_TRUE(p.admits(*p.default_value)) << l.id << "." << p.key;
      }
    }
    // A damping factor is a function of the restitution, so the law must take one; every
    // hysteresis law has a factor, and only laws with v0 in the damping term take a floor.
    if (l.damping_factor) {
      EXPECT_NE(l.find_param("restitution"), nullptr) << l.id;
    }
    if (l.family == Family::hysteresis) {
      EXPECT_NE(l.damping_factor, nullptr) << l.id;
    }
    EXPECT_EQ(l.find_param("impact_velocity_floor") != nullptr, l.uses_impact_velocity()) << l.id;
  }
  // The laws the engine must provide.
  for (const char* id : {"hooke", "hertz", "hunt_crossley", "lankarani_nikravesh", "flores",
                         "tsuji", "edem_hertz_mindlin"})
    EXPECT_NE(find_law(id), nullptr) << id;
  EXPECT_EQ(find_law("no_such_law"), nullptr);
}

// A name from another code points at a law chaindem has, and is not itself one (it would then
// be read as that law, never reach the message that names its meaning).
TEST(Registry, NamesFromOtherCodesNameLawsAndAreNoneThemselves) {
  for (const ForeignLawName& f : foreign_law_names()) {
    EXPECT_NE(find_law(f.id), nullptr) << f.name;
    EXPECT_EQ(find_law(f.name), nullptr) << f.name;
    EXPECT_NE(unknown_law_text(f.name).find(std::string(f.id)), std::string::npos) << f.name;
  }
}

TEST(ElasticLaws, ForceMatchesFormula) {
  EXPECT_DOUBLE_EQ(evaluate(law("hooke"), {{"stiffness", 3e6}}, 2e-5, 0.3, 0.0), 3e6 * 2e-5);
  const double k = 4.0 / 3.0 * pair.effective_modulus * std::sqrt(pair.effective_radius);
  EXPECT_NEAR(evaluate(law("hertz"), {}, 1e-5, 0.3, 0.0), k * std::pow(1e-5, 1.5), 1e-9);
  // A given stiffness overrides the material one (Skrinjar et al.'s (2018) K = 5.2e9 N/m^1.5).
  EXPECT_NEAR(evaluate(law("hertz"), {{"stiffness", 5.2e9}}, 1e-4, 0.0, 0.0),
              5.2e9 * std::pow(1e-4, 1.5), 1e-9);
}

// The software form of commercial DEM codes, written here as LIGGGHTS writes it, and its
// identity with the CJTAM review's Tsuji row (docs/validation.md#edem-damping: equal to round-off).
TEST(ViscousLaws, EdemHertzMindlinEqualsSoftwareFormAndTsuji) {
  for (double c_r : {0.05, 0.3, 0.7, 0.99}) {
    for (double d : {1e-7, 3e-6, 2e-5}) {
      for (double v : {-0.8, 0.0, 0.5}) {
        const double e_star = pair.effective_modulus, r_star = pair.effective_radius;
        const double beta = std::log(c_r) / std::sqrt(std::log(c_r) * std::log(c_r) +
                                                      std::numbers::pi * std::numbers::pi);
        const double s_n = 2.0 * e_star * std::sqrt(r_star * d);
        // Software sign convention: v_n = -v (positive when separating), F_d = -2 sqrt(5/6) beta
        // sqrt(S_n m*) v_n ... with beta <= 0 that is a force opposing the motion.
        const double v_n = -v;
        const double f_d =
            2.0 * std::sqrt(5.0 / 6.0) * beta * std::sqrt(s_n * pair.effective_mass) * v_n;
        const double software = 4.0 / 3.0 * e_star * std::sqrt(r_star) * std::pow(d, 1.5) + f_d;
        const double edem = evaluate(law("edem_hertz_mindlin"), {{"restitution", c_r}}, d, v, 0.0);
        const double tsuji = evaluate(law("tsuji"), {{"restitution", c_r}}, d, v, 0.0);
        const double scale = std::abs(software) + 1e-3;
        EXPECT_NEAR(edem, software, 1e-13 * scale);
        EXPECT_NEAR(edem, tsuji, 1e-13 * scale);
      }
    }
  }
  // beta(0) = -1 as a limit, beta(1) = 0.
  EXPECT_EQ(restitution_beta(0.0), -1.0);
  EXPECT_EQ(restitution_beta(1.0), 0.0);
}

TEST(ContactTime, ElasticClosedForms) {
  // Hertz: t_c = 2.943275 delta_max/v (docs/validation.md#hertz-impact).
  const double m = 4.6, k = 5.2e9, v = 0.3;
  EXPECT_NEAR(elastic_contact_time(k, 1.5, m, v), 9.7920e-4, 1e-8);
  // Linear: pi sqrt(m/K), independent of v.
  EXPECT_NEAR(elastic_contact_time(1e7, 1.0, m, 2.0), std::numbers::pi * std::sqrt(m / 1e7), 1e-12);
}

TEST(ParamSpec, RangesAreEnforced) {
  const ParamSpec* r = law("flores").find_param("restitution");
  ASSERT_NE(r, nullptr);
  EXPECT_FALSE(r->admits(0.0));  // singular at c_r = 0
  EXPECT_TRUE(r->admits(1.0));
  EXPECT_FALSE(r->admits(1.01));
  EXPECT_EQ(r->range_text(), "(0, 1]");
  EXPECT_TRUE(law("hunt_crossley").find_param("restitution")->admits(0.0));
}

// What the registry says each law returns for one impact (docs/contact-laws.md, "restitution
// achieved"): the hysteresis laws' restitution follows from their damping factor alone, through
// the family's exact identity (1 + e) alpha = ln((1 + alpha)/(1 - alpha e)), whatever the bodies;
// gonthier_exact's alpha is the identity's root, so it returns c_r itself. A law without c_r has
// no line.
TEST(ReferenceRestitution, FollowsTheHysteresisIdentity) {
  for (const double c_r : reference_restitutions) {
    const double hunt_crossley = *reference_restitution(*find_law("hunt_crossley"), c_r);
    EXPECT_NEAR(hunt_crossley, test::identity_restitution(1.5 * (1.0 - c_r)), 1e-6) << c_r;
    EXPECT_NEAR(*reference_restitution(*find_law("gonthier_exact"), c_r), c_r, 1e-6) << c_r;
  }
  EXPECT_FALSE(reference_restitution(*find_law("hertz"), 0.5));
  EXPECT_EQ(reference_restitution_text(*find_law("hertz")), "");
  const std::string text = reference_restitution_text(*find_law("hunt_crossley"));
  EXPECT_NE(text.find("c_r = 0.5 gives e = 0.663"), std::string::npos) << text;
  EXPECT_NE(text.find("does not return its c_r"), std::string::npos) << text;
  EXPECT_NE(reference_restitution_text(*find_law("gonthier_exact")).find("the law returns its c_r"),
            std::string::npos);
}
