// The registry's elastoplastic rows: each one complete, documented under its group with its
// readings, matched by a reference case of elastoplastic_rows.hpp; the yield stress from the
// materials or the law's parameter, and the input each row refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "elastoplastic_rows.hpp"

using namespace chaindem;
using namespace chaindem::test::elastoplastic;

namespace {

// Every elastoplastic row of the registry, so that a law added to the family is checked here
// without being listed by hand.
std::vector<const LawEntry*> registered_elastoplastic_laws() {
  std::vector<const LawEntry*> out;
  for (const LawEntry& l : all_laws())
    if (l.family == Family::elastoplastic) out.push_back(&l);
  return out;
}

std::string invalid_argument_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ElastoplasticRegistry, RowsAreCompleteAndDocumentTheirReadings) {
  const std::vector<const LawEntry*> registered = registered_elastoplastic_laws();
  ASSERT_FALSE(registered.empty());
  const std::vector<LawRow> reference = cases();
  std::vector<Kernel> kernels;
  const std::string md = laws_markdown();
  const auto piecewise = md.find("## piecewise hysteretic"), ep = md.find("## elastoplastic");
  ASSERT_NE(ep, std::string::npos);
  const auto next_group = md.find("\n## ", ep);
  for (const LawEntry* row : registered) {
    const LawEntry& l = *row;
    const std::string id(l.id);
    // The physics tests of this file run on cases() and test::elastoplastic_laws.
    const auto has_id = [&](const auto& entry) { return entry.id == id; };
    EXPECT_EQ(std::count_if(reference.begin(), reference.end(), has_id), 1)
        << id << ": a registered elastoplastic law needs one reference case in cases()";
    EXPECT_EQ(
        std::count_if(test::elastoplastic_laws.begin(), test::elastoplastic_laws.end(), has_id), 1)
        << id << ": a registered elastoplastic law needs one row in test::elastoplastic_laws";
    EXPECT_EQ(l.tension, TensionPolicy::clamp) << id;
    EXPECT_EQ(l.damping_factor, nullptr) << id;
    EXPECT_FALSE(l.uses_impact_velocity()) << id;
    EXPECT_FALSE(l.citation.empty()) << id;
    EXPECT_FALSE(l.formula.empty()) << id;
    EXPECT_GT(l.notes.size(), 100u) << id;
    const bool documents_reading = l.notes.find("reading") != std::string_view::npos ||
                                   l.notes.find("misprint") != std::string_view::npos;
    EXPECT_TRUE(documents_reading) << id;
    kernels.push_back(l.kernel);
    const ParamSpec* y = l.find_param("yield_stress");
    ASSERT_NE(y, nullptr) << id;
    EXPECT_EQ(y->unit, "Pa");
    EXPECT_FALSE(y->default_value.has_value());
    EXPECT_FALSE(y->default_text.empty());
    for (const ParamSpec& p : l.params) {
      EXPECT_FALSE(p.unit.empty()) << id << "." << p.key;
      EXPECT_GT(p.description.size(), 20u) << id << "." << p.key;
      if (p.default_value) {
        EXPECT_TRUE(p.admits(*p.default_value)) << id << "." << p.key;
      }
    }
    for (const auto& u : unimplemented_laws()) EXPECT_NE(u.id, l.id);
    // Documented under the group's own heading.
    const auto heading = md.find("### `" + id + "`");
    EXPECT_LT(ep, heading) << id;
    EXPECT_LT(heading, next_group) << id;
  }
  std::sort(kernels.begin(), kernels.end());
  EXPECT_EQ(std::unique(kernels.begin(), kernels.end()), kernels.end());
  EXPECT_EQ(to_string(Family::elastoplastic), "elastoplastic");
  // Sources of the defaults are stated.
  EXPECT_NE(law("stronge_2000").find_param("theta_y")->description.find("default 1.1"),
            std::string_view::npos);
  EXPECT_NE(law("kogut_etsion_2002").find_param("residual_fraction")->default_text.find("fit"),
            std::string_view::npos);
  // The group comes after the piecewise laws.
  EXPECT_LT(piecewise, ep);
  // And the reverse: every reference is a registered elastoplastic law.
  for (const LawRow& k : reference) EXPECT_EQ(law(k.id).family, Family::elastoplastic) << k.id;
  for (const test::ElastoplasticLaw& t : test::elastoplastic_laws)
    EXPECT_EQ(law(t.id).family, Family::elastoplastic) << t.id;
}

TEST(ElastoplasticRegistry, YieldStressFromMaterialsOrParameterAndInvalidInput) {
  for (const LawRow& k : cases()) {
    const LawEntry& l = law(k.id);
    const LawParams p = resolved(l, k.params);
    // No yield stress anywhere: a clear message naming the remedy.
    const std::string m = invalid_argument_message([&] { l.prepare(l, steel(0.0), p); });
    EXPECT_NE(m.find("yield_stress"), std::string::npos) << k.id << ": " << m;
    EXPECT_NE(m.find(k.id), std::string::npos) << m;
    // The parameter gives the same pair as the materials, and overrides them.
    LawParams with = p;
    with["yield_stress"] = sigma;
    EXPECT_EQ(l.prepare(l, steel(0.0), with).yield_overlap, coeffs(k).yield_overlap) << k.id;
    with["yield_stress"] = 2.0 * sigma;
    EXPECT_NEAR(l.prepare(l, steel(), with).yield_overlap, 4.0 * coeffs(k).yield_overlap,
                1e-12 * coeffs(k).yield_overlap)
        << k.id;
    // No materials: E* and R* missing.
    EXPECT_FALSE(invalid_argument_message([&] {
                   l.prepare(l, PairInput{0.0, 0.0, 1.0}, p);
                 }).empty())
        << k.id;
  }
  // Vu-Quoc & Zhang refuses K_c for which delta(F) is not increasing.
  const LawEntry& vqz = law("vu_quoc_zhang_2002");
  const std::string m = invalid_argument_message([&] {
    vqz.prepare(vqz, steel(), resolved(vqz, {{"k_c", 10.0 / fy16}, {"c_a", 0.0}}));
  });
  EXPECT_NE(m.find("k_c"), std::string::npos) << m;
  // Burgoyne & Daraio refuses a c2 that makes the fully plastic force negative.
  const LawEntry& bd = law("burgoyne_daraio_2014");
  const std::string m2 = invalid_argument_message([&] {
    bd.prepare(bd, steel(), params_of("burgoyne_daraio_2014", {{"c2", -1.0}}));
  });
  EXPECT_NE(m2.find("c2"), std::string::npos) << m2;
}
