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

#include "case_key_entry.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/setup/case_spec.hpp"

namespace chaindem {
namespace {

using namespace case_key_detail;

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
      s, &SimulationSpec::error_estimate, "simulation.error_estimate",
      {{"auto", ErrorEstimate::automatic}, {"on", ErrorEstimate::on}, {"off", ErrorEstimate::off}},
      {.description =
           "estimate the run's time-discretisation error from a second run at half the step "
           "beside it (twice the run's steps: up to three times the time, and the simulation's "
           "memory twice), stated in the summary: auto, for the runs of `chaindem run` and "
           "chaindem.run() of at most 200000 particles (not for the cases of sweep, compare and "
           "fit); on, every run; off, none. docs/engine.md, \"Accuracy of a run\"",
       .default_value = "auto"}));
  k.push_back(key(s, &SimulationSpec::accuracy, "simulation.accuracy",
                  {.description = "the velocity error the run should reach at every frame, "
                                  "relative to the largest speed (0: none): a first run at the "
                                  "automatic step estimates its error (simulation.error_estimate), "
                                  "and the run takes the step that reaches this one (the error "
                                  "goes as dt^2); `chaindem run` and chaindem.run() only, "
                                  "instead of simulation.time_step",
                   .range = Range::closed(0, 0.1),
                   .default_value = "0"}));
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

// The keys of a driven end load: end_force + dF(t), dF as a wall's motion read in newtons,
// exact at each step's time (docs/driven.md, "A driven end load").
void end_force_drive_keys(std::vector<KeyEntry>& k) {
  constexpr auto s = &CaseSpec::chain;
  k.push_back(word_key(
      s, &ChainSpec::end_force_motion, "chain.end_force_motion",
      {{"constant", WallMotion::constant},
       {"harmonic", WallMotion::harmonic},
       {"table", WallMotion::table}},
      {.description = "how the end load changes beside end_force, along it on the same bead, as "
                      "a force shaker drives it: constant (not at all), harmonic "
                      "(chain.end_force_amplitude, _frequency, _phase, _ramp) or table "
                      "(chain.end_force_table, _interpolation); the load may pull",
       .default_value = "constant"}));
  k.push_back(key(s, &ChainSpec::end_force_amplitude, "chain.end_force_amplitude",
                  {.unit = "N",
                   .description = "harmonic end load: the amplitude of each term (F = end_force "
                                  "+ sum A_k sin(2 pi f_k t + phi_k), times the ramp)",
                   .range = Range::closed(-1e9, 1e9)}));
  k.push_back(key(s, &ChainSpec::end_force_frequency, "chain.end_force_frequency",
                  {.unit = "Hz",
                   .description = "harmonic end load: the frequency of each term, as many as "
                                  "amplitudes",
                   .range = Range::above_to(0, 1e12)}));
  k.push_back(key(s, &ChainSpec::end_force_phase, "chain.end_force_phase",
                  {.unit = "rad",
                   .description = "harmonic end load: the phase of each term, as many as "
                                  "amplitudes (not given: 0 for every term)",
                   .range = Range::closed(-1e3, 1e3)}));
  k.push_back(key(s, &ChainSpec::end_force_ramp, "chain.end_force_ramp",
                  {.unit = "s",
                   .description = "harmonic end load: the oscillation grows from 0 over this "
                                  "time as 10 u^3 - 15 u^4 + 6 u^5 (u = t / ramp) (0: none)",
                   .range = Range::closed(0, 1e6),
                   .default_value = "0"}));
  k.push_back(key(s, &ChainSpec::end_force_table, "chain.end_force_table",
                  {.description = "table end load: a CSV file (relative to the case file's "
                                  "directory) with columns t [s] and F [N], the load's change "
                                  "from end_force: t from 0, strictly increasing, to "
                                  "simulation.duration or beyond; F(0) = 0"},
                  ValueKind::text));
  k.push_back(word_key(
      s, &ChainSpec::end_force_interpolation, "chain.end_force_interpolation",
      {{"makima", Motion::Interpolation::makima}, {"linear", Motion::Interpolation::linear}},
      {.description = "table end load: how samples are joined: makima (modified Akima, Akima "
                      "1970) or linear",
       .default_value = "makima"}));
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
  k.push_back(word_key(
      s, &ChainSpec::held_by_walls, "chain.held_by", {{"load", false}, {"walls", true}},
      {.description = "load: end_force is a constant load on an end bead; walls: the chain is "
                      "squeezed between wall_start and wall_end, each placed at the static "
                      "overlap that carries end_force, and no load acts (needs both walls, "
                      "static_overlap and no striker): a driven wall then shakes a "
                      "pre-compressed chain whose far wall feels what passes",
       .default_value = "load"}));
  end_force_drive_keys(k);
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

// The keys of a wall on the path of a slider-crank's slider (docs/driven.md).
void slider_crank_keys(std::vector<KeyEntry>& k, WallSpec CaseSpec::*section,
                       const std::string& s) {
  k.push_back(key(section, &WallSpec::crank_radius, s + ".crank_radius",
                  {.unit = "m",
                   .description = "slider_crank motion: the crank's radius r (the crank pin "
                                  "runs on (r cos phi, e + r sin phi) about the pivot)",
                   .range = Range::above_to(0, 10)}));
  k.push_back(key(section, &WallSpec::crank_speed, s + ".crank_speed",
                  {.unit = "rad/s",
                   .description = "slider_crank motion: the crank's constant angular speed "
                                  "omega, phi = crank_angle + omega t (> 0: anticlockwise)",
                   .range = Range::closed(-1e7, 1e7)}));
  k.push_back(key(section, &WallSpec::crank_angle, s + ".crank_angle",
                  {.unit = "deg",
                   .description = "slider_crank motion: the crank's angle phi at t = 0, from +x",
                   .range = Range::closed(-3600, 3600),
                   .default_value = "0"}));
  k.push_back(key(section, &WallSpec::rod_length, s + ".rod_length",
                  {.unit = "m",
                   .description = "slider_crank motion: the rod's length l, longer than "
                                  "crank_radius + abs(crank_offset): the wall moves as the slider, "
                                  "x = r cos phi + side sqrt(l^2 - y^2), y = e + r sin phi, and "
                                  "its contacts push along the rod, their normal at cos beta = "
                                  "sqrt(l^2 - y^2) / l to the wall's",
                   .range = Range::above_to(0, 10)}));
  k.push_back(key(section, &WallSpec::crank_offset, s + ".crank_offset",
                  {.unit = "m",
                   .description = "slider_crank motion: the crank pivot's distance e from the "
                                  "slider's line of stroke",
                   .range = Range::closed(-10, 10),
                   .default_value = "0"}));
  k.push_back(word_key(
      section, &WallSpec::slider_side, s + ".slider_side", {{"+x", 1}, {"-x", -1}},
      {.description = "slider_crank motion: the side of the crank pivot the slider lies on "
                      "(side = +1 or -1 in x)",
       .default_value = "+x"}));
}

// The keys of a driven wall: its motion along +x, exact at each step's time (docs/driven.md).
void wall_motion_keys(std::vector<KeyEntry>& k, WallSpec CaseSpec::*section, const std::string& s) {
  k.push_back(word_key(
      section, &WallSpec::motion, s + ".motion",
      {{"constant", WallMotion::constant},
       {"harmonic", WallMotion::harmonic},
       {"table", WallMotion::table},
       {"slider_crank", WallMotion::slider_crank}},
      {.description = "how the wall moves besides its constant velocity: constant (not at all), "
                      "harmonic (" +
                      s + ".amplitude, .frequency, .phase, .ramp), table (" + s +
                      ".table, .interpolation) or slider_crank (" + s +
                      ".crank_radius, .crank_speed, .crank_angle, .rod_length, .crank_offset, "
                      ".slider_side: the slider of a crank and rod, its contacts oblique)",
       .default_value = "constant"}));
  k.push_back(key(section, &WallSpec::amplitude, s + ".amplitude",
                  {.unit = "m",
                   .description = "harmonic motion: the amplitude of each term, along +x "
                                  "(x = sum A_k sin(2 pi f_k t + phi_k), times the ramp)",
                   .range = Range::closed(-1.0, 1.0)}));
  k.push_back(key(section, &WallSpec::frequency, s + ".frequency",
                  {.unit = "Hz",
                   .description = "harmonic motion: the frequency of each term, as many as "
                                  "amplitudes",
                   .range = Range::above_to(0, 1e12)}));
  k.push_back(key(section, &WallSpec::phase, s + ".phase",
                  {.unit = "rad",
                   .description = "harmonic motion: the phase of each term, as many as "
                                  "amplitudes (not given: 0 for every term)",
                   .range = Range::closed(-1e3, 1e3)}));
  k.push_back(key(section, &WallSpec::ramp, s + ".ramp",
                  {.unit = "s",
                   .description = "harmonic motion: the oscillation grows from rest over this "
                                  "time as 10 u^3 - 15 u^4 + 6 u^5 (u = t / ramp), so that "
                                  "neither velocity nor acceleration jumps at t = 0 (0: none)",
                   .range = Range::closed(0, 1e6),
                   .default_value = "0"}));
  k.push_back(
      key(section, &WallSpec::table, s + ".table",
          {.description = "table motion: a CSV file (relative to the case file's "
                          "directory) with columns t [s] and x [m], the wall's "
                          "displacement along +x from its place at t = 0: t from 0, "
                          "strictly increasing, to simulation.duration or beyond; x(0) = 0"},
          ValueKind::text));
  k.push_back(word_key(
      section, &WallSpec::interpolation, s + ".interpolation",
      {{"makima", Motion::Interpolation::makima}, {"linear", Motion::Interpolation::linear}},
      {.description = "table motion: how samples are joined: makima (modified Akima, Akima "
                      "1970: continuous velocity, no overshoot at flat stretches) or linear "
                      "(velocity constant between samples)",
       .default_value = "makima"}));
  slider_crank_keys(k, section, s);
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
                     .description = "prescribed constant wall velocity along +x (a driven wall "
                                    "moves at it besides its motion)",
                     .range = Range::closed(-max_speed, max_speed),
                     .default_value = "0"}));
    wall_motion_keys(k, section, s);
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
