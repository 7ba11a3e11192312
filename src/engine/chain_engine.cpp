// The chain engine: a line of beads whose pair c joins beads c and c + 1 for the whole run,
// advanced in cache-sized passes of several steps (docs/engine.md, "Chain engine").
#include "chain_engine.hpp"

namespace chaindem::detail {
namespace {

// Pairs per block of the chain engine's vectorised loop.
constexpr std::size_t chain_block = 256;

// The chain engine's particle loops, on the x components (contiguous columns), written over
// restrict pointers so that the compiler vectorises them. Same arithmetic as the general step.
// The hot loops below are compiled three times, for AVX-512 (x86-64-v4), AVX2 and any x86-64,
// and the best one is picked when the program starts. The build never contracts to FMA
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

// A chain of equal masses reads one inverse mass instead of an array (less memory traffic: the
// loops are bandwidth-bound); the values, and so the results, are the same.
struct MassOf {
  const double* inverse_mass;  // per particle, or nullptr
  double uniform;              // when inverse_mass is nullptr
  double operator[](std::size_t i) const { return inverse_mass ? inverse_mass[i] : uniform; }
};

template <bool uniform_mass>
CHAINDEM_HOT void kick_drift(std::size_t begin, std::size_t end, double* __restrict x,
                             double* __restrict v, const double* __restrict f, MassOf m,
                             double half, double dt) {
  const double* __restrict inverse_mass = m.inverse_mass;
  for (std::size_t i = begin; i < end; ++i) {
    v[i] += half * f[i] * (uniform_mass ? m.uniform : inverse_mass[i]);
    x[i] += dt * v[i];
  }
}

// Force on interior particles i in [begin, end), 0 < i < n - 1: pair i - 1 pushes it along +x,
// pair i along -x (the general gather's order: base, then pairs in list order).
CHAINDEM_HOT void gather_interior(std::size_t begin, std::size_t end, double* __restrict f,
                                  const double* __restrict base,
                                  const double* __restrict pair_force,
                                  double* __restrict peak_force) {
  for (std::size_t i = begin; i < end; ++i) f[i] = (base[i] + pair_force[i - 1]) + -pair_force[i];
  if (peak_force)
    for (std::size_t i = begin; i < end; ++i)
      peak_force[i] = std::max(peak_force[i], std::max(pair_force[i - 1], pair_force[i]));
}

constexpr int block_changed = 1;   // a pair of the block touched for the first time or separated
constexpr int block_too_deep = 2;  // a pair of the block overlaps by a radius or more

// After a block's pairs: touching = delta > 0, the new overlap's sign; the pairs whose touching
// changed (first touch if they touch now, else separation) in `changed`; returns block_changed
// and block_too_deep flags.
CHAINDEM_HOT int block_touching(std::size_t c0, std::size_t c1, const double* __restrict overlap,
                                std::uint8_t* __restrict touching, std::uint8_t* __restrict changed,
                                double deep_limit) {
  std::uint8_t any = 0, deep = 0;
  for (std::size_t c = c0; c < c1; ++c) {
    const auto on = static_cast<std::uint8_t>(overlap[c] > 0.0);
    const auto change = static_cast<std::uint8_t>(on ^ touching[c]);
    changed[c - c0] = change;
    any |= change;
    deep = static_cast<std::uint8_t>(deep | too_deep(overlap[c], deep_limit));
    touching[c] = on;
  }
  return (any ? block_changed : 0) | (deep ? block_too_deep : 0);
}

// The arrays the vectorised pair loop reads and writes, as restrict pointers.
struct PairColumns {
  double *overlap, *force, *work, *power;
  double* impact_velocity;  // laws that read v0
  const double *damping_origin, *origin_overlap, *origin_force, *origin_energy;  // read only
};

// Pairs [c0, c1) of a uniform chain under a law without a loading history (history-free, or
// reading only v0 and the damping origin), branch-free so that it vectorises: the same
// arithmetic as update_contact. A pair apart has F = 0 and books 0.5 dt P_old, which is exactly
// how update_contact closes a contact. `look` gives the predicted rate (predicted_rate). v0 and
// the origin are the columns' (at first touch: the policy's onset v0, from delta = 0); the onset
// and separation bookkeeping, and the edge corrections, are left to the caller
// (block_touching). Under the energy policy, a pair whose stored-energy speed raises v0 (which
// takes a square root) is computed with v0 from its speed alone; the loop returns whether there
// is any, and the caller computes those again.
// How the vectorised loop updates v0 after first touch (ContactRules): kept, the largest speed
// (peak), or also the stored speed (energy).
enum class V0Update { fixed, peak, energy };

template <class KernelT, V0Update update, bool origins>
CHAINDEM_HOT bool uniform_pairs_block(std::size_t c0, std::size_t c1, const double* __restrict x,
                                      const double* __restrict v, const double* __restrict look,
                                      const PairCoeffs& coeffs, double radius_sum, PairColumns out,
                                      const ContactRules& rules) {
  const PairCoeffs c_local = coeffs;
  double* __restrict overlap = out.overlap;
  double* __restrict force = out.force;
  double* __restrict work = out.work;
  double* __restrict power = out.power;
  double* __restrict impact_velocity = out.impact_velocity;
  const double* __restrict damping_origin = out.damping_origin;
  const double* __restrict origin_overlap = out.origin_overlap;
  const double* __restrict origin_force = out.origin_force;
  const double* __restrict origin_energy = out.origin_energy;
  const bool clamp = rules.clamp;
  const double dt = rules.dt;
  const double v0_low = rules.v0_low, v0_high = rules.v0_high;
  std::uint64_t any = 0;
#pragma GCC ivdep
  for (std::size_t c = c0; c < c1; ++c) {  // doubles only: one vector loop
    const double d = radius_sum - (x[c + 1] - x[c]);
    const double r = v[c] - v[c + 1];
    const double rf = predicted_rate(r, look, c);
    const bool on = d > 0.0;
    const double d_on = on ? d : 0.0;
    ContactState state;  // history-free kernels never read it
    if constexpr (kernels::reads_impact_velocity<KernelT>) {
      // A pair touches exactly when its stored overlap is positive (after the first
      // evaluation); at first touch v0 is the policy's, from this step's rate.
      const bool first_touch = on & !(overlap[c] > 0.0);
      const double stored = impact_velocity[c];  // loaded always: a select, no branch
      double v0 = first_touch ? std::min(std::max(r, v0_low), v0_high) : stored;
      if constexpr (origins) {
        state.damping_origin = damping_origin[c];
        state.origin_overlap = origin_overlap[c];
        state.origin_force = origin_force[c];
        state.origin_energy = origin_energy[c];
      }
      if constexpr (update != V0Update::fixed) {
        const double reached = std::abs(rf);
        v0 = reached > v0 ? reached : v0;
      }
      if constexpr (update == V0Update::energy) {  // pairs the stored energy may raise v0 of
        double q = 0.0;
        if constexpr (KernelT::costly_potential)
          q = KernelT::stored_speed_squared_bound(c_local, state, d_on,
                                                  KernelT::elastic(c_local, d_on));
        else
          q = KernelT::stored_speed_squared(c_local, state, d_on);
        any |= static_cast<std::uint64_t>(on & raises_v0(q, v0));
      }
      state.impact_velocity = v0;
      impact_velocity[c] = on ? v0 : stored;
      // The origins are only read: a pair that separates starts again from delta = 0, which
      // the caller sets (separation), as the origins of pairs apart are 0 already.
    }
    const kernels::Parts p = KernelT::parts(c_local, state, d_on, rf);
    double fc = p.elastic + p.damping;
    fc = clamp & (fc < 0.0) ? 0.0 : fc;
    fc = on ? fc : 0.0;
    if constexpr (!kernels::conservative<KernelT>) {
      work[c] += dt * power[c];
      power[c] = on ? (fc - p.elastic) * rf : 0.0;
    }
    overlap[c] = d_on;
    force[c] = fc;
  }
  return any != 0;
}

// The plastic history columns of a chain, as restrict pointers for the vector loop.
struct HistoryView {
  double *max_overlap, *max_force, *residual_overlap, *unload_stiffness, *unload_exponent,
      *unloading, *regime;
};

// The same for a plastic law whose history is kept in columns (kernels::PlasticHistory): pairs
// where the kernel's branch-free form is exact advance here; the others (`fallback[c - c0]`
// set, nothing of theirs written) are left to update_contact. Returns whether there are any.
// The flags are 64-bit like the doubles: byte flags would make GCC take 64 pairs per vector
// iteration, far more than the registers hold.
template <class KernelT, bool clamp>
CHAINDEM_HOT bool columns_pairs_block(std::size_t c0, std::size_t c1, const double* __restrict x,
                                      const PairCoeffs& coeffs, double radius_sum,
                                      double* __restrict overlap, double* __restrict force,
                                      double* __restrict work, HistoryView h,
                                      std::uint64_t* __restrict fallback) {
  const PairCoeffs c_local = coeffs;
  double* __restrict max_overlap = h.max_overlap;
  double* __restrict max_force = h.max_force;
  double* __restrict residual_overlap = h.residual_overlap;
  double* __restrict unload_stiffness = h.unload_stiffness;
  double* __restrict unload_exponent = h.unload_exponent;
  double* __restrict unloading = h.unloading;
  double* __restrict regime = h.regime;
  std::uint64_t any = 0;
  // Every array is written at index c only (GCC does not carry restrict through locals).
#pragma GCC ivdep
  for (std::size_t c = c0; c < c1; ++c) {
    const double d = radius_sum - (x[c + 1] - x[c]);
    const bool on = d > 0.0;
    const double d_on = on ? d : 0.0;
    const kernels::PlasticHistory old{
        max_overlap[c], max_force[c], residual_overlap[c], unload_stiffness[c], unload_exponent[c],
        unloading[c],   regime[c]};
    const bool here = !on | KernelT::columns_exact(c_local, old, d_on);
    const bool moves = on & here;  // a pair apart keeps its history
    kernels::PlasticHistory now = old;
    double f = KernelT::force_columns(c_local, now, d_on);
    if constexpr (clamp) f = f < 0.0 ? 0.0 : f;
    f = on ? f : 0.0;
    using H = kernels::PlasticHistory;
    constexpr unsigned moved = KernelT::columns_moved;
    if constexpr (moved & H::max_overlap_field)
      max_overlap[c] = moves ? now.max_overlap : old.max_overlap;
    if constexpr (moved & H::max_force_field) max_force[c] = moves ? now.max_force : old.max_force;
    if constexpr (moved & H::residual_overlap_field)
      residual_overlap[c] = moves ? now.residual_overlap : old.residual_overlap;
    if constexpr (moved & H::unload_stiffness_field)
      unload_stiffness[c] = moves ? now.unload_stiffness : old.unload_stiffness;
    if constexpr (moved & H::unload_exponent_field)
      unload_exponent[c] = moves ? now.unload_exponent : old.unload_exponent;
    if constexpr (moved & H::unloading_field) unloading[c] = moves ? now.unloading : old.unloading;
    if constexpr (moved & H::regime_field) regime[c] = moves ? now.regime : old.regime;
    const double w = work[c] + 0.5 * (force[c] + f) * (d_on - overlap[c]);
    work[c] = here ? w : work[c];
    overlap[c] = here ? d_on : overlap[c];
    force[c] = here ? f : force[c];
    if constexpr (!KernelT::columns_always_exact) {
      fallback[c - c0] = static_cast<std::uint64_t>(!here);
      any |= static_cast<std::uint64_t>(!here);
    }
  }
  return any != 0;
}

// gather_interior and the step's closing half kick in one pass (and the peaks, if tracked), and,
// for the predicted rate, the next step's look-ahead dt/2 (2 a_n - a_(n-1)) from the new force
// and the one it replaces. `base` may be nullptr: no external force or gravity (one array less
// to read).
template <bool track, bool uniform_mass, bool has_base, bool predict>
CHAINDEM_HOT void gather_kick_interior(std::size_t begin, std::size_t end, double* __restrict f,
                                       const double* __restrict base,
                                       const double* __restrict pair_force, double* __restrict v,
                                       MassOf m, double half, double* __restrict look,
                                       double* __restrict peak_force, double* __restrict peak_v) {
  const double* __restrict inverse_mass = m.inverse_mass;
  for (std::size_t i = begin; i < end; ++i) {
    const double fi = ((has_base ? base[i] : 0.0) + pair_force[i - 1]) + -pair_force[i];
    const double im = uniform_mass ? m.uniform : inverse_mass[i];
    if constexpr (predict) look[i] = half * ((fi + fi) - f[i]) * im;
    f[i] = fi;
    v[i] += half * fi * im;
    if constexpr (track) {
      peak_force[i] = std::max(peak_force[i], std::max(pair_force[i - 1], pair_force[i]));
      peak_v[i] = std::max(peak_v[i], v[i]);
    }
  }
}

}  // namespace

ChainEngine::ChainEngine(EngineState& state) : state_(state) {
  build_contacts();
  evaluate_contacts(contact_rules(state_.settings, true));
  state_.book_wall_power();
}

// The chain's pairs are fixed: each watched pair is looked up once.
void ChainEngine::watch_changed() {
  watched_chain_pair_.clear();
  for (const auto& [i, j] : state_.watched_pairs)
    watched_chain_pair_.push_back(state_.find_contact(i, j));
}

// The chain engine's contacts: pair c joins particles c and c + 1 for the whole run (in 1D no
// other pair can meet while overlaps stay below the radii), each wall meets the particle at its
// end. Built once; there is no neighbor search.
void ChainEngine::build_contacts() {
  const Particles& p = state_.scene.particles;
  const auto n = static_cast<std::size_t>(p.size());
  state_.pairs.resize(n - 1);
  radius_sum_.resize(n - 1);
  for (std::size_t c = 0; c + 1 < n; ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    radius_sum_[c] = p.radius(i) + p.radius(i + 1);
    const double d0 = radius_sum_[c] - (p.position(i + 1, 0) - p.position(i, 0));
    state_.pairs.start_entry(c, static_cast<int>(c), static_cast<int>(c + 1),
                             state_.pair_coeffs(static_cast<int>(c), static_cast<int>(c + 1)),
                             initial_overlap(d0, std::min(p.radius(i), p.radius(i + 1))),
                             Eigen::Vector3d::UnitX());
  }
  std::vector<std::pair<int, int>> walls;
  for (std::size_t w = 0; w < state_.scene.walls.size(); ++w)
    walls.emplace_back(state_.scene.walls[w].normal.x() > 0.0 ? 0 : static_cast<int>(n - 1),
                       static_cast<int>(w));
  std::sort(walls.begin(), walls.end());
  state_.wall_contacts.resize(walls.size());
  for (std::size_t c = 0; c < walls.size(); ++c) {
    const auto [i, w] = walls[c];
    const Wall& wall = state_.scene.walls[static_cast<std::size_t>(w)];
    state_.wall_contacts.start_entry(
        c, i, w, state_.wall_coeffs(i, w),
        initial_overlap(p.radius(i) - (p.position(i, 0) - wall.point.x()) * wall.normal.x(),
                        p.radius(i)),
        -wall.normal);
  }
  uniform_pairs_ = true;
  for (std::size_t c = 1; c + 1 < n && uniform_pairs_; ++c)
    uniform_pairs_ =
        radius_sum_[c] == radius_sum_[0] &&
        std::memcmp(&state_.pairs.coeffs[c], &state_.pairs.coeffs[0], sizeof(PairCoeffs)) == 0;
  base_force_x_.resize(n);
  zero_base_force_ = true;
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    base_force_x_[i] = p.external_force(k, 0) + p.mass(k) * state_.scene.gravity.x();
    zero_base_force_ = zero_base_force_ && base_force_x_[i] == 0.0;
  }
  uniform_mass_ = (p.inverse_mass == p.inverse_mass(0)).all();
  state_.pairs_share_coeffs = uniform_pairs_;
  min_radius_ = p.radius.minCoeff();
  state_.build_incidence();
}

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

// Advances contacts [c0, c1) of the chain one by one (history, floors, any law), in blocks of 8
// so that a vectorisable test skips pairs that are apart (overlap > 0 now or at the last
// evaluation: touching, or a pair that starts overlapped). `step` counts the steps of the pass
// from 0; without a pass (the evaluation at construction) the step is the run's step 0.
template <class KernelT>
void ChainEngine::advance_pairs(std::size_t c0, std::size_t c1, std::int64_t step,
                                ChainPass* pass) {
  const Particles& p = state_.scene.particles;
  const double* x = p.position.col(0).data();
  const double* v = p.velocity.col(0).data();
  const double* look = state_.lookahead.col(0).data();
  const double* radius_sum = radius_sum_.data();
  const double* overlap = state_.pairs.overlap.data();
  const double* force = state_.pairs.force.data();
  const double* power = state_.pairs.power.data();
  const ContactRules rules = contact_rules(state_.settings, !pass);
  const std::int64_t run_step = pass ? state_.step + step + 1 : 0;
  constexpr std::size_t block = 8;
  for (std::size_t b0 = c0; b0 < c1; b0 += block) {
    const std::size_t b1 = std::min(b0 + block, c1);
    double d[block];
    bool any = false;
    // A pair apart may still carry the edge impulse of its separation (update_contact).
    for (std::size_t c = b0; c < b1; ++c) {
      d[c - b0] = radius_sum[c] - (x[c + 1] - x[c]);
      any |= (d[c - b0] > 0.0) | (overlap[c] > 0.0) | (force[c] != 0.0) | (power[c] != 0.0) |
             (d[c - b0] != d[c - b0]);  // NaN: a diverged state, reported below
    }
    if (!any) continue;
    for (std::size_t c = b0; c < b1; ++c) {
      const double dc = d[c - b0];
      if (!(dc > 0.0) && !(overlap[c] > 0.0) && force[c] == 0.0 && power[c] == 0.0 && dc == dc)
        continue;
      const auto i = static_cast<Eigen::Index>(c);
      if (too_deep(dc, std::min(p.radius(i), p.radius(i + 1)))) {
        if (!pass) state_.throw_too_deep(state_.pairs, c, dc, 0);
        pass->note_fault(step, c, dc);
      }
      const double r = v[c] - v[c + 1];
      const ContactEvent event = update_contact<KernelT>(
          state_.pairs, c, dc, r, predicted_rate(r, look, c), rules,
          uniform_pairs_ ? state_.pairs.coeffs[0] : state_.pairs.coeffs[c], run_step);
      if (event == ContactEvent::end) state_.note_separation(state_.pairs, c, run_step);
    }
  }
}

// What one call of the vectorised pair loop reads: the chain's x columns, its one coefficient
// record and radius sum, the contact rules and the run's step.
struct ChainEngine::VectorPairs {
  const double* x;
  const double* v;
  const double* look;
  const PairCoeffs& coeffs;
  double radius_sum;
  double* overlap;
  ContactRules rules;
  std::int64_t run_step;
};

// Pairs [c0, c1) of a uniform chain under a law without a loading history, or a plastic law whose
// history is in columns: every pair through a branch-free loop (uniform_pairs_block,
// columns_pairs_block); only the rare first touches, separations and plastic flows leave it.
template <class KernelT>
void ChainEngine::advance_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step,
                                       ChainPass& pass) {
  const Particles& p = state_.scene.particles;
  const VectorPairs vp{p.position.col(0).data(),
                       p.velocity.col(0).data(),
                       state_.lookahead.col(0).data(),
                       state_.pairs.coeffs[0],
                       radius_sum_[0],
                       state_.pairs.overlap.data(),
                       contact_rules(state_.settings, false),
                       state_.step + step + 1};
  // The smallest radius of the chain bounds every pair's overlap (the per-pair loop uses the
  // pair's own smaller radius).
  const double deep_limit = min_radius_;
  for (std::size_t b0 = c0; b0 < c1; b0 += chain_block) {
    const std::size_t b1 = std::min(b0 + chain_block, c1);
    if constexpr (kernels::history_in_columns<KernelT>)
      plastic_block<KernelT>(vp, b0, b1);
    else
      split_force_block<KernelT>(vp, b0, b1);
    // Fallback pairs set their own touching flag (and bookkeeping): they show no event here.
    std::uint8_t changed[chain_block];
    const int flags =
        block_touching(b0, b1, vp.overlap, state_.pairs.touching.data(), changed, deep_limit);
    if (flags & block_too_deep)
      for (std::size_t c = b0; c < b1; ++c)
        if (too_deep(vp.overlap[c], deep_limit)) {
          pass.note_fault(step, c, vp.overlap[c]);
          break;
        }
    if (flags & block_changed) book_touch_changes<KernelT>(vp, b0, b1, changed);
  }
}

// Pairs [b0, b1) of a plastic law whose histories are in columns: the branch-free loop, then,
// for the pairs beyond its form (plastic flow), the pair's own update as the per-pair loop does
// it, on its history taken out of the columns.
template <class KernelT>
void ChainEngine::plastic_block(const VectorPairs& vp, std::size_t b0, std::size_t b1) {
  ContactList& pairs = state_.pairs;
  HistoryColumns& h = plastic_columns_;
  const HistoryView view{h.max_overlap.data(),
                         h.max_force.data(),
                         h.residual_overlap.data(),
                         h.unload_stiffness.data(),
                         h.unload_exponent.data(),
                         h.unloading.data(),
                         h.regime.data()};
  std::uint64_t fallback[chain_block];
  const bool any = with_flags(
      [&]<bool clamped>() {
        return columns_pairs_block<KernelT, clamped>(b0, b1, vp.x, vp.coeffs, vp.radius_sum,
                                                     vp.overlap, pairs.force.data(),
                                                     pairs.work.data(), view, fallback);
      },
      vp.rules.clamp);
  if (!any) return;
  for (std::size_t c = b0; c < b1; ++c) {
    if (!fallback[c - b0]) continue;
    h.get(c).store(pairs.state[c]);
    const double r = vp.v[c] - vp.v[c + 1];
    const ContactEvent event =
        update_contact<KernelT>(pairs, c, vp.radius_sum - (vp.x[c + 1] - vp.x[c]), r,
                                predicted_rate(r, vp.look, c), vp.rules, vp.coeffs, vp.run_step);
    if (event == ContactEvent::end) state_.note_separation(pairs, c, vp.run_step);
    h.set(c, kernels::PlasticHistory::of(pairs.state[c]));
  }
}

// Pairs [b0, b1) of a law without a loading history (one that splits its force into parts,
// whether or not it reads v0): the branch-free loop, then, for laws that read v0, the pairs
// whose stored-energy speed raises v0 (update_contact's tests, on what the loop stored), their
// force and power again with the raised v0, as update_contact has them.
template <class KernelT>
void ChainEngine::split_force_block(const VectorPairs& vp, std::size_t b0, std::size_t b1) {
  ContactList& pairs = state_.pairs;
  constexpr bool reads_v0 = kernels::reads_impact_velocity<KernelT>;
  const PairColumns columns{vp.overlap,
                            pairs.force.data(),
                            pairs.work.data(),
                            pairs.power.data(),
                            pair_impact_velocity_.data(),
                            pair_damping_origin_.data(),
                            pair_origin_overlap_.data(),
                            pair_origin_force_.data(),
                            pair_origin_energy_.data()};
  bool any = false;
  auto block = [&]<V0Update update, bool origins>() {
    any = uniform_pairs_block<KernelT, update, origins>(b0, b1, vp.x, vp.v, vp.look, vp.coeffs,
                                                        vp.radius_sum, columns, vp.rules);
  };
  if constexpr (!reads_v0) {
    block.template operator()<V0Update::fixed, false>();
  } else {
    with_flags(
        [&]<bool origins>() {
          if (vp.rules.energy)
            block.template operator()<V0Update::energy, origins>();
          else if (vp.rules.peak)
            block.template operator()<V0Update::peak, origins>();
          else
            block.template operator()<V0Update::fixed, origins>();
        },
        any_damping_origin_);
    if (!any) return;
    for (std::size_t c = b0; c < b1; ++c) {
      const double d = vp.overlap[c];
      if (!(d > 0.0)) continue;
      ContactState s;
      s.impact_velocity = pair_impact_velocity_[c];
      s.damping_origin = pair_damping_origin_[c];
      s.origin_overlap = pair_origin_overlap_[c];
      s.origin_force = pair_origin_force_[c];
      s.origin_energy = pair_origin_energy_[c];
      if constexpr (KernelT::costly_potential) {
        if (!raises_v0(KernelT::stored_speed_squared_bound(vp.coeffs, s, d,
                                                           KernelT::elastic(vp.coeffs, d)),
                       s.impact_velocity))
          continue;
      }
      const double q = KernelT::stored_speed_squared(vp.coeffs, s, d);
      if (!raises_v0(q, s.impact_velocity)) continue;
      s.impact_velocity = pair_impact_velocity_[c] = std::sqrt(q);
      const double r = vp.v[c] - vp.v[c + 1];
      const auto [f, pw] =
          force_and_power<KernelT>(vp.coeffs, s, d, predicted_rate(r, vp.look, c), vp.rules.clamp);
      pairs.force[c] = f;
      pairs.power[c] = pw;
    }
  }
}

// The first touches and separations the vectorised loop found among pairs [b0, b1) (`changed`):
// their onset and separation books, and the edge corrections, from the state an edge term reads
// (v0 of the hysteresis laws, the plastic laws' residual overlap) as the loop left it.
template <class KernelT>
void ChainEngine::book_touch_changes(const VectorPairs& vp, std::size_t b0, std::size_t b1,
                                     const std::uint8_t* changed) {
  ContactList& pairs = state_.pairs;
  constexpr bool reads_v0 = kernels::reads_impact_velocity<KernelT>;
  constexpr bool edges = kernels::has_edge_term<KernelT>;
  constexpr bool split = kernels::splits_force<KernelT>;
  auto state_of = [&](std::size_t c) {
    ContactState s;
    if constexpr (reads_v0) s.impact_velocity = pair_impact_velocity_[c];
    if constexpr (kernels::history_in_columns<KernelT>)
      s.residual_overlap = plastic_columns_.residual_overlap[c];
    return s;
  };
  for (std::size_t c = b0; c < b1; ++c) {
    if (!changed[c - b0]) continue;
    const double r = vp.v[c] - vp.v[c + 1];  // as the loop computed it
    if (pairs.touching[c]) {                 // first touch
      record_onset(pairs, c, vp.run_step, r, vp.rules, reads_v0);
      if constexpr (edges)
        add_edge<split>(pairs, c,
                        onset_correction(KernelT::edge_terms(vp.coeffs, state_of(c), r),
                                         vp.overlap[c], r, vp.rules));
    } else {  // separation
      pairs.end_step[c] = vp.run_step;
      pairs.end_rate[c] = r;
      if constexpr (reads_v0)  // a later contact starts from delta = 0 (update_contact)
        pair_damping_origin_[c] = pair_origin_overlap_[c] = pair_origin_force_[c] =
            pair_origin_energy_[c] = 0.0;
      if constexpr (edges && split)
        add_edge<true>(pairs, c,
                       end_correction(KernelT::edge_terms(vp.coeffs, state_of(c), r),
                                      vp.radius_sum - (vp.x[c + 1] - vp.x[c]), r, vp.rules));
      state_.note_separation(pairs, c, vp.run_step);
    }
  }
}

template <class KernelT>
bool ChainEngine::vectorised() const {
  constexpr bool vectorisable = kernels::history_free<KernelT> ||
                                kernels::reads_only_impact_velocity<KernelT> ||
                                kernels::history_in_columns<KernelT>;
  if constexpr (!vectorisable) {
    return false;
  } else {
    // Short chains (a few blocks) are faster on the per-pair loop, which skips pairs apart.
    if (!state_.settings.chain_vector_pairs || !uniform_pairs_ || state_.pairs.size() < chain_block)
      return false;
    if constexpr (kernels::history_in_columns<KernelT>)
      return KernelT::columns_usable(state_.pairs.coeffs[0]);
    return true;
  }
}

bool ChainEngine::vectorised_pairs() const {
  return with_kernel(state_.settings.law->kernel,
                     [&](auto kernel) { return vectorised<decltype(kernel)>(); });
}

void ChainEngine::HistoryColumns::load(const std::vector<ContactState>& states) {
  const std::size_t n = states.size();
  for (auto* column : {&max_overlap, &max_force, &residual_overlap, &unload_stiffness,
                       &unload_exponent, &unloading, &regime})
    column->resize(n);
  for (std::size_t c = 0; c < n; ++c) set(c, kernels::PlasticHistory::of(states[c]));
}

void ChainEngine::HistoryColumns::store(std::vector<ContactState>& states) const {
  for (std::size_t c = 0; c < states.size(); ++c) get(c).store(states[c]);
}

kernels::PlasticHistory ChainEngine::HistoryColumns::get(std::size_t c) const {
  return {
      max_overlap[c], max_force[c], residual_overlap[c], unload_stiffness[c], unload_exponent[c],
      unloading[c],   regime[c]};
}

void ChainEngine::HistoryColumns::set(std::size_t c, const kernels::PlasticHistory& h) {
  max_overlap[c] = h.max_overlap;
  max_force[c] = h.max_force;
  residual_overlap[c] = h.residual_overlap;
  unload_stiffness[c] = h.unload_stiffness;
  unload_exponent[c] = h.unload_exponent;
  unloading[c] = h.unloading;
  regime[c] = h.regime;
}

struct ChainEngine::ColumnsGuard {
  ChainEngine* engine = nullptr;  // nullptr: nothing loaded
  bool plastic = false;           // plastic_columns_, else the v0 columns
  ColumnsGuard() = default;
  ColumnsGuard(ChainEngine* e, bool p) : engine(e), plastic(p) {}
  ColumnsGuard(const ColumnsGuard&) = delete;
  ColumnsGuard& operator=(const ColumnsGuard&) = delete;
  ~ColumnsGuard() {
    if (!engine) return;
    if (plastic) {
      engine->plastic_columns_.store(engine->state_.pairs.state);
      return;
    }
    std::vector<ContactState>& states = engine->state_.pairs.state;
    for (std::size_t c = 0; c < states.size(); ++c) {
      states[c].impact_velocity = engine->pair_impact_velocity_[c];
      states[c].damping_origin = engine->pair_damping_origin_[c];
      states[c].origin_overlap = engine->pair_origin_overlap_[c];
      states[c].origin_force = engine->pair_origin_force_[c];
      states[c].origin_energy = engine->pair_origin_energy_[c];
    }
  }
};

ChainEngine::ColumnsGuard ChainEngine::load_history_columns() {
  enum { none, plastic, v0 };
  const int columns = with_kernel(state_.settings.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    if (!vectorised<KernelT>()) return int{none};
    if constexpr (kernels::history_in_columns<KernelT>) return int{plastic};
    if constexpr (kernels::reads_only_impact_velocity<KernelT>) return int{v0};
    return int{none};
  });
  if (columns == plastic) {
    plastic_columns_.load(state_.pairs.state);
    return ColumnsGuard(this, true);
  }
  if (columns == v0) {
    const std::vector<ContactState>& states = state_.pairs.state;
    for (auto* column : {&pair_impact_velocity_, &pair_damping_origin_, &pair_origin_overlap_,
                         &pair_origin_force_, &pair_origin_energy_})
      column->resize(states.size());
    any_damping_origin_ = false;
    for (std::size_t c = 0; c < states.size(); ++c) {
      pair_impact_velocity_[c] = states[c].impact_velocity;
      pair_damping_origin_[c] = states[c].damping_origin;
      pair_origin_overlap_[c] = states[c].origin_overlap;
      pair_origin_force_[c] = states[c].origin_force;
      pair_origin_energy_[c] = states[c].origin_energy;
      any_damping_origin_ = any_damping_origin_ || states[c].origin_overlap != 0.0;
    }
    return ColumnsGuard(this, false);
  }
  return {};
}

// Gathers particles [begin, end): contact forces (and walls at the ends) into the force, then,
// if closing_kick is nonzero, the step's closing half kick v += closing_kick f / m.
void ChainEngine::gather(std::size_t begin, std::size_t end, double closing_kick) {
  Particles& p = state_.scene.particles;
  const std::size_t n = static_cast<std::size_t>(p.size());
  double* f = p.force.col(0).data();
  double* v = p.velocity.col(0).data();
  const double* inverse_mass = p.inverse_mass.data();
  const double* pair_force = state_.pairs.force.data();
  double* peak = state_.tracking ? state_.peak_contact_force.data() : nullptr;
  double* peak_v = state_.tracking ? state_.peak_velocity_x.data() : nullptr;
  const MassOf mass{uniform_mass_ ? nullptr : p.inverse_mass.data(), p.inverse_mass(0)};
  const double* base = zero_base_force_ ? nullptr : base_force_x_.data();
  double* look = state_.lookahead.col(0).data();
  const bool predict = state_.look_kick != 0.0;
  const std::size_t b = std::max<std::size_t>(begin, 1), e = std::min(end, n - 1);
  if (b < e) {
    if (closing_kick == 0.0) {  // at construction: the look-ahead of a first step, dt/2 a_0
      gather_interior(b, e, f, base_force_x_.data(), pair_force, peak);
      for (std::size_t i = b; i < e; ++i) look[i] = state_.look_kick * f[i] * mass[i];
    } else {
      with_flags(
          [&]<bool track, bool uniform, bool has_base, bool predicted>() {
            gather_kick_interior<track, uniform, has_base, predicted>(
                b, e, f, base, pair_force, v, mass, closing_kick, look, peak, peak_v);
          },
          state_.tracking, mass.inverse_mass == nullptr, base != nullptr, predict);
    }
  }
  // The two end particles, which also meet the walls.
  for (const std::size_t i : {std::size_t{0}, n - 1}) {
    if (i < begin || i >= end) continue;
    const double f_old = closing_kick == 0.0 ? std::nan("") : f[i];
    f[i] = i == 0 ? base_force_x_[0] + -pair_force[0] : base_force_x_[n - 1] + pair_force[n - 2];
    if (peak) peak[i] = std::max(peak[i], pair_force[i == 0 ? 0 : n - 2]);
    for (std::size_t c = 0; c < state_.wall_contacts.size(); ++c) {
      if (static_cast<std::size_t>(state_.wall_contacts.first[c]) != i) continue;
      f[i] += -state_.wall_contacts.force[c] * state_.wall_contacts.nx[c];
      if (peak) peak[i] = std::max(peak[i], state_.wall_contacts.force[c]);
    }
    if (closing_kick != 0.0) {
      if (predict) look[i] = closing_kick * ((f[i] + f[i]) - f_old) * inverse_mass[i];
      v[i] += closing_kick * f[i] * inverse_mass[i];
      if (peak_v) peak_v[i] = std::max(peak_v[i], v[i]);
    } else {
      look[i] = state_.look_kick * f[i] * inverse_mass[i];
    }
  }
}

// One step of one range of a pass: drift, the walls at the chain's ends, the pairs, the gather
// with the closing kick, and what the watchers record.
template <class KernelT, bool vector_pairs>
void ChainEngine::run_range(ChainPass& pass, const ChainRange& r) {
  Particles& p = state_.scene.particles;
  const std::size_t n = static_cast<std::size_t>(p.size()), np = n - 1;
  const double dt = state_.settings.time_step, half = 0.5 * dt;
  // Particles this range drifts and gathers (the table in docs/engine.md, "Passes and tiles").
  const std::size_t drift_begin = r.left == Edge::ran_first ? r.lo + 1 : r.lo;
  const std::size_t drift_end = r.right == Edge::ran_first ? r.hi : r.hi + 1;
  const std::size_t gather_begin = r.left == Edge::runs_later ? r.lo + 1 : r.lo;
  const std::size_t gather_end = r.right == Edge::runs_later ? r.hi : r.hi + 1;
  double* x = p.position.col(0).data();
  double* v = p.velocity.col(0).data();
  const MassOf mass{uniform_mass_ ? nullptr : p.inverse_mass.data(), p.inverse_mass(0)};
  auto drift = [&](std::size_t begin, std::size_t end) {
    if (begin < end)
      with_flags(
          [&]<bool uniform>() {
            kick_drift<uniform>(begin, end, x, v, p.force.col(0).data(), mass, half, dt);
          },
          mass.inverse_mass == nullptr);
  };
  // The wall contacts of end particle i (0 or np), once it has drifted.
  const std::size_t walls = state_.scene.walls.size(), wall_contacts = state_.wall_contacts.size();
  const ContactRules wall_rules = contact_rules(state_.settings, false);
  auto walls_of = [&](std::size_t end_particle) {
    for (std::size_t c = 0; c < wall_contacts; ++c) {
      const auto i = static_cast<std::size_t>(state_.wall_contacts.first[c]);
      if (i != end_particle) continue;
      const auto w = static_cast<std::size_t>(state_.wall_contacts.second[c]);
      const std::int64_t run_step = state_.step + r.step + 1;
      if (state_.update_wall<KernelT>(
              c, pass_wall_point_[static_cast<std::size_t>(r.step) * walls + w], wall_rules,
              run_step) == ContactEvent::end)
        state_.note_separation(state_.wall_contacts, c, run_step);
      pass_wall_force_[static_cast<std::size_t>(r.step) * wall_contacts + c] =
          state_.wall_contacts.force[c];
      if (too_deep(state_.wall_contacts.overlap[c], p.radius(static_cast<Eigen::Index>(i))))
        pass.note_fault(r.step, np + c, state_.wall_contacts.overlap[c]);
    }
  };
  // The range in chunks of chain_chunk_pairs pairs: drift what the chunk's pairs read, the
  // pairs, then gather the particles whose two pairs are done. Each particle and pair does the
  // same arithmetic as with one chunk; interleaving keeps the square-root unit busy while the
  // drift and gather loops move data (they would otherwise run one after the other).
  const std::size_t chunk = std::max<std::size_t>(state_.settings.chain_chunk_pairs, 1);
  std::size_t drifted = drift_begin, gathered = gather_begin;
  for (std::size_t c0 = r.lo;;) {
    const std::size_t c1 = std::min(r.hi, c0 + chunk);
    const bool last = c1 == r.hi;
    const std::size_t drift_to = last ? drift_end : std::min(drift_end, c1 + 1);
    drift(drifted, drift_to);
    drifted = std::max(drifted, drift_to);
    if (c0 == r.lo && r.left == Edge::chain_end) walls_of(0);
    if (last && r.right == Edge::chain_end) walls_of(np);
    if (vector_pairs)
      advance_pairs_vector<KernelT>(c0, c1, r.step, pass);
    else
      advance_pairs<KernelT>(c0, c1, r.step, &pass);
    const std::size_t gather_to = last ? gather_end : std::min(gather_end, c1);
    if (gathered < gather_to) gather(gathered, gather_to, half);
    gathered = std::max(gathered, gather_to);
    if (last) break;
    c0 = c1;
  }

  const std::size_t entry = static_cast<std::size_t>(pass.log_offset + r.step);
  for (std::size_t k = 0; k < watched_chain_pair_.size(); ++k) {
    const std::optional<std::size_t> c = watched_chain_pair_[k];
    if (!c || *c < r.lo || *c >= r.hi) continue;
    const std::size_t at = entry * state_.watched_pairs.size() + k;
    state_.log.touching[at] = static_cast<std::int8_t>(state_.pairs.touching[*c]);
    state_.log.rate[at] = state_.approach_rate(state_.pairs, *c);
  }
  for (std::size_t k = 0; k < state_.watched_particles.size(); ++k) {
    const auto i = static_cast<std::size_t>(state_.watched_particles[k]);
    if (i >= gather_begin && i < gather_end)
      state_.log.speed[entry * state_.watched_particles.size() + k] =
          p.velocity.row(state_.watched_particles[k]).matrix().norm();
  }
}

// Advances the chain by `steps` steps in one pass. With several threads the chain is cut into
// one region per thread. A region's ranges shrink by one pair per step at each cut, so that it
// never needs the step of a particle another thread owns; the triangles left at the cuts are
// filled afterwards (also in parallel), each step in order.
void ChainEngine::run_pass(std::int64_t steps, std::int64_t log_offset) {
  Particles& p = state_.scene.particles;
  const std::size_t np = static_cast<std::size_t>(p.size()) - 1;
  const double dt = state_.settings.time_step;
  const std::size_t walls = state_.scene.walls.size(), wall_contacts = state_.wall_contacts.size();
  const auto pass_steps = static_cast<std::size_t>(steps);

  ChainPass pass{log_offset, {}, 2 * (np + wall_contacts)};
  // Where each wall is at each step of the pass, as step-by-step accumulation puts it.
  pass_wall_point_.resize(pass_steps * walls);
  pass_wall_force_.assign(pass_steps * wall_contacts, 0.0);
  for (std::size_t s = 0; s < pass_steps; ++s)
    for (std::size_t w = 0; w < walls; ++w) {
      state_.wall_offset[w] += dt * state_.scene.walls[w].velocity;
      pass_wall_point_[s * walls + w] = state_.wall_point(w);
    }

  const std::size_t tile = std::max(state_.settings.chain_tile_pairs, 2 * pass_steps);
  std::size_t regions = static_cast<std::size_t>(std::max(state_.settings.threads, 1));
  while (regions > 1 && (np <= parallel_threshold || np / regions < 4 * pass_steps + 2 * tile))
    --regions;
  auto cut = [&](std::size_t j) { return np * j / regions; };

  with_kernel(state_.settings.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    constexpr bool vectorisable = kernels::history_free<KernelT> ||
                                  kernels::reads_only_impact_velocity<KernelT> ||
                                  kernels::history_in_columns<KernelT>;
    const bool vector_pairs = vectorised<KernelT>();
    auto range = [&](const ChainRange& r) {
      if constexpr (vectorisable) {
        if (vector_pairs) return run_range<KernelT, true>(pass, r);
      }
      run_range<KernelT, false>(pass, r);
    };
    auto run_region = [&](std::size_t j) {
      const bool first = j == 0, last = j + 1 == regions;
      const std::size_t start = first ? 0 : cut(j) + 1, end = last ? np : cut(j + 1);
      // Tile t starts at bound(t) at step 0 and covers [bound(t) - s, bound(t + 1) - s) at step
      // s, except at the region's ends: the start of the chain stays at 0, its end at np, and a
      // region's edge at a cut moves inwards by one pair per step (tile is at least 2 pass_steps
      // wide, so a first tile shrinking from both sides never empties).
      const std::size_t tile1_start = start + tile;
      const std::size_t tiles = tile1_start >= end ? 1 : 2 + (end - tile1_start - 1) / tile;
      auto bound = [&](std::size_t t) {
        return t == 0 ? start : t == tiles ? end : tile1_start + (t - 1) * tile;
      };
      for (std::size_t t = 0; t < tiles; ++t) {
        const bool first_tile = t == 0, last_tile = t + 1 == tiles;
        for (std::size_t s = 0; s < pass_steps; ++s) {
          ChainRange r{static_cast<std::int64_t>(s), 0, 0, Edge::ran_first, Edge::runs_later};
          if (first_tile) {
            r.lo = first ? 0 : start + s;
            r.left = first ? Edge::chain_end : Edge::runs_later;
          } else {
            r.lo = bound(t) - s;
          }
          if (last_tile) {
            r.hi = last ? np : end - s;
            r.right = last ? Edge::chain_end : Edge::runs_later;
          } else {
            r.hi = bound(t + 1) - s;
          }
          range(r);
        }
      }
    };
    auto fill_cut = [&](std::size_t j) {
      for (std::size_t s = 0; s < pass_steps; ++s)
        range({static_cast<std::int64_t>(s), cut(j) - s, cut(j) + 1 + s, Edge::ran_first,
               Edge::ran_first});
    };
    if (regions == 1) {
      run_region(0);
    } else {
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(regions))
      for (std::size_t j = 0; j < regions; ++j) run_region(j);
#pragma omp parallel for schedule(static, 1) num_threads(static_cast <int>(regions - 1))
      for (std::size_t j = 1; j < regions; ++j) fill_cut(j);
    }
  });

  book_wall_work(pass_steps);
  state_.step += steps;
  state_.time = static_cast<double>(state_.step) * dt;
  if (pass.fault.found()) report_fault(pass, steps);
}

// The walls' work over the pass_steps steps of a pass, step by step: the trapezoidal rule on the
// power before and after each (nothing to add while no wall moves along its normal).
void ChainEngine::book_wall_work(std::size_t pass_steps) {
  EngineState& st = state_;
  const std::size_t wall_contacts = st.wall_contacts.size();
  const double half = 0.5 * st.settings.time_step;
  double power_before = 0.0;
  for (const double w : st.wall_power) power_before += w;
  bool moving = false;
  for (const Wall& wall : st.scene.walls) moving = moving || wall.velocity.dot(wall.normal) != 0.0;
  for (std::size_t s = 0; s < pass_steps && moving; ++s) {
    std::fill(st.wall_power.begin(), st.wall_power.end(), 0.0);
    for (std::size_t c = 0; c < wall_contacts; ++c) {
      const auto w = static_cast<std::size_t>(st.wall_contacts.second[c]);
      const Wall& wall = st.scene.walls[w];
      st.wall_power[w] += pass_wall_force_[s * wall_contacts + c] * wall.velocity.dot(wall.normal);
    }
    double power_after = 0.0;
    for (const double w : st.wall_power) power_after += w;
    st.wall_work += half * (power_before + power_after);
    power_before = power_after;
  }
}

// A fault found during a pass of `steps` steps (the earliest, as ChainPass::note_fault keys it)
// is reported at the pass's end, which is the state left, with the step where it happened.
void ChainEngine::report_fault(const ChainPass& pass, std::int64_t steps) {
  const std::size_t np = state_.pairs.size();
  const std::uint64_t fault = pass.fault.key.load();
  const std::size_t key = fault % pass.keys_per_step / 2;
  const std::int64_t at =
      state_.step - steps + static_cast<std::int64_t>(fault / pass.keys_per_step) + 1;
  if (key < np) state_.throw_too_deep(state_.pairs, key, pass.fault.overlap, at);
  state_.throw_too_deep(state_.wall_contacts, key - np, pass.fault.overlap, at);
}

// The contact forces at construction: every pair and wall contact, then the particle forces.
void ChainEngine::evaluate_contacts(const ContactRules& rules) {
  with_kernel(state_.settings.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    advance_pairs<KernelT>(0, state_.pairs.size(), 0, nullptr);
    state_.evaluate_walls<KernelT>(rules, state_.step);
  });
  state_.check_wall_depths(0);
  gather(0, static_cast<std::size_t>(state_.scene.particles.size()), 0.0);
}

// Passes of equal length (at most chain_pass_steps): a short last pass would reload every tile
// for a few steps only.
void ChainEngine::advance(std::int64_t n) {
  const std::int64_t most = std::max(state_.settings.chain_pass_steps, 1);
  const std::int64_t passes = (n + most - 1) / most;
  const ColumnsGuard columns = load_history_columns();
  for (std::int64_t k = 0, done = 0; k < passes; ++k) {
    const std::int64_t length = (n - done) / (passes - k);
    run_pass(length, done);
    done += length;
  }
}

}  // namespace chaindem::detail
