#include "chaindem/engine/simulation.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "chaindem/engine/neighbor_search.hpp"
#include "chaindem/laws/edge_impulse.hpp"

namespace chaindem {

namespace detail {
// How the contacts of one loop set and update v0 (SimulationSettings::ImpactVelocity), apply the
// tension policy and integrate their damping work.
struct ContactRules {
  double v0_low = 0.0;  // v0 at first touch: the approach rate, clamped to [v0_low, v0_high]
  double v0_high = std::numeric_limits<double>::infinity();
  double floor = 0.0;   // onset policy: first touches slower than this are floor hits
  bool peak = false;    // v0 follows the largest relative speed of the contact
  bool energy = false;  // ... and the speed whose kinetic energy the contact stores
  bool static_origin = true;
  bool clamp = true;
  double dt = 0.0;     // the time step
  bool first = false;  // the evaluation at construction (its force gets one half kick)
  bool edges = true;   // add the impulse the samples miss at contact edges (not for lammps)
  double onset_v0(double rate) const { return std::min(std::max(rate, v0_low), v0_high); }
};

// The smallest v0 of the peak and energy policies, for contacts that rest where they began:
// any positive value keeps v/v0 finite, and this one is far below any physical speed while its
// square (the energy policy compares q with v0^2) stays a normal double. The smallest normal
// double would make v0^2 underflow, which costs a microcode assist on every resting pair of
// every step (three times slower pre-compressed chains).
constexpr double smallest_v0 = 1e-150;

ContactRules contact_rules(const SimulationSettings& s, double floor, bool first_evaluation) {
  ContactRules r;
  using Policy = SimulationSettings::ImpactVelocity;
  switch (s.impact_velocity) {
    case Policy::onset:
      r.v0_low = r.floor = floor;
      break;
    case Policy::peak:
    case Policy::energy:
      // The rate that carried the bodies across delta = 0 is positive; v0_low only keeps v/v0
      // finite where rounding makes it 0 (beads at rest under a static load).
      r.v0_low = smallest_v0;
      r.peak = true;
      r.energy = s.impact_velocity == Policy::energy;
      break;
    case Policy::reference:
      r.v0_low = r.v0_high = s.reference_velocity;
      break;
  }
  r.static_origin = s.static_origin;
  r.clamp = s.tension == TensionPolicy::clamp;
  r.dt = s.time_step;
  r.first = first_evaluation;
  r.edges = s.integrator == SimulationSettings::Integrator::second_order;
  return r;
}

enum class ContactEvent : std::uint8_t { none, onset, end };

// The energy policy raises v0 to the stored-energy speed sqrt(q) only where q exceeds v0^2 by
// more than this factor: the vectorised loop can then tell, without a square root, the pairs it
// leaves alone (equality, as for a contact resting where its v0 was set, stays put), and both
// loops take the same decision bit for bit.
constexpr double energy_raise_margin = 1.0 + 1e-12;
inline bool raises_v0(double q, double v0) {
  return q > v0 * v0 * energy_raise_margin;
}

// What a contact's edge adds to its samples at this evaluation (edge_impulse.hpp): to the force,
// so that the half kicks deliver the impulse the samples miss, and to the damping power, so that
// the trapezoid books the damping work they miss. A sample weighs one step (half in this step,
// half in the next), the one at construction half a step.
struct EdgeCorrection {
  double force = 0.0;  // [N]
  double power = 0.0;  // [W]
};

// The correction for edge terms t whose sample nearest the edge lies theta dt from it, the
// relative speed there r; `weight` of that sample in the sum (1, or 1/2 at construction).
inline EdgeCorrection edge_correction(const kernels::EdgeTerms& terms, double theta, double r,
                                      double weight, const ContactRules& rules) {
  EdgeCorrection e;
  const double dt = rules.dt;
  for (const kernels::EdgeTerm& t : terms) {
    if (t.a == 0.0) continue;
    double missing = edge_impulse(t.a, t.p, dt, theta);
    // A sample weighted 1/2 (at construction) gives half of its own share too.
    if (weight != 1.0) missing += (1.0 - weight) * dt * t.a * std::pow(theta * dt, t.p);
    const double per_sample = missing / (weight * dt);
    e.force += per_sample;
    e.power += t.damping_share * r * per_sample;
  }
  return e;
}

// A contact that begins at this evaluation with overlap d > 0 and approach rate r > 0: the
// overlap grew linearly over the drift, so the first touch was d/r before now.
inline EdgeCorrection onset_correction(const kernels::EdgeTerms& terms, double d, double r,
                                       const ContactRules& rules) {
  if (!rules.edges || !(r > 0.0)) return {};
  return edge_correction(terms, std::clamp(d / (r * rules.dt), 0.0, 1.0), r,
                         rules.first ? 0.5 : 1.0, rules);
}

// A contact that separated at this evaluation, its overlap now d <= 0 at approach rate r < 0:
// the last touching sample lay theta dt = d_old / -r before the separation, d_old = d - r dt.
// With the force clamped, a leading term that pulls (a < 0) never acted: none.
inline EdgeCorrection end_correction(const kernels::EdgeTerms& terms, double d, double r,
                                     const ContactRules& rules) {
  if (!rules.edges || !(r < 0.0) || (rules.clamp && !(terms[0].a > 0.0))) return {};
  return edge_correction(terms, std::clamp(1.0 + d / (-r * rules.dt), 0.0, 1.0), r, 1.0, rules);
}

// Adds an edge correction to contact c's samples. Plastic laws book their work in delta, not
// in time.
template <bool split>
inline void add_edge(ContactList& cl, std::size_t c, const EdgeCorrection& e) {
  cl.force[c] += e.force;
  if constexpr (split) cl.power[c] += e.power;
}

// The force after the tension policy and the damping power (F - F_e) v of a kernel that splits
// its force, at overlap d > 0 and predicted rate rf: the arithmetic every loop shares.
template <class KernelT>
inline std::pair<double, double> force_and_power(const PairCoeffs& coeffs, const ContactState& s,
                                                 double d, double rf, bool clamp) {
  const kernels::Parts p = KernelT::parts(coeffs, s, d, rf);
  double f = p.elastic + p.damping;
  f = clamp & (f < 0.0) ? 0.0 : f;
  return {f, (f - p.elastic) * rf};
}
}  // namespace detail
using detail::add_edge;
using detail::contact_rules;
using detail::ContactEvent;
using detail::ContactRules;
using detail::end_correction;
using detail::force_and_power;
using detail::onset_correction;
using detail::raises_v0;

namespace {
// Below this many items a parallel region costs more than it saves.
constexpr std::size_t parallel_threshold = 4096;

// body(i) for i in [0, n): on OpenMP threads (static schedule) for large n, else a plain loop
// that never enters the OpenMP runtime (whose per-region cost dominates small chains and sweeps).
template <class Index, class Body>
inline void for_each_index(Index n, int threads, Body&& body) {
  if (threads > 1 && static_cast<std::size_t>(n) > parallel_threshold) {
#pragma omp parallel for schedule(static) num_threads(threads)
    for (Index i = 0; i < n; ++i) body(i);
  } else {
    for (Index i = 0; i < n; ++i) body(i);
  }
}

// Pairs per block of the chain engine's vectorised loop.
constexpr std::size_t chain_block = 256;

// The chain engine's particle loops, on the x components (contiguous columns), written over
// restrict pointers so that the compiler vectorises them. Same arithmetic as the general step.
// The hot loops below are compiled three times, for AVX-512 (x86-64-v4), AVX2 and any x86-64,
// and the best one is picked when the program starts. The build never contracts to FMA
// (-ffp-contract=off), so every version computes the same values.
#define CHAINDEM_HOT __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))

// A chain of equal masses reads one inverse mass instead of an array (less memory traffic: the
// loops are bandwidth-bound); the values, and so the results, are the same.
struct MassOf {
  const double* inverse_mass;  // per particle, or nullptr
  double uniform;              // when inverse_mass is nullptr
  double operator[](std::size_t i) const { return inverse_mass ? inverse_mass[i] : uniform; }
};

// f.template operator()<flags...>() with run-time flags as template arguments: one
// instantiation per combination, chosen once per loop instead of tested per element.
template <bool... fixed, class F>
inline decltype(auto) with_flags(F&& f) {
  return f.template operator()<fixed...>();
}
template <bool... fixed, class F, class... Rest>
inline decltype(auto) with_flags(F&& f, bool flag, Rest... rest) {
  return flag ? with_flags<fixed..., true>(f, rest...) : with_flags<fixed..., false>(f, rest...);
}

// The approach rate velocity-dependent forces see, from the half-step rate r of pair (c, c + 1):
// the particles' velocities at the end of the step, predicted as v_(n+1/2) + look, with
// look = dt/2 (2 a_n - a_(n-1)) (the closing half kick with the acceleration extrapolated from
// the last two steps; 0 for the half-step rate). docs/engine.md, "Time integration".
inline double predicted_rate(double r, const double* look, std::size_t c) {
  return r + (look[c] - look[c + 1]);
}

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
    deep |= static_cast<std::uint8_t>(overlap[c] >= deep_limit);
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

// The chain engine's stops. `when`: " at step N", or nothing at construction. A wall meets
// only the end particle: one pressed into it by a radius could let its neighbour reach the wall
// too, which only the general engine would see.
// The overlap a contact starts with: below 1e-9 of the smaller radius it is the rounding of the
// positions of touching bodies (x + r1 + r2 need not be exact), not a pre-compression, and the
// contact starts at delta = 0 like any other (its first evaluation is then its first touch).
double initial_overlap(double delta0, double radius) {
  return delta0 > 1e-9 * radius ? delta0 : 0.0;
}

[[noreturn]] void throw_wall_too_deep(int particle, const std::string& wall,
                                      const std::string& when = "") {
  throw std::runtime_error("chain engine: particle " + std::to_string(particle) +
                           " overlaps wall " + wall + " by its radius or more" + when +
                           ", where the chain's contacts no longer hold "
                           "(simulation.engine = general tracks every contact)");
}

[[noreturn]] void throw_too_deep(std::size_t c, const std::string& when = "") {
  throw std::runtime_error("chain engine: particles " + std::to_string(c) + " and " +
                           std::to_string(c + 1) + " overlap by a radius or more" + when +
                           ", where the nearest-neighbour chain no longer holds "
                           "(simulation.engine = general tracks every pair)");
}

// The onset and separation bookkeeping of contact c (shared by update_contact and the vectorised
// loop, which sets v0 itself): first-touch step and rate, floor hits; separation step.
inline void record_onset(ContactList& cl, std::size_t c, std::int64_t step, double rate,
                         const ContactRules& rules, bool reads_v0) {
  cl.onset_step[c] = step;
  cl.onset_rate[c] = rate;
  if (reads_v0 && rate < rules.floor) ++cl.floor_hits[c];
}

// Advances one contact to overlap d: the half-step approach rate `rate` (the rate that carried the
// bodies to d; at first touch it sets v0) and the rate the force sees, `force_rate` (predicted or
// the same). Onset (v0 and damping origin by the policy), the force with the tension policy, and
// the energy books. For laws that split their force, the damping work is the trapezoid in time of
// the power (F - F_e) v, which is >= 0 at every evaluation: `work` holds the full weight of the
// past samples, dt P, and the current one counts half (dissipated = work + dt/2 power), so that
// the new power never enters what is already booked. For plastic laws `work` is the work
// absorbed, the trapezoid sum 0.5 (F_old + F_new)(d_new - d_old); a contact that begins
// overlapped (pre-compressed at the start) books the energy it stores there as work already
// done, so that starting dissipates nothing.
template <class KernelT>
inline ContactEvent update_contact(ContactList& cl, std::size_t c, double d, double rate,
                                   double force_rate, const ContactRules& rules,
                                   const PairCoeffs& coeffs, std::int64_t step) {
  constexpr bool reads_v0 = kernels::reads_impact_velocity<KernelT>;
  ContactState& s = cl.state[c];
  const double d_old = cl.overlap[c];
  const double f_old = cl.force[c];
  if (d > 0.0) {
    ContactEvent event = ContactEvent::none;
    const bool begins_overlapped = !cl.touching[c] && d_old > 0.0;
    if (!cl.touching[c]) {
      cl.touching[c] = 1;
      event = ContactEvent::onset;
      record_onset(cl, c, step, rate, rules, reads_v0);
      if constexpr (reads_v0) {
        s.impact_velocity = rules.onset_v0(rate);
        if (begins_overlapped && rules.static_origin) {
          const double f_s = KernelT::elastic(coeffs, d_old);
          s.damping_origin = KernelT::damping_scale(coeffs, d_old, f_s);
          s.origin_overlap = d_old;
          s.origin_force = f_s;
          s.origin_energy = KernelT::potential(coeffs, ContactState{}, d_old);
        }
      }
    }
    if constexpr (reads_v0) {
      if (rules.peak) s.impact_velocity = std::max(s.impact_velocity, std::abs(force_rate));
      if (rules.energy) {  // (a costly potential only where its bound may raise v0)
        bool may_raise = true;
        if constexpr (KernelT::costly_potential)
          may_raise = raises_v0(
              KernelT::stored_speed_squared_bound(coeffs, s, d, KernelT::elastic(coeffs, d)),
              s.impact_velocity);
        if (may_raise) {
          const double q = KernelT::stored_speed_squared(coeffs, s, d);
          if (raises_v0(q, s.impact_velocity)) s.impact_velocity = std::sqrt(q);
        }
      }
    }
    if constexpr (kernels::splits_force<KernelT>) {
      const auto [f, pw] = force_and_power<KernelT>(coeffs, s, d, force_rate, rules.clamp);
      if constexpr (!kernels::conservative<KernelT>) {
        if (!rules.first) cl.work[c] += rules.dt * cl.power[c];
        cl.power[c] = pw;
      }
      cl.force[c] = f;
    } else {
      double f = KernelT::force(coeffs, s, d, force_rate);
      if (rules.clamp && f < 0.0) f = 0.0;
      cl.work[c] = begins_overlapped ? KernelT::potential(coeffs, s, d)
                                     : cl.work[c] + 0.5 * (f_old + f) * (d - d_old);
      cl.force[c] = f;
    }
    if constexpr (kernels::has_edge_term<KernelT>) {
      if (event == ContactEvent::onset && !begins_overlapped)
        add_edge<kernels::splits_force<KernelT>>(
            cl, c, onset_correction(KernelT::edge_terms(coeffs, s, rate), d, rate, rules));
    }
    // Nothing is dissipated at the start: the first sample's half weight is not booked.
    if constexpr (kernels::splits_force<KernelT>)
      if (rules.first) cl.work[c] = -0.5 * rules.dt * cl.power[c];
    cl.overlap[c] = d;
    return event;
  }
  if (!cl.touching[c]) {
    if constexpr (kernels::splits_force<KernelT>) {  // the last sample of a separation's edge
      if (!rules.first) cl.work[c] += rules.dt * cl.power[c];
      cl.power[c] = 0.0;
    }
    cl.overlap[c] = 0.0;
    cl.force[c] = 0.0;
    return ContactEvent::none;
  }
  // The contact ended during this step: close the integrals at d = 0 (F = 0, P = 0).
  cl.touching[c] = 0;
  cl.end_step[c] = step;
  cl.end_rate[c] = rate;
  cl.force[c] = 0.0;
  if constexpr (kernels::splits_force<KernelT>) {
    cl.work[c] += rules.dt * cl.power[c];
    cl.power[c] = 0.0;
    // A force that lasts to delta = 0: the impulse its samples missed at this edge rides on this
    // evaluation. (Plastic laws end at their residual overlap, not at delta = 0.)
    if constexpr (kernels::has_edge_term<KernelT>)
      add_edge<true>(cl, c, end_correction(KernelT::edge_terms(coeffs, s, rate), d, rate, rules));
  } else {
    cl.work[c] += 0.5 * f_old * (0.0 - d_old);
  }
  if constexpr (reads_v0) {  // a later contact starts from delta = 0
    s.damping_origin = s.origin_overlap = s.origin_force = s.origin_energy = 0.0;
  }
  cl.overlap[c] = 0.0;
  return ContactEvent::end;
}
}  // namespace

void ContactList::resize(std::size_t n) {
  first.resize(n);
  second.resize(n);
  coeffs.resize(n);
  state.resize(n);
  overlap.resize(n);
  force.resize(n);
  nx.resize(n);
  ny.resize(n);
  nz.resize(n);
  touching.resize(n);
  work.resize(n);
  power.resize(n);
  floor_hits.resize(n);
  onset_rate.resize(n);
  end_rate.resize(n);
  onset_step.resize(n);
  end_step.resize(n);
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  first[to] = o.first[from];
  second[to] = o.second[from];
  coeffs[to] = o.coeffs[from];
  state[to] = o.state[from];
  overlap[to] = o.overlap[from];
  force[to] = o.force[from];
  nx[to] = o.nx[from];
  ny[to] = o.ny[from];
  nz[to] = o.nz[from];
  touching[to] = o.touching[from];
  work[to] = o.work[from];
  power[to] = o.power[from];
  floor_hits[to] = o.floor_hits[from];
  onset_rate[to] = o.onset_rate[from];
  end_rate[to] = o.end_rate[from];
  onset_step[to] = o.onset_step[from];
  end_step[to] = o.end_step[from];
}

void ContactList::start_entry(std::size_t k, int i, int j, const PairCoeffs& c, double delta0,
                              const Eigen::Vector3d& n) {
  first[k] = i;
  second[k] = j;
  coeffs[k] = c;
  state[k] = ContactState{};
  touching[k] = 0;
  work[k] = power[k] = 0.0;
  floor_hits[k] = 0;
  onset_rate[k] = end_rate[k] = 0.0;
  onset_step[k] = end_step[k] = -1;
  overlap[k] = std::max(0.0, delta0);
  force[k] = 0.0;
  nx[k] = n.x();
  ny[k] = n.y();
  nz[k] = n.z();
}

std::string_view to_string(SimulationSettings::ImpactVelocity policy) {
  switch (policy) {
    case SimulationSettings::ImpactVelocity::onset:
      return "onset";
    case SimulationSettings::ImpactVelocity::peak:
      return "peak";
    case SimulationSettings::ImpactVelocity::energy:
      return "energy";
    case SimulationSettings::ImpactVelocity::reference:
      return "reference";
  }
  return "?";
}

std::optional<SimulationSettings::ImpactVelocity> impact_velocity_from(std::string_view name) {
  using Policy = SimulationSettings::ImpactVelocity;
  for (const Policy p : {Policy::onset, Policy::peak, Policy::energy, Policy::reference})
    if (to_string(p) == name) return p;
  return std::nullopt;
}

std::string_view to_string(SimulationSettings::Integrator integrator) {
  return integrator == SimulationSettings::Integrator::second_order ? "second_order" : "lammps";
}

Simulation::Simulation(Scene scene, SimulationSettings settings)
    : scene_(std::move(scene)), settings_(std::move(settings)) {
  if (!settings_.law) throw std::invalid_argument("Simulation: no contact law");
  if (!(settings_.time_step > 0.0))
    throw std::invalid_argument("Simulation: time step must be > 0");
  if (!(settings_.skin > 0.0)) throw std::invalid_argument("Simulation: skin must be > 0");
  if (settings_.law->uses_impact_velocity() &&
      settings_.impact_velocity == SimulationSettings::ImpactVelocity::onset)
    impact_velocity_floor_ = settings_.law_params.at("impact_velocity_floor");
  if (settings_.law->uses_impact_velocity() &&
      settings_.impact_velocity == SimulationSettings::ImpactVelocity::reference &&
      !(settings_.reference_velocity > 0.0))
    throw std::invalid_argument("Simulation: the reference impact velocity must be > 0");
  wall_offset_.assign(scene_.walls.size(), Eigen::Vector3d::Zero());
  {
    const Particles& p = scene_.particles;
    loaded_.assign(static_cast<std::size_t>(p.size()), 0);
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      const Eigen::Vector3d f =
          p.external_force.row(i).transpose().matrix() + p.mass(i) * scene_.gravity;
      initial_external_ += f.dot(p.position.row(i).transpose().matrix());
      loaded_[static_cast<std::size_t>(i)] = f != Eigen::Vector3d::Zero();
    }
  }
  isolated_logs_.resize(static_cast<std::size_t>(std::max(settings_.threads, 1)));
  lookahead_ = Vec3Array::Zero(scene_.particles.size(), 3);
  // Only laws with a velocity-dependent force read the predicted rate.
  const bool damped = with_kernel(settings_.law->kernel, [](auto kernel) {
    using KernelT = decltype(kernel);
    return kernels::splits_force<KernelT> && !kernels::conservative<KernelT>;
  });
  look_kick_ = settings_.integrator == SimulationSettings::Integrator::second_order && damped
                   ? 0.5 * settings_.time_step
                   : 0.0;
  wall_power_.assign(scene_.walls.size(), 0.0);
  scene_.particles.force.setZero();
  const bool chain = forms_chain(scene_);
  if (settings_.engine == SimulationSettings::Engine::chain && !chain)
    throw std::invalid_argument("Simulation: the scene is not a chain on the x axis");
  chain_ = chain && settings_.engine != SimulationSettings::Engine::general;
  if (chain_)
    build_chain_contacts();
  else
    rebuild_neighbors();
  compute_forces();
}

bool forms_chain(const Scene& scene) {
  const Particles& p = scene.particles;
  const Eigen::Index n = p.size();
  if (n < 2 || scene.gravity.y() != 0.0 || scene.gravity.z() != 0.0) return false;
  const double y = p.position(0, 1), z = p.position(0, 2);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (p.position(i, 1) != y || p.position(i, 2) != z || p.velocity(i, 1) != 0.0 ||
        p.velocity(i, 2) != 0.0 || p.external_force(i, 1) != 0.0 || p.external_force(i, 2) != 0.0)
      return false;
    if (i > 0 && !(p.position(i, 0) > p.position(i - 1, 0))) return false;
  }
  for (const Wall& w : scene.walls) {
    if (std::abs(w.normal.x()) != 1.0 || w.normal.y() != 0.0 || w.normal.z() != 0.0 ||
        w.velocity.y() != 0.0 || w.velocity.z() != 0.0)
      return false;
    // The wall faces the particles from the end it closes.
    const Eigen::Index end = w.normal.x() > 0.0 ? 0 : n - 1;
    if ((p.position(end, 0) - w.point.x()) * w.normal.x() <= 0.0) return false;
  }
  return true;
}

// The chain engine's contacts: pair c joins particles c and c + 1 for the whole run (in 1D no
// other pair can meet while overlaps stay below the radii), each wall meets the particle at its
// end. Built once; there is no neighbor search.
void Simulation::build_chain_contacts() {
  const Particles& p = scene_.particles;
  const auto n = static_cast<std::size_t>(p.size());
  pairs_.resize(n - 1);
  radius_sum_.resize(n - 1);
  for (std::size_t c = 0; c + 1 < n; ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    radius_sum_[c] = p.radius(i) + p.radius(i + 1);
    const double d0 = radius_sum_[c] - (p.position(i + 1, 0) - p.position(i, 0));
    pairs_.start_entry(c, static_cast<int>(c), static_cast<int>(c + 1),
                       pair_coeffs(static_cast<int>(c), static_cast<int>(c + 1)),
                       initial_overlap(d0, std::min(p.radius(i), p.radius(i + 1))),
                       Eigen::Vector3d::UnitX());
  }
  std::vector<std::pair<int, int>> walls;
  for (std::size_t w = 0; w < scene_.walls.size(); ++w)
    walls.emplace_back(scene_.walls[w].normal.x() > 0.0 ? 0 : static_cast<int>(n - 1),
                       static_cast<int>(w));
  std::sort(walls.begin(), walls.end());
  wall_contacts_.resize(walls.size());
  for (std::size_t c = 0; c < walls.size(); ++c) {
    const auto [i, w] = walls[c];
    const Wall& wall = scene_.walls[static_cast<std::size_t>(w)];
    wall_contacts_.start_entry(
        c, i, w, wall_coeffs(i, w),
        initial_overlap(p.radius(i) - (p.position(i, 0) - wall.point.x()) * wall.normal.x(),
                        p.radius(i)),
        -wall.normal);
  }
  uniform_pairs_ = true;
  for (std::size_t c = 1; c + 1 < n && uniform_pairs_; ++c)
    uniform_pairs_ = radius_sum_[c] == radius_sum_[0] &&
                     std::memcmp(&pairs_.coeffs[c], &pairs_.coeffs[0], sizeof(PairCoeffs)) == 0;
  base_force_x_.resize(n);
  zero_base_force_ = true;
  for (std::size_t i = 0; i < n; ++i) {
    const auto k = static_cast<Eigen::Index>(i);
    base_force_x_[i] = p.external_force(k, 0) + p.mass(k) * scene_.gravity.x();
    zero_base_force_ = zero_base_force_ && base_force_x_[i] == 0.0;
  }
  uniform_mass_ = (p.inverse_mass == p.inverse_mass(0)).all();
  min_radius_ = p.radius.minCoeff();
  build_incidence();
  ++rebuilds_;
}

void Simulation::track_extremes() {
  const Particles& p = scene_.particles;
  peak_velocity_x_ = p.velocity.col(0);
  peak_contact_force_ = Eigen::ArrayXd::Zero(p.size());
  for (const ContactList* cl : {&pairs_, &wall_contacts_})
    for (std::size_t c = 0; c < cl->size(); ++c) {
      if (!cl->touching[c]) continue;
      const bool pair = cl == &pairs_;
      for (const int i : {cl->first[c], pair ? cl->second[c] : -1})
        if (i >= 0) peak_contact_force_(i) = std::max(peak_contact_force_(i), cl->force[c]);
    }
  tracking_ = true;
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

struct Simulation::ChainRange {
  std::int64_t step;  ///< step within the pass, from 0
  std::size_t lo, hi;
  Edge left, right;
};

struct Simulation::ChainPass {
  std::int64_t log_offset;  ///< log_ entry of the pass's first step
  /// Earliest contact found too deep, as step * keys_per_step + pair (or pairs + wall contact);
  /// `none` if none.
  std::atomic<std::uint64_t> fault;
  std::uint64_t keys_per_step;
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  void note_fault(std::int64_t step, std::size_t key) {
    const std::uint64_t k = static_cast<std::uint64_t>(step) * keys_per_step + key;
    std::uint64_t seen = fault.load();
    while (k < seen && !fault.compare_exchange_weak(seen, k)) {
    }
  }
};

// Advances contacts [c0, c1) of the chain one by one (history, floors, any law), in blocks of 8
// so that a vectorisable test skips pairs that are apart (overlap > 0 now or at the last
// evaluation: touching, or a pair that starts overlapped). `step` counts the steps of the pass
// from 0; without a pass (the evaluation at construction) the step is the run's step 0.
template <class KernelT>
void Simulation::chain_pairs(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass* pass) {
  const Particles& p = scene_.particles;
  const double* x = p.position.col(0).data();
  const double* v = p.velocity.col(0).data();
  const double* look = lookahead_.col(0).data();
  const double* radius_sum = radius_sum_.data();
  const double* overlap = pairs_.overlap.data();
  const double* force = pairs_.force.data();
  const double* power = pairs_.power.data();
  const ContactRules rules = contact_rules(settings_, impact_velocity_floor_, !pass);
  const std::int64_t run_step = pass ? step_ + step + 1 : 0;
  constexpr std::size_t block = 8;
  for (std::size_t b0 = c0; b0 < c1; b0 += block) {
    const std::size_t b1 = std::min(b0 + block, c1);
    double d[block];
    bool any = false;
    // A pair apart may still carry the edge impulse of its separation (update_contact).
    for (std::size_t c = b0; c < b1; ++c) {
      d[c - b0] = radius_sum[c] - (x[c + 1] - x[c]);
      any |= (d[c - b0] > 0.0) | (overlap[c] > 0.0) | (force[c] != 0.0) | (power[c] != 0.0);
    }
    if (!any) continue;
    for (std::size_t c = b0; c < b1; ++c) {
      const double dc = d[c - b0];
      if (!(dc > 0.0) && !(overlap[c] > 0.0) && force[c] == 0.0 && power[c] == 0.0) continue;
      const auto i = static_cast<Eigen::Index>(c);
      if (dc >= std::min(p.radius(i), p.radius(i + 1))) {
        if (!pass) throw_too_deep(c);
        pass->note_fault(step, c);
      }
      const double r = v[c] - v[c + 1];
      const ContactEvent event =
          update_contact<KernelT>(pairs_, c, dc, r, predicted_rate(r, look, c), rules,
                                  uniform_pairs_ ? pairs_.coeffs[0] : pairs_.coeffs[c], run_step);
      if (event == ContactEvent::end) note_separation(pairs_, c, run_step);
    }
  }
}

// Pairs [c0, c1) of a uniform chain under a law without a loading history, or a plastic law whose
// history is in columns: every pair through a branch-free loop (uniform_pairs_block,
// columns_pairs_block); only the rare first touches, separations and plastic flows leave it.
template <class KernelT>
void Simulation::chain_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step,
                                    ChainPass& pass) {
  const Particles& p = scene_.particles;
  const double* x = p.position.col(0).data();
  const double* v = p.velocity.col(0).data();
  const double* look = lookahead_.col(0).data();
  const PairCoeffs& coeffs = pairs_.coeffs[0];
  const double radius_sum = radius_sum_[0];
  double* overlap = pairs_.overlap.data();
  // The smallest radius of the chain bounds every pair's overlap (the per-pair loop uses the
  // pair's own smaller radius).
  const double deep_limit = min_radius_;
  const ContactRules rules = contact_rules(settings_, impact_velocity_floor_, false);
  const std::int64_t run_step = step_ + step + 1;
  constexpr bool reads_v0 = kernels::reads_impact_velocity<KernelT>;
  const PairColumns columns{overlap,
                            pairs_.force.data(),
                            pairs_.work.data(),
                            pairs_.power.data(),
                            pair_impact_velocity_.data(),
                            pair_damping_origin_.data(),
                            pair_origin_overlap_.data(),
                            pair_origin_force_.data(),
                            pair_origin_energy_.data()};
  constexpr bool edges = kernels::has_edge_term<KernelT>;
  for (std::size_t b0 = c0; b0 < c1; b0 += chain_block) {
    const std::size_t b1 = std::min(b0 + chain_block, c1);
    std::uint8_t changed[chain_block];
    if constexpr (kernels::history_in_columns<KernelT>) {
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
            return columns_pairs_block<KernelT, clamped>(b0, b1, x, coeffs, radius_sum, overlap,
                                                         pairs_.force.data(), pairs_.work.data(),
                                                         view, fallback);
          },
          rules.clamp);
      if (any)  // beyond the branch-free form (plastic flow): the pair's own update, as the
                // per-pair loop does it, on its history taken out of the columns
        for (std::size_t c = b0; c < b1; ++c) {
          if (!fallback[c - b0]) continue;
          h.get(c).store(pairs_.state[c]);
          const double r = v[c] - v[c + 1];
          const ContactEvent event =
              update_contact<KernelT>(pairs_, c, radius_sum - (x[c + 1] - x[c]), r,
                                      predicted_rate(r, look, c), rules, coeffs, run_step);
          if (event == ContactEvent::end) note_separation(pairs_, c, run_step);
          h.set(c, kernels::PlasticHistory::of(pairs_.state[c]));
        }
    } else {
      bool any = false;
      auto block = [&]<V0Update update, bool origins>() {
        any = uniform_pairs_block<KernelT, update, origins>(b0, b1, x, v, look, coeffs, radius_sum,
                                                            columns, rules);
      };
      if constexpr (reads_v0) {
        with_flags(
            [&]<bool origins>() {
              if (rules.energy)
                block.template operator()<V0Update::energy, origins>();
              else if (rules.peak)
                block.template operator()<V0Update::peak, origins>();
              else
                block.template operator()<V0Update::fixed, origins>();
            },
            any_damping_origin_);
      } else {
        block.template operator()<V0Update::fixed, false>();
      }
      if constexpr (reads_v0) {
        // Where the stored-energy speed raises v0 (update_contact's tests, on what the loop
        // stored), the force and power again with the raised v0, as update_contact has them.
        if (any)
          for (std::size_t c = b0; c < b1; ++c) {
            const double d = overlap[c];
            if (!(d > 0.0)) continue;
            ContactState s;
            s.impact_velocity = pair_impact_velocity_[c];
            s.damping_origin = pair_damping_origin_[c];
            s.origin_overlap = pair_origin_overlap_[c];
            s.origin_force = pair_origin_force_[c];
            s.origin_energy = pair_origin_energy_[c];
            if constexpr (KernelT::costly_potential) {
              if (!raises_v0(KernelT::stored_speed_squared_bound(coeffs, s, d,
                                                                 KernelT::elastic(coeffs, d)),
                             s.impact_velocity))
                continue;
            }
            const double q = KernelT::stored_speed_squared(coeffs, s, d);
            if (!raises_v0(q, s.impact_velocity)) continue;
            s.impact_velocity = pair_impact_velocity_[c] = std::sqrt(q);
            const double r = v[c] - v[c + 1];
            const auto [f, pw] =
                force_and_power<KernelT>(coeffs, s, d, predicted_rate(r, look, c), rules.clamp);
            pairs_.force[c] = f;
            pairs_.power[c] = pw;
          }
      }
    }
    // Fallback pairs set their own touching flag (and bookkeeping): they show no event here.
    const int flags = block_touching(b0, b1, overlap, pairs_.touching.data(), changed, deep_limit);
    if (flags & block_too_deep)
      for (std::size_t c = b0; c < b1; ++c)
        if (overlap[c] >= deep_limit) {
          pass.note_fault(step, c);
          break;
        }
    // The state an edge term reads (v0 of the hysteresis laws, the plastic laws' residual
    // overlap), as the loop left it.
    auto state_of = [&](std::size_t c) {
      ContactState s;
      if constexpr (reads_v0) s.impact_velocity = pair_impact_velocity_[c];
      if constexpr (kernels::history_in_columns<KernelT>)
        s.residual_overlap = plastic_columns_.residual_overlap[c];
      return s;
    };
    constexpr bool split = kernels::splits_force<KernelT>;
    if (flags & block_changed)
      for (std::size_t c = b0; c < b1; ++c) {
        if (!changed[c - b0]) continue;
        const double r = v[c] - v[c + 1];  // as the loop computed it
        if (pairs_.touching[c]) {          // first touch
          record_onset(pairs_, c, run_step, r, rules, reads_v0);
          if constexpr (edges)
            add_edge<split>(pairs_, c,
                            onset_correction(KernelT::edge_terms(coeffs, state_of(c), r),
                                             overlap[c], r, rules));
        } else {  // separation
          pairs_.end_step[c] = run_step;
          pairs_.end_rate[c] = r;
          if constexpr (reads_v0)  // a later contact starts from delta = 0 (update_contact)
            pair_damping_origin_[c] = pair_origin_overlap_[c] = pair_origin_force_[c] =
                pair_origin_energy_[c] = 0.0;
          if constexpr (edges && split)
            add_edge<true>(pairs_, c,
                           end_correction(KernelT::edge_terms(coeffs, state_of(c), r),
                                          radius_sum - (x[c + 1] - x[c]), r, rules));
          note_separation(pairs_, c, run_step);
        }
      }
  }
}

template <class KernelT>
bool Simulation::chain_vectorised() const {
  constexpr bool vectorisable = kernels::history_free<KernelT> ||
                                kernels::reads_only_impact_velocity<KernelT> ||
                                kernels::history_in_columns<KernelT>;
  if constexpr (!vectorisable) {
    return false;
  } else {
    // Short chains (a few blocks) are faster on the per-pair loop, which skips pairs apart.
    if (!settings_.chain_vector_pairs || !uniform_pairs_ || pairs_.size() < chain_block)
      return false;
    if constexpr (kernels::history_in_columns<KernelT>)
      return KernelT::columns_usable(pairs_.coeffs[0]);
    return true;
  }
}

bool Simulation::uses_vectorised_pairs() const {
  return chain_ && with_kernel(settings_.law->kernel,
                               [&](auto kernel) { return chain_vectorised<decltype(kernel)>(); });
}

void Simulation::HistoryColumns::load(const std::vector<ContactState>& states) {
  const std::size_t n = states.size();
  for (auto* column : {&max_overlap, &max_force, &residual_overlap, &unload_stiffness,
                       &unload_exponent, &unloading, &regime})
    column->resize(n);
  for (std::size_t c = 0; c < n; ++c) set(c, kernels::PlasticHistory::of(states[c]));
}

void Simulation::HistoryColumns::store(std::vector<ContactState>& states) const {
  for (std::size_t c = 0; c < states.size(); ++c) get(c).store(states[c]);
}

kernels::PlasticHistory Simulation::HistoryColumns::get(std::size_t c) const {
  return {
      max_overlap[c], max_force[c], residual_overlap[c], unload_stiffness[c], unload_exponent[c],
      unloading[c],   regime[c]};
}

void Simulation::HistoryColumns::set(std::size_t c, const kernels::PlasticHistory& h) {
  max_overlap[c] = h.max_overlap;
  max_force[c] = h.max_force;
  residual_overlap[c] = h.residual_overlap;
  unload_stiffness[c] = h.unload_stiffness;
  unload_exponent[c] = h.unload_exponent;
  unloading[c] = h.unloading;
  regime[c] = h.regime;
}

struct Simulation::ColumnsGuard {
  Simulation* sim = nullptr;  // nullptr: nothing loaded
  bool plastic = false;       // plastic_columns_, else the v0 columns
  ColumnsGuard() = default;
  ColumnsGuard(Simulation* s, bool p) : sim(s), plastic(p) {}
  ColumnsGuard(const ColumnsGuard&) = delete;
  ColumnsGuard& operator=(const ColumnsGuard&) = delete;
  ~ColumnsGuard() {
    if (!sim) return;
    if (plastic) {
      sim->plastic_columns_.store(sim->pairs_.state);
      return;
    }
    std::vector<ContactState>& states = sim->pairs_.state;
    for (std::size_t c = 0; c < states.size(); ++c) {
      states[c].impact_velocity = sim->pair_impact_velocity_[c];
      states[c].damping_origin = sim->pair_damping_origin_[c];
      states[c].origin_overlap = sim->pair_origin_overlap_[c];
      states[c].origin_force = sim->pair_origin_force_[c];
      states[c].origin_energy = sim->pair_origin_energy_[c];
    }
  }
};

Simulation::ColumnsGuard Simulation::load_history_columns() {
  enum { none, plastic, v0 };
  const int columns = with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    if (!chain_vectorised<KernelT>()) return int{none};
    if constexpr (kernels::history_in_columns<KernelT>) return int{plastic};
    if constexpr (kernels::reads_only_impact_velocity<KernelT>) return int{v0};
    return int{none};
  });
  if (columns == plastic) {
    plastic_columns_.load(pairs_.state);
    return ColumnsGuard(this, true);
  }
  if (columns == v0) {
    const std::vector<ContactState>& states = pairs_.state;
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
void Simulation::chain_gather(std::size_t begin, std::size_t end, double closing_kick) {
  Particles& p = scene_.particles;
  const std::size_t n = static_cast<std::size_t>(p.size());
  double* f = p.force.col(0).data();
  double* v = p.velocity.col(0).data();
  const double* inverse_mass = p.inverse_mass.data();
  const double* pair_force = pairs_.force.data();
  double* peak = tracking_ ? peak_contact_force_.data() : nullptr;
  double* peak_v = tracking_ ? peak_velocity_x_.data() : nullptr;
  const MassOf mass{uniform_mass_ ? nullptr : p.inverse_mass.data(), p.inverse_mass(0)};
  const double* base = zero_base_force_ ? nullptr : base_force_x_.data();
  double* look = lookahead_.col(0).data();
  const bool predict = look_kick_ != 0.0;
  const std::size_t b = std::max<std::size_t>(begin, 1), e = std::min(end, n - 1);
  if (b < e) {
    if (closing_kick == 0.0) {  // at construction: the look-ahead of a first step, dt/2 a_0
      gather_interior(b, e, f, base_force_x_.data(), pair_force, peak);
      for (std::size_t i = b; i < e; ++i) look[i] = look_kick_ * f[i] * mass[i];
    } else {
      with_flags(
          [&]<bool track, bool uniform, bool has_base, bool predicted>() {
            gather_kick_interior<track, uniform, has_base, predicted>(
                b, e, f, base, pair_force, v, mass, closing_kick, look, peak, peak_v);
          },
          tracking_, mass.inverse_mass == nullptr, base != nullptr, predict);
    }
  }
  // The two end particles, which also meet the walls.
  for (const std::size_t i : {std::size_t{0}, n - 1}) {
    if (i < begin || i >= end) continue;
    const double f_old = closing_kick == 0.0 ? std::nan("") : f[i];
    f[i] = i == 0 ? base_force_x_[0] + -pair_force[0] : base_force_x_[n - 1] + pair_force[n - 2];
    if (peak) peak[i] = std::max(peak[i], pair_force[i == 0 ? 0 : n - 2]);
    for (std::size_t c = 0; c < wall_contacts_.size(); ++c) {
      if (static_cast<std::size_t>(wall_contacts_.first[c]) != i) continue;
      f[i] += -wall_contacts_.force[c] * wall_contacts_.nx[c];
      if (peak) peak[i] = std::max(peak[i], wall_contacts_.force[c]);
    }
    if (closing_kick != 0.0) {
      if (predict) look[i] = closing_kick * ((f[i] + f[i]) - f_old) * inverse_mass[i];
      v[i] += closing_kick * f[i] * inverse_mass[i];
      if (peak_v) peak_v[i] = std::max(peak_v[i], v[i]);
    } else {
      look[i] = look_kick_ * f[i] * inverse_mass[i];
    }
  }
}

// One step of one range of a pass: drift, the walls at the chain's ends, the pairs, the gather
// with the closing kick, and what the watchers record.
template <class KernelT, bool vector_pairs>
void Simulation::chain_range(ChainPass& pass, const ChainRange& r) {
  Particles& p = scene_.particles;
  const std::size_t n = static_cast<std::size_t>(p.size()), np = n - 1;
  const double dt = settings_.time_step, half = 0.5 * dt;
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
  const std::size_t walls = scene_.walls.size(), wall_contacts = wall_contacts_.size();
  const ContactRules wall_rules = contact_rules(settings_, impact_velocity_floor_, false);
  auto walls_of = [&](std::size_t end_particle) {
    for (std::size_t c = 0; c < wall_contacts; ++c) {
      const auto i = static_cast<std::size_t>(wall_contacts_.first[c]);
      if (i != end_particle) continue;
      const auto w = static_cast<std::size_t>(wall_contacts_.second[c]);
      const std::int64_t run_step = step_ + r.step + 1;
      if (update_wall<KernelT>(c, pass_wall_point_[static_cast<std::size_t>(r.step) * walls + w],
                               wall_rules, run_step) == ContactEvent::end)
        note_separation(wall_contacts_, c, run_step);
      pass_wall_force_[static_cast<std::size_t>(r.step) * wall_contacts + c] =
          wall_contacts_.force[c];
      if (wall_contacts_.overlap[c] >= p.radius(static_cast<Eigen::Index>(i)))
        pass.note_fault(r.step, np + c);
    }
  };
  // The range in chunks of chain_chunk_pairs pairs: drift what the chunk's pairs read, the
  // pairs, then gather the particles whose two pairs are done. Each particle and pair does the
  // same arithmetic as with one chunk; interleaving keeps the square-root unit busy while the
  // drift and gather loops move data (they would otherwise run one after the other).
  const std::size_t chunk = std::max<std::size_t>(settings_.chain_chunk_pairs, 1);
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
      chain_pairs_vector<KernelT>(c0, c1, r.step, pass);
    else
      chain_pairs<KernelT>(c0, c1, r.step, &pass);
    const std::size_t gather_to = last ? gather_end : std::min(gather_end, c1);
    if (gathered < gather_to) chain_gather(gathered, gather_to, half);
    gathered = std::max(gathered, gather_to);
    if (last) break;
    c0 = c1;
  }

  const std::size_t entry = static_cast<std::size_t>(pass.log_offset + r.step);
  for (std::size_t k = 0; k < watched_chain_pair_.size(); ++k) {
    const long c = watched_chain_pair_[k];
    if (c < 0 || static_cast<std::size_t>(c) < r.lo || static_cast<std::size_t>(c) >= r.hi)
      continue;
    const std::size_t at = entry * watched_pairs_.size() + k;
    log_.touching[at] = static_cast<std::int8_t>(pairs_.touching[static_cast<std::size_t>(c)]);
    log_.rate[at] = approach_rate(pairs_, static_cast<std::size_t>(c));
  }
  for (std::size_t k = 0; k < watched_particles_.size(); ++k) {
    const auto i = static_cast<std::size_t>(watched_particles_[k]);
    if (i >= gather_begin && i < gather_end)
      log_.speed[entry * watched_particles_.size() + k] =
          p.velocity.row(watched_particles_[k]).matrix().norm();
  }
}

// Advances the chain by `steps` steps in one pass. With several threads the chain is cut into
// one region per thread. A region's ranges shrink by one pair per step at each cut, so that it
// never needs the step of a particle another thread owns; the triangles left at the cuts are
// filled afterwards (also in parallel), each step in order.
void Simulation::chain_pass(std::int64_t steps, std::int64_t log_offset) {
  Particles& p = scene_.particles;
  const std::size_t np = static_cast<std::size_t>(p.size()) - 1;
  const double dt = settings_.time_step;
  const std::size_t walls = scene_.walls.size(), wall_contacts = wall_contacts_.size();
  const auto K = static_cast<std::size_t>(steps);

  ChainPass pass{log_offset, {ChainPass::none}, np + wall_contacts};
  // Where each wall is at each step of the pass, as step-by-step accumulation puts it.
  pass_wall_point_.resize(K * walls);
  pass_wall_force_.assign(K * wall_contacts, 0.0);
  for (std::size_t s = 0; s < K; ++s)
    for (std::size_t w = 0; w < walls; ++w) {
      wall_offset_[w] += dt * scene_.walls[w].velocity;
      pass_wall_point_[s * walls + w] = wall_point(w);
    }

  const std::size_t tile = std::max(settings_.chain_tile_pairs, 2 * K);
  std::size_t regions = static_cast<std::size_t>(std::max(settings_.threads, 1));
  while (regions > 1 && (np <= parallel_threshold || np / regions < 4 * K + 2 * tile)) --regions;
  auto cut = [&](std::size_t j) { return np * j / regions; };

  with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    constexpr bool vectorisable = kernels::history_free<KernelT> ||
                                  kernels::reads_only_impact_velocity<KernelT> ||
                                  kernels::history_in_columns<KernelT>;
    const bool vector_pairs = chain_vectorised<KernelT>();
    auto range = [&](const ChainRange& r) {
      if constexpr (vectorisable) {
        if (vector_pairs) return chain_range<KernelT, true>(pass, r);
      }
      chain_range<KernelT, false>(pass, r);
    };
    auto run_region = [&](std::size_t j) {
      const bool first = j == 0, last = j + 1 == regions;
      const std::size_t start = first ? 0 : cut(j) + 1, end = last ? np : cut(j + 1);
      // Tile t starts at bound(t) at step 0 and covers [bound(t) - s, bound(t + 1) - s) at step
      // s, except at the region's ends: the start of the chain stays at 0, its end at np, and a
      // region's edge at a cut moves inwards by one pair per step (tile is at least 2 K wide, so
      // a first tile shrinking from both sides never empties).
      const std::size_t tile1_start = start + tile;
      const std::size_t tiles = tile1_start >= end ? 1 : 2 + (end - tile1_start - 1) / tile;
      auto bound = [&](std::size_t t) {
        return t == 0 ? start : t == tiles ? end : tile1_start + (t - 1) * tile;
      };
      for (std::size_t t = 0; t < tiles; ++t) {
        const bool first_tile = t == 0, last_tile = t + 1 == tiles;
        for (std::size_t s = 0; s < K; ++s) {
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
      for (std::size_t s = 0; s < K; ++s)
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

  // The walls' work, step by step: the trapezoidal rule on the power before and after each
  // (nothing to add while no wall moves along its normal).
  const double half = 0.5 * dt;
  double power_before = 0.0;
  for (const double w : wall_power_) power_before += w;
  bool moving = false;
  for (const Wall& wall : scene_.walls) moving = moving || wall.velocity.dot(wall.normal) != 0.0;
  for (std::size_t s = 0; s < K && moving; ++s) {
    std::fill(wall_power_.begin(), wall_power_.end(), 0.0);
    for (std::size_t c = 0; c < wall_contacts; ++c) {
      const Wall& wall = scene_.walls[static_cast<std::size_t>(wall_contacts_.second[c])];
      wall_power_[static_cast<std::size_t>(wall_contacts_.second[c])] +=
          pass_wall_force_[s * wall_contacts + c] * wall.velocity.dot(wall.normal);
    }
    double power_after = 0.0;
    for (const double w : wall_power_) power_after += w;
    wall_work_ += half * (power_before + power_after);
    power_before = power_after;
  }
  step_ += steps;
  time_ = static_cast<double>(step_) * dt;

  // A fault found during the pass is reported at its end (the state is the pass's end), with the
  // step where it happened.
  if (const std::uint64_t f = pass.fault.load(); f != ChainPass::none) {
    const std::size_t key = f % pass.keys_per_step;
    const std::string when =
        " at step " +
        std::to_string(step_ - steps + static_cast<std::int64_t>(f / pass.keys_per_step) + 1);
    if (key < np) throw_too_deep(key, when);
    const std::size_t c = key - np;
    throw_wall_too_deep(wall_contacts_.first[c],
                        scene_.walls[static_cast<std::size_t>(wall_contacts_.second[c])].name,
                        when);
  }
}

Eigen::Vector3d Simulation::wall_point(std::size_t w) const {
  return scene_.walls[w].point + wall_offset_[w];
}

namespace {
// Material part of PairInput: E*, mean E and nu, the smaller yield stress.
PairInput material_input(const Material& a, const Material& b, double radius, double mass) {
  PairInput in = mixed_materials({a.youngs_modulus, a.poisson_ratio, a.yield_stress.value_or(0.0)},
                                 {b.youngs_modulus, b.poisson_ratio, b.yield_stress.value_or(0.0)});
  in.effective_radius = radius;
  in.effective_mass = mass;
  return in;
}
}  // namespace

PairInput pair_input(const Scene& scene, Eigen::Index i, Eigen::Index j) {
  const Particles& p = scene.particles;
  PairInput in = material_input(scene.materials[static_cast<std::size_t>(p.material[i])],
                                scene.materials[static_cast<std::size_t>(p.material[j])],
                                p.radius(i) * p.radius(j) / (p.radius(i) + p.radius(j)),
                                p.mass(i) * p.mass(j) / (p.mass(i) + p.mass(j)));
  in.radius_i = p.radius(i);
  in.radius_j = p.radius(j);
  in.contact_length = scene.cylinder_length;
  return in;
}

PairInput wall_input(const Scene& scene, Eigen::Index i, std::size_t w) {
  const Particles& p = scene.particles;
  PairInput in = material_input(scene.materials[static_cast<std::size_t>(p.material[i])],
                                scene.materials[static_cast<std::size_t>(scene.walls[w].material)],
                                p.radius(i), p.mass(i));
  in.radius_i = p.radius(i);
  in.contact_length = scene.cylinder_length;
  return in;
}

PairCoeffs Simulation::pair_coeffs(int i, int j) const {
  return settings_.law->prepare(*settings_.law, pair_input(scene_, i, j), settings_.law_params);
}

PairCoeffs Simulation::wall_coeffs(int i, int w) const {
  return settings_.law->prepare(*settings_.law, wall_input(scene_, i, static_cast<std::size_t>(w)),
                                settings_.law_params);
}

void Simulation::rebuild_neighbors() {
  const Particles& p = scene_.particles;
  const double skin = settings_.skin;

  // Merges the new candidate list with the old one so that pairs keep their history. A pair that
  // leaves with a plastic history (permanent overlap) parks it in dormant_, keyed by the pair,
  // and gets it back when it re-enters: beads in a chain hit each other many times, and may fly
  // further apart than the skin in between. Its work has already been counted in retired_work_.
  auto merge = [&](ContactList& list, std::unordered_map<std::uint64_t, ContactState>& dormant,
                   const std::vector<std::pair<int, int>>& found, auto&& fresh_coeffs,
                   auto&& geometric_overlap) {
    auto key = [](int i, int j) {
      return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) |
             static_cast<std::uint32_t>(j);
    };
    auto retire = [&](std::size_t old) {
      const ContactState& s = list.state[old];
      // Apart, it stores nothing; a split law's last sample counts half (energies()).
      retired_dissipated_ += list.work[old] + 0.5 * settings_.time_step * list.power[old];
      retired_floor_hits_ += list.floor_hits[old];
      if (s.max_overlap > 0.0) dormant[key(list.first[old], list.second[old])] = s;
    };
    ContactList next;
    next.resize(found.size());
    std::size_t old = 0;
    for (std::size_t k = 0; k < found.size(); ++k) {
      const auto [i, j] = found[k];
      while (old < list.size() && std::pair(list.first[old], list.second[old]) < found[k])
        retire(old++);
      if (old < list.size() && list.first[old] == i && list.second[old] == j) {
        next.copy_entry(k, list, old++);
      } else {
        // A pair that enters already overlapped (pre-compression) starts its integral there.
        next.start_entry(k, i, j, fresh_coeffs(i, j), geometric_overlap(i, j),
                         Eigen::Vector3d::Zero());
        if (const auto it = dormant.find(key(i, j)); it != dormant.end()) {
          next.state[k] = it->second;
          dormant.erase(it);
        }
      }
    }
    for (; old < list.size(); ++old) retire(old);
    list = std::move(next);
  };

  merge(
      pairs_, dormant_pairs_, find_particle_pairs(p.position, p.radius, skin),
      [&](int i, int j) { return pair_coeffs(i, j); },
      [&](int i, int j) {
        return initial_overlap(
            p.radius(i) + p.radius(j) -
                std::sqrt((p.position.row(i) - p.position.row(j)).square().sum()),
            std::min(p.radius(i), p.radius(j)));
      });
  merge(
      wall_contacts_, dormant_walls_,
      find_wall_pairs(p.position, p.radius, scene_.walls, wall_offset_, skin),
      [&](int i, int w) { return wall_coeffs(i, w); },
      [&](int i, int w) {
        return initial_overlap(
            p.radius(i) - (p.position.row(i).transpose().matrix() - wall_point(w))
                              .dot(scene_.walls[w].normal),
            p.radius(i));
      });

  build_incidence();
  reference_position_ = p.position;
  wall_offset_at_rebuild_ = wall_offset_;
  ++rebuilds_;
}

// Incidence lists: pairs in list order, then wall contacts, for every particle.
void Simulation::build_incidence() {
  const std::size_t n = static_cast<std::size_t>(scene_.particles.size());
  incidence_offset_.assign(n + 1, 0);
  for (std::size_t c = 0; c < pairs_.size(); ++c) {
    ++incidence_offset_[pairs_.first[c] + 1];
    ++incidence_offset_[pairs_.second[c] + 1];
  }
  for (std::size_t c = 0; c < wall_contacts_.size(); ++c)
    ++incidence_offset_[wall_contacts_.first[c] + 1];
  for (std::size_t i = 0; i < n; ++i) incidence_offset_[i + 1] += incidence_offset_[i];
  incidence_.assign(static_cast<std::size_t>(incidence_offset_[n]), 0);
  std::vector<int> fill(incidence_offset_.begin(), incidence_offset_.end() - 1);
  for (std::size_t c = 0; c < pairs_.size(); ++c) {
    incidence_[fill[pairs_.first[c]]++] = static_cast<int>(c);
    incidence_[fill[pairs_.second[c]]++] = static_cast<int>(c);
  }
  for (std::size_t c = 0; c < wall_contacts_.size(); ++c)
    incidence_[fill[wall_contacts_.first[c]]++] = -static_cast<int>(c) - 1;
}

template <class KernelT>
void Simulation::evaluate_pairs(const ContactRules& rules, std::int64_t step) {
  const Particles& p = scene_.particles;
  ContactList& cl = pairs_;
  const std::size_t n = cl.size();
  for_each_index(n, settings_.threads, [&](std::size_t c) {
    const int i = cl.first[c], j = cl.second[c];
    const double dx = p.position(j, 0) - p.position(i, 0);
    const double dy = p.position(j, 1) - p.position(i, 1);
    const double dz = p.position(j, 2) - p.position(i, 2);
    const double dist = std::sqrt(dx * dx + dy * dy + dz * dz);
    const double inv = 1.0 / dist;
    const double nx = dx * inv, ny = dy * inv, nz = dz * inv;
    const double rate =
        -((p.velocity(j, 0) - p.velocity(i, 0)) * nx + (p.velocity(j, 1) - p.velocity(i, 1)) * ny +
          (p.velocity(j, 2) - p.velocity(i, 2)) * nz);
    // The predicted rate: the same with each velocity advanced by its look-ahead.
    const Vec3Array& look = lookahead_;
    const double ahead = (look(i, 0) - look(j, 0)) * nx + (look(i, 1) - look(j, 1)) * ny +
                         (look(i, 2) - look(j, 2)) * nz;
    cl.nx[c] = nx;
    cl.ny[c] = ny;
    cl.nz[c] = nz;
    update_contact<KernelT>(cl, c, p.radius(i) + p.radius(j) - dist, rate, rate + ahead, rules,
                            cl.coeffs[c], step);
  });
}

// Advances wall contact c, its wall at `point`; returns what happened to it.
template <class KernelT>
ContactEvent Simulation::update_wall(std::size_t c, const Eigen::Vector3d& point,
                                     const ContactRules& rules, std::int64_t step) {
  const Particles& p = scene_.particles;
  ContactList& cl = wall_contacts_;
  const int i = cl.first[c];
  const Wall& wall = scene_.walls[static_cast<std::size_t>(cl.second[c])];
  const Eigen::Vector3d x = p.position.row(i).transpose();
  const Eigen::Vector3d v = p.velocity.row(i).transpose();
  const Eigen::Vector3d ahead = lookahead_.row(i).transpose();
  const double distance = (x - point).dot(wall.normal);
  // Normal from the particle towards the wall: -wall.normal.
  cl.nx[c] = -wall.normal.x();
  cl.ny[c] = -wall.normal.y();
  cl.nz[c] = -wall.normal.z();
  const double rate = (wall.velocity - v).dot(wall.normal);
  return update_contact<KernelT>(cl, c, p.radius(i) - distance, rate, rate - ahead.dot(wall.normal),
                                 rules, cl.coeffs[c], step);
}

template <class KernelT>
void Simulation::evaluate_walls(const ContactRules& rules, std::int64_t step) {
  for (std::size_t c = 0; c < wall_contacts_.size(); ++c)
    update_wall<KernelT>(c, wall_point(static_cast<std::size_t>(wall_contacts_.second[c])), rules,
                         step);
}

void Simulation::gather_forces(bool first) {
  Particles& p = scene_.particles;
  const Eigen::Index n = p.size();
  const Eigen::Vector3d g = scene_.gravity;
  for_each_index(n, settings_.threads, [&](Eigen::Index i) {
    double fx = p.external_force(i, 0) + p.mass(i) * g.x();
    double fy = p.external_force(i, 1) + p.mass(i) * g.y();
    double fz = p.external_force(i, 2) + p.mass(i) * g.z();
    for (int k = incidence_offset_[i]; k < incidence_offset_[i + 1]; ++k) {
      const int e = incidence_[k];
      const ContactList& cl = e >= 0 ? pairs_ : wall_contacts_;
      const std::size_t c = static_cast<std::size_t>(e >= 0 ? e : -e - 1);
      // Force on `second` is +F n, on `first` -F n.
      const double sign = (e >= 0 && cl.second[c] == i) ? 1.0 : -1.0;
      const double f = sign * cl.force[c];
      fx += f * cl.nx[c];
      fy += f * cl.ny[c];
      fz += f * cl.nz[c];
      // Apart contacts carry F = 0, which never raises the (non-negative) peak.
      if (tracking_) peak_contact_force_(i) = std::max(peak_contact_force_(i), cl.force[c]);
    }
    // Look-ahead of the next step: dt/2 (2 a_n - a_(n-1)), or dt/2 a_0 at construction.
    const double k = look_kick_ * p.inverse_mass(i);
    lookahead_(i, 0) = k * (first ? fx : (fx + fx) - p.force(i, 0));
    lookahead_(i, 1) = k * (first ? fy : (fy + fy) - p.force(i, 1));
    lookahead_(i, 2) = k * (first ? fz : (fz + fz) - p.force(i, 2));
    p.force(i, 0) = fx;
    p.force(i, 1) = fy;
    p.force(i, 2) = fz;
  });
}

void Simulation::compute_forces() {
  const bool first = step_ == 0;  // at construction
  const ContactRules rules = contact_rules(settings_, impact_velocity_floor_, first);
  with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    if (chain_)
      chain_pairs<KernelT>(0, pairs_.size(), 0, nullptr);
    else
      evaluate_pairs<KernelT>(rules, step_);
    evaluate_walls<KernelT>(rules, step_);
  });
  if (!chain_ && !first)  // contacts that separated in this step, in list order
    for (const ContactList* cl : {&pairs_, &wall_contacts_})
      for (std::size_t c = 0; c < cl->size(); ++c)
        if (cl->end_step[c] == step_) note_separation(*cl, c, step_);
  if (chain_) {
    const Particles& p = scene_.particles;
    for (std::size_t c = 0; c < wall_contacts_.size(); ++c)
      if (wall_contacts_.overlap[c] >= p.radius(wall_contacts_.first[c]))
        throw_wall_too_deep(wall_contacts_.first[c],
                            scene_.walls[static_cast<std::size_t>(wall_contacts_.second[c])].name);
    chain_gather(0, static_cast<std::size_t>(p.size()), 0.0);
  } else {
    gather_forces(first);
  }
  // Power delivered by each wall: the contact force times the wall's normal speed.
  std::fill(wall_power_.begin(), wall_power_.end(), 0.0);
  for (std::size_t c = 0; c < wall_contacts_.size(); ++c) {
    const Wall& wall = scene_.walls[static_cast<std::size_t>(wall_contacts_.second[c])];
    wall_power_[static_cast<std::size_t>(wall_contacts_.second[c])] +=
        wall_contacts_.force[c] * wall.velocity.dot(wall.normal);
  }
}

void Simulation::step() {
  advance(1);
}

void Simulation::step_general() {
  Particles& p = scene_.particles;
  const double dt = settings_.time_step;
  const double half = 0.5 * dt;
  const Eigen::Index n = p.size();

  double power_before = 0.0;
  for (double w : wall_power_) power_before += w;

  for_each_index(n, settings_.threads, [&](Eigen::Index i) {
    for (int a = 0; a < 3; ++a) {
      p.velocity(i, a) += half * p.force(i, a) * p.inverse_mass(i);
      p.position(i, a) += dt * p.velocity(i, a);
    }
  });
  for (std::size_t w = 0; w < wall_offset_.size(); ++w)
    wall_offset_[w] += dt * scene_.walls[w].velocity;
  time_ = static_cast<double>(++step_) * dt;

  // Rebuild when two surfaces may have closed the skin since the last build.
  double largest_move2 = 0.0;  // a plain loop: no temporary per step
  for (Eigen::Index i = 0; i < n; ++i) {
    const double dx = p.position(i, 0) - reference_position_(i, 0);
    const double dy = p.position(i, 1) - reference_position_(i, 1);
    const double dz = p.position(i, 2) - reference_position_(i, 2);
    largest_move2 = std::max(largest_move2, dx * dx + dy * dy + dz * dz);
  }
  const double particle_move = std::sqrt(largest_move2);
  double wall_move = 0.0;
  for (std::size_t w = 0; w < wall_offset_.size(); ++w)
    wall_move = std::max(wall_move, (wall_offset_[w] - wall_offset_at_rebuild_[w]).norm());
  if (2.0 * particle_move > settings_.skin || particle_move + wall_move > settings_.skin)
    rebuild_neighbors();

  compute_forces();

  for_each_index(n, settings_.threads, [&](Eigen::Index i) {
    for (int a = 0; a < 3; ++a) p.velocity(i, a) += half * p.force(i, a) * p.inverse_mass(i);
    if (tracking_) peak_velocity_x_(i) = std::max(peak_velocity_x_(i), p.velocity(i, 0));
  });

  double power_after = 0.0;
  for (double w : wall_power_) power_after += w;
  wall_work_ += half * (power_before + power_after);
}

// A contact is isolated when, from its first touch to its separation, no other contact of
// either body touched and neither body carried a load: its restitution is then a binary one.
// Neighbour contacts are judged from their own first-touch and separation steps, which are
// exact whatever order the chain engine's passes evaluate them in: a neighbour is at step s or
// s - 1 when this contact is evaluated at step s, and touched during [onset, s - 1] if it still
// touches since before step s, or separated after this contact's first touch.
void Simulation::note_separation(const ContactList& cl, std::size_t c, std::int64_t step) {
  const std::int64_t onset = cl.onset_step[c];
  const double approach = cl.onset_rate[c];
  if (onset <= 0 || !(approach > 0.0)) return;  // began pressed together, not an impact
  const bool wall = &cl == &wall_contacts_;
  const int first = cl.first[c], second = wall ? -cl.second[c] - 1 : cl.second[c];
  for (const int body : {first, second}) {
    if (body < 0) continue;
    const auto b = static_cast<std::size_t>(body);
    if (loaded_[b]) return;
    for (int k = incidence_offset_[b]; k < incidence_offset_[b + 1]; ++k) {
      const int e = incidence_[k];
      const ContactList& other = e >= 0 ? pairs_ : wall_contacts_;
      const auto o = static_cast<std::size_t>(e >= 0 ? e : -e - 1);
      if (&other == &cl && o == c) continue;
      const std::int64_t on = other.onset_step[o], end = other.end_step[o];
      if ((on > end && on < step) || end > onset) return;
    }
  }
  // The bodies part at the rate that carried them across delta = 0, less what the pair's force
  // at this evaluation (the edge impulse of a force that lasted to delta = 0, or 0) still gives
  // them in its two half kicks.
  const double parting =
      cl.end_rate[c] - settings_.time_step * cl.force[c] / cl.coeffs[c].effective_mass;
  const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
  isolated_logs_[std::min(thread, isolated_logs_.size() - 1)].push_back(
      {step, first, second, approach, -parting / approach});
}

void Simulation::collect_isolated() {
  isolated_.clear();
  for (auto& log : isolated_logs_) {
    isolated_.insert(isolated_.end(), log.begin(), log.end());
    log.clear();
  }
  std::sort(isolated_.begin(), isolated_.end(), [](const auto& a, const auto& b) {
    return std::tie(a.step, a.first, a.second) < std::tie(b.step, b.first, b.second);
  });
}

void Simulation::advance(std::int64_t n) {
  const auto steps = static_cast<std::size_t>(std::max<std::int64_t>(n, 0));
  log_.steps = static_cast<std::int64_t>(steps);
  log_.touching.assign(steps * watched_pairs_.size(), -1);
  log_.rate.assign(steps * watched_pairs_.size(), 0.0);
  log_.speed.assign(steps * watched_particles_.size(), 0.0);
  if (chain_) {
    // Passes of equal length (at most chain_pass_steps): a short last pass would reload every
    // tile for a few steps only.
    const std::int64_t most = std::max(settings_.chain_pass_steps, 1);
    const std::int64_t passes = (n + most - 1) / most;
    {
      const ColumnsGuard columns = load_history_columns();
      for (std::int64_t k = 0, done = 0; k < passes; ++k) {
        const std::int64_t length = (n - done) / (passes - k);
        chain_pass(length, done);
        done += length;
      }
    }
    collect_isolated();
    return;
  }
  for (std::int64_t s = 0; s < n; ++s) {
    step_general();
    record_step(s);
  }
  collect_isolated();
}

void Simulation::watch(std::vector<std::pair<int, int>> pairs,
                       std::vector<Eigen::Index> particles) {
  watched_pairs_ = std::move(pairs);
  watched_particles_ = std::move(particles);
  watched_chain_pair_.clear();  // the chain engine's pairs are fixed: look them up once
  if (chain_)
    for (const auto& [i, j] : watched_pairs_) watched_chain_pair_.push_back(find_contact(i, j));
}

long Simulation::find_contact(int i, int j) const {
  const auto lo = std::lower_bound(pairs_.first.begin(), pairs_.first.end(), i);
  for (auto it = lo; it != pairs_.first.end() && *it == i; ++it) {
    const auto c = static_cast<std::size_t>(it - pairs_.first.begin());
    if (pairs_.second[c] == j) return static_cast<long>(c);
  }
  return -1;
}

void Simulation::record_step(std::int64_t s) {
  const auto entry = static_cast<std::size_t>(s);
  for (std::size_t k = 0; k < watched_pairs_.size(); ++k) {
    const long c = find_contact(watched_pairs_[k].first, watched_pairs_[k].second);
    if (c < 0) continue;
    log_.touching[entry * watched_pairs_.size() + k] =
        static_cast<std::int8_t>(pairs_.touching[static_cast<std::size_t>(c)]);
    log_.rate[entry * watched_pairs_.size() + k] =
        approach_rate(pairs_, static_cast<std::size_t>(c));
  }
  for (std::size_t k = 0; k < watched_particles_.size(); ++k)
    log_.speed[entry * watched_particles_.size() + k] =
        scene_.particles.velocity.row(watched_particles_[k]).matrix().norm();
}

EnergyReport Simulation::energies() const {
  const Particles& p = scene_.particles;
  EnergyReport e;
  e.kinetic = 0.5 * (p.mass * p.velocity.square().rowwise().sum()).sum();
  double potential = 0.0;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const Eigen::Vector3d f =
        p.external_force.row(i).transpose().matrix() + p.mass(i) * scene_.gravity;
    potential -= f.dot(p.position.row(i).transpose().matrix());
  }
  e.external_potential = potential + initial_external_;
  double work = 0.0;
  bool split = false;
  with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    split = kernels::splits_force<KernelT>;
    for (const ContactList* cl : {&pairs_, &wall_contacts_}) {
      // A uniform chain's pairs share one coefficient record (less to read per frame).
      const bool shared = cl == &pairs_ && chain_ && uniform_pairs_;
      for (std::size_t c = 0; c < cl->size(); ++c) {
        work += cl->work[c];
        if (cl->touching[c])
          e.stored += KernelT::potential(cl->coeffs[shared ? 0 : c], cl->state[c], cl->overlap[c]);
      }
    }
  });
  // Laws that split their force book the damping work itself (each pair's work plus half its
  // current sample, dt/2 power: the trapezoid's last term); plastic laws the work absorbed, of
  // which they still store part.
  double current = 0.0;
  if (split)
    for (const ContactList* cl : {&pairs_, &wall_contacts_})
      for (const double pw : cl->power) current += pw;
  e.dissipated =
      retired_dissipated_ + (split ? work + 0.5 * settings_.time_step * current : work - e.stored);
  e.wall_work = wall_work_;
  return e;
}

double Simulation::approach_rate(const ContactList& cl, std::size_t c) const {
  const Particles& p = scene_.particles;
  const Eigen::Vector3d n(cl.nx[c], cl.ny[c], cl.nz[c]);
  const Eigen::Vector3d vi = p.velocity.row(cl.first[c]).transpose();
  if (&cl == &wall_contacts_)
    return n.dot(vi - scene_.walls[static_cast<std::size_t>(cl.second[c])].velocity);
  return n.dot(vi - p.velocity.row(cl.second[c]).transpose().matrix());
}

Eigen::Vector3d Simulation::momentum() const {
  const Particles& p = scene_.particles;
  return p.velocity.matrix().transpose() * p.mass.matrix();  // no N x 3 temporary
}

std::int64_t Simulation::impact_velocity_floor_hits() const {
  std::int64_t hits = retired_floor_hits_;
  for (const ContactList* cl : {&pairs_, &wall_contacts_})
    for (const int h : cl->floor_hits) hits += h;
  return hits;
}

}  // namespace chaindem
