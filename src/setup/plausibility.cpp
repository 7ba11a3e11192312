// The set-up's plausibility step (setup_parts.hpp): initial overlaps beyond the range of the
// contact laws are refused; sizes, material values and speeds that look like a unit mistake, or
// lie beyond what the law assumes, get a note. Each rule is declared once, in the table below,
// which docs/case-format.md ("Plausibility") is generated from.

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {

std::string overlap_strain_text(double overlap, double r_star) {
  return rounded_text(overlap) + " m, a strain delta/R* = " + rounded_text(overlap / r_star, 3) +
         " of the contact's effective radius R* = " + rounded_text(r_star) + " m";
}

std::string initial_strain_bound_text(double r_star) {
  return "the contact laws hold for overlaps small against the radius: allowed delta/R* up to " +
         number_text(max_initial_strain) + " (" + rounded_text(max_initial_strain * r_star) +
         " m here)";
}

namespace {

// The largest load whose static overlap on `contact` is within max_initial_strain: the overlap
// grows with the load, so halving from `force` and then bisecting finds it.
double largest_static_load(const PreparedContact& contact, double force) {
  const double most = max_initial_strain * contact.input.effective_radius;
  double low = force;
  while (low > 0.0 && static_overlap_of(contact, low) > most) low /= 2.0;
  double high = 2.0 * low;
  for (int k = 0; k < 60 && low > 0.0; ++k) {
    const double mid = 0.5 * (low + high);
    (static_overlap_of(contact, mid) > most ? high : low) = mid;
  }
  return low;
}

}  // namespace

double checked_static_overlap(const Case& c, const PreparedContact& contact, double force,
                              const std::string& between) {
  const double overlap = static_overlap_of(contact, force);
  const double r_star = contact.input.effective_radius;
  if (!beyond_initial_strain(overlap, r_star)) return overlap;
  const ChainSpec& s = c.spec().chain;
  c.fail(s.end_force, "is " + number_text(force) + " N, held by the static overlap (" +
                          c.key(s.static_overlap) + ") of " + between + ", " +
                          overlap_strain_text(overlap, r_star) +
                          ": the load is beyond the range of the contact law, which holds for "
                          "overlaps small against the radius: allowed delta/R* up to " +
                          number_text(max_initial_strain) + ", a load of at most " +
                          rounded_text(largest_static_load(contact, force), 3) + " N here");
}

namespace {

// What a rule reads of the case.
enum class Reads { radius, youngs_modulus, density, speed };

// A value a rule judges: where it was given (asked only for a note: finding the key of the
// fastest motion reads every body), what it is in SI units, and the scale it is judged against
// (1, or for a speed the elastic wave speed sqrt(E/rho) of `material`).
struct Judged {
  std::function<std::string()> where;
  double value = 0.0;
  double scale = 1.0;
  std::string material;
};

// A rule: a value beyond `bound` (value/scale >= bound when `above`, else < bound) gets a note.
struct NoteRule {
  Reads reads;
  bool above;
  double bound;
  std::string_view unit;  ///< of `bound`, as docs/case-format.md states it
  /// The bound is the impact speed each contact model's law states it holds to (LawValidity):
  /// the rule is judged once per such law, with `bound`, `law` and `source` the law's.
  bool law_speed;
  std::string_view keys;  ///< the keys it reads, as docs/case-format.md names them
  std::string_view why;   ///< docs/case-format.md: why the bound is where it is
  std::string (*note)(const Judged&, const NoteRule&);  ///< after "WHERE = VALUE: "
  std::string_view law = {};     ///< of a law_speed rule: the law's identifier
  std::string_view source = {};  ///< and who states its bound
};

const std::string si_units = " Case files are in SI units";

// The plausibility rules: few, each with the mistake it catches.
const NoteRule note_rules[] = {
    {Reads::radius, true, 0.5, "m", false, "`chain.radii`, `striker.radius`",
     "a bead a metre across or more, where radii in millimetres given as metres land (5 for a "
     "5 mm bead)",
     [](const Judged& v, const NoteRule&) {
       return number_text(v.value) + " m, a bead " + rounded_text(2.0 * v.value) +
              " m across: did you mean " + number_text(v.value) +
              " mm = " + rounded_text(v.value * 1e-3) + " m?" + si_units;
     }},
    {Reads::youngs_modulus, false, 1e6, "Pa", false, "`material.NAME.youngs_modulus`",
     "softer than rubber (about 1e6 Pa; only gels are softer), where a modulus in GPa or MPa "
     "given as pascals lands (200 or 210000 for steel)",
     [](const Judged& v, const NoteRule&) {
       // The units that make the value the modulus of a solid (at most 1e13 Pa).
       std::string meant;
       for (const auto& [unit, factor] : {std::pair{"GPa", 1e9}, std::pair{"MPa", 1e6}})
         if (v.value * factor <= 1e13)
           meant += (meant.empty() ? "" : ", or ") + number_text(v.value) + " " + unit + " = " +
                    rounded_text(v.value * factor) + " Pa";
       return number_text(v.value) + " Pa, softer than rubber (about 1e6 Pa)" +
              (meant.empty() ? "." : ": did you mean " + meant + "?") + si_units;
     }},
    {Reads::density, false, 30.0, "kg/m^3", false, "`material.NAME.density`",
     "lighter than every solid but foams and aerogels, where a density in g/cm^3 given as "
     "kg/m^3 lands (7.8 for steel; osmium, the densest solid, is 22.6 g/cm^3)",
     [](const Judged& v, const NoteRule&) {
       return number_text(v.value) + " kg/m^3, lighter than every solid but foams: did you mean " +
              number_text(v.value) + " g/cm^3 = " + rounded_text(v.value * 1e3) + " kg/m^3?" +
              si_units;
     }},
    {Reads::speed, true, 1.0, "times sqrt(E/rho)", false,
     "the case's largest relative speed (`striker.velocity`, `chain.velocity`, a wall's, ...)",
     "sqrt(E/rho) being the elastic wave speed of the softest material of the bodies (5064 m/s "
     "for steel): no contact law holds there, each assumes quasi-static contact, impacts far "
     "slower than the waves (Johnson 1985)",
     [](const Judged& v, const NoteRule&) {
       return rounded_text(v.value) +
              " m/s, the case's largest relative speed, beyond the elastic "
              "wave speed of " +
              v.material + ", sqrt(E/rho) = " + rounded_text(v.scale) +
              " m/s, where no contact law holds (each assumes impacts far slower than the "
              "waves): is the speed in m/s?" +
              si_units;
     }},
    {Reads::speed, true, 0.0, "times sqrt(E/rho)", true,
     "the case's largest relative speed, when a contact obeys a law whose sources state the "
     "impact speeds it holds to",
     "the law's damping is derived for impact speeds up to that bound",
     [](const Judged& v, const NoteRule& rule) {
       return rounded_text(v.value) + " m/s, the case's largest relative speed, " +
              rounded_text(v.value / (rule.bound * v.scale), 3) + " times the impact speeds law '" +
              std::string(rule.law) + "' is derived for: v0 <= " + number_text(rule.bound) +
              " sqrt(E/rho) = " + rounded_text(rule.bound * v.scale) + " m/s for " + v.material +
              " (" + std::string(rule.source) + "); its damping is extrapolated beyond them";
     }},
};

// The largest value of a list along the chain (its pattern and the beads set apart).
double largest(const BeadList<double>& list) {
  auto of = [](const auto& self, const BeadList<double>::Part& part) -> double {
    if (part.parts.empty()) return part.value;
    double most = -std::numeric_limits<double>::infinity();
    for (const auto& p : part.parts) most = std::max(most, self(self, p));
    return most;
  };
  double most = of(of, list.pattern);
  for (const auto& [bead, value] : list.set_apart) most = std::max(most, value);
  return most;
}

// Whether each material of the scene is one of its bodies' or walls'.
std::vector<char> used_materials(const Scene& scene) {
  std::vector<char> used(scene.materials.size(), 0);
  for (const int m : scene.particles.material) used[static_cast<std::size_t>(m)] = 1;
  for (const Wall& w : scene.walls) used[static_cast<std::size_t>(w.material)] = 1;
  return used;
}

// The values `reads` names, each with where it was given.
std::vector<Judged> values_of(Reads reads, const Case& c, const RunSetup& run, double speed,
                              const std::function<std::string()>& speed_key) {
  const CaseSpec& s = c.spec();
  std::vector<Judged> values;
  // A value of the case, judged as it is, where `field` gives it.
  auto given = [&c](const auto& field, double value) {
    return Judged{.where = [&c, &field] { return c.where(field); },
                  .value = value,
                  .scale = 1.0,
                  .material = ""};
  };
  switch (reads) {
    case Reads::radius:
      values.push_back(given(s.chain.radii, largest(s.chain.radii)));
      if (s.striker.radius) values.push_back(given(s.striker.radius, *s.striker.radius));
      break;
    case Reads::youngs_modulus:
    case Reads::density:
      for (const auto& [name, m] : s.materials) {
        const double& field = reads == Reads::density ? m.density : m.youngs_modulus;
        values.push_back(given(field, field));
      }
      break;
    case Reads::speed: {
      Judged v{.where = [&c, &speed_key] { return c.config().where(speed_key()); },
               .value = speed,
               .scale = std::numeric_limits<double>::infinity(),
               .material = ""};
      const std::vector<char> used = used_materials(run.scene);
      for (std::size_t k = 0; k < used.size(); ++k) {
        const Material& m = run.scene.materials[k];
        const double wave_speed = std::sqrt(m.youngs_modulus / m.density);
        if (used[k] && wave_speed < v.scale) v.scale = wave_speed, v.material = m.name;
      }
      values.push_back(v);
      break;
    }
  }
  return values;
}

// The rule as it is judged for a run of `settings`: itself, or a law_speed rule once per law of
// the run's contact models that states an impact speed, with that law's bound.
std::vector<NoteRule> rules_for(const NoteRule& rule, const SimulationSettings& settings) {
  if (!rule.law_speed) return {rule};
  std::vector<NoteRule> rules;
  for (int k = 0; k < settings.model_count(); ++k) {
    const LawEntry& law = *settings.model(k).law;
    const StatedBound& speed = law.validity.impact_speed;
    const bool seen =
        std::any_of(rules.begin(), rules.end(), [&](const NoteRule& r) { return r.law == law.id; });
    if (!speed.stated() || seen) continue;
    NoteRule r = rule;
    r.bound = speed.value;
    r.law = law.id;
    r.source = speed.source;
    rules.push_back(r);
  }
  return rules;
}

// The laws whose sources state an impact speed, as docs/case-format.md lists them, with the
// bound for the steel of the shipped cases (E = 200 GPa, rho = 7800 kg/m^3).
std::string stated_speeds() {
  const double steel_wave_speed = std::sqrt(200e9 / 7800.0);
  std::string text;
  for (const LawEntry& law : all_laws()) {
    const StatedBound& speed = law.validity.impact_speed;
    if (!speed.stated()) continue;
    text += std::string(text.empty() ? "" : "; ") + "`" + std::string(law.id) + "`, " +
            number_text(speed.value) + " times sqrt(E/rho), " +
            rounded_text(speed.value * steel_wave_speed, 3) +
            " m/s for steel: " + std::string(speed.source);
  }
  return text;
}

}  // namespace

void add_plausibility_notes(const Case& c, RunSetup& run, double speed,
                            const std::function<std::string()>& speed_key) {
  for (const NoteRule& each : note_rules)
    for (const NoteRule& rule : rules_for(each, run.settings))
      for (const Judged& v : values_of(rule.reads, c, run, speed, speed_key)) {
        const double x = v.value / v.scale;
        if (rule.above ? x >= rule.bound : x < rule.bound)
          run.notes.push_back(v.where() + " = " + rule.note(v, rule));
      }
}

}  // namespace chaindem::setup

namespace chaindem {

std::string plausibility_markdown() {
  using namespace setup;
  std::ostringstream md;
  md << "## Plausibility\n\n"
        "An initial overlap (`chain.overlap`, a state from data in `initial.file`, the static "
        "overlap\nthat carries `chain.end_force` under `chain.static_overlap`) is refused, with "
        "exit code 2,\nbeyond a strain delta/R* = "
     << number_text(max_initial_strain)
     << " of the contact's effective radius R* (R1 R2/(R1 + R2), R against a\n"
        "wall): every contact law is written for overlaps small against the radius (Hertz's "
        "for a\ncontact radius a = sqrt(R* delta) small against R*, here a/R* <= "
     << rounded_text(std::sqrt(max_initial_strain), 2)
     << "). A steel bead (yield stress 1 GPa)\nyields at delta/R* of about 5e-4; the shipped "
        "cases start at 1.4e-3 at most\n(`precompressed_chain.ini`, 50 N on beads of 5 mm). "
        "An impact of steel beads reaches 4e-3 at\n1 m/s and the bound at about 7 m/s (the strain "
        "grows as v^0.8, whatever the size): a frame of\na faster impact, at its deepest, is "
        "refused as an initial state. For the static overlap the\nmessage says the largest load "
        "within the bound.\n\n"
        "Values that are likely a unit mistake, or beyond what the law assumes, are run, each "
        "with a\nnote (`chaindem: note: ...`) naming the key, the value, and what was probably "
        "meant:\n\n";
  for (const NoteRule& rule : note_rules) {
    const std::string bound = rule.law_speed
                                  ? "the law's bound or more (" + stated_speeds() + ")"
                                  : number_text(rule.bound) + " " + std::string(rule.unit) +
                                        (rule.above ? " or more" : "");
    md << "- " << rule.keys << ": noted " << (rule.above ? "at " : "below ") << bound << ", "
       << rule.why << ".\n";
  }
  md << "\nThese judge the case before it runs. What its contacts reach while it runs (strain, "
        "impact speed,\npeak pressure) is watched against where each law's sources state it "
        "holds: `chaindem run`\nwarns when a run leaves that range, and the summary records it "
        "(engine.md, \"Validity of the\nlaws\"; output-format.md, `/summary/validity`).\n";
  return md.str();
}

}  // namespace chaindem
