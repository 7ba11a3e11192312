// `chaindem collide`: one head-on collision of two bodies, or a body and a wall, under any law.
#include "chaindem/commands/collide_command.hpp"
#include "chaindem/commands/command_line.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <numbers>
#include <sstream>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/io/case_file.hpp"
#include "chaindem/io/hdf5_util.hpp"
#include "chaindem/io/output_file.hpp"
#include "chaindem/laws/binary_impact.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

struct Body {
  double youngs_modulus = 0, poisson_ratio = 0, density = 0, radius = 0, mass = 0, yield = 0;
};

// A sphere, or a cylinder of axial length `length` > 0.
double body_mass(const Body& b, double length) {
  if (b.mass > 0) return b.mass;
  return length > 0 ? b.density * std::numbers::pi * b.radius * b.radius * length
                    : b.density * 4.0 / 3.0 * std::numbers::pi * std::pow(b.radius, 3);
}

void write_loop(const std::string& path, const CollisionReport& r) {
  using namespace hdf5;
  PartialOutput output(path);
  const hid_t f = output.create_hdf5();
  try {
    const auto n = static_cast<hsize_t>(r.result.history.size());
    std::vector<double> t, d, v, force;
    for (const auto& s : r.result.history) {
      t.push_back(s.time);
      d.push_back(s.overlap);
      v.push_back(s.rate);
      force.push_back(s.force);
    }
    dataset_fixed(f, "time", {n}, t.data(), H5T_NATIVE_DOUBLE, "s");
    dataset_fixed(f, "overlap", {n}, d.data(), H5T_NATIVE_DOUBLE, "m");
    dataset_fixed(f, "approach_rate", {n}, v.data(), H5T_NATIVE_DOUBLE, "m/s");
    dataset_fixed(f, "force", {n}, force.data(), H5T_NATIVE_DOUBLE, "N");
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
                     const std::string& policy, bool json) {
  if (json) {
    out << std::setprecision(12) << "{\"law\": \"" << r.law->id << "\", \"tension\": \""
        << to_string(r.tension) << "\", \"impact_velocity_policy\": \"" << policy << "\"";
    for (const auto& [key, value] : r.params) out << ", \"param." << key << "\": " << value;
    for (const auto& [key, value] : r.scalars()) out << ", \"" << key << "\": " << value;
    out << "}\n";
  } else {
    const auto& x = r.result;
    out << std::setprecision(6) << "collide: " << r.law->id << " (tension " << to_string(r.tension)
        << "), v0 = " << velocity << " m/s, m* = " << r.effective_mass
        << " kg, K = " << r.coeffs.stiffness << " N/m^" << r.coeffs.exponent << "\n";
    if (r.params.count("restitution"))
      out << "  restitution target    " << r.params.at("restitution") << "\n";
    out << "  restitution achieved  " << x.restitution
        << (x.separated ? "" : "  (the bodies did not separate)") << "\n"
        << "  peak force            " << x.peak_force << " N\n"
        << "  maximum overlap       " << x.max_overlap << " m\n"
        << "  contact duration      " << x.contact_duration << " s (force " << x.force_duration
        << " s)\n"
        << "  impulse               " << x.impulse << " N s\n"
        << "  dissipated energy     " << x.dissipated_energy << " J ("
        << 100.0 * x.dissipated_energy / (0.5 * r.effective_mass * velocity * velocity)
        << " % of the impact energy)\n";
    if (x.min_force < 0) out << "  most tensile force    " << x.min_force << " N\n";
    if (x.separation_overlap > 0)
      out << "  force ended at overlap " << x.separation_overlap << " m\n";
    if (policy != "none")
      out << "  damping v0            " << x.final_state.impact_velocity << " m/s (" << policy
          << " policy" << (x.floor_hits ? ", raised to the floor" : "") << ")\n";
  }
}

// What the command line gives.
struct CollideInput {
  std::string law_id, tension = "law", output, policy = "energy";
  double reference_velocity = 0.0;
  std::vector<std::string> sets;
  Body a, b;
  bool wall = false, json = false, dimensionless = false;
  double length = 0.0;
  double velocity = 0;
};

void add_collide_options(po::options_description& desc, CollideInput& in) {
  desc.add_options()("help,h", "this help")("law", po::value(&in.law_id), "contact law identifier")(
      "set", po::value(&in.sets)->composing(),
      "law parameter: --set key=value (e.g. restitution=0.5, stiffness=5.2e9)")(
      "restitution", po::value<double>(), "shortcut for --set restitution=X")(
      "stiffness", po::value<double>(), "shortcut for --set stiffness=X")(
      "velocity", po::value(&in.velocity), "impact (approach) velocity v0 [m/s]")(
      "mass", po::value(&in.a.mass), "mass of body 1 [kg] (default: from density and radius)")(
      "mass2", po::value(&in.b.mass), "mass of body 2 [kg]")("radius", po::value(&in.a.radius),
                                                             "radius of body 1 [m]")(
      "radius2", po::value(&in.b.radius), "radius of body 2 [m] (default: radius)")(
      "youngs-modulus", po::value(&in.a.youngs_modulus), "E of body 1 [Pa]")(
      "poisson-ratio", po::value(&in.a.poisson_ratio), "nu of body 1")(
      "density", po::value(&in.a.density), "density of body 1 [kg/m^3]")(
      "yield-stress", po::value(&in.a.yield), "yield stress of body 1 [Pa]")(
      "youngs-modulus2", po::value(&in.b.youngs_modulus), "E of body 2 (default: body 1's)")(
      "poisson-ratio2", po::value(&in.b.poisson_ratio), "nu of body 2 (default: body 1's)")(
      "density2", po::value(&in.b.density), "density of body 2 (default: body 1's)")(
      "yield-stress2", po::value(&in.b.yield), "yield stress of body 2 (default: body 1's)")(
      "wall", po::bool_switch(&in.wall), "body 2 is a rigid, fixed plane (m* = m, R* = R)")(
      "length", po::value(&in.length),
      "the bodies are parallel cylinders of this axial length [m] (mass rho pi R^2 L; the "
      "cylindrical laws take L from it)")("tension", po::value(&in.tension),
                                          "law | clamp | allow (default: the law's policy)")(
      "impact-velocity", po::value(&in.policy),
      "v0 of the hysteresis laws: energy | peak | onset | reference (an impact from apart: "
      "all but reference give the approach velocity; docs/engine.md)")(
      "reference-velocity", po::value(&in.reference_velocity),
      "v0 under --impact-velocity reference [m/s] (default: --velocity)")(
      "dimensionless", po::bool_switch(&in.dimensionless),
      "001's unified frame: unit mass against a rigid wall, K = 1, v0 = 1")(
      "json", po::bool_switch(&in.json), "print the results as JSON")(
      "output,o", po::value(&in.output), "write force, overlap and velocity through the contact");
}

void print_collide_usage(std::ostream& out, const po::options_description& desc) {
  out << "usage: chaindem collide --law ID [--restitution C] --velocity V\n"
         "         (--mass M [--mass2 M2 | --wall] --stiffness K\n"
         "          | --radius R --youngs-modulus E --poisson-ratio NU --density RHO [--wall])\n"
         "       chaindem collide --law ID --restitution C --dimensionless\n\n"
         "Integrates one head-on impact (Dormand-Prince, dense output; contact end located to\n"
         "round-off) and reports the achieved restitution, peak force, maximum overlap, contact\n"
         "duration, impulse and dissipated energy.\n\n"
      << desc;
}

// The shortcuts --restitution and --stiffness become --set keys; --dimensionless replaces the
// bodies and the velocity with its unified frame.
void apply_shortcuts(CollideInput& in, const po::variables_map& vm) {
  if (vm.count("restitution"))
    in.sets.push_back("restitution=" + std::to_string(vm["restitution"].as<double>()));
  if (vm.count("stiffness"))
    in.sets.push_back("stiffness=" + std::to_string(vm["stiffness"].as<double>()));
  if (in.dimensionless) {
    in.sets.push_back("stiffness=1");
    in.a = Body{};
    in.a.mass = 1.0;
    in.wall = true;
    in.velocity = 1.0;
  }
}

// The law's parameters from the --set keys. A key the law does not take is kept (as 0) so that
// resolving the parameters refuses it by name.
LawParams resolve_sets(const std::vector<std::string>& sets, const LawEntry& law) {
  LawParams given;
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    if (eq == std::string::npos) throw CaseError("--set '" + s + "': expected key=value");
    const std::string key = s.substr(0, eq);
    try {
      given[key] = law.find_param(key) ? std::stod(s.substr(eq + 1)) : 0.0;
    } catch (const std::exception&) {
      throw CaseError("--set " + key + ": '" + s.substr(eq + 1) + "' is not a number");
    }
  }
  try {
    return resolve_law_params(law, given);
  } catch (const LawParamError& e) {
    throw CaseError("--set " + e.key + ": " + e.what());
  }
}

// The contact of the two bodies (or the body and the wall), its effective mass included. Body 2
// defaults to body 1's material and radius.
PairInput contact_pair(const CollideInput& in) {
  const Body& a = in.a;
  Body b = in.b;
  if (b.youngs_modulus == 0) b.youngs_modulus = a.youngs_modulus;
  if (b.poisson_ratio == 0) b.poisson_ratio = a.poisson_ratio;
  if (b.density == 0) b.density = a.density;
  if (b.yield == 0) b.yield = a.yield;
  if (b.radius == 0) b.radius = a.radius;
  const double m1 = body_mass(a, in.length);
  if (!(m1 > 0)) throw CaseError("--mass (or --radius and --density): body 1 needs a mass");
  double m2 = std::numeric_limits<double>::infinity();
  if (!in.wall) {
    m2 = body_mass(b, in.length);
    if (!(m2 > 0)) throw CaseError("--mass2 (or --wall): body 2 needs a mass");
  }
  const double effective_mass = in.wall ? m1 : m1 * m2 / (m1 + m2);
  PairInput pair{0.0, 0.0, 0.0};
  if (a.youngs_modulus > 0)
    pair = mixed_materials({a.youngs_modulus, a.poisson_ratio, a.yield},
                           {b.youngs_modulus, b.poisson_ratio, b.yield});
  else  // a stiffness given directly: only the yield stress is read
    pair.yield_stress = std::min(a.yield, b.yield);
  pair.effective_mass = effective_mass;
  pair.effective_radius =
      in.wall ? a.radius : (a.radius > 0 ? a.radius * b.radius / (a.radius + b.radius) : 0.0);
  pair.radius_i = a.radius;
  pair.radius_j = in.wall ? 0.0 : b.radius;
  pair.contact_length = in.length;
  return pair;
}

// The integration's policies: tension, and the impact velocity of the damping. For a law without
// v0 in its damping, the policy becomes "none".
ImpactOptions impact_options(CollideInput& in, const po::variables_map& vm, CollisionReport& r) {
  const std::optional<TensionPolicy> policy_of_tension = tension_from(in.tension, *r.law);
  if (!policy_of_tension)
    throw CaseError("--tension: '" + in.tension + "' is not law, clamp or allow");
  r.tension = *policy_of_tension;
  ImpactOptions o;
  o.tension = r.tension;
  o.record = !in.output.empty();
  if (!impact_velocity_from(in.policy))
    throw CaseError("--impact-velocity: '" + in.policy +
                    "' is not energy, peak, onset or reference");
  if (vm.count("reference-velocity") &&
      (in.policy != "reference" || !(in.reference_velocity > 0.0)))
    throw CaseError("--reference-velocity: must be > 0 m/s, with --impact-velocity reference");
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

// The collision the command line describes; invalid input throws CaseError.
CollisionReport collide(CollideInput& in, const po::variables_map& vm) {
  CollisionReport r;
  r.law = find_law(in.law_id);
  if (!r.law) throw CaseError("--law: unknown law '" + in.law_id + "' (see `chaindem models`)");
  apply_shortcuts(in, vm);
  r.params = resolve_sets(in.sets, *r.law);
  if (!(in.velocity > 0.0)) throw CaseError("--velocity: must be > 0 m/s");
  const PairInput pair = contact_pair(in);
  r.effective_mass = pair.effective_mass;
  r.coeffs = r.law->prepare(*r.law, pair, r.params);
  if (!(r.coeffs.stiffness > 0) || !std::isfinite(r.coeffs.stiffness))
    throw CaseError("--stiffness (or the materials and radii): the law needs a stiffness");
  const ImpactOptions o = impact_options(in, vm, r);
  r.result = simulate_impact(*r.law, r.coeffs, r.effective_mass, in.velocity, o);
  return r;
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
  CollideInput in;
  po::options_description desc("chaindem collide options");
  add_collide_options(desc, in);
  const auto parsed = parse_command_line(args, desc, nullptr, "collide", &err);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
    print_collide_usage(out, desc);
    return 0;
  }
  auto invalid = [&](const std::string& what) {
    err << "chaindem collide: invalid input: " << what << "\n";
    return 2;
  };
  if (vm.count("output")) {
    try {
      check_output_path(in.output, {});
    } catch (const OutputPathError& e) {
      err << "chaindem collide: invalid output: " << e.what() << "\n";
      return 2;
    }
  }
  try {
    const CollisionReport r = collide(in, vm);
    print_collision(out, r, in.velocity, in.policy, in.json);
    if (!in.output.empty()) write_loop(in.output, r);
  } catch (const CaseError& e) {
    return invalid(e.what());
  } catch (const std::invalid_argument& e) {
    return invalid(e.what());
  } catch (const std::exception& e) {
    err << "chaindem collide: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace chaindem
