#include "chaindem/io/scene_builder.hpp"

#include <omp.h>
#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <numbers>
#include <sstream>

namespace chaindem {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// [contact] keys that are not law parameters: they apply to every law.
bool engine_contact_key(const std::string& key) {
  return key == "contact.law" || key == "contact.tension" || key == "contact.impact_velocity" ||
         key == "contact.reference_velocity" || key == "contact.hysteresis_origin";
}

// Resolves the [contact] section against the chosen law's declared parameters
// (resolve_law_params): the law's keys given in the case, and any other [contact] key given,
// which is an error unless `ignore_foreign` (a sweep over laws sets keys some laws lack).
const LawEntry& resolve_law(const CaseConfig& cfg, LawParams& params, bool ignore_foreign) {
  const LawEntry* law = find_law(cfg.text("contact.law"));
  if (!law) cfg.fail("contact.law", "unknown law '" + cfg.text("contact.law") + "'");
  LawParams given;
  for (const auto& [key, value] : cfg.resolved()) {
    if (key.rfind("contact.", 0) != 0 || engine_contact_key(key) || !cfg.given(key)) continue;
    const std::string name = key.substr(8);
    if (law->find_param(name))
      given[name] = cfg.number(key);
    else if (!ignore_foreign)
      given[name] = 0.0;  // refused by name before any value is read
  }
  try {
    params = resolve_law_params(*law, given);
  } catch (const LawParamError& e) {
    cfg.fail("contact." + e.key, e.what());
  }
  return *law;
}

// Parses "material radius x y z vx vy vz; ..." records.
struct ExtraParticle {
  std::string material;
  double radius;
  Eigen::Vector3d x, v;
};
std::vector<ExtraParticle> parse_extra(const CaseConfig& cfg) {
  std::vector<ExtraParticle> out;
  if (!cfg.has("extra.particles")) return out;
  std::stringstream all(cfg.text("extra.particles"));
  std::string record;
  while (std::getline(all, record, ';')) {
    std::istringstream r(record);
    ExtraParticle e;
    if (!(r >> e.material)) continue;  // empty record
    if (!(r >> e.radius >> e.x.x() >> e.x.y() >> e.x.z() >> e.v.x() >> e.v.y() >> e.v.z()))
      cfg.fail("extra.particles",
               "record '" + record + "' is not 'material radius x y z vx vy vz'");
    std::string rest;
    if (r >> rest) cfg.fail("extra.particles", "record '" + record + "' has extra fields");
    if (!(e.radius > 0)) cfg.fail("extra.particles", "record '" + record + "': radius must be > 0");
    out.push_back(e);
  }
  return out;
}

}  // namespace

namespace {
// Laws whose elastic force is not a power law (the line contacts of Johnson, Liu and Persson):
// the half period
// pi sqrt(m*/k_t) at the tangent stiffness k_t of the deepest overlap the case reaches (the
// impact at `speed`, where the kinetic energy is stored, or the initial overlap). Their
// stiffness grows with the overlap, so this is shorter than the contact (an impact of steel
// rods at 1 m/s under Johnson's law lasts 9.8 us; this gives 9.3 us), and unlike a fixed
// equivalent power law it sees the stiffening near an implicit law's peak and Persson's limit.
template <class KernelT>
double line_contact_time(const TimeScalePair& p, double speed) {
  const PairCoeffs& c = p.coeffs;
  const double m = p.effective_mass;
  double deepest = p.initial_overlap;
  if (speed > 0.0) {
    const double energy = 0.5 * m * speed * speed;
    auto g = [&](double d) { return KernelT::potential(c, ContactState{}, d) - energy; };
    double hi = std::sqrt(2.0 * energy / c.stiffness);
    while (g(hi) < 0.0) hi *= 2.0;
    boost::math::tools::eps_tolerance<double> tol(30);
    std::uintmax_t iterations = 100;
    const auto [a, b] = boost::math::tools::toms748_solve(g, 0.0, hi, tol, iterations);
    deepest = std::max(deepest, b);
  }
  if (!(deepest > 0.0)) return inf;
  const double h = 1e-6 * deepest;
  const double tangent =
      (KernelT::elastic(c, deepest + h) - KernelT::elastic(c, deepest - h)) / (2.0 * h);
  return std::numbers::pi * std::sqrt(m / tangent);
}
}  // namespace

// dF/dv of the law at overlap d, for a contact of impact velocity v0 (every law's damping is
// linear in the approach rate): its damping part at unit rate, from delta = 0.
double damping_coefficient(Kernel kernel, const PairCoeffs& coeffs, double d, double v0) {
  return with_kernel(kernel, [&](auto k) {
    using KernelT = decltype(k);
    if constexpr (kernels::splits_force<KernelT>) {
      ContactState s;
      s.impact_velocity = v0;
      return std::abs(KernelT::parts(coeffs, s, d, 1.0).damping);
    } else {
      return 0.0;
    }
  });
}

double shortest_contact_time(const std::vector<TimeScalePair>& pairs, double speed) {
  double t = inf;
  for (const auto& p : pairs) {
    const double k = p.coeffs.stiffness, n = p.coeffs.exponent, m = p.effective_mass;
    const double line = with_kernel(p.kernel, [&](auto kernel) {
      using KernelT = decltype(kernel);
      if constexpr (!kernels::power_law_elastic<KernelT>)
        return line_contact_time<KernelT>(p, speed);
      else
        return -1.0;
    });
    if (line >= 0.0) {
      t = std::min(t, line);
      continue;
    }
    if (n == 1.0) {
      t = std::min(t, std::numbers::pi * std::sqrt(m / k));  // linear: independent of speed
      continue;
    }
    if (speed > 0.0) t = std::min(t, elastic_contact_time(k, n, m, speed));
    if (p.initial_overlap > 0.0) {
      const double k_lin = n * k * std::pow(p.initial_overlap, n - 1.0);
      t = std::min(t, std::numbers::pi * std::sqrt(m / k_lin));
    }
  }
  return t;
}

namespace {

// The largest relative speed of the case: the spread of body and wall velocities, plus what
// gravity can add over the run.
double largest_relative_speed(const Scene& scene, double duration) {
  Eigen::Vector3d lo = scene.particles.velocity.colwise().minCoeff().transpose();
  Eigen::Vector3d hi = scene.particles.velocity.colwise().maxCoeff().transpose();
  for (const auto& w : scene.walls) {
    lo = lo.cwiseMin(w.velocity);
    hi = hi.cwiseMax(w.velocity);
  }
  return (hi - lo).norm() + scene.gravity.norm() * duration;
}

// The damping policies: the integrator, the hysteresis origin, and the impact velocity of the
// laws with v0 in the damping term (contact-laws.md §0.7). The onset policy needs a floor for
// contacts that start at rest: unless given, 1 % of the case's largest relative speed, a
// physical choice independent of the time step. The reference policy uses the largest relative
// speed unless given.
void set_contact_policies(const CaseConfig& cfg, SimulationSettings& settings, double speed) {
  const bool uses_v0 = settings.law->uses_impact_velocity();
  using Policy = SimulationSettings::ImpactVelocity;
  const std::string& policy = cfg.text("contact.impact_velocity");
  settings.impact_velocity = impact_velocity_from(policy).value();  // the key's words
  settings.static_origin = cfg.text("contact.hysteresis_origin") == "static";
  settings.integrator = cfg.text("simulation.integrator") == "lammps"
                            ? SimulationSettings::Integrator::lammps
                            : SimulationSettings::Integrator::second_order;
  settings.reference_velocity = cfg.number("contact.reference_velocity");
  if (settings.reference_velocity == 0.0) settings.reference_velocity = speed;
  if (uses_v0 && settings.impact_velocity == Policy::reference &&
      !(settings.reference_velocity > 0.0))
    cfg.fail("contact.reference_velocity",
             "is needed: nothing moves in the case, so there is no largest relative speed to use "
             "(allowed: (0, inf) m/s)");
  if (uses_v0 && settings.impact_velocity == Policy::onset &&
      !settings.law_params.count("impact_velocity_floor"))
    settings.law_params["impact_velocity_floor"] = speed > 0.0 ? 0.01 * speed : 1e-6;
  if (settings.impact_velocity != Policy::onset) {
    if (uses_v0 && cfg.given("contact.impact_velocity_floor"))
      cfg.fail("contact.impact_velocity_floor",
               "is the floor of the onset policy, and contact.impact_velocity is " + policy +
                   ", which needs none: give contact.impact_velocity = onset to use a floor");
    settings.law_params.erase("impact_velocity_floor");  // only the onset policy has a floor
  }
}

// The time step: given, or the shortest contact time of the case over steps_per_contact, reduced
// where the damping needs it; the number of steps of the run.
void choose_time_step(const CaseConfig& cfg, RunSetup& run,
                      const std::vector<TimeScalePair>& time_scale_pairs, double speed) {
  SimulationSettings& settings = run.settings;
  using Policy = SimulationSettings::ImpactVelocity;
  const bool uses_v0 = settings.law->uses_impact_velocity();
  if (cfg.number("simulation.time_step") > 0.0) {
    settings.time_step = cfg.number("simulation.time_step");
    run.time_step_note = "given";
  } else {
    const double t_contact = shortest_contact_time(time_scale_pairs, speed);
    if (!std::isfinite(t_contact))
      cfg.fail("simulation.time_step",
               "cannot be chosen automatically: nothing moves and no contact is loaded; give a "
               "time step");
    const double per_contact = cfg.number("simulation.steps_per_contact");
    settings.time_step = t_contact / per_contact;
    std::ostringstream note;
    note << "automatic: shortest contact time " << t_contact << " s at relative speed " << speed
         << " m/s / " << per_contact << " steps";
    // The explicit step must also resolve the damping: with C = dF/dv, the damping coefficient of
    // the stiffest contact at the deepest overlap the case reaches, C dt / m* stays below 1/4 for
    // the second-order integration (stable below 1/2) and below 1 for the half-step one (stable
    // below 4). For the hysteresis laws C = alpha F_e / v0 with v0 as the policy sets it for an
    // impact at the case's largest speed: the floor (onset: every contact that starts at rest),
    // the reference velocity, or that speed (peak).
    double v0 = speed;
    if (settings.impact_velocity == Policy::onset && uses_v0)
      v0 = settings.law_params.at("impact_velocity_floor");
    if (settings.impact_velocity == Policy::reference) v0 = settings.reference_velocity;
    const double limit =
        settings.integrator == SimulationSettings::Integrator::second_order ? 0.25 : 1.0;
    double dt_damping = std::numeric_limits<double>::infinity();
    for (const auto& c : time_scale_pairs) {
      const double k = c.coeffs.stiffness, n = c.coeffs.exponent, m = c.effective_mass;
      double d_max =
          speed > 0.0 ? std::pow((n + 1.0) * m * speed * speed / (2.0 * k), 1.0 / (n + 1.0)) : 0.0;
      d_max = std::max(d_max, c.initial_overlap);
      if (!(d_max > 0.0) || !(v0 > 0.0)) continue;
      const double damping = damping_coefficient(settings.law->kernel, c.coeffs, d_max, v0);
      if (damping > 0.0) dt_damping = std::min(dt_damping, limit * m / damping);
    }
    if (dt_damping < settings.time_step) {
      settings.time_step = dt_damping;
      note << "; reduced to " << dt_damping << " s so that the damping stays stable";
      if (settings.impact_velocity == Policy::onset && uses_v0)
        note << " (at the impact-velocity floor)";
    }
    run.time_step_note = note.str();
  }
  const double steps = std::ceil(run.duration / settings.time_step - 1e-9);
  if (!(steps <= 1e12))
    cfg.fail(
        cfg.number("simulation.time_step") > 0.0 ? "simulation.time_step" : "simulation.duration",
        "needs " + std::to_string(steps) + " steps; at most 1e12 allowed");
  run.steps = static_cast<std::int64_t>(steps);
}

// Output frames and file.
void set_output(const CaseConfig& cfg, RunSetup& run) {
  const SimulationSettings& settings = run.settings;
  double interval = cfg.number("output.interval");
  if (interval == 0.0) interval = run.duration / 200.0;
  interval = std::min(interval, run.duration);
  run.output_every = std::max<std::int64_t>(1, std::llround(interval / settings.time_step));
  run.write_contacts = cfg.flag("output.contacts");
  if (cfg.has("output.file")) {
    run.output_file = cfg.text("output.file");
    if (run.output_file.empty()) cfg.fail("output.file", "is empty");
  } else {
    run.output_file = std::filesystem::path(cfg.origin()).stem().string() + ".h5";
  }
}

}  // namespace

RunSetup build_run(const CaseConfig& cfg, const BuildOptions& options) {
  RunSetup run;
  Scene& scene = run.scene;

  // Materials.
  std::map<std::string, int> material_index;
  for (const auto& name : cfg.materials()) {
    const std::string s = "material." + name + ".";
    Material m{name, cfg.number(s + "youngs_modulus"), cfg.number(s + "poisson_ratio"),
               cfg.number(s + "density"), std::nullopt};
    if (cfg.has(s + "yield_stress")) m.yield_stress = cfg.number(s + "yield_stress");
    material_index[name] = static_cast<int>(scene.materials.size());
    scene.materials.push_back(m);
  }
  auto material = [&](const std::string& key, const std::string& name) {
    const auto it = material_index.find(name);
    if (it == material_index.end())
      cfg.fail(key, "material '" + name + "' is not defined (defined: " +
                        (cfg.materials().empty()
                             ? std::string("none; add a [material.") + name + "] section"
                             : joined(cfg.materials())) +
                        ")");
    return it->second;
  };

  // Law.
  SimulationSettings& settings = run.settings;
  settings.law = &resolve_law(cfg, settings.law_params, options.ignore_foreign_law_params);
  settings.tension = tension_from(cfg.text("contact.tension"), *settings.law).value();  // its words

  // Chain description.
  const auto count = static_cast<Eigen::Index>(cfg.integer("chain.count"));
  const auto chain_materials = cfg.words("chain.materials");
  std::vector<int> chain_material_index;
  for (const auto& m : chain_materials)
    chain_material_index.push_back(material("chain.materials", m));
  const auto radii = cfg.numbers("chain.radii");
  const double taper = cfg.number("chain.taper");
  const double gap = cfg.number("chain.gap");
  const double overlap = cfg.number("chain.overlap");
  const double end_force = cfg.number("chain.end_force");
  const bool static_overlap = cfg.flag("chain.static_overlap");
  scene.cylinder_length = cfg.number("chain.cylinder_length");
  if (gap > 0 && overlap > 0) cfg.fail("chain.overlap", "cannot be combined with chain.gap > 0");
  if (static_overlap && !(end_force > 0))
    cfg.fail("chain.static_overlap", "needs chain.end_force > 0 (the force the overlap carries)");
  if (static_overlap && (gap > 0 || overlap > 0))
    cfg.fail("chain.static_overlap", "cannot be combined with chain.gap or chain.overlap");

  // Striker: present when its velocity is given.
  const bool striker = cfg.has("striker.velocity") && cfg.flag("striker.enabled");
  if (!cfg.has("striker.velocity"))
    for (const char* k : {"striker.material", "striker.radius"})
      if (cfg.given(k))
        cfg.fail("striker.velocity",
                 std::string("is missing, but ") + k + " is given (the velocity adds the striker)");

  const auto density = [&](int m) { return scene.materials[static_cast<std::size_t>(m)].density; };
  Particles& p = scene.particles;

  // Bodies along +x, placed left to right; positions are fixed after the overlaps are known.
  struct Body {
    double radius;
    int material;
    double velocity;
  };
  std::vector<Body> bodies;
  if (striker) {
    const int m = cfg.has("striker.material")
                      ? material("striker.material", cfg.text("striker.material"))
                      : chain_material_index[0];
    const double r = cfg.has("striker.radius") ? cfg.number("striker.radius") : radii[0];
    bodies.push_back({r, m, cfg.number("striker.velocity")});
  }
  for (Eigen::Index k = 0; k < count; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    const double r = radii[ku % radii.size()] * std::pow(taper, static_cast<double>(k));
    if (!(r >= 1e-9) || !std::isfinite(r))
      cfg.fail("chain.taper", "makes bead " + std::to_string(k) + " radius " + std::to_string(r) +
                                  " m, outside [1e-9, inf) m");
    bodies.push_back({r, chain_material_index[ku % chain_material_index.size()], 0.0});
  }
  const std::vector<ExtraParticle> extra = parse_extra(cfg);
  p.resize(static_cast<Eigen::Index>(bodies.size() + extra.size()));
  for (std::size_t k = 0; k < bodies.size(); ++k)
    p.set(static_cast<Eigen::Index>(k), Eigen::Vector3d::Zero(),
          Eigen::Vector3d(bodies[k].velocity, 0, 0), bodies[k].radius, bodies[k].material,
          density(bodies[k].material), scene.cylinder_length);
  scene.striker = striker ? 0 : -1;
  scene.chain_first = striker ? 1 : 0;
  scene.chain_count = count;
  const auto n_bodies = static_cast<Eigen::Index>(bodies.size());
  const Eigen::Index first_bead = scene.chain_first, last_bead = n_bodies - 1;

  // Walls.
  int start_wall = -1, end_wall = -1;
  std::vector<double> wall_gap;
  for (const char* section : {"wall_start", "wall_end"}) {
    const std::string s = section;
    if (!cfg.flag(s + ".enabled")) continue;  // its other keys may stay: enabling is one switch
    if (!cfg.has(s + ".material")) cfg.fail(s + ".material", "is missing (the wall is enabled)");
    Wall wall;
    wall.name = s;
    wall.material = material(s + ".material", cfg.text(s + ".material"));
    wall.normal = Eigen::Vector3d(s == "wall_start" ? 1.0 : -1.0, 0, 0);
    wall.velocity = Eigen::Vector3d(cfg.number(s + ".velocity"), 0, 0);
    (s == "wall_start" ? start_wall : end_wall) = static_cast<int>(scene.walls.size());
    scene.walls.push_back(wall);
    wall_gap.push_back(cfg.number(s + ".gap"));
  }

  // The end load pushes the last bead towards the start, against wall_start; with only wall_end,
  // it pushes the first bead towards the end instead (a striker then hits the loaded chain).
  const bool load_towards_end = end_wall >= 0 && start_wall < 0;
  if (static_overlap) {
    if (!load_towards_end && start_wall < 0)
      cfg.fail("chain.static_overlap",
               "needs a wall that carries chain.end_force: wall_start (the load pushes the last "
               "bead towards it) or wall_end alone (the load pushes the first bead towards it)");
    if (!load_towards_end && striker)
      cfg.fail("chain.static_overlap",
               "with a striker the load must push towards wall_end: enable wall_end only");
  }
  // Static overlap carrying end_force: where the law's elastic part equals it.
  auto static_overlap_of = [&](const PairInput& in) {
    const PairCoeffs c = settings.law->prepare(*settings.law, in, settings.law_params);
    return elastic_overlap(settings.law->kernel, c, end_force);
  };

  // Surface separation between consecutive bodies (negative: overlap).
  std::vector<double> separation(static_cast<std::size_t>(n_bodies), 0.0);
  for (Eigen::Index k = 1; k < n_bodies; ++k) {
    double s = (k == first_bead && striker) ? cfg.number("striker.gap") : gap - overlap;
    if (static_overlap && k > first_bead) s = -static_overlap_of(pair_input(scene, k - 1, k));
    if (-s >= std::min(p.radius(k - 1), p.radius(k)))
      cfg.fail(k == first_bead && striker ? "striker.gap" : "chain.overlap",
               "overlap " + std::to_string(-s) + " m reaches a bead radius: allowed below " +
                   std::to_string(std::min(p.radius(k - 1), p.radius(k))) + " m");
    separation[static_cast<std::size_t>(k)] = s;
  }
  double x = p.radius(0);
  for (Eigen::Index k = 0; k < n_bodies; ++k) {
    if (k > 0) x += p.radius(k - 1) + separation[static_cast<std::size_t>(k)] + p.radius(k);
    p.position(k, 0) = x;
  }
  if (start_wall >= 0) {  // first body surface at x = 0
    const double s =
        static_overlap && !load_towards_end
            ? -static_overlap_of(wall_input(scene, 0, static_cast<std::size_t>(start_wall)))
            : wall_gap[static_cast<std::size_t>(start_wall)];
    scene.walls[static_cast<std::size_t>(start_wall)].point = Eigen::Vector3d(-s, 0, 0);
  }
  if (end_wall >= 0) {
    const double s =
        static_overlap && load_towards_end
            ? -static_overlap_of(wall_input(scene, last_bead, static_cast<std::size_t>(end_wall)))
            : wall_gap[static_cast<std::size_t>(end_wall)];
    scene.walls[static_cast<std::size_t>(end_wall)].point =
        Eigen::Vector3d(x + p.radius(last_bead) + s, 0, 0);
  }

  // Loads.
  if (load_towards_end)
    p.external_force(first_bead, 0) = end_force;
  else
    p.external_force(last_bead, 0) = -end_force;
  const auto g = cfg.numbers("gravity.acceleration");
  scene.gravity = Eigen::Vector3d(g[0], g[1], g[2]);

  // Extra particles off the chain; none may sit deep inside another sphere.
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const int m = material("extra.particles", extra[k].material);
    const Eigen::Index e = n_bodies + static_cast<Eigen::Index>(k);
    p.set(e, extra[k].x, extra[k].v, extra[k].radius, m, density(m), scene.cylinder_length);
    for (Eigen::Index j = 0; j < e; ++j) {
      const double dist = std::sqrt((p.position.row(e) - p.position.row(j)).square().sum());
      if (p.radius(e) + p.radius(j) - dist >= 0.5 * std::min(p.radius(e), p.radius(j)))
        cfg.fail("extra.particles", "sphere " + std::to_string(k) + " overlaps particle " +
                                        std::to_string(j) + " by half its radius or more");
    }
  }

  // Engine settings.
  settings.skin = cfg.number("simulation.skin");
  if (settings.skin == 0.0) settings.skin = 0.2 * p.radius.minCoeff();
  settings.threads = static_cast<int>(cfg.integer("simulation.threads"));
  if (settings.threads == 0) settings.threads = omp_get_max_threads();
  const std::string& engine = cfg.text("simulation.engine");
  settings.engine = engine == "general" ? SimulationSettings::Engine::general
                    : engine == "chain" ? SimulationSettings::Engine::chain
                                        : SimulationSettings::Engine::automatic;
  if (settings.engine == SimulationSettings::Engine::chain && !forms_chain(scene))
    cfg.fail("simulation.engine",
             "is chain, but the particles do not form a chain on the x axis (extra particles "
             "off the axis, or gravity across it): use auto or general");
  run.duration = cfg.number("simulation.duration");

  // Contact time scales: the consecutive bodies, every extra particle with every other, and every
  // particle with every wall. A contact loaded by the end force (now or once the load has
  // travelled) is counted at its static overlap; overlaps from rounding (< 1e-9 R) are not loads.
  std::vector<TimeScalePair> time_scale_pairs;
  auto add_scale = [&](const PairInput& in, double d0, bool carries_load) {
    const PairCoeffs c = settings.law->prepare(*settings.law, in, settings.law_params);
    if (d0 < 1e-9 * in.effective_radius) d0 = 0.0;
    if (carries_load && end_force > 0.0)
      d0 = std::max(d0, elastic_overlap(settings.law->kernel, c, end_force));
    time_scale_pairs.push_back({c, in.effective_mass, d0, settings.law->kernel});
  };
  for (Eigen::Index k = 1; k < n_bodies; ++k)
    add_scale(pair_input(scene, k - 1, k), -separation[static_cast<std::size_t>(k)],
              k > first_bead);
  for (Eigen::Index e = n_bodies; e < p.size(); ++e)
    for (Eigen::Index j = 0; j < e; ++j)
      add_scale(pair_input(scene, j, e),
                p.radius(e) + p.radius(j) -
                    std::sqrt((p.position.row(e) - p.position.row(j)).square().sum()),
                false);
  for (std::size_t w = 0; w < scene.walls.size(); ++w)
    for (Eigen::Index i = 0; i < p.size(); ++i)
      add_scale(wall_input(scene, i, w),
                p.radius(i) - (p.position.row(i).transpose().matrix() - scene.walls[w].point)
                                  .dot(scene.walls[w].normal),
                (static_cast<int>(w) == start_wall && i == 0) ||
                    (static_cast<int>(w) == end_wall && i == last_bead));
  const double speed = largest_relative_speed(scene, run.duration);

  set_contact_policies(cfg, settings, speed);

  choose_time_step(cfg, run, time_scale_pairs, speed);
  set_output(cfg, run);
  return run;
}

}  // namespace chaindem
