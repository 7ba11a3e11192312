// The engine against physics: analytical Hertz impacts, conservation laws, energy balance.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "chaindem/setup/case_file.hpp"
#include "test_support.hpp"

using namespace chaindem;
using namespace chaindem::test;

namespace {

const auto pairs = [](const Simulation& s) -> const ContactList& { return s.pair_contacts(); };
const auto walls = [](const Simulation& s) -> const ContactList& { return s.wall_contacts(); };

// Skrinjar et al. (Skrinjar et al. 2018) two-sphere experiment: two 9.2 kg spheres, K = 5.2e9
// N/m^1.5, 0.3 m/s. Radius 0.02 m; the density is chosen so that each sphere weighs 9.2 kg.
std::string two_spheres(const std::string& law, double steps_per_contact,
                        const std::string& extra_contact = "") {
  const double density = 9.2 / (4.0 / 3.0 * std::numbers::pi * 0.02 * 0.02 * 0.02);
  return "[simulation]\nduration = 2e-3\nsteps_per_contact = " + std::to_string(steps_per_contact) +
         "\n[contact]\nlaw = " + law + "\nstiffness = 5.2e9\n" + extra_contact +
         "[material.m]\nyoungs_modulus = 70e9\npoisson_ratio = 0.33\ndensity = " +
         std::to_string(density) +
         "\n[chain]\ncount = 1\nmaterials = m\nradii = 0.02\n"
         "[striker]\nvelocity = 0.3\ngap = 1e-6\n";
}

}  // namespace

// docs/validation.md#hertz-impact: delta_max = 9.9807e-5 m, F_max = 5185.0 N, t_c = 9.7920e-4 s.
TEST(HertzImpact, TwoSpheresMatchAnalyticalValues) {
  Simulation sim = simulation_from(two_spheres("hertz", 2000));
  const ImpactRecord r = follow_impact(sim, pairs, 0, 100000);
  // Independent closed form (docs/contact-laws.md, elastic).
  const double m = 4.6, k = 5.2e9, v = 0.3;
  const double d_max = std::pow(5.0 * m * v * v / (4.0 * k), 0.4);
  const double f_max = k * std::pow(d_max, 1.5);
  const double t_c = 2.943275 * d_max / v;
  EXPECT_NEAR(d_max, 9.9807e-5, 1e-8);  // the closed form itself against the printed target
  EXPECT_NEAR(r.max_overlap / d_max, 1.0, 0.005);
  EXPECT_NEAR(r.max_force / f_max, 1.0, 0.005);
  EXPECT_NEAR(r.duration / t_c, 1.0, 0.005);
  EXPECT_NEAR(r.max_force, 5185.0, 0.005 * 5185.0);
  EXPECT_NEAR(r.duration, 9.7920e-4, 0.005 * 9.7920e-4);
  EXPECT_NEAR(-r.separation / r.approach, 1.0, 1e-6);  // elastic: e = 1
}

// Sphere on a fixed wall: R* = R, m* = m, K from E* of sphere and wall.
TEST(HertzImpact, SphereOnWallMatchesAnalyticalValues) {
  const std::string ini =
      "[simulation]\nduration = 1e-3\nsteps_per_contact = 2000\n"
      "[contact]\nlaw = hertz\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[material.glass]\nyoungs_modulus = 70e9\npoisson_ratio = 0.22\ndensity = 2500\n"
      "[chain]\ncount = 1\nmaterials = steel\nradii = 0.005\n"
      "[wall_end]\nenabled = true\nmaterial = glass\ngap = 1e-7\n";
  // The wall approaches the resting bead at 0.5 m/s: in the wall's frame, a bead hitting a fixed
  // wall at 0.5 m/s.
  Simulation sim = simulation_from(ini, {"wall_end.velocity=-0.5"});
  const ImpactRecord r = follow_impact(sim, walls, 0, 1000000);
  const double e_star = 1.0 / ((1 - 0.09) / 200e9 + (1 - 0.22 * 0.22) / 70e9);
  const double k = 4.0 / 3.0 * e_star * std::sqrt(0.005);
  const double m = 7800 * 4.0 / 3.0 * std::numbers::pi * std::pow(0.005, 3);
  const double v = 0.5;
  const double d_max = std::pow(5.0 * m * v * v / (4.0 * k), 0.4);
  EXPECT_NEAR(r.max_overlap / d_max, 1.0, 0.005);
  EXPECT_NEAR(r.max_force / (k * std::pow(d_max, 1.5)), 1.0, 0.005);
  EXPECT_NEAR(r.duration / (2.943275 * d_max / v), 1.0, 0.005);
  // A rigid moving wall reflects the bead: its final speed is 2 x 0.5 m/s in the wall's direction.
  EXPECT_NEAR(sim.particles().velocity(0, 0), -1.0, 1e-6);
}

// Linear spring: t_c = pi sqrt(m*/K), delta_max = v0 sqrt(m*/K).
TEST(HookeImpact, MatchesAnalyticalValues) {
  std::string ini = two_spheres("hooke", 2000);
  Simulation sim = simulation_from(ini, {"contact.stiffness=1e7"});
  const ImpactRecord r = follow_impact(sim, pairs, 0, 100000);
  const double m = 4.6, k = 1e7;
  EXPECT_NEAR(r.duration / (std::numbers::pi * std::sqrt(m / k)), 1.0, 0.002);
  EXPECT_NEAR(r.max_overlap / (0.3 * std::sqrt(m / k)), 1.0, 0.002);
}

namespace {
std::string chain(int beads, const std::string& law, const std::string& contact_extra,
                  double steps_per_contact, double duration) {
  return "[simulation]\nduration = " + std::to_string(duration) +
         "\nsteps_per_contact = " + std::to_string(steps_per_contact) +
         "\n[contact]\nlaw = " + law + "\n" + contact_extra +
         "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
         "[chain]\ncount = " +
         std::to_string(beads) + "\nmaterials = steel\nradii = 0.005\n[striker]\nvelocity = 1.0\n";
}

double relative_momentum_error(const Simulation& sim, double p0) {
  return std::abs(sim.momentum().x() - p0) / std::abs(p0);
}
}  // namespace

// A 50-bead elastic Hertz chain: momentum exact, energy drift bounded by integrator accuracy.
TEST(ElasticChain, ConservesMomentumAndEnergyWhileThePulseCrosses) {
  // The solitary wave travels at about 600 m/s here: 0.8 ms to cross 50 beads of 10 mm.
  Simulation sim = simulation_from(chain(50, "hertz", "", 2000, 1.2e-3));
  const double p0 = sim.momentum().x();
  const double e0 = sim.energies().balance();
  double worst_energy = 0.0, worst_momentum = 0.0;
  const Eigen::Index last = sim.scene().chain_first + sim.scene().chain_count - 1;
  double last_bead_peak = 0.0;
  while (sim.time() < 1.2e-3) {
    sim.advance(100);
    worst_energy = std::max(worst_energy, std::abs(sim.energies().balance() - e0) / e0);
    worst_momentum = std::max(worst_momentum, relative_momentum_error(sim, p0));
    last_bead_peak = std::max(last_bead_peak, sim.particles().velocity(last, 0));
  }
  EXPECT_LT(worst_momentum, 1e-12);
  EXPECT_LT(worst_energy, 1e-6);
  EXPECT_NEAR(sim.energies().dissipated / e0, 0.0, 1e-6);
  // The pulse really crossed: the last bead has moved off at a sizeable speed.
  EXPECT_GT(last_bead_peak, 0.5);
}

// Dissipative chains: initial energy = kinetic + stored + dissipated, for every damped law.
class DissipativeChain : public ::testing::TestWithParam<std::string> {};

TEST_P(DissipativeChain, EnergyBalanceCloses) {
  for (const char* tension : {"clamp", "allow"}) {
    Simulation sim = simulation_from(chain(20, GetParam(), "restitution = 0.8\n", 4000, 4e-4),
                                     {std::string("contact.tension=") + tension});
    const double e0 = sim.energies().balance();
    const double p0 = sim.momentum().x();
    double worst = 0.0;
    while (sim.time() < 4e-4) {
      sim.advance(100);
      worst = std::max(worst, std::abs(sim.energies().balance() - e0) / e0);
    }
    const EnergyReport e = sim.energies();
    EXPECT_GT(e.dissipated, 0.05 * e0) << tension;  // something was really dissipated
    EXPECT_LT(worst, 1e-6) << tension;
    EXPECT_LT(relative_momentum_error(sim, p0), 1e-12) << tension;
  }
}

INSTANTIATE_TEST_SUITE_P(Laws, DissipativeChain,
                         ::testing::Values("edem_hertz_mindlin", "tsuji", "hunt_crossley",
                                           "lankarani_nikravesh", "flores"));

// docs/validation.md#restitution-identity / docs/validation.md#restitution-identity: e_out of the
// hysteresis family at c_r = 0.25 / 0.5 / 0.75, from the exact restitution identity.
TEST(HysteresisImpact, AchievedRestitutionMatchesExactIdentity) {
  struct Row {
    const char* law;
    double c_r, e_out;
  };
  const Row rows[] = {
      {"hunt_crossley", 0.25, 0.5636},
      {"hunt_crossley", 0.5, 0.6630},
      {"hunt_crossley", 0.75, 0.7992},
      {"lankarani_nikravesh", 0.25, 0.6776},
      {"lankarani_nikravesh", 0.5, 0.7252},
      {"lankarani_nikravesh", 0.75, 0.8199},
      {"flores", 0.25, 0.2046},
      {"flores", 0.5, 0.4704},
      {"flores", 0.75, 0.7359},
  };
  for (const Row& row : rows) {
    Simulation sim = simulation_from(
        two_spheres(row.law, 4000, "restitution = " + std::to_string(row.c_r) + "\n"));
    const ImpactRecord r = follow_impact(sim, pairs, 0, 1000000);
    EXPECT_NEAR(-r.separation / r.approach, row.e_out, 1e-3) << row.law << " c_r = " << row.c_r;
  }
}

// docs/validation.md#edem-damping: with tension allowed the EDEM/Tsuji law gives e_out = c_r; with
// the force clamped at zero e_out is higher (0.5503 at c_r = 0.5, 0.3608 at 0.25).
TEST(EdemImpact, RestitutionWithAndWithoutTension) {
  for (const char* law : {"edem_hertz_mindlin", "tsuji"}) {
    for (double c_r : {0.25, 0.5, 0.9}) {
      Simulation sim = simulation_from(
          two_spheres(law, 4000, "restitution = " + std::to_string(c_r) + "\ntension = allow\n"));
      const ImpactRecord r = follow_impact(sim, pairs, 0, 1000000);
      EXPECT_NEAR(-r.separation / r.approach, c_r, 1e-3) << law << " " << c_r;
    }
    const std::pair<double, double> clamped[] = {{0.25, 0.3608}, {0.5, 0.5503}, {0.9, 0.9020}};
    for (auto [c_r, e_out] : clamped) {
      Simulation sim = simulation_from(
          two_spheres(law, 4000, "restitution = " + std::to_string(c_r) + "\ntension = clamp\n"));
      // With the clamp the bodies separate at F = 0 while overlapped; the pair's overlap then
      // closes in free flight, so the separation rate is read when delta reaches 0.
      const ImpactRecord r = follow_impact(sim, pairs, 0, 1000000);
      EXPECT_NEAR(-r.separation / r.approach, e_out, 1e-3) << law << " clamped " << c_r;
    }
  }
}

// Results are bitwise identical for 1 and 2 threads (the force loops run in parallel above a
// few thousand contacts).
TEST(Determinism, BitwiseIdenticalForOneAndTwoThreads) {
  auto run = [](int threads) {
    Simulation sim = simulation_from(
        chain(6000, "hunt_crossley", "restitution = 0.7\n", 50, 1),
        {"simulation.threads=" + std::to_string(threads), "simulation.engine=general"});
    sim.advance(400);
    return sim;
  };
  const Simulation a = run(1), b = run(2);
  ASSERT_EQ(b.settings().threads, 2);
  EXPECT_TRUE((a.particles().position == b.particles().position).all());
  EXPECT_TRUE((a.particles().velocity == b.particles().velocity).all());
  EXPECT_EQ(a.energies().dissipated, b.energies().dissipated);
  EXPECT_GT(a.energies().dissipated, 0.0);
}

// A bead falls under gravity onto a wall and bounces: the balance includes the potential energy.
TEST(Gravity, BouncingBeadEnergyBalance) {
  const std::string ini =
      "[simulation]\nduration = 0.02\nsteps_per_contact = 500\n"
      "[contact]\nlaw = hunt_crossley\nrestitution = 0.6\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 1\nmaterials = steel\nradii = 0.005\n"
      "[wall_start]\nenabled = true\nmaterial = steel\ngap = 1e-4\n"
      "[gravity]\nacceleration = -9.81 0 0\n";
  Simulation sim = simulation_from(ini);
  const double e0 = sim.energies().balance();
  EXPECT_EQ(sim.energies().external_potential, 0.0);  // counted from the initial positions
  double scale = 0.0;  // the largest kinetic energy: what the fall gave the bead
  int hits = 0;
  bool touching = false;
  while (sim.time() < 0.02) {
    sim.advance(10);
    scale = std::max(scale, sim.energies().kinetic);
    const bool now = !sim.wall_contacts().state.empty() && sim.wall_contacts().touching[0];
    if (now && !touching) ++hits;
    touching = now;
  }
  EXPECT_GE(hits, 2);  // it bounced and came back
  EXPECT_GT(sim.energies().dissipated, 0.0);
  EXPECT_LT(std::abs(sim.energies().balance() - e0) / scale, 1e-4);
}

// A moving wall pushes a chain: the work it does enters the balance.
TEST(MovingWall, WorkEntersEnergyBalance) {
  const std::string ini =
      "[simulation]\nduration = 4e-4\nsteps_per_contact = 4000\n"
      "[contact]\nlaw = edem_hertz_mindlin\nrestitution = 0.7\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 10\nmaterials = steel\nradii = 0.005\n"
      "[wall_start]\nenabled = true\nmaterial = steel\nvelocity = 0.5\ngap = 1e-6\n";
  Simulation sim = simulation_from(ini);
  const double e0 = sim.energies().balance();
  sim.advance(static_cast<std::int64_t>(4e-4 / sim.time_step()));
  const EnergyReport e = sim.energies();
  EXPECT_GT(e.wall_work, 0.0);
  EXPECT_LT(std::abs(e.balance() - e0) / e.wall_work, 1e-6);
}

// A chain pre-compressed to its static overlap by the end load is in equilibrium, in both
// layouts: load on the last bead against wall_start, and load on the first bead against wall_end
// (the layout of cases/precompressed_chain.ini, where a striker then hits the loaded chain).
TEST(Precompression, StaticOverlapIsAnEquilibrium) {
  const std::string base =
      "[simulation]\nduration = 1e-4\nsteps_per_contact = 100\n"
      "[contact]\nlaw = hertz\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 8\nmaterials = steel\nradii = 0.005\nend_force = 10\n"
      "static_overlap = true\n";
  for (const std::string layout :
       {"[wall_start]\nenabled = true\nmaterial = steel\n",
        "[wall_end]\nenabled = true\nmaterial = steel\n[striker]\nvelocity = 1\ngap = 0.01\n"}) {
    Simulation sim = simulation_from(base + layout);
    const Eigen::Index first = sim.scene().chain_first;
    for (Eigen::Index i = first; i < first + 8; ++i)
      EXPECT_NEAR(sim.particles().force(i, 0), 0.0, 1e-9) << i << layout;
    sim.advance(1000);  // the striker (if any) is still 10 mm away
    EXPECT_LT(sim.particles().velocity.bottomRows(8).abs().maxCoeff(), 1e-9) << layout;
    // Every bead contact and the loaded wall contact carry the end force.
    for (std::size_t c = 0; c < sim.pair_contacts().size(); ++c)
      if (sim.pair_contacts().first_of(c) >= first) {
        EXPECT_NEAR(sim.pair_contacts().force[c], 10.0, 1e-6) << layout;
      }
    double wall_force = 0.0;
    for (double f : sim.wall_contacts().force) wall_force += f;
    EXPECT_NEAR(wall_force, 10.0, 1e-6) << layout;
  }
  // Without a wall to push against there is no equilibrium: refused.
  EXPECT_THROW(simulation_from(base), CaseError);
}

// Strong hysteresis damping at the default resolution: the automatic step keeps it stable and
// the achieved restitution close to the exact identity (Flores, c_r = 0.1: e_out = 0.0694).
TEST(ImpactVelocityFloor, StronglyDampedImpactAtDefaultResolution) {
  Simulation sim = simulation_from(two_spheres("flores", 50, "restitution = 0.1\n"));
  const ImpactRecord r = follow_impact(sim, pairs, 0, 10000000);
  EXPECT_NEAR(-r.separation / r.approach, 0.0694, 0.005);
  EXPECT_EQ(sim.impact_velocity_floor_hits(), 0);
}

// An extra sphere comes in obliquely, off the chain axis, and strikes a bead: the contact normal
// is three-dimensional, momentum is conserved in every component and energy with it (elastic).
TEST(OffAxis, ObliqueImpactConservesMomentumAndEnergy) {
  const std::string ini =
      "[simulation]\nduration = 4e-4\nsteps_per_contact = 2000\n"
      "[contact]\nlaw = hertz\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 5\nmaterials = steel\nradii = 0.005\n"
      // Bead 2 sits at x = 0.025; the extra sphere starts 1.4 mm from it, above and beside it,
      // and comes in at about 9 m/s.
      "[extra]\nparticles = steel 0.003 0.027 0.0085 0.0035 0.0 -8.0 -4.0\n";
  Simulation sim = simulation_from(ini);
  const Eigen::Vector3d p0 = sim.momentum();
  const double e0 = sim.energies().balance();
  // The extra sphere (index 5) starts apart from everything.
  for (std::size_t c = 0; c < sim.pair_contacts().size(); ++c) {
    if (sim.pair_contacts().second_of(c) == 5) {
      EXPECT_EQ(sim.pair_contacts().touching[c], 0);
    }
  }
  bool touched = false;
  while (sim.time() < 4e-4) {
    sim.advance(50);
    for (const auto t : sim.pair_contacts().touching) touched = touched || t;
  }
  ASSERT_TRUE(touched);
  const Eigen::Vector3d v_bead = sim.particles().velocity.row(2).transpose();
  EXPECT_GT(std::abs(v_bead.y()), 1e-3);  // the bead was pushed sideways: a 3D normal
  EXPECT_GT(std::abs(v_bead.z()), 1e-3);
  EXPECT_LT((sim.momentum() - p0).norm() / p0.norm(), 1e-12);
  EXPECT_LT(std::abs(sim.energies().balance() - e0) / e0, 1e-6);
}
