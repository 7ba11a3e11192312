// Chains of several media: every contact obeys the model its materials (or its wall) give it
// (SimulationSettings::contact_table), on both engines. A table that gives every contact the
// default changes no bit; a chain of steel and PTFE under three laws follows its equations of
// motion, integrated here independently; its energy books close model by model; and it is
// deterministic for any thread count, pass, tile and pair loop.

#include <gtest/gtest.h>

#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/engine/state_archive.hpp"
#include "test_support.hpp"

namespace chaindem {
namespace {

using EngineChoice = SimulationSettings::EngineChoice;

// The two media: steel, and PTFE (its yield stress for the elastoplastic laws: a generic value of
// these tests).
const Material steel{"steel", 200e9, 0.3, 7800.0, 1.5e9};
const Material ptfe{"ptfe", 0.5e9, 0.46, 2200.0, 2e7};
constexpr int steel_index = 0, ptfe_index = 1;
constexpr double radius = 0.005;

// Bodies of materials `kinds` (steel_index or ptfe_index) on the x axis, radius 5 mm, each `gap`
// after the one before, with velocities `v` along x; body 0 is the striker. Walls (steel) `gap`
// before the first body and after the last, where asked.
Scene line_of(const std::vector<int>& kinds, const std::vector<double>& v, double gap,
              bool start_wall, bool end_wall) {
  Scene scene;
  scene.materials = {steel, ptfe};
  const auto n = static_cast<Eigen::Index>(kinds.size());
  scene.particles.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const int kind = kinds[static_cast<std::size_t>(i)];
    scene.particles.set(i, {radius + static_cast<double>(i) * (2.0 * radius + gap), 0.0, 0.0},
                        {v[static_cast<std::size_t>(i)], 0.0, 0.0}, radius, kind,
                        scene.materials[static_cast<std::size_t>(kind)].density);
  }
  scene.striker = 0;
  scene.chain_first = 1;
  scene.chain_count = n - 1;
  auto wall = [&](const char* name, double x, double normal_x) {
    Wall w;
    w.name = name;
    w.point = {x, 0.0, 0.0};
    w.normal = {normal_x, 0.0, 0.0};
    w.material = steel_index;
    return w;
  };
  if (start_wall) scene.walls.push_back(wall("wall_start", -gap, 1.0));
  if (end_wall)
    scene.walls.push_back(
        wall("wall_end", scene.particles.position(n - 1, 0) + radius + gap, -1.0));
  return scene;
}

ContactModel model_of(std::string_view law, const LawParams& given = {}) {
  const LawEntry& l = test::law(law);
  return {&l, resolve_law_params(l, given), TensionPolicy::clamp};
}

// Settings whose default (model 0) is `m`: the reference impact velocity 1 m/s for the laws
// that read one.
SimulationSettings settings_of(const ContactModel& m, double dt, EngineChoice engine,
                               int threads = 1) {
  SimulationSettings s;
  s.law = m.law;
  s.law_params = m.params;
  s.tension = m.tension;
  s.time_step = dt;
  s.skin = 0.1 * radius;
  s.engine = engine;
  s.threads = threads;
  s.impact_velocity = SimulationSettings::ImpactVelocity::reference;
  s.reference_velocity = 1.0;
  return s;
}

// The table of models[0..2] for steel-steel, steel-PTFE and PTFE-PTFE pairs, `wall` for every
// wall against PTFE and `models[0]`'s for every wall against steel: models beyond 0 are the
// table's, model 0 stays the settings' own.
void set_table(SimulationSettings& s, const std::vector<ContactModel>& models, int ss, int sp,
               int pp, int wall_ptfe, std::size_t walls) {
  s.contact_table.models = models;
  s.contact_table.materials = 2;
  s.contact_table.pair_model = {ss, sp, sp, pp};
  s.contact_table.wall_model.clear();
  for (std::size_t w = 0; w < walls; ++w)
    s.contact_table.wall_model.insert(s.contact_table.wall_model.end(), {ss, wall_ptfe});
}

// Bit-for-bit equality of everything a run leaves: particles, contact records, energies.
void expect_same_run(const Simulation& a, const Simulation& b, const std::string& what) {
  const Particles &pa = a.particles(), &pb = b.particles();
  EXPECT_TRUE((pa.position == pb.position).all()) << what;
  EXPECT_TRUE((pa.velocity == pb.velocity).all()) << what;
  EXPECT_TRUE((pa.force == pb.force).all()) << what;
  for (const auto& [x, y] : {std::pair{&a.pair_contacts(), &b.pair_contacts()},
                             std::pair{&a.wall_contacts(), &b.wall_contacts()}}) {
    ASSERT_EQ(x->size(), y->size()) << what;
    EXPECT_EQ(x->force, y->force) << what;
    EXPECT_EQ(x->overlap, y->overlap) << what;
    EXPECT_EQ(x->work, y->work) << what;
    EXPECT_EQ(x->power, y->power) << what;
    EXPECT_EQ(x->onset_evaluation, y->onset_evaluation) << what;
    EXPECT_EQ(x->end_evaluation, y->end_evaluation) << what;
    for (std::size_t c = 0; c < x->size(); ++c)
      test::expect_same_history(x->state[c], y->state[c], what + ", contact " + std::to_string(c));
  }
  const EnergyReport ea = a.energies(), eb = b.energies();
  EXPECT_EQ(ea.kinetic, eb.kinetic) << what;
  EXPECT_EQ(ea.stored, eb.stored) << what;
  EXPECT_EQ(ea.dissipated, eb.dissipated) << what;
  EXPECT_EQ(ea.wall_work, eb.wall_work) << what;
}

// `count` bodies in blocks of one medium, the blocks' lengths cycling through `blocks`, the first
// block steel; random velocities of up to 0.05 m/s (a fixed draw) so that pairs meet all along
// the chain from the first steps.
Scene blocks_chain(std::size_t count, const std::vector<std::size_t>& blocks, bool walls) {
  std::vector<int> kinds;
  for (std::size_t b = 0; kinds.size() < count; ++b)
    kinds.insert(kinds.end(), std::min(blocks[b % blocks.size()], count - kinds.size()),
                 b % 2 == 0 ? steel_index : ptfe_index);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> speed(-0.05, 0.05);
  std::vector<double> v(count);
  for (double& x : v) x = speed(rng);
  return line_of(kinds, v, 0.0, walls, walls);
}

// A table that gives every contact the default, as a copy of it under other indices, or by
// naming models no contact obeys, changes no bit of the run: on the chain engine (segments of
// one model each, some long and uniform enough for the vectorised loop) and on the general engine
// (its pairs in groups by model), also with an off-axis sphere, for 1 and 2 threads.
TEST(ContactModels, TableOfTheDefaultChangesNoBit) {
  const ContactModel hc = model_of("hunt_crossley", {{"restitution", 0.7}});
  const double dt = 2e-7;
  for (const EngineChoice engine : {EngineChoice::chain, EngineChoice::general})
    for (const bool off_axis : {false, true}) {
      if (off_axis && engine == EngineChoice::chain) continue;
      Scene scene = blocks_chain(6000, {300, 1, 2, 700, 3}, true);
      if (off_axis) {  // a PTFE sphere off the axis, falling onto bead 3 (x = 0.035 m)
        const Eigen::Index n = scene.particles.size();
        scene.particles.resize(n + 1);
        scene.particles.set(n, {0.035, 2.0 * radius + 1e-6, 0.0}, {0.0, -0.5, 0.0}, radius,
                            ptfe_index, ptfe.density);
      }
      for (const int threads : {1, 2}) {
        const std::string what = std::string(engine == EngineChoice::chain ? "chain" : "general") +
                                 (off_axis ? " with an off-axis sphere" : "") + ", " +
                                 std::to_string(threads) + " threads";
        SCOPED_TRACE(what);
        auto run = [&](const SimulationSettings& s) {
          Simulation sim(scene, s);
          sim.advance(400);
          return sim;
        };
        const SimulationSettings plain = settings_of(hc, dt, engine, threads);
        const Simulation reference = run(plain);
        EXPECT_EQ(reference.uses_chain_engine(), engine == EngineChoice::chain);
        EXPECT_GT(reference.energies().dissipated, 0.0);
        // Copies of the default as models 1, 2 and 3, for the three kinds of pair and the walls.
        SimulationSettings copies = plain;
        set_table(copies, {hc, hc, hc}, 1, 2, 3, 2, scene.walls.size());
        const Simulation copied = run(copies);
        expect_same_run(copied, reference, what + ", copies of the default");
        if (engine == EngineChoice::chain) {  // the same loops as the one-model chain
          EXPECT_TRUE(copied.uses_vectorised_pairs());
        }
        // Models 1 and 2 named but obeyed by no contact.
        SimulationSettings unused = plain;
        set_table(unused,
                  {model_of("hertz"), model_of("kuwabara_kono", {{"eta1", 1.0}, {"eta2", 1.0}})}, 0,
                  0, 0, 0, scene.walls.size());
        expect_same_run(run(unused), reference, what + ", models no contact obeys");
        const std::vector<double> parts = copied.dissipated_by_model();
        ASSERT_EQ(parts.size(), 4u);
        EXPECT_EQ(parts[0], 0.0);  // no contact obeys model 0
        for (int m = 1; m <= 3; ++m) EXPECT_GT(parts[static_cast<std::size_t>(m)], 0.0) << m;
      }
    }
}

namespace odeint = boost::numeric::odeint;

// The chain of two media: a steel striker at 1 m/s, 6 steel beads, then 6 PTFE beads, 2 um
// apart, and a steel wall 2 um after the last. Steel on steel obeys Hertz (model 0), steel on
// PTFE and the wall on PTFE Hunt and Crossley (model 1), PTFE on PTFE Kuwabara and Kono
// (model 2).
constexpr double chain_gap = 2e-6, restitution = 0.8, eta1 = 1000.0, eta2 = 5000.0;
enum Law { hertz, hunt_crossley, kuwabara_kono };
const std::vector<int> two_media{steel_index, steel_index, steel_index, steel_index, steel_index,
                                 steel_index, steel_index, ptfe_index,  ptfe_index,  ptfe_index,
                                 ptfe_index,  ptfe_index,  ptfe_index};

Scene two_media_chain() {
  std::vector<double> v(two_media.size(), 0.0);
  v[0] = 1.0;
  return line_of(two_media, v, chain_gap, false, true);
}

SimulationSettings two_law_settings(double dt, EngineChoice engine) {
  SimulationSettings s = settings_of(model_of("hertz"), dt, engine);
  set_table(s,
            {model_of("hunt_crossley", {{"restitution", restitution}}),
             model_of("kuwabara_kono", {{"eta1", eta1}, {"eta2", eta2}})},
            hertz, hunt_crossley, kuwabara_kono, hunt_crossley, 1);
  return s;
}

// The contact force of `law` between bodies of materials a and b, of effective radius r, at
// overlap d and approach rate v, written again from the published forms (docs/contact-laws.md),
// not through the engine's kernels: Hertz K d^(3/2) with K = (4/3) E* sqrt(R*) and
// 1/E* = (1 - nu_a^2)/E_a + (1 - nu_b^2)/E_b; Hunt and Crossley (1975) K d^(3/2) (1 + alpha v/v0)
// with alpha = 3 (1 - c_r)/2 and v0 the reference speed, 1 m/s; Kuwabara and Kono (1987)
// K d^(3/2) + chi d^(1/2) v with chi = (K/2) (3 eta2 - eta1)^2/(3 eta2 + 2 eta1)
// (1 - nu^2)(1 - 2 nu)/(E nu^2), E and nu the bodies' means. No force apart, none pulling.
double closed_form_force(Law law, const Material& a, const Material& b, double r, double d,
                         double v) {
  if (!(d > 0.0)) return 0.0;
  const double e_star = 1.0 / ((1.0 - a.poisson_ratio * a.poisson_ratio) / a.youngs_modulus +
                               (1.0 - b.poisson_ratio * b.poisson_ratio) / b.youngs_modulus);
  const double k = 4.0 / 3.0 * e_star * std::sqrt(r);
  double f = k * std::pow(d, 1.5);
  if (law == hunt_crossley) f *= 1.0 + 1.5 * (1.0 - restitution) * v / 1.0;
  if (law == kuwabara_kono) {
    const double e = 0.5 * (a.youngs_modulus + b.youngs_modulus);
    const double nu = 0.5 * (a.poisson_ratio + b.poisson_ratio);
    const double chi = 0.5 * k * (3.0 * eta2 - eta1) * (3.0 * eta2 - eta1) /
                       (3.0 * eta2 + 2.0 * eta1) * (1.0 - nu * nu) * (1.0 - 2.0 * nu) /
                       (e * nu * nu);
    f += chi * std::sqrt(d) * v;
  }
  return std::max(f, 0.0);
}

// The chain's equations of motion integrated by Dormand-Prince (odeint's runge_kutta_dopri5,
// adaptive, relative tolerance `tolerance`) to time t: the bodies' positions and velocities along
// x, from their displacements (small numbers, so that the tolerance bounds what the overlaps
// see).
struct ChainState {
  std::vector<double> x, v;
};
ChainState integrate_chain(double t, double tolerance) {
  const Scene scene = two_media_chain();
  const std::size_t n = two_media.size();
  auto material = [&](std::size_t i) -> const Material& { return two_media[i] ? ptfe : steel; };
  auto law_of = [](int a, int b) {
    return a != b ? hunt_crossley : a == steel_index ? hertz : kuwabara_kono;
  };
  std::vector<double> mass(n);
  for (std::size_t i = 0; i < n; ++i)
    mass[i] = material(i).density * 4.0 / 3.0 * std::numbers::pi * std::pow(radius, 3);
  auto rhs = [&](const std::vector<double>& y, std::vector<double>& dy, double) {
    std::vector<double> f(n, 0.0);
    for (std::size_t k = 0; k + 1 < n; ++k) {
      // Overlap of bodies k and k + 1: their gap closed by the displacements.
      const double d = (y[k] - y[k + 1]) - chain_gap, rate = y[n + k] - y[n + k + 1];
      const double force = closed_form_force(law_of(two_media[k], two_media[k + 1]), material(k),
                                             material(k + 1), 0.5 * radius, d, rate);
      f[k] -= force;
      f[k + 1] += force;
    }
    f[n - 1] -= closed_form_force(law_of(steel_index, two_media[n - 1]), steel, material(n - 1),
                                  radius, y[n - 1] - chain_gap, y[2 * n - 1]);
    for (std::size_t i = 0; i < n; ++i) {
      dy[i] = y[n + i];
      dy[n + i] = f[i] / mass[i];
    }
  };
  std::vector<double> y(2 * n, 0.0);
  y[n] = 1.0;  // the striker
  odeint::integrate_adaptive(
      odeint::make_controlled<odeint::runge_kutta_dopri5<std::vector<double>>>(1e-3 * tolerance,
                                                                               tolerance),
      rhs, y, 0.0, t, 1e-9);
  ChainState s{std::vector<double>(n),
               std::vector<double>(y.begin() + static_cast<long>(n), y.end())};
  for (std::size_t i = 0; i < n; ++i)
    s.x[i] = scene.particles.position(static_cast<Eigen::Index>(i), 0) + y[i];
  return s;
}

// The largest difference of any body's velocity [m/s] and position [m] from the state s.
std::pair<double, double> distance_from(const Simulation& sim, const ChainState& s) {
  double dv = 0.0, dx = 0.0;
  for (std::size_t i = 0; i < s.x.size(); ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    dv = std::max(dv, std::abs(sim.particles().velocity(k, 0) - s.v[i]));
    dx = std::max(dx, std::abs(sim.particles().position(k, 0) - s.x[i]));
  }
  return {dv, dx};
}

// The chain of steel and PTFE under three laws follows, bead for bead, its equations of motion
// written and integrated independently, on both engines, to second order in the time step: the
// error halves twice when the step halves. By the end the pulse has crossed both media, the
// interface and the wall's contact, each under its own law.
TEST(ContactModels, TwoLawChainFollowsItsEquationsOfMotion) {
  const double t_end = 1.5e-3, dt = 5e-7;
  const ChainState exact = integrate_chain(t_end, 1e-12);
  // The reference's own error is far below what is measured against it.
  const auto [ode_dv, ode_dx] = [&] {
    const ChainState looser = integrate_chain(t_end, 1e-10);
    double dv = 0.0, dx = 0.0;
    for (std::size_t i = 0; i < exact.x.size(); ++i) {
      dv = std::max(dv, std::abs(looser.v[i] - exact.v[i]));
      dx = std::max(dx, std::abs(looser.x[i] - exact.x[i]));
    }
    return std::pair{dv, dx};
  }();
  for (const EngineChoice engine : {EngineChoice::chain, EngineChoice::general}) {
    SCOPED_TRACE(engine == EngineChoice::chain ? "chain engine" : "general engine");
    std::vector<std::pair<double, double>> errors;
    for (const double step : {dt, 0.5 * dt}) {
      Simulation sim(two_media_chain(), two_law_settings(step, engine));
      ASSERT_EQ(sim.uses_chain_engine(), engine == EngineChoice::chain);
      sim.advance(std::llround(t_end / step));
      ASSERT_NEAR(sim.time(), t_end, 1e-15);
      errors.push_back(distance_from(sim, exact));
      // Every pair and the wall met, each kind under its own model.
      for (const ContactList* cl : {&sim.pair_contacts(), &sim.wall_contacts()})
        for (std::size_t c = 0; c < cl->size(); ++c) {
          EXPECT_GE(cl->onset_step(c), 0) << c;
          const int a = two_media[static_cast<std::size_t>(cl->first_of(c))];
          const int b = cl == &sim.wall_contacts()
                            ? steel_index
                            : two_media[static_cast<std::size_t>(cl->second_of(c))];
          EXPECT_EQ(cl->model[c], a != b ? 1 : a == steel_index ? 0 : 2) << c;
        }
    }
    EXPECT_LT(errors[0].first, 1e-3);  // of the striker's 1 m/s
    for (const auto& [dv, dx] : errors) {
      EXPECT_GT(dv, 100.0 * ode_dv);
      EXPECT_GT(dx, 100.0 * ode_dx);
    }
    // Second order: the error at dt/2 is a quarter of that at dt.
    EXPECT_NEAR(errors[0].first / errors[1].first, 4.0, 0.4);
    EXPECT_NEAR(errors[0].second / errors[1].second, 4.0, 0.4);
  }
}

// The two-media chain under four models: Hertz between steel beads, Hunt and Crossley between
// steel and PTFE, Thornton's elastoplastic law between PTFE beads, Kuwabara and Kono between the
// wall and PTFE; v0 by the energy policy.
SimulationSettings four_law_settings(double dt, EngineChoice engine) {
  SimulationSettings s = settings_of(model_of("hertz"), dt, engine);
  s.impact_velocity = SimulationSettings::ImpactVelocity::energy;
  set_table(s,
            {model_of("hunt_crossley", {{"restitution", 0.6}}), model_of("thornton_1997"),
             model_of("kuwabara_kono", {{"eta1", eta1}, {"eta2", eta2}})},
            0, 1, 2, 3, 1);
  return s;
}

// The energy books of a chain of several laws close: kinetic + stored + dissipated stays the
// striker's energy to the integrator's error (a quarter of it at half the step), on both
// engines, also where pairs leave the general engine's neighbor structure (no end wall: the PTFE
// beads fly off). The dissipation of each model is that of its contacts alone: Hertz's none at
// all, each damped or plastic law's some, and together the total.
TEST(ContactModels, EnergyBooksCloseModelByModel) {
  const double dt = 2.5e-7, t_end = 5e-3;
  for (const EngineChoice engine : {EngineChoice::chain, EngineChoice::general})
    for (const bool end_wall : {true, false}) {
      if (!end_wall && engine == EngineChoice::chain) continue;
      SCOPED_TRACE(std::string(engine == EngineChoice::chain ? "chain" : "general") +
                   (end_wall ? ", end wall" : ", free end"));
      std::vector<double> imbalance;
      for (const double step : {dt, 0.5 * dt}) {
        std::vector<double> v(two_media.size(), 0.0);
        v[0] = 1.0;
        SimulationSettings s = four_law_settings(step, engine);
        if (!end_wall) s.contact_table.wall_model.clear();
        Simulation sim(line_of(two_media, v, chain_gap, false, end_wall), s);
        const double e0 = sim.energies().balance();
        EXPECT_EQ(e0, sim.energies().kinetic);
        double worst = 0.0;
        const std::int64_t steps = std::llround(t_end / step);
        for (int chunk = 0; chunk < 40; ++chunk) {
          sim.advance(steps / 40);
          worst = std::max(worst, std::abs(sim.energies().balance() - e0));
        }
        imbalance.push_back(worst / e0);
        const EnergyReport e = sim.energies();
        const std::vector<double> parts = sim.dissipated_by_model();
        ASSERT_EQ(parts.size(), 4u);
        EXPECT_EQ(parts[0], 0.0);  // Hertz is elastic
        EXPECT_GT(parts[1], 0.05 * e0);
        EXPECT_GT(parts[2], 0.05 * e0);
        if (end_wall) {
          EXPECT_GT(parts[3], 0.0);
        } else {
          EXPECT_EQ(parts[3], 0.0);  // no wall
          EXPECT_GT(sim.neighbor_rebuilds(), 1);
          EXPECT_LT(sim.pair_contacts().size(), two_media.size() - 1);  // pairs have left
        }
        EXPECT_NEAR(parts[0] + parts[1] + parts[2] + parts[3], e.dissipated, 1e-12 * e0);
        EXPECT_GT(e.dissipated, 0.3 * e0);
      }
      EXPECT_LT(imbalance[0], 2e-5);
      EXPECT_NEAR(imbalance[0] / imbalance[1], 4.0, 1.0);
    }
}

// The stored energy shared among the bodies adds up to the total the energy books hold, at every
// stage of a chain of four laws (elastic, damped, plastic, and the wall's), on both engines: each
// pair's shares are halves, each wall contact's goes all to its bead. A bead alone against the
// wall holds all that wall contact stores; the striker, touching no one, none.
TEST(ContactModels, StoredEnergySharedAmongTheBodiesAddsUp) {
  for (const EngineChoice engine : {EngineChoice::chain, EngineChoice::general}) {
    SCOPED_TRACE(engine == EngineChoice::chain ? "chain" : "general");
    std::vector<double> v(two_media.size(), 0.0);
    v[0] = 1.0;
    Simulation sim(line_of(two_media, v, chain_gap, false, true),
                   four_law_settings(2.5e-7, engine));
    int touched = 0;
    for (int chunk = 0; chunk < 40; ++chunk) {
      sim.advance(500);
      const std::vector<double> shares = sim.stored_energy_by_particle();
      ASSERT_EQ(shares.size(), two_media.size());
      double sum = 0.0;
      for (const double u : shares) {
        EXPECT_GE(u, 0.0);
        sum += u;
      }
      const double stored = sim.energies().stored;
      EXPECT_NEAR(sum, stored, 1e-12 * sim.energies().balance());
      touched += stored > 0.0;
    }
    EXPECT_GT(touched, 10);  // the pulse was in the chain: the sums were not of zeros
  }
  // A steel striker pressed 1 um into a PTFE bead, itself pressed 1 um into the steel end wall,
  // at rest: each contact stores Hertz's (2/5) K d^(5/2), K = (4/3) E* sqrt(R*) (R* = R/2 for
  // the pair, R for the wall), the pair's shared, the wall's all the bead's.
  const double d = 1e-6;
  Simulation sim(line_of({steel_index, ptfe_index}, {0.0, 0.0}, -d, false, true),
                 four_law_settings(2.5e-7, EngineChoice::chain));
  auto hertz_energy = [&](double r_eff) {
    const double e_eff =
        1.0 / ((1.0 - steel.poisson_ratio * steel.poisson_ratio) / steel.youngs_modulus +
               (1.0 - ptfe.poisson_ratio * ptfe.poisson_ratio) / ptfe.youngs_modulus);
    return 0.4 * (4.0 / 3.0) * e_eff * std::sqrt(r_eff) * std::pow(d, 2.5);
  };
  const double pair = hertz_energy(radius / 2), wall = hertz_energy(radius);
  const std::vector<double> shares = sim.stored_energy_by_particle();
  EXPECT_NEAR(shares[0], pair / 2, 1e-9 * pair);
  EXPECT_NEAR(shares[1], pair / 2 + wall, 1e-9 * wall);
}

// A long chain of steel and PTFE blocks (from 1 to 700 beads) under three laws, one of them
// reading v0 (Hunt and Crossley, steel on steel) and one plastic (Thornton, PTFE on PTFE), whose
// long blocks run the vectorised loop with their histories in columns and whose interfaces and
// short blocks the per-pair loop: any thread count, pass, tile and chunk, and the per-pair loop
// everywhere, give the bits of a one-step, one-thread, one-tile run. The general engine agrees to
// rounding (it computes the normal as dx/|dx|).
TEST(ContactModels, MixedChainChangesNoBitWithThreadsPassesAndLoops) {
  const Scene scene = blocks_chain(12000, {400, 1, 300, 2, 700, 5, 260}, true);
  SimulationSettings base = settings_of(model_of("hertz"), 2e-7, EngineChoice::automatic);
  base.impact_velocity = SimulationSettings::ImpactVelocity::energy;
  set_table(base, {model_of("hunt_crossley", {{"restitution", 0.7}}), model_of("thornton_1997")}, 1,
            0, 2, 2, scene.walls.size());
  const std::int64_t steps = 300;
  struct Variant {
    int threads, pass_steps;
    std::size_t tile, chunk;
    bool vector;
  };
  auto run = [&](const Variant& v, EngineChoice engine) {
    SimulationSettings s = base;
    s.engine = engine;
    s.threads = v.threads;
    s.chain_pass_steps = v.pass_steps;
    s.chain_tile_pairs = v.tile;
    s.chain_chunk_pairs = v.chunk;
    s.chain_vector_pairs = v.vector;
    Simulation sim(scene, s);
    sim.track_extremes();
    return sim;
  };
  Simulation reference =
      run({1, 1, std::size_t{1} << 30, std::size_t{1} << 30, true}, EngineChoice::automatic);
  ASSERT_TRUE(reference.uses_chain_engine());
  ASSERT_TRUE(reference.uses_vectorised_pairs());
  for (std::int64_t k = 0; k < steps; ++k) reference.step();
  const std::vector<double> parts = reference.dissipated_by_model();
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0], 0.0);  // Hertz
  EXPECT_GT(parts[1], 0.0);  // the damped and the plastic law at work
  EXPECT_GT(parts[2], 0.0);
  for (const Variant& v : std::vector<Variant>{{2, 32, 512, 128, true},
                                               {2, 7, 64, 37, true},
                                               {3, 5, 16, 1, true},
                                               {1, 32, 512, 128, false},
                                               {2, 32, 512, 128, false}}) {
    const std::string what = std::to_string(v.threads) + " threads, passes of " +
                             std::to_string(v.pass_steps) + ", tiles of " + std::to_string(v.tile) +
                             ", chunks of " + std::to_string(v.chunk) +
                             (v.vector ? "" : ", per-pair loop");
    SCOPED_TRACE(what);
    Simulation sim = run(v, EngineChoice::automatic);
    EXPECT_EQ(sim.uses_vectorised_pairs(), v.vector);
    sim.advance(steps);
    expect_same_run(sim, reference, what);
    EXPECT_TRUE((sim.peak_contact_force() == reference.peak_contact_force()).all());
    EXPECT_TRUE((sim.peak_velocity_x() == reference.peak_velocity_x()).all());
    EXPECT_EQ(sim.dissipated_by_model(), parts);
  }
  Simulation general = run({2, 32, 512, 128, true}, EngineChoice::general);
  general.advance(steps);
  const double v_scale = 0.05;
  EXPECT_LT((general.particles().velocity - reference.particles().velocity).abs().maxCoeff(),
            1e-9 * v_scale);
  const std::vector<double> general_parts = general.dissipated_by_model();
  for (std::size_t m = 0; m < parts.size(); ++m)
    EXPECT_NEAR(general_parts[m], parts[m], 1e-9 * parts[m]) << m;
}

// A run of several models saved and restored into a simulation of the same scene and settings
// continues bit for bit, its books per model included, on both engines (the general engine's
// pairs leaving its neighbor structure as the PTFE beads fly off).
TEST(ContactModels, RestoredRunOfSeveralModelsContinuesBitwise) {
  for (const EngineChoice engine : {EngineChoice::chain, EngineChoice::general}) {
    SCOPED_TRACE(engine == EngineChoice::chain ? "chain" : "general");
    const bool end_wall = engine == EngineChoice::chain;
    std::vector<double> v(two_media.size(), 0.0);
    v[0] = 1.0;
    const Scene scene = line_of(two_media, v, chain_gap, false, end_wall);
    SimulationSettings s = four_law_settings(2.5e-7, engine);
    if (!end_wall) s.contact_table.wall_model.clear();
    Simulation original(scene, s);
    original.advance(6000);
    StateArchive saved;
    original.save_state(saved);
    original.advance(10000);
    Simulation restored(scene, s);
    restored.restore_state(saved);
    restored.advance(10000);
    expect_same_run(restored, original, "restored");
    EXPECT_EQ(restored.pair_contacts().model, original.pair_contacts().model);
    EXPECT_EQ(restored.dissipated_by_model(), original.dissipated_by_model());
    if (!end_wall) {
      EXPECT_GT(original.neighbor_rebuilds(), 1);
    }
  }
}

// The isolated contacts name their model, so that restitutions can be told apart by the kind
// of pair: a steel striker hits a lone PTFE bead (Hunt and Crossley at v0 = the impact speed,
// whose restitution solves (1 + e) alpha = ln((1 + alpha)/(1 - alpha e))), which then hits a
// steel wall (Hertz: elastic).
TEST(ContactModels, IsolatedContactsNameTheirModel) {
  for (const EngineChoice engine : {EngineChoice::chain, EngineChoice::general}) {
    SCOPED_TRACE(engine == EngineChoice::chain ? "chain" : "general");
    SimulationSettings s = settings_of(model_of("hertz"), 2.5e-7, engine);
    set_table(s, {model_of("hunt_crossley", {{"restitution", restitution}})}, 0, 1, 0, 0, 1);
    Simulation sim(line_of({steel_index, ptfe_index}, {1.0, 0.0}, 1e-3, false, true), s);
    std::vector<Simulation::IsolatedContact> ended;
    for (int chunk = 0; chunk < 20 && ended.size() < 2; ++chunk) {
      sim.advance(1000);
      ended.insert(ended.end(), sim.isolated_contacts().begin(), sim.isolated_contacts().end());
    }
    ASSERT_GE(ended.size(), 2u);
    EXPECT_EQ(ended[0].first, 0);
    EXPECT_EQ(ended[0].second, 1);
    EXPECT_EQ(ended[0].model, 1);
    EXPECT_NEAR(ended[0].impact_velocity, 1.0, 1e-12);
    EXPECT_NEAR(ended[0].restitution, test::identity_restitution(1.5 * (1.0 - restitution)), 1e-3);
    EXPECT_EQ(ended[1].first, 1);
    EXPECT_EQ(ended[1].second, Simulation::IsolatedContact::wall_body(0));
    EXPECT_EQ(ended[1].model, 0);
    EXPECT_NEAR(ended[1].restitution, 1.0, 1e-3);
  }
}

// A table that does not fit the scene is refused before anything runs, saying what is wrong.
TEST(ContactModels, TableThatDoesNotFitTheSceneIsRefused) {
  const Scene scene = two_media_chain();
  auto refusal = [&](auto&& change) {
    SimulationSettings s = two_law_settings(5e-7, EngineChoice::automatic);
    change(s);
    try {
      Simulation sim(scene, s);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  auto expect_refused = [&](const std::string& message, const std::string& fragment) {
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  };
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.models[0].law = nullptr; }),
                 "contact model 1 has no law");
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.materials = 3; }),
                 "the contact table is for 3 materials; the scene has 2");
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.pair_model.pop_back(); }),
                 "3 pair entries; 2 materials need 4");
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.pair_model[1] = 2; }),
                 "materials steel and ptfe two models");
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.pair_model[3] = 3; }),
                 "gives materials ptfe and ptfe model 3; the run has models 0 to 2");
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.wall_model.pop_back(); }),
                 "1 wall entries; 1 walls and 2 materials need 2");
  expect_refused(refusal([](SimulationSettings& s) { s.contact_table.wall_model[1] = -1; }),
                 "gives wall wall_end against material ptfe model -1");
  // The impact-velocity policy must hold for a law of the table that reads v0.
  expect_refused(refusal([](SimulationSettings& s) {
                   s.impact_velocity = SimulationSettings::ImpactVelocity::onset;
                   s.impact_velocity_floor = 0.0;
                 }),
                 "the impact velocity floor must be > 0");
  EXPECT_EQ(refusal([](SimulationSettings&) {}), "accepted");
  // A table laid out for more walls than the scene has (the case files' two) is read for its own.
  EXPECT_EQ(refusal([](SimulationSettings& s) { s.contact_table.wall_model.resize(4, 7); }),
            "accepted");
}

}  // namespace
}  // namespace chaindem
