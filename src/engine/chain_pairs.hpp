#pragma once
// The chain engine's pair loops: the per-pair loop, which takes any law, and the vectorised loop
// of uniform chains. Included by chain_engine.cpp only, whose passes call them: compiled in one
// translation unit, the loops and their callers are inlined into one another as they were
// written in one file (the engine's speed depends on it).

#include "chain_engine.hpp"

namespace chaindem::detail {
namespace {

// Pairs per block of the chain engine's vectorised loop.
constexpr std::size_t chain_block = 256;

// The vectorised loops below are written over restrict pointers so that the compiler vectorises
// them (CHAINDEM_HOT).

constexpr int block_changed = 1;   // a pair of the block touched for the first time or separated
constexpr int block_too_deep = 2;  // a pair of the block overlaps by a radius or more

// After a block's pairs: touching = delta > 0, the new overlap's sign; the pairs whose touching
// changed (first touch if they touch now, else separation) in `changed`; returns block_changed
// and block_too_deep flags, and sets `deepest` to the block's largest overlap (the watch of the
// law's validity, validity_watch.hpp). The loops leave every overlap a number >= +0 (0 for a
// pair apart, a NaN one too), and such doubles order as their bits: the largest is taken as an
// integer maximum, which vectorises where one of doubles (which the compiler must take to be
// unordered under NaN and signed zeros) does not; and a pair is too deep when the largest is.
CHAINDEM_HOT int block_touching(std::size_t c0, std::size_t c1, const double* __restrict overlap,
                                std::uint8_t* __restrict touching, std::uint8_t* __restrict changed,
                                double deep_limit, double& deepest) {
  std::uint8_t any = 0;
  std::int64_t most = 0;
  for (std::size_t c = c0; c < c1; ++c) {
    const auto on = static_cast<std::uint8_t>(overlap[c] > 0.0);
    const auto change = static_cast<std::uint8_t>(on ^ touching[c]);
    changed[c - c0] = change;
    any |= change;
    most = std::max(most, std::bit_cast<std::int64_t>(overlap[c]));
    touching[c] = on;
  }
  deepest = std::bit_cast<double>(most);
  return (any ? block_changed : 0) | (too_deep(deepest, deep_limit) ? block_too_deep : 0);
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
CHAINDEM_HOT bool uniform_pairs_block(std::size_t c0, std::size_t c1, const double* __restrict u,
                                      double gap, const double* __restrict v,
                                      const double* __restrict look, const PairCoeffs& coeffs,
                                      PairColumns out, const ContactRules& rules) {
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
    const double d = (u[c] - u[c + 1]) - gap;
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
CHAINDEM_HOT bool columns_pairs_block(std::size_t c0, std::size_t c1, const double* __restrict u,
                                      double gap, const PairCoeffs& coeffs,
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
    const double d = (u[c] - u[c + 1]) - gap;
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

// Whether a pair of the per-pair loop at overlap dc is apart and was apart (overlap, force and
// power of its last evaluation) with nothing left to book: its update would change nothing. A
// pair apart may still carry the edge impulse of its separation (update_contact); a NaN overlap,
// a diverged state, is updated (and reported).
inline bool idle_pair(double dc, double overlap, double force, double power) {
  return !(dc > 0.0) && !(overlap > 0.0) && force == 0.0 && power == 0.0 && dc == dc;
}

}  // namespace

// Advances contacts [c0, c1) of the chain one by one (history, floors, any law), in blocks of 8
// so that a vectorisable test skips pairs that are apart (overlap > 0 now or at the last
// evaluation: touching, or a pair that starts overlapped). `step` counts the steps of the pass
// from 0; without a pass (the evaluation at construction) the step is the run's step 0.
template <class KernelT>
void ChainEngine::advance_pairs(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass* pass,
                                int m, double gap) {
  const double* u = displacement_.data();
  const double* overlap = state_.pairs.overlap.data();
  const double* force = state_.pairs.force.data();
  const double* power = state_.pairs.power.data();
  const ContactRules rules = state_.rules_of(m, !pass);
  const std::int64_t run_step = pass ? state_.step + step + 1 : 0;
  // The blocks evaluated span [first, last): the pairs of the others stay apart (overlap 0).
  std::size_t first = c1, last = c1;
  constexpr std::size_t block = 8;
  for (std::size_t b0 = c0; b0 < c1; b0 += block) {
    const std::size_t b1 = std::min(b0 + block, c1);
    double d[block];
    bool any = false;
    // A pair apart may still carry the edge impulse of its separation (update_contact).
    for (std::size_t c = b0; c < b1; ++c) {
      d[c - b0] = (u[c] - u[c + 1]) - gap;
      any |= (d[c - b0] > 0.0) | (overlap[c] > 0.0) | (force[c] != 0.0) | (power[c] != 0.0) |
             (d[c - b0] != d[c - b0]);  // NaN: a diverged state, reported below
    }
    if (!any) continue;
    first = std::min(first, b0);
    last = b1;
    for (std::size_t c = b0; c < b1; ++c)
      if (!idle_pair(d[c - b0], overlap[c], force[c], power[c]))
        advance_pair<KernelT>(c, d[c - b0], step, pass, rules, run_step);
  }
  if (first < last) watch_pairs(first, last, state_.validity.here());
}

// Pair c of the per-pair loop at overlap dc, which is not idle_pair. `step` and `pass` as
// advance_pairs takes them, `rules` and `run_step` as it derives them. Its impact speed goes to
// the thread's validity tally (note_onset; its strain is watch_pairs').
template <class KernelT>
void ChainEngine::advance_pair(std::size_t c, double dc, std::int64_t step, ChainPass* pass,
                               const ContactRules& rules, std::int64_t run_step) {
  const Particles& p = state_.scene.particles;
  const auto i = static_cast<Eigen::Index>(c);
  if (too_deep(dc, std::min(p.radius(i), p.radius(i + 1)))) {
    if (!pass) state_.throw_too_deep(state_.pairs, c, dc, 0);
    pass->note_fault(step, c, dc);
  }
  const double* v = p.velocity.col(0).data();
  const double r = v[c] - v[c + 1];
  const ContactEvent event = update_contact<KernelT>(
      state_.pairs, c, dc, r, predicted_rate(r, state_.lookahead.col(0).data(), c), rules,
      state_.pairs.coeffs_of(uniform_pairs_ ? 0 : c), run_step);
  if (event == ContactEvent::end) state_.note_separation(state_.pairs, c, run_step);
  if (event == ContactEvent::onset) [[unlikely]]
    note_onset(c);
}

// What one call of the vectorised pair loop reads: the chain's displacements and the segment's
// gap, the velocity columns, the segment's one coefficient record, its contact rules and the
// run's step; and what the watch of the law's validity needs: the thread's tally, the segment's
// kind and R* (Segment::kind).
struct ChainEngine::VectorPairs {
  const double* u;  // displacement_
  double gap;       // Segment::gap
  const double* v;
  const double* look;
  const PairCoeffs& coeffs;
  double* overlap;
  ContactRules rules;
  std::int64_t run_step;
  ValidityTally tally;
  int kind;
  double contact_radius;
  /// Pair c's overlap, as the loops compute it.
  double overlap_of(std::size_t c) const { return (u[c] - u[c + 1]) - gap; }
};

// Pairs [c0, c1) of uniform segment g under a law without a loading history, or a plastic law
// whose history is in columns: every pair through a branch-free loop (uniform_pairs_block,
// columns_pairs_block); only the rare first touches, separations and plastic flows leave it.
template <class KernelT>
void ChainEngine::advance_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step,
                                       ChainPass& pass, const Segment& g) {
  const Particles& p = state_.scene.particles;
  const std::size_t first = g.begin;
  const VectorPairs vp{displacement_.data(),
                       g.gap,
                       p.velocity.col(0).data(),
                       state_.lookahead.col(0).data(),
                       state_.pairs.coeffs_of(first),
                       state_.pairs.overlap.data(),
                       state_.rules_of(g.model, false),
                       state_.step + step + 1,
                       state_.validity.here(),
                       g.kind,
                       g.contact_radius};
  // The smallest radius of the segment bounds every pair's overlap (the per-pair loop uses the
  // pair's own smaller radius).
  const double deep_limit = g.min_radius;
  for (std::size_t b0 = c0; b0 < c1; b0 += chain_block) {
    const std::size_t b1 = std::min(b0 + chain_block, c1);
    if constexpr (kernels::history_in_columns<KernelT>)
      plastic_block<KernelT>(vp, b0, b1);
    else
      split_force_block<KernelT>(vp, b0, b1);
    // Fallback pairs set their own touching flag (and bookkeeping): they show no event here.
    std::uint8_t changed[chain_block];
    double deepest = 0.0;
    const int flags = block_touching(b0, b1, vp.overlap, state_.pairs.touching.data(), changed,
                                     deep_limit, deepest);
    note_strains(vp, b0, b1, deepest);
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
        return columns_pairs_block<KernelT, clamped>(b0, b1, vp.u, vp.gap, vp.coeffs, vp.overlap,
                                                     pairs.force.data(), pairs.work.data(), view,
                                                     fallback);
      },
      vp.rules.clamp);
  if (!any) return;
  for (std::size_t c = b0; c < b1; ++c) {
    if (!fallback[c - b0]) continue;
    h.get(c).store(pairs.state[c]);
    const double r = vp.v[c] - vp.v[c + 1];
    const ContactEvent event =
        update_contact<KernelT>(pairs, c, vp.overlap_of(c), r, predicted_rate(r, vp.look, c),
                                vp.rules, vp.coeffs, vp.run_step);
    if (event == ContactEvent::end) state_.note_separation(pairs, c, vp.run_step);
    if (event == ContactEvent::onset) vp.tally.note_speed(kind_of(vp, c), r);
    h.set(c, kernels::PlasticHistory::of(pairs.state[c]));
  }
}

// The kind of pair c of a vectorised loop (validity_watch.hpp).
inline int ChainEngine::kind_of(const VectorPairs& vp, std::size_t c) const {
  return vp.kind >= 0 ? vp.kind : state_.pair_kind(c);
}

// The strains of pairs [b0, b1) of a vectorised loop, whose largest overlap is `deepest`: of
// the segment's one kind and R*, that overlap's; else as the per-pair loop takes them.
void ChainEngine::note_strains(const VectorPairs& vp, std::size_t b0, std::size_t b1,
                               double deepest) const {
  if (!(deepest > 0.0)) return;
  if (vp.kind >= 0) return vp.tally.note_strain(vp.kind, deepest / vp.contact_radius);
  watch_pairs(b0, b1, vp.tally);
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
    any = uniform_pairs_block<KernelT, update, origins>(b0, b1, vp.u, vp.gap, vp.v, vp.look,
                                                        vp.coeffs, columns, vp.rules);
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
      vp.tally.note_speed(kind_of(vp, c), r);
      if constexpr (edges)
        add_edge<split>(pairs, c,
                        onset_correction(KernelT::edge_terms(vp.coeffs, state_of(c), r),
                                         vp.overlap[c], r, vp.rules));
    } else {  // separation
      pairs.end_evaluation[c] = ContactList::evaluation_of(vp.run_step);
      pairs.end_rate[c] = r;
      if constexpr (reads_v0)  // a later contact starts from delta = 0 (update_contact)
        pair_damping_origin_[c] = pair_origin_overlap_[c] = pair_origin_force_[c] =
            pair_origin_energy_[c] = 0.0;
      if constexpr (edges && split)
        add_edge<true>(pairs, c,
                       end_correction(KernelT::edge_terms(vp.coeffs, state_of(c), r),
                                      vp.overlap_of(c), r, vp.rules));
      state_.note_separation(pairs, c, vp.run_step);
    }
  }
}

template <class KernelT>
bool ChainEngine::vectorised(const Segment& g) const {
  if constexpr (!vector_loop_kernel<KernelT>) {
    return false;
  } else {
    // Short segments (a few blocks) are faster on the per-pair loop, which skips pairs apart.
    if (!state_.settings.chain_vector_pairs || !g.uniform || g.end - g.begin < chain_block)
      return false;
    if constexpr (kernels::history_in_columns<KernelT>)
      return KernelT::columns_usable(state_.pairs.coeffs_of(g.begin));
    return true;
  }
}

}  // namespace chaindem::detail
