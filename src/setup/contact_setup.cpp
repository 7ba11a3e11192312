// The set-up's contact step: the law and its parameters, the damping policies, and a pair's
// coefficients (setup_parts.hpp).

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {

// The parameters a section gives, by name, for `law`: those it takes, and any other either
// ignored with a note, when the law was chosen apart from it (`law_apart`: by the command line
// while the case file gives the parameter, or for every parameter under `ignore_foreign`), or
// kept, for resolve_law_params to refuse by name.
LawParams given_params(const Case& c, const LawEntry& law,
                       const std::map<std::string, double, std::less<>>& params, bool law_apart,
                       bool ignore_foreign, RunSetup& run) {
  LawParams given;
  for (const auto& [name, value] : params) {
    if (law.find_param(name)) {
      given[name] = value;
    } else if (law_apart && (ignore_foreign || !c.from_command_line(value))) {
      run.notes.push_back(c.where(value) + " = " + c.config().text(c.key(value)) +
                          " is not a parameter of law '" + std::string(law.id) + "': ignored");
      run.ignored_keys.push_back(c.key(value));
    } else {
      given[name] = 0.0;  // refused by name before any value is read
    }
  }
  return given;
}

// Resolves the [contact] section against the chosen law's declared parameters
// (resolve_law_params): the law's keys given in the case, and any other [contact] key given,
// which is an error (a typo, a law changed without its parameters) unless the law was chosen
// apart from it: by the command line while the case file gives the parameter, or for every
// parameter under `ignore_foreign` (compare's laws). Those are ignored, each with a note.
const LawEntry& resolve_law(const Case& c, LawParams& params, bool ignore_foreign, RunSetup& run) {
  const ContactSpec& contact = c.spec().contact;
  const LawEntry* law = find_law(contact.law);
  if (!law) c.fail(contact.law, "unknown law '" + contact.law + "'");
  if (contact.law != law->id)
    run.notes.push_back(c.where(contact.law) + ": law '" + contact.law + "' is now called '" +
                        std::string(law->id) + "'");
  const bool law_apart = ignore_foreign || c.from_command_line(contact.law);
  const LawParams given = given_params(c, *law, contact.params, law_apart, ignore_foreign, run);
  try {
    params = resolve_law_params(*law, given);
  } catch (const LawParamError& e) {
    c.config().fail(contact_param_key(e.key), e.what());
  }
  return *law;
}

namespace {

// The bodies a [contact.A.B] section names: two materials, or a wall and a material.
struct PairBodies {
  int material_a = 0, material_b = 0;
  std::optional<std::size_t> wall;  ///< A is this wall, and material_a is unused
};

// The first key of section `pair` the case gives: where a message about the section points.
std::string section_key(const Case& c, const std::string& pair) {
  for (const KeySpec& k : contact_pair_keys(pair))
    if (c.config().has(k.key)) return k.key;
  return pair_key_name(pair, &PairContactSpec::law);
}

PairBodies pair_bodies(const Case& c, const MaterialIndex& materials, const std::string& pair) {
  const std::string a = pair.substr(0, pair.find('.')), b = pair.substr(pair.find('.') + 1);
  std::vector<std::string> walls;  // enabled, in the order the scene holds them
  if (c.spec().wall_start.enabled) walls.push_back("wall_start");
  if (c.spec().wall_end.enabled) walls.push_back("wall_end");
  auto wall_of = [&](const std::string& name) -> std::optional<std::size_t> {
    const auto it = std::find(walls.begin(), walls.end(), name);
    if (it == walls.end()) return std::nullopt;
    return static_cast<std::size_t>(it - walls.begin());
  };
  auto refuse = [&](const std::string& what) {
    c.config().fail(section_key(c, pair), "[contact." + pair + "] " + what);
  };
  for (const std::string& name : {a, b})
    if ((name == "wall_start" || name == "wall_end") && !wall_of(name))
      refuse("names " + name + ", which the case does not enable");
  if (wall_of(a) && wall_of(b)) refuse("names two walls, which never touch");
  PairBodies bodies;
  bodies.wall = wall_of(a) ? wall_of(a) : wall_of(b);
  const std::string& first = wall_of(b) ? b : a;
  const std::string& second = wall_of(b) ? a : b;
  for (const std::string* name : {&first, &second}) {
    if (name == &first && bodies.wall) continue;
    const auto it = materials.find(*name);
    if (it == materials.end()) {
      std::string defined;
      for (const auto& [known, index] : materials) defined += (defined.empty() ? "" : ", ") + known;
      refuse("names '" + quoted_text(*name) + "', which is neither a material of the case (" +
             defined + ") nor an enabled wall (wall_start, wall_end)");
    }
    (name == &first ? bodies.material_a : bodies.material_b) = it->second;
  }
  return bodies;
}

// The model of section `pair`: its law or [contact]'s; [contact]'s parameters that this law
// takes, then its own, each of which the law must take unless the law was chosen apart from them
// (as resolve_law says for [contact]); its tension policy, or [contact]'s, or the law's own.
ContactModel pair_model(const Case& c, const std::string& pair, bool ignore_foreign,
                        RunSetup& run) {
  const PairContactSpec& spec = c.spec().contact_pairs.at(pair);
  const ContactSpec& contact = c.spec().contact;
  const LawEntry* law = spec.law ? find_law(*spec.law) : run.settings.law;
  if (!law) c.fail(*spec.law, "unknown law '" + *spec.law + "'");
  const bool law_apart = ignore_foreign || (spec.law ? c.from_command_line(*spec.law)
                                                     : c.from_command_line(contact.law));
  // The impact-velocity floor belongs to the case's policy, one for every contact.
  if (const auto floor = spec.params.find("impact_velocity_floor"); floor != spec.params.end())
    c.fail(floor->second, "is one for the whole case: give " +
                              contact_param_key("impact_velocity_floor") + " instead");
  // [contact]'s values as the case gives them, whatever law [contact] itself obeys now.
  LawParams given;
  for (const auto& [name, value] : contact.params)
    if (law->find_param(name)) given[name] = value;
  for (const auto& [name, value] :
       given_params(c, *law, spec.params, law_apart, ignore_foreign, run))
    given[name] = value;
  ContactModel model{law, {}, law->tension};
  try {
    model.params = resolve_law_params(*law, given);
  } catch (const LawParamError& e) {
    // A value the section takes from [contact] is named where it was given.
    const bool inherited = !spec.params.count(e.key) && contact.params.count(e.key);
    c.config().fail(inherited ? contact_param_key(e.key) : pair_param_key(pair, e.key), e.what());
  }
  if (spec.tension)
    model.tension = spec.tension->value_or(law->tension);
  else if (contact.tension)
    model.tension = *contact.tension;
  return model;
}

}  // namespace

void resolve_contact_table(const Case& c, const MaterialIndex& materials, bool ignore_foreign,
                           RunSetup& run) {
  const std::map<std::string, PairContactSpec>& pairs = c.spec().contact_pairs;
  if (pairs.empty()) return;
  ContactTable& table = run.settings.contact_table;
  const std::size_t n = run.scene.materials.size();
  table.materials = n;
  table.pair_model.assign(n * n, 0);
  table.wall_model.assign(2 * n, 0);  // at most two walls
  std::map<std::tuple<std::optional<std::size_t>, int, int>, std::string> named;
  for (const auto& [pair, spec] : pairs) {
    const PairBodies b = pair_bodies(c, materials, pair);
    const auto key = b.wall ? std::tuple{b.wall, 0, b.material_b}
                            : std::tuple{b.wall, std::min(b.material_a, b.material_b),
                                         std::max(b.material_a, b.material_b)};
    if (const auto [it, fresh] = named.emplace(key, pair); !fresh)
      c.config().fail(section_key(c, pair), "[contact." + pair + "] and [contact." + it->second +
                                                "] are the same contact: give it once");
    // Models are numbered in one byte per contact (ContactList::model): 254 sections are more
    // than the pairs of 20 materials and two walls.
    if (table.models.size() == 254)
      c.config().fail(section_key(c, pair), "is the 255th [contact.A.B] section: at most 254");
    table.models.push_back(pair_model(c, pair, ignore_foreign, run));
    run.model_sections.push_back(contact_param_key(pair));
    const int k = static_cast<int>(table.models.size());
    if (b.wall) {
      table.wall_model[*b.wall * n + static_cast<std::size_t>(b.material_b)] = k;
    } else {
      table.pair_model[static_cast<std::size_t>(b.material_a) * n +
                       static_cast<std::size_t>(b.material_b)] = k;
      table.pair_model[static_cast<std::size_t>(b.material_b) * n +
                       static_cast<std::size_t>(b.material_a)] = k;
    }
  }
}

// The damping policies: the integrator, the hysteresis origin, and the impact velocity of the
// laws with v0 in the damping term (docs/engine.md, "Impact velocity"). The onset policy needs a
// floor for contacts that start at rest: unless given, 1 % of the case's largest relative speed, a
// physical choice independent of the time step. The reference policy uses the largest relative
// speed unless given.
bool uses_impact_velocity(const SimulationSettings& settings) {
  for (int k = 0; k < settings.model_count(); ++k)
    if (settings.model(k).law->uses_impact_velocity()) return true;
  return false;
}

void set_contact_policies(const Case& c, SimulationSettings& settings, double speed) {
  const CaseSpec& s = c.spec();
  const bool uses_v0 = uses_impact_velocity(settings);
  using Policy = SimulationSettings::ImpactVelocity;
  settings.impact_velocity = s.contact.impact_velocity;
  settings.static_origin = s.contact.static_origin;
  settings.integrator = s.simulation.integrator;
  settings.reference_velocity = s.contact.reference_velocity;
  if (settings.reference_velocity == 0.0) settings.reference_velocity = speed;
  if (uses_v0 && settings.impact_velocity == Policy::reference &&
      !(settings.reference_velocity > 0.0))
    c.fail(s.contact.reference_velocity,
           "is needed: nothing moves in the case, so there is no largest relative speed to use "
           "(allowed: (0, inf) m/s)");
  const std::string floor = "impact_velocity_floor";
  if (uses_v0 && settings.impact_velocity == Policy::onset && !settings.law_params.count(floor))
    settings.law_params[floor] = speed > 0.0 ? 0.01 * speed : 1e-6;
  if (settings.impact_velocity != Policy::onset) {
    if (const auto given = s.contact.params.find(floor); uses_v0 && given != s.contact.params.end())
      c.fail(given->second,
             "is the floor of the onset policy, and " + c.key(s.contact.impact_velocity) + " is " +
                 std::string(to_string(settings.impact_velocity)) + ", which needs none: give " +
                 c.key(s.contact.impact_velocity) + " = onset to use a floor");
    settings.law_params.erase(floor);  // only the onset policy has a floor
  }
  settings.impact_velocity_floor =
      uses_v0 && settings.impact_velocity == Policy::onset ? settings.law_params.at(floor) : 0.0;
}

namespace {

// The key of law parameter `param` of contact model k's section.
std::string model_param_key(const RunSetup& run, int k, std::string_view param) {
  return run.model_sections[static_cast<std::size_t>(k)] + "." + std::string(param);
}

// The model's coefficients for one contact. A law refuses a pair it cannot describe with
// std::invalid_argument (a line contact without a length, an elastoplastic law without a yield
// stress, a clearance on a wall contact, parameters for which F(delta) is not unique, ...): for a
// case that is invalid input, refused before anything runs like any other.
PreparedContact prepare(const Case& c, const RunSetup& run, const PairInput& in, int k) {
  const ContactModel model = run.settings.model(k);
  try {
    return {in, model.law->prepare(*model.law, in, model.params), model.law->kernel};
  } catch (const LawParamError& e) {
    c.config().fail(model_param_key(run, k, e.key), e.what());
  } catch (const std::invalid_argument& e) {
    c.config().fail(model_param_key(run, k, "law"), e.what());
  }
}

int material_of(const Scene& scene, Eigen::Index i) {
  return scene.particles.material[static_cast<std::size_t>(i)];
}

}  // namespace

PreparedContact prepare_pair(const Case& c, const RunSetup& run, Eigen::Index i, Eigen::Index j) {
  const Scene& scene = run.scene;
  const int k = run.settings.contact_table.of_pair(material_of(scene, i), material_of(scene, j));
  return prepare(c, run, pair_input(scene, i, j), k);
}

PreparedContact prepare_wall(const Case& c, const RunSetup& run, Eigen::Index i, std::size_t w) {
  const Scene& scene = run.scene;
  const int k = run.settings.contact_table.of_wall(w, material_of(scene, i));
  return prepare(c, run, wall_input(scene, i, w), k);
}

const PreparedContact& ContactPreparer::pair(const Case& c, const RunSetup& run, Eigen::Index i,
                                             Eigen::Index j) {
  const Scene& scene = run.scene;
  const int k = run.settings.contact_table.of_pair(material_of(scene, i), material_of(scene, j));
  return of(c, run, pair_input(scene, i, j), k);
}

const PreparedContact& ContactPreparer::wall(const Case& c, const RunSetup& run, Eigen::Index i,
                                             std::size_t w) {
  const Scene& scene = run.scene;
  const int k = run.settings.contact_table.of_wall(w, material_of(scene, i));
  return of(c, run, wall_input(scene, i, w), k);
}

const PreparedContact& ContactPreparer::of(const Case& c, const RunSetup& run, const PairInput& in,
                                           int k) {
  for (std::size_t e = 0; e < size_; ++e)
    if (entries_[e].model == k &&
        std::memcmp(&entries_[e].contact.input, &in, sizeof(PairInput)) == 0)
      return entries_[e].contact;
  Entry& e = entries_[next_];
  next_ = (next_ + 1) % entries_.size();
  size_ = std::min(size_ + 1, entries_.size());
  e = {k, prepare(c, run, in, k)};
  return e.contact;
}

double static_overlap_of(const PreparedContact& contact, double force) {
  return elastic_overlap(contact.kernel, contact.coeffs, force);
}

}  // namespace chaindem::setup
