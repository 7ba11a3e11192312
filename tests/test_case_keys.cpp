// The key declarations: each key fills the field it names, and a field names its key back.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "chaindem/setup/case_spec.hpp"

using namespace chaindem;

namespace {

// A case that gives every key of every section a value distinct from its default, so that a key
// bound to the wrong field (or to none) shows as a wrong value.
const std::string every_key =
    "[simulation]\nduration = 0.002\ntime_step = 1e-7\nsteps_per_contact = 60\nskin = 1e-4\n"
    "threads = 2\nintegrator = lammps\nengine = general\nerror_estimate = on\n"
    "[contact]\nlaw = hunt_crossley\ntension = allow\nimpact_velocity = reference\n"
    "reference_velocity = 1.5\nhysteresis_origin = zero\nrestitution = 0.7\n"
    "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
    "yield_stress = 1e9\n"
    "[material.ptfe]\nyoungs_modulus = 0.5e9\npoisson_ratio = 0.46\ndensity = 2200\n"
    "[chain]\ncount = 6\nmaterials = steel ptfe\nradii = 0.005 0.004\nvelocity = -1 5=2\ntaper = "
    "0.99\n"
    "gap = 1e-5\noverlap = 0\nend_force = 2\ncylinder_length = 0.01\nstatic_overlap = false\n"
    "held_by = walls\nend_force_motion = table\nend_force_amplitude = 0.5 0.25\n"
    "end_force_frequency = 40 90\nend_force_phase = 0.2 0.3\nend_force_ramp = 0.02\n"
    "end_force_table = load.csv\nend_force_interpolation = linear\n"
    "[striker]\nenabled = false\nmaterial = ptfe\nradius = 0.006\nvelocity = 0.3\ngap = 2e-5\n"
    "[wall_start]\nenabled = true\nmaterial = steel\ngap = 3e-5\nvelocity = 0.1\n"
    "motion = harmonic\namplitude = 1e-6 2e-6\nfrequency = 100 250\nphase = 0.5 1.5\n"
    "ramp = 0.01\ncrank_radius = 0.02\ncrank_speed = 10\ncrank_angle = 30\nrod_length = 0.05\n"
    "crank_offset = 0.001\nslider_side = -x\n"
    "[wall_end]\nenabled = true\nmaterial = ptfe\ngap = 4e-5\nvelocity = -0.2\n"
    "motion = table\ntable = drive.csv\ninterpolation = linear\ncrank_radius = 0.03\n"
    "crank_speed = -20\ncrank_angle = 40\nrod_length = 0.06\ncrank_offset = -0.002\n"
    "slider_side = -x\n"
    "[gravity]\nacceleration = 1 2 3\n"
    "[extra]\nparticles = steel 0.001 0 0.1 0 0 0 0\n"
    "[initial]\nfile = start.csv\nframe = 3\n"
    "[output]\nfile = out.h5\ninterval = 1e-5\ncontacts = false\narrival_beads = 1 -2\n"
    "arrival_threshold = 0.2\ncheckpoint_interval = 60\n";

}  // namespace

TEST(CaseKeys, EveryKeyFillsTheFieldItNames) {
  const CaseSpec s = read_case_spec(CaseConfig::parse(every_key, "every.ini"));
  using Settings = SimulationSettings;
  EXPECT_EQ(s.simulation.duration, 0.002);
  EXPECT_EQ(s.simulation.time_step, 1e-7);
  EXPECT_EQ(s.simulation.steps_per_contact, 60);
  EXPECT_EQ(s.simulation.skin, 1e-4);
  EXPECT_EQ(s.simulation.threads, 2);
  EXPECT_EQ(s.simulation.integrator, Settings::Integrator::lammps);
  EXPECT_EQ(s.simulation.engine, Settings::EngineChoice::general);
  EXPECT_EQ(s.simulation.error_estimate, ErrorEstimate::on);
  EXPECT_EQ(s.contact.law, "hunt_crossley");
  EXPECT_EQ(s.contact.tension, TensionPolicy::allow);
  EXPECT_EQ(s.contact.impact_velocity, Settings::ImpactVelocity::reference);
  EXPECT_EQ(s.contact.reference_velocity, 1.5);
  EXPECT_FALSE(s.contact.static_origin);
  EXPECT_EQ(s.contact.params, (std::map<std::string, double, std::less<>>{{"restitution", 0.7}}));
  EXPECT_EQ(s.chain.count, 6);
  EXPECT_EQ(s.chain.materials.values(), (std::vector<std::string>{"steel", "ptfe"}));
  EXPECT_EQ(s.chain.radii.values(), (std::vector<double>{0.005, 0.004}));
  ASSERT_TRUE(s.chain.velocity);
  EXPECT_EQ(s.chain.velocity->values(), (std::vector<double>{-1.0, 2.0}));
  EXPECT_EQ(s.chain.taper, 0.99);
  EXPECT_EQ(s.chain.gap, 1e-5);
  EXPECT_EQ(s.chain.overlap, 0.0);
  EXPECT_EQ(s.chain.end_force, 2.0);
  EXPECT_EQ(s.chain.cylinder_length, 0.01);
  EXPECT_FALSE(s.chain.static_overlap);
  EXPECT_TRUE(s.chain.held_by_walls);
  EXPECT_EQ(s.chain.end_force_motion, WallMotion::table);
  EXPECT_EQ(s.chain.end_force_amplitude, (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(s.chain.end_force_frequency, (std::vector<double>{40, 90}));
  EXPECT_EQ(s.chain.end_force_phase, (std::vector<double>{0.2, 0.3}));
  EXPECT_EQ(s.chain.end_force_ramp, 0.02);
  EXPECT_EQ(s.chain.end_force_table, "load.csv");
  EXPECT_EQ(s.chain.end_force_interpolation, Motion::Interpolation::linear);
  EXPECT_FALSE(s.striker.enabled);
  EXPECT_EQ(s.striker.material, "ptfe");
  EXPECT_EQ(s.striker.radius, 0.006);
  EXPECT_EQ(s.striker.velocity, 0.3);
  EXPECT_EQ(s.striker.gap, 2e-5);
  for (const auto& [wall, material, gap, velocity] :
       {std::tuple{&s.wall_start, "steel", 3e-5, 0.1},
        std::tuple{&s.wall_end, "ptfe", 4e-5, -0.2}}) {
    EXPECT_TRUE(wall->enabled);
    EXPECT_EQ(wall->material, material);
    EXPECT_EQ(wall->gap, gap);
    EXPECT_EQ(wall->velocity, velocity);
  }
  EXPECT_EQ(s.wall_start.motion, WallMotion::harmonic);
  EXPECT_EQ(s.wall_start.amplitude, (std::vector<double>{1e-6, 2e-6}));
  EXPECT_EQ(s.wall_start.frequency, (std::vector<double>{100, 250}));
  EXPECT_EQ(s.wall_start.phase, (std::vector<double>{0.5, 1.5}));
  EXPECT_EQ(s.wall_start.ramp, 0.01);
  EXPECT_EQ(s.wall_end.motion, WallMotion::table);
  EXPECT_EQ(s.wall_end.table, "drive.csv");
  EXPECT_EQ(s.wall_end.interpolation, Motion::Interpolation::linear);
  for (const auto& [wall, radius, speed, angle, rod, offset] :
       {std::tuple{&s.wall_start, 0.02, 10.0, 30.0, 0.05, 0.001},
        std::tuple{&s.wall_end, 0.03, -20.0, 40.0, 0.06, -0.002}}) {
    EXPECT_EQ(wall->crank_radius, radius);
    EXPECT_EQ(wall->crank_speed, speed);
    EXPECT_EQ(wall->crank_angle, angle);
    EXPECT_EQ(wall->rod_length, rod);
    EXPECT_EQ(wall->crank_offset, offset);
    EXPECT_EQ(wall->slider_side, -1);
  }
  EXPECT_EQ(s.gravity.acceleration, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(s.extra.particles, "steel 0.001 0 0.1 0 0 0 0");
  EXPECT_EQ(s.initial.file, "start.csv");
  EXPECT_EQ(s.initial.frame, 3);
  EXPECT_EQ(s.output.file, "out.h5");
  EXPECT_EQ(s.output.interval, 1e-5);
  EXPECT_FALSE(s.output.contacts);
  EXPECT_EQ(s.output.arrival_beads, (std::vector<double>{1, -2}));
  EXPECT_EQ(s.output.arrival_threshold, 0.2);
  EXPECT_EQ(s.output.checkpoint_interval, 60);
  ASSERT_EQ(s.materials.size(), 2u);
  const MaterialSpec& steel = s.materials.at("steel");
  EXPECT_EQ(steel.youngs_modulus, 200e9);
  EXPECT_EQ(steel.poisson_ratio, 0.3);
  EXPECT_EQ(steel.density, 7800);
  EXPECT_EQ(steel.yield_stress, 1e9);
  EXPECT_FALSE(s.materials.at("ptfe").yield_stress);
}

TEST(CaseKeys, DefaultsFillTheFieldsAndOptionalKeysStayEmpty) {
  const std::string minimal =
      "[simulation]\nduration = 1e-3\n[contact]\nlaw = hertz\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[chain]\ncount = 3\nmaterials = steel\nradii = 0.005\n";
  const CaseSpec s = read_case_spec(CaseConfig::parse(minimal, "minimal.ini"));
  EXPECT_EQ(s.simulation.steps_per_contact, 50);  // the declared defaults, as documented
  EXPECT_EQ(s.simulation.integrator, SimulationSettings::Integrator::second_order);
  EXPECT_EQ(s.contact.tension, std::nullopt);  // "law": the law's own policy
  EXPECT_TRUE(s.contact.static_origin);
  EXPECT_TRUE(s.contact.params.empty());
  EXPECT_EQ(s.chain.taper, 1.0);
  EXPECT_TRUE(s.striker.enabled);
  EXPECT_FALSE(s.striker.velocity);
  EXPECT_FALSE(s.striker.radius);
  EXPECT_FALSE(s.wall_start.enabled);
  EXPECT_FALSE(s.extra.particles);
  EXPECT_FALSE(s.initial.file);
  EXPECT_EQ(s.initial.frame, -1);
  EXPECT_FALSE(s.output.file);
  EXPECT_EQ(s.output.arrival_beads, (std::vector<double>{0, -1}));
  EXPECT_EQ(s.output.arrival_threshold, 0.1);
}

TEST(CaseKeys, AFieldNamesItsKey) {
  const CaseConfig cfg = CaseConfig::parse(every_key, "every.ini", {"chain.gap=2e-5"});
  const Case c(cfg);
  const CaseSpec& s = c.spec();
  EXPECT_EQ(c.key(s.simulation.duration), "simulation.duration");
  EXPECT_EQ(c.key(s.contact.impact_velocity), "contact.impact_velocity");
  EXPECT_EQ(c.key(s.contact.params.at("restitution")), "contact.restitution");
  EXPECT_EQ(c.key(s.chain.radii), "chain.radii");
  EXPECT_EQ(c.key(s.wall_start.gap), "wall_start.gap");
  EXPECT_EQ(c.key(s.wall_end.gap), "wall_end.gap");
  EXPECT_EQ(c.key(s.materials.at("ptfe").density), "material.ptfe.density");
  EXPECT_EQ(c.key(s.output.checkpoint_interval), "output.checkpoint_interval");
  // Where it came from: the command line, or the file.
  EXPECT_EQ(c.where(s.chain.gap), "--set chain.gap");
  EXPECT_TRUE(c.from_command_line(s.chain.gap));
  EXPECT_EQ(c.where(s.chain.taper), "every.ini: chain.taper");
  EXPECT_TRUE(c.given(s.chain.taper));
  EXPECT_FALSE(c.given(s.simulation.threads) && c.from_command_line(s.simulation.threads));
  try {
    c.fail(s.striker.gap, "is wrong");
    ADD_FAILURE() << "fail() returned";
  } catch (const CaseError& e) {
    EXPECT_STREQ(e.what(), "every.ini: striker.gap: is wrong");
  }
  // A value that is not a field of this case has no key: a programming error, not a message.
  const double elsewhere = s.chain.gap;
  EXPECT_THROW(c.key(elsewhere), std::logic_error);
}

TEST(CaseKeys, EveryDeclaredKeyIsReadIntoAField) {
  // Each key of case_keys() is named back by some field of the case that gives them all: no key
  // is declared without a field, and no two keys fill one field.
  const Case c(CaseConfig::parse(every_key, "every.ini"));
  const CaseSpec& s = c.spec();
  std::set<std::string> named;
  auto name = [&](const auto& field) { EXPECT_TRUE(named.insert(c.key(field)).second); };
  name(s.simulation.duration), name(s.simulation.time_step), name(s.simulation.steps_per_contact);
  name(s.simulation.skin), name(s.simulation.threads), name(s.simulation.integrator);
  name(s.simulation.engine), name(s.simulation.error_estimate), name(s.simulation.accuracy);
  name(s.contact.law);
  name(s.contact.tension);
  name(s.contact.impact_velocity), name(s.contact.reference_velocity);
  name(s.contact.static_origin);
  for (const auto& [param, value] : s.contact.params) name(value);
  name(s.chain.count), name(s.chain.materials), name(s.chain.radii), name(s.chain.velocity),
      name(s.chain.taper);
  name(s.chain.gap), name(s.chain.overlap), name(s.chain.end_force), name(s.chain.cylinder_length);
  name(s.chain.static_overlap), name(s.chain.held_by_walls), name(s.chain.end_force_motion);
  name(s.chain.end_force_amplitude), name(s.chain.end_force_frequency);
  name(s.chain.end_force_phase), name(s.chain.end_force_ramp), name(s.chain.end_force_table);
  name(s.chain.end_force_interpolation);
  for (const StrikerSpec* k : {&s.striker})
    name(k->enabled), name(k->material), name(k->radius), name(k->velocity), name(k->gap);
  for (const WallSpec* w : {&s.wall_start, &s.wall_end})
    name(w->enabled), name(w->material), name(w->gap), name(w->velocity), name(w->motion),
        name(w->amplitude), name(w->frequency), name(w->phase), name(w->ramp), name(w->table),
        name(w->interpolation), name(w->crank_radius), name(w->crank_speed), name(w->crank_angle),
        name(w->rod_length), name(w->crank_offset), name(w->slider_side);
  name(s.gravity.acceleration), name(s.extra.particles), name(s.initial.file);
  name(s.initial.frame), name(s.output.file), name(s.output.interval), name(s.output.contacts);
  name(s.output.arrival_beads), name(s.output.arrival_threshold);
  name(s.output.checkpoint_interval), name(s.output.xdmf), name(s.output.max_file_size);
  name(s.output.quantities), name(s.output.every), name(s.output.compression);
  name(s.output.dimension), name(s.output.beads);
  name(s.output.particles_interval), name(s.output.observables_interval);
  name(s.output.contacts_interval);
  std::size_t law_params = 0;
  for (const KeySpec& k : case_keys())
    if (k.law_parameter)
      ++law_params;  // declared from the registry, read only when given
    else
      EXPECT_TRUE(named.count(k.key)) << k.key << " fills no field";
  EXPECT_EQ(named.size() + law_params - s.contact.params.size(), case_keys().size());
}

TEST(CaseKeys, KeysThatChangeNoResultMayDifferOnRestart) {
  // How a run is carried out, not what it computes: a restart may change them.
  for (const char* key : {"simulation.threads", "output.file", "output.checkpoint_interval"})
    EXPECT_TRUE(changes_no_result(key)) << key;
  for (const char* key : {"simulation.duration", "contact.restitution", "material.steel.density",
                          "output.interval", "no.such"})
    EXPECT_FALSE(changes_no_result(key)) << key;
}

// Commands read a key's section from its name: a material's NAME, a law parameter's name.
TEST(CaseKeys, KeyNamesTakeApartIntoTheirSections) {
  EXPECT_EQ(material_of("material.steel.density"), "steel");
  EXPECT_EQ(material_of("material.a_b.yield_stress"), "a_b");
  EXPECT_EQ(material_of("material.steel"), std::nullopt);  // a section, not a key
  EXPECT_EQ(material_of("chain.materials"), std::nullopt);
  EXPECT_EQ(contact_param_name("contact.restitution"), "restitution");
  EXPECT_EQ(contact_param_name("chain.gap"), std::nullopt);
  EXPECT_EQ(contact_param_key(*contact_param_name("contact.yield_stress")), "contact.yield_stress");
  EXPECT_TRUE(is_law_key("contact.law"));
  EXPECT_FALSE(is_law_key("law"));
  EXPECT_FALSE(is_law_key("contact.restitution"));
  // Every material key of a section names its material back.
  for (const KeySpec& k : material_keys("glass")) EXPECT_EQ(material_of(k.key), "glass") << k.key;
}

// A [contact.A.B] section fills the pair's model; what it leaves out stays unset, for the set-up
// to take from [contact].
TEST(CaseKeys, ContactPairSectionsFillTheirPairs) {
  const std::string text =
      "[simulation]\nduration = 1e-3\n[contact]\nlaw = hertz\n"
      "[contact.steel.ptfe]\nlaw = hunt_crossley\nrestitution = 0.6\ntension = law\n"
      "[contact.wall_end.steel]\nstiffness = 3e9\n"
      "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
      "[material.ptfe]\nyoungs_modulus = 0.5e9\npoisson_ratio = 0.46\ndensity = 2200\n"
      "[chain]\ncount = 3\nmaterials = steel\nradii = 0.005\n";
  const CaseConfig config =
      CaseConfig::parse(text, "pairs.ini", {"contact.steel.ptfe.stiffness=2e9"});
  EXPECT_EQ(config.contact_pairs(), (std::vector<std::string>{"steel.ptfe", "wall_end.steel"}));
  const CaseSpec s = read_case_spec(config);
  const PairContactSpec& hc = s.contact_pairs.at("steel.ptfe");
  EXPECT_EQ(hc.law, "hunt_crossley");
  ASSERT_TRUE(hc.tension);
  EXPECT_EQ(*hc.tension, std::nullopt);  // the law's own policy
  EXPECT_EQ(hc.params.at("restitution"), 0.6);
  EXPECT_EQ(hc.params.at("stiffness"), 2e9);
  const PairContactSpec& wall = s.contact_pairs.at("wall_end.steel");
  EXPECT_EQ(wall.law, std::nullopt);
  EXPECT_EQ(wall.tension, std::nullopt);
  EXPECT_EQ(wall.params.at("stiffness"), 3e9);
  EXPECT_EQ(key_of(s, &hc.law), "contact.steel.ptfe.law");
  EXPECT_EQ(key_of(s, &hc.params.at("restitution")), "contact.steel.ptfe.restitution");
  EXPECT_EQ(pair_key_name("a.b", &PairContactSpec::tension), "contact.a.b.tension");
  EXPECT_EQ(contact_pair_of("contact.steel.ptfe.law"), "steel.ptfe");
  for (const std::string key : {"contact.law", "contact.a.law", "contact..b.law", "contact.a..law",
                                "contact.a.b.", "contact.a.b.c.d"})
    EXPECT_EQ(contact_pair_of(key), std::nullopt) << key;
  EXPECT_TRUE(is_law_key("contact.a.b.law"));
  // A misspelt key of a pair is refused, the right one suggested.
  try {
    CaseConfig::parse(text + "[contact.steel.ptfe]\nrestitutoin = 0.5\n", "pairs.ini");
    ADD_FAILURE() << "accepted";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("contact.steel.ptfe.restitution"), std::string::npos)
        << e.what();
  }
}
