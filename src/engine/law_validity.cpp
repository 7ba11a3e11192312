// The watch of the contact laws' validity (law_validity.hpp): each kind of contact's largest
// strain, impact speed and peak pressure against its law's stated bounds.
#include "chaindem/engine/law_validity.hpp"

#include <cmath>
#include <numbers>

#include "chaindem/text.hpp"

namespace chaindem {
namespace {

// The materials of a kind: the bead's, and the other bead's or the wall's.
struct KindMaterials {
  const Material& bead;
  const Material& other;
  std::string label;  ///< "steel-steel", "steel-wall_end"
};

KindMaterials materials_of(const Scene& scene, const Simulation::KindExtremes& k) {
  const Material& bead = scene.materials[static_cast<std::size_t>(k.material)];
  if (!k.wall) {
    const Material& other = scene.materials[static_cast<std::size_t>(k.other)];
    return {bead, other, bead.name + "-" + other.name};
  }
  const Wall& wall = scene.walls[static_cast<std::size_t>(k.other)];
  const std::string name = wall.name.empty() ? "wall " + std::to_string(k.other) : wall.name;
  return {bead, scene.materials[static_cast<std::size_t>(wall.material)], bead.name + "-" + name};
}

BodyMaterial body_of(const Material& m) {
  return {m.youngs_modulus, m.poisson_ratio, m.yield_stress.value_or(0.0)};
}

// The slower elastic wave speed sqrt(E/rho) of the two materials (one without a density, as a
// wall may be, does not count), and whose it is.
std::pair<double, std::string> wave_speed(const Material& a, const Material& b) {
  std::pair<double, std::string> slowest{std::numeric_limits<double>::infinity(), ""};
  for (const Material* m : {&a, &b}) {
    const double c = std::sqrt(m->youngs_modulus / m->density);
    if (m->density > 0.0 && c < slowest.first) slowest = {c, m->name};
  }
  return slowest;
}

// "REACHED, 1.56 times the bound BOUND (SOURCE)" when `reached` is beyond `bound`.
void note_beyond(std::vector<std::string>& exceeded, const std::string& what, double reached,
                 double bound, const std::string& reached_text, const std::string& bound_text,
                 std::string_view source) {
  if (!(reached > bound)) return;
  exceeded.push_back(what + " reached " + reached_text + ", " + rounded_text(reached / bound, 3) +
                     " times the bound " + bound_text + " (" + std::string(source) + ")");
}

ValidityCheck check_kind(const Simulation& sim, const Simulation::KindExtremes& k) {
  const ContactModel model = sim.settings().model(k.model);
  const LawValidity& v = model.law->validity;
  const KindMaterials m = materials_of(sim.scene(), k);
  const PairInput in = mixed_materials(body_of(m.bead), body_of(m.other));
  ValidityCheck c;
  c.model = k.model;
  c.law = model.law;
  c.contacts = m.label;
  c.largest_strain = k.largest_strain;
  c.largest_impact_speed = k.largest_impact_speed;
  c.largest_pressure = 2.0 * in.effective_modulus / std::numbers::pi * std::sqrt(k.largest_strain);
  if (v.strain.stated()) {
    c.strain_bound = v.strain.value;
    note_beyond(c.exceeded, "strain delta/R*", c.largest_strain, c.strain_bound,
                rounded_text(c.largest_strain), number_text(c.strain_bound), v.strain.source);
  }
  if (const auto [wave, slower] = wave_speed(m.bead, m.other);
      v.impact_speed.stated() && std::isfinite(wave)) {
    c.impact_speed_bound = v.impact_speed.value * wave;
    note_beyond(c.exceeded, "impact speed", c.largest_impact_speed, c.impact_speed_bound,
                rounded_text(c.largest_impact_speed) + " m/s",
                number_text(v.impact_speed.value) +
                    " sqrt(E/rho) = " + rounded_text(c.impact_speed_bound) + " m/s of " + slower,
                v.impact_speed.source);
  }
  if (v.yield_pressure.stated() && in.yield_stress > 0.0) {
    c.pressure_bound = v.yield_pressure.value * in.yield_stress;
    note_beyond(c.exceeded, "peak Hertz pressure", c.largest_pressure, c.pressure_bound,
                rounded_text(c.largest_pressure) + " Pa",
                number_text(v.yield_pressure.value) +
                    " sigma_y = " + rounded_text(c.pressure_bound) +
                    " Pa, sigma_y = " + number_text(in.yield_stress) + " Pa",
                v.yield_pressure.source);
  }
  if (const auto it = model.params.find("restitution");
      it != model.params.end() && !v.restitution.unbounded() && !v.restitution.admits(it->second))
    c.exceeded.push_back("restitution c_r = " + number_text(it->second) + " is outside " +
                         v.restitution.text() + " (" + std::string(v.restitution_source) + ")");
  return c;
}

}  // namespace

std::vector<ValidityCheck> check_validity(const Simulation& sim) {
  std::vector<ValidityCheck> checks;
  for (const Simulation::KindExtremes& k : sim.contact_extremes())
    checks.push_back(check_kind(sim, k));
  return checks;
}

}  // namespace chaindem
