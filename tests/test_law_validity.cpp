// The watch of the contact laws' validity (docs/engine.md, "Validity of the laws"): what each kind
// of contact reaches over a run, the same for both engines, both pair loops and any thread
// count, and against an independent formula; and the bounds each law declares.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "chaindem/engine/law_validity.hpp"
#include "reference_tables.hpp"
#include "test_support.hpp"

namespace chaindem {
namespace {

using test::simulation_from;

constexpr double steel_modulus = 200e9, steel_poisson = 0.3, steel_density = 7800.0;

std::string steel_section(const std::string& name) {
  return "[material." + name + "]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n";
}

// A striker of radius 4 mm at `speed` on one resting bead of 5 mm, both steel: one impact.
std::string two_body_impact(double speed) {
  return "[simulation]\nduration = 1e-4\nsteps_per_contact = 400\n"
         "[contact]\nlaw = hertz\n" +
         steel_section("steel") +
         "[chain]\ncount = 1\nmaterials = steel\nradii = 0.005\n"
         "[striker]\nradius = 0.004\ngap = 1e-6\nvelocity = " +
         test::ini_number(speed) + "\n";
}

// `beads` beads of `materials` (a pattern) at rest and touching, struck at 1.5 m/s, between
// walls; the end wall moves in at `wall_speed` (a contact at the far end from the start).
std::string walled_chain(int beads, const std::string& law, const std::string& materials,
                         double wall_speed = 0.0, const std::string& radii = "0.005") {
  return "[simulation]\nduration = 1e-3\nsteps_per_contact = 60\n"
         "[contact]\nlaw = " +
         law + "\n" + (law == "hertz" ? "" : "restitution = 0.7\n") + steel_section("steel") +
         steel_section("steel2") + "[chain]\ncount = " + std::to_string(beads) +
         "\nmaterials = " + materials + "\nradii = " + radii +
         "\n"
         "[striker]\nvelocity = 1.5\ngap = 1e-5\n"
         "[wall_start]\nenabled = true\nmaterial = steel\ngap = 1e-3\n"
         "[wall_end]\nenabled = true\nmaterial = steel\ngap = 0\nvelocity = " +
         test::ini_number(-wall_speed) + "\n";
}

Simulation run_steps(const std::string& ini, std::vector<std::string> overrides, std::int64_t steps,
                     bool vector_pairs = true) {
  RunSetup run = test::setup_from(ini, overrides);
  run.settings.chain_vector_pairs = vector_pairs;
  Simulation sim(std::move(run.scene), run.settings);
  sim.advance(steps);
  return sim;
}

// Two runs' extremes, kind by kind: the same kinds, and values equal to `tolerance` relative
// (0: the same bits).
void expect_same_extremes(const Simulation& a, const Simulation& b, double tolerance) {
  const std::vector<Simulation::KindExtremes> x = a.contact_extremes(), y = b.contact_extremes();
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    SCOPED_TRACE("kind " + std::to_string(k));
    EXPECT_EQ(x[k].material, y[k].material);
    EXPECT_EQ(x[k].other, y[k].other);
    EXPECT_EQ(x[k].wall, y[k].wall);
    EXPECT_GT(x[k].largest_strain, 0.0);
    if (tolerance == 0.0) {
      EXPECT_EQ(x[k].largest_strain, y[k].largest_strain);
      EXPECT_EQ(x[k].largest_impact_speed, y[k].largest_impact_speed);
    } else {
      EXPECT_NEAR(x[k].largest_strain, y[k].largest_strain, tolerance * x[k].largest_strain);
      EXPECT_NEAR(x[k].largest_impact_speed, y[k].largest_impact_speed,
                  tolerance * x[k].largest_impact_speed + 1e-12);
    }
  }
}

// Hertz's impact of two spheres reaches delta_max = (15 m* v^2 / (16 E* sqrt(R*)))^(2/5)
// (Johnson 1985, chapter 11): the largest strain recorded is delta_max/R*, the impact speed the
// striker's, the peak pressure (2 E*/pi) sqrt(delta_max/R*), on either engine.
TEST(LawValidity, TwoBodyHertzImpactReachesTheAnalyticOverlap) {
  const double v = 2.0, r1 = 0.004, r2 = 0.005;
  const double m1 = steel_density * 4.0 / 3.0 * std::numbers::pi * r1 * r1 * r1;
  const double m2 = steel_density * 4.0 / 3.0 * std::numbers::pi * r2 * r2 * r2;
  const double m_star = m1 * m2 / (m1 + m2), r_star = r1 * r2 / (r1 + r2);
  const double e_star = steel_modulus / (2.0 * (1.0 - steel_poisson * steel_poisson));
  const double delta_max =
      std::pow(15.0 * m_star * v * v / (16.0 * e_star * std::sqrt(r_star)), 0.4);
  for (const std::string engine : {"chain", "general"}) {
    SCOPED_TRACE(engine);
    Simulation sim = simulation_from(two_body_impact(v), {"simulation.engine=" + engine});
    EXPECT_EQ(sim.uses_chain_engine(), engine == "chain");
    sim.advance(static_cast<std::int64_t>(1e-4 / sim.time_step()));
    const std::vector<Simulation::KindExtremes> kinds = sim.contact_extremes();
    ASSERT_EQ(kinds.size(), 1u);
    EXPECT_FALSE(kinds[0].wall);
    EXPECT_NEAR(kinds[0].largest_strain, delta_max / r_star, 1e-3 * delta_max / r_star);
    EXPECT_NEAR(kinds[0].largest_impact_speed, v, 1e-12 * v);
    const std::vector<ValidityCheck> checks = check_validity(sim);
    ASSERT_EQ(checks.size(), 1u);
    EXPECT_EQ(checks[0].contacts, "steel-steel");
    const double p0 = 2.0 * e_star / std::numbers::pi * std::sqrt(delta_max / r_star);
    EXPECT_NEAR(checks[0].largest_pressure, p0, 1e-3 * p0);
    // delta/R* = 0.0084 at 2 m/s: within Hertz's bound, and no yield stress given.
    EXPECT_EQ(checks[0].strain_bound, hertz_strain_bound);
    EXPECT_FALSE(checks[0].left()) << checks[0].exceeded[0];
  }
}

// Both engines evaluate the same overlaps and approach rates (the general one's normal differs
// from +x by an ulp: test_chain_engine.cpp), so their maxima agree to rounding: a dimer chain and
// short chains (the per-pair loop), long uniform chains (the vectorised loop), with walls.
TEST(LawValidity, ChainAndGeneralEnginesRecordTheSameMaxima) {
  for (const std::string law : {"hertz", "hunt_crossley"})
    for (const auto& [beads, radii] :
         {std::pair{30, "0.005, 0.004"}, std::pair{30, "0.005"}, std::pair{300, "0.005"}}) {
      SCOPED_TRACE(law + " " + radii + " " + std::to_string(beads));
      const std::string ini = walled_chain(beads, law, "steel", 0.5, radii);
      const Simulation chain = run_steps(ini, {"simulation.engine=chain"}, 2000);
      const Simulation general = run_steps(ini, {"simulation.engine=general"}, 2000);
      ASSERT_TRUE(chain.uses_chain_engine());
      expect_same_extremes(chain, general, 1e-9);
      EXPECT_GE(chain.contact_extremes().size(), 2u);  // the pairs, the end wall (the start's)
    }
}

// The vectorised loop takes a block's largest overlap; the per-pair loop each pair's: the same
// bits, for a chain of one kind of pair and one of two (materials alike but named apart, so the
// pairs share their coefficients and the vectorised loop takes them all).
TEST(LawValidity, BothPairLoopsRecordTheSameBits) {
  for (const std::string law : {"hertz", "hunt_crossley", "lankarani_nikravesh_plastic"})
    for (const std::string materials : {"steel", "steel steel2"}) {
      SCOPED_TRACE(law + ", " + materials);
      const std::string ini = walled_chain(600, law, materials, 1.0);
      const Simulation vector = run_steps(ini, {}, 3000, true);
      const Simulation scalar = run_steps(ini, {}, 3000, false);
      if (law != "lankarani_nikravesh_plastic") {
        ASSERT_TRUE(vector.uses_vectorised_pairs());
      }
      expect_same_extremes(vector, scalar, 0.0);
      // The striker's pair is steel-steel; with two materials, every other pair steel-steel2;
      // the end wall (and the start wall, if the striker comes back to it).
      EXPECT_GE(vector.contact_extremes().size(), materials == "steel" ? 2u : 3u);
    }
}

// Each thread keeps its own maxima, merged when read: the end wall pushes in from the far end,
// so the last region's thread records the largest strains, the first one's the striker's.
TEST(LawValidity, ThreadCountDoesNotChangeTheMaxima) {
  const std::string ini = walled_chain(20000, "hunt_crossley", "steel", 3.0);
  const Simulation one = run_steps(ini, {"simulation.threads=1"}, 400);
  const Simulation three = run_steps(ini, {"simulation.threads=3"}, 400);
  expect_same_extremes(one, three, 0.0);
  // The general engine: a dimer chain, whose pairs differ in R*, has each pair's strain taken
  // on the force loop's threads.
  const std::string general = walled_chain(5000, "hertz", "steel", 3.0, "0.005, 0.004");
  const Simulation g1 =
      run_steps(general, {"simulation.engine=general", "simulation.threads=1"}, 100);
  const Simulation g2 =
      run_steps(general, {"simulation.engine=general", "simulation.threads=2"}, 100);
  expect_same_extremes(g1, g2, 0.0);
}

// Every law declares where it holds, each stated bound with who states it; the elastic laws on
// Hertz's contact share Hertz's bounds, plastic laws have no yield bound.
TEST(LawValidity, EveryLawDeclaresItsBoundsWithTheirSources) {
  for (const LawEntry& law : all_laws()) {
    SCOPED_TRACE(std::string(law.id));
    const LawValidity& v = law.validity;
    for (const StatedBound* b : {&v.strain, &v.impact_speed, &v.yield_pressure})
      EXPECT_EQ(b->stated(), !b->source.empty());
    EXPECT_EQ(v.restitution.unbounded(), v.restitution_source.empty());
    const bool plastic = law.family == Family::elastoplastic || law.kernel == Kernel::plastic_power;
    if (plastic) {
      EXPECT_FALSE(v.yield_pressure.stated());
    }
    EXPECT_NE(validity_text(v), "");
  }
  EXPECT_EQ(find_law("hertz")->validity.strain.value, 0.02);
  EXPECT_EQ(find_law("hertz")->validity.yield_pressure.value, 1.6);
  EXPECT_EQ(find_law("lankarani_nikravesh")->validity.impact_speed.value, 1e-5);
  EXPECT_FALSE(find_law("lankarani_nikravesh_plastic")->validity.yield_pressure.stated());
  EXPECT_EQ(validity_text(find_law("hooke")->validity), "none stated");
}

}  // namespace
}  // namespace chaindem
