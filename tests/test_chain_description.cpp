// Chains described compactly (chain.materials, chain.radii, chain.velocity as lists along the
// chain): each written form builds the chain it names, and beads given a velocity move as
// mechanics says they must.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "test_support.hpp"

using namespace chaindem;
using namespace chaindem::test;

namespace {

const std::string media =
    "[simulation]\nduration = 2e-4\n"
    "[contact]\nlaw = hertz\n"
    "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
    "[material.ptfe]\nyoungs_modulus = 0.5e9\npoisson_ratio = 0.46\ndensity = 2200\n"
    "[chain]\ncount = 10\nmaterials = steel\nradii = 0.005\n"
    "[striker]\nvelocity = 1\n";

// The material name and radius of every chain bead.
std::vector<std::pair<std::string, double>> beads_of(const RunSetup& run) {
  std::vector<std::pair<std::string, double>> out;
  const Particles& p = run.scene.particles;
  for (Eigen::Index k = 0; k < run.scene.chain_count; ++k) {
    const Eigen::Index i = run.scene.chain_first + k;
    out.emplace_back(run.scene.materials[static_cast<std::size_t>(p.material[i])].name,
                     p.radius(i));
  }
  return out;
}

}  // namespace

// Every compact form gives the chain its explicit list gives, bead for bead.
TEST(ChainDescription, CompactFormsBuildTheChainsTheyName) {
  const auto explicit_chain = [](const std::string& materials, const std::string& radii) {
    return beads_of(setup_from(media, {"chain.materials=" + materials, "chain.radii=" + radii}));
  };
  EXPECT_EQ(explicit_chain("steel*5 ptfe*5", "0.005"),
            explicit_chain("steel steel steel steel steel ptfe ptfe ptfe ptfe ptfe", "0.005"));
  EXPECT_EQ(explicit_chain("(steel ptfe)*5", "0.005*2 0.004*2"),
            explicit_chain("steel ptfe", "0.005 0.005 0.004 0.004"));
  EXPECT_EQ(explicit_chain("steel 4=ptfe -1=ptfe", "0.005 4=0.003"),
            explicit_chain("steel*4 ptfe steel*4 ptfe", "0.005*4 0.003 0.005*5"));
}

// A bead given a velocity carries it into the chain: two equal elastic beads exchange their
// velocities (a Newton's cradle of two), to the integration's accuracy.
TEST(ChainDescription, BeadVelocitiesStartTheMotion) {
  Simulation sim = simulation_from(
      media, {"striker.enabled=false", "chain.count=2", "chain.velocity=0.5 0", "chain.gap=1e-5"});
  ASSERT_EQ(sim.particles().velocity(0, 0), 0.5);
  ASSERT_EQ(sim.particles().velocity(1, 0), 0.0);
  sim.advance(static_cast<std::int64_t>(2e-4 / sim.time_step()));
  EXPECT_NEAR(sim.particles().velocity(0, 0), 0.0, 1e-6);
  EXPECT_NEAR(sim.particles().velocity(1, 0), 0.5, 1e-6);
  // Beads moving together towards a wall: the column's momentum before the wall is n m v.
  Simulation column = simulation_from(
      media, {"striker.enabled=false", "chain.velocity=-0.2", "wall_start.enabled=true",
              "wall_start.material=steel", "wall_start.gap=1e-4"});
  const double m = column.particles().mass(0);
  EXPECT_NEAR(column.momentum().x(), -0.2 * 10 * m, 1e-15);
}
