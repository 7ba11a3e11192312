#pragma once
// The particle engine: velocity-Verlet integration, neighbor structure with per-pair contact
// history, force evaluation dispatched once per loop on the law's kernel, energy bookkeeping.

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "chaindem/engine/scene.hpp"
#include "chaindem/laws/contact_law.hpp"

namespace chaindem {

namespace detail {
struct ContactRules;                     // how a loop's contacts set v0 and book their work
enum class ContactEvent : std::uint8_t;  // what an evaluation did to a contact
}  // namespace detail

/// Effective quantities (E*, R*, m*) of particles i and j, or of particle i against wall w.
PairInput pair_input(const Scene& scene, Eigen::Index i, Eigen::Index j);
PairInput wall_input(const Scene& scene, Eigen::Index i, std::size_t w);

/// True when the scene can run on the chain engine: at least two particles, all on one line
/// parallel to x (equal y and z), in increasing x order, moving and loaded along x only (gravity
/// too), and every wall normal to x, the one facing +x before the first particle and the one
/// facing -x after the last.
bool forms_chain(const Scene& scene);

struct SimulationSettings {
  const LawEntry* law = nullptr;
  LawParams law_params;
  TensionPolicy tension = TensionPolicy::clamp;
  double time_step = 0.0;  ///< [s]
  double skin = 0.0;       ///< neighbor skin [m]
  int threads = 1;         ///< OpenMP threads for the force loops
  /// Which engine steps the particles. The chain engine (particles on the x axis, in order,
  /// touching only their neighbours and walls normal to x) skips the neighbor search and
  /// evaluates only the contacts that overlap; docs/engine.md.
  enum class Engine { automatic, general, chain } engine = Engine::automatic;
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
  /// the largest relative speed the contact has reached so far; energy, that or the speed whose
  /// kinetic energy the contact stores, whichever is larger; reference, reference_velocity for
  /// every contact (Hunt and Crossley's damping constant alpha/v_ref).
  enum class ImpactVelocity {
    onset,
    peak,
    energy,
    reference
  } impact_velocity = ImpactVelocity::energy;
  double reference_velocity = 0.0;  ///< v0 of every contact under `reference` [m/s]
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

/// Candidate contacts (particle-particle or particle-wall) with their history, structure of
/// arrays. `second` is a particle index for pairs and a wall index for wall contacts.
struct ContactList {
  std::vector<int> first, second;
  std::vector<PairCoeffs> coeffs;
  std::vector<ContactState> state;
  std::vector<double> overlap;         ///< delta of the last evaluation (0 when apart) [m]
  std::vector<double> force;           ///< normal force after the tension policy [N]
  std::vector<double> nx, ny, nz;      ///< unit normal from `first` towards `second`
  std::vector<std::uint8_t> touching;  ///< 1 while delta > 0
  /// Energy books. Laws with a loading history (plastic): work absorbed over the pair's life,
  /// the integral of F d(delta) from the overlap the pair started at (its dissipation is this
  /// less what it stores). Other laws: work of the damping part of the force, the time integral
  /// of (F - F_e) v, which is >= 0 step by step and 0 for an undamped law [J].
  std::vector<double> work;
  std::vector<double> power;       ///< other laws: damping power (F - F_e) v, last evaluation [W]
  std::vector<int> floor_hits;     ///< contacts of this pair whose v0 was raised to the floor
  std::vector<double> onset_rate;  ///< approach rate at the last first touch (0: never) [m/s]
  std::vector<double> end_rate;    ///< approach rate at the last separation [m/s]
  /// Step of the last first touch and of the last separation (-1: none). A contact ended at step
  /// s touched during steps [onset_step, s - 1].
  std::vector<std::int64_t> onset_step, end_step;

  std::size_t size() const { return first.size(); }
  void resize(std::size_t n);
  /// Moves entry `from` of `other` to entry `to` of this list.
  void copy_entry(std::size_t to, const ContactList& other, std::size_t from);
  /// Makes entry k a new contact of (i, j): no history, no force, its overlap `delta0` (> 0 for
  /// a pair that starts pressed together: its first evaluation books the energy it stores there
  /// as work, so that it dissipates nothing by starting), normal n.
  void start_entry(std::size_t k, int i, int j, const PairCoeffs& c, double delta0,
                   const Eigen::Vector3d& n);
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
  Simulation(Scene scene, SimulationSettings settings);

  /// Advances by one velocity-Verlet step.
  void step();
  /// Advances by `n` steps (the chain engine takes several steps per pass over the chain; if it
  /// stops on an overlap of a radius, the message names the step and the state is the pass's
  /// end).
  void advance(std::int64_t n);

  /// What advance() records after each of its steps, for observers that need every step: the
  /// contacts and particles named by watch(). Entry [s * count + k] is step s of the last call.
  struct StepLog {
    std::int64_t steps = 0;
    std::vector<std::int8_t> touching;  ///< 1 touching, 0 apart, -1 not a candidate contact
    std::vector<double> rate;           ///< approach rate at the step's end [m/s] (0 if none)
    std::vector<double> speed;          ///< |v| [m/s]
  };
  /// Index of the candidate contact of particles i < j in pair_contacts(), or -1.
  long find_contact(int i, int j) const;
  /// Watches particle pairs (i, j) (i < j) and particles: see StepLog.
  void watch(std::vector<std::pair<int, int>> pairs, std::vector<Eigen::Index> particles);
  const StepLog& step_log() const { return log_; }

  /// A contact that began and ended isolated: an impact from apart during which neither body
  /// touched anything else or carried a load, so that its restitution is a binary one.
  struct IsolatedContact {
    std::int64_t step;       ///< step at which the bodies separated (delta back to 0)
    int first;               ///< particle
    int second;              ///< particle, or -(wall index) - 1
    double impact_velocity;  ///< approach rate at first touch [m/s]
    double restitution;      ///< -(approach rate at separation) / impact_velocity
  };
  /// The isolated contacts that ended during the last advance(), in order of step and bodies.
  const std::vector<IsolatedContact>& isolated_contacts() const { return isolated_; }

  double time() const { return time_; }
  std::int64_t step_count() const { return step_; }
  double time_step() const { return settings_.time_step; }
  const SimulationSettings& settings() const { return settings_; }
  const Scene& scene() const { return scene_; }
  const Particles& particles() const { return scene_.particles; }
  const ContactList& pair_contacts() const { return pairs_; }
  const ContactList& wall_contacts() const { return wall_contacts_; }
  /// Current position of wall w (it moves with its prescribed velocity).
  Eigen::Vector3d wall_point(std::size_t w) const;

  /// Approach rate of contact c of `cl` (pairs or walls) now, from the bodies' velocities [m/s].
  double approach_rate(const ContactList& cl, std::size_t c) const;

  EnergyReport energies() const;
  Eigen::Vector3d momentum() const;
  /// Contacts whose impact velocity was raised to the law's floor, over the whole run.
  std::int64_t impact_velocity_floor_hits() const;
  std::int64_t neighbor_rebuilds() const { return rebuilds_; }

  /// True when the 1D chain engine steps this simulation.
  bool uses_chain_engine() const { return chain_; }
  /// Whether the chain engine evaluates the pairs in its vectorised loop (uniform chains of 256
  /// pairs or more under a law with a branch-free form; docs/engine.md).
  bool uses_vectorised_pairs() const;

  /// Starts recording, now and after every step, each particle's largest contact force (over its
  /// touching contacts; 0 if none yet) and its largest velocity along x. Folded into the step's
  /// own loops, so it costs almost nothing per step.
  void track_extremes();
  const Eigen::ArrayXd& peak_contact_force() const { return peak_contact_force_; }
  const Eigen::ArrayXd& peak_velocity_x() const { return peak_velocity_x_; }

 private:
  void step_general();
  /// The general engine's contact and particle forces (compute_forces).
  void evaluate_general_contacts(const detail::ContactRules& rules, bool first);
  void build_chain_contacts();
  /// The chain engine's contact and particle forces at construction (compute_forces).
  void evaluate_chain_contacts(const detail::ContactRules& rules);
  /// advance() on the chain engine: n steps in passes.
  void advance_chain(std::int64_t n);
  struct ChainPass;
  struct ChainRange;
  void chain_pass(std::int64_t steps, std::int64_t log_offset);
  template <class KernelT, bool vector_pairs>
  void chain_range(ChainPass& pass, const ChainRange& range);
  template <class KernelT>
  void chain_pairs(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass* pass);
  template <class KernelT>
  void chain_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass& pass);
  /// Whether the chain engine runs the law on its vectorised pair loop (chain_pairs_vector).
  template <class KernelT>
  bool chain_vectorised() const;
  /// Loads the plastic histories into plastic_columns_ when the vectorised loop keeps them there;
  /// the returned guard stores them back into pairs_.state (also when a step throws).
  struct ColumnsGuard;
  ColumnsGuard load_history_columns();
  void chain_gather(std::size_t d0, std::size_t d1, double closing_kick);
  template <class KernelT>
  detail::ContactEvent update_wall(std::size_t c, const Eigen::Vector3d& point,
                                   const detail::ContactRules& rules, std::int64_t step);
  void record_step(std::int64_t s);
  void rebuild_neighbors();
  /// Per-particle incidence lists (CSR) of the current contacts, pairs then walls.
  void build_incidence();
  /// Books the contact of `cl` at c that has just separated at step `step`, if it was isolated.
  void note_separation(const ContactList& cl, std::size_t c, std::int64_t step);
  /// Sorts the isolated contacts the threads logged during advance() into isolated_.
  void collect_isolated();
  /// Contact forces and particle forces (at construction for the chain engine, whose steps
  /// evaluate them in chain_range).
  void compute_forces();
  template <class KernelT>
  void evaluate_pairs(const detail::ContactRules& rules, std::int64_t step);
  template <class KernelT>
  void evaluate_walls(const detail::ContactRules& rules, std::int64_t step);
  void gather_forces(bool first);
  PairCoeffs pair_coeffs(int i, int j) const;
  PairCoeffs wall_coeffs(int i, int w) const;

  Scene scene_;
  SimulationSettings settings_;
  double impact_velocity_floor_ = 0.0;
  double initial_external_ = 0.0;  ///< sum f_ext . x at the start [J]
  /// Predicted rate: each particle's velocity at the end of the next step is its half-step
  /// velocity plus this, dt/2 (2 a_n - a_(n-1)) (0 for the half-step rate) [m/s]
  Vec3Array lookahead_;
  double look_kick_ = 0.0;            ///< dt/2 for the predicted rate, 0 for the half-step rate [s]
  std::vector<std::uint8_t> loaded_;  ///< particle carries an applied load or gravity
  std::vector<std::vector<IsolatedContact>> isolated_logs_;  ///< per thread, during advance()
  std::vector<IsolatedContact> isolated_;
  double time_ = 0.0;
  std::int64_t step_ = 0;
  std::int64_t rebuilds_ = 0;

  ContactList pairs_;
  ContactList wall_contacts_;
  // Per-particle incidence (CSR) into the contact lists, in a fixed order, so that force sums
  // are bitwise identical for any thread count.
  std::vector<int> incidence_offset_;
  std::vector<int> incidence_;    ///< >= 0: pair index; < 0: -(wall contact index) - 1
  Vec3Array reference_position_;  ///< positions at the last neighbor rebuild
  std::vector<Eigen::Vector3d> wall_offset_;
  std::vector<Eigen::Vector3d> wall_offset_at_rebuild_;
  double retired_dissipated_ = 0.0;  ///< dissipated by pairs that left the neighbor structure
  /// Plastic histories of pairs outside the neighbor structure, by (first << 32 | second).
  std::unordered_map<std::uint64_t, ContactState> dormant_pairs_, dormant_walls_;
  std::int64_t retired_floor_hits_ = 0;
  double wall_work_ = 0.0;
  std::vector<double> wall_power_;  ///< power delivered by each wall at the last evaluation [W]

  bool tracking_ = false;
  Eigen::ArrayXd peak_contact_force_, peak_velocity_x_;

  // Chain engine: pair c joins particles c and c + 1 for good.
  bool chain_ = false;
  std::vector<double> radius_sum_;    ///< r_c + r_(c+1)
  std::vector<double> base_force_x_;  ///< external force + m g along x, per particle
  bool zero_base_force_ = false;      ///< base_force_x_ is all zero
  bool uniform_mass_ = false;         ///< every particle has the same mass
  double min_radius_ = 0.0;           ///< bounds every overlap of the chain engine
  /// Every pair has the same coefficients and radius sum (a uniform chain): history-free laws
  /// then run a vectorised loop that evaluates every pair.
  bool uniform_pairs_ = false;
  /// Laws that read only v0, on the vectorised loop: each pair's v0 and damping origin
  /// (ContactState::impact_velocity, damping_origin, origin_overlap, origin_force,
  /// origin_energy) as columns, the working copy of pairs_.state during advance().
  std::vector<double> pair_impact_velocity_, pair_damping_origin_, pair_origin_overlap_,
      pair_origin_force_, pair_origin_energy_;
  bool any_damping_origin_ = false;  ///< some pair started pre-compressed with a static origin
  /// Plastic laws on the vectorised loop: the pairs' histories as columns (PlasticHistory's
  /// fields, one array each), the working copy of pairs_.state during advance().
  struct HistoryColumns {
    std::vector<double> max_overlap, max_force, residual_overlap, unload_stiffness, unload_exponent,
        unloading, regime;
    void load(const std::vector<ContactState>& states);
    void store(std::vector<ContactState>& states) const;
    kernels::PlasticHistory get(std::size_t c) const;
    void set(std::size_t c, const kernels::PlasticHistory& h);
  } plastic_columns_;

  std::vector<std::pair<int, int>> watched_pairs_;
  std::vector<Eigen::Index> watched_particles_;
  std::vector<long> watched_chain_pair_;  ///< chain engine: pair index of each watched pair, or -1
  StepLog log_;
  std::vector<Eigen::Vector3d> pass_wall_point_;  ///< chain pass: [step * walls + w]
  std::vector<double> pass_wall_force_;           ///< chain pass: [step * wall contacts + c]
};

}  // namespace chaindem
