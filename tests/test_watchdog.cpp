// The divergence watchdog: a state that stops being finite ends the run at the step it happened,
// naming the particle or pair, on either engine, instead of reaching the output.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/engine/simulation.hpp"
#include "test_support.hpp"

namespace chaindem {
namespace {

// Six steel beads struck at 1 m/s; the case is valid, the tests then break its state.
const std::string chain_case =
    "[simulation]\nduration = 1e-4\n"
    "[contact]\nlaw = hertz\n"
    "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
    "[chain]\ncount = 6\nmaterials = steel\nradii = 0.005\n"
    "[striker]\nvelocity = 1\ngap = 1e-4\n";

// The message of what `f` throws as E, or "" if it throws nothing.
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// The case at rest (the striker stopped), so that only what a test sets moves.
RunSetup setup_on(const std::string& engine) {
  RunSetup run = test::setup_from(chain_case, {"simulation.engine=" + engine});
  run.scene.particles.velocity.setZero();
  return run;
}

TEST(Watchdog, StateThatIsNotFiniteAtTheStartIsRefused) {
  for (const std::string engine : {"chain", "general"}) {
    RunSetup run = setup_on(engine);
    run.scene.particles.velocity(3, 0) = std::numeric_limits<double>::quiet_NaN();
    const std::string m =
        message_of<std::invalid_argument>([&] { Simulation sim(run.scene, run.settings); });
    EXPECT_NE(m.find("particle 3: its velocity is not finite at the start"), std::string::npos)
        << engine << ": " << m;
  }
}

// What `f` throws as EngineFault, or nothing.
template <class F>
std::optional<EngineFault> fault_of(F&& f) {
  try {
    f();
  } catch (const EngineFault& e) {
    return e;
  }
  return std::nullopt;
}

// Beads 2 and 3 flung to infinity in one step: their distance, inf - inf, is not a number.
TEST(Watchdog, ChainEngineNamesThePairAndTheStep) {
  RunSetup run = setup_on("chain");
  run.settings.time_step = 10.0;  // past what a case accepts: the state diverges at once
  run.scene.particles.velocity(2, 0) = run.scene.particles.velocity(3, 0) = 1e308;
  Simulation sim(run.scene, run.settings);
  const std::optional<EngineFault> fault = fault_of([&] { sim.advance(5); });
  ASSERT_TRUE(fault);
  const std::string m = fault->what();
  EXPECT_NE(m.find("the overlap of particles 2 and 3 (beads 1 and 2) is not a number at step 1"),
            std::string::npos)
      << m;
  const EngineFault::Facts& f = fault->facts;
  EXPECT_EQ(f.kind, EngineFault::Kind::diverged);
  EXPECT_EQ(f.quantity, EngineFault::Quantity::overlap);
  EXPECT_EQ(f.particle, 2);
  EXPECT_EQ(f.other_particle, 3);
  EXPECT_EQ(f.step, 1);
  EXPECT_TRUE(std::isnan(f.value));
  // The advice names the case's keys: the case's text has it, the engine's not.
  EXPECT_EQ(m.find("simulation.time_step"), std::string::npos) << m;
  EXPECT_NE(case_fault_text(*fault).find("simulation.time_step"), std::string::npos);
}

TEST(Watchdog, GeneralEngineNamesTheParticleAndTheStep) {
  RunSetup run = setup_on("general");
  run.settings.time_step = 10.0;
  run.scene.particles.velocity(2, 0) = 1e308;
  Simulation sim(run.scene, run.settings);
  const std::optional<EngineFault> fault = fault_of([&] { sim.advance(5); });
  ASSERT_TRUE(fault);
  const std::string m = fault->what();
  EXPECT_NE(m.find("particle 2: its position is not finite at step 1"), std::string::npos) << m;
  const EngineFault::Facts& f = fault->facts;
  EXPECT_EQ(f.kind, EngineFault::Kind::diverged);
  EXPECT_EQ(f.quantity, EngineFault::Quantity::position);
  EXPECT_EQ(f.particle, 2);
  EXPECT_FALSE(f.other_particle);
  EXPECT_FALSE(f.wall);
  EXPECT_EQ(f.step, 1);
  EXPECT_FALSE(std::isfinite(f.value));
  EXPECT_EQ(case_fault_text(*fault), m + " (reduce simulation.time_step or raise "
                                         "simulation.steps_per_contact)");
}

// The end bead flung to infinity, touching its neighbour at the start: the separation of that
// pair at -inf leaves a force that is not a number on the neighbour, whose overlap with the bead
// before it the next step finds.
TEST(Watchdog, EndBeadFlungAwayIsCaughtAtTheNextStep) {
  RunSetup run = setup_on("chain");
  run.settings.time_step = 10.0;
  const Eigen::Index last = run.scene.particles.size() - 1;
  run.scene.particles.velocity(last, 0) = 1e308;
  Simulation sim(run.scene, run.settings);
  const std::string m = message_of<std::runtime_error>([&] { sim.advance(5); });
  EXPECT_NE(m.find("particles " + std::to_string(last - 2) + " and " + std::to_string(last - 1) +
                   " (beads " + std::to_string(last - 3) + " and " + std::to_string(last - 2) +
                   ") is not a number at step 2"),
            std::string::npos)
      << m;
  // Advanced one step at a time, the check after each advance finds it at step 1.
  Simulation one(run.scene, run.settings);
  const std::string m1 = message_of<std::runtime_error>([&] { one.advance(1); });
  EXPECT_NE(m1.find("particle " + std::to_string(last - 1) +
                    ": its velocity is not finite after "
                    "step 1"),
            std::string::npos)
      << m1;
}

}  // namespace
}  // namespace chaindem
