// `chaindem collide`: one head-on collision of two bodies, or a body and a wall, under any law.
#include "chaindem/commands/collide_command.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/impact_bodies.hpp"
#include "chaindem/version.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/engine/simulation.hpp"
#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/output/output_layout.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

void write_loop(const std::string& path, Existing existing, const CollisionReport& r) {
  using namespace hdf5;
  PartialOutput output(path, existing);
  const hid_t f = output.create_hdf5();
  try {
    write_h5md_metadata(f, version);
    const auto n = static_cast<hsize_t>(r.result.history.size());
    std::vector<double> t, d, v, force;
    for (const auto& s : r.result.history) {
      t.push_back(s.time);
      d.push_back(s.overlap);
      v.push_back(s.rate);
      force.push_back(s.force);
    }
    auto column = [&](const layout::Column& c, const std::vector<double>& values) {
      dataset_fixed(f, c.name, {n}, values.data(), H5T_NATIVE_DOUBLE, c.unit);
    };
    column(layout::loop_time, t);
    column(layout::loop_overlap, d);
    column(layout::loop_approach_rate, v);
    column(layout::loop_force, force);
    attr_string(f, "law", std::string(r.law->id));
    attr_string(f, "tension", std::string(to_string(r.tension)));
    for (const auto& [key, value] : r.params)
      attr_numbers<double>(f, "param." + key, {value}, H5T_NATIVE_DOUBLE);
    for (const auto& [key, value] : r.scalars())
      attr_numbers<double>(f, key, {value}, H5T_NATIVE_DOUBLE);
  } catch (const std::exception& e) {
    throw output.error(e.what());
  }
  output.commit();
}

// The results: a JSON object, or a table for a reader.
void print_collision(std::ostream& out, const CollisionReport& r, double velocity,
                     const std::string& policy, bool json, bool dimensionless) {
  if (json) {
    // Every number exactly (the shortest text that reads back as it), NaN as null.
    out << "{\"law\": \"" << r.law->id << "\", \"tension\": \"" << to_string(r.tension)
        << "\", \"impact_velocity_policy\": \"" << policy << "\"";
    for (const auto& [key, value] : r.params)
      out << ", \"param." << key << "\": " << json_number(value);
    for (const auto& [key, value] : r.scalars())
      out << ", \"" << key << "\": " << json_number(value);
    out << "}\n";
  } else {
    const auto& x = r.result;
    // In the unified frame every quantity is a multiple of its scale, not of an SI unit.
    auto unit = [&](const char* si) {
      return dimensionless ? std::string() : " " + std::string(si);
    };
    out << std::setprecision(6) << "collide: " << r.law->id << " (tension " << to_string(r.tension)
        << "), v0 = " << velocity << unit("m/s") << ", m* = " << r.effective_mass << unit("kg")
        << ", K = " << r.coeffs.stiffness
        << (dimensionless ? "" : " N/m^" + number_text(r.coeffs.exponent)) << "\n";
    if (dimensionless)
      out << "  dimensionless: lengths in units of (m* v0^2/K)^(1/(n+1)) (n = " << r.coeffs.exponent
          << "), times in that length over v0, forces in m* v0^2 over it, energies in m* v0^2\n";
    if (r.params.count("restitution"))
      out << "  restitution c_r       " << r.params.at("restitution") << " (the law's parameter)\n";
    out << "  restitution achieved  " << x.restitution
        << (x.separated ? "" : "  (the bodies did not separate)") << "\n"
        << "  peak force            " << x.peak_force << unit("N") << "\n"
        << "  maximum overlap       " << x.max_overlap << unit("m") << "\n"
        << "  contact duration      " << x.contact_duration << unit("s") << " (force "
        << x.force_duration << unit("s") << ")\n"
        << "  impulse               " << x.impulse << unit("N s") << "\n"
        << "  dissipated energy     " << x.dissipated_energy << unit("J") << " ("
        << 100.0 * x.dissipated_energy / (0.5 * r.effective_mass * velocity * velocity)
        << " % of the impact energy)\n";
    if (x.min_force < 0) out << "  most tensile force    " << x.min_force << unit("N") << "\n";
    if (x.separation_overlap > 0)
      out << "  force ended at overlap " << x.separation_overlap << unit("m") << "\n";
    if (policy != "none")
      out << "  damping v0            " << x.final_state.impact_velocity << unit("m/s") << " ("
          << policy << " policy" << (x.floor_hits ? ", raised to the floor" : "") << ")\n";
  }
}

// The speeds take the range of striker.velocity (a speed towards the other body, at most
// max_speed); the bodies' options, those of their case keys (impact_bodies.hpp).
std::string speed_key() {
  return key_name(&CaseSpec::striker, &StrikerSpec::velocity);
}
constexpr const char* speed_options[] = {"velocity", "reference-velocity"};

// What the command line gives.
struct CollideInput {
  std::string law_id, tension = "law", output, policy = "energy";
  double reference_velocity = 0.0;
  std::vector<std::string> sets;
  ImpactBodies bodies;
  bool json = false, dimensionless = false;
  bool force = false;  // replace the output if it exists
  double velocity = 0;
};

void add_collide_options(po::options_description& desc, CollideInput& in) {
  desc.add_options()("help,h", "this help")("law", po::value(&in.law_id), "contact law identifier")(
      "set", po::value(&in.sets)->composing(),
      "law parameter: --set key=value (e.g. restitution=0.5, stiffness=5.2e9)")(
      "restitution", po::value<double>(), "shortcut for --set restitution=X")(
      "stiffness", po::value<double>(), "shortcut for --set stiffness=X")(
      "velocity", po::value(&in.velocity),
      ("impact (approach) velocity v0, " + allowed_range(speed_key())).c_str());
  add_body_options(desc, in.bodies);
  desc.add_options()("tension", po::value(&in.tension),
                     "law | clamp | allow (default: the law's policy)")(
      "impact-velocity", po::value(&in.policy),
      "v0 of the hysteresis laws: energy | peak | onset | reference (an impact from apart: "
      "all but reference give the approach velocity; docs/engine.md)")(
      "reference-velocity", po::value(&in.reference_velocity),
      "v0 under --impact-velocity reference [m/s] (default: --velocity)")(
      "dimensionless", po::bool_switch(&in.dimensionless),
      "the unified frame of Banerjee et al. (2017): unit mass against a rigid wall, K = 1, v0 = 1 "
      "(no body options)")("json", po::bool_switch(&in.json), "print the results as JSON")(
      "output,o", po::value(&in.output), "write force, overlap and velocity through the contact");
  add_force_option(desc, &in.force);
}

void print_collide_usage(std::ostream& out, const po::options_description& desc) {
  out << "usage: chaindem collide --law ID [--restitution C] --velocity V\n"
         "         (--mass M [--mass2 M2 | --wall] --stiffness K\n"
         "          | --radius R --youngs-modulus E --poisson-ratio NU --density RHO [--wall])\n"
         "       chaindem collide --law ID --restitution C --dimensionless\n\n"
         "Integrates one head-on impact (Dormand-Prince, dense output; contact end located to\n"
         "round-off) and reports the achieved restitution, peak force, maximum overlap, contact\n"
         "duration, impulse and dissipated energy. Every number is checked before the impact is\n"
         "integrated: lengths, speeds and materials take the ranges of the case keys of the same\n"
         "quantities (docs/case-format.md), law parameters the law's (`chaindem models`). An\n"
         "impact whose overlap reaches a radius (where no contact law holds), whose results are\n"
         "not finite numbers, that the integration does not resolve, that gives no force or\n"
         "that does not end within a million integration steps stops with exit 1.\n\n"
      << desc;
}

// Every number given, finite and in range. The masses have no case key: any finite positive
// mass is one (the impact's scales are checked once the stiffness is known); the law parameters'
// ranges are the law's, checked when they are resolved.
void check_numbers(const po::variables_map& vm) {
  for (const std::string option : speed_options) check_keyed_option(vm, option, speed_key());
  check_body_numbers(vm);
  for (const std::string name : {"restitution", "stiffness"}) {
    if (!vm.count(name)) continue;
    const double x = vm[name].as<double>();
    if (!std::isfinite(x))
      throw CaseError("--" + name + ": '" + number_text(x) + "' is not finite");
  }
}

// Options that cannot be given together: they contradict each other, or one would be ignored.
void check_combinations(const CollideInput& in, const po::variables_map& vm) {
  auto given = [&](const std::string& name) { return vm.count(name) > 0; };
  if (in.dimensionless)
    for (const std::string name :
         {"velocity", "mass", "mass2", "radius", "radius2", "youngs-modulus", "youngs-modulus2",
          "poisson-ratio", "poisson-ratio2", "density", "density2", "yield-stress", "yield-stress2",
          "length", "stiffness"})
      if (given(name))
        throw CaseError("--dimensionless and --" + name +
                        " cannot both be given: the unified frame sets the bodies, the stiffness "
                        "and the velocity (unit mass against a rigid wall, K = 1, v0 = 1)");
  check_body_combinations(in.bodies, vm);
  if (given("reference-velocity") && in.policy != "reference")
    throw CaseError(
        "--reference-velocity is given without --impact-velocity reference, the "
        "only policy that reads it");
  if (!in.dimensionless && !given("velocity"))
    throw CaseError("--velocity is missing: the impact velocity, allowed " +
                    allowed_range(speed_key()));
}

// --dimensionless replaces the bodies and the velocity with its unified frame.
void apply_dimensionless(CollideInput& in) {
  if (!in.dimensionless) return;
  in.bodies.a = Body{};
  in.bodies.a.mass = 1.0;
  in.bodies.wall = true;
  in.velocity = 1.0;
}

// The law's parameters from --set, the shortcuts --restitution and --stiffness, and the
// stiffness --dimensionless sets, each refused naming the option that gave it. A key the law
// does not take is kept (as 0) so that resolving the parameters refuses it by name; a key given
// twice is refused, as either value could be the one meant.
LawParams resolve_params(const CollideInput& in, const po::variables_map& vm, const LawEntry& law) {
  std::map<std::string, std::pair<double, std::string>> given;  // key: value, option
  auto add = [&](const std::string& key, double value, const std::string& option) {
    const auto [it, added] = given.try_emplace(key, value, option);
    if (!added)
      throw CaseError(it->second.second + " and " + option + " both give " + quoted_text(key) +
                      ": give it once");
  };
  for (const auto& s : in.sets) {
    const auto [key, value] = split_setting("--set", s, "key=value");
    const std::string option = "--set " + quoted_text(key);
    add(key, law.find_param(key) ? option_number(option, trimmed(value)) : 0.0, option);
  }
  for (const std::string name : {"restitution", "stiffness"})
    if (vm.count(name)) add(name, vm[name].as<double>(), "--" + name);
  if (in.dimensionless) add("stiffness", 1.0, "--dimensionless");
  LawParams values;
  for (const auto& [key, value] : given) values[key] = value.first;
  try {
    return resolve_law_params(law, values);
  } catch (const LawParamError& e) {
    const auto it = given.find(e.key);
    throw CaseError((it != given.end() ? it->second.second : "--set " + quoted_text(e.key)) + ": " +
                    e.what());
  }
}

// The integration follows the impact in its own scales: the elastic contact time and overlap of
// the law's spring, the force and the energy. Its steps multiply them, so each must lie well
// inside a double's range: within 1e-150 to 1e150 every product of two stays in it. Inputs that
// are each in range can still be too far apart (a huge mass on a weak spring), and are refused.
void check_scales(const CollisionReport& r, double velocity) {
  constexpr double smallest = 1e-150, largest = 1e150;
  const double m = r.effective_mass;
  const double t = elastic_contact_time(r.coeffs.stiffness, r.coeffs.exponent, m, velocity);
  const std::pair<double, const char*> scales[] = {{m, "kg effective mass"},
                                                   {t, "s contact time"},
                                                   {velocity * t, "m overlap"},
                                                   {m * velocity / t, "N force"},
                                                   {0.5 * m * velocity * velocity, "J energy"}};
  bool fine = true;
  std::string listed;
  for (const auto& [x, what] : scales) {
    fine = fine && x >= smallest && x <= largest;
    listed += (listed.empty() ? "" : ", ") + rounded_text(x) + " " + what;
  }
  if (!fine)
    throw CaseError(
        "the masses, the stiffness (or the materials and radii) and the velocity are "
        "too far apart for the integration: the impact's scales are " +
        listed + "; each must lie within [1e-150, 1e150]");
}

// The integration's policies: tension, and the impact velocity of the damping. For a law without
// v0 in its damping, the policy becomes "none".
ImpactOptions impact_options(CollideInput& in, const po::variables_map& vm, CollisionReport& r) {
  const std::optional<TensionPolicy> policy_of_tension = tension_from(in.tension, *r.law);
  if (!policy_of_tension)
    throw CaseError("--tension: '" + quoted_text(in.tension) + "' is not law, clamp or allow");
  r.tension = *policy_of_tension;
  ImpactOptions o;
  o.tension = r.tension;
  o.record = !in.output.empty();
  if (!impact_velocity_from(in.policy))
    throw CaseError("--impact-velocity: '" + quoted_text(in.policy) +
                    "' is not energy, peak, onset or reference");
  if (r.law->uses_impact_velocity()) {
    if (in.policy == "onset")  // the floor is the onset policy's alone
      o.impact_velocity_floor =
          r.params.count("impact_velocity_floor") ? r.params.at("impact_velocity_floor") : 0.0;
    if (in.policy == "reference")
      o.reference_velocity = vm.count("reference-velocity") ? in.reference_velocity : in.velocity;
  } else {
    in.policy = "none";
  }
  return o;
}

// The overlap no contact law holds beyond: the smaller radius given (body 1's against a wall),
// or none when the bodies are a mass on a spring.
double overlap_limit(const CollideInput& in, const po::variables_map& vm) {
  double limit = std::numeric_limits<double>::infinity();
  if (in.bodies.a.radius > 0.0) limit = in.bodies.a.radius;
  if (!in.bodies.wall && vm.count("radius2")) limit = std::min(limit, in.bodies.b.radius);
  return limit;
}

// An impact whose results mean nothing stops the command (a runtime_error: exit 1), saying what
// happened and what to change: an overlap that reached a radius, where no law holds; numbers
// that are not finite (a law's terms beyond a double for these bodies); a contact the
// integration did not resolve (the bodies parted without an overlap, or still approaching); a
// contact without any force (a law whose force vanishes for these parameters).
void check_result(const CollisionReport& r, double limit) {
  const ImpactResult& x = r.result;
  const std::string bodies = " (m* = " + rounded_text(r.effective_mass) +
                             " kg, K = " + rounded_text(r.coeffs.stiffness) + " N/m^" +
                             number_text(r.coeffs.exponent) + ")";
  if (x.too_deep)
    throw std::runtime_error(
        "the overlap reaches " + rounded_text(x.max_overlap) + " m, a radius (" +
        number_text(limit) + " m) or more, " + rounded_text(x.contact_duration) +
        " s into the impact: no contact law holds there (they describe overlaps small next to "
        "the radii); lower --velocity, or give stiffer or lighter bodies (--youngs-modulus or "
        "--stiffness, --density or --mass)");
  if (x.too_many_steps)
    throw std::runtime_error(
        "the impact did not end within " + rounded_text(double(x.steps)) + " integration steps (" +
        rounded_text(x.contact_duration) + " s into it, the overlap at most " +
        rounded_text(x.max_overlap) +
        " m): the law's terms act on time scales far apart for these bodies" + bodies +
        ", so each step is far shorter than the contact; give less damping (a larger "
        "restitution, a smaller damping coefficient), or bodies and a velocity nearer to those "
        "of real impacts");
  std::string not_finite;
  for (const auto& [key, value] : r.scalars())
    if (!std::isfinite(value)) not_finite += (not_finite.empty() ? " (" : ", ") + key;
  if (x.not_finite || !not_finite.empty())
    throw std::runtime_error(
        "the impact's state or results are not finite numbers" +
        (not_finite.empty() ? "" : not_finite + ")") + " " + rounded_text(x.contact_duration) +
        " s into the impact: the law's terms overflow or underflow a double at these "
        "magnitudes" +
        bodies + "; give materials, sizes, masses and a velocity nearer to those of real bodies");
  if (!(x.max_overlap > 0.0 && x.contact_duration > 0.0) ||
      (x.separated && !(x.separation_velocity < 0.0)))
    throw std::runtime_error(
        "the integration did not resolve the contact (after " + rounded_text(x.contact_duration) +
        " s the bodies were apart at an approach rate of " + rounded_text(x.separation_velocity) +
        " m/s, with a largest overlap of " + rounded_text(x.max_overlap) +
        " m): the law's damping acts far faster than its spring for these bodies" + bodies +
        "; give heavier bodies or less damping (a larger restitution, a smaller damping "
        "coefficient)");
  if (!(x.peak_force > 0.0))
    throw std::runtime_error("the contact gave no force (0 N over " +
                             rounded_text(x.contact_duration) + " s, the overlap growing to " +
                             rounded_text(x.max_overlap) +
                             " m): the law's force vanishes for these bodies and parameters" +
                             bodies + "; check the law's parameters (--set, `chaindem models " +
                             std::string(r.law->id) + "`) against the bodies' sizes");
}

// The collision the command line describes; invalid input throws CaseError, before the impact
// is integrated; an impact whose results mean nothing throws std::runtime_error
// (check_result).
CollisionReport integrate_collision(CollideInput& in, const po::variables_map& vm) {
  CollisionReport r;
  r.law = find_law(in.law_id);
  if (!r.law)
    throw CaseError("--law: unknown law '" + quoted_text(in.law_id) + "' (see `chaindem models`)");
  check_numbers(vm);
  check_combinations(in, vm);
  apply_dimensionless(in);
  r.params = resolve_params(in, vm, *r.law);
  const PairInput pair = contact_pair(in.bodies, vm);
  r.effective_mass = pair.effective_mass;
  r.coeffs = r.law->prepare(*r.law, pair, r.params);
  if (!(r.coeffs.stiffness > 0) || !std::isfinite(r.coeffs.stiffness))
    throw CaseError("--stiffness (or the materials and radii): the law needs a stiffness");
  check_scales(r, in.velocity);
  ImpactOptions o = impact_options(in, vm, r);
  o.overlap_limit = overlap_limit(in, vm);
  r.result = simulate_impact(*r.law, r.coeffs, r.effective_mass, in.velocity, o);
  check_result(r, o.overlap_limit);
  return r;
}

// The same, with the laws' refusals of what they are given (std::invalid_argument: parameters
// they cannot take, for these bodies) as invalid input: the command line gave it.
CollisionReport collide(CollideInput& in, const po::variables_map& vm) {
  try {
    return integrate_collision(in, vm);
  } catch (const std::invalid_argument& e) {
    throw CaseError(e.what());
  }
}

}  // namespace

std::vector<std::pair<std::string, double>> CollisionReport::scalars() const {
  const auto& x = result;
  return {{"impact_velocity", x.impact_velocity},
          {"effective_mass", effective_mass},
          {"stiffness", coeffs.stiffness},
          {"exponent", coeffs.exponent},
          {"restitution", x.restitution},
          {"separated", x.separated ? 1.0 : 0.0},
          {"peak_force", x.peak_force},
          {"min_force", x.min_force},
          {"max_overlap", x.max_overlap},
          {"contact_duration", x.contact_duration},
          {"force_duration", x.force_duration},
          {"separation_overlap", x.separation_overlap},
          {"impulse", x.impulse},
          {"dissipated_energy", x.dissipated_energy},
          {"impact_velocity_floor_hits", x.floor_hits}};
}

int collide_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    CollideInput in;
    po::options_description desc("chaindem collide options");
    add_collide_options(desc, in);
    const po::variables_map vm = parse_command_line(args, desc, nullptr, "collide");
    if (vm.count("help")) {
      print_collide_usage(out, desc);
      return exit_done;
    }
    install_stop_handlers();         // Ctrl-C, SIGTERM or SIGHUP: no output, no file left
    std::optional<OutputLock> lock;  // held from here, so a second writer is told at once
    if (vm.count("output")) {
      check_output_path(in.output, {}, existing_output(in.force));
      check_nothing_to_resume(in.output);
      lock.emplace(in.output);
    }
    const CollisionReport r = collide(in, vm);
    if (const int signal = *stop_flag()) {
      err << "chaindem collide: interrupted by signal " << signal << "; no output written\n";
      return exit_on_signal + signal;
    }
    print_collision(out, r, in.velocity, in.policy, in.json, in.dimensionless);
    if (!in.output.empty()) write_loop(in.output, existing_output(in.force), r);
    return exit_done;
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem collide", &err});
  }
}

}  // namespace chaindem
