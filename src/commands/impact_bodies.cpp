#include "chaindem/commands/impact_bodies.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

// A body's material takes the ranges of a [material.NAME] section's keys.
template <class T>
std::string material_key(T MaterialSpec::*field) {
  return material_key_name("body", field);
}

// The options that hold the quantity of a case key take that key's range, so that a body is
// what a case may hold: a radius that of striker.radius, a material that of a [material.NAME]
// section, the cylinders' length that of chain.cylinder_length.
struct KeyedOption {
  std::string option, key;
};
const std::vector<KeyedOption>& keyed_options() {
  static const std::vector<KeyedOption> options = [] {
    const std::string radius = key_name(&CaseSpec::striker, &StrikerSpec::radius);
    std::vector<KeyedOption> all{{"radius", radius}, {"radius2", radius}};
    const std::pair<std::string, std::string> material[] = {
        {"youngs-modulus", material_key(&MaterialSpec::youngs_modulus)},
        {"poisson-ratio", material_key(&MaterialSpec::poisson_ratio)},
        {"density", material_key(&MaterialSpec::density)},
        {"yield-stress", material_key(&MaterialSpec::yield_stress)}};
    for (const auto& [option, key] : material) {
      all.push_back({option, key});
      all.push_back({option + "2", key});
    }
    all.push_back({"length", key_name(&CaseSpec::chain, &ChainSpec::cylinder_length)});
    return all;
  }();
  return options;
}

// A sphere, or a cylinder of axial length `length` > 0.
double body_mass(const Body& b, double length) {
  if (b.mass > 0) return b.mass;
  return length > 0 ? b.density * std::numbers::pi * b.radius * b.radius * length
                    : b.density * 4.0 / 3.0 * std::numbers::pi * std::pow(b.radius, 3);
}

// A body's mass, finite and positive; `body` names it and `options` what gives it.
double checked_mass(const Body& body, double length, const std::string& which,
                    const std::string& options) {
  const double m = body_mass(body, length);
  if (!(m > 0.0))
    throw CaseError(options + ": " + which + " needs a mass" +
                    (m == 0.0 && body.density > 0.0 ? " (its density and radius give 0 kg)" : ""));
  if (!std::isfinite(m))
    throw CaseError(options + ": " + which + "'s density and radius give a mass of " +
                    number_text(m) + " kg, beyond the range of a double");
  return m;
}

}  // namespace

std::string allowed_range(std::string_view key) {
  std::vector<KeySpec> keys = case_keys();
  const auto material = material_keys("body");
  keys.insert(keys.end(), material.begin(), material.end());
  for (const auto& k : keys)
    if (k.key == key) return k.range.text() + (k.unit == "-" ? "" : " " + k.unit);
  return "";
}

void check_keyed_option(const po::variables_map& vm, const std::string& option,
                        std::string_view key) {
  if (!vm.count(option)) return;
  const std::string problem = check_key_value(key, number_text(vm[option].as<double>()));
  if (!problem.empty()) throw CaseError("--" + option + ": " + problem);
}

void add_body_options(po::options_description& desc, ImpactBodies& bodies) {
  Body &a = bodies.a, &b = bodies.b;
  desc.add_options()("mass", po::value(&a.mass),
                     "mass of body 1 [kg] (default: from density and radius; not with --density)")(
      "mass2", po::value(&b.mass), "mass of body 2 [kg] (not with --density2 or --wall)")(
      "radius", po::value(&a.radius),
      ("radius of body 1, " + allowed_range(key_name(&CaseSpec::striker, &StrikerSpec::radius)))
          .c_str())("radius2", po::value(&b.radius), "radius of body 2 [m] (default: radius)")(
      "youngs-modulus", po::value(&a.youngs_modulus), "E of body 1 [Pa]")(
      "poisson-ratio", po::value(&a.poisson_ratio),
      ("nu of body 1, " + allowed_range(material_key(&MaterialSpec::poisson_ratio)) +
       " (with --youngs-modulus)")
          .c_str())("density", po::value(&a.density), "density of body 1 [kg/m^3]")(
      "yield-stress", po::value(&a.yield), "yield stress of body 1 [Pa]")(
      "youngs-modulus2", po::value(&b.youngs_modulus), "E of body 2 (default: body 1's)")(
      "poisson-ratio2", po::value(&b.poisson_ratio), "nu of body 2 (default: body 1's)")(
      "density2", po::value(&b.density), "density of body 2 (default: body 1's)")(
      "yield-stress2", po::value(&b.yield), "yield stress of body 2 (default: body 1's)")(
      "wall", po::bool_switch(&bodies.wall),
      "body 2 is a rigid, fixed plane (m* = m, R* = R; its material is body 2's)")(
      "length", po::value(&bodies.length),
      "the bodies are parallel cylinders of this axial length [m] (mass rho pi R^2 L; the "
      "cylindrical laws take L from it)");
}

void check_body_numbers(const po::variables_map& vm) {
  for (const auto& [option, key] : keyed_options()) check_keyed_option(vm, option, key);
  for (const std::string name : {"mass", "mass2"}) {
    if (!vm.count(name)) continue;
    const double x = vm[name].as<double>();
    if (!std::isfinite(x))
      throw CaseError("--" + name + ": '" + number_text(x) + "' is not finite");
    if (!(x > 0.0))
      throw CaseError("--" + name + ": " + number_text(x) +
                      " is out of range: allowed (0, inf) kg");
  }
}

void check_body_combinations(const ImpactBodies& bodies, const po::variables_map& vm) {
  auto given = [&](const std::string& name) { return vm.count(name) > 0; };
  auto refuse = [](const std::string& a, const std::string& b, const std::string& why) {
    throw CaseError("--" + a + " and --" + b + " cannot both be given: " + why);
  };
  if (bodies.wall)
    for (const std::string name : {"mass2", "radius2", "density2"})
      if (given(name))
        refuse("wall", name, "body 2 is then a rigid, fixed plane, without a mass or a radius");
  if (given("mass") && given("density"))
    refuse("mass", "density", "both give body 1's mass (the density with the radius)");
  if (given("mass2") && given("density2"))
    refuse("mass2", "density2", "both give body 2's mass (the density with the radius)");
  if (!given("youngs-modulus")) {
    for (const std::string name : {"youngs-modulus2", "poisson-ratio", "poisson-ratio2"})
      if (given(name))
        throw CaseError("--" + name +
                        " is given without --youngs-modulus: the materials are read only when "
                        "body 1's Young's modulus is given (else --stiffness gives the contact)");
  } else if (!given("poisson-ratio")) {
    throw CaseError("--poisson-ratio is missing: --youngs-modulus needs it (body 1's nu, " +
                    allowed_range(material_key(&MaterialSpec::poisson_ratio)) + ")");
  }
}

PairInput contact_pair(const ImpactBodies& bodies, const po::variables_map& vm) {
  const Body& a = bodies.a;
  Body b = bodies.b;
  if (!vm.count("youngs-modulus2")) b.youngs_modulus = a.youngs_modulus;
  if (!vm.count("poisson-ratio2")) b.poisson_ratio = a.poisson_ratio;
  if (!vm.count("density2")) b.density = a.density;
  if (!vm.count("yield-stress2")) b.yield = a.yield;
  if (!vm.count("radius2")) b.radius = a.radius;
  const double m1 = checked_mass(a, bodies.length, "body 1", "--mass (or --radius and --density)");
  double m2 = std::numeric_limits<double>::infinity();
  if (!bodies.wall) m2 = checked_mass(b, bodies.length, "body 2", "--mass2 (or --wall)");
  const double effective_mass = bodies.wall ? m1 : m1 * m2 / (m1 + m2);
  PairInput pair{0.0, 0.0, 0.0};
  if (a.youngs_modulus > 0)
    pair = mixed_materials({a.youngs_modulus, a.poisson_ratio, a.yield},
                           {b.youngs_modulus, b.poisson_ratio, b.yield});
  else  // a stiffness given directly: only the yield stress is read
    pair.yield_stress = std::min(a.yield, b.yield);
  pair.effective_mass = effective_mass;
  pair.effective_radius =
      bodies.wall ? a.radius : (a.radius > 0 ? a.radius * b.radius / (a.radius + b.radius) : 0.0);
  pair.radius_i = a.radius;
  pair.radius_j = bodies.wall ? 0.0 : b.radius;
  pair.contact_length = bodies.length;
  return pair;
}

}  // namespace chaindem
