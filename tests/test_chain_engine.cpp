// The 1D chain engine: chosen for chains on the x axis only, the same physics as the general 3D
// engine (which it must reproduce to rounding), deterministic for any thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/engine/simulation.hpp"
#include "chaindem/setup/case_file.hpp"
#include "reference_tables.hpp"
#include "test_support.hpp"

namespace chaindem {
namespace {

using test::setup_from;
using test::simulation_from;

// A striker on `beads` steel beads between two walls (the end wall touching the last bead).
std::string walled_chain(int beads, const std::string& law, const std::string& contact_extra,
                         const std::string& radii = "0.005, 0.004") {
  // Long enough for the pulse (~600 m/s) to cross the chain and meet the end wall.
  return "[simulation]\nduration = " + std::to_string(3.5e-5 * beads) +
         "\nsteps_per_contact = 60\n"
         "[contact]\nlaw = " +
         law + "\n" + contact_extra + test::material_section("steel", test::elastoplastic_steel) +
         "[chain]\ncount = " + std::to_string(beads) + "\nmaterials = steel\nradii = " + radii +
         "\n"
         "[striker]\nvelocity = 1.5\ngap = 1e-5\n"
         "[wall_start]\nenabled = true\nmaterial = steel\ngap = 1e-3\n"
         "[wall_end]\nenabled = true\nmaterial = steel\ngap = 0\n";
}

Simulation with_engine(const std::string& ini, const std::string& engine,
                       std::vector<std::string> overrides = {}) {
  overrides.push_back("simulation.engine=" + engine);
  return simulation_from(ini, overrides);
}

TEST(ChainEngine, ChosenForChainsOnTheAxisOnly) {
  const std::string ini = walled_chain(10, "hertz", "");
  EXPECT_TRUE(simulation_from(ini).uses_chain_engine());
  EXPECT_FALSE(with_engine(ini, "general").uses_chain_engine());
  // A sphere off the axis, or gravity across it, needs the 3D engine.
  const std::string off_axis = "extra.particles=steel 0.005 0.05 0.02 0 0 0 0";
  EXPECT_FALSE(simulation_from(ini, {off_axis}).uses_chain_engine());
  EXPECT_FALSE(simulation_from(ini, {"gravity.acceleration=0 -9.81 0"}).uses_chain_engine());
  // Gravity along the chain keeps it one-dimensional.
  EXPECT_TRUE(simulation_from(ini, {"gravity.acceleration=-9.81 0 0"}).uses_chain_engine());
  try {
    setup_from(ini, {off_axis, "simulation.engine=chain"});
    FAIL() << "engine = chain accepted a scene that is not a chain";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("simulation.engine"), std::string::npos) << e.what();
  }
}

// Both engines compute the same overlaps (to the last digit: the chain engine from displacements,
// the 3D engine from positions), approach rates and unit normals (the 3D engine's dx / |dx| is
// exactly 1 along x). So trajectories agree to rounding, for every family: elastic, viscous,
// hysteresis (v0 history), elastoplastic (plastic history and repeated impacts), with walls at both
// ends and a dimer chain.
TEST(ChainEngine, ReproducesTheGeneralEngine) {
  const std::vector<std::pair<std::string, std::string>> laws{
      {"hertz", ""},
      {"edem_hertz_mindlin", "restitution = 0.8\n"},
      {"hunt_crossley", "restitution = 0.7\n"},
      // Flores at c_r = 0.6 (alpha = 1.07): at 0.5 (alpha = 1.6) the last bead of the dimer
      // chain ends squeezed against the wall by two 46 N forces that nearly cancel, and with
      // v0 following each contact's own motion (the peak policy) the engines' rounding
      // differences grow there to 2e-7 over the run.
      {"flores", "restitution = 0.6\n"},
      {"lankarani_nikravesh_plastic", "restitution = 0.6\n"},
      {"thornton_1997", ""}};
  // Dimer chains (the striker-bead pair differs) and short chains run the per-pair loop; long
  // uniform chains the vectorised one (history-free and hysteresis laws).
  for (const auto& [beads, radii] :
       {std::pair{30, "0.005, 0.004"}, std::pair{30, "0.005"}, std::pair{300, "0.005"}})
    for (const auto& [law, extra] : laws) {
      // Plastic laws always run the per-pair loop (covered by the short chains); over the long
      // chain's many re-contacts their rattling amplifies the normal's ulp into visible chaos.
      if (beads > 30 && (law == "lankarani_nikravesh_plastic" || law == "thornton_1997")) continue;
      SCOPED_TRACE(law + " radii " + radii + " beads " + std::to_string(beads));
      const std::string ini = walled_chain(beads, law, extra, radii);
      Simulation chain = with_engine(ini, "chain");
      Simulation general = with_engine(ini, "general");
      ASSERT_TRUE(chain.uses_chain_engine());
      chain.track_extremes();
      general.track_extremes();
      // The chain engine computes overlaps from displacements, the general engine from
      // positions: they differ in the last digit. The undamped long chain rattles between its
      // walls once the pulse comes back from the end wall (at ~5 ms), where such differences
      // grow tenfold every 0.5 ms (1e-13 of the striker speed at 1 ms, 4e-12 at 5 ms, 4e-8 at
      // 10.5 ms): it is compared when the pulse meets the end wall.
      const double horizon = beads > 30 && law == "hertz" ? 5e-3 : 3.5e-5 * beads;
      const auto steps = static_cast<std::int64_t>(horizon / chain.time_step());
      chain.advance(steps);
      general.advance(steps);
      const auto& a = chain.particles();
      const auto& b = general.particles();
      const double v_scale = 1.5, x_scale = 1e-3;
      EXPECT_LT((a.velocity - b.velocity).abs().maxCoeff(), 1e-9 * v_scale) << law;
      EXPECT_LT((a.position - b.position).abs().maxCoeff(), 1e-9 * x_scale) << law;
      const double e0 = 0.5 * a.mass(0) * v_scale * v_scale;
      EXPECT_NEAR(chain.energies().dissipated, general.energies().dissipated, 1e-9 * e0) << law;
      EXPECT_NEAR(chain.energies().stored, general.energies().stored, 1e-9 * e0) << law;
      EXPECT_LT((chain.peak_velocity_x() - general.peak_velocity_x()).abs().maxCoeff(),
                1e-9 * v_scale)
          << law;
      const double f_scale = general.peak_contact_force().maxCoeff();
      EXPECT_GT(f_scale, 100.0) << law;
      EXPECT_LT((chain.peak_contact_force() - general.peak_contact_force()).abs().maxCoeff(),
                1e-9 * f_scale)
          << law;
      // The pulse reached the end wall and the contact histories agree.
      EXPECT_GT(chain.peak_contact_force()(chain.particles().size() - 1), 0.0) << law;
      EXPECT_EQ(chain.impact_velocity_floor_hits(), general.impact_velocity_floor_hits()) << law;
    }
}

// A uniform chain's pairs keep one record of what they all share: coefficients, the normal (+x)
// and, under a law without a history, the state; a law that keeps v0 or a loading history keeps
// a state per pair, and a dimer chain a coefficient record per pair. (Their values are those of
// the general engine, whose lists hold every record: ReproducesTheGeneralEngine.)
TEST(ChainEngine, PairsHoldOneRecordOfWhatTheyShare) {
  struct Expect {
    std::string law, extra, radii;
    std::size_t coeffs, state;  // records, 0 meaning one per pair
  };
  for (const Expect& e :
       {Expect{"hertz", "", "0.005", 1, 1}, Expect{"flores", "restitution = 0.6\n", "0.005", 1, 0},
        Expect{"thornton_1997", "", "0.005", 1, 0}, Expect{"hertz", "", "0.005, 0.004", 0, 1}}) {
    SCOPED_TRACE(e.law + " radii " + e.radii);
    const Simulation sim = simulation_from(walled_chain(20, e.law, e.extra, e.radii));
    ASSERT_TRUE(sim.uses_chain_engine());
    const ContactList& pairs = sim.pair_contacts();
    ASSERT_EQ(pairs.size(), 20u);  // the striker and 20 beads
    EXPECT_EQ(pairs.coeffs.size(), e.coeffs ? e.coeffs : pairs.size());
    EXPECT_EQ(pairs.state.size(), e.state ? e.state : pairs.size());
    EXPECT_EQ(pairs.nx.size(), 1u);
    for (std::size_t c = 0; c < pairs.size(); ++c)
      EXPECT_EQ(pairs.normal_of(c), Eigen::Vector3d::UnitX());
    // Pair c joins particles c and c + 1: its index gives them.
    EXPECT_TRUE(pairs.first.empty());
    EXPECT_TRUE(pairs.second.empty());
    // The wall contacts keep their own normals and particles.
    EXPECT_EQ(sim.wall_contacts().nx.size(), sim.wall_contacts().size());
    EXPECT_EQ(sim.wall_contacts().first.size(), sim.wall_contacts().size());
  }
}

// Newton's cradle with gaps: a striker and 12 beads, 0.1 mm apart, elastic Hertz contacts of
// stiffness k. Each impact is a two-body one between equal masses, which exchange their
// velocities: pair c first touches at approach rate v, parts at -v one contact duration t_c
// later, and each body it reaches moves at v and meets the peak force of Hertz's impact
// (docs/contact-laws.md, elastic). During a contact both bodies move v t_c / 2 (the overlap is
// zero at both ends): the next gap is closed t_c / 2 after the contact ends.
struct GappedCradle {
  static constexpr double v = 1.0, gap = 1e-4, k = 5e9, radius = 0.005, density = 7800.0;
  static constexpr int beads = 12;
  std::string ini() const {
    return "[simulation]\nduration = 2e-3\nsteps_per_contact = 200\n[contact]\nlaw = hertz\n"
           "stiffness = " +
           test::ini_number(k) +
           "\n[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = " +
           test::ini_number(density) + "\n[chain]\ncount = " + std::to_string(beads) +
           "\nmaterials = steel\nradii = " + test::ini_number(radius) +
           "\ngap = " + test::ini_number(gap) + "\n[striker]\nvelocity = " + test::ini_number(v) +
           "\ngap = " + test::ini_number(gap) + "\n";
  }
  static double mass() { return density * 4.0 / 3.0 * std::numbers::pi * std::pow(radius, 3); }
  // Hertz's impact of two equal masses m at v: the reduced mass m / 2.
  static double max_overlap() { return std::pow(5.0 * 0.5 * mass() * v * v / (4.0 * k), 0.4); }
  static double max_force() { return k * std::pow(max_overlap(), 1.5); }
  static double contact_time() { return 2.943275 * max_overlap() / v; }
  // When pair c first touches: c + 1 gaps, less c times the v t_c / 2 closed in a contact.
  static double onset_time(int c) { return (c + 1) * gap / v + c * 0.5 * contact_time(); }
};

// Pair c of the chain engine joins particles c and c + 1, which its index gives; its records of
// first touch and separation are those of the impacts, and the general engine's, whose list
// holds the particles of each pair; the pairs the pulse has not reached have none.
TEST(ChainEngine, PairsOfAGappedCradleRecordEachImpact) {
  using G = GappedCradle;
  const int reached = 6;  // pairs 0 to 5 have touched and parted, pair 6 not yet touched
  const double t_end =
      0.5 * (G::onset_time(reached - 1) + G::contact_time() + G::onset_time(reached));
  Simulation chain = with_engine(G{}.ini(), "chain");
  Simulation general = with_engine(G{}.ini(), "general");
  ASSERT_TRUE(chain.uses_chain_engine());
  const double dt = chain.time_step();
  ASSERT_EQ(dt, general.time_step());
  ASSERT_LT(dt, 0.01 * G::contact_time());
  const auto steps = std::llround(t_end / dt);
  chain.advance(steps);
  general.advance(steps);
  const ContactList& pairs = chain.pair_contacts();
  const ContactList& candidates = general.pair_contacts();
  ASSERT_EQ(pairs.size(), static_cast<std::size_t>(G::beads));
  for (int c = 0; c < G::beads; ++c) {
    SCOPED_TRACE("pair " + std::to_string(c));
    const auto k = static_cast<std::size_t>(c);
    EXPECT_EQ(pairs.first_of(k), c);
    EXPECT_EQ(pairs.second_of(k), c + 1);
    EXPECT_EQ(chain.find_contact(c, c + 1), k);
    EXPECT_EQ(chain.find_contact(c, c + 2), std::nullopt);
    if (c >= reached) {
      EXPECT_EQ(pairs.onset_step(k), -1);
      EXPECT_EQ(pairs.end_step(k), -1);
      EXPECT_EQ(pairs.onset_rate[k], 0.0);
      EXPECT_EQ(pairs.end_rate[k], 0.0);
      EXPECT_EQ(pairs.touching[k], 0);
      continue;
    }
    EXPECT_NEAR(static_cast<double>(pairs.onset_step(k)) * dt, G::onset_time(c), 2 * dt);
    EXPECT_NEAR(static_cast<double>(pairs.end_step(k) - pairs.onset_step(k)) * dt,
                G::contact_time(), 2 * dt);
    EXPECT_NEAR(pairs.onset_rate[k], G::v, 1e-3 * G::v);
    EXPECT_NEAR(pairs.end_rate[k], -G::v, 1e-3 * G::v);
    EXPECT_EQ(pairs.floor_hits[k], 0);
    const std::optional<std::size_t> g = general.find_contact(c, c + 1);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(candidates.first_of(*g), c);
    EXPECT_EQ(candidates.second_of(*g), c + 1);
    EXPECT_EQ(pairs.onset_step(k), candidates.onset_step(*g));
    EXPECT_EQ(pairs.end_step(k), candidates.end_step(*g));
    EXPECT_NEAR(pairs.onset_rate[k], candidates.onset_rate[*g], 1e-12);
    EXPECT_NEAR(pairs.end_rate[k], candidates.end_rate[*g], 1e-12);
  }
}

// The extremes a finished simulation hands over (take_extremes) are those of the impacts: each
// body the pulse reached moved at v and met Hertz's peak force, the others neither.
TEST(ChainEngine, TakenExtremesAreThoseOfTheImpacts) {
  using G = GappedCradle;
  const int reached = 6;  // bodies 0 to 6
  Simulation sim = with_engine(G{}.ini(), "chain");
  sim.track_extremes();
  sim.advance(std::llround((G::onset_time(reached) - 0.5 * G::gap / G::v) / sim.time_step()));
  const Eigen::ArrayXd force = sim.peak_contact_force(), velocity = sim.peak_velocity_x();
  const Eigen::Index n = sim.particles().size();
  const Simulation::Extremes taken = std::move(sim).take_extremes();
  ASSERT_EQ(taken.contact_force.size(), n);
  ASSERT_EQ(taken.velocity_x.size(), n);
  EXPECT_TRUE((taken.contact_force == force).all());
  EXPECT_TRUE((taken.velocity_x == velocity).all());
  for (Eigen::Index i = 0; i < n; ++i) {
    SCOPED_TRACE("body " + std::to_string(i));
    if (i <= reached) {
      EXPECT_NEAR(taken.contact_force(i), G::max_force(), 0.005 * G::max_force());
      EXPECT_NEAR(taken.velocity_x(i), G::v, 1e-3 * G::v);
    } else {
      EXPECT_EQ(taken.contact_force(i), 0.0);
      EXPECT_EQ(taken.velocity_x(i), 0.0);
    }
  }
}

// A pre-compressed chain (static overlap under an end load) starts in equilibrium on both
// engines: every pair is active from the first step.
TEST(ChainEngine, PrecompressedChainStaysInEquilibrium) {
  const std::string ini =
      "[simulation]\nduration = 2e-4\nsteps_per_contact = 50\n"
      "[contact]\nlaw = hertz\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 20\nmaterials = steel\nradii = 0.005\nend_force = 50\n"
      "static_overlap = true\n"
      "[wall_start]\nenabled = true\nmaterial = steel\n";
  Simulation sim = with_engine(ini, "chain");
  ASSERT_TRUE(sim.uses_chain_engine());
  const double e0 = sim.energies().balance();
  sim.advance(2000);
  EXPECT_LT(sim.particles().velocity.abs().maxCoeff(), 1e-6);
  for (std::size_t c = 0; c < sim.pair_contacts().size(); ++c)
    EXPECT_NEAR(sim.pair_contacts().force[c], 50.0, 1e-6) << c;
  EXPECT_LT(std::abs(sim.energies().balance() - e0), 1e-9 * std::abs(e0) + 1e-12);
}

// A bead bounces between two walls far apart: the chain engine keeps the pair and both wall
// contacts for good, so every impact is seen and elastic impacts keep the energy.
TEST(ChainEngine, BeadBouncingBetweenWalls) {
  Simulation sim = with_engine(test::bead_between_walls(), "chain");
  test::expect_elastic_bounces(sim);
  EXPECT_EQ(sim.neighbor_rebuilds(), 1);
}

// The chain engine's loops run on threads above a few thousand particles: results stay bitwise
// identical, including the per-particle extremes.
TEST(ChainEngine, BitwiseIdenticalForOneAndTwoThreads) {
  for (const auto& [law, extra, radii] :
       {std::tuple{"hunt_crossley", "restitution = 0.7\n", "0.005, 0.004"},
        std::tuple{"edem_hertz_mindlin", "restitution = 0.7\n", "0.005"},
        std::tuple{"hunt_crossley", "restitution = 0.7\n", "0.005"}}) {
    SCOPED_TRACE(law);
    auto run = [&](int threads) {
      Simulation sim =
          simulation_from(walled_chain(20000, law, extra, radii),
                          {"simulation.threads=" + std::to_string(threads), "striker.gap=0"});
      sim.track_extremes();
      sim.advance(600);
      return sim;
    };
    const Simulation a = run(1), b = run(2);
    ASSERT_TRUE(a.uses_chain_engine());
    ASSERT_EQ(b.settings().threads, 2);
    EXPECT_TRUE((a.particles().position == b.particles().position).all());
    EXPECT_TRUE((a.particles().velocity == b.particles().velocity).all());
    EXPECT_TRUE((a.peak_contact_force() == b.peak_contact_force()).all());
    EXPECT_TRUE((a.peak_velocity_x() == b.peak_velocity_x()).all());
    EXPECT_EQ(a.energies().dissipated, b.energies().dissipated);
    EXPECT_GT(a.energies().dissipated, 0.0);
  }
}

}  // namespace
}  // namespace chaindem

namespace chaindem {
namespace {

// The message of what `f` throws as std::runtime_error, or "" if it throws nothing.
template <class F>
std::string runtime_error_of(F&& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

// Steps `sim`, from step 0, one at a time until a step throws an EngineFault; returns that step
// and the fault, after checking that `overlap_of(sim) < limit` held before every step: the run
// stops at the first step whose overlap reaches the limit.
template <class Overlap>
std::pair<std::int64_t, std::optional<EngineFault>> step_until_stopped(Simulation& sim,
                                                                       Overlap overlap_of,
                                                                       double limit,
                                                                       std::int64_t most) {
  for (std::int64_t s = 0; s < most; ++s) {
    EXPECT_LT(overlap_of(sim), limit) << "step " << s << " went on at an overlap of a radius";
    try {
      sim.step();
    } catch (const EngineFault& fault) {
      return {s + 1, fault};
    }
  }
  return {-1, std::nullopt};
}

// A striker at 10 km/s on steel beads under Hertz: the law's own overlap would pass 3 radii
// (docs/contact-laws.md), the striker goes through bead 0, and each engine stops at the first
// step where the pair overlaps by a radius, naming the striker and the bead, the step and the
// simulated time; a case's run adds what to change, by the case's keys, which the engine does
// not know. The chain engine stops at the same step, also when its passes run many steps at
// once.
TEST(ChainEngine, BothEnginesStopWhenAnOverlapReachesARadius) {
  for (const std::string radii : {"0.005", "0.005, 0.004"}) {
    std::int64_t stop_step = -1;
    for (const std::string engine : {"general", "chain"}) {
      SCOPED_TRACE(engine + ", radii " + radii);
      const std::string ini = walled_chain(20, "hertz", "", radii);
      const std::vector<std::string> fast{"striker.velocity=10000", "striker.gap=0"};
      Simulation sim = with_engine(ini, engine, fast);
      ASSERT_EQ(sim.uses_chain_engine(), engine == "chain");
      const double radius = std::min(sim.particles().radius(0), sim.particles().radius(1));
      const auto [step, fault] = step_until_stopped(
          sim, [](const Simulation& s) { return s.pair_contacts().overlap[0]; }, radius, 200);
      ASSERT_GT(step, 0);
      ASSERT_TRUE(fault);
      const std::string m = fault->what();
      const std::string at = "at step " + std::to_string(step) + " (t = ";
      EXPECT_NE(
          m.find("particles 0 and 1 (the striker and bead 0) overlap by a radius or more " + at),
          std::string::npos)
          << m;
      const double t = std::stod(m.substr(m.find(at) + at.size()));
      EXPECT_NEAR(t, static_cast<double>(step) * sim.time_step(), 1e-3 * t) << m;  // 4 digits
      // The same as data: the pair, the step and its time, its overlap past the smaller radius.
      const EngineFault::Facts& f = fault->facts;
      EXPECT_EQ(f.kind, EngineFault::Kind::too_deep);
      EXPECT_EQ(f.quantity, EngineFault::Quantity::overlap);
      EXPECT_EQ(f.particle, 0);
      EXPECT_EQ(f.other_particle, 1);
      EXPECT_FALSE(f.wall);
      EXPECT_EQ(f.step, step);
      EXPECT_EQ(f.time, static_cast<double>(step) * sim.time_step());
      EXPECT_EQ(f.limit, radius);
      EXPECT_GE(f.value, radius);
      // The advice is the case's: the engine names no key, the case's text does.
      const std::string text = case_fault_text(*fault);
      EXPECT_EQ(text.substr(0, m.size()), m);
      for (const char* advice : {"striker.velocity", "simulation.time_step"}) {
        EXPECT_EQ(m.find(advice), std::string::npos) << m;
        EXPECT_NE(text.find(advice), std::string::npos) << text;
      }
      EXPECT_EQ(text.find("simulation.engine"), std::string::npos) << text;  // no engine goes on
      if (stop_step < 0) stop_step = step;
      EXPECT_EQ(step, stop_step);  // both engines alike
      Simulation passes = with_engine(ini, engine, fast);
      try {
        passes.advance(200);
        ADD_FAILURE() << "the striker went through bead 0";
      } catch (const EngineFault& e) {  // at the same step, the overlap of that step
        EXPECT_NE(std::string(e.what()).find(at), std::string::npos) << e.what();
        EXPECT_EQ(e.facts.step, step);
        EXPECT_GE(e.facts.value, radius);
        EXPECT_EQ(e.facts.value, f.value);
      }
    }
  }
}

// Soft beads pulled onto the start wall sink into it, the striker first (it carries the weight
// of all of them): each engine stops at the first step where it overlaps the wall by its radius
// and names the particle, the wall and the step.
TEST(ChainEngine, BothEnginesStopWhenAParticleSinksARadiusIntoAWall) {
  for (const std::string engine : {"general", "chain"}) {
    SCOPED_TRACE(engine);
    Simulation sim = with_engine(
        walled_chain(5, "kelvin_voigt", "stiffness = 1\ndamping_coefficient = 0\n", "0.005"),
        engine,
        {"simulation.time_step=1e-4", "wall_start.gap=0", "striker.velocity=1e-3",
         "gravity.acceleration=-1000 0 0"});
    // Particle 0's deepest wall contact (the general engine's list changes as it moves).
    auto deepest = [](const Simulation& s) {
      const ContactList& walls = s.wall_contacts();
      double d = 0.0;
      for (std::size_t c = 0; c < walls.size(); ++c)
        if (walls.first[c] == 0) d = std::max(d, walls.overlap[c]);
      return d;
    };
    const auto [step, fault] = step_until_stopped(sim, deepest, sim.particles().radius(0), 20000);
    ASSERT_GT(step, 0);
    ASSERT_TRUE(fault);
    const std::string m = fault->what();
    EXPECT_NE(m.find("particle 0 (the striker) overlaps wall wall_start by its radius or more at "
                     "step " +
                     std::to_string(step) + " (t = "),
              std::string::npos)
        << m;
    const EngineFault::Facts& f = fault->facts;
    EXPECT_EQ(f.kind, EngineFault::Kind::too_deep);
    EXPECT_EQ(f.particle, 0);
    EXPECT_FALSE(f.other_particle);
    ASSERT_TRUE(f.wall);
    EXPECT_EQ(sim.scene().walls.at(*f.wall).name, "wall_start");
    EXPECT_EQ(f.step, step);
    EXPECT_EQ(f.limit, sim.particles().radius(0));
    EXPECT_GE(f.value, f.limit);
  }
}

// An extra sphere off the chain's axis (so the general engine) thrown at 10 km/s at the start
// wall goes through it in a few steps: the run stops, naming the sphere and the wall.
TEST(ChainEngine, GeneralEngineStopsASphereThrownThroughAWall) {
  Simulation sim = simulation_from(
      walled_chain(5, "hertz", "", "0.005"),
      {"extra.particles=steel 0.005 0.02 0.05 0 -10000 0 0", "wall_start.gap=0.002"});
  ASSERT_FALSE(sim.uses_chain_engine());
  const std::string m = runtime_error_of([&] { sim.advance(2000); });
  EXPECT_NE(m.find("particle 6 (extra sphere 0) overlaps wall wall_start by its radius or more at "
                   "step "),
            std::string::npos)
      << m;
}

}  // namespace
}  // namespace chaindem

namespace chaindem {
namespace {

// walled_chain, pre-compressed against its end wall instead and pulled along +x by gravity:
// every pair carries a changing force from the first step, all along the chain.
const std::vector<std::string> loaded{"wall_start.enabled=false", "chain.end_force=20",
                                      "chain.static_overlap=true", "gravity.acceleration=2000 0 0"};

// `chunk`: pairs per chunk of a tile's step (by default, the whole step at once).
Simulation tuned(const std::string& ini, std::vector<std::string> overrides, int threads,
                 int pass_steps, std::size_t tile, std::size_t chunk = std::size_t{1} << 30) {
  overrides.push_back("simulation.threads=" + std::to_string(threads));
  RunSetup run = test::setup_from(ini, overrides);
  run.settings.chain_pass_steps = pass_steps;
  run.settings.chain_tile_pairs = tile;
  run.settings.chain_chunk_pairs = chunk;
  Simulation sim(std::move(run.scene), run.settings);
  sim.track_extremes();
  sim.watch({{0, 1}, {1, 2}, {0, 5}},
            {0, 1, sim.particles().size() / 2, sim.particles().size() - 1});
  return sim;
}

// Every contact record, bit for bit: books, events and histories.
void expect_same_contacts(const ContactList& a, const ContactList& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.overlap, b.overlap);
  EXPECT_EQ(a.force, b.force);
  EXPECT_EQ(a.work, b.work);
  EXPECT_EQ(a.power, b.power);
  EXPECT_EQ(a.touching, b.touching);
  EXPECT_EQ(a.floor_hits, b.floor_hits);
  EXPECT_EQ(a.onset_evaluation, b.onset_evaluation);
  EXPECT_EQ(a.end_evaluation, b.end_evaluation);
  EXPECT_EQ(a.onset_rate, b.onset_rate);
  EXPECT_EQ(a.end_rate, b.end_rate);
  for (std::size_t c = 0; c < a.size(); ++c)
    test::expect_same_history(a.state_of(c), b.state_of(c), "contact " + std::to_string(c));
}

// A pass takes each tile of the chain through several steps while it is in cache, and threads
// take regions whose cut triangles are filled afterwards: none of it may change a bit of any
// result. The reference runs one step per pass, on one thread, in one tile, each step of it at
// once; the variants cut the chain into tiles of 14 to 512 pairs (at least twice the pass),
// passes of 3 to 64 steps, 1 to 3 regions and a tile's step into chunks of 1 to 128 pairs, on
// the vectorised pair loop (uniform chains: history-free, v0 and plastic laws) and on the
// per-pair loop (dimer chains), with a wall at either end or both,
// static or moving. The per-step record of watched contacts and particles must match too.
TEST(ChainEngine, PassesTilesAndRegionsChangeNoBit) {
  struct Variant {
    int threads, pass_steps;
    std::size_t tile, chunk;
  };
  const std::vector<Variant> variants{
      {1, 7, 8, 3}, {2, 32, 512, 128}, {3, 5, 16, 1}, {2, 64, 100, 37}};
  struct Case {
    int beads;
    std::string law, extra, radii;
    std::vector<std::string> overrides;
    bool loaded_cuts;  // the pairs at the region cuts carry a force
    bool walls_hit;    // both end particles met a wall
  };
  auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const std::vector<Case> cases{
      {5000, "hunt_crossley", "restitution = 0.7\n", "0.005", loaded, true, false},
      // The end wall moves in (wall positions and wall work per step of a pass).
      {5000, "edem_hertz_mindlin", "restitution = 0.7\n", "0.005",
       with(loaded, {"wall_end.velocity=-0.2"}), true, false},
      {5000, "hunt_crossley", "restitution = 0.7\n", "0.005, 0.004", loaded, true, false},
      {5000, "thornton_1997", "", "0.005", loaded, true, false},
      // Both walls: a slow striker resting on the start wall, everything pulled towards it.
      {5000,
       "edem_hertz_mindlin",
       "restitution = 0.7\n",
       "0.005",
       {"wall_start.gap=0", "striker.velocity=0.01", "gravity.acceleration=-2000 0 0"},
       false,
       true},
      // Short enough for the pulse to come back from the end wall, many times.
      {40, "lankarani_nikravesh_plastic", "restitution = 0.6\n", "0.005, 0.004", {}, false, true},
      {40, "hunt_crossley", "restitution = 0.9\n", "0.005", {}, false, true}};
  for (const Case& k : cases) {
    SCOPED_TRACE(k.law + " radii " + k.radii + " beads " + std::to_string(k.beads) + " " +
                 (k.overrides.empty() ? "" : k.overrides.back()));
    const std::string ini = walled_chain(k.beads, k.law, k.extra, k.radii);
    const std::int64_t steps = k.beads > 1000 ? 700 : 20000;
    Simulation reference = tuned(ini, k.overrides, 1, 1, 1 << 30);
    std::vector<Simulation::StepLog::Contact> touching;
    std::vector<double> rate, speed;
    for (std::int64_t s = 0; s < steps; ++s) {
      reference.step();
      const Simulation::StepLog& log = reference.step_log();
      ASSERT_EQ(log.steps, 1);
      touching.insert(touching.end(), log.touching.begin(), log.touching.end());
      rate.insert(rate.end(), log.rate.begin(), log.rate.end());
      speed.insert(speed.end(), log.speed.begin(), log.speed.end());
    }
    ASSERT_TRUE(reference.uses_chain_engine());
    // Particles and pairs move at the cuts between regions, where the passes' seams are.
    for (const int i : {k.beads / 3, k.beads / 2, 2 * k.beads / 3}) {
      if (k.beads < 1000) break;  // one region
      EXPECT_NE(reference.particles().velocity(i, 0), 0.0) << i;
      if (k.loaded_cuts) {
        EXPECT_GT(reference.pair_contacts().force[static_cast<std::size_t>(i)], 0.0) << i;
      }
    }
    if (k.walls_hit) {
      EXPECT_GT(reference.peak_contact_force()(0), 0.0);
      EXPECT_GT(reference.peak_contact_force()(k.beads), 0.0);
    }
    for (const Variant& v : variants) {
      SCOPED_TRACE("threads " + std::to_string(v.threads) + ", passes of " +
                   std::to_string(v.pass_steps) + " steps, tiles of " + std::to_string(v.tile) +
                   ", chunks of " + std::to_string(v.chunk));
      Simulation sim = tuned(ini, k.overrides, v.threads, v.pass_steps, v.tile, v.chunk);
      sim.advance(steps);
      const Particles& a = sim.particles();
      const Particles& b = reference.particles();
      EXPECT_TRUE((a.position == b.position).all());
      EXPECT_TRUE((a.velocity == b.velocity).all());
      EXPECT_TRUE((a.force == b.force).all());
      EXPECT_TRUE((sim.peak_contact_force() == reference.peak_contact_force()).all());
      EXPECT_TRUE((sim.peak_velocity_x() == reference.peak_velocity_x()).all());
      expect_same_contacts(sim.pair_contacts(), reference.pair_contacts());
      expect_same_contacts(sim.wall_contacts(), reference.wall_contacts());
      const EnergyReport e = sim.energies(), f = reference.energies();
      EXPECT_EQ(e.dissipated, f.dissipated);
      EXPECT_EQ(e.stored, f.stored);
      EXPECT_EQ(e.wall_work, f.wall_work);
      EXPECT_EQ(sim.time(), reference.time());
      EXPECT_EQ(sim.step_count(), steps);
      EXPECT_EQ(sim.step_log().steps, steps);
      EXPECT_EQ(sim.step_log().touching, touching);
      EXPECT_EQ(sim.step_log().rate, rate);
      EXPECT_EQ(sim.step_log().speed, speed);
    }
    // The watched pair (0, 5) is never a contact of a chain; (0, 1) is the striker's.
    EXPECT_EQ(touching[2], Simulation::StepLog::Contact::not_a_candidate);
    EXPECT_NE(std::find(touching.begin(), touching.end(), Simulation::StepLog::Contact::touching),
              touching.end());
  }
}

}  // namespace
}  // namespace chaindem

namespace chaindem {
namespace {

// Random chains (2 to 41 beads, some of 5000), laws, walls (moving), pass lengths, tile sizes,
// thread counts and advance() chunks, each against one step at a time: no bit may differ.
TEST(ChainEngine, RandomPassesMatchStepByStep) {
  std::mt19937 rng(7);  // fixed: the same cases on every run
  const std::vector<std::string> laws{"hertz\n", "hunt_crossley\nrestitution = 0.6\n",
                                      "lankarani_nikravesh_plastic\nrestitution = 0.5\n",
                                      "edem_hertz_mindlin\nrestitution = 0.8\n", "thornton_1997\n"};
  int start_wall_hits = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int beads = 2 + static_cast<int>(rng() % 40) + (trial % 10 == 0 ? 5000 : 0);
    const bool start_wall = rng() % 2, end_wall = rng() % 2;
    const std::string ini =
        "[simulation]\nduration = 1\nsteps_per_contact = 40\n[contact]\nlaw = " +
        laws[rng() % laws.size()] + test::material_section("steel", test::elastoplastic_steel) +
        "[chain]\ncount = " + std::to_string(beads) +
        "\nmaterials = steel\nradii = " + (rng() % 2 ? "0.005" : "0.005, 0.004") +
        "\n[striker]\nvelocity = 2\ngap = 0\n" +
        (start_wall ? "[wall_start]\nenabled = true\nmaterial = steel\ngap = 0\nvelocity = 0.1\n"
                    : "") +
        (end_wall ? "[wall_end]\nenabled = true\nmaterial = steel\ngap = 0\nvelocity = -0.3\n"
                  : "");
    const auto steps = static_cast<std::int64_t>(1 + rng() % (beads > 1000 ? 300 : 3000));
    const int threads = 1 + static_cast<int>(rng() % 3), pass = 1 + static_cast<int>(rng() % 40);
    const std::size_t tile = 1 + rng() % 64, chunk = 1 + rng() % 100;
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(beads) + " beads, " +
                 std::to_string(steps) + " steps, threads " + std::to_string(threads) +
                 ", passes of " + std::to_string(pass) + ", tiles of " + std::to_string(tile) +
                 ", chunks of " + std::to_string(chunk));
    Simulation reference = tuned(ini, {}, 1, 1, 1 << 30);
    for (std::int64_t s = 0; s < steps; ++s) reference.step();
    Simulation sim = tuned(ini, {}, threads, pass, tile, chunk);
    for (std::int64_t left = steps; left > 0;) {
      const auto n = std::min<std::int64_t>(left, 1 + static_cast<std::int64_t>(rng() % 300));
      sim.advance(n);
      left -= n;
    }
    ASSERT_TRUE(sim.uses_chain_engine());
    EXPECT_TRUE((sim.particles().position == reference.particles().position).all());
    EXPECT_TRUE((sim.particles().velocity == reference.particles().velocity).all());
    EXPECT_TRUE((sim.peak_contact_force() == reference.peak_contact_force()).all());
    EXPECT_TRUE((sim.peak_velocity_x() == reference.peak_velocity_x()).all());
    expect_same_contacts(sim.pair_contacts(), reference.pair_contacts());
    expect_same_contacts(sim.wall_contacts(), reference.wall_contacts());
    EXPECT_EQ(sim.energies().dissipated, reference.energies().dissipated);
    EXPECT_EQ(sim.energies().wall_work, reference.energies().wall_work);
    EXPECT_GT(reference.peak_contact_force().maxCoeff(), 0.0);  // something happened
    start_wall_hits += start_wall && reference.peak_contact_force()(0) > 0.0;
  }
  EXPECT_GT(start_wall_hits, 50);
}

}  // namespace
}  // namespace chaindem

namespace chaindem {
namespace {

// The vectorised pair loop (uniform chains: history-free, v0-only and plastic laws, the last
// with their history in columns and plastic flow handed to the per-pair update) computes what
// the per-pair loop computes, bit for bit: particles, every contact's history, energies. Struck
// chains yield near the striker and stay elastic further on, so both the branch-free elastic
// regime and the hand-over to the per-pair update run; a loaded chain presses every pair.
TEST(ChainEngine, VectorisedPairLoopsEqualThePerPairLoop) {
  std::vector<std::pair<std::string, std::string>> laws{
      {"hunt_crossley", "restitution = 0.7\n"},
      {"edem_hertz_mindlin", "restitution = 0.7\n"},
      {"lankarani_nikravesh_plastic", "restitution = 0.6\n"}};
  // Every elastoplastic law whose parameters do not depend on the pair.
  for (const test::ElastoplasticLaw& l : test::elastoplastic_laws)
    if (l.pair_params.empty()) laws.emplace_back(l.id, test::ini_lines(l.params));
  // Struck slowly (elastic) and fast (plastic where the pulse has
  // been), loaded (every pair pressed from the first step), and loaded lightly, so that pressed
  // pairs open behind the pulse and touch again from delta = 0.
  const std::vector<std::string> light{"wall_start.enabled=false", "chain.end_force=0.2",
                                       "chain.static_overlap=true",
                                       "gravity.acceleration=2000 0 0"};
  const std::vector<std::vector<std::string>> runs{
      {"striker.velocity=0.01"}, {"striker.velocity=1.5"}, loaded, light};
  for (const auto& [law, extra] : laws) {
    const bool elastoplastic = find_law(law)->family == Family::elastoplastic;
    int plastic = 0, elastic_frozen = 0;  // pairs that yielded; that unloaded elastically
    int reopened = 0;  // pre-compressed pairs that separated and touched again (origin reset)
    for (const auto& overrides : runs) {
      SCOPED_TRACE(law + ", " + overrides.back());
      const std::string ini = walled_chain(300, law, extra, "0.005");
      auto make = [&](bool vectorised) {
        RunSetup run = test::setup_from(ini, overrides);
        run.settings.chain_vector_pairs = vectorised;
        return Simulation(std::move(run.scene), run.settings);
      };
      Simulation vector = make(true), scalar = make(false);
      ASSERT_TRUE(vector.uses_vectorised_pairs());
      ASSERT_FALSE(scalar.uses_vectorised_pairs());
      for (int chunk = 0; chunk < 30; ++chunk) {  // many advance() calls: columns in and out
        vector.advance(200);
        scalar.advance(200);
      }
      EXPECT_TRUE((vector.particles().position == scalar.particles().position).all());
      EXPECT_TRUE((vector.particles().velocity == scalar.particles().velocity).all());
      EXPECT_TRUE((vector.particles().force == scalar.particles().force).all());
      const ContactList& a = vector.pair_contacts();
      const ContactList& b = scalar.pair_contacts();
      expect_same_contacts(a, b);
      for (std::size_t c = 0; c < a.size(); ++c) {
        const ContactState& s = a.state_of(c);
        if (overrides == light && c > 0) reopened += a.end_step(c) >= 0;
        plastic += s.residual_overlap > 0.0;
        elastic_frozen += s.unload_exponent == 1.5 && s.residual_overlap == 0.0;
      }
      const EnergyReport e = vector.energies(), f = scalar.energies();
      EXPECT_EQ(e.dissipated, f.dissipated);
      EXPECT_EQ(e.stored, f.stored);
    }
    if (law == "hunt_crossley") {
      EXPECT_GT(reopened, 0);
    }
    // Both the branch-free elastic regime and the hand-over to the per-pair update ran.
    if (elastoplastic || law == "lankarani_nikravesh_plastic") {
      EXPECT_GT(plastic, 0) << law;
    }
    if (elastoplastic) {
      EXPECT_GT(elastic_frozen, 0) << law;
    }
  }
}

}  // namespace
}  // namespace chaindem
