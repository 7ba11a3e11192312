// Neighbor search against brute force, and contacts that open, fly apart and close again.
#include <gtest/gtest.h>

#include <random>

#include "chaindem/engine/neighbor_search.hpp"
#include "test_support.hpp"

using namespace chaindem;

TEST(NeighborSearch, MatchesBruteForceOffAxis) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> along(0.0, 0.5), across(-0.01, 0.01), rad(0.001, 0.006);
  const int n = 400;
  Vec3Array x(n, 3);
  Eigen::ArrayXd r(n);
  for (int i = 0; i < n; ++i) {
    x(i, 0) = along(rng);
    x(i, 1) = across(rng);
    x(i, 2) = i % 7 == 0 ? 0.05 + across(rng) : across(rng);  // some far off the axis
    r(i) = rad(rng);
  }
  const double skin = 0.001;
  std::vector<std::pair<int, int>> brute;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      const double d = std::sqrt((x.row(i) - x.row(j)).square().sum());
      if (d < r(i) + r(j) + skin) brute.emplace_back(i, j);
    }
  EXPECT_GT(brute.size(), 100u);
  EXPECT_EQ(find_particle_pairs(x, r, skin), brute);
}

TEST(NeighborSearch, WallPairs) {
  Vec3Array x(3, 3);
  x << -0.05, 0, 0, 0.0105, 0, 0, 0.001, 0, 0;
  Eigen::ArrayXd r = Eigen::ArrayXd::Constant(3, 0.005);
  Wall w;
  w.point = Eigen::Vector3d(0.02, 0, 0);
  w.normal = Eigen::Vector3d(-1, 0, 0);  // particles are at x < 0.02
  const std::vector<std::pair<int, int>> expected{{1, 0}};
  EXPECT_EQ(find_wall_pairs(x, r, {w}, {Eigen::Vector3d::Zero()}, 0.005), expected);
}

// A bead bounces between two walls far apart: every impact is found again after the pair has
// left and re-entered the neighbor structure, and an elastic law keeps its speed.
TEST(NeighborSearch, RepeatedReContactBetweenWalls) {
  Simulation sim = test::simulation_from(test::bead_between_walls(), {"simulation.engine=general"});
  test::expect_elastic_bounces(sim);
  EXPECT_GT(sim.neighbor_rebuilds(), 10);
}

// A plastic pair that flies apart beyond the skin keeps its permanent overlap: when it meets
// again the contact starts on the flattened surfaces (docs/contact-laws.md, elastoplastic, rule 5).
TEST(NeighborSearch, PlasticHistorySurvivesLeavingTheNeighborList) {
  Simulation sim = test::simulation_from(
      test::bead_between_walls("law = lankarani_nikravesh_plastic\nrestitution = 0.8\n"),
      {"simulation.engine=general"});
  std::vector<double> residual_at_entry;
  bool listed = !sim.pair_contacts().state.empty();
  int departures = 0;
  const auto steps = static_cast<std::int64_t>(0.05 / sim.time_step());
  for (std::int64_t s = 0; s < steps; ++s) {
    sim.step();
    const bool now = !sim.pair_contacts().state.empty();
    if (now && !listed)
      residual_at_entry.push_back(sim.pair_contacts().state_of(0).residual_overlap);
    departures += listed && !now;
    listed = now;
  }
  ASSERT_GE(departures, 2);
  ASSERT_GE(residual_at_entry.size(), 2u);
  // The first departure happened after a plastic impact: the history came back with the pair.
  EXPECT_GT(residual_at_entry[1], 0.0);
  for (std::size_t k = 1; k < residual_at_entry.size(); ++k)
    EXPECT_GE(residual_at_entry[k], residual_at_entry[k - 1]);  // permanent overlap never shrinks
}
