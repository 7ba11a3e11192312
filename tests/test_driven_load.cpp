// A driven end load: end_force + dF(t) on the end bead, dF a sum of harmonics or a table, exact at
// each step's time. A bead pressed against a wall follows the linear forced oscillator about its
// static overlap; the energy books count the work of the load's change, so that a driven chain's
// balance closes at the integrator's order on both engines.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "chaindem/engine/state_archive.hpp"
#include "test_support.hpp"

using namespace chaindem;
using namespace chaindem::test;

namespace {

// `count` steel beads pressed by 20 N against wall_start (at their static overlaps), the load's
// change given by `drive` ([chain] keys).
std::string loaded_chain(int count, const std::string& drive, double duration) {
  return "[simulation]\nduration = " + std::to_string(duration) +
         "\n[contact]\nlaw = hertz\n"
         "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
         "[chain]\ncount = " +
         std::to_string(count) +
         "\nmaterials = steel\nradii = 0.005\nend_force = 20\nstatic_overlap = true\n" + drive +
         "\n[striker]\nenabled = false\n"
         "[wall_start]\nenabled = true\nmaterial = steel\n";
}

const std::string harmonic =
    "end_force_motion = harmonic\nend_force_amplitude = 4 2\nend_force_frequency = 3000 7100\n"
    "end_force_phase = 0 1\nend_force_ramp = 1e-3";

// The ramp of Motion::harmonics, 10 u^3 - 15 u^4 + 6 u^5.
double ramp(double t, double length) {
  const double u = std::min(t / length, 1.0);
  return u * u * u * (10.0 + u * (-15.0 + 6.0 * u));
}

// A CSV table of dF = ramp(t) a sin(2 pi f t), sampled every `h` seconds to `end`.
std::string sampled_table(const std::string& name, double a, double f, double ramp_length, double h,
                          double end) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream out(path);
  out.precision(17);
  out << "t [s],F [N]\n";
  for (int k = 0; k * h <= end + h; ++k) {
    const double t = k * h;
    out << t << "," << ramp(t, ramp_length) * a * std::sin(2 * std::numbers::pi * f * t) << "\n";
  }
  return path;
}

}  // namespace

// A driven elastic chain: kinetic + stored + potential of the constant load - the work of the
// load's change stays the initial energy to the integrator's error, which falls four-fold when
// the step halves (second order); both engines, for harmonics and for a table.
TEST(DrivenLoad, EnergyBalanceClosesAtSecondOrder) {
  const std::string table = sampled_table("load_balance.csv", 3.0, 900.0, 2e-3, 1e-4, 4e-3);
  for (const std::string& drive :
       {harmonic, "end_force_motion = table\nend_force_table = " + table}) {
    for (const char* engine : {"chain", "general"})
      expect_drive_balance_second_order(loaded_chain(8, drive, 4e-3), engine, 4e-3);
  }
}

namespace {

// One bead pressed by F0 = 20 N against a wall, its load's change a sin(2 pi f t) after a ramp:
// the displacement about the static overlap, fitted as m + c sin(wt) + d cos(wt) over whole
// periods after the ramp. Returns {c, d}.
Eigen::Vector2d forced_response(const std::string& drive, double f, double ramp_length) {
  const double periods = 8.0, end = ramp_length + periods / f;
  Simulation sim = simulation_from(loaded_chain(1, drive, end));
  const double x0 = sim.particles().position(0, 0);
  const double w = 2 * std::numbers::pi * f;
  while (sim.time() < ramp_length) sim.advance(1);
  std::vector<double> t, x;
  while (sim.time() < end - 1e-12) {
    sim.advance(1);
    t.push_back(sim.time());
    x.push_back(sim.particles().position(0, 0) - x0);
  }
  Eigen::MatrixXd a(static_cast<Eigen::Index>(t.size()), 3);
  Eigen::VectorXd b(static_cast<Eigen::Index>(t.size()));
  for (std::size_t k = 0; k < t.size(); ++k) {
    const auto r = static_cast<Eigen::Index>(k);
    a.row(r) << 1.0, std::sin(w * t[k]), std::cos(w * t[k]);
    b(r) = x[k];
  }
  const Eigen::Vector3d fit = a.colPivHouseholderQr().solve(b);
  return {fit(1), fit(2)};
}

// The Hertz contact of the bead (R = 5 mm) with the wall, both steel: F = A delta^(3/2),
// A = (4/3) E* sqrt(R), and its stiffness about the static load F0, K2 = (3/2) A^(2/3) F0^(1/3).
double contact_stiffness(double f0) {
  const double e_star = 200e9 / (2 * (1 - 0.3 * 0.3));
  const double a = 4.0 / 3.0 * e_star * std::sqrt(0.005);
  return 1.5 * std::pow(a, 2.0 / 3.0) * std::cbrt(f0);
}

double bead_mass() {
  return 7800 * 4.0 / 3.0 * std::numbers::pi * std::pow(0.005, 3);
}

}  // namespace

// Well below the contact's resonance (about 11 kHz) and away from it, the bead follows the
// linear forced oscillator: in phase with the load, the amplitude a / (K2 - m w^2), the load
// pushing it towards the wall (-x). A 1 % load changes K2 by 0.3 % over a cycle, whose effect on
// the fundamental is of its square; the step's phase error is of (w dt)^2, below 1e-4.
TEST(DrivenLoad, BeadOnAWallFollowsTheForcedOscillator) {
  const double a = 0.2, ramp_length = 2e-3;
  for (const double f : {1500.0, 4000.0}) {
    const std::string drive =
        "end_force_motion = harmonic\nend_force_amplitude = " + std::to_string(a) +
        "\nend_force_frequency = " + std::to_string(f) +
        "\nend_force_ramp = " + std::to_string(ramp_length);
    const Eigen::Vector2d response = forced_response(drive, f, ramp_length);
    const double w = 2 * std::numbers::pi * f;
    const double expected = a / (contact_stiffness(20.0) - bead_mass() * w * w);
    EXPECT_NEAR(-response(0) / expected, 1.0, 1e-3) << f;
    EXPECT_LT(std::abs(response(1)), 0.01 * expected) << f;  // in phase: no damping
  }
}

// A table that samples the harmonic drive every 2 us gives the harmonic's response, to the
// interpolation error (makima's, below (h w)^3 = 2e-5 of the load at 250 samples per period).
TEST(DrivenLoad, FineTableGivesTheHarmonicResponse) {
  const double a = 0.2, f = 2000.0, ramp_length = 2e-3, end = ramp_length + 8.0 / f;
  const std::string table = sampled_table("load_fine.csv", a, f, ramp_length, 2e-6, end);
  const Eigen::Vector2d harmonic_fit = forced_response(
      "end_force_motion = harmonic\nend_force_amplitude = 0.2\nend_force_frequency = 2000\n"
      "end_force_ramp = 0.002",
      f, ramp_length);
  const Eigen::Vector2d table_fit =
      forced_response("end_force_motion = table\nend_force_table = " + table, f, ramp_length);
  EXPECT_GT(std::abs(harmonic_fit(0)), 1e-9);
  EXPECT_NEAR(table_fit(0) / harmonic_fit(0), 1.0, 1e-4);
}

// A checkpoint needs nothing more for the load: the steps after a restore are bitwise those of
// the run, and so is the work booked.
TEST(DrivenLoad, RestoreContinuesBitwise) {
  for (const char* engine : {"chain", "general"}) {
    const RunSetup setup =
        setup_from(loaded_chain(8, harmonic, 3e-3),
                   {std::string("simulation.engine=") + engine, "simulation.time_step=2e-7"});
    Simulation original(setup.scene, setup.settings);
    original.advance(4000);
    StateArchive saved;
    original.save_state(saved);
    original.advance(3000);
    Simulation restored(setup.scene, setup.settings);
    restored.restore_state(saved);
    restored.advance(3000);
    EXPECT_EQ(original.particles().position.col(0).matrix(),
              restored.particles().position.col(0).matrix())
        << engine;
    EXPECT_EQ(original.energies().wall_work, restored.energies().wall_work) << engine;
    EXPECT_NE(original.energies().wall_work, 0.0) << engine;
  }
}

// The load on the first bead behind a striker (wall_end alone: the load pushes towards the end)
// is an interior particle of the chain engine: its passes, whole or in ranges of chunks, give
// the same bits, and the general engine the same motion to rounding.
TEST(DrivenLoad, InteriorBeadOnEitherEngine) {
  const std::string ini =
      "[simulation]\nduration = 3e-3\ntime_step = 2e-7\n[contact]\nlaw = hertz\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 6\nmaterials = steel\nradii = 0.005\nend_force = 5\n"
      "static_overlap = true\n" +
      harmonic +
      "\n[striker]\nvelocity = 0.05\ngap = 1e-5\n"
      "[wall_end]\nenabled = true\nmaterial = steel\n";
  std::vector<Eigen::ArrayXd> x;
  for (const int variant : {0, 1, 2}) {
    RunSetup run =
        setup_from(ini, {variant == 2 ? "simulation.engine=general" : "simulation.engine=chain"});
    ASSERT_EQ(run.scene.driven_loads.size(), 1u);
    EXPECT_EQ(run.scene.driven_loads[0].particle, 1);  // the first bead, behind the striker
    if (variant == 1) {                                // ranges of two pairs, several passes
      run.settings.chain_chunk_pairs = 2;
      run.settings.chain_pass_steps = 7;
    }
    Simulation sim(std::move(run.scene), run.settings);
    EXPECT_EQ(sim.uses_chain_engine(), variant != 2);
    sim.advance(15000);
    x.push_back(sim.particles().position.col(0));
  }
  EXPECT_TRUE((x[0] == x[1]).all());
  const double moved = (x[0] - simulation_from(ini).particles().position.col(0)).abs().maxCoeff();
  EXPECT_GT(moved, 1e-6);
  EXPECT_LT((x[0] - x[2]).abs().maxCoeff(), 1e-9 * moved);
}

// The automatic step resolves the load's drive (its period over steps_per_contact), and a load
// driven from end_force = 0 loads the contacts enough to set a contact duration.
TEST(DrivenLoad, AutomaticStepFollowsTheDrive) {
  const std::string drive =
      "end_force_motion = harmonic\nend_force_amplitude = 1\nend_force_frequency = 200000";
  const RunSetup run = setup_from(loaded_chain(4, drive, 1e-4));
  EXPECT_LE(run.settings.time_step, 1.0 / 200000 / 50 * (1 + 1e-12));
  const RunSetup unloaded =
      setup_from(loaded_chain(4, drive, 1e-4), {"chain.end_force=0", "chain.static_overlap=false"});
  EXPECT_GT(unloaded.settings.time_step, 0.0);
}
