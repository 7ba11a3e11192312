#include "chaindem/setup/scene_builder.hpp"

#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/setup/initial_state.hpp"
#include "chaindem/text.hpp"

#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <numbers>
#include <optional>
#include <set>
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
// which is an error (a typo, a law changed without its parameters) unless the law was chosen
// apart from it: by the command line while the case file gives the parameter, or for every
// parameter under `ignore_foreign` (compare's laws). Those are ignored, each with a note.
const LawEntry& resolve_law(const CaseConfig& cfg, LawParams& params, bool ignore_foreign,
                            RunSetup& run) {
  const LawEntry* law = find_law(cfg.text("contact.law"));
  if (!law) cfg.fail("contact.law", "unknown law '" + cfg.text("contact.law") + "'");
  if (cfg.text("contact.law") != law->id)
    run.notes.push_back(cfg.where("contact.law") + ": law '" + cfg.text("contact.law") +
                        "' is now called '" + std::string(law->id) + "'");
  const bool law_apart = ignore_foreign || cfg.from_command_line("contact.law");
  LawParams given;
  for (const auto& [key, value] : cfg.resolved()) {
    if (key.rfind("contact.", 0) != 0 || engine_contact_key(key) || !cfg.given(key)) continue;
    const std::string name = key.substr(8);
    if (law->find_param(name)) {
      given[name] = cfg.number(key);
    } else if (law_apart && (ignore_foreign || !cfg.from_command_line(key))) {
      run.notes.push_back(cfg.where(key) + " = " + value + " is not a parameter of law '" +
                          std::string(law->id) + "': ignored");
      run.ignored_keys.push_back(key);
    } else {
      given[name] = 0.0;  // refused by name before any value is read
    }
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
    std::vector<std::string> fields;
    for (std::string field; r >> field;) fields.push_back(field);
    if (fields.empty()) continue;  // empty record
    if (fields.size() > 8)
      cfg.fail("extra.particles", "record '" + quoted_text(record) + "' has extra fields");
    ExtraParticle e;
    e.material = fields[0];
    double* numbers[] = {&e.radius, &e.x.x(), &e.x.y(), &e.x.z(), &e.v.x(), &e.v.y(), &e.v.z()};
    for (std::size_t k = 0; k < 7; ++k) {
      const NumberText read = k + 1 < fields.size() ? read_number(fields[k + 1], *numbers[k])
                                                    : NumberText::not_a_number;
      if (read != NumberText::number)
        cfg.fail("extra.particles",
                 "record '" + quoted_text(record) + "' is not 'material radius x y z vx vy vz'" +
                     (k + 1 < fields.size() ? ": " + number_problem(fields[k + 1], read) : ""));
    }
    std::ostringstream bounds;
    bounds << "record '" << quoted_text(record) << "': ";
    if (!(e.radius >= min_radius && e.radius <= max_radius)) {
      bounds << "radius " << e.radius << " m outside [" << min_radius << ", " << max_radius
             << "] m";
      cfg.fail("extra.particles", bounds.str());
    }
    if (!(e.v.norm() <= max_speed)) {
      bounds << "speed " << e.v.norm() << " m/s above " << max_speed << " m/s";
      cfg.fail("extra.particles", bounds.str());
    }
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
    // Below 1e-100 m/s the speed's square underflows: there the duration follows from its
    // scaling with the speed, v^((1 - n)/(n + 1)) (Hertz: v^-1/5), from that at 1 m/s.
    if (speed > 1e-100)
      t = std::min(t, elastic_contact_time(k, n, m, speed));
    else if (speed > 0.0)
      t = std::min(t, elastic_contact_time(k, n, m, 1.0) * std::pow(speed, (1.0 - n) / (n + 1.0)));
    if (p.initial_overlap > 0.0) {
      const double k_lin = n * k * std::pow(p.initial_overlap, n - 1.0);
      t = std::min(t, std::numbers::pi * std::sqrt(m / k_lin));
    }
  }
  return t;
}

namespace {

// |v|, also where its squares would underflow or overflow (a speed of 1e-300 m/s is a speed).
double magnitude(const Eigen::Vector3d& v) {
  const double n = v.norm();
  return n > 0.0 && std::isfinite(n) ? n : v.stableNorm();
}

// The largest relative speed of the case: the spread of body and wall velocities, plus what
// gravity can add over the run.
double largest_relative_speed(const Scene& scene, double duration) {
  Eigen::Vector3d lo = scene.particles.velocity.colwise().minCoeff().transpose();
  Eigen::Vector3d hi = scene.particles.velocity.colwise().maxCoeff().transpose();
  for (const auto& w : scene.walls) {
    lo = lo.cwiseMin(w.velocity);
    hi = hi.cwiseMax(w.velocity);
  }
  return magnitude(hi - lo) + magnitude(scene.gravity) * duration;
}

// The key that gives the case's fastest motion (a body's, a wall's, or what gravity adds over
// the run), for messages about the speed.
std::string fastest_key(const Scene& scene, double duration, bool from_data) {
  std::string key = "striker.velocity";
  double fastest = 0.0;
  auto consider = [&](double speed, std::string k) {
    if (speed > fastest) fastest = speed, key = std::move(k);
  };
  const Particles& p = scene.particles;
  const Eigen::Index bodies = scene.chain_first + scene.chain_count;
  for (Eigen::Index i = 0; i < p.size(); ++i)
    consider(magnitude(p.velocity.row(i).matrix().transpose()), from_data ? "initial.file"
                                                                : i == scene.striker
                                                                    ? "striker.velocity"
                                                                : i >= bodies ? "extra.particles"
                                                                              : "initial.file");
  for (const Wall& w : scene.walls) consider(magnitude(w.velocity), w.name + ".velocity");
  consider(magnitude(scene.gravity) * duration, "gravity.acceleration");
  return key;
}

// Gravity may not accelerate a body beyond the speeds a case may hold over the run.
void check_gravity(const CaseConfig& cfg, const Scene& scene, double duration) {
  const double g = magnitude(scene.gravity);
  if (g * duration <= max_speed) return;
  cfg.fail("gravity.acceleration",
           "|g| = " + rounded_text(g) + " m/s^2 would accelerate a body to " +
               rounded_text(g * duration) +
               " m/s over the run (simulation.duration = " + number_text(duration) +
               " s), beyond " + number_text(max_speed) + " m/s: allowed |g| up to " +
               rounded_text(max_speed / duration) + " m/s^2 for this run (the Earth's is 9.81)");
}

// The damping policies: the integrator, the hysteresis origin, and the impact velocity of the
// laws with v0 in the damping term (docs/engine.md, "Impact velocity"). The onset policy needs a
// floor for contacts that start at rest: unless given, 1 % of the case's largest relative speed, a
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

// Plausible inputs of the contact duration: Young's moduli of solids from gels to diamond, their
// densities from foams to beyond osmium, and impact speeds (below 1e-6 m/s an impact is
// quasi-static). Values outside them are not refused, but when the automatic time step cannot
// give the run, they are what the message blames.
struct Plausible {
  double low, high;
  const char* text;
};
constexpr Plausible plausible_modulus{1e4, 1e13, "1e4 to 1e13 Pa (rubber about 1e6, steel 2e11)"};
constexpr Plausible plausible_density{1.0, 1e6, "1 to 1e6 kg/m^3 (steel 7800)"};
constexpr double slowest_impact = 1e-6;  // [m/s]

// The automatic time step cannot give the run: the shortest contact lasts longer than the run
// (`too_long`), or so short that the run needs more than 1e12 steps. When a material of the
// bodies or the speed that sets the duration is implausible, that key is blamed, with its value
// and the duration it gives.
void blame_contact_duration(const CaseConfig& cfg, const RunSetup& run, double t_contact,
                            double speed, const std::string& speed_key, bool too_long) {
  const std::string run_text = "simulation.duration = " + number_text(run.duration) + " s";
  const double steps = std::ceil(run.duration / run.settings.time_step);
  const std::string effect =
      "the shortest contact of the case lasts " +
      (t_contact > 0.0 ? rounded_text(t_contact, 3) + " s"
                       : std::string("less than a double resolves")) +
      ", " +
      (too_long ? "longer than the run (" + run_text + ")"
                : "so the run (" + run_text + ") would need " +
                      (std::isfinite(steps) ? rounded_text(steps, 3) : std::string("endless")) +
                      " steps of its automatic time step (at most 1e12)");
  std::set<int> used;
  for (Eigen::Index i = 0; i < run.scene.particles.size(); ++i)
    used.insert(run.scene.particles.material[static_cast<std::size_t>(i)]);
  for (const Wall& w : run.scene.walls) used.insert(w.material);
  for (const int m : used) {
    const Material& material = run.scene.materials[static_cast<std::size_t>(m)];
    const std::string key = "material." + material.name + ".";
    // A soft or heavy material lengthens the contacts, a stiff or light one shortens them.
    const double e = material.youngs_modulus, rho = material.density;
    if (too_long ? e < plausible_modulus.low : e > plausible_modulus.high)
      cfg.fail(key + "youngs_modulus",
               number_text(e) + " Pa is not the Young's modulus of a solid: with it " + effect +
                   ". The modulus is in Pa (200 GPa is 200e9): solids have " +
                   plausible_modulus.text);
    if (too_long ? rho > plausible_density.high : rho < plausible_density.low)
      cfg.fail(key + "density", number_text(rho) +
                                    " kg/m^3 is not the density of a solid: with it " + effect +
                                    ". Solids have " + plausible_density.text);
  }
  if (too_long && speed < slowest_impact)
    cfg.fail(speed_key, "sets the case's largest relative speed, " + rounded_text(speed, 3) +
                            " m/s, and at that speed " + effect +
                            ", so no automatic time step fits it: impacts of at least " +
                            number_text(slowest_impact) +
                            " m/s, a longer run, or a given simulation.time_step");
}

// The time step: given, or the shortest contact time of the case over steps_per_contact, reduced
// where the damping needs it; the number of steps of the run.
void choose_time_step(const CaseConfig& cfg, RunSetup& run,
                      const std::vector<TimeScalePair>& time_scale_pairs, double speed,
                      const std::string& speed_key) {
  SimulationSettings& settings = run.settings;
  using Policy = SimulationSettings::ImpactVelocity;
  const bool uses_v0 = settings.law->uses_impact_velocity();
  const double t_contact = shortest_contact_time(time_scale_pairs, speed);
  if (cfg.number("simulation.time_step") > 0.0) {
    settings.time_step = cfg.number("simulation.time_step");
    run.time_step_note = "given";
    // Velocity Verlet is stable for a linear spring below 2/omega = 0.64 of the contact time;
    // a step beyond half a contact cannot resolve one.
    if (settings.time_step > 0.5 * t_contact) {
      std::ostringstream m;
      m << settings.time_step << " s is longer than half the shortest contact duration of "
        << "the case (" << t_contact << " s), which no explicit step resolves: at most "
        << 0.5 * t_contact << " s (simulation.time_step = 0 chooses it: contact duration / "
        << "simulation.steps_per_contact)";
      cfg.fail("simulation.time_step", m.str());
    }
  } else {
    if (!std::isfinite(t_contact))
      cfg.fail("simulation.time_step",
               "cannot be chosen automatically: nothing in the case moves and no contact is "
               "loaded (no striker.velocity, wall velocity, gravity, moving extra particle or "
               "chain.end_force), so no impact sets a contact duration to step by: give the "
               "striker a velocity (striker.velocity), or other motion, or a time step "
               "(simulation.time_step > 0)");
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
  const bool automatic = !(cfg.number("simulation.time_step") > 0.0);
  if (automatic && !(settings.time_step <= run.duration && steps <= 1e12))
    blame_contact_duration(
        cfg, run, t_contact, speed, speed_key,
        !(t_contact / cfg.number("simulation.steps_per_contact") <= run.duration));
  if (!(settings.time_step <= run.duration)) {  // the run would be one step past its end
    std::ostringstream m;
    if (cfg.number("simulation.time_step") > 0.0) {
      m << settings.time_step << " s is longer than simulation.duration = " << run.duration << " s";
      cfg.fail("simulation.time_step", m.str());
    }
    m << run.duration << " s is shorter than one time step (" << settings.time_step
      << " s, automatic)";
    cfg.fail("simulation.duration", m.str());
  }
  if (!(steps <= 1e12))
    cfg.fail(automatic ? "simulation.duration" : "simulation.time_step",
             "needs " + rounded_text(steps) + " steps of " + rounded_text(settings.time_step) +
                 (automatic ? " s (automatic)" : " s") + "; at most 1e12 allowed");
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
  // Checked here, with the rest of the case, so that a run or a sweep refuses a bead outside the
  // chain before anything runs.
  const long long count = run.scene.chain_count;
  for (const double b : cfg.numbers("output.arrival_beads")) {
    std::ostringstream bead;
    bead << b;
    if (b != std::floor(b))
      cfg.fail("output.arrival_beads", "bead " + bead.str() + " is not a whole number");
    const double k = b < 0 ? static_cast<double>(count) + b : b;
    if (k < 0 || k >= static_cast<double>(count))
      cfg.fail("output.arrival_beads", "bead " + bead.str() + " is not in the chain of " +
                                           std::to_string(count) + " beads (0.." +
                                           std::to_string(count - 1) + ", or -1..-" +
                                           std::to_string(count) + " from the end)");
    run.arrival_beads.push_back(static_cast<long long>(k));
  }
}

// Materials by name: their index in Scene::materials.
using MaterialIndex = std::map<std::string, int>;

MaterialIndex add_materials(const CaseConfig& cfg, Scene& scene) {
  MaterialIndex index;
  for (const auto& name : cfg.materials()) {
    const std::string s = "material." + name + ".";
    Material m{name, cfg.number(s + "youngs_modulus"), cfg.number(s + "poisson_ratio"),
               cfg.number(s + "density"), std::nullopt};
    if (cfg.has(s + "yield_stress")) m.yield_stress = cfg.number(s + "yield_stress");
    index[name] = static_cast<int>(scene.materials.size());
    scene.materials.push_back(m);
  }
  return index;
}

// The material `key` names; an unknown one is an error that lists those defined.
int material_of(const CaseConfig& cfg, const MaterialIndex& materials, const std::string& key,
                const std::string& name) {
  const auto it = materials.find(name);
  if (it == materials.end())
    cfg.fail(key, "material '" + quoted_text(name) + "' is not defined (defined: " +
                      (cfg.materials().empty()
                           ? std::string("none; add a [material.") + quoted_text(name) + "] section"
                           : joined(cfg.materials())) +
                      ")");
  return it->second;
}

double density_of(const Scene& scene, int material) {
  return scene.materials[static_cast<std::size_t>(material)].density;
}

// The [chain] section: its beads and how they touch at the start.
struct ChainSpec {
  Eigen::Index count = 0;
  std::vector<int> materials;  // repeated along the chain
  std::vector<double> radii;   // repeated along the chain, bead k scaled by taper^k
  double taper = 1.0, gap = 0.0, overlap = 0.0, end_force = 0.0;
  bool static_overlap = false;  // the contacts start at the overlap that carries end_force
};

ChainSpec read_chain(const CaseConfig& cfg, const MaterialIndex& materials, Scene& scene) {
  ChainSpec chain;
  chain.count = static_cast<Eigen::Index>(cfg.integer("chain.count"));
  const auto chain_materials = cfg.words("chain.materials");
  chain.radii = cfg.numbers("chain.radii");
  // A list is a pattern repeated along the chain, which may end within it (a dimer chain of an
  // odd count ends with the kind it starts with); entries the chain never reaches are not what
  // the list says.
  for (const auto& [key, entries] : {std::pair{"chain.materials", chain_materials.size()},
                                     std::pair{"chain.radii", chain.radii.size()}})
    if (static_cast<Eigen::Index>(entries) > chain.count)
      cfg.fail(key, std::to_string(entries) + " entries for a chain of " +
                        std::to_string(chain.count) + " beads (chain.count): allowed 1 to " +
                        std::to_string(chain.count) +
                        " entries, a pattern repeated along the chain (one: every bead; " +
                        std::to_string(chain.count) + ": one per bead)");
  for (const auto& m : chain_materials)
    chain.materials.push_back(material_of(cfg, materials, "chain.materials", m));
  chain.taper = cfg.number("chain.taper");
  chain.gap = cfg.number("chain.gap");
  chain.overlap = cfg.number("chain.overlap");
  chain.end_force = cfg.number("chain.end_force");
  chain.static_overlap = cfg.flag("chain.static_overlap");
  scene.cylinder_length = cfg.number("chain.cylinder_length");
  if (chain.gap > 0 && chain.overlap > 0)
    cfg.fail("chain.overlap", "cannot be combined with chain.gap > 0");
  if (chain.static_overlap && !(chain.end_force > 0))
    cfg.fail("chain.static_overlap", "needs chain.end_force > 0 (the force the overlap carries)");
  if (chain.static_overlap && (chain.gap > 0 || chain.overlap > 0))
    cfg.fail("chain.static_overlap", "cannot be combined with chain.gap or chain.overlap");
  return chain;
}

// Striker: present when its velocity is given.
bool has_striker(const CaseConfig& cfg) {
  const bool striker = cfg.has("striker.velocity") && cfg.flag("striker.enabled");
  if (!cfg.has("striker.velocity"))
    for (const char* k : {"striker.material", "striker.radius"})
      if (cfg.given(k))
        cfg.fail("striker.velocity",
                 std::string("is missing, but ") + k + " is given (the velocity adds the striker)");
  return striker;
}

// A body of the chain (the striker or a bead) before it is placed.
struct Body {
  double radius;
  int material;
  double velocity;
};

// Memory this process may still take [bytes]: the kernel's estimate of what is available
// without swapping (MemAvailable), or what the control group still allows, if less; 0 where
// neither can be read.
std::size_t available_memory() {
  std::size_t available = 0;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    std::size_t kib = 0;
    std::string unit;
    meminfo >> kib >> unit;
    if (key == "MemAvailable:") available = kib * 1024;
  }
  auto read = [](const char* path) -> std::optional<std::size_t> {
    std::ifstream in(path);
    std::size_t value = 0;
    if (in >> value) return value;
    return std::nullopt;  // absent, or "max"
  };
  const auto limit = read("/sys/fs/cgroup/memory.max");
  const auto used = read("/sys/fs/cgroup/memory.current");
  if (limit && used && *limit > *used)
    available = available ? std::min(available, *limit - *used) : *limit - *used;
  return available;
}

// The run must fit in memory before anything is allocated: the simulation (simulation_bytes),
// what building it holds at once (the bodies, their separations, the contact time scales), the
// per-bead results, and the writer's queue of frames plus the three frames it may hold outside
// the queue (being copied, being written, recycled).
std::size_t check_memory(const CaseConfig& cfg, std::size_t particles, bool write_contacts) {
  const std::size_t contacts = particles + 1;
  const std::size_t need = simulation_bytes(particles, contacts) +
                           particles * (sizeof(Body) + sizeof(double) + 4 * sizeof(double)) +
                           contacts * sizeof(TimeScalePair) + H5mdWriter::queue_bytes +
                           3 * H5mdWriter::frame_bytes(particles, contacts, write_contacts);
  const std::size_t available = available_memory();
  if (available == 0 || need <= available) return need;
  std::ostringstream m;
  m << std::setprecision(3) << cfg.number("chain.count") << " beads need about "
    << static_cast<double>(need) / 1e9 << " GB (" << need / particles
    << " bytes per bead), more than the " << static_cast<double>(available) / 1e9
    << " GB this machine has available";
  cfg.fail("chain.count", m.str());
}

// The striker and the beads, left to right along +x.
std::vector<Body> chain_bodies(const CaseConfig& cfg, const MaterialIndex& materials,
                               const ChainSpec& chain, bool striker) {
  std::vector<Body> bodies;
  if (striker) {
    const int m = cfg.has("striker.material") ? material_of(cfg, materials, "striker.material",
                                                            cfg.text("striker.material"))
                                              : chain.materials[0];
    const double r = cfg.has("striker.radius") ? cfg.number("striker.radius") : chain.radii[0];
    bodies.push_back({r, m, cfg.number("striker.velocity")});
  }
  for (Eigen::Index k = 0; k < chain.count; ++k) {
    const auto ku = static_cast<std::size_t>(k);
    const double r =
        chain.radii[ku % chain.radii.size()] * std::pow(chain.taper, static_cast<double>(k));
    if (!(r >= min_radius && r <= max_radius)) {  // chain.radii is in range: the taper took it out
      std::ostringstream m;
      m << chain.taper << " makes bead " << k << " radius " << r << " m, outside [" << min_radius
        << ", " << max_radius << "] m";
      cfg.fail("chain.taper", m.str());
    }
    bodies.push_back({r, chain.materials[ku % chain.materials.size()], 0.0});
  }
  return bodies;
}

// Where the chain is among the particles: the striker (if any) and the beads are particles
// [0, bodies); extra particles follow.
struct ChainIndices {
  Eigen::Index bodies, first_bead, last_bead;
};

// The bodies become the first particles, all at the origin until they are placed; room is made
// for `extra` particles after them.
ChainIndices add_bodies(Scene& scene, const std::vector<Body>& bodies, std::size_t extra,
                        bool striker, Eigen::Index count) {
  Particles& p = scene.particles;
  p.resize(static_cast<Eigen::Index>(bodies.size() + extra));
  for (std::size_t k = 0; k < bodies.size(); ++k)
    p.set(static_cast<Eigen::Index>(k), Eigen::Vector3d::Zero(),
          Eigen::Vector3d(bodies[k].velocity, 0, 0), bodies[k].radius, bodies[k].material,
          density_of(scene, bodies[k].material), scene.cylinder_length);
  scene.striker = striker ? 0 : -1;
  scene.chain_first = striker ? 1 : 0;
  scene.chain_count = count;
  const auto n_bodies = static_cast<Eigen::Index>(bodies.size());
  return {n_bodies, scene.chain_first, n_bodies - 1};
}

// The enabled walls, by their index in Scene::walls (-1: disabled), and the gap each is given.
struct WallSlots {
  int start = -1, end = -1;
  std::vector<double> gap;
};

WallSlots add_walls(const CaseConfig& cfg, const MaterialIndex& materials, Scene& scene) {
  WallSlots slots;
  for (const char* section : {"wall_start", "wall_end"}) {
    const std::string s = section;
    if (!cfg.flag(s + ".enabled")) continue;  // its other keys may stay: enabling is one switch
    if (!cfg.has(s + ".material")) cfg.fail(s + ".material", "is missing (the wall is enabled)");
    Wall wall;
    wall.name = s;
    wall.material = material_of(cfg, materials, s + ".material", cfg.text(s + ".material"));
    wall.normal = Eigen::Vector3d(s == "wall_start" ? 1.0 : -1.0, 0, 0);
    wall.velocity = Eigen::Vector3d(cfg.number(s + ".velocity"), 0, 0);
    (s == "wall_start" ? slots.start : slots.end) = static_cast<int>(scene.walls.size());
    scene.walls.push_back(wall);
    slots.gap.push_back(cfg.number(s + ".gap"));
  }
  return slots;
}

// A static overlap needs a wall to carry the end force, on the side the load pushes towards.
void check_load_wall(const CaseConfig& cfg, const WallSlots& walls, bool striker,
                     bool load_towards_end) {
  if (!load_towards_end && walls.start < 0)
    cfg.fail("chain.static_overlap",
             "needs a wall that carries chain.end_force: wall_start (the load pushes the last "
             "bead towards it) or wall_end alone (the load pushes the first bead towards it)");
  if (!load_towards_end && striker)
    cfg.fail("chain.static_overlap",
             "with a striker the load must push towards wall_end: enable wall_end only");
}

// The law's coefficients for one pair. A law refuses a pair it cannot describe with
// std::invalid_argument (a line contact without a length, an elastoplastic law without a yield
// stress, a clearance on a wall contact, parameters for which F(delta) is not unique, ...): for a
// case that is invalid input, refused before anything runs like any other.
PairCoeffs prepare_pair(const CaseConfig& cfg, const SimulationSettings& settings,
                        const PairInput& in) {
  try {
    return settings.law->prepare(*settings.law, in, settings.law_params);
  } catch (const LawParamError& e) {
    cfg.fail("contact." + e.key, e.what());
  } catch (const std::invalid_argument& e) {
    cfg.fail("contact.law", e.what());
  }
}

// Static overlap carrying `force`: where the law's elastic part equals it.
double static_overlap_of(const CaseConfig& cfg, const SimulationSettings& settings,
                         const PairInput& in, double force) {
  return elastic_overlap(settings.law->kernel, prepare_pair(cfg, settings, in), force);
}

// Surface separation between consecutive bodies (negative: overlap); entry 0 is unused.
std::vector<double> surface_separations(const CaseConfig& cfg, const RunSetup& run,
                                        const ChainSpec& chain, const ChainIndices& at,
                                        bool striker) {
  const Scene& scene = run.scene;
  const Particles& p = scene.particles;
  std::vector<double> separation(static_cast<std::size_t>(at.bodies), 0.0);
  for (Eigen::Index k = 1; k < at.bodies; ++k) {
    double s =
        (k == at.first_bead && striker) ? cfg.number("striker.gap") : chain.gap - chain.overlap;
    if (chain.static_overlap && k > at.first_bead)
      s = -static_overlap_of(cfg, run.settings, pair_input(scene, k - 1, k), chain.end_force);
    if (-s >= std::min(p.radius(k - 1), p.radius(k)))
      cfg.fail(k == at.first_bead && striker ? "striker.gap" : "chain.overlap",
               "overlap " + rounded_text(-s) + " m reaches a bead radius: allowed below " +
                   rounded_text(std::min(p.radius(k - 1), p.radius(k))) + " m");
    separation[static_cast<std::size_t>(k)] = s;
  }
  return separation;
}

// Places the bodies along x, the first body's surface at x = 0; returns the last one's centre.
double place_bodies(Particles& p, const std::vector<double>& separation, Eigen::Index bodies) {
  double x = p.radius(0);
  for (Eigen::Index k = 0; k < bodies; ++k) {
    if (k > 0) x += p.radius(k - 1) + separation[static_cast<std::size_t>(k)] + p.radius(k);
    p.position(k, 0) = x;
  }
  return x;
}

// Each wall at its gap from the body beside it, or, the wall that carries the end load under a
// static overlap, at the overlap carrying it. `x`: the last body's centre.
void place_walls(const CaseConfig& cfg, RunSetup& run, const WallSlots& walls,
                 const ChainSpec& chain, bool load_towards_end, const ChainIndices& at, double x) {
  Scene& scene = run.scene;
  if (walls.start >= 0) {  // first body surface at x = 0
    const double s =
        chain.static_overlap && !load_towards_end
            ? -static_overlap_of(cfg, run.settings,
                                 wall_input(scene, 0, static_cast<std::size_t>(walls.start)),
                                 chain.end_force)
            : walls.gap[static_cast<std::size_t>(walls.start)];
    scene.walls[static_cast<std::size_t>(walls.start)].point = Eigen::Vector3d(-s, 0, 0);
  }
  if (walls.end >= 0) {
    const double s = chain.static_overlap && load_towards_end
                         ? -static_overlap_of(
                               cfg, run.settings,
                               wall_input(scene, at.last_bead, static_cast<std::size_t>(walls.end)),
                               chain.end_force)
                         : walls.gap[static_cast<std::size_t>(walls.end)];
    scene.walls[static_cast<std::size_t>(walls.end)].point =
        Eigen::Vector3d(x + scene.particles.radius(at.last_bead) + s, 0, 0);
  }
}

// The end force on the end bead the load pushes from, and gravity.
void apply_loads(const CaseConfig& cfg, Scene& scene, double end_force, bool load_towards_end,
                 const ChainIndices& at) {
  if (load_towards_end)
    scene.particles.external_force(at.first_bead, 0) = end_force;
  else
    scene.particles.external_force(at.last_bead, 0) = -end_force;
  const auto g = cfg.numbers("gravity.acceleration");
  scene.gravity = Eigen::Vector3d(g[0], g[1], g[2]);
}

// Body `i` as the data give it: position and velocity, and radius and material where given
// (the mass follows from them).
void set_from_data(Scene& scene, const InitialState& data, Eigen::Index i) {
  Particles& p = scene.particles;
  const auto iu = static_cast<std::size_t>(i);
  const int m = data.material.empty() ? p.material[iu] : data.material[iu];
  const double r = data.radius.size() > 0 ? data.radius(i) : p.radius(i);
  p.set(i, data.position.row(i).matrix().transpose(), data.velocity.row(i).matrix().transpose(), r,
        m, density_of(scene, m), scene.cylinder_length);
}

// Extra particles off the chain, as the case or the data give them; none may sit deep inside
// another sphere.
void add_extra_particles(const CaseConfig& cfg, const MaterialIndex& materials, Scene& scene,
                         const std::vector<ExtraParticle>& extra, Eigen::Index bodies,
                         const InitialState* data) {
  Particles& p = scene.particles;
  for (std::size_t k = 0; k < extra.size(); ++k) {
    const int m = material_of(cfg, materials, "extra.particles", extra[k].material);
    const Eigen::Index e = bodies + static_cast<Eigen::Index>(k);
    p.set(e, extra[k].x, extra[k].v, extra[k].radius, m, density_of(scene, m),
          scene.cylinder_length);
    if (data) set_from_data(scene, *data, e);
    for (Eigen::Index j = 0; j < e; ++j) {
      const double dist = std::sqrt((p.position.row(e) - p.position.row(j)).square().sum());
      if (p.radius(e) + p.radius(j) - dist < 0.5 * std::min(p.radius(e), p.radius(j))) continue;
      if (data)
        cfg.fail("initial.file", data->where(e) + " (extra particle " + std::to_string(k) +
                                     ") overlaps body " + std::to_string(j) +
                                     " by half its radius or more");
      cfg.fail("extra.particles", "sphere " + std::to_string(k) + " overlaps particle " +
                                      std::to_string(j) + " by half its radius or more");
    }
  }
}

// A particle may not start behind a wall (an infinite plane: it would never meet the chain), nor
// pressed into one by half its radius or more, as for two spheres.
// Bodies from data are all checked.
void check_wall_sides(const CaseConfig& cfg, const Scene& scene, Eigen::Index bodies,
                      const InitialState* data) {
  const Particles& p = scene.particles;
  for (Eigen::Index e = data ? 0 : bodies; e < p.size(); ++e)
    for (const Wall& wall : scene.walls) {
      const double distance =
          (p.position.row(e).transpose().matrix() - wall.point).dot(wall.normal);
      if (distance >= 0.5 * p.radius(e)) continue;
      std::ostringstream m;
      if (data)
        m << data->where(e);
      else
        m << "sphere " << e - bodies;
      m << " at x = " << p.position(e, 0) << " m is "
        << (distance < 0.0 ? "behind " : "pressed by half its radius or more into ") << wall.name
        << " (the wall's face is at x = " << wall.point.x() << " m and faces "
        << (wall.normal.x() > 0.0 ? "+x" : "-x") << ")";
      cfg.fail(data ? "initial.file" : "extra.particles", m.str());
    }
}

// Every body within max_extent_in_radii smallest radii of the origin, where doubles still
// resolve the overlaps; the message names the key that put a body further out.
void check_extent(const CaseConfig& cfg, const Scene& scene, bool striker, Eigen::Index bodies,
                  bool from_data) {
  const Particles& p = scene.particles;
  const double r_min = p.radius.minCoeff();
  const double limit = max_extent_in_radii * r_min;
  double extent = p.position.abs().maxCoeff();
  for (const Wall& wall : scene.walls) extent = std::max(extent, wall.point.cwiseAbs().maxCoeff());
  if (extent <= limit) return;
  std::string key = "chain.count";  // a long chain, if no single gap or particle is to blame
  if (p.size() > bodies && p.position.bottomRows(p.size() - bodies).abs().maxCoeff() > limit)
    key = "extra.particles";
  if (from_data) key = "initial.file";
  for (const char* gap : {"chain.gap", "wall_start.gap", "wall_end.gap", "striker.gap"})
    if ((std::string(gap) != "striker.gap" || striker) && cfg.has(gap) &&
        cfg.number(gap) > 0.1 * limit)
      key = gap;
  std::ostringstream m;
  m << "places a body " << extent << " m from the origin, beyond " << limit << " m ("
    << max_extent_in_radii << " times the smallest radius, " << r_min
    << " m), where double-precision positions no longer resolve the overlaps of the contacts";
  cfg.fail(key, m.str());
}

// The bodies the case builds, for messages: "the striker, 20 chain beads and 2 extra particles".
std::string bodies_text(bool striker, Eigen::Index count, std::size_t extra) {
  std::vector<std::string> parts;
  if (striker) parts.emplace_back("the striker");
  parts.push_back(std::to_string(count) + " chain bead" + (count == 1 ? "" : "s"));
  if (extra > 0)
    parts.push_back(std::to_string(extra) + " extra particle" + (extra == 1 ? "" : "s"));
  std::string s;
  for (std::size_t k = 0; k < parts.size(); ++k)
    s += (k == 0 ? "" : k + 1 == parts.size() ? " and " : ", ") + parts[k];
  return s;
}

// initial.file: the state of every body the case builds, read and checked against the case, or
// none when the case starts from its own set-up.
std::optional<InitialState> read_initial(const CaseConfig& cfg, RunSetup& run, bool striker,
                                         Eigen::Index count, std::size_t extra) {
  if (!cfg.has("initial.file") || cfg.text("initial.file").empty()) {
    // The default, -1, is what a run records of a case without initial.file: a case written
    // from those records runs.
    if (cfg.integer("initial.frame") != -1)
      cfg.fail("initial.frame",
               "is " + std::to_string(cfg.integer("initial.frame")) +
                   ", but initial.file is not given: the frame is one of an HDF5 initial.file (a "
                   "chaindem output); give initial.file, or leave initial.frame out");
    return std::nullopt;
  }
  const std::string& given = cfg.text("initial.file");
  const std::string path = resolve_initial_path(given, cfg.origin());
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    cfg.fail("initial.file",
             "'" + quoted_path(given) + "' does not exist" +
                 (path != given ? " (relative paths are read from the case file's directory: '" +
                                      quoted_path(path) + "')"
                                : std::string()));
  const long long frame = cfg.integer("initial.frame");
  if (frame != -1 && !is_hdf5_path(path))
    cfg.fail("initial.frame", "is " + std::to_string(frame) + ", but initial.file '" +
                                  quoted_path(given) +
                                  "' is read as CSV, which holds one state (frames are those of "
                                  "an HDF5 output, .h5 or .hdf5): leave initial.frame at -1");
  InitialState data;
  try {
    data = read_initial_state(path, frame, cfg.materials());
  } catch (const InitialStateError& e) {
    cfg.fail(e.key, e.what());
  }
  run.input_files.push_back(path);
  const Eigen::Index bodies = (striker ? 1 : 0) + count + static_cast<Eigen::Index>(extra);
  const std::string builds = "the case builds " + std::to_string(bodies) + " bod" +
                             (bodies == 1 ? "y" : "ies") + ": " +
                             bodies_text(striker, count, extra) + ", in this order";
  if (data.size() != bodies)
    cfg.fail("initial.file", "'" + quoted_path(path) + "' " +
                                 (data.hdf5 ? "frame " + std::to_string(data.frame) + " has " +
                                                  std::to_string(data.size()) + " bodies"
                                            : "has " + std::to_string(data.size()) + " row" +
                                                  (data.size() == 1 ? "" : "s")) +
                                 "; " + builds + " (one " + (data.hdf5 ? "body" : "row") +
                                 " for each)");
  // An output of the same number of bodies, but not the same bodies.
  if (data.striker && data.chain_count &&
      ((*data.striker >= 0) != striker || *data.chain_count != count))
    cfg.fail(
        "initial.file",
        "'" + quoted_path(path) + "' is the output of a run of " +
            bodies_text(*data.striker >= 0, *data.chain_count,
                        static_cast<std::size_t>(std::max<Eigen::Index>(
                            0, data.size() - (*data.striker >= 0 ? 1 : 0) - *data.chain_count))) +
            "; " + builds);
  return data;
}

// Surface separation between consecutive bodies from data (negative: overlap); entry 0 is
// unused. No two may overlap by a radius.
std::vector<double> data_separations(const CaseConfig& cfg, const Particles& p,
                                     const InitialState& data, Eigen::Index bodies) {
  std::vector<double> separation(static_cast<std::size_t>(bodies), 0.0);
  for (Eigen::Index k = 1; k < bodies; ++k) {
    const double distance = std::sqrt((p.position.row(k) - p.position.row(k - 1)).square().sum());
    const double s = distance - p.radius(k - 1) - p.radius(k);
    const double smaller = std::min(p.radius(k - 1), p.radius(k));
    if (-s >= smaller) {
      std::ostringstream m;
      m << data.where(k) << " overlaps body " << k - 1 << " by " << -s
        << " m, which reaches a radius: allowed below " << smaller << " m";
      cfg.fail("initial.file", m.str());
    }
    separation[static_cast<std::size_t>(k)] = s;
  }
  return separation;
}

// The walls of a state from data: an output's walls where they were at its frame; other walls
// at their gap from the outermost body surface on their side, or, the wall that carries the end
// load under a static overlap, at the overlap carrying it from the body beside it.
void place_walls_on_data(const CaseConfig& cfg, RunSetup& run, const WallSlots& walls,
                         const ChainSpec& chain, bool load_towards_end, const ChainIndices& at,
                         const InitialState& data) {
  Scene& scene = run.scene;
  const Particles& p = scene.particles;
  const auto chain_x = p.position.col(0).head(at.bodies);
  const auto chain_r = p.radius.head(at.bodies);
  for (const int slot : {walls.start, walls.end}) {
    if (slot < 0) continue;
    Wall& wall = scene.walls[static_cast<std::size_t>(slot)];
    if (const auto it = data.walls.find(wall.name); it != data.walls.end()) {
      wall.point = it->second;
      continue;
    }
    const bool start = slot == walls.start;
    const Eigen::Index beside = start ? 0 : at.last_bead;
    const double face =
        start ? p.position(beside, 0) - p.radius(beside) : p.position(beside, 0) + p.radius(beside);
    double x = 0.0;
    if (chain.static_overlap && start != load_towards_end) {
      const double overlap = static_overlap_of(
          cfg, run.settings, wall_input(scene, beside, static_cast<std::size_t>(slot)),
          chain.end_force);
      x = start ? face + overlap : face - overlap;
    } else {
      const double gap = walls.gap[static_cast<std::size_t>(slot)];
      x = start ? (chain_x - chain_r).minCoeff() - gap : (chain_x + chain_r).maxCoeff() + gap;
    }
    wall.point = Eigen::Vector3d(x, 0, 0);
  }
}

// Neighbour skin, threads and engine.
void set_engine(const CaseConfig& cfg, RunSetup& run) {
  SimulationSettings& settings = run.settings;
  settings.skin = cfg.number("simulation.skin");
  if (settings.skin == 0.0) settings.skin = 0.2 * run.scene.particles.radius.minCoeff();
  settings.threads = static_cast<int>(cfg.integer("simulation.threads"));
  if (settings.threads == 0) settings.threads = default_threads();
  const std::string& engine = cfg.text("simulation.engine");
  settings.engine = engine == "general" ? SimulationSettings::Engine::general
                    : engine == "chain" ? SimulationSettings::Engine::chain
                                        : SimulationSettings::Engine::automatic;
  if (settings.engine == SimulationSettings::Engine::chain && !forms_chain(run.scene))
    cfg.fail("simulation.engine",
             "is chain, but the particles do not form a chain on the x axis (extra particles "
             "off the axis, or gravity across it): use auto or general");
}

// Contact time scales: the consecutive bodies, every extra particle with every other, and every
// particle with every wall. A contact loaded by the end force (now or once the load has
// travelled) is counted at its static overlap; overlaps from rounding (< 1e-9 R) are not loads.
std::vector<TimeScalePair> contact_time_scales(const CaseConfig& cfg, const RunSetup& run,
                                               const std::vector<double>& separation,
                                               const WallSlots& walls, double end_force,
                                               const ChainIndices& at) {
  const Scene& scene = run.scene;
  const SimulationSettings& settings = run.settings;
  const Particles& p = scene.particles;
  std::vector<TimeScalePair> time_scale_pairs;
  auto add_scale = [&](const PairInput& in, double d0, bool carries_load) {
    const PairCoeffs c = prepare_pair(cfg, settings, in);
    if (d0 < 1e-9 * in.effective_radius) d0 = 0.0;
    if (carries_load && end_force > 0.0)
      d0 = std::max(d0, elastic_overlap(settings.law->kernel, c, end_force));
    time_scale_pairs.push_back({c, in.effective_mass, d0, settings.law->kernel});
  };
  for (Eigen::Index k = 1; k < at.bodies; ++k)
    add_scale(pair_input(scene, k - 1, k), -separation[static_cast<std::size_t>(k)],
              k > at.first_bead);
  for (Eigen::Index e = at.bodies; e < p.size(); ++e)
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
                (static_cast<int>(w) == walls.start && i == 0) ||
                    (static_cast<int>(w) == walls.end && i == at.last_bead));
  return time_scale_pairs;
}

}  // namespace

RunSetup build_run(const CaseConfig& cfg, const BuildOptions& options) {
  RunSetup run;
  Scene& scene = run.scene;
  SimulationSettings& settings = run.settings;
  const MaterialIndex materials = add_materials(cfg, scene);
  settings.law = &resolve_law(cfg, settings.law_params, options.ignore_foreign_law_params, run);
  settings.tension = tension_from(cfg.text("contact.tension"), *settings.law).value();  // its words
  const ChainSpec chain = read_chain(cfg, materials, scene);
  const bool striker = has_striker(cfg);

  // Bodies along +x, placed left to right; positions are fixed after the overlaps are known.
  const std::vector<ExtraParticle> extra = parse_extra(cfg);
  run.memory_estimate =
      check_memory(cfg, static_cast<std::size_t>(chain.count) + (striker ? 1 : 0) + extra.size(),
                   cfg.flag("output.contacts"));
  const std::vector<Body> bodies = chain_bodies(cfg, materials, chain, striker);
  const ChainIndices at = add_bodies(scene, bodies, extra.size(), striker, chain.count);
  // A state from data replaces the bodies' set-up: their places, velocities, and where given
  // radii and materials.
  const std::optional<InitialState> initial =
      read_initial(cfg, run, striker, chain.count, extra.size());
  const InitialState* data = initial ? &*initial : nullptr;
  if (data)
    for (Eigen::Index k = 0; k < at.bodies; ++k) set_from_data(scene, *data, k);
  const WallSlots walls = add_walls(cfg, materials, scene);
  // The end load pushes the last bead towards the start, against wall_start; with only wall_end,
  // it pushes the first bead towards the end instead (a striker then hits the loaded chain).
  const bool load_towards_end = walls.end >= 0 && walls.start < 0;
  if (chain.static_overlap) check_load_wall(cfg, walls, striker, load_towards_end);
  std::vector<double> separation;
  if (data) {
    separation = data_separations(cfg, scene.particles, *data, at.bodies);
    place_walls_on_data(cfg, run, walls, chain, load_towards_end, at, *data);
  } else {
    separation = surface_separations(cfg, run, chain, at, striker);
    const double x = place_bodies(scene.particles, separation, at.bodies);
    place_walls(cfg, run, walls, chain, load_towards_end, at, x);
  }
  apply_loads(cfg, scene, chain.end_force, load_towards_end, at);
  add_extra_particles(cfg, materials, scene, extra, at.bodies, data);
  check_wall_sides(cfg, scene, at.bodies, data);
  check_extent(cfg, scene, striker, at.bodies, data != nullptr);

  set_engine(cfg, run);
  run.duration = cfg.number("simulation.duration");
  const std::vector<TimeScalePair> time_scale_pairs =
      contact_time_scales(cfg, run, separation, walls, chain.end_force, at);
  check_gravity(cfg, scene, run.duration);
  const double speed = largest_relative_speed(scene, run.duration);
  set_contact_policies(cfg, settings, speed);
  choose_time_step(cfg, run, time_scale_pairs, speed,
                   fastest_key(scene, run.duration, data != nullptr));
  set_output(cfg, run);
  return run;
}

}  // namespace chaindem
