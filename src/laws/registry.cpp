// The registry of normal contact laws: the families' rows joined in documentation order, lookup by
// identifier, the laws not implemented, and the generated reference (docs/contact-laws.md). Each
// law is declared once, as a row of its family (src/laws/families/); see
// include/chaindem/laws/law.hpp for the conventions.
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"
#include "families/common.hpp"

namespace chaindem {
namespace {

constexpr std::array unimplemented{
    UnimplementedLaw{
        "sphere_contact_area", "Banerjee et al. (2017), Eqs. 63-66",
        "as printed the force has units of N/m; Banerjee et al. (2017) call it case-specific"},
    UnimplementedLaw{"luo_nahon_overlap", "Banerjee et al. (2017), Eq. 13",
                     "uses delta_max, not delta: not a force law F(delta); units of tau'_max "
                     "unstated"},
    UnimplementedLaw{"liu_spherical_joint", "Banerjee et al. (2017), Eq. 11",
                     "K undefined and the text garbled"},
    UnimplementedLaw{"marhefka_orin simplified variant", "Autiero et al. (2022), §3.9",
                     "singular at c_r = 1/3, negative below; marhefka_orin implements the full "
                     "form"},
    UnimplementedLaw{"dubowsky_freudenstein_impact_pair", "Autiero et al. (2022), §3.1",
                     "a two-mass clearance system model, not a force law; any chaindem law can "
                     "serve as its g(X_r)"},
};

// The review papers the citations name, linked to their entries in docs/references.md.
std::string linked(std::string_view text) {
  constexpr std::pair<std::string_view, std::string_view> reviews[] = {
      {"Skrinjar et al. (2018)", "skrinjar-2018"},
      {"Skrinjar et al. 2018", "skrinjar-2018"},
      {"Banerjee et al. (2017)", "banerjee-2017"},
      {"Banerjee et al. 2017", "banerjee-2017"},
      {"Autiero et al. (2022)", "autiero-2022"},
      {"Autiero et al. 2022", "autiero-2022"},
      {"Pereira et al. (2013)", "pereira-2013"},
      {"Pereira et al. 2013", "pereira-2013"},
      {"CJTAM review", "cjtam-review"}};
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    bool hit = false;
    for (const auto& [name, anchor] : reviews) {
      if (text.substr(i, name.size()) == name) {
        out += '[';
        out.append(name);
        out += "](references.md#";
        out.append(anchor);
        out += ')';
        i += name.size();
        hit = true;
        break;
      }
    }
    if (!hit) out += text[i++];
  }
  return out;
}

}  // namespace
std::string_view to_string(Family f) {
  switch (f) {
    case Family::elastic:
      return "elastic";
    case Family::linear_viscoelastic:
      return "linear viscoelastic";
    case Family::viscous:
      return "viscous";
    case Family::hysteresis:
      return "hysteresis";
    case Family::piecewise:
      return "piecewise hysteretic";
    case Family::elastoplastic:
      return "elastoplastic";
    case Family::cylindrical:
      return "cylindrical line contact";
  }
  return "?";
}

std::string_view to_string(TensionPolicy t) {
  return t == TensionPolicy::clamp ? "clamp" : "allow";
}

const ParamSpec* LawEntry::find_param(std::string_view key) const {
  for (const auto& p : params)
    if (p.key == key) return &p;
  return nullptr;
}

bool LawEntry::uses_impact_velocity() const {
  // The kernels whose history is v0 are exactly those with v0 in the damping term.
  return with_kernel(kernel,
                     [](auto k) { return kernels::reads_only_impact_velocity<decltype(k)>; });
}

LawParams resolve_law_params(const LawEntry& law, const LawParams& given) {
  for (const auto& [key, value] : given) {
    if (law.find_param(key)) continue;
    std::string declared;
    for (const auto& p : law.params)
      declared += (declared.empty() ? "" : ", ") + std::string(p.key);
    throw LawParamError(key, "is not a parameter of law '" + std::string(law.id) +
                                 "' (its parameters: " + (declared.empty() ? "none" : declared) +
                                 ")");
  }
  LawParams params;
  for (const auto& p : law.params) {
    const std::string key(p.key);
    if (const auto it = given.find(key); it != given.end()) {
      if (!p.admits(it->second)) {
        std::ostringstream m;
        m << it->second << " is out of range for law '" << law.id << "': allowed "
          << p.range_text();
        if (p.unit != "-") m << ' ' << p.unit;
        throw LawParamError(key, m.str());
      }
      params[key] = it->second;
    } else if (p.default_value) {
      params[key] = *p.default_value;
    } else if (p.default_text.empty()) {
      throw LawParamError(key, "is missing: law '" + std::string(law.id) + "' requires it (" +
                                   std::string(p.description) + ", " + p.range_text() + " " +
                                   std::string(p.unit) + ")");
    }
  }
  return params;
}

std::optional<TensionPolicy> tension_from(std::string_view word, const LawEntry& law) {
  if (word == "law") return law.tension;
  if (word == "clamp") return TensionPolicy::clamp;
  if (word == "allow") return TensionPolicy::allow;
  return std::nullopt;
}

PairInput mixed_materials(const BodyMaterial& a, const BodyMaterial& b) {
  auto compliance = [](const BodyMaterial& m) {
    return (1.0 - m.poisson_ratio * m.poisson_ratio) / m.youngs_modulus;
  };
  PairInput in{1.0 / (compliance(a) + compliance(b)), 0.0, 0.0};
  in.youngs_modulus = 0.5 * (a.youngs_modulus + b.youngs_modulus);
  in.poisson_ratio = 0.5 * (a.poisson_ratio + b.poisson_ratio);
  const double ya = a.yield_stress > 0.0 ? a.yield_stress : INFINITY;
  const double yb = b.yield_stress > 0.0 ? b.yield_stress : INFINITY;
  in.yield_stress = std::isinf(std::min(ya, yb)) ? 0.0 : std::min(ya, yb);
  return in;
}

std::span<const LawEntry> all_laws() {
  // The families' rows, copied once into one array in documentation order (the rows are
  // constants: this needs no other static to be initialised first).
  static const std::vector<LawEntry> laws = [] {
    std::vector<LawEntry> all;
    for (auto family : {elastic_laws, kelvin_voigt_laws, viscous_laws, hysteresis_laws,
                        piecewise_laws, elastoplastic_laws, line_contact_laws})
      for (const LawEntry& law : family()) all.push_back(law);
    return all;
  }();
  return laws;
}

std::span<const RenamedLaw> renamed_laws() {
  // The variants "as printed" in a review were named after the review's number in an early list.
  static constexpr RenamedLaw renamed[] = {
      {"anagnostopoulos_s000", "anagnostopoulos_skrinjar"},
      {"herbert_mcwhannell_s001", "herbert_mcwhannell_banerjee"},
      {"hu_guo_s000", "hu_guo_skrinjar"},
      {"jankowski_s000", "jankowski_skrinjar"}};
  return renamed;
}

const LawEntry* find_law(std::string_view id) {
  for (const RenamedLaw& r : renamed_laws())
    if (r.old_id == id) id = r.id;
  for (const auto& law : all_laws())
    if (law.id == id) return &law;
  return nullptr;
}

std::span<const UnimplementedLaw> unimplemented_laws() {
  return unimplemented;
}

std::span<const ForeignLawName> foreign_law_names() {
  static constexpr ForeignLawName names[] = {
      {"hertz_mindlin", "edem_hertz_mindlin", "EDEM's Hertz-Mindlin (no slip) normal force"},
      {"hertz_mindlin_no_slip", "edem_hertz_mindlin", "EDEM's Hertz-Mindlin (no slip)"},
      {"hm", "edem_hertz_mindlin", "Hertz-Mindlin of EDEM and LIGGGHTS"},
      {"liggghts_hertz", "edem_hertz_mindlin", "LIGGGHTS' model hertz (its tension allowed)"},
      {"hertz_material", "edem_hertz_mindlin",
       "LAMMPS' pair granular hertz/material with damping tsuji"},
      {"linear_spring_dashpot", "kelvin_voigt", "the linear spring-dashpot"},
      {"spring_dashpot", "kelvin_voigt", "the linear spring-dashpot"},
      {"lsd", "kelvin_voigt", "the linear spring-dashpot"},
      {"hooke_damped", "kelvin_voigt", "LIGGGHTS' model hooke, LAMMPS' hooke"},
      {"hertz_damped", "tsuji", "Hertz with a damping proportional to sqrt(delta)"},
      {"viscoelastic", "kuwabara_kono", "the viscoelastic Hertz law of Kuwabara & Kono"},
      {"dmt", "hertz", "DMT without adhesion (chaindem has no adhesive law)"},
      {"jkr", "hertz", "JKR without adhesion (chaindem has no adhesive law)"},
      {"lankarani", "lankarani_nikravesh", "Lankarani & Nikravesh (1990)"},
      {"ln", "lankarani_nikravesh", "Lankarani & Nikravesh (1990)"},
      {"hc", "hunt_crossley", "Hunt & Crossley (1975)"},
      {"thornton", "thornton_1997", "Thornton (1997)"},
      {"johnson", "johnson_cylindrical", "Johnson's line contact"},
      {"esdu", "esdu_78035", "ESDU 78035"},
      {"goldsmith", "goldsmith_cylindrical", "Goldsmith's line contact"},
  };
  return names;
}

std::string unknown_law_text(std::string_view id) {
  std::string text = "'";  // appended: GCC 12 warns of a false overlap otherwise
  text.append(quoted_text(id)).append("' is not a law of chaindem");
  for (const ForeignLawName& f : foreign_law_names())
    if (f.name == id)
      text.append(": for ").append(f.meaning).append(" give '").append(f.id).append("'");
  for (const UnimplementedLaw& u : unimplemented)
    if (u.id == id)
      text.append(": ").append(u.source).append(", not implemented: ").append(u.reason);
  std::vector<std::string> ids;
  for (const LawEntry& law : all_laws()) ids.emplace_back(law.id);
  if (text.find(':') == std::string::npos) text += did_you_mean(id, ids);
  return text + " (`chaindem models --list` lists the " + std::to_string(ids.size()) + " laws)";
}

std::string validity_text(const LawValidity& v) {
  std::string text;
  auto add = [&text](const std::string& bound, std::string_view source) {
    text.append(text.empty() ? "" : "; ").append(bound).append(" (").append(source).append(")");
  };
  if (v.strain.stated()) add("delta/R* <= " + number_text(v.strain.value), v.strain.source);
  if (v.impact_speed.stated())
    add("impact speed <= " + number_text(v.impact_speed.value) +
            " sqrt(E/rho), the wave speed of the softer body",
        v.impact_speed.source);
  if (v.yield_pressure.stated())
    add("below yield: peak Hertz pressure p0 = (2 E*/pi) sqrt(delta/R*) <= " +
            number_text(v.yield_pressure.value) +
            " sigma_y, where the materials give a yield_stress",
        v.yield_pressure.source);
  if (!v.restitution.unbounded()) add("c_r in " + v.restitution.text(), v.restitution_source);
  return text.empty() ? "none stated" : text;
}

double restitution_beta(double restitution) {
  if (restitution <= 0.0) return -1.0;
  const double l = std::log(restitution);
  return l / std::sqrt(l * l + pi * pi);
}

std::string laws_markdown() {
  std::ostringstream md;
  md << "# Contact laws\n\n"
        "<!-- Generated by `chaindem models --markdown`; a test checks this file against the "
        "registry. -->\n\n"
        "Every normal contact law chaindem implements, from its registry (the rows of "
        "src/laws/families/). "
        "Each entry gives its source papers, formula and the reading chaindem takes where a "
        "source is ambiguous or misprinted; "
        "conventions: overlap delta > 0 in contact, approach rate v > 0 while compressing, "
        "v0 the impact velocity (the approach rate at first touch for an impact from apart; "
        "docs/engine.md, \"Impact velocity\", for contacts in a chain), F > 0 repulsive. "
        "Parameters go in the case's "
        "`[contact]` section. Papers are cited by author and year; the full references are in "
        "[references.md](references.md), and the checks of each law against its sources in "
        "[validation.md](validation.md). "
        "Each entry's validity line gives where its sources state the law holds: every run is "
        "watched against it, and says when its contacts leave it ([engine.md](engine.md), "
        "\"Validity of the laws\").\n";
  Family family = Family::elastic;
  bool first = true;
  for (const auto& law : all_laws()) {
    if (first || law.family != family) {
      family = law.family;
      first = false;
      md << "\n## " << to_string(family) << "\n";
      if (family == Family::elastoplastic)
        md << "\nQuasi-static elastoplastic laws (" << linked("CJTAM review")
           << ", Table 3). No "
              "damping term: energy is lost between the loading curve and the unloading branch "
              "frozen at the turning point (delta_max, F_max). State machine: loading while "
              "delta >= delta_max; unloading and reloading on the frozen branch, F = 0 at and "
              "below the residual overlap delta_res; loading again past delta_max; unloading "
              "from the elastic branch is elastic (delta_res = 0). Where continuity would give "
              "delta_res < 0, delta_res = 0 and the branch is scaled through (delta_max, F_max); "
              "a later plastic loading never reduces delta_res (the branch is scaled likewise). "
              "The pair keeps its plastic history across separations: a later contact starts on "
              "the flattened surfaces (no force up to delta_res). Every law needs a yield stress: "
              "the materials' yield_stress or the law parameter yield_stress.\n";
      if (family == Family::cylindrical)
        md << "\nLine contacts of two parallel cylinders of axial length L: W = F/L is the load "
              "per unit length, E* = 1/(h_i + h_j) with h = (1 - "
              "nu^2)/E, dR = R_i + R_j for an external contact (neighbouring cylinders of a "
              "chain) or the radial clearance of an internal one (law parameter clearance: pin "
              "in a bore), R_eq = R_i R_j/dR. L is chain.cylinder_length (the bodies are "
              "cylinders, mass rho pi R^2 L) or the law parameter length. The implicit laws "
              "delta = a F (ln(b/F) + k) are inverted in closed form with the Lambert function "
              "W_-1 (no iteration, exact to rounding); past their peak delta* (where delta(F) "
              "turns back and no force exists) the force continues along the secant F = "
              "delta/a through the peak, which is continuous and conserves energy. A wall "
              "contact is half of the symmetric contact of the body with its mirror image "
              "(radii R and R, modulus E*/2, twice the overlap): exact for a rigid frictionless "
              "wall (E* of the pair with the wall: 1/(h_body + h_wall), h_wall = 0 for a rigid "
              "one; an elastic wall's compliance is then counted twice, an approximation), where "
              "the laws' own flat limit dR -> infinity diverges. Every law but the "
              "power fit damps with the Lankarani-Nikravesh factor ("
           << linked("Skrinjar et al. 2018") << ", §6; restitution, default 1: undamped).\n";
    }
    md << "\n### `" << law.id << "` - " << law.title << "\n\n"
       << "- source: " << linked(law.citation) << "\n"
       << "- force: `" << law.formula << "`\n"
       << "- damping: " << law.damping << "\n"
       << "- tension: " << to_string(law.tension) << " by default\n";
    if (!law.notes.empty()) md << "- notes: " << linked(law.notes) << "\n";
    md << "- validity: " << linked(validity_text(law.validity)) << "\n";
    for (const auto& p : law.params) {
      md << "- `" << p.key << "` [" << p.unit << "] " << p.range_text() << ", ";
      if (p.default_value)
        md << "default " << *p.default_value;
      else if (!p.default_text.empty())
        md << "default: " << p.default_text;
      else
        md << "required";
      md << ": " << p.description << "\n";
    }
    if (const std::string e = reference_restitution_text(law); !e.empty())
      md << "- restitution achieved: " << e << "\n";
  }
  md << "\n## Not implemented\n\n| identifier | source | reason |\n|---|---|---|\n";
  for (const auto& u : unimplemented)
    md << "| `" << u.id << "` | " << linked(u.source) << " | " << u.reason << " |\n";
  md << "\n## Names from other codes\n\nNames users bring from other codes and the literature: "
        "not read as laws (a name may mean different things in different codes), but a case "
        "that gives one is refused with the law named here.\n\n| name | law | what the name "
        "stands for |\n|---|---|---|\n";
  for (const ForeignLawName& f : foreign_law_names())
    md << "| `" << f.name << "` | `" << f.id << "` | " << f.meaning << " |\n";
  return md.str();
}

}  // namespace chaindem
