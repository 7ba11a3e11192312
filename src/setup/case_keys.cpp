// The case keys, declared once: each key's name, the field of CaseSpec it fills, its unit,
// range, default and description. Reading a case (case_keys(), CaseConfig::parse), checking a
// value (check_key_value), `chaindem case-format` and docs/case-format.md, and the typed case the
// set-up reads (read_case_spec) all derive from these declarations.

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

#include "chaindem/laws/law.hpp"
#include "chaindem/setup/case_spec.hpp"

namespace chaindem {
namespace {

constexpr double inf = ValueRange::inf;
using Range = ValueRange;
using Settings = SimulationSettings;

/// What a declaration says of a key besides its name, its field and its type.
struct KeyText {
  std::string unit = "-";
  std::string description;
  ValueRange range = {};
  std::string default_value = {};  ///< as text; empty: no default
  bool required = false;
  std::vector<std::string> choices = {};  ///< a word's allowed values (empty: any)
  bool changes_no_result = false;         ///< KeySpec::changes_no_result
};

/// One declared key: what reading and documenting it need, how its value fills its field, and
/// where that field is in a CaseSpec (for messages that name the key of a field).
struct KeyEntry {
  KeySpec spec;
  std::function<void(const CaseConfig&, CaseSpec&)> read;
  std::function<const void*(const CaseSpec&)> field;
};

/// The same for a key of every section of a kind ([material.NAME], [contact.A.B]): its key is
/// the section's prefix + `name`, and it fills a field of the section's Spec.
template <class Spec>
struct SectionKeyEntry {
  std::string name;
  KeySpec spec;  ///< its key without the section
  std::function<void(const CaseConfig&, const std::string& key, Spec&)> read;
  std::function<const void*(const Spec&)> field;
};
using MaterialKeyEntry = SectionKeyEntry<MaterialSpec>;
using PairKeyEntry = SectionKeyEntry<PairContactSpec>;

// How a field of each type is read from a validated value.
template <class T>
struct Field;
template <>
struct Field<double> {
  static constexpr ValueKind kind = ValueKind::number;
  static double read(const CaseConfig& c, const std::string& k) { return c.number(k); }
};
template <>
struct Field<long long> {
  static constexpr ValueKind kind = ValueKind::integer;
  static long long read(const CaseConfig& c, const std::string& k) { return c.integer(k); }
};
template <>
struct Field<int> {
  static constexpr ValueKind kind = ValueKind::integer;
  static int read(const CaseConfig& c, const std::string& k) {
    return static_cast<int>(c.integer(k));
  }
};
template <>
struct Field<bool> {
  static constexpr ValueKind kind = ValueKind::boolean;
  static bool read(const CaseConfig& c, const std::string& k) { return c.flag(k); }
};
template <>
struct Field<std::string> {
  static constexpr ValueKind kind = ValueKind::word;  // a declaration may say text
  static std::string read(const CaseConfig& c, const std::string& k) { return c.text(k); }
};
template <>
struct Field<std::vector<double>> {
  static constexpr ValueKind kind = ValueKind::number_list;
  static std::vector<double> read(const CaseConfig& c, const std::string& k) {
    return c.numbers(k);
  }
};
template <>
struct Field<std::vector<std::string>> {
  static constexpr ValueKind kind = ValueKind::word_list;
  static std::vector<std::string> read(const CaseConfig& c, const std::string& k) {
    return c.words(k);
  }
};
template <>
struct Field<BeadList<double>> {
  static constexpr ValueKind kind = ValueKind::bead_numbers;
  static BeadList<double> read(const CaseConfig& c, const std::string& k) {
    return parse_bead_numbers(c.text(k));  // validated
  }
};
template <>
struct Field<BeadList<std::string>> {
  static constexpr ValueKind kind = ValueKind::bead_words;
  static BeadList<std::string> read(const CaseConfig& c, const std::string& k) {
    return parse_bead_list(c.text(k));  // validated
  }
};
template <>
struct Field<std::array<double, 3>> {
  static constexpr ValueKind kind = ValueKind::vector3;
  static std::array<double, 3> read(const CaseConfig& c, const std::string& k) {
    const auto v = c.numbers(k);  // validated: three numbers
    return {v[0], v[1], v[2]};
  }
};
// An optional field: a key without a default, empty when the case does not give it.
template <class T>
struct Field<std::optional<T>> {
  static constexpr ValueKind kind = Field<T>::kind;
  static std::optional<T> read(const CaseConfig& c, const std::string& k) {
    return Field<T>::read(c, k);
  }
};

KeySpec spec_of(std::string name, ValueKind kind, KeyText text) {
  return {.key = std::move(name),
          .kind = kind,
          .unit = std::move(text.unit),
          .description = std::move(text.description),
          .range = text.range,
          .default_value = std::move(text.default_value),
          .required = text.required,
          .choices = std::move(text.choices),
          .changes_no_result = text.changes_no_result};
}

/// Key `name` fills `field` of `section`.
template <class S, class T>
KeyEntry key(S CaseSpec::*section, T S::*field, std::string name, KeyText text,
             ValueKind kind = Field<T>::kind) {
  KeyEntry e{spec_of(name, kind, std::move(text)), {}, {}};
  e.read = [=](const CaseConfig& c, CaseSpec& spec) {
    if (c.has(name)) spec.*section.*field = Field<T>::read(c, name);
  };
  e.field = [=](const CaseSpec& spec) -> const void* { return &(spec.*section.*field); };
  return e;
}

/// A word key whose words stand for values of `field`: its choices are the words.
template <class S, class V>
KeyEntry word_key(S CaseSpec::*section, V S::*field, std::string name,
                  std::vector<std::pair<std::string, V>> words, KeyText text) {
  for (const auto& [word, value] : words) text.choices.push_back(word);
  KeyEntry e{spec_of(name, ValueKind::word, std::move(text)), {}, {}};
  e.read = [=](const CaseConfig& c, CaseSpec& spec) {
    const std::string& given = c.text(name);  // validated: one of the words
    for (const auto& [word, value] : words)
      if (word == given) spec.*section.*field = value;
  };
  e.field = [=](const CaseSpec& spec) -> const void* { return &(spec.*section.*field); };
  return e;
}

/// A key of a section of a kind that fills `field` of its Spec.
template <class Spec, class T>
SectionKeyEntry<Spec> section_key(T Spec::*field, std::string name, KeyText text) {
  SectionKeyEntry<Spec> e{name, spec_of(name, Field<T>::kind, std::move(text)), {}, {}};
  e.read = [=](const CaseConfig& c, const std::string& key, Spec& m) {
    if (c.has(key)) m.*field = Field<T>::read(c, key);
  };
  e.field = [=](const Spec& m) -> const void* { return &(m.*field); };
  return e;
}

// The words of a tension policy ([contact] and [contact.A.B]): "law" is the law's own.
const std::vector<std::pair<std::string, std::optional<TensionPolicy>>> tension_words{
    {"law", std::nullopt}, {"clamp", TensionPolicy::clamp}, {"allow", TensionPolicy::allow}};
const char* const tension_description =
    "law: the law's own policy (`chaindem models`); clamp: force never attractive, bodies "
    "separate at F = 0; allow: tensile force allowed until the overlap closes";

// The laws a case may name: every law, and the old names still read.
std::vector<std::string> law_names() {
  std::vector<std::string> ids;
  for (const auto& law : all_laws()) ids.emplace_back(law.id);
  for (const RenamedLaw& r : renamed_laws()) ids.emplace_back(r.old_id);
  return ids;
}

void simulation_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::simulation;
  k.push_back(key(
      s, &SimulationSpec::duration, "simulation.duration",
      {.unit = "s", .description = "simulated time", .range = Range::above(0), .required = true}));
  k.push_back(key(s, &SimulationSpec::time_step, "simulation.time_step",
                  {.unit = "s",
                   .description = "time step; 0 chooses it from the contact physics (see "
                                  "steps_per_contact)",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &SimulationSpec::steps_per_contact, "simulation.steps_per_contact",
                  {.description = "automatic time step = shortest contact duration / this number "
                                  "(the Hertz duration of the stiffest pair at the largest "
                                  "relative speed of the case)",
                   .range = Range::at_least(10),
                   .default_value = "50"}));
  k.push_back(key(s, &SimulationSpec::skin, "simulation.skin",
                  {.unit = "m",
                   .description = "neighbor skin: pairs closer than this are tracked (0: 0.2 x "
                                  "smallest radius)",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &SimulationSpec::threads, "simulation.threads",
                  {.description = "OpenMP threads for the force loops (0: OMP_NUM_THREADS or all "
                                  "cores); results are bitwise identical for any count",
                   .range = Range::closed(0, max_threads),
                   .default_value = "0",
                   .changes_no_result = true}));
  k.push_back(word_key(
      s, &SimulationSpec::integrator, "simulation.integrator",
      {{"second_order", Settings::Integrator::second_order},
       {"lammps", Settings::Integrator::lammps}},
      {.description = "second_order: velocity Verlet with the damping at the velocity predicted "
                      "for the end of the step and the impulse sampling misses at contact edges "
                      "added (trajectories second order in dt for every law); lammps: velocity "
                      "Verlet as LAMMPS and LIGGGHTS step it, damping at the half-step velocity "
                      "(first order; step for step the peers' results)",
       .default_value = "second_order"}));
  k.push_back(word_key(
      s, &SimulationSpec::engine, "simulation.engine",
      {{"auto", Settings::EngineChoice::automatic},
       {"general", Settings::EngineChoice::general},
       {"chain", Settings::EngineChoice::chain}},
      {.description = "auto: the 1D chain engine when the particles form a chain on the x axis "
                      "(docs/engine.md), else the general 3D engine; general: always the 3D "
                      "engine; chain: the chain engine, an error if the case is not a chain",
       .default_value = "auto"}));
}

// A law parameter of [contact]: every law's parameters share the section, each declared once
// (its range is the law's, checked when the law is known).
KeyEntry law_param_key(const ParamSpec& p) {
  const std::string param(p.key), name = contact_param_key(p.key);
  KeyEntry e{spec_of(name, ValueKind::number,
                     {.unit = std::string(p.unit),
                      .description = std::string(p.description) + " (law parameter; range per law)",
                      .range = Range::any()}),
             {},
             {}};
  e.spec.law_parameter = true;
  e.read = [=](const CaseConfig& c, CaseSpec& spec) {
    if (c.has(name)) spec.contact.params[param] = c.number(name);
  };
  e.field = [=](const CaseSpec& spec) -> const void* {
    const auto it = spec.contact.params.find(param);
    return it == spec.contact.params.end() ? nullptr : &it->second;
  };
  return e;
}

void contact_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::contact;
  k.push_back(key(s, &ContactSpec::law, "contact.law",
                  {.description = "normal contact law (`chaindem models` lists them)",
                   .required = true,
                   .choices = law_names()}));
  k.push_back(word_key(s, &ContactSpec::tension, "contact.tension", tension_words,
                       {.description = tension_description, .default_value = "law"}));
  using Policy = Settings::ImpactVelocity;
  k.push_back(word_key(
      s, &ContactSpec::impact_velocity, "contact.impact_velocity",
      {{"energy", Policy::energy},
       {"peak", Policy::peak},
       {"onset", Policy::onset},
       {"reference", Policy::reference}},
      {.description =
           "laws with the impact velocity v0 in their damping (hysteresis family): energy, v0 = "
           "the largest value, over the contact's life so far, of its approach rate and of the "
           "speed whose kinetic energy equals the energy it stores (a running maximum of both, "
           "not the stored energy's speed of the moment: v0 never falls during a contact; equals "
           "the onset rate for an impact from apart; needs no floor for touching beads); peak, "
           "the largest approach rate alone; onset, the approach rate at first touch, raised to "
           "contact.impact_velocity_floor; reference, contact.reference_velocity for every "
           "contact (Hunt and Crossley's constant damping). docs/engine.md, \"Impact velocity\"",
       .default_value = "energy"}));
  k.push_back(key(s, &ContactSpec::reference_velocity, "contact.reference_velocity",
                  {.unit = "m/s",
                   .description = "v0 of every contact under contact.impact_velocity = reference "
                                  "(0: the case's largest relative speed)",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(word_key(
      s, &ContactSpec::static_origin, "contact.hysteresis_origin",
      {{"static", true}, {"zero", false}},
      {.description = "laws with v0 in their damping, contacts that start pre-compressed: static "
                      "measures the damping from the initial overlap (only the dynamic part of "
                      "the force is damped); zero from delta = 0, as for an impact",
       .default_value = "static"}));
  std::set<std::string_view> seen;
  for (const auto& law : all_laws())
    for (const auto& p : law.params)
      if (seen.insert(p.key).second) k.push_back(law_param_key(p));
}

void chain_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::chain;
  k.push_back(key(
      s, &ChainSpec::count, "chain.count",
      {.description = "number of chain beads", .range = Range::closed(1, 5e7), .required = true}));
  k.push_back(key(s, &ChainSpec::materials, "chain.materials",
                  {.description = "bead materials, a pattern repeated along the chain (one: "
                                  "uniform, two: dimer, chain.count of them: explicit), at most "
                                  "chain.count beads long; `steel*10 ptfe*10` repeats an item, "
                                  "`(steel ptfe)*5` a group, `steel 12=brass` sets bead 12 apart "
                                  "(-1: the last bead)",
                   .required = true}));
  k.push_back(key(s, &ChainSpec::radii, "chain.radii",
                  {.unit = "m",
                   .description = "bead radii, a pattern repeated along the chain written as "
                                  "chain.materials is",
                   .range = Range::closed(min_radius, max_radius),
                   .required = true}));
  k.push_back(key(s, &ChainSpec::velocity, "chain.velocity",
                  {.unit = "m/s",
                   .description = "bead velocities along +x at the start, a pattern repeated "
                                  "along the chain written as chain.materials is (one: every "
                                  "bead); the striker's is striker.velocity (default: at rest)",
                   .range = Range::closed(-max_speed, max_speed)}));
  k.push_back(key(s, &ChainSpec::taper, "chain.taper",
                  {.description = "radius ratio between consecutive beads: r_k = radii[k mod p] "
                                  "taper^k",
                   .range = Range::above(0),
                   .default_value = "1"}));
  k.push_back(key(s, &ChainSpec::gap, "chain.gap",
                  {.unit = "m",
                   .description = "initial surface gap between consecutive chain beads; not "
                                  "between the striker and the first bead, which striker.gap sets",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &ChainSpec::overlap, "chain.overlap",
                  {.unit = "m",
                   .description = "initial overlap between consecutive beads",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &ChainSpec::end_force, "chain.end_force",
                  {.unit = "N",
                   .description = "constant load on the chain: pushes the last bead towards the "
                                  "start (against wall_start), or, with wall_end alone, the first "
                                  "bead towards the end",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &ChainSpec::cylinder_length, "chain.cylinder_length",
                  {.unit = "m",
                   .description = "0: the bodies are spheres; > 0: every body (striker, beads, "
                                  "extra particles) is a cylinder of this axial length, axes "
                                  "parallel (along z), in line contact: mass rho pi R^2 L, and "
                                  "the cylindrical laws take L from it",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &ChainSpec::static_overlap, "chain.static_overlap",
                  {.description = "start every bead contact and the loaded wall contact at the "
                                  "static overlap that carries end_force (needs the wall the load "
                                  "pushes against)",
                   .default_value = "false"}));
}

void striker_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::striker;
  k.push_back(key(s, &StrikerSpec::enabled, "striker.enabled",
                  {.description = "false removes the striker a case defines (handy with --set)",
                   .default_value = "true"}));
  k.push_back(key(s, &StrikerSpec::material, "striker.material",
                  {.description = "striker material (default: the first bead's)"}));
  k.push_back(key(s, &StrikerSpec::radius, "striker.radius",
                  {.unit = "m",
                   .description = "striker radius (default: the first bead's)",
                   .range = Range::closed(min_radius, max_radius)}));
  k.push_back(key(s, &StrikerSpec::velocity, "striker.velocity",
                  {.unit = "m/s",
                   .description = "striker speed towards the chain; giving it adds the striker",
                   .range = Range::above_to(0, max_speed)}));
  k.push_back(key(s, &StrikerSpec::gap, "striker.gap",
                  {.unit = "m",
                   .description = "surface gap between the striker and the first chain bead "
                                  "(chain.gap does not apply there)",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
}

void wall_keys(std::vector<KeyEntry>& k) {
  for (const auto& [section, s, where] :
       {std::tuple{&CaseSpec::wall_start, std::string("wall_start"),
                   std::string("before the first body (striker or bead 0)")},
        std::tuple{&CaseSpec::wall_end, std::string("wall_end"),
                   std::string("after the last bead")}}) {
    k.push_back(key(section, &WallSpec::enabled, s + ".enabled",
                    {.description = "planar wall " + where, .default_value = "false"}));
    k.push_back(key(section, &WallSpec::material, s + ".material",
                    {.description = "wall material (required if enabled)"}));
    k.push_back(key(section, &WallSpec::gap, s + ".gap",
                    {.unit = "m",
                     .description = "gap between the wall and the nearest bead surface",
                     .range = Range::at_least(0),
                     .default_value = "0"}));
    k.push_back(key(section, &WallSpec::velocity, s + ".velocity",
                    {.unit = "m/s",
                     .description = "prescribed wall velocity along +x",
                     .range = Range::closed(-max_speed, max_speed),
                     .default_value = "0"}));
  }
}

void body_keys(std::vector<KeyEntry>& k) {
  k.push_back(key(&CaseSpec::gravity, &GravitySpec::acceleration, "gravity.acceleration",
                  {.unit = "m/s^2",
                   .description = "gravitational acceleration (the chain lies along +x)",
                   .range = Range::open(-inf, inf),
                   .default_value = "0 0 0"}));
  k.push_back(key(&CaseSpec::extra, &ExtraSpec::particles, "extra.particles",
                  {.description = "additional spheres off the chain, ';'-separated records "
                                  "'material radius x y z vx vy vz' (SI units)"},
                  ValueKind::text));
  k.push_back(key(
      &CaseSpec::initial, &InitialSpec::file, "initial.file",
      {.description =
           "start from data: a CSV file (header naming the columns x, vx, and optionally y, z, "
           "vy, vz, radius, material; one row per body) or a chaindem HDF5 output (.h5, .hdf5, "
           "or any file with the HDF5 signature), relative to the case file's directory. It "
           "gives the positions and velocities (a CSV optionally, an output always, the radii "
           "and materials) of every body the case builds, in the order of /particles/chain: the "
           "striker, the chain beads, the extra particles; masses follow from radius and "
           "density; walls keep their gap to the bodies, or an output's walls their place at "
           "the frame. Contacts start without history (plastic deformation, impact velocities); "
           "`chaindem run --restart` from a checkpoint continues a run exactly. Empty: the "
           "case's own set-up. docs/engine.md, \"Starting from data\""},
      ValueKind::text));
  k.push_back(key(&CaseSpec::initial, &InitialSpec::frame, "initial.frame",
                  {.description = "the frame of an HDF5 initial.file to start from (0-based; "
                                  "negative counts from the end: -1 is the last frame); another "
                                  "frame needs initial.file",
                   .range = Range::closed(-1e9, 1e9),
                   .default_value = "-1"}));
}

// output.particles_interval, output.observables_interval, output.contacts_interval.
void output_group_interval_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::output;
  const auto group_interval = [&](double OutputSpec::*field, const char* name, const char* what) {
    return key(s, field, name,
               {.unit = "s",
                .description = std::string("interval between the frames that hold ") + what +
                               ", a whole number of output frames (0: every frame); the last "
                               "frame always holds them",
                .range = Range::at_least(0),
                .default_value = "0"});
  };
  k.push_back(group_interval(&OutputSpec::particles_interval, "output.particles_interval",
                             "the positions, velocities and forces"));
  k.push_back(group_interval(&OutputSpec::observables_interval, "output.observables_interval",
                             "the energies, the momentum and the walls' positions"));
  k.push_back(
      group_interval(&OutputSpec::contacts_interval, "output.contacts_interval", "the contacts"));
}

void output_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::output;
  k.push_back(key(s, &OutputSpec::file, "output.file",
                  {.description = "HDF5 output file (default: out/CASE.h5, named after the case "
                                  "file and the command line's changes, docs/output-format.md; "
                                  "`run -o` overrides)",
                   .changes_no_result = true},
                  ValueKind::text));
  k.push_back(key(s, &OutputSpec::interval, "output.interval",
                  {.unit = "s",
                   .description = "time between output frames (0: duration/200); an automatic "
                                  "time step is shortened so that frames fall on it, a given one "
                                  "gives frames every whole number of steps, which the run's "
                                  "summary says when it differs",
                   .range = Range::at_least(0),
                   .default_value = "0"}));
  k.push_back(key(s, &OutputSpec::every, "output.every",
                  {.description = "steps between output frames, instead of output.interval (0: "
                                  "frames by the interval)",
                   .range = Range::closed(0, 1e12),
                   .default_value = "0"}));
  output_group_interval_keys(k);
  k.push_back(key(s, &OutputSpec::quantities, "output.quantities",
                  {.description = "the time series written: all, or some of position (always "
                                  "written), velocity, force, the energies (energies: all of "
                                  "them; kinetic_energy, stored_energy, ...), momentum, "
                                  "wall_position, the contacts' (contacts: all of them; overlap, "
                                  "normal_force, approach_rate, impact_velocity), or none (no "
                                  "frame: the summary, parameters and particles alone)",
                   .default_value = "all"}));
  k.push_back(key(s, &OutputSpec::beads, "output.beads",
                  {.description = "whose positions, velocities and forces are written: all, or "
                                  "some of striker, chain beads K (from 0; negative from the end) "
                                  "and ranges A:B or A:B:S (beads A to B inclusive, every S-th; "
                                  "0:-1:10 is every tenth bead); the series then hold those "
                                  "particles, in order, and /particles/chain/id their indices",
                   .default_value = "all"}));
  k.push_back(
      key(s, &OutputSpec::contacts, "output.contacts",
          {.description = "write the per-contact overlap and force", .default_value = "true"}));
  k.push_back(word_key(
      s, &OutputSpec::compression, "output.compression",
      {{"gzip", Compression::gzip}, {"lzf", Compression::lzf}, {"none", Compression::none}},
      {.description = "filter of the output's large datasets: gzip (shuffle + deflate, built into "
                      "every HDF5), lzf (faster, larger files; needs the HDF5 LZF plugin, Debian "
                      "package hdf5-plugin-lzf), none (largest files); every value is stored "
                      "exactly (docs/output-format.md)",
       .default_value = "gzip",
       .changes_no_result = true}));
  k.push_back(word_key(
      s, &OutputSpec::dimension, "output.dimension",
      {{"auto", OutputDimension::automatic}, {"3", OutputDimension::three}},
      {.description = "components of the positions, velocities and forces written: auto (x alone "
                      "for a chain on the x axis, whose y and z stay zero; x, y and z otherwise), "
                      "3 (always x, y and z) (docs/output-format.md)",
       .default_value = "auto",
       .changes_no_result = true}));
  k.push_back(key(s, &OutputSpec::max_file_size, "output.max_file_size",
                  {.unit = "bytes",
                   .description = "the largest output (HDF5 before compression, and XDMF) a run "
                                  "may write: a run that would write more is refused before it "
                                  "starts, and an automatic output.interval (0) writes fewer "
                                  "frames to stay within it",
                   .range = Range::closed(1e6, 1e15),
                   .default_value = "4e9",
                   .changes_no_result = true}));
  k.push_back(key(s, &OutputSpec::xdmf, "output.xdmf",
                  {.description = "write NAME.xdmf beside the output NAME.h5, for ParaView (about "
                                  "200 bytes of XML per frame and vector)",
                   .default_value = "true",
                   .changes_no_result = true}));
  k.push_back(key(s, &OutputSpec::arrival_beads, "output.arrival_beads",
                  {.description = "chain beads (0-based; negative counts from the end) whose "
                                  "pulse arrival time goes to the summary",
                   .range = Range::closed(-1e9, 1e9),
                   .default_value = "0 -1"}));
  k.push_back(key(s, &OutputSpec::arrival_threshold, "output.arrival_threshold",
                  {.description = "the pulse has arrived at a bead when its speed first reaches "
                                  "this fraction of the largest initial speed (striker or wall)",
                   .range = Range::above_to(0, 1),
                   .default_value = "0.1"}));
  k.push_back(key(s, &OutputSpec::checkpoint_interval, "output.checkpoint_interval",
                  {.unit = "s",
                   .description = "wall-clock time between checkpoints of `chaindem run` (0: a "
                                  "checkpoint only on SIGTERM or SIGHUP); the output is then "
                                  "written so that it stays readable up to the last checkpoint "
                                  "if the run is killed; continue with `run --restart`",
                   .range = Range::closed(0, 1e9),
                   .default_value = "0",
                   .changes_no_result = true}));
}

const std::vector<KeyEntry>& entries() {
  static const std::vector<KeyEntry> all = [] {
    std::vector<KeyEntry> k;
    simulation_keys(k);
    contact_keys(k);
    chain_keys(k);
    striker_keys(k);
    wall_keys(k);
    body_keys(k);
    output_keys(k);
    return k;
  }();
  return all;
}

const std::vector<MaterialKeyEntry>& material_entries() {
  static const std::vector<MaterialKeyEntry> all{
      section_key(&MaterialSpec::youngs_modulus, "youngs_modulus",
                  {.unit = "Pa",
                   .description = "Young's modulus E",
                   .range = Range::above(0),
                   .required = true}),
      section_key(&MaterialSpec::poisson_ratio, "poisson_ratio",
                  {.description = "Poisson's ratio nu",
                   .range = Range::above_to(-1, 0.5),
                   .required = true}),
      section_key(&MaterialSpec::density, "density",
                  {.unit = "kg/m^3",
                   .description = "mass density",
                   .range = Range::above(0),
                   .required = true}),
      section_key(
          &MaterialSpec::yield_stress, "yield_stress",
          {.unit = "Pa", .description = "yield stress (plastic laws)", .range = Range::above(0)}),
  };
  return all;
}

// [material.NAME] sections: their keys are material.NAME.FIELD, NAME without a dot.
constexpr std::string_view material_section = "material.";

std::string material_prefix(const std::string& name) {
  return std::string(material_section) + name + ".";
}

// The keys of a [contact.A.B] section: the law and the tension policy as [contact] has them,
// without a default (the section takes [contact]'s), and every law parameter.
const std::vector<PairKeyEntry>& pair_entries() {
  static const std::vector<PairKeyEntry> all = [] {
    std::vector<PairKeyEntry> k{section_key(
        &PairContactSpec::law, "law",
        {.description = "the pair's contact law (default: contact.law)", .choices = law_names()})};
    PairKeyEntry tension{
        "tension",
        spec_of("tension", ValueKind::word,
                {.description = std::string(tension_description) + " (default: contact.tension)"}),
        {},
        {}};
    for (const auto& [word, value] : tension_words) tension.spec.choices.push_back(word);
    tension.read = [](const CaseConfig& c, const std::string& key, PairContactSpec& p) {
      if (!c.has(key)) return;
      for (const auto& [word, value] : tension_words)
        if (word == c.text(key)) p.tension = value;  // validated: one of the words
    };
    tension.field = [](const PairContactSpec& p) -> const void* { return &p.tension; };
    k.push_back(tension);
    std::set<std::string_view> seen;
    for (const auto& law : all_laws())
      for (const ParamSpec& p : law.params) {
        if (!seen.insert(p.key).second) continue;
        const std::string param(p.key);
        PairKeyEntry e{param, law_param_key(p).spec, {}, {}};
        e.spec.key = param;
        e.read = [=](const CaseConfig& c, const std::string& key, PairContactSpec& pair) {
          if (c.has(key)) pair.params[param] = c.number(key);
        };
        e.field = [=](const PairContactSpec& pair) -> const void* {
          const auto it = pair.params.find(param);
          return it == pair.params.end() ? nullptr : &it->second;
        };
        k.push_back(e);
      }
    return k;
  }();
  return all;
}

// [contact.A.B] sections: their keys are contact.A.B.KEY, A and B without a dot.
std::string pair_prefix(const std::string& pair) {
  return contact_param_key(pair) + ".";
}

// The declaration of `key` among a section's entries, its key made whole.
template <class Entry>
std::optional<KeySpec> find_in(const std::vector<Entry>& entries, const std::string& prefix,
                               std::string_view key) {
  for (const Entry& e : entries)
    if (key.substr(prefix.size()) == e.name) {
      KeySpec spec = e.spec;
      spec.key = key;
      return spec;
    }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> material_of(std::string_view key) {
  const std::size_t start = material_section.size();
  const auto dot = key.find('.', start);
  if (!key.starts_with(material_section) || dot == std::string_view::npos) return std::nullopt;
  return std::string(key.substr(start, dot - start));
}

bool is_law_key(std::string_view key) {
  if (key == key_name(&CaseSpec::contact, &ContactSpec::law)) return true;
  const std::optional<std::string> pair = contact_pair_of(key);
  return pair && key == pair_key_name(*pair, &PairContactSpec::law);
}

std::optional<std::string> contact_pair_of(std::string_view key) {
  const std::string section = contact_param_key("");
  if (!key.starts_with(section)) return std::nullopt;
  const std::string_view rest = key.substr(section.size());  // A.B.KEY, each without a dot
  const auto first = rest.find('.');
  const auto second = first == std::string_view::npos ? first : rest.find('.', first + 1);
  if (second == std::string_view::npos || first == 0 || second == first + 1 ||
      rest.find('.', second + 1) != std::string_view::npos || second + 1 == rest.size())
    return std::nullopt;
  return std::string(rest.substr(0, second));
}

std::string pair_param_key(const std::string& pair, std::string_view name) {
  return pair_prefix(pair) + std::string(name);
}

std::string pair_as_written(const CaseConfig& config, const std::string& pair) {
  const auto dot = pair.find('.');
  if (dot == std::string::npos) return pair;
  const std::string reversed = pair.substr(dot + 1) + "." + pair.substr(0, dot);
  const std::vector<std::string>& written = config.contact_pairs();
  auto has = [&](const std::string& p) {
    return std::find(written.begin(), written.end(), p) != written.end();
  };
  return has(reversed) && !has(pair) ? reversed : pair;
}

std::vector<KeySpec> contact_pair_keys(const std::string& pair) {
  std::vector<KeySpec> keys;
  for (const PairKeyEntry& e : pair_entries()) {
    keys.push_back(e.spec);
    keys.back().key = pair_prefix(pair) + e.name;
  }
  return keys;
}

std::optional<std::string> contact_param_name(std::string_view key) {
  const std::string prefix = contact_param_key("");
  if (!key.starts_with(prefix)) return std::nullopt;
  return std::string(key.substr(prefix.size()));
}

std::string contact_param_key(std::string_view name) {
  return "contact." + std::string(name);
}

const std::vector<KeySpec>& case_keys() {
  static const std::vector<KeySpec> keys = [] {
    std::vector<KeySpec> k;
    for (const KeyEntry& e : entries()) k.push_back(e.spec);
    return k;
  }();
  return keys;
}

std::vector<KeySpec> material_keys(const std::string& name) {
  std::vector<KeySpec> keys;
  for (const MaterialKeyEntry& e : material_entries()) {
    keys.push_back(e.spec);
    keys.back().key = material_prefix(name) + e.name;
  }
  return keys;
}

const KeySpec* find_section_key(std::string_view key) {
  static const std::unordered_map<std::string_view, const KeySpec*> keys = [] {
    std::unordered_map<std::string_view, const KeySpec*> index;
    for (const KeyEntry& e : entries()) index.emplace(e.spec.key, &e.spec);  // the first wins
    return index;
  }();
  const auto it = keys.find(key);
  return it == keys.end() ? nullptr : it->second;
}

std::optional<KeySpec> find_key(std::string_view key) {
  if (const KeySpec* spec = find_section_key(key)) return *spec;
  if (const std::optional<std::string> material = material_of(key))
    return find_in(material_entries(), material_prefix(*material), key);
  if (const std::optional<std::string> pair = contact_pair_of(key))
    return find_in(pair_entries(), pair_prefix(*pair), key);
  return std::nullopt;
}

bool changes_no_result(const std::string& key) {
  const std::optional<KeySpec> spec = find_key(key);
  return spec && spec->changes_no_result;
}

CaseSpec read_case_spec(const CaseConfig& config) {
  CaseSpec spec;
  for (const KeyEntry& e : entries()) e.read(config, spec);
  for (const std::string& name : config.materials()) {
    MaterialSpec& m = spec.materials[name];
    for (const MaterialKeyEntry& e : material_entries())
      e.read(config, material_prefix(name) + e.name, m);
  }
  for (const std::string& pair : config.contact_pairs()) {
    PairContactSpec& p = spec.contact_pairs[pair];
    for (const PairKeyEntry& e : pair_entries()) e.read(config, pair_prefix(pair) + e.name, p);
  }
  return spec;
}

std::string key_of(const CaseSpec& spec, const void* field) {
  for (const KeyEntry& e : entries())
    if (field && e.field(spec) == field) return e.spec.key;
  for (const auto& [name, m] : spec.materials)
    for (const MaterialKeyEntry& e : material_entries())
      if (e.field(m) == field) return material_prefix(name) + e.name;
  for (const auto& [pair, p] : spec.contact_pairs)
    for (const PairKeyEntry& e : pair_entries())
      if (e.field(p) == field) return pair_prefix(pair) + e.name;
  throw std::logic_error("key_of: not a field of the case");
}

}  // namespace chaindem
