#include "chaindem/scene_builder.hpp"

#include <omp.h>

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

// Resolves the [contact] section against the chosen law's declared parameters.
const LawEntry& resolve_law(const CaseConfig& cfg, LawParams& params) {
  const LawEntry* law = find_law(cfg.text("contact.law"));
  if (!law) cfg.fail("contact.law", "unknown law '" + cfg.text("contact.law") + "'");
  std::string declared;
  for (const auto& p : law->params) declared += (declared.empty() ? "" : ", ") + std::string(p.key);
  if (declared.empty()) declared = "none";
  for (const auto& [key, value] : cfg.resolved()) {
    if (key.rfind("contact.", 0) != 0 || key == "contact.law" || key == "contact.tension") continue;
    if (!law->find_param(key.substr(8)) && cfg.given(key))
      cfg.fail(key, "is not a parameter of law '" + std::string(law->id) +
                        "' (its parameters: " + declared + ")");
  }
  for (const auto& p : law->params) {
    const std::string key = "contact." + std::string(p.key);
    if (cfg.given(key)) {
      const double x = cfg.number(key);
      if (!p.admits(x)) {
        std::ostringstream m;
        m << x << " is out of range for law '" << law->id << "': allowed " << p.range_text();
        if (p.unit != "-") m << ' ' << p.unit;
        cfg.fail(key, m.str());
      }
      params[std::string(p.key)] = x;
    } else if (p.default_value) {
      params[std::string(p.key)] = *p.default_value;
    } else if (p.default_text.empty()) {
      cfg.fail(key, "is missing: law '" + std::string(law->id) + "' requires it (" +
                        std::string(p.description) + ", " + p.range_text() + " " +
                        std::string(p.unit) + ")");
    }
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

double shortest_contact_time(const std::vector<TimeScalePair>& pairs, double speed) {
  double t = inf;
  for (const auto& p : pairs) {
    const double k = p.coeffs.stiffness, n = p.coeffs.exponent, m = p.effective_mass;
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

RunSetup build_run(const CaseConfig& cfg) {
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
  settings.law = &resolve_law(cfg, settings.law_params);
  const std::string& tension = cfg.text("contact.tension");
  settings.tension = tension == "law"     ? settings.law->tension
                     : tension == "allow" ? TensionPolicy::allow
                                          : TensionPolicy::clamp;

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
  if (gap > 0 && overlap > 0) cfg.fail("chain.overlap", "cannot be combined with chain.gap > 0");
  if (static_overlap && !(end_force > 0))
    cfg.fail("chain.static_overlap", "needs chain.end_force > 0 (the force the overlap carries)");
  if (static_overlap && (gap > 0 || overlap > 0))
    cfg.fail("chain.static_overlap", "cannot be combined with chain.gap or chain.overlap");

  // Striker: present when its velocity is given.
  const bool striker = cfg.has("striker.velocity");
  if (!striker)
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
    bodies.push_back({radii[ku % radii.size()] * std::pow(taper, static_cast<double>(k)),
                      chain_material_index[ku % chain_material_index.size()], 0.0});
  }
  const std::vector<ExtraParticle> extra = parse_extra(cfg);
  p.resize(static_cast<Eigen::Index>(bodies.size() + extra.size()));
  for (std::size_t k = 0; k < bodies.size(); ++k)
    p.set(static_cast<Eigen::Index>(k), Eigen::Vector3d::Zero(),
          Eigen::Vector3d(bodies[k].velocity, 0, 0), bodies[k].radius, bodies[k].material,
          density(bodies[k].material));
  scene.striker = striker ? 0 : -1;
  scene.chain_first = striker ? 1 : 0;
  scene.chain_count = count;

  // Walls.
  struct WallCase {
    const char* section;
    double sign;
  };
  std::vector<double> wall_gap;
  for (const WallCase w : {WallCase{"wall_start", 1.0}, WallCase{"wall_end", -1.0}}) {
    const std::string s = w.section;
    if (!cfg.flag(s + ".enabled")) {
      // Gap and velocity have defaults (a file written from resolved parameters carries them);
      // a material for a disabled wall is a mistake.
      if (cfg.given(s + ".material"))
        cfg.fail(s + ".material", "is given but " + s + ".enabled is false");
      continue;
    }
    if (!cfg.has(s + ".material")) cfg.fail(s + ".material", "is missing (the wall is enabled)");
    Wall wall;
    wall.name = s;
    wall.material = material(s + ".material", cfg.text(s + ".material"));
    wall.normal = Eigen::Vector3d(w.sign, 0, 0);
    wall.velocity = Eigen::Vector3d(cfg.number(s + ".velocity"), 0, 0);
    scene.walls.push_back(wall);
    wall_gap.push_back(cfg.number(s + ".gap"));
  }

  // Surface separation between consecutive bodies (negative: overlap) and to the start wall.
  const auto n_bodies = static_cast<Eigen::Index>(bodies.size());
  std::vector<double> separation(static_cast<std::size_t>(n_bodies), 0.0);
  const Eigen::Index first_bead = scene.chain_first;
  for (Eigen::Index k = 1; k < n_bodies; ++k) {
    double s = (k == first_bead && striker) ? cfg.number("striker.gap") : gap - overlap;
    if (static_overlap && k > first_bead) {
      // Static overlap carrying end_force: K delta^n = F (the law's elastic part).
      const PairCoeffs c =
          settings.law->prepare(*settings.law, pair_input(scene, k - 1, k), settings.law_params);
      s = -std::pow(end_force / c.stiffness, 1.0 / c.exponent);
    }
    separation[static_cast<std::size_t>(k)] = s;
  }
  double x = 0.0;
  std::size_t wall_k = 0;
  if (!scene.walls.empty() && scene.walls[0].name == "wall_start") {
    double s = wall_gap[0];
    if (static_overlap && !striker) {
      const PairCoeffs c =
          settings.law->prepare(*settings.law, wall_input(scene, 0, 0), settings.law_params);
      s = -std::pow(end_force / c.stiffness, 1.0 / c.exponent);
    }
    scene.walls[0].point = Eigen::Vector3d(-s, 0, 0);  // first body surface at x = 0
    wall_k = 1;
  }
  for (Eigen::Index k = 0; k < n_bodies; ++k) {
    if (k > 0)
      x += p.radius(k - 1) + separation[static_cast<std::size_t>(k)] + p.radius(k);
    else
      x = p.radius(0);
    p.position(k, 0) = x;
  }
  if (wall_k < scene.walls.size())
    scene.walls[wall_k].point =
        Eigen::Vector3d(x + p.radius(n_bodies - 1) + wall_gap[wall_k], 0, 0);

  // Loads.
  p.external_force(n_bodies - 1, 0) = -end_force;
  const auto g = cfg.numbers("gravity.acceleration");
  scene.gravity = Eigen::Vector3d(g[0], g[1], g[2]);

  // Extra particles off the chain.
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const int m = material("extra.particles", extra[k].material);
    p.set(n_bodies + static_cast<Eigen::Index>(k), extra[k].x, extra[k].v, extra[k].radius, m,
          density(m));
  }

  // Engine settings.
  settings.skin = cfg.number("simulation.skin");
  if (settings.skin == 0.0) settings.skin = 0.2 * p.radius.minCoeff();
  settings.threads = static_cast<int>(cfg.integer("simulation.threads"));
  if (settings.threads == 0) settings.threads = omp_get_max_threads();
  run.duration = cfg.number("simulation.duration");

  // Time step: from the contact physics unless given. The candidate pairs are the consecutive
  // bodies, every extra particle with every other, and every particle with every wall.
  std::vector<TimeScalePair> time_scale_pairs;
  double characteristic_speed = 0.0;
  {
    std::vector<TimeScalePair>& candidates = time_scale_pairs;
    auto add_pair = [&](Eigen::Index i, Eigen::Index j) {
      const PairInput in = pair_input(scene, i, j);
      const double d0 = p.radius(i) + p.radius(j) -
                        std::sqrt((p.position.row(i) - p.position.row(j)).square().sum());
      candidates.push_back(
          {settings.law->prepare(*settings.law, in, settings.law_params), in.effective_mass, d0});
    };
    for (Eigen::Index k = 1; k < n_bodies; ++k) add_pair(k - 1, k);
    for (Eigen::Index e = n_bodies; e < p.size(); ++e)
      for (Eigen::Index j = 0; j < p.size(); ++j)
        if (j != e) add_pair(std::min(e, j), std::max(e, j));
    for (std::size_t w = 0; w < scene.walls.size(); ++w) {
      for (Eigen::Index i = 0; i < p.size(); ++i) {
        const PairInput in = wall_input(scene, i, w);
        const double d0 =
            p.radius(i) - (p.position.row(i).transpose().matrix() - scene.walls[w].point)
                              .dot(scene.walls[w].normal);
        candidates.push_back(
            {settings.law->prepare(*settings.law, in, settings.law_params), in.effective_mass, d0});
      }
    }
    // Largest relative speed: spread of body and wall velocities, plus what gravity can add.
    Eigen::Vector3d lo = p.velocity.colwise().minCoeff().transpose();
    Eigen::Vector3d hi = p.velocity.colwise().maxCoeff().transpose();
    for (const auto& w : scene.walls) {
      lo = lo.cwiseMin(w.velocity);
      hi = hi.cwiseMax(w.velocity);
    }
    characteristic_speed = (hi - lo).norm() + scene.gravity.norm() * run.duration;
  }
  if (cfg.number("simulation.time_step") > 0.0) {
    settings.time_step = cfg.number("simulation.time_step");
    run.time_step_note = "given";
  } else {
    const double speed = characteristic_speed;
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
    run.time_step_note = note.str();
  }
  // Impact-velocity floor of the hysteresis laws (contact-laws.md §0.7): unless given, the
  // smallest v0 for which the damping coefficient c = alpha K delta^n / v0 keeps the explicit
  // step stable at the peak force, c dt / m* <= 1, i.e. v0 >= alpha F_max dt / m*.
  if (settings.law->uses_impact_velocity() && !settings.law_params.count("impact_velocity_floor")) {
    const double alpha = settings.law->damping_factor(settings.law_params.at("restitution"));
    double floor = 0.0;
    for (const auto& c : time_scale_pairs) {
      const double k = c.coeffs.stiffness, n = c.coeffs.exponent, m = c.effective_mass;
      double f_max = 0.0;
      if (characteristic_speed > 0.0)
        f_max =
            k * std::pow((n + 1.0) * m * characteristic_speed * characteristic_speed / (2.0 * k),
                         n / (n + 1.0));
      if (c.initial_overlap > 0.0) f_max = std::max(f_max, k * std::pow(c.initial_overlap, n));
      floor = std::max(floor, alpha * f_max * settings.time_step / m);
    }
    if (!(floor > 0.0)) floor = 1e-6 * std::max(characteristic_speed, 1.0);
    settings.law_params["impact_velocity_floor"] = floor;
  }
  run.steps = static_cast<std::int64_t>(std::ceil(run.duration / settings.time_step - 1e-9));
  double interval = cfg.number("output.interval");
  if (interval == 0.0) interval = run.duration / 200.0;
  run.output_every = std::max<std::int64_t>(1, std::llround(interval / settings.time_step));
  run.write_contacts = cfg.flag("output.contacts");
  if (cfg.has("output.file")) {
    run.output_file = cfg.text("output.file");
  } else {
    run.output_file = std::filesystem::path(cfg.origin()).stem().string() + ".h5";
  }
  return run;
}

}  // namespace chaindem
