// Driven walls: a wall on a prescribed path is where the path puts it at every step, however
// many steps a run takes, on both engines; the energy books count the work it does, so that a
// driven chain's balance closes at the integrator's order.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "test_support.hpp"

using namespace chaindem;
using namespace chaindem::test;

namespace {

// A chain of `count` steel beads squeezed by 20 N between wall_start, driven by `drive` keys,
// and wall_end at rest.
std::string driven_chain(int count, const std::string& drive, double duration = 5e-3) {
  return "[simulation]\nduration = " + std::to_string(duration) +
         "\n[contact]\nlaw = hertz\n"
         "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
         "[chain]\ncount = " +
         std::to_string(count) +
         "\nmaterials = steel\nradii = 0.005\nend_force = 20\nstatic_overlap = true\n"
         "held_by = walls\n"
         "[striker]\nenabled = false\n"
         "[wall_start]\nenabled = true\nmaterial = steel\n" +
         drive + "\n[wall_end]\nenabled = true\nmaterial = steel\n";
}

const std::string harmonic =
    "motion = harmonic\namplitude = 1e-8 4e-9\nfrequency = 3000 7100\nphase = 0 1\nramp = 1e-3";

// One ulp of x, the rounding a position the path gives exactly may carry.
double ulp(double x) {
  return std::nextafter(std::abs(x), INFINITY) - std::abs(x);
}

}  // namespace

// 10^6 steps: at every 1000th the wall is at its place at t = 0 plus A sin(2 pi f t + phi) summed
// over the terms (past the ramp), within two ulps of its coordinate. An offset accumulated step
// by step would drift by the rounding of every step, and its sum over a run.
TEST(DrivenWalls, WallFollowsItsPathOverAMillionSteps) {
  for (const char* engine : {"chain", "general"}) {
    Simulation sim =
        simulation_from(driven_chain(3, harmonic, 10.0),
                        {std::string("simulation.engine=") + engine, "simulation.time_step=1e-6"});
    const double x0 = sim.wall_point(0).x();
    double worst = 0.0;
    for (int k = 0; k < 1000; ++k) {
      sim.advance(1000);
      const double t = sim.time();
      const double s = 1e-8 * std::sin(2 * std::numbers::pi * 3000 * t) +
                       4e-9 * std::sin(2 * std::numbers::pi * 7100 * t + 1);
      const double x = sim.wall_point(0).x();
      worst = std::max(worst, std::abs(x - (x0 + s)) / ulp(x));
    }
    EXPECT_EQ(sim.step_count(), 1000000);
    EXPECT_LE(worst, 2.0) << engine;
    // A wall at rest stays bitwise where it started.
    EXPECT_EQ(sim.wall_point(1).x(), simulation_from(driven_chain(3, harmonic)).wall_point(1).x());
  }
}

// The same for a wall at constant velocity, which moved by dt v per step before: t v exactly.
TEST(DrivenWalls, ConstantVelocityWallIsAtTimesVelocity) {
  Simulation sim = simulation_from(
      driven_chain(3, "velocity = -0.001"),
      {"simulation.time_step=1e-6", "simulation.duration=1", "chain.static_overlap=false",
       "chain.held_by=load", "chain.end_force=0", "wall_start.gap=1e-2"});
  const double x0 = sim.wall_point(0).x();
  sim.advance(100000);
  EXPECT_LE(std::abs(sim.wall_point(0).x() - (x0 - 0.001 * sim.time())), 2 * ulp(x0));
}

// A driven elastic chain: kinetic + stored - wall work stays the initial energy to the
// integrator's error, which falls four-fold when the step halves (second order); both engines,
// for harmonics and for a table (its interpolant's own velocity prices the work).
TEST(DrivenWalls, EnergyBalanceClosesAtSecondOrder) {
  const std::string dir = testing::TempDir();
  const std::string table = dir + "/drive.csv";
  {
    std::ofstream out(table);
    out << "t,x\n";
    for (int k = 0; k <= 60; ++k) {
      const double t = 1e-4 * k;
      out << t << "," << 2e-8 * std::sin(2 * std::numbers::pi * 900 * t) * (t / 6e-3) << "\n";
    }
  }
  for (const std::string& drive :
       {harmonic, "motion = table\ntable = " + table + "\ninterpolation = makima"}) {
    for (const char* engine : {"chain", "general"})
      expect_drive_balance_second_order(driven_chain(8, drive, 4e-3), engine, 4e-3);
  }
}

// A phase without a ramp does not move the wall before the run starts: the wall is where the
// case places it (the static overlap of the held chain), and the chain starts in equilibrium.
TEST(DrivenWalls, PhaseWithoutRampStartsWhereTheWallIsPlaced) {
  const Simulation still = simulation_from(driven_chain(3, "velocity = 0"));
  const Simulation phased = simulation_from(
      driven_chain(3, "motion = harmonic\namplitude = 1e-6\nfrequency = 3000\nphase = 1.5"));
  EXPECT_EQ(phased.wall_point(0).x(), still.wall_point(0).x());
  for (Eigen::Index i = 0; i < 3; ++i)
    EXPECT_NEAR(phased.particles().force(i, 0), 0.0, 1e-9) << i;  // 20 N balanced
}
