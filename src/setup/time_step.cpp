// The set-up's time step: contact time scales, the time step they and the damping allow, and
// the number of steps of the run (setup_parts.hpp).

#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>
#include <set>
#include <sstream>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

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

}  // namespace

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

namespace setup {
namespace {

// |v|, also where its squares would underflow or overflow (a speed of 1e-300 m/s is a speed).
double magnitude(const Eigen::Vector3d& v) {
  const double n = v.norm();
  return n > 0.0 && std::isfinite(n) ? n : v.stableNorm();
}

// The key that sets how fast a wall's motion drives it, for messages about the speed.
std::string drive_key(const Case& c, const WallSpec& spec) {
  switch (spec.motion) {
    case WallMotion::table:
      return c.key(spec.table);
    case WallMotion::slider_crank:
      return c.key(spec.crank_speed);
    case WallMotion::constant:
    case WallMotion::harmonic:
      break;
  }
  return c.key(spec.amplitude);
}

}  // namespace

// The largest relative speed of the case: the spread of body and wall velocities (a driven
// wall's at its fastest over the run, either way along its normal), plus what gravity can add.
double largest_relative_speed(const Scene& scene, double duration) {
  Eigen::Vector3d lo = scene.particles.velocity.colwise().minCoeff().transpose();
  Eigen::Vector3d hi = scene.particles.velocity.colwise().maxCoeff().transpose();
  for (const auto& w : scene.walls) {
    const Eigen::Vector3d drive = w.motion.largest_speed(duration) * w.normal.cwiseAbs();
    lo = lo.cwiseMin(w.velocity - drive);
    hi = hi.cwiseMax(w.velocity + drive);
  }
  return magnitude(hi - lo) + magnitude(scene.gravity) * duration;
}

// The key that gives the case's fastest motion (a body's, a wall's, or what gravity adds over
// the run), for messages about the speed.
std::string fastest_key(const Case& c, const Scene& scene, double duration, bool from_data) {
  const CaseSpec& s = c.spec();
  // Each key looked up once: a lookup walks the declarations, and this looks at every body.
  const std::string striker_key = c.key(s.striker.velocity), data_key = c.key(s.initial.file),
                    extra_key = c.key(s.extra.particles), chain_key = c.key(s.chain.velocity);
  std::string key = striker_key;
  double fastest = 0.0;
  auto consider = [&](double speed, const std::string& k) {
    if (speed > fastest) fastest = speed, key = k;
  };
  const Particles& p = scene.particles;
  const Eigen::Index bodies = scene.chain_first + scene.chain_count;
  for (Eigen::Index i = 0; i < p.size(); ++i)
    consider(magnitude(p.velocity.row(i).matrix().transpose()), from_data            ? data_key
                                                                : i == scene.striker ? striker_key
                                                                : i >= bodies        ? extra_key
                                                                                     : chain_key);
  for (const Wall& w : scene.walls) {
    const WallSpec& spec = w.name == "wall_start" ? s.wall_start : s.wall_end;
    consider(magnitude(w.velocity), c.key(spec.velocity));
    consider(w.motion.largest_speed(duration), drive_key(c, spec));
  }
  consider(magnitude(scene.gravity) * duration, c.key(s.gravity.acceleration));
  return key;
}

// Gravity may not accelerate a body beyond the speeds a case may hold over the run.
void check_gravity(const Case& c, const Scene& scene, double duration) {
  const CaseSpec& s = c.spec();
  const double g = magnitude(scene.gravity);
  if (g * duration <= max_speed) return;
  c.fail(s.gravity.acceleration,
         "|g| = " + rounded_text(g) + " m/s^2 would accelerate a body to " +
             rounded_text(g * duration) + " m/s over the run (" + c.key(s.simulation.duration) +
             " = " + number_text(duration) + " s), beyond " + number_text(max_speed) +
             " m/s: allowed |g| up to " + rounded_text(max_speed / duration) +
             " m/s^2 for this run (the Earth's is 9.81)");
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
void blame_contact_duration(const Case& c, const RunSetup& run, double t_contact, double speed,
                            const std::string& speed_key, bool too_long) {
  const CaseSpec& spec = c.spec();
  const std::string run_text =
      c.key(spec.simulation.duration) + " = " + number_text(run.duration) + " s";
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
    const MaterialSpec& given = spec.materials.at(material.name);
    // A soft or heavy material lengthens the contacts, a stiff or light one shortens them.
    const double e = material.youngs_modulus, rho = material.density;
    if (too_long ? e < plausible_modulus.low : e > plausible_modulus.high)
      c.fail(given.youngs_modulus,
             number_text(e) + " Pa is not the Young's modulus of a solid: with it " + effect +
                 ". The modulus is in Pa (200 GPa is 200e9): solids have " +
                 plausible_modulus.text);
    if (too_long ? rho > plausible_density.high : rho < plausible_density.low)
      c.fail(given.density, number_text(rho) + " kg/m^3 is not the density of a solid: with it " +
                                effect + ". Solids have " + plausible_density.text);
  }
  if (too_long && speed < slowest_impact)
    c.config().fail(speed_key, "sets the case's largest relative speed, " + rounded_text(speed, 3) +
                                   " m/s, and at that speed " + effect +
                                   ", so no automatic time step fits it: impacts of at least " +
                                   number_text(slowest_impact) + " m/s, a longer run, or a given " +
                                   c.key(spec.simulation.time_step));
}

double requested_output_interval(const OutputSpec& output, double duration) {
  const double interval = output.interval == 0.0 ? duration / 200.0 : output.interval;
  return std::min(interval, duration);
}

namespace {

// An automatic step shrinks, by less than a factor two, so that the output interval is a whole
// number of steps: frames then fall exactly on the times asked for. Returns whether it changed.
// A given step is kept, and so is a step longer than the interval (frames come every step); the
// summary says when frames cannot fall on the interval.
bool fit_step_to_frames(RunSetup& run) {
  double& dt = run.settings.time_step;
  const double interval = run.output_interval;
  if (!(interval >= dt)) return false;
  const double steps_per_frame = std::ceil(interval / dt - 1e-9);
  const double fitted = interval / steps_per_frame;
  if (fitted == dt) return false;
  std::ostringstream note;
  note << "; " << fitted << " s so that the output interval (" << interval << " s) is "
       << steps_per_frame << (steps_per_frame == 1.0 ? " step" : " steps");
  run.time_step_note += note.str();
  dt = fitted;
  return true;
}

}  // namespace

// The time step: given, or the shortest contact time of the case over steps_per_contact, reduced
// where the damping needs it; the number of steps of the run.
namespace {

// The explicit step must also resolve the damping: with C = dF/dv, the damping coefficient of
// the stiffest contact at the deepest overlap the case reaches, C dt / m* stays below 1/4 for the
// second-order integration (stable below 1/2) and below 1 for the half-step one (stable below
// 4). For the hysteresis laws C = alpha F_e / v0 with v0 as the policy sets it for an impact at
// the case's largest speed: the floor (onset: every contact that starts at rest), the reference
// velocity, or that speed (peak). Infinity when no contact is damped.
double damping_step_limit(const SimulationSettings& settings,
                          const std::vector<TimeScalePair>& time_scale_pairs, double speed,
                          bool uses_v0) {
  using Policy = SimulationSettings::ImpactVelocity;
  double v0 = speed;
  if (settings.impact_velocity == Policy::onset && uses_v0) v0 = settings.impact_velocity_floor;
  if (settings.impact_velocity == Policy::reference) v0 = settings.reference_velocity;
  const double limit =
      settings.integrator == SimulationSettings::Integrator::second_order ? 0.25 : 1.0;
  double dt_damping = std::numeric_limits<double>::infinity();
  for (const auto& pair : time_scale_pairs) {
    const double k = pair.coeffs.stiffness, n = pair.coeffs.exponent, m = pair.effective_mass;
    double d_max =
        speed > 0.0 ? std::pow((n + 1.0) * m * speed * speed / (2.0 * k), 1.0 / (n + 1.0)) : 0.0;
    d_max = std::max(d_max, pair.initial_overlap);
    if (!(d_max > 0.0) || !(v0 > 0.0)) continue;
    const double damping = damping_coefficient(pair.kernel, pair.coeffs, d_max, v0);
    if (damping > 0.0) dt_damping = std::min(dt_damping, limit * m / damping);
  }
  return dt_damping;
}

// A given step must follow the drives it would step over: two steps per period at least.
void refuse_steps_over_drives(const Case& c, const RunSetup& run, double dt) {
  const SimulationSpec& s = c.spec().simulation;
  auto refuse = [&](const Motion& motion, const std::string& key) {
    if (!(dt > 0.5 * motion.shortest_period())) return;
    c.fail(s.time_step, number_text(dt) + " s is longer than half the period (" +
                            rounded_text(motion.shortest_period()) + " s) of " + key +
                            ", which no step resolves: at most " +
                            rounded_text(0.5 * motion.shortest_period()) + " s (" +
                            c.key(s.time_step) + " = 0 chooses it)");
  };
  for (const Wall& w : run.scene.walls) {
    const WallSpec& spec = w.name == "wall_start" ? c.spec().wall_start : c.spec().wall_end;
    refuse(w.motion, c.key(spec.frequency));
  }
  for (const DrivenLoad& l : run.scene.driven_loads)
    refuse(l.motion, c.key(c.spec().chain.end_force_frequency));
}

// The automatic step `dt`, shortened where the walls' motions or the driven loads need it.
void follow_drives(const RunSetup& run, double per_contact, double& dt, std::ostringstream& note) {
  double dt_drive = std::numeric_limits<double>::infinity();
  for (const Wall& w : run.scene.walls)
    dt_drive = std::min(dt_drive, w.motion.longest_step(per_contact, run.duration));
  if (dt_drive < dt) {
    dt = dt_drive;
    note << "; reduced to " << dt_drive << " s to follow the walls' prescribed motion";
  }
  double dt_load = std::numeric_limits<double>::infinity();
  for (const DrivenLoad& l : run.scene.driven_loads)
    dt_load = std::min(dt_load, l.motion.longest_step(per_contact, run.duration));
  if (dt_load < dt) {
    dt = dt_load;
    note << "; reduced to " << dt_load << " s to follow the driven end load";
  }
}

}  // namespace

void choose_time_step(const Case& c, RunSetup& run,
                      const std::vector<TimeScalePair>& time_scale_pairs, double speed,
                      const std::function<std::string()>& speed_key, double per_contact_given) {
  const SimulationSpec& s = c.spec().simulation;
  if (s.accuracy > 0.0 && s.time_step > 0.0)
    c.fail(s.accuracy,
           "chooses the time step, and " + c.key(s.time_step) + " gives one: give one of them");
  if (s.accuracy > 0.0 && s.error_estimate == ErrorEstimate::off)
    c.fail(s.accuracy, "chooses the step from the run's error estimate, which " +
                           c.key(s.error_estimate) + " = off turns off: give one of them");
  SimulationSettings& settings = run.settings;
  using Policy = SimulationSettings::ImpactVelocity;
  const bool uses_v0 = uses_impact_velocity(settings);
  const double t_contact = shortest_contact_time(time_scale_pairs, speed);
  run.contact_time = t_contact;
  if (s.time_step > 0.0) {
    settings.time_step = s.time_step;
    run.time_step_note = "given";
    // Velocity Verlet is stable for a linear spring below 2/omega = 0.64 of the contact time;
    // a step beyond half a contact cannot resolve one.
    if (settings.time_step > 0.5 * t_contact) {
      std::ostringstream m;
      m << settings.time_step << " s is longer than half the shortest contact duration of "
        << "the case (" << t_contact << " s), which no explicit step resolves: at most "
        << 0.5 * t_contact << " s (" << c.key(s.time_step) << " = 0 chooses it: contact duration / "
        << c.key(s.steps_per_contact) << ")";
      c.fail(s.time_step, m.str());
    }
    refuse_steps_over_drives(c, run, settings.time_step);
  } else {
    if (!std::isfinite(t_contact)) {
      const CaseSpec& spec = c.spec();
      const std::string velocity = c.key(spec.striker.velocity);
      c.fail(s.time_step,
             "cannot be chosen automatically: nothing in the case moves and no contact is "
             "loaded (no " +
                 velocity + ", " + c.key(spec.chain.velocity) +
                 ", wall velocity, gravity, moving extra particle or " +
                 c.key(spec.chain.end_force) +
                 "), so no impact sets a contact duration to step by: give the striker a "
                 "velocity (" +
                 velocity + "), or other motion, or a time step (" + c.key(s.time_step) + " > 0)");
    }
    const double per_contact = per_contact_given > 0.0 ? per_contact_given : s.steps_per_contact;
    settings.time_step = t_contact / per_contact;
    std::ostringstream note;
    note << "automatic: shortest contact time " << t_contact << " s at relative speed " << speed
         << " m/s / " << per_contact << " steps";
    const double dt_damping = damping_step_limit(settings, time_scale_pairs, speed, uses_v0);
    if (dt_damping < settings.time_step) {
      settings.time_step = dt_damping;
      note << "; reduced to " << dt_damping << " s so that the damping stays stable";
      if (settings.impact_velocity == Policy::onset && uses_v0)
        note << " (at the impact-velocity floor)";
    }
    follow_drives(run, per_contact, settings.time_step, note);
    run.time_step_note = note.str();
  }
  const bool automatic = !(s.time_step > 0.0);
  double steps = std::ceil(run.duration / settings.time_step - 1e-9);
  if (automatic && !(settings.time_step <= run.duration && steps <= 1e12))
    blame_contact_duration(c, run, t_contact, speed, speed_key(),
                           !(t_contact / s.steps_per_contact <= run.duration));
  if (!(settings.time_step <= run.duration)) {  // the run would be one step past its end
    std::ostringstream m;
    if (s.time_step > 0.0) {
      m << settings.time_step << " s is longer than simulation.duration = " << run.duration << " s";
      c.fail(s.time_step, m.str());
    }
    m << run.duration << " s is shorter than one time step (" << settings.time_step
      << " s, automatic)";
    c.fail(s.duration, m.str());
  }
  if (automatic && steps <= 1e12 && c.spec().output.every == 0 && fit_step_to_frames(run))
    steps = std::ceil(run.duration / settings.time_step - 1e-9);
  if (!(steps <= 1e12))
    c.config().fail(automatic ? c.key(s.duration) : c.key(s.time_step),
                    "needs " + rounded_text(steps) + " steps of " +
                        rounded_text(settings.time_step) + (automatic ? " s (automatic)" : " s") +
                        "; at most 1e12 allowed");
  run.steps = static_cast<std::int64_t>(steps);
}

// Contact time scales: the consecutive bodies, every extra particle with every other, and every
// particle with every wall. A contact loaded by the end force (now or once the load has
// travelled) is counted at its static overlap; overlaps from rounding (< 1e-9 R) are not loads.
// A time scale equal to one of the last few is not repeated: the time step is a minimum over
// them (shortest_contact_time, the damping's limit), and a chain of N beads has N contacts of a
// few kinds.
std::vector<TimeScalePair> contact_time_scales(const Case& c, const RunSetup& run,
                                               const std::vector<double>& separation,
                                               const WallSlots& walls, double end_force,
                                               const ChainIndices& at) {
  const Scene& scene = run.scene;
  const Particles& p = scene.particles;
  std::vector<TimeScalePair> time_scale_pairs;
  auto same = [](const TimeScalePair& a, const TimeScalePair& b) {
    return std::memcmp(&a.coeffs, &b.coeffs, sizeof(PairCoeffs)) == 0 &&
           std::bit_cast<std::uint64_t>(a.effective_mass) ==
               std::bit_cast<std::uint64_t>(b.effective_mass) &&
           std::bit_cast<std::uint64_t>(a.initial_overlap) ==
               std::bit_cast<std::uint64_t>(b.initial_overlap) &&
           a.kernel == b.kernel;
  };
  constexpr std::size_t recent = 4;
  ContactPreparer contacts;
  auto add_scale = [&](const PreparedContact& contact, double d0, bool carries_load) {
    if (d0 < 1e-9 * contact.input.effective_radius) d0 = 0.0;
    if (carries_load && end_force > 0.0) d0 = std::max(d0, static_overlap_of(contact, end_force));
    const TimeScalePair scale{contact.coeffs, contact.input.effective_mass, d0, contact.kernel};
    const std::size_t n = time_scale_pairs.size();
    for (std::size_t k = n - std::min(n, recent); k < n; ++k)
      if (same(time_scale_pairs[k], scale)) return;
    time_scale_pairs.push_back(scale);
  };
  for (Eigen::Index k = 1; k < at.bodies; ++k)
    add_scale(contacts.pair(c, run, k - 1, k), -separation[static_cast<std::size_t>(k)],
              k > at.first_bead);
  for (Eigen::Index e = at.bodies; e < p.size(); ++e)
    for (Eigen::Index j = 0; j < e; ++j)
      add_scale(contacts.pair(c, run, j, e),
                p.radius(e) + p.radius(j) -
                    std::sqrt((p.position.row(e) - p.position.row(j)).square().sum()),
                false);
  for (std::size_t w = 0; w < scene.walls.size(); ++w)
    for (Eigen::Index i = 0; i < p.size(); ++i)
      add_scale(contacts.wall(c, run, i, w),
                p.radius(i) - (p.position.row(i).transpose().matrix() - scene.walls[w].point)
                                  .dot(scene.walls[w].normal),
                (walls.start == w && i == 0) || (walls.end == w && i == at.last_bead));
  return time_scale_pairs;
}

}  // namespace setup
}  // namespace chaindem
