// The energy books: the stored energy of a pre-compressed start belongs to the initial energy,
// the dissipated energy is the work of the damping (0 for an undamped law, never decreasing),
// and kinetic + stored + dissipated + external potential - wall work stays the initial energy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chaindem/setup/case_file.hpp"
#include "test_support.hpp"

using namespace chaindem;
using namespace chaindem::test;

namespace {

// A shipped case; [contact] keys the chosen law does not take are ignored (as compare does).
Simulation from_case(const std::string& name, const std::vector<std::string>& overrides) {
  RunSetup run =
      build_run(CaseConfig::load(std::string(CHAINDEM_SOURCE_DIR) + "/cases/" + name, overrides),
                {.ignore_foreign_law_params = true});
  return Simulation(std::move(run.scene), run.settings);
}

}  // namespace

// cases/precompressed_chain.ini with an undamped law: at the start the energy is the striker's
// kinetic energy plus what the 30 compressed contacts store, the external potential is 0 and
// nothing is dissipated; afterwards nothing is dissipated either, exactly, and the balance holds
// to the integrator's error.
TEST(EnergyBooks, PrecompressedElasticChainDissipatesNothing) {
  Simulation sim = from_case("precompressed_chain.ini", {"contact.law=hertz"});
  const EnergyReport e0 = sim.energies();
  const Particles& p = sim.particles();
  EXPECT_EQ(e0.dissipated, 0.0);
  EXPECT_EQ(e0.external_potential, 0.0);
  EXPECT_NEAR(e0.kinetic, 0.5 * p.mass(0) * 0.25, 1e-15);  // the striker at 0.5 m/s
  EXPECT_GT(e0.stored, 2.0 * e0.kinetic);                  // 50 N on 30 contacts: 2.1 mJ
  EXPECT_EQ(e0.balance(), e0.kinetic + e0.stored);
  while (sim.time() < 1e-3) {
    sim.advance(50);
    const EnergyReport e = sim.energies();
    ASSERT_EQ(e.dissipated, 0.0) << sim.time();
    EXPECT_NEAR(e.balance(), e0.balance(), 1e-4 * e0.balance()) << sim.time();
  }
}

// The shipped case (Tsuji's damping): the dissipated energy starts at 0, never decreases, step
// by step, and equals the energy the motion lost, to the integrator's error.
TEST(EnergyBooks, PrecompressedDampedChainDissipationIsTheDampingWork) {
  for (const char* steps : {"50", "800"}) {
    Simulation sim = from_case("precompressed_chain.ini",
                               {std::string("simulation.steps_per_contact=") + steps});
    const EnergyReport e0 = sim.energies();
    EXPECT_EQ(e0.dissipated, 0.0);
    double last = 0.0;
    while (sim.time() < 1e-3) {
      sim.step();
      const double d = sim.energies().dissipated;
      ASSERT_GE(d, last) << sim.time();
      last = d;
    }
    const EnergyReport e = sim.energies();
    EXPECT_GT(e.dissipated, 0.1 * e0.kinetic);
    // What the motion lost: the initial energy less what is still kinetic, stored, potential.
    const double lost = e0.balance() - (e.kinetic + e.stored + e.external_potential - e.wall_work);
    EXPECT_NEAR(e.dissipated, lost, (std::string(steps) == "50" ? 2e-3 : 1e-5) * e0.kinetic)
        << steps;
  }
}

// The default case (clamped commercial-DEM damping, touching beads, a wall): dissipation from 0,
// never decreasing, and the balance closing at second order in the step.
TEST(EnergyBooks, DefaultCaseBalanceClosesAtSecondOrder) {
  auto worst = [](const std::string& steps) {
    Simulation sim = from_case("default.ini", {"simulation.steps_per_contact=" + steps});
    const double e0 = sim.energies().balance();
    double last = 0.0, error = 0.0;
    while (sim.time() < 1e-3) {
      sim.advance(1);
      const EnergyReport e = sim.energies();
      EXPECT_GE(e.dissipated, last);
      last = e.dissipated;
      error = std::max(error, std::abs(e.balance() - e0) / e0);
    }
    return error;
  };
  const double e50 = worst("50"), e100 = worst("100"), e200 = worst("200");
  EXPECT_LT(e50, 2e-3);
  EXPECT_NEAR(e50 / e100, 4.0, 1.0);
  EXPECT_NEAR(e100 / e200, 4.0, 1.0);
}
