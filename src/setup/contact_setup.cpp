// The set-up's contact step: the law and its parameters, the damping policies, and a pair's
// coefficients (setup_parts.hpp).

#include <string>

#include "chaindem/laws/contact_law.hpp"
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {

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
  LawParams given;
  for (const auto& [name, value] : contact.params) {
    if (law->find_param(name)) {
      given[name] = value;
    } else if (law_apart && (ignore_foreign || !c.from_command_line(value))) {
      run.notes.push_back(c.where(value) + " = " + c.config().text(c.key(value)) +
                          " is not a parameter of law '" + std::string(law->id) + "': ignored");
      run.ignored_keys.push_back(c.key(value));
    } else {
      given[name] = 0.0;  // refused by name before any value is read
    }
  }
  try {
    params = resolve_law_params(*law, given);
  } catch (const LawParamError& e) {
    c.config().fail(contact_param_key(e.key), e.what());
  }
  return *law;
}

// The damping policies: the integrator, the hysteresis origin, and the impact velocity of the
// laws with v0 in the damping term (docs/engine.md, "Impact velocity"). The onset policy needs a
// floor for contacts that start at rest: unless given, 1 % of the case's largest relative speed, a
// physical choice independent of the time step. The reference policy uses the largest relative
// speed unless given.
void set_contact_policies(const Case& c, SimulationSettings& settings, double speed) {
  const CaseSpec& s = c.spec();
  const bool uses_v0 = settings.law->uses_impact_velocity();
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

// The law's coefficients for one pair. A law refuses a pair it cannot describe with
// std::invalid_argument (a line contact without a length, an elastoplastic law without a yield
// stress, a clearance on a wall contact, parameters for which F(delta) is not unique, ...): for a
// case that is invalid input, refused before anything runs like any other.
PairCoeffs prepare_pair(const Case& c, const SimulationSettings& settings, const PairInput& in) {
  try {
    return settings.law->prepare(*settings.law, in, settings.law_params);
  } catch (const LawParamError& e) {
    c.config().fail(contact_param_key(e.key), e.what());
  } catch (const std::invalid_argument& e) {
    c.fail(c.spec().contact.law, e.what());
  }
}

// Static overlap carrying `force`: where the law's elastic part equals it.
double static_overlap_of(const Case& c, const SimulationSettings& settings, const PairInput& in,
                         double force) {
  return elastic_overlap(settings.law->kernel, prepare_pair(c, settings, in), force);
}

}  // namespace chaindem::setup
