// Saving a simulation's state and restoring it into a simulation built from the same case: the
// steps after the restore are bitwise identical to those after the save, for elastic, hysteresis
// and elastoplastic laws, on both engines, with walls and a pre-compressed start.

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/engine/state_archive.hpp"
#include "test_support.hpp"

namespace chaindem {
namespace {

// Eight steel beads (yield stress for the plastic laws) against an end wall, struck at 2 m/s.
std::string chain_case(const std::string& contact, const std::string& extra = "") {
  return "[simulation]\nduration = 4e-4\nsteps_per_contact = 40\n"
         "[contact]\n" +
         contact +
         "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
         "yield_stress = 4e8\n"
         "[chain]\ncount = 8\nmaterials = steel\nradii = 0.005\n" +
         extra +
         "[striker]\nvelocity = 2\ngap = 1e-5\n"
         "[wall_end]\nenabled = true\nmaterial = steel\ngap = 2e-5\n";
}

// Bitwise equality of two columns of trivially copyable values (NaN equal to itself).
template <class Column>
bool same_bits(const Column& a, const Column& b) {
  return a.size() == b.size() &&
         (a.empty() ||
          std::memcmp(a.data(), b.data(), a.size() * sizeof(typename Column::value_type)) == 0);
}
template <class Derived>
std::vector<double> values(const Eigen::DenseBase<Derived>& a) {
  const auto& plain = a.derived();
  return {plain.data(), plain.data() + plain.size()};
}

// Everything the two simulations can be told apart by.
void expect_identical(const Simulation& a, const Simulation& b, const std::string& what) {
  EXPECT_EQ(a.step_count(), b.step_count()) << what;
  EXPECT_EQ(a.time(), b.time()) << what;
  const Particles &pa = a.particles(), &pb = b.particles();
  EXPECT_TRUE(same_bits(values(pa.position), values(pb.position))) << what << ": positions";
  EXPECT_TRUE(same_bits(values(pa.velocity), values(pb.velocity))) << what << ": velocities";
  EXPECT_TRUE(same_bits(values(pa.force), values(pb.force))) << what << ": forces";
  for (auto [la, lb] : {std::pair{&a.pair_contacts(), &b.pair_contacts()},
                        std::pair{&a.wall_contacts(), &b.wall_contacts()}}) {
    auto ca = const_cast<ContactList*>(la)->columns();
    auto cb = const_cast<ContactList*>(lb)->columns();
    std::vector<int> differing;
    int k = 0;
    auto check = [&](const auto& x, const auto& y) {
      if (!same_bits(x, y)) differing.push_back(k);
      ++k;
    };
    std::apply([&](auto&... x) { std::apply([&](auto&... y) { (check(x, y), ...); }, cb); }, ca);
    EXPECT_TRUE(differing.empty()) << what << ": contact columns differ, first "
                                   << (differing.empty() ? -1 : differing.front());
  }
  const EnergyReport ea = a.energies(), eb = b.energies();
  EXPECT_EQ(ea.kinetic, eb.kinetic) << what;
  EXPECT_EQ(ea.stored, eb.stored) << what;
  EXPECT_EQ(ea.dissipated, eb.dissipated) << what;
  EXPECT_EQ(ea.wall_work, eb.wall_work) << what;
  EXPECT_TRUE(same_bits(values(a.peak_contact_force()), values(b.peak_contact_force()))) << what;
  EXPECT_TRUE(same_bits(values(a.peak_velocity_x()), values(b.peak_velocity_x()))) << what;
  EXPECT_EQ(a.impact_velocity_floor_hits(), b.impact_velocity_floor_hits()) << what;
  EXPECT_EQ(a.neighbor_rebuilds(), b.neighbor_rebuilds()) << what;
}

// Runs `before` steps, saves, runs `after` more; a second simulation of the same case restores
// the save and runs `after` steps: both must agree in every bit, and the run must have done
// something worth checking (contacts touched, energy dissipated where the law dissipates).
void check_restart(const std::string& ini, const std::vector<std::string>& overrides,
                   std::int64_t before, std::int64_t after, const std::string& what) {
  const RunSetup setup = test::setup_from(ini, overrides);
  Simulation original(setup.scene, setup.settings);
  original.track_extremes();
  original.advance(before);
  StateArchive saved;
  original.save_state(saved);
  original.advance(after);

  Simulation restored(setup.scene, setup.settings);
  restored.track_extremes();
  restored.restore_state(saved);
  EXPECT_EQ(restored.step_count(), before) << what;
  restored.advance(after);
  expect_identical(original, restored, what);
  // The save must fall inside the action, not before the first impact or after the last.
  EXPECT_GT(original.peak_contact_force().maxCoeff(), 0.0) << what;
}

struct LawCase {
  const char* name;
  std::string contact;
};

const std::vector<LawCase> law_cases{
    {"elastic", "law = hertz\n"},
    {"hysteresis", "law = lankarani_nikravesh\nrestitution = 0.7\n"},
    {"viscous", "law = edem_hertz_mindlin\nrestitution = 0.8\n"},
    {"elastoplastic", "law = thornton_1997\n"},
};

TEST(Checkpoint, RestoredChainContinuesBitwise) {
  for (const LawCase& c : law_cases)
    for (const std::string engine : {"chain", "general"})
      check_restart(chain_case(c.contact), {"simulation.engine=" + engine}, 700, 900,
                    std::string(c.name) + " on the " + engine + " engine");
}

TEST(Checkpoint, RestoredStateAnyThreadCount) {
  // The restored run may use another number of threads: results do not depend on it.
  for (const std::string engine : {"chain", "general"})
    check_restart(chain_case("law = hunt_crossley\nrestitution = 0.6\n"),
                  {"simulation.engine=" + engine, "simulation.threads=2"}, 500, 500,
                  "hunt_crossley on 2 threads, " + engine);
}

TEST(Checkpoint, PrecompressedChainKeepsItsDampingOrigin) {
  for (const std::string engine : {"chain", "general"})
    check_restart(chain_case("law = lankarani_nikravesh\nrestitution = 0.5\n", "overlap = 2e-7\n"),
                  {"simulation.engine=" + engine}, 300, 1100, "pre-compressed, " + engine);
}

TEST(Checkpoint, GeneralEngineKeepsItsNeighborStructureAndDormantHistories) {
  // Two walls and a bead bouncing between them: pairs and wall contacts leave the neighbor
  // structure and come back with their plastic history.
  const std::string ini = test::bead_between_walls("law = thornton_1997\n");
  std::string with_yield = ini;
  with_yield.replace(with_yield.find("density = 7800\n"), 15,
                     "density = 7800\nyield_stress = 4e8\n");
  const RunSetup setup = test::setup_from(with_yield, {"simulation.engine=general"});
  Simulation probe(setup.scene, setup.settings);
  probe.advance(3000);
  ASSERT_GT(probe.neighbor_rebuilds(), 3);  // the structure changes during the run
  check_restart(with_yield, {"simulation.engine=general"}, 3000, 4000, "bead between walls");
}

TEST(Checkpoint, ARestoreIntoAnotherCaseIsRefused) {
  const RunSetup small = test::setup_from(chain_case("law = hertz\n"));
  Simulation a(small.scene, small.settings);
  a.advance(10);
  StateArchive saved;
  a.save_state(saved);
  const RunSetup other = test::setup_from(chain_case("law = hertz\n"), {"chain.count=9"});
  Simulation b(other.scene, other.settings);
  try {
    b.restore_state(saved);
    FAIL() << "restored 9 particles from a save of 10";
  } catch (const StateArchiveError& e) {
    EXPECT_NE(std::string(e.what()).find("checkpoint holds 9 particles; this case has 10"),
              std::string::npos)
        << e.what();
  }
  const RunSetup general =
      test::setup_from(chain_case("law = hertz\n"), {"simulation.engine=general"});
  Simulation c(general.scene, general.settings);
  EXPECT_THROW(c.restore_state(saved), StateArchiveError);
}

}  // namespace
}  // namespace chaindem
