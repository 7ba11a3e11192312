#pragma once
// The chain engine: a line of beads whose pair c joins beads c and c + 1 for the whole run,
// advanced in cache-sized passes of several steps (docs/engine.md, "Chain engine").

#include "engine_state.hpp"

// The chain engine's hot loops (the particle loops in chain_engine.cpp, the vectorised pair
// loops in chain_pairs.hpp) are compiled three times, for AVX-512 (x86-64-v4), AVX2 and any
// x86-64, and the best one is picked when the program starts. The build never contracts to FMA
// (-ffp-contract=off), so every version computes the same values.
// Two builds compile one version, the default one, which computes the same values: under
// ThreadSanitizer (g++ defines __SANITIZE_THREAD__) the resolver that picks a clone is an ifunc,
// which the dynamic loader calls while relocating the program, before the TSan runtime is set
// up, and the instrumented resolver then crashes the program before main; and clang 14 (the
// fuzzing build, scripts/fuzz.sh) does not multiversion function templates.
#if defined(__SANITIZE_THREAD__) || defined(__clang__)
#define CHAINDEM_HOT
#else
#define CHAINDEM_HOT __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#endif

namespace chaindem::detail {

/// Kernels the vectorised pair loop takes: those without a loading history (reading v0 or not),
/// and the plastic ones whose history it keeps in columns (kernels::PlasticHistory).
template <class KernelT>
inline constexpr bool vector_loop_kernel =
    kernels::history_free<KernelT> || kernels::reads_only_impact_velocity<KernelT> ||
    kernels::history_in_columns<KernelT>;

/// What run_range takes for its kernel in a chain whose contacts obey several models: each run
/// of pairs, and each wall contact, is dispatched on its own model's kernel.
struct SeveralModels {};

class ChainEngine final : public Engine {
 public:
  /// Builds the chain's contacts (the state must form a chain: forms_chain) and evaluates the
  /// forces of step 0.
  explicit ChainEngine(EngineState& state);
  /// n steps in passes of equal length; if a contact overlaps by a radius, the message names the
  /// step and the state is the pass's end.
  void advance(std::int64_t n) override;
  void watch_changed() override;
  bool vectorised_pairs() const override;
  std::int64_t neighbor_rebuilds() const override { return 1; }  // built once
  /// The displacements (the positions are the state's, rounded).
  void save(StateArchive& a) const override;
  void restore(const StateArchive& a) override;

 private:
  struct ChainPass;
  struct ChainRange;
  /// A run of consecutive pairs [begin, end) under one model: the pairs of a chain of several
  /// media come in chain order, so that each medium's pairs (and each interface) form one.
  struct Segment {
    std::size_t begin, end;
    int model;
    bool uniform;       ///< every pair has the coefficients and radius sum of pair `begin`
    double radius_sum;  ///< of pair `begin` (radius_sum): every pair's, if uniform
    double min_radius;  ///< the smallest radius of its particles: bounds its overlaps
    /// The lattice's gap between its beads (build_lattice): a pair's overlap is
    /// u_c - u_(c+1) - gap.
    double gap = 0.0;
    bool vector = false;  ///< evaluated by the vectorised loop (vectorised)
    /// The kind (validity_watch.hpp) of every pair and their R*, when they have one kind and one
    /// R* (the vectorised loop then watches a block's largest overlap alone); else -1.
    int kind = -1;
    double contact_radius = 0.0;
    /// The history columns the vectorised loop keeps for it (load_history_columns).
    enum class Columns : std::uint8_t { none, plastic, v0 } columns = Columns::none;
  };
  /// The lattice and each bead's displacement from it (lattice_, displacement_), once the
  /// segments are built.
  void build_lattice();
  /// Sets the particles' positions from the lattice and the displacements (the state a pass
  /// leaves is in displacement_).
  void place_particles();
  /// Wall contact c's overlap, its wall at `point`, from the end bead's displacement.
  double wall_overlap(std::size_t c, const Eigen::Vector3d& point) const;
  void build_contacts();
  bool equal_pairs() const;
  /// Cuts the pairs into segments_ and decides how each is evaluated.
  void build_segments();
  /// The contact and particle forces at construction.
  void evaluate_contacts();
  void run_pass(std::int64_t steps, std::int64_t log_offset);
  /// The walls' points and forces of a pass of `pass_steps` steps.
  void place_walls(std::size_t pass_steps);
  /// The driven loads' changes at each step of the pass (pass_load_).
  void place_loads(std::size_t pass_steps);
  void book_wall_work(std::size_t pass_steps);
  [[noreturn]] void report_fault(const ChainPass& pass, std::int64_t steps);
  template <class KernelT, bool vector_pairs>
  void run_range(ChainPass& pass, const ChainRange& r);
  /// A pass of `pass_steps` steps over a chain that is one range of one chunk.
  template <class KernelT>
  void run_whole(ChainPass& pass, std::size_t pass_steps);
  /// The wall contacts of an end particle at step `step` of the pass.
  template <class KernelT>
  void step_walls(std::size_t end_particle, std::int64_t step, ChainPass& pass,
                  const ContactRules& rules);
  /// What the watched pairs and particles record of a step (Simulation::watch).
  void record_watched(const ChainPass& pass, std::int64_t step, std::size_t lo, std::size_t hi,
                      std::size_t gather_begin, std::size_t gather_end);
  /// Pairs [c0, c1) of model m, one by one.
  template <class KernelT>
  void advance_pairs(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass* pass, int m,
                     double gap);
  /// Pair c of the per-pair loop at overlap dc, not idle (advance_pairs' step, pass, rules and
  /// run step).
  template <class KernelT>
  void advance_pair(std::size_t c, double dc, std::int64_t step, ChainPass* pass,
                    const ContactRules& rules, std::int64_t run_step);
  /// Pairs [c0, c1) of segment g, in the vectorised loop.
  template <class KernelT>
  void advance_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass& pass,
                            const Segment& g);
  /// Pairs [c0, c1) of a chain of several models: each segment's part with its own kernel.
  void advance_segments(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass& pass);

  struct VectorPairs;
  template <class KernelT>
  void plastic_block(const VectorPairs& vp, std::size_t b0, std::size_t b1);
  template <class KernelT>
  void split_force_block(const VectorPairs& vp, std::size_t b0, std::size_t b1);
  template <class KernelT>
  void book_touch_changes(const VectorPairs& vp, std::size_t b0, std::size_t b1,
                          const std::uint8_t* changed);
  /// The kind of pair c of a vectorised loop, and the strains of its pairs [b0, b1), whose
  /// largest overlap is `deepest` (validity_watch.hpp).
  int kind_of(const VectorPairs& vp, std::size_t c) const;
  void note_strains(const VectorPairs& vp, std::size_t b0, std::size_t b1, double deepest) const;
  /// The strains of pairs [c0, c1) once evaluated, into the thread's `tally` (kind_runs_), and
  /// the impact speed of pair c at its first touch.
  void watch_pairs(std::size_t c0, std::size_t c1, const ValidityTally& tally) const;
  [[gnu::cold, gnu::noinline]] void note_onset(std::size_t c) const;
  /// Whether the pairs of segment g run on the vectorised pair loop (advance_pairs_vector).
  template <class KernelT>
  bool vectorised(const Segment& g) const;
  /// Loads the histories into columns when the vectorised loop keeps them there; the returned
  /// guard stores them back into the pairs' states (also when a step throws).
  struct ColumnsGuard;
  ColumnsGuard load_history_columns();
  void store_history_columns();
  /// `step`: the step of the pass, whose driven loads' changes it adds (-1: those at the
  /// state's time, at construction).
  void gather(std::size_t begin, std::size_t end, double closing_kick, std::int64_t step);
  /// The base force of the driven loads' particles in [begin, end) at step `step` of the pass
  /// (-1: at the state's time), and, once gathered, the power of their changes.
  void set_driven_loads(std::size_t begin, std::size_t end, std::int64_t step);
  void note_load_power(std::size_t begin, std::size_t end, std::int64_t step);
  void gather_ends(std::size_t begin, std::size_t end, double closing_kick);

  /// r_c + r_(c+1), pair c's overlap at zero distance: the lattice's spacing.
  double radius_sum(std::size_t c) const {
    const Eigen::ArrayXd& r = state_.scene.particles.radius;
    return r(static_cast<Eigen::Index>(c)) + r(static_cast<Eigen::Index>(c + 1));
  }

  EngineState& state_;
  // The chain engine advances displacements, not positions. Bead c's place in the lattice is
  // L_c = L_0 + sum over k < c of (r_k + r_(k+1) + g_k), g_k the gap of pair k's segment (the
  // median of its pairs' initial gaps: 0 for beads that touch), L_0 chosen so that the median
  // displacement is 0; its displacement is u_c = x_c - L_c. Pair c's overlap is then
  // u_c - u_(c+1) - g_c, whatever the chain's length and place, and a step adds dt v to u_c,
  // small for most beads, rather than to a position far from the origin whose last digit would
  // round the step away (docs/engine.md, "Positions and round-off"). The positions are set from
  // them at the end of each advance() (place_particles).
  std::vector<double> displacement_;  ///< u_c [m]
  std::vector<double> lattice_;       ///< L_c, rounded to a double [m]
  /// What L_c holds below lattice_[c] at the two ends, whose walls need their positions to the
  /// last digit [m].
  double first_lattice_low_ = 0.0, last_lattice_low_ = 0.0;
  /// What a checkpoint records of the lattice: its origin and its segments' gaps.
  std::vector<double> lattice_record() const;
  /// External force + m g along x, per particle; empty where it is zero for every particle.
  std::vector<double> base_force_x_;
  bool uniform_mass_ = false;  ///< every particle has the same mass
  /// Every pair has the same coefficients and radius sum (a uniform chain): history-free laws
  /// then run a vectorised loop that evaluates every pair.
  bool uniform_pairs_ = false;
  /// The model every contact obeys, or -1 when they obey several: the passes then dispatch on the
  /// kernel of each segment and each wall contact (SeveralModels) instead of once.
  int model_ = 0;
  /// The pairs in runs of one model, in chain order: one segment for a chain of one model.
  std::vector<Segment> segments_;
  /// The pairs in runs of one kind (validity_watch.hpp), in chain order: one for a chain of
  /// one material, one per medium and interface for a chain of several. `radius`: the R* of
  /// every pair of the run, or 0 where they differ; `least_radius`, the smallest. A chain whose
  /// pairs change kind more often than most_kind_runs times is one run of kind -1 (each pair's
  /// kind looked up).
  struct KindRun {
    std::size_t begin, end;
    int kind;
    double radius, least_radius;
  };
  static constexpr std::size_t most_kind_runs = 1024;
  std::vector<KindRun> kind_runs_;
  void build_kind_runs();
  /// Laws that read only v0, on the vectorised loop: each pair's v0 and damping origin
  /// (ContactState::impact_velocity, damping_origin, origin_overlap, origin_force,
  /// origin_energy) as columns, the working copy of the pairs' states during advance().
  std::vector<double> pair_impact_velocity_, pair_damping_origin_, pair_origin_overlap_,
      pair_origin_force_, pair_origin_energy_;
  bool any_damping_origin_ = false;  ///< some pair started pre-compressed with a static origin
  /// Plastic laws on the vectorised loop: the pairs' histories as columns (PlasticHistory's
  /// fields, one array each), the working copy of the pairs' states during advance().
  struct HistoryColumns {
    std::vector<double> max_overlap, max_force, residual_overlap, unload_stiffness, unload_exponent,
        unloading, regime;
    /// Entries [begin, end) from and to the states (the columns as long as the states).
    void load(const std::vector<ContactState>& states, std::size_t begin, std::size_t end);
    void store(std::vector<ContactState>& states, std::size_t begin, std::size_t end) const;
    kernels::PlasticHistory get(std::size_t c) const;
    void set(std::size_t c, const kernels::PlasticHistory& h);
  } plastic_columns_;
  /// Pair index of each watched pair (none: the particles are not neighbours in the chain).
  std::vector<std::optional<std::size_t>> watched_chain_pair_;
  std::vector<Eigen::Vector3d> pass_wall_point_;  ///< during a pass: [step * walls + w]
  std::vector<WallDrive> pass_wall_drive_;        ///< likewise: speeds and obliquity
  std::vector<double> pass_wall_power_;  ///< delivered, during a pass: [step * wall contacts + c]
  /// Each driven load's particle's base force without the load's change (base_force_x_), and,
  /// during a pass, the change at each step and its power: [step * driven loads + l].
  std::vector<double> load_base_, pass_load_, pass_load_power_;
};

// Chain passes. A pass advances the whole chain by several steps, one tile (a stretch of a few
// hundred pairs) at a time: the tile goes through all the steps of the pass while it sits in
// cache, instead of the whole chain streaming through memory at every step. Each step of a tile
// is a ChainRange: pairs [lo, hi) and the particles around them. A particle's step is a drift
// (opening half kick and drift), then, once both its pairs have their new force, a gather
// (force sum and closing half kick). Along the chain a step only needs the neighbours' previous
// step, so a tile may run ahead of the tile on its right as long as its own range slides left by
// one pair per step ("time skewing"); every particle and pair still does exactly the arithmetic
// of a step-by-step run, in the same order, so results are bitwise the same.
//
// At each end, a range meets the chain's end, or a neighbour range that ran this step first (it
// has drifted the shared particle and evaluated the pair beyond: this range gathers the
// particle), or one that runs it later (this range drifts the shared particle and leaves its
// gather to the neighbour).
enum class Edge : std::uint8_t { chain_end, ran_first, runs_later };

struct ChainEngine::ChainRange {
  std::int64_t step;  ///< step within the pass, from 0
  std::size_t lo, hi;
  Edge left, right;
};

struct ChainEngine::ChainPass {
  std::int64_t log_offset;  ///< step-log entry of the pass's first step
  /// Earliest contact found too deep (too_deep), as step * keys_per_step + fault_key(key), key
  /// the pair (or pairs + wall contact).
  FirstFault fault;
  std::uint64_t keys_per_step;  ///< 2 (pairs + wall contacts)
  void note_fault(std::int64_t step, std::size_t key, double overlap) {
    fault.note(static_cast<std::uint64_t>(step) * keys_per_step + fault_key(key, overlap), overlap);
  }
};

// Inline: the chain engine asks it at every step of each end bead with a wall, and on short
// chains a call there is a few per cent of the step.
inline double ChainEngine::wall_overlap(std::size_t c, const Eigen::Vector3d& point) const {
  const auto i = static_cast<std::size_t>(state_.wall_contacts.first[c]);
  const Wall& wall = state_.scene.walls[static_cast<std::size_t>(state_.wall_contacts.second[c])];
  const double low = i == 0 ? first_lattice_low_ : last_lattice_low_;
  return state_.scene.particles.radius(static_cast<Eigen::Index>(i)) -
         ((lattice_[i] - point.x()) + ((low - wall.point_carry.x()) + displacement_[i])) *
             wall.normal.x();
}

}  // namespace chaindem::detail
