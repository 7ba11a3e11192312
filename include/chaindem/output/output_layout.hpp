#pragma once
// The layout of chaindem's output files, declared once (docs/output-format.md describes it):
// every quantity a run can write over time (per-particle columns, observables, wall positions,
// contact columns) with its H5MD group, dataset, unit and shape; the run summary (RunSummary,
// and the names and units of its values); what `compare` and `collide -o` write.
//
// The writer (h5md_writer.cpp) iterates these tables, the readers (initial_state.cpp,
// compare_command.cpp, sweep_file.cpp) take their names from them, and the Python reader's
// names, postprocess/chaindem_post/layout.py, are generated from them (layout_python(); a test
// keeps the two equal). A new quantity of a run is a row of one table here, with its value.

#include <algorithm>
#include <array>
#include <bitset>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "chaindem/engine/simulation.hpp"

namespace chaindem::layout {

// ---- groups and datasets -------------------------------------------------------------------

/// A run's groups, under its file's root (or its group in a sweep or compare file).
inline constexpr const char* particles_group = "particles/chain";
inline constexpr const char* observables_group = "observables";
inline constexpr const char* walls_group = "walls";
inline constexpr const char* contacts_group = "contacts";
inline constexpr const char* parameters_group = "parameters";
inline constexpr const char* summary_group = "summary";
/// A sweep's stacked cases (sweep.keep = stacked, stacked_writer.hpp): the groups of a run with
/// a row per case in every dataset, and `written` (uint8 per case: 1 once its row is written).
inline constexpr const char* stacked_group = "stacked";
inline constexpr const char* stacked_written = "written";
/// The datasets of an H5MD time-dependent element: frames' step and time, and the values.
/// Every element of a run shares the step and time of the first particle column (hard links).
inline constexpr const char* step_dataset = "step";
inline constexpr const char* time_dataset = "time";
inline constexpr const char* value_dataset = "value";

/// A dataset of fixed size: its name and unit ("" for none).
struct Column {
  const char* name;
  const char* unit;
};

/// Time-independent datasets of /particles/chain, one value per particle.
inline constexpr Column particle_radius{"radius", "m"};
inline constexpr Column particle_mass{"mass", "kg"};
inline constexpr Column particle_species{"species", ""};  ///< material index (int)
/// Of /particles/chain/species: the material name of each index (files of chaindem 0.1 have it
/// on /particles/chain instead, where readers look when the dataset has none).
inline constexpr const char* species_names_attribute = "species_names";
/// Of /particles/chain, in a run written with output.beads only: the run's particle index of each
/// particle written (int64), H5MD's id element. The series and the constants above hold those
/// particles alone, in this order; the attributes below stay the run's particle indices.
inline constexpr const char* particle_id = "id";
/// Attributes of /particles/chain.
inline constexpr const char* striker_attribute = "striker";
inline constexpr const char* chain_first_attribute = "chain_first";
inline constexpr const char* chain_count_attribute = "chain_count";
/// Of /walls: the walls' names (attribute) and unit normals (walls x 3).
inline constexpr const char* wall_names_attribute = "names";
inline constexpr Column wall_normal{"normal", ""};
/// Of /contacts: frame k holds rows offset[k] .. offset[k+1]-1; `first` and `second` are the
/// particles of each row (second < 0 is wall -(second+1)).
inline constexpr Column contact_offset{"offset", ""};
inline constexpr Column contact_first{"first", ""};
inline constexpr Column contact_second{"second", ""};
/// Of /contacts, in a run of several contact models only: each row's model (int32), K of
/// /parameters/contact_models/K.
inline constexpr Column contact_model{"model", ""};

// ---- what a run writes over time -----------------------------------------------------------

/// Every time-dependent quantity a run can write, in the order of the tables below: what an
/// OutputSelection selects.
enum class Quantity : std::uint8_t {
  position,  // particle_columns
  velocity,
  force,
  dissipated_energy,  // observable_columns
  energy_balance,
  external_potential_energy,
  kinetic_energy,
  stored_energy,
  wall_work,
  momentum,
  wall_position,  // wall_columns
  wall_force,
  overlap,  // contact_columns
  normal_force,
  approach_rate,
  impact_velocity,
};
inline constexpr std::size_t quantity_count = 16;

/// A per-particle time series, /particles/chain/NAME/{step,time,value}: value frames x N x D,
/// D the selection's components(): 3, or 1 (x alone) for a chain on the x axis.
struct ParticleColumn {
  Quantity id;
  const char* name;
  const char* unit;
  const Vec3Array Particles::*value;  ///< N x 3, as the engine holds it
};
/// Position first: its element holds the frames' step and time.
inline constexpr std::array particle_columns{
    ParticleColumn{Quantity::position, "position", "m", &Particles::position},
    ParticleColumn{Quantity::velocity, "velocity", "m/s", &Particles::velocity},
    ParticleColumn{Quantity::force, "force", "N", &Particles::force},  // contacts, loads, gravity
};

/// A time series of the whole run, /observables/NAME/{step,time,value}: value frames, or
/// frames x components when components > 1.
struct ObservableColumn {
  Quantity id;
  const char* name;
  const char* unit;
  std::size_t components;
  /// Its value at a frame into out[0 .. components-1], from the run and its energies.
  void (*value)(const Simulation& sim, const EnergyReport& e, double* out);
};
/// The energies (in the order the file creates them: by name), then the momentum.
inline constexpr std::array observable_columns{
    ObservableColumn{
        Quantity::dissipated_energy, "dissipated_energy", "J", 1,
        [](const Simulation&, const EnergyReport& e, double* out) { *out = e.dissipated; }},
    ObservableColumn{
        Quantity::energy_balance, "energy_balance", "J", 1,
        [](const Simulation&, const EnergyReport& e, double* out) { *out = e.balance(); }},
    ObservableColumn{
        Quantity::external_potential_energy, "external_potential_energy", "J", 1,
        [](const Simulation&, const EnergyReport& e, double* out) { *out = e.external_potential; }},
    ObservableColumn{
        Quantity::kinetic_energy, "kinetic_energy", "J", 1,
        [](const Simulation&, const EnergyReport& e, double* out) { *out = e.kinetic; }},
    ObservableColumn{
        Quantity::stored_energy, "stored_energy", "J", 1,
        [](const Simulation&, const EnergyReport& e, double* out) { *out = e.stored; }},
    ObservableColumn{
        Quantity::wall_work, "wall_work", "J", 1,
        [](const Simulation&, const EnergyReport& e, double* out) { *out = e.wall_work; }},
    ObservableColumn{Quantity::momentum, "momentum", "kg m/s", 3,
                     [](const Simulation& sim, const EnergyReport&, double* out) {
                       const Eigen::Vector3d p = sim.momentum();
                       out[0] = p.x();
                       out[1] = p.y();
                       out[2] = p.z();
                     }},
};
/// The values of every observable at one frame, column after column.
inline constexpr std::size_t observable_values = [] {
  std::size_t n = 0;
  for (const ObservableColumn& c : observable_columns) n += c.components;
  return n;
}();

/// A time series of the walls, /walls/NAME/{step,time,value}: value frames x walls x 3, written
/// with the observables when the scene has walls.
struct WallColumn {
  Quantity id;
  const char* name;
  const char* unit;
  /// Its values at a frame, wall after wall, into out[0 .. 3 walls - 1].
  void (*values)(const Simulation& sim, double* out);
};
inline constexpr std::array wall_columns{
    // A point of each wall, moving or not.
    WallColumn{Quantity::wall_position, "position", "m",
               [](const Simulation& sim, double* out) {
                 for (std::size_t w = 0; w < sim.scene().walls.size(); ++w) {
                   const Eigen::Vector3d x = sim.wall_point(w);
                   for (int c = 0; c < 3; ++c) out[3 * w + static_cast<std::size_t>(c)] = x(c);
                 }
               }},
    // The force each wall exerts on the particles: the sum over its contacts of the normal force
    // (after the tension policy, > 0 pressing) along the wall's normal, which faces the
    // particles. A chain pressed against wall_start (normal +x) feels +F x; against wall_end
    // (normal -x), -F x. The wall feels the opposite. A wall whose contacts are oblique
    // (docs/driven.md) exerts n F: the contact's normal, reversed, is n times the wall's.
    WallColumn{Quantity::wall_force, "force", "N",
               [](const Simulation& sim, double* out) {
                 std::fill(out, out + 3 * sim.scene().walls.size(), 0.0);
                 const ContactList& cl = sim.wall_contacts();
                 for (std::size_t c = 0; c < cl.size(); ++c) {
                   if (cl.force[c] == 0.0) continue;
                   const auto w = static_cast<std::size_t>(cl.second_of(c));
                   for (int k = 0; k < 3; ++k)
                     out[3 * w + static_cast<std::size_t>(k)] += cl.force[c] * -cl.normal_of(c)(k);
                 }
               }},
};
inline constexpr const WallColumn& wall_position_column = wall_columns[0];
inline constexpr const WallColumn& wall_force_column = wall_columns[1];

/// A per-contact dataset of /contacts beside `first` and `second`: one row per touching contact
/// per frame (ragged, through `offset`).
struct ContactColumn {
  Quantity id;
  const char* name;
  const char* unit;
  /// Its values of contacts rows[0 .. count-1] of `cl` into out[0 .. count-1]: a frame's
  /// column in one loop.
  void (*values)(const Simulation& sim, const ContactList& cl, const std::uint32_t* rows,
                 std::size_t count, double* out);
};
inline constexpr std::array contact_columns{
    ContactColumn{Quantity::overlap, "overlap", "m",
                  [](const Simulation&, const ContactList& cl, const std::uint32_t* rows,
                     std::size_t count, double* out) {
                    for (std::size_t j = 0; j < count; ++j) out[j] = cl.overlap[rows[j]];
                  }},
    ContactColumn{Quantity::normal_force, "normal_force", "N",
                  [](const Simulation&, const ContactList& cl, const std::uint32_t* rows,
                     std::size_t count, double* out) {
                    for (std::size_t j = 0; j < count; ++j) out[j] = cl.force[rows[j]];
                  }},
    ContactColumn{Quantity::approach_rate, "approach_rate", "m/s",
                  [](const Simulation& sim, const ContactList& cl, const std::uint32_t* rows,
                     std::size_t count, double* out) { sim.approach_rates(cl, rows, count, out); }},
    ContactColumn{Quantity::impact_velocity, "impact_velocity", "m/s",
                  [](const Simulation&, const ContactList& cl, const std::uint32_t* rows,
                     std::size_t count, double* out) {
                    for (std::size_t j = 0; j < count; ++j)
                      out[j] = cl.state_of(rows[j]).impact_velocity;
                  }},
};

/// The name of a quantity: its element's group (or, for a contact column, its dataset).
std::string_view quantity_name(Quantity q);
/// The path of its values under a run's root: particles/chain/velocity/value, contacts/overlap.
std::string value_path(Quantity q);

/// The three kinds of time series, each written at frames of its own (output.particles_interval,
/// output.observables_interval, output.contacts_interval): the per-particle series; the
/// observables with the walls' series; the contacts.
enum class SeriesGroup : std::uint8_t { particles, observables, contacts };
inline constexpr std::size_t series_group_count = 3;

/// The frames a run of `steps` steps writes, a frame every `output_every` steps and one at its
/// last step, of which a group written every `every` frames holds: frames j = 0 .. J at step
/// j * output_every, J = steps / output_every, those with j a multiple of `every`, and the last.
inline std::int64_t frames_written(std::int64_t steps, std::int64_t output_every,
                                   std::int64_t every = 1) {
  const std::int64_t frames = steps / output_every;
  const bool last_apart = steps % output_every != 0 || frames % every != 0;
  return frames / every + 1 + (last_apart ? 1 : 0);
}

/// The quantities a run writes. Position is among them whenever any is: its element holds the
/// frames' step and time, and the XDMF file and initial.file place the particles by it.
class OutputSelection {
 public:
  /// Every quantity of the tables.
  static OutputSelection all();
  /// No quantity: a run that writes its summary, parameters and particles, and no frame.
  static OutputSelection none();
  /// Whether the run writes frames (a quantity is selected).
  bool writes_frames() const { return bits_.any(); }
  /// This selection without `q`; throws std::invalid_argument for position.
  OutputSelection without(Quantity q) const;
  /// This selection with `q` (and position, which holds the frames' step and time).
  OutputSelection with(Quantity q) const;
  bool has(Quantity q) const { return bits_.test(static_cast<std::size_t>(q)); }
  /// Whether any contact column is selected: the run then has a /contacts group.
  bool has_contacts() const;
  /// Components of each particle vector written (the H5MD box's dimension): 3, or 1 for a chain
  /// on the x axis, whose y and z stay zero (x_axis_components()).
  std::size_t components() const { return components_; }
  /// This selection writing `components` (1 or 3; else std::invalid_argument) per vector.
  OutputSelection with_components(std::size_t components) const;
  /// The particles whose series are written, increasing; empty: every particle (output.beads).
  const std::vector<std::int64_t>& particles() const { return particles_; }
  /// How many particles the series hold, of a run of `total`.
  std::size_t particle_count(std::size_t total) const {
    return particles_.empty() ? total : particles_.size();
  }
  /// This selection writing the series of `particles` (increasing; empty: every particle).
  OutputSelection with_particles(std::vector<std::int64_t> particles) const;
  /// The output frames between two rows of group `g`'s series (1: every frame): the group is
  /// written at the frames whose step is a multiple of every(g) frames' steps, and at the last.
  std::int64_t every(SeriesGroup g) const { return every_[static_cast<std::size_t>(g)]; }
  /// This selection writing group `g` every `frames` frames (>= 1; else std::invalid_argument).
  OutputSelection with_every(SeriesGroup g, std::int64_t frames) const;
  bool operator==(const OutputSelection&) const = default;

 private:
  std::bitset<quantity_count> bits_;
  std::uint8_t components_ = 3;
  std::vector<std::int64_t> particles_;
  std::array<std::int64_t, series_group_count> every_{1, 1, 1};
};

/// Whether a run writing `output` has series of the observables' group: an observable, the
/// walls' series (`walls`: the scene has walls) or the chain sections' energies (`sections`:
/// a run of several contact models).
bool writes_observables(const OutputSelection& output, bool walls, bool sections);

/// What the case key output.contacts selects: every quantity, or every one but the contact
/// columns.
OutputSelection case_output(bool contacts);

/// The words output.quantities takes: each quantity's name (the walls' series are
/// `wall_position` and `wall_force`), the groups `all`, `energies` (the observables in J),
/// `contacts` (the contact columns), and `none` (no frame: the summary alone).
std::vector<std::string> quantity_words();
/// The selection `words` names, with the position always (its element holds the frames' step and
/// time), or none() for the word `none` alone. Throws std::invalid_argument naming a word that
/// is none of quantity_words(), or `none` given with others.
OutputSelection selection_of(const std::vector<std::string>& words);

// ---- the run summary -----------------------------------------------------------------------

/// The results of one run: its /summary group, whose attributes and datasets are the rows of
/// summary_scalars, summary_texts and summary_arrays.
/// What the contacts of one contact model did over a run (a case of several models).
struct ModelSummary {
  std::string section;             ///< "contact", "contact.steel.ptfe"
  std::string law;                 ///< its law's identifier
  double dissipated_energy = 0.0;  ///< by its contacts, since the start [J]
  std::int64_t isolated_contacts = 0;
  double isolated_restitution_mean = std::numeric_limits<double>::quiet_NaN();
  double isolated_restitution_min = std::numeric_limits<double>::quiet_NaN();
  double isolated_restitution_max = std::numeric_limits<double>::quiet_NaN();
};

/// How the contacts of one kind did against their law's stated validity over a run
/// (ValidityCheck, law_validity.hpp): a row of /summary/validity. A bound is NaN where none is
/// stated (the pressure's also where the materials give no yield stress).
struct ValiditySummary {
  std::int64_t model = 0;       ///< SimulationSettings::model
  std::string law;              ///< its law's identifier
  std::string contacts;         ///< "steel-steel" (two beads), "steel-wall_end" (a bead on a wall)
  double largest_strain = 0.0;  ///< delta/R*
  double strain_bound = std::numeric_limits<double>::quiet_NaN();
  double largest_impact_speed = 0.0;                                     ///< [m/s]
  double impact_speed_bound = std::numeric_limits<double>::quiet_NaN();  ///< [m/s]
  double largest_pressure = 0.0;                                         ///< [Pa]
  double pressure_bound = std::numeric_limits<double>::quiet_NaN();      ///< [Pa]
  std::int64_t left = 0;  ///< 1: the contacts left the law's stated range
  /// What they went beyond, how far, and the bound with who states it; in the file, joined
  /// by "; ".
  std::vector<std::string> exceeded;
};

struct RunSummary {
  std::int64_t steps = 0;
  double time_step = 0.0;                        ///< [s]
  double simulated_time = 0.0;                   ///< [s]
  double wall_time = 0.0;                        ///< [s]
  double ns_per_bead_step = 0.0;                 ///< wall time per particle and step [ns]
  double first_bead_final_velocity = 0.0;        ///< v_x at the end [m/s]
  double last_bead_final_velocity = 0.0;         ///< v_x at the end [m/s]
  std::optional<double> striker_final_velocity;  ///< v_x at the end [m/s]; with a striker
  /// Its final velocity over its initial one along the chain, negated; with a striker.
  std::optional<double> striker_rebound_ratio;
  double largest_contact_force = 0.0;     ///< on any chain bead, at any step [N]
  EnergyReport energy;                    ///< the energies at the end [J]
  double initial_energy = 0.0;            ///< the energy balance at the start [J]
  double energy_balance_error = 0.0;      ///< at the end, relative
  double energy_balance_error_max = 0.0;  ///< largest over the frames, relative
  /// Contacts that began from apart and ended with neither body having touched anything else.
  std::int64_t isolated_contacts = 0;
  double isolated_restitution_mean = std::numeric_limits<double>::quiet_NaN();
  double isolated_restitution_min = std::numeric_limits<double>::quiet_NaN();
  double isolated_restitution_max = std::numeric_limits<double>::quiet_NaN();
  double first_isolated_restitution = std::numeric_limits<double>::quiet_NaN();
  double first_isolated_impact_velocity = std::numeric_limits<double>::quiet_NaN();  ///< [m/s]
  /// Contacts that began slower than the onset policy's floor (0 under the other policies).
  std::int64_t impact_velocity_floor_hits = 0;
  std::optional<double> impact_velocity_floor;  ///< [m/s]; under the onset policy only
  std::int64_t neighbor_rebuilds = 0;
  /// The time-discretisation error the run's velocities are estimated to have (simulation.
  /// error_estimate): the largest over its frames, and at its last compared frame, of any body's
  /// velocity error, relative to the largest speed a body had at those frames. None without an
  /// estimate.
  std::optional<double> error_estimate, final_error_estimate;
  /// The v0 policy of the law (energy, peak, onset, reference), or "none" for a law without v0.
  std::string impact_velocity;
  std::string integrator;                 ///< second_order or lammps
  std::vector<double> max_contact_force;  ///< per chain bead: largest contact force on it [N]
  std::vector<double> peak_velocity;      ///< per chain bead: largest v_x, every step [m/s]
  std::vector<long long> arrival_beads;   ///< chain bead indices watched for the pulse
  std::vector<double> arrival_time;       ///< per watched bead; NaN if the pulse never came [s]
  /// Per contact model, in model order, when the case has more than one; empty otherwise.
  std::vector<ModelSummary> models;
  /// Per kind of contact that touched (beads of two materials, a bead on a wall), how it did
  /// against its law's stated validity.
  std::vector<ValiditySummary> validity;
  /// Of those, how many left their law's stated range.
  std::int64_t left_validity = 0;
};

/// Where a number of the summary is in a RunSummary: a field, or one of its final energies.
using SummaryField = std::variant<std::int64_t RunSummary::*, double RunSummary::*,
                                  std::optional<double> RunSummary::*, double EnergyReport::*>;
/// A number of the summary, an attribute of /summary (int64 in the file for a count, else
/// float64).
struct SummaryScalar {
  const char* name;
  const char* unit;  ///< "" for counts and ratios
  SummaryField field;
};
/// In the order the file writes them: by name.
inline constexpr std::array summary_scalars{
    SummaryScalar{"dissipated_energy", "J", &EnergyReport::dissipated},
    SummaryScalar{"energy_balance_error", "", &RunSummary::energy_balance_error},
    SummaryScalar{"energy_balance_error_max", "", &RunSummary::energy_balance_error_max},
    SummaryScalar{"error_estimate", "", &RunSummary::error_estimate},
    SummaryScalar{"external_potential_energy", "J", &EnergyReport::external_potential},
    SummaryScalar{"final_error_estimate", "", &RunSummary::final_error_estimate},
    SummaryScalar{"first_bead_final_velocity", "m/s", &RunSummary::first_bead_final_velocity},
    SummaryScalar{"first_isolated_impact_velocity", "m/s",
                  &RunSummary::first_isolated_impact_velocity},
    SummaryScalar{"first_isolated_restitution", "", &RunSummary::first_isolated_restitution},
    SummaryScalar{"impact_velocity_floor", "m/s", &RunSummary::impact_velocity_floor},
    SummaryScalar{"impact_velocity_floor_hits", "", &RunSummary::impact_velocity_floor_hits},
    SummaryScalar{"initial_energy", "J", &RunSummary::initial_energy},
    SummaryScalar{"isolated_contacts", "", &RunSummary::isolated_contacts},
    SummaryScalar{"isolated_restitution_max", "", &RunSummary::isolated_restitution_max},
    SummaryScalar{"isolated_restitution_mean", "", &RunSummary::isolated_restitution_mean},
    SummaryScalar{"isolated_restitution_min", "", &RunSummary::isolated_restitution_min},
    SummaryScalar{"kinetic_energy", "J", &EnergyReport::kinetic},
    SummaryScalar{"largest_contact_force", "N", &RunSummary::largest_contact_force},
    SummaryScalar{"last_bead_final_velocity", "m/s", &RunSummary::last_bead_final_velocity},
    SummaryScalar{"left_validity", "", &RunSummary::left_validity},
    SummaryScalar{"neighbor_rebuilds", "", &RunSummary::neighbor_rebuilds},
    SummaryScalar{"ns_per_bead_step", "ns", &RunSummary::ns_per_bead_step},
    SummaryScalar{"simulated_time", "s", &RunSummary::simulated_time},
    SummaryScalar{"steps", "", &RunSummary::steps},
    SummaryScalar{"stored_energy", "J", &EnergyReport::stored},
    SummaryScalar{"striker_final_velocity", "m/s", &RunSummary::striker_final_velocity},
    SummaryScalar{"striker_rebound_ratio", "", &RunSummary::striker_rebound_ratio},
    SummaryScalar{"time_step", "s", &RunSummary::time_step},
    SummaryScalar{"wall_time", "s", &RunSummary::wall_time},
    SummaryScalar{"wall_work", "J", &EnergyReport::wall_work},
};
/// Its value in `s`; none when the run has none (an optional field that is empty).
std::optional<double> value_of(const SummaryScalar& scalar, const RunSummary& s);
/// Sets its field of `s` (an integer field to the value rounded).
void set_value(const SummaryScalar& scalar, RunSummary& s, double value);
/// Whether it counts something (its field is an integer).
bool is_integer(const SummaryScalar& scalar);

/// A word of the summary: a string attribute of /summary.
struct SummaryText {
  const char* name;
  std::string RunSummary::*field;
};
inline constexpr std::array summary_texts{
    SummaryText{"impact_velocity", &RunSummary::impact_velocity},
    SummaryText{"integrator", &RunSummary::integrator},
};

/// A per-bead array of the summary: a dataset of /summary (int64 in the file for bead indices,
/// else float64).
struct SummaryArray {
  const char* name;
  const char* unit;  ///< "" for bead indices
  std::variant<std::vector<double> RunSummary::*, std::vector<long long> RunSummary::*> field;
};
/// In the order the file writes them: by name.
inline constexpr std::array summary_arrays{
    SummaryArray{"arrival_beads", "", &RunSummary::arrival_beads},
    SummaryArray{"arrival_time", "s", &RunSummary::arrival_time},
    SummaryArray{"max_contact_force", "N", &RunSummary::max_contact_force},
    SummaryArray{"peak_velocity", "m/s", &RunSummary::peak_velocity},
};
std::vector<double> values_of(const SummaryArray& array, const RunSummary& s);
/// Whether it holds integers (bead indices).
bool is_integer(const SummaryArray& array);
void set_values(const SummaryArray& array, RunSummary& s, const std::vector<double>& values);

// ---- a run of several contact models -------------------------------------------------------

// What a run whose case has more than one contact model writes besides the above (a run of one
// model writes none of it): /contacts/model (above), and these.

/// /parameters/contact_models/K, one group per model K: the attributes of /parameters/law, and
/// `section`, the case's section that gives the model ("contact", "contact.steel.ptfe").
inline constexpr const char* contact_models_group = "contact_models";
inline constexpr const char* model_section_attribute = "section";

/// /observables/section_energy/{step,time,value}: value frames x sections, the energy each
/// section of the chain holds (the kinetic energy of its beads and their shares of the energy
/// the contacts store: Simulation::stored_energy_by_particle). A section is a maximal run of
/// consecutive chain beads of one material; the striker is in none. Its group's attributes give,
/// per section, its first chain bead, its number of beads and its material's name.
inline constexpr Column section_energy{"section_energy", "J"};
inline constexpr const char* section_first_bead_attribute = "first_bead";
inline constexpr const char* section_beads_attribute = "beads";
inline constexpr const char* section_material_attribute = "material";

/// /summary/models: one row per model, in model order, of each of these datasets.
inline constexpr const char* summary_models_group = "models";
struct ModelSummaryColumn {
  const char* name;
  const char* unit;  ///< "" for words, counts and ratios
  std::variant<std::string ModelSummary::*, double ModelSummary::*, std::int64_t ModelSummary::*>
      field;
};
inline constexpr std::array model_summary_columns{
    ModelSummaryColumn{"section", "", &ModelSummary::section},
    ModelSummaryColumn{"law", "", &ModelSummary::law},
    ModelSummaryColumn{"dissipated_energy", "J", &ModelSummary::dissipated_energy},
    ModelSummaryColumn{"isolated_contacts", "", &ModelSummary::isolated_contacts},
    ModelSummaryColumn{"isolated_restitution_mean", "", &ModelSummary::isolated_restitution_mean},
    ModelSummaryColumn{"isolated_restitution_min", "", &ModelSummary::isolated_restitution_min},
    ModelSummaryColumn{"isolated_restitution_max", "", &ModelSummary::isolated_restitution_max},
};

// ---- the validity of the contact laws ------------------------------------------------------

/// /summary/validity: one row per kind of contact that touched (ValiditySummary), in each of
/// these datasets; every run writes it (with no row if nothing touched).
inline constexpr const char* summary_validity_group = "validity";
struct ValiditySummaryColumn {
  const char* name;
  const char* unit;  ///< "" for words, flags and ratios
  std::variant<std::string ValiditySummary::*, double ValiditySummary::*,
               std::int64_t ValiditySummary::*, std::vector<std::string> ValiditySummary::*>
      field;
};
inline constexpr std::array validity_summary_columns{
    ValiditySummaryColumn{"model", "", &ValiditySummary::model},
    ValiditySummaryColumn{"law", "", &ValiditySummary::law},
    ValiditySummaryColumn{"contacts", "", &ValiditySummary::contacts},
    ValiditySummaryColumn{"largest_strain", "", &ValiditySummary::largest_strain},
    ValiditySummaryColumn{"strain_bound", "", &ValiditySummary::strain_bound},
    ValiditySummaryColumn{"largest_impact_speed", "m/s", &ValiditySummary::largest_impact_speed},
    ValiditySummaryColumn{"impact_speed_bound", "m/s", &ValiditySummary::impact_speed_bound},
    ValiditySummaryColumn{"largest_pressure", "Pa", &ValiditySummary::largest_pressure},
    ValiditySummaryColumn{"pressure_bound", "Pa", &ValiditySummary::pressure_bound},
    ValiditySummaryColumn{"left", "", &ValiditySummary::left},
    ValiditySummaryColumn{"exceeded", "", &ValiditySummary::exceeded},
};

// ---- the files of other commands -----------------------------------------------------------

/// A sweep's file: /sweep (the definition: sweep_file, base_case_file, and axes, one dataset per
/// axis), /cases/case-NNNNNN (one run each), /summary (one row per case: `case`, the axes, the
/// summary's scalars and texts by name, the per-bead arrays as cases x beads, `status`).
inline constexpr const char* sweep_group = "sweep";
inline constexpr const char* sweep_axes_group = "axes";          ///< in /sweep
inline constexpr const char* sweep_file_dataset = "sweep_file";  ///< in /sweep
inline constexpr const char* cases_group = "cases";
inline constexpr const char* sweep_case_column = "case";
inline constexpr const char* sweep_status_column = "status";

/// A compare file's /comparison: per metric M, reference_M (beads), M (laws x beads),
/// M_error_percent (laws x beads), M_mean_error_percent and M_beads_compared (laws).
inline constexpr const char* comparison_group = "comparison";
struct ComparisonMetric {
  const char* name;
  const char* unit;
  const char* words;  ///< what it is, for titles and labels
};
inline constexpr std::array comparison_metrics{
    ComparisonMetric{"peak_velocity", "m/s", "peak velocity"},
    ComparisonMetric{"peak_force", "N", "peak force"},
    ComparisonMetric{"arrival_time", "s", "pulse arrival time"},
    ComparisonMetric{"final_velocity", "m/s", "final velocity"},
};
inline constexpr const char* reference_prefix = "reference_";
inline constexpr const char* error_percent_suffix = "_error_percent";
inline constexpr const char* mean_error_percent_suffix = "_mean_error_percent";
inline constexpr const char* beads_compared_suffix = "_beads_compared";
/// With reference data, whose times every law is read at: per metric M, M_sampling_bound_percent
/// (beads), the most the data's sampling can shift it; the attribute sample_interval [s] (the
/// median spacing) and samples_per_pulse (beads), the samples that span each bead's pulse.
inline constexpr const char* sampling_bound_suffix = "_sampling_bound_percent";
inline constexpr const char* sample_interval_attribute = "sample_interval";
inline constexpr const char* samples_per_pulse_dataset = "samples_per_pulse";

/// A `collide -o` file: one impact, sampled in time, with its results as root attributes.
inline constexpr Column loop_time{"time", "s"};
inline constexpr Column loop_overlap{"overlap", "m"};
inline constexpr Column loop_approach_rate{"approach_rate", "m/s"};
inline constexpr Column loop_force{"force", "N"};
inline constexpr std::array loop_columns{loop_time, loop_overlap, loop_approach_rate, loop_force};

/// The text of postprocess/chaindem_post/layout.py: these tables as Python.
std::string layout_python();

}  // namespace chaindem::layout
