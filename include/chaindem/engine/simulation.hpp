#pragma once
// A run of particles: its settings, its contact lists and energy books, and Simulation, which
// steps it on one of two engines (velocity Verlet, force evaluation dispatched once per loop on
// each contact model's kernel): the chain engine for beads on a line, the general engine with a
// neighbor search for anything else (docs/engine.md).

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "chaindem/engine/engine_fault.hpp"
#include "chaindem/engine/huge_pages.hpp"
#include "chaindem/engine/scene.hpp"
#include "chaindem/laws/law.hpp"

namespace chaindem {

class StateArchive;  // chaindem/engine/state_archive.hpp

namespace detail {
struct EngineState;  // what both engines advance (src/engine/engine_state.hpp)
class Engine;        // the chain engine or the general engine
}  // namespace detail

/// What decides the memory of a simulation besides its size (simulation_bytes).
struct SimulationShape {
  bool chain = false;  ///< on the chain engine, whose pairs share their normal; or the general one
  /// On the chain engine, the pairs hold one coefficient record (a uniform chain) or one state
  /// (laws without a history): ContactList::shared_coeffs, shared_state.
  bool shared_coeffs = false, shared_state = false;
  bool loads = true;  ///< some particle carries an applied force (Particles::set_load)
  /// The chain lies on the x axis: the y and z columns of the particles' vectors stay zero and
  /// take no memory (Particles::set, zero_untouched).
  bool on_x_axis = false;
  /// On the chain engine, how many pairs touch at the start (pressed together, or by the rounding
  /// of the positions of beads that just touch). The records of first touch and separation take
  /// memory only for the pairs that write them (ContactList's ZeroedColumn columns): the first
  /// evaluation writes the first touch of these; the pairs a wave reaches later, and the
  /// separations, are left out. None: every record counted, as a checkpoint holds them.
  std::optional<std::size_t> pairs_touching_at_start;
};

/// The memory a simulation of `particles` particles and `contacts` candidate contacts holds
/// while it steps, its per-particle extremes tracked (track_extremes) [bytes]: the particle
/// columns, the contact lists and what the engine adds per particle and per contact.
/// src/engine/engine_state.cpp.
std::size_t simulation_bytes(std::size_t particles, std::size_t contacts,
                             const SimulationShape& shape = {});

/// Effective quantities (E*, R*, m*) of particles i and j, or of particle i against wall w.
PairInput pair_input(const Scene& scene, Eigen::Index i, Eigen::Index j);
PairInput wall_input(const Scene& scene, Eigen::Index i, std::size_t w);

/// True when the scene can run on the chain engine: at least two particles, all on one line
/// parallel to x (equal y and z), in increasing x order, moving and loaded along x only (gravity
/// too), and every wall normal to x, the one facing +x before the first particle and the one
/// facing -x after the last.
bool forms_chain(const Scene& scene);

/// The most OpenMP threads one parallel loop of chaindem may ask for (`--threads`,
/// `simulation.threads`, OMP_NUM_THREADS). Beyond the core count, threads only take turns on the
/// cores; 1024 is more than the hardware threads of a two-socket compute node, and far enough
/// below the counts at which the OpenMP runtime cannot start a team (it lays a team out on the
/// stack: tens of thousands of threads crash it) to be safe on any machine.
inline constexpr int max_threads = 1024;

/// A contact model: a law, its parameters and its tension policy.
struct ContactModel {
  const LawEntry* law = nullptr;
  LawParams params;
  TensionPolicy tension = TensionPolicy::clamp;
};

/// The contact models of a scene of several media: which model each pair of materials, and each
/// wall against each material, obeys. Model 0 is the settings' own (law, law_params, tension),
/// the default every contact the table does not name obeys; `models` lists models 1, 2, ...
struct ContactTable {
  std::vector<ContactModel> models;  ///< models 1, 2, ...: models[k - 1] is model k
  std::size_t materials = 0;         ///< the scene's materials: the side of pair_model
  std::vector<int> pair_model;       ///< [a * materials + b], symmetric; empty: every pair 0
  std::vector<int> wall_model;       ///< [w * materials + a]; empty: every wall contact 0

  bool empty() const { return models.empty(); }
  /// The model of a contact of materials a and b, and of wall w against material a.
  int of_pair(int a, int b) const {
    return pair_model.empty()
               ? 0
               : pair_model[static_cast<std::size_t>(a) * materials + static_cast<std::size_t>(b)];
  }
  int of_wall(std::size_t w, int a) const {
    return wall_model.empty() ? 0 : wall_model[w * materials + static_cast<std::size_t>(a)];
  }
};

struct SimulationSettings {
  /// The default contact model (model 0): the law, its parameters and the tension policy of
  /// every contact that `contact_table` does not give another.
  const LawEntry* law = nullptr;
  LawParams law_params;
  TensionPolicy tension = TensionPolicy::clamp;
  /// Models per pair of materials and per wall; empty: every contact obeys the default.
  ContactTable contact_table;
  /// Model k of the run: the default for k = 0, else contact_table.models[k - 1].
  ContactModel model(int k) const {
    return k == 0 ? ContactModel{law, law_params, tension}
                  : contact_table.models[static_cast<std::size_t>(k - 1)];
  }
  /// Models of the run: 1 + contact_table.models.size().
  int model_count() const { return 1 + static_cast<int>(contact_table.models.size()); }
  double time_step = 0.0;  ///< [s]
  double skin = 0.0;       ///< neighbor skin [m]
  int threads = 1;         ///< OpenMP threads for the force loops
  /// Which engine steps the particles: the chain engine where the scene allows (automatic), or
  /// the one named. The chain engine (particles on the x axis, in order, touching only their
  /// neighbours and walls normal to x) skips the neighbor search and evaluates only the contacts
  /// that overlap; docs/engine.md.
  enum class EngineChoice { automatic, general, chain } engine = EngineChoice::automatic;
  /// Chain engine tuning (results do not depend on them): steps per pass over the chain, and
  /// pairs per tile, the piece of the chain taken through all the steps of a pass while it sits
  /// in cache (docs/engine.md).
  int chain_pass_steps = 32;
  std::size_t chain_tile_pairs = 512;
  /// Pairs per chunk of a step of a tile: drift, pairs and gather alternate chunk by chunk.
  std::size_t chain_chunk_pairs = 128;
  /// Vectorised pair loops where the law allows (uniform chains of a few blocks or more); false
  /// runs the per-pair loop, which computes the same bits (the tests compare the two).
  bool chain_vector_pairs = true;

  /// How the hysteresis laws define their impact velocity v0 (docs/engine.md, "Impact
  /// velocity"): onset, the approach rate at first touch raised to impact_velocity_floor; peak,
  /// the largest approach rate the contact has reached so far; energy, the running maximum over
  /// the contact of both its approach rate and the speed whose kinetic energy equals the energy
  /// it stores (never the stored energy's speed of the moment alone: v0 never falls during a
  /// contact); reference, reference_velocity for every contact (Hunt and Crossley's damping
  /// constant alpha/v_ref).
  enum class ImpactVelocity {
    onset,
    peak,
    energy,
    reference
  } impact_velocity = ImpactVelocity::energy;
  double reference_velocity = 0.0;  ///< v0 of every contact under `reference` [m/s]
  /// The floor of `onset` for laws that read v0: first touches slower than this take it as v0
  /// and count as floor hits (the law's parameter impact_velocity_floor) [m/s]
  double impact_velocity_floor = 0.0;
  /// Contacts that start pre-compressed measure their hysteresis damping from their initial
  /// overlap (kernels::Hysteresis), so that a small motion about the static load meets a small
  /// damping force; false measures it from delta = 0, as for an impact.
  bool static_origin = true;
  /// The time integration (docs/engine.md, "Time integration"). second_order: velocity Verlet
  /// whose velocity-dependent forces see the velocity predicted for the end of the step, with
  /// the impulse that sampling misses at contact edges added: trajectories converge at second
  /// order in dt for every law. lammps: velocity Verlet as LAMMPS and LIGGGHTS step it, the
  /// damping at the half-step velocity (first order in dt for velocity-dependent forces).
  enum class Integrator { second_order, lammps } integrator = Integrator::second_order;
};

std::string_view to_string(SimulationSettings::ImpactVelocity policy);
/// The policy named `name` (as to_string writes it), or none.
std::optional<SimulationSettings::ImpactVelocity> impact_velocity_from(std::string_view name);
std::string_view to_string(SimulationSettings::Integrator integrator);
/// Whether no contact of a run of `settings` keeps a state: every model's law is history-free
/// (reads neither v0 nor a loading history). The chain engine's pairs then share one
/// ContactState (ContactList::shared_state).
bool no_model_keeps_state(const SimulationSettings& settings);

/// Candidate contacts (particle-particle or particle-wall) with their history, structure of
/// arrays. `second` is a particle index for pairs and a wall index for wall contacts.
struct ContactList {
  std::vector<int> first, second;  ///< read through first_of, second_of
  std::vector<PairCoeffs> coeffs;
  std::vector<ContactState> state;
  std::vector<double> overlap;  ///< delta of the last evaluation (0 when apart) [m]
  std::vector<double> force;    ///< normal force after the tension policy [N]
  /// Unit normal from `first` towards `second`; for a wall contact of obliquity n < 1 (a
  /// slider-crank wall, docs/driven.md), n times it: the part of the contact's normal along the
  /// wall's, all that the body feels.
  std::vector<double> nx, ny, nz;
  std::vector<std::uint8_t> touching;  ///< 1 while delta > 0
  /// Energy books. Laws with a loading history (plastic): work absorbed over the pair's life,
  /// the integral of F d(delta) from the overlap the pair started at (its dissipation is this
  /// less what it stores). Other laws: work of the damping part of the force, the time integral
  /// of (F - F_e) v, which is >= 0 step by step and 0 for an undamped law [J].
  std::vector<double> work;
  std::vector<double> power;  ///< other laws: damping power (F - F_e) v, last evaluation [W]
  // The records of first touches and separations, and the model: zero for a contact that has
  // not touched (of model 0), they take memory only for the contacts that have (ZeroedColumn).
  ZeroedColumn<int> floor_hits;     ///< contacts of this pair whose v0 was raised to the floor
  ZeroedColumn<double> onset_rate;  ///< approach rate at the last first touch (0: never) [m/s]
  ZeroedColumn<double> end_rate;    ///< approach rate at the last separation [m/s]
  /// The evaluation of the last first touch and of the last separation, counted from 1 (the
  /// evaluation at construction; step s's is s + 1), or 0 for none: read them as steps through
  /// onset_step and end_step.
  ZeroedColumn<std::int64_t> onset_evaluation, end_evaluation;
  /// The contact's model (SimulationSettings::model), from the bodies' materials.
  ZeroedColumn<std::uint8_t> model;
  /// Columns that hold one record for every entry, set before resize(). A long chain repeats
  /// the same pair: sharing is what keeps its pairs' memory to the values that change.
  ///  - shared_coeffs: every entry has the coefficients coeffs[0] (its contacts join equal
  ///    bodies: the pairs of a uniform chain, 128 bytes less per contact);
  ///  - shared_state: no entry keeps a state (every model's law is history-free: its force
  ///    reads neither v0 nor a loading history), 88 bytes less;
  ///  - shared_normal: every entry has the normal of entry 0 (the pairs of the chain engine, all
  ///    along +x), 24 bytes less.
  bool shared_coeffs = false, shared_state = false, shared_normal = false;
  /// Entry c joins particles c and c + 1 (the chain engine's pairs): `first` and `second` hold
  /// no rows (8 bytes less per contact). Set before resize().
  bool chain_indices = false;

  std::size_t size() const { return overlap.size(); }  // a column every list holds whole
  /// The bodies of entry c: `first` and `second`, or those its index gives (chain_indices).
  int first_of(std::size_t c) const { return chain_indices ? static_cast<int>(c) : first[c]; }
  int second_of(std::size_t c) const { return chain_indices ? static_cast<int>(c) + 1 : second[c]; }
  /// The coefficients, state and normal of entry c.
  const PairCoeffs& coeffs_of(std::size_t c) const { return coeffs[shared_coeffs ? 0 : c]; }
  const ContactState& state_of(std::size_t c) const { return state[shared_state ? 0 : c]; }
  ContactState& state_of(std::size_t c) { return state[shared_state ? 0 : c]; }
  Eigen::Vector3d normal_of(std::size_t c) const {
    const std::size_t k = shared_normal ? 0 : c;
    return {nx[k], ny[k], nz[k]};
  }
  /// Step of the last first touch and of the last separation of entry c (-1: none). A contact
  /// ended at step s touched during steps [onset_step, s - 1].
  std::int64_t onset_step(std::size_t c) const { return onset_evaluation[c] - 1; }
  std::int64_t end_step(std::size_t c) const { return end_evaluation[c] - 1; }
  /// onset_evaluation, end_evaluation of a first touch or separation at step `step`.
  static std::int64_t evaluation_of(std::int64_t step) { return step + 1; }
  /// Every column, once: resize, copy_entry and bytes_per_entry walk this list, so that a new
  /// column is one more name here.
  auto columns() {
    return std::tie(first, second, coeffs, state, overlap, force, nx, ny, nz, touching, work, power,
                    floor_hits, onset_rate, end_rate, onset_evaluation, end_evaluation, model);
  }
  /// Whether `column`, one of columns(), holds one record for every entry.
  bool is_shared(const void* column) const {
    return (shared_coeffs && column == &coeffs) || (shared_state && column == &state) ||
           (shared_normal && (column == &nx || column == &ny || column == &nz));
  }
  /// Whether `column`, one of columns(), holds no rows: its values follow from the entry's index.
  bool is_derived(const void* column) const {
    return chain_indices && (column == &first || column == &second);
  }
  /// The rows `column` holds in a list of n entries.
  std::size_t rows_of(const void* column, std::size_t n) const {
    return is_derived(column) ? 0 : is_shared(column) ? std::min<std::size_t>(n, 1) : n;
  }
  /// Bytes one entry takes over the columns that hold a row per entry (not shared, not derived)
  /// in a list of this one's flags; without `zeroed`, less the ZeroedColumn columns, which take
  /// memory only for the entries that write them.
  std::size_t bytes_per_entry(bool zeroed = true) const;
  /// n entries: those kept keep their values; new ones are new contacts, their records and
  /// model zero (start_entry sets the rest).
  void resize(std::size_t n);
  /// Moves entry `from` of `other` to entry `to` of this list.
  void copy_entry(std::size_t to, const ContactList& other, std::size_t from);
  /// Makes entry k, a new entry of resize(), a contact of (i, j) under model `m`, its
  /// coefficients c: no history, no force, its overlap `delta0` (> 0 for a pair that starts
  /// pressed together: its first evaluation books the energy it stores there as work, so that
  /// it dissipates nothing by starting), normal n. Its records stay as resize() made them.
  void start_entry(std::size_t k, int i, int j, const PairCoeffs& c, double delta0,
                   const Eigen::Vector3d& n, int m = 0);
};

struct EnergyReport {
  double kinetic = 0.0;     ///< sum of m v^2 / 2 [J]
  double stored = 0.0;      ///< elastic energy in the contacts [J]
  double dissipated = 0.0;  ///< energy removed by the contacts since the start [J]
  /// Potential of gravity and applied loads, -sum f_ext . (x - x_0), from the initial positions
  /// (0 at the start) [J]
  double external_potential = 0.0;
  double wall_work = 0.0;  ///< work done on the particles by moving walls [J]

  /// Kinetic + stored + dissipated + external potential - wall work: constant in exact dynamics.
  double balance() const { return kinetic + stored + dissipated + external_potential - wall_work; }
};

class Simulation {
 public:
  /// Checks the settings against the scene, picks the engine (SimulationSettings::engine),
  /// builds the contacts and evaluates the forces of step 0. Throws std::invalid_argument for
  /// settings or a state it cannot start from, and EngineFault for a contact that overlaps by a
  /// radius or more at the start.
  Simulation(Scene scene, SimulationSettings settings);
  ~Simulation();
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;

  /// Advances by one velocity-Verlet step.
  void step();
  /// Advances by `n` steps. Throws EngineFault when a contact overlaps by a radius or more or
  /// the state stops being finite; it names the step (the chain engine takes several steps per
  /// pass over the chain: the state is then the pass's end).
  void advance(std::int64_t n);

  /// What advance() records after each of its steps, for observers that need every step: the
  /// contacts and particles named by watch(). Entry [s * count + k] is step s of the last call.
  struct StepLog {
    /// A watched pair at the step's end.
    enum class Contact : std::int8_t { not_a_candidate = -1, apart = 0, touching = 1 };
    std::int64_t steps = 0;
    std::vector<Contact> touching;
    std::vector<double> rate;   ///< approach rate at the step's end [m/s] (0 if none)
    std::vector<double> speed;  ///< |v| [m/s]
  };
  /// Index of the candidate contact of particles i < j in pair_contacts(), if they have one.
  std::optional<std::size_t> find_contact(int i, int j) const;
  /// Watches particle pairs (i, j) (i < j) and particles: see StepLog.
  void watch(std::vector<std::pair<int, int>> pairs, std::vector<Eigen::Index> particles);
  const StepLog& step_log() const;

  /// A contact that began and ended isolated: an impact from apart during which neither body
  /// touched anything else or carried a load, so that its restitution is a binary one.
  struct IsolatedContact {
    std::int64_t step;  ///< step at which the bodies separated (delta back to 0)
    int first;          ///< particle
    int second;         ///< particle, or wall w as wall_body(w)
    /// How `second` names wall w: -w - 1, below every particle index (as the output files do).
    static constexpr int wall_body(std::size_t w) { return -static_cast<int>(w) - 1; }
    double impact_velocity;  ///< approach rate at first touch [m/s]
    double restitution;      ///< -(approach rate at separation) / impact_velocity
    int model = 0;           ///< the contact's model (SimulationSettings::model)
  };
  /// The isolated contacts that ended during the last advance(), in order of step and bodies.
  const std::vector<IsolatedContact>& isolated_contacts() const;

  double time() const;
  std::int64_t step_count() const;
  double time_step() const { return settings().time_step; }
  const SimulationSettings& settings() const;
  const Scene& scene() const;
  const Particles& particles() const { return scene().particles; }
  const ContactList& pair_contacts() const;
  const ContactList& wall_contacts() const;
  /// Current position of wall w (it moves with its prescribed velocity).
  Eigen::Vector3d wall_point(std::size_t w) const;

  /// Approach rate of contact c of `cl` (pairs or walls) now, from the bodies' velocities [m/s].
  double approach_rate(const ContactList& cl, std::size_t c) const;
  /// The approach rates of contacts rows[0 .. count-1] of `cl` into out[0 .. count-1], each
  /// the value approach_rate gives (an output frame's, in one call).
  void approach_rates(const ContactList& cl, const std::uint32_t* rows, std::size_t count,
                      double* out) const;

  EnergyReport energies() const;
  /// The energy the contacts of each model have dissipated since the start [J], [k] for model k
  /// (SimulationSettings::model): the parts of energies().dissipated, which they sum to up to
  /// rounding.
  std::vector<double> dissipated_by_model() const;
  /// The energy the touching contacts store, shared among the bodies [J], [i] for particle i:
  /// half of a pair's to each of its particles, all of a wall contact's to its particle. The
  /// shares add up to energies().stored up to rounding.
  std::vector<double> stored_energy_by_particle() const;
  Eigen::Vector3d momentum() const;
  /// Contacts whose impact velocity was raised to the law's floor, over the whole run.
  std::int64_t impact_velocity_floor_hits() const;
  /// What the contacts of one kind reached over the run: beads of two materials, or beads of one
  /// material on one wall (the watch of their law's validity: law_validity.hpp).
  struct KindExtremes {
    int material = 0;                   ///< of the bead (of the first, for two)
    int other = 0;                      ///< the other bead's material, or the wall's index
    bool wall = false;                  ///< a bead on wall `other`
    int model = 0;                      ///< SimulationSettings::model
    double largest_strain = 0.0;        ///< overlap over the effective radius, delta/R*
    double largest_impact_speed = 0.0;  ///< approach rate at first touch [m/s]
  };
  /// The kinds whose contacts have touched since the start, beads before walls, by material.
  /// The same for either engine and any thread count (a largest value is the same whatever
  /// order the contacts are evaluated in).
  std::vector<KindExtremes> contact_extremes() const;
  std::int64_t neighbor_rebuilds() const;

  /// Saves what the steps have changed (positions, velocities, forces, the integrator's
  /// look-ahead, every contact's history, the energy books, the extremes, the neighbor
  /// structure) into `archive`.
  void save_state(StateArchive& archive) const;
  /// Restores a saved state into this simulation, which must have been constructed from the same
  /// scene and settings (and tracking extremes and watching as the saved one did): the steps that
  /// follow are then bitwise identical to those that followed the save. Throws StateArchiveError
  /// if the archive does not fit.
  void restore_state(const StateArchive& archive);

  /// True when the 1D chain engine steps this simulation.
  bool uses_chain_engine() const;
  /// Whether the chain engine evaluates the pairs in its vectorised loop (uniform chains of 256
  /// pairs or more under a law with a branch-free form; docs/engine.md).
  bool uses_vectorised_pairs() const;

  /// Starts recording, now and after every step, each particle's largest contact force (over its
  /// touching contacts; 0 if none yet) and its largest velocity along x. Folded into the step's
  /// own loops, so it costs almost nothing per step.
  void track_extremes();
  const Eigen::ArrayXd& peak_contact_force() const;
  const Eigen::ArrayXd& peak_velocity_x() const;
  /// The extremes tracked, per particle: peak_contact_force and peak_velocity_x.
  struct Extremes {
    Eigen::ArrayXd contact_force, velocity_x;
  };
  /// Ends the simulation: frees all it holds but the extremes, which it returns, so that the
  /// results of a long chain are taken from them with the simulation's memory free. The
  /// simulation is then as one moved from: only destroying or assigning it is allowed.
  Extremes take_extremes() &&;

 private:
  std::unique_ptr<detail::EngineState> state_;  // behind a pointer: the engines keep its address
  std::unique_ptr<detail::Engine> engine_;
};

}  // namespace chaindem
