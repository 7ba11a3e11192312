// A wall on the path of a slider-crank's slider: the path keeps the rod's length; its contacts,
// oblique to the wall, carry a static load and an impact as a contact along its own normal does;
// the energy books of the slotted-joint bench close at the integrator's order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>
#include <string>
#include <vector>

#include "chaindem/engine/motion.hpp"
#include "test_support.hpp"

using namespace chaindem;
using namespace chaindem::test;

namespace {

// x written to the last digit (std::to_string keeps 6 decimals only).
std::string exact(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

// Two beads (R = 10 mm, 2 kg each) of the fitted cylindrical law, 10 mm apart, after
// wall_start: a chain, which either engine runs (one bead would be the general engine's).
std::string beads_at_wall(const std::string& wall, double density, const std::string& extra = "") {
  return "[simulation]\nduration = 0.004\ntime_step = 1e-7\n"
         "[contact]\nlaw = cylindrical_power_fit\nstiffness = 1e8\nexponent = 1.1\n"
         "hunt_crossley_alpha = 0.5\n"
         "[material.m]\nyoungs_modulus = 207e9\npoisson_ratio = 0.3\ndensity = " +
         exact(density) +
         "\n[chain]\ncount = 2\nmaterials = m\nradii = 0.01\ncylinder_length = 0.01\n" + extra +
         "[striker]\nenabled = false\n"
         "[wall_start]\nenabled = true\nmaterial = m\n" +
         wall;
}

// A wall that stands still, its contacts at obliquity 0.8: the crank at rest at 90 deg, the pin
// 30 mm off the line of stroke of a 50 mm rod.
const std::string oblique_wall =
    "motion = slider_crank\ncrank_radius = 0.03\ncrank_speed = 0\ncrank_angle = 90\n"
    "rod_length = 0.05\n";
constexpr double obliquity = 0.8;
constexpr double density_2kg = 2.0 / (std::numbers::pi * 1e-4 * 1e-2);

}  // namespace

// The slider is where a rod of length l from the crank pin meets the line of stroke, at every
// time; its velocity and the obliquity's rate are the derivatives of its place and obliquity
// (central differences), and the obliquity is the cosine of the rod's angle.
TEST(SliderCrank, PathKeepsTheRodLength) {
  Motion::Crank k;
  k.radius = 0.04, k.speed = 75.0, k.angle = 0.5, k.rod = 0.0601, k.offset = 0.005, k.side = -1;
  const Motion m = Motion::slider_crank(k);
  const double x0 = k.radius * std::cos(k.angle) -
                    std::sqrt(k.rod * k.rod - std::pow(k.offset + k.radius * std::sin(k.angle), 2));
  for (int i = 0; i <= 200; ++i) {
    const double t = 1e-3 * i, phi = k.angle + k.speed * t;
    const double px = k.radius * std::cos(phi), py = k.offset + k.radius * std::sin(phi);
    const double x = x0 + m.displacement(t);
    EXPECT_NEAR(std::hypot(x - px, py), k.rod, 1e-15) << t;
    EXPECT_LT(x, px);  // the -x side
    EXPECT_NEAR(m.obliquity(t), (px - x) / k.rod, 1e-14) << t;
    const double h = 1e-7;
    EXPECT_NEAR(m.velocity(t), (m.displacement(t + h) - m.displacement(t - h)) / (2 * h), 1e-7);
    EXPECT_NEAR(m.obliquity_rate(t), (m.obliquity(t + h) - m.obliquity(t - h)) / (2 * h), 1e-6);
    EXPECT_LE(std::abs(m.velocity(t)), m.largest_speed(1.0));
  }
  // For a wall facing -x the displacement turns, the obliquity does not.
  const Motion turned = m.scaled(-1.0);
  EXPECT_EQ(turned.displacement(0.01), -m.displacement(0.01));
  EXPECT_EQ(turned.obliquity(0.01), m.obliquity(0.01));
  EXPECT_EQ(turned.obliquity_rate(0.01), m.obliquity_rate(0.01));
  // Other motions are along the wall's normal.
  EXPECT_EQ(Motion::constant_velocity(1.0).obliquity(0.3), 1.0);
  EXPECT_FALSE(Motion::harmonics({{1e-6, 100.0, 0.0}}, 0.0).oblique());
  // A crank turn over 50 steps at most.
  EXPECT_DOUBLE_EQ(m.longest_step(50, 1.0), 2 * std::numbers::pi / 75.0 / 50);
}

// Beads pressed by F against an oblique wall come to rest where the wall's push along x, n
// times the contact's force K (n delta_x)^p, carries F: the normal overlap is (F / (n K))^(1/p)
// and the force F / n. Both engines.
TEST(SliderCrank, ObliqueWallCarriesALoadAtTheClosedForm) {
  const double load = 500.0, K = 1e8, p = 1.1;
  const double delta = std::pow(load / (obliquity * K), 1.0 / p);
  for (const char* engine : {"chain", "general"}) {
    Simulation sim = simulation_from(
        beads_at_wall(oblique_wall, density_2kg, "end_force = 500\n"),
        {std::string("simulation.engine=") + engine, "contact.hunt_crossley_alpha=100",
         "simulation.duration=0.05", "simulation.time_step=1e-6"});
    sim.advance(50000);
    ASSERT_EQ(sim.uses_chain_engine(), std::string(engine) == "chain");
    EXPECT_NEAR(sim.wall_contacts().overlap[0] / delta, 1.0, 1e-6) << engine;
    EXPECT_NEAR(sim.wall_contacts().force[0] * obliquity / load, 1.0, 1e-6) << engine;
    // The overlap along x is the normal overlap over n.
    const double along_x =
        sim.particles().radius(0) - (sim.particles().position(0, 0) - sim.wall_point(0).x());
    EXPECT_NEAR(along_x * obliquity / delta, 1.0, 1e-6) << engine;
  }
}

// An impact on an oblique wall at speed v along x is an impact along the contact's normal at
// n v of a body of mass M / n^2: the same equations in delta = n delta_x. The velocity leaves
// at the same restitution, and the peak force is the same, as the plain wall gives for those
// (the second bead, 10 mm behind, meets the first only after the run). Both engines.
TEST(SliderCrank, ObliqueImpactIsANormalImpactAtTheNormalSpeed) {
  const double v = 0.3;
  std::string engine;
  auto impact = [&](const std::string& wall, double density, double speed, double gap) {
    Simulation sim =
        simulation_from(beads_at_wall(wall + "gap = " + exact(gap) + "\n", density,
                                      "gap = 0.01\nvelocity = " + exact(-speed) + "\n"),
                        {"simulation.engine=" + engine});
    double peak = 0.0;
    while (sim.time() < 0.004 - 1e-12) {
      sim.advance(10);
      peak = std::max(peak, sim.wall_contacts().force[0]);
    }
    EXPECT_FALSE(sim.wall_contacts().touching[0]);
    return std::pair{sim.particles().velocity(0, 0) / speed, peak};
  };
  for (const char* name : {"chain", "general"}) {
    engine = name;
    const auto [e_oblique, f_oblique] = impact(oblique_wall, density_2kg, v, 1e-5);
    const auto [e_plain, f_plain] =
        impact("", density_2kg / (obliquity * obliquity), obliquity * v, obliquity * 1e-5);
    EXPECT_GT(e_oblique, 0.5) << name;  // it bounced, and lost energy to the damping
    EXPECT_LT(e_oblique, 0.99) << name;
    EXPECT_NEAR(e_oblique / e_plain, 1.0, 1e-9) << name;
    EXPECT_NEAR(f_oblique / f_plain, 1.0, 1e-9) << name;
  }
}

// A run of `ini` (file or text) at step dt to `duration`, with `overrides`.
std::function<Simulation(double)> run_of(const std::string& ini, bool file,
                                         std::vector<std::string> overrides, double duration) {
  return [=](double dt) {
    std::vector<std::string> o = overrides;
    o.push_back("simulation.time_step=" + exact(dt));
    o.push_back("simulation.duration=" + exact(duration));
    return file ? simulation_from_file(ini, o) : simulation_from(ini, o);
  };
}

// The slotted-joint bench (cases/slotted_joint.ini, both readings of alpha; one bead: the
// general engine): the balance stays closed to the integrator's error, which falls four-fold
// when the step halves. The walls' work includes that of the turning normal, F (dn/dt) delta_x:
// without it the balance would be off by that work, whatever the step. The first 0.05 s: the
// start, the first impact and both force reversals of the first revolution.
TEST(SliderCrank, BenchEnergyBalanceClosesAtSecondOrder) {
  for (const char* alpha : {"320", "0.32"})
    expect_balance_second_order(
        run_of(std::string(CHAINDEM_SOURCE_DIR) + "/cases/slotted_joint.ini", true,
               {std::string("contact.hunt_crossley_alpha=") + alpha}, 0.05),
        0.05, 1e-6, 1e-5, 1e-3, alpha);
}

// Three beads between two walls on slider-crank paths (a crank turning at 300 rad/s, rods of
// 50 and 52 mm: obliquities down to 0.8) on both engines: the same.
TEST(SliderCrank, ChainEnergyBalanceClosesAtSecondOrder) {
  const std::string crank =
      "motion = slider_crank\ncrank_radius = 0.03\ncrank_speed = 300\ncrank_angle = 20\n"
      "slider_side = -x\ngap = 2e-5\n";
  const std::string ini =
      beads_at_wall(crank + "rod_length = 0.05\n", density_2kg, "gap = 2e-5\n") +
      "[wall_end]\nenabled = true\nmaterial = m\n" + crank + "rod_length = 0.052\n";
  for (const char* engine : {"chain", "general"})
    expect_balance_second_order(
        run_of(ini, false, {std::string("simulation.engine=") + engine, "chain.count=3"}, 0.02),
        0.02, 1e-6, 1e-5, 1e-3, engine);
}
