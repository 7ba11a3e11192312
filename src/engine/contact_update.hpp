#pragma once
// What the chain engine and the general engine share, per contact: the rules a loop's contacts
// follow (impact-velocity policy, tension, time step), the update of one contact (its force,
// history, first touch, separation and damping work), the impulse sampling misses at a contact's
// edges, and the loop helpers. Private to src/engine/.

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "chaindem/engine/neighbor_search.hpp"
#include "chaindem/engine/simulation.hpp"
#include "chaindem/laws/contact_law.hpp"
#include "chaindem/laws/edge_impulse.hpp"

namespace chaindem::detail {

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

// The rules of the contacts of one model, whose tension policy is `tension`: the other rules
// are the run's.
inline ContactRules contact_rules(const SimulationSettings& s, TensionPolicy tension,
                                  bool first_evaluation) {
  ContactRules r;
  using Policy = SimulationSettings::ImpactVelocity;
  switch (s.impact_velocity) {
    case Policy::onset:
      r.v0_low = r.floor = s.impact_velocity_floor;
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
  r.clamp = tension == TensionPolicy::clamp;
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

// Below this many items a parallel region costs more than it saves.
inline constexpr std::size_t parallel_threshold = 4096;

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

// for_each_index whose body(i, mine) also takes what `local()` makes once per thread (a thread's
// own accumulator), not once per index.
template <class Index, class Local, class Body>
inline void for_each_index_local(Index n, int threads, Local&& local, Body&& body) {
  if (threads > 1 && static_cast<std::size_t>(n) > parallel_threshold) {
#pragma omp parallel num_threads(threads)
    {
      const auto mine = local();
#pragma omp for schedule(static)
      for (Index i = 0; i < n; ++i) body(i, mine);
    }
  } else {
    const auto mine = local();
    for (Index i = 0; i < n; ++i) body(i, mine);
  }
}

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

// The overlap a contact starts with: below 1e-9 of the smaller radius it is the rounding of the
// positions of touching bodies (x + r1 + r2 need not be exact), not a pre-compression, and the
// contact starts at delta = 0 like any other (its first evaluation is then its first touch).
inline double initial_overlap(double delta0, double radius) {
  return delta0 > 1e-9 * radius ? delta0 : 0.0;
}

// Whether a contact has gone too deep for any contact law: its overlap reaches `limit` (the
// pair's smaller radius, or the particle's radius at a wall), or is not a number (a diverged
// state). Every law describes bodies that touch over a patch small next to their radii; beyond
// a radius one body is passing through the other, and both engines stop the run
// (EngineState::throw_too_deep, an EngineFault) instead of reporting what would follow.
inline bool too_deep(double overlap, double limit) {
  return !(overlap < limit);
}

// The first fault a loop finds, noted from any thread as a key (the smallest wins) with the
// contact's overlap there: a loop on OpenMP threads cannot throw, so it notes, and its caller
// throws once the loop is done. A contact's key is fault_key; the chain engine's passes put the
// step in front of it. Noting is rare (the run stops): a spin lock keeps the key and its overlap
// together at the cost of a few instructions, where a mutex would put a call into the loops.
struct FirstFault {
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  std::atomic<std::uint64_t> key{none};
  double overlap = 0.0;   // of the contact at `key`, once found()
  std::atomic_flag busy;  // held while key and overlap change
  void note(std::uint64_t k, double overlap_there) {
    while (busy.test_and_set(std::memory_order_acquire)) {
    }
    if (k < key.load(std::memory_order_relaxed)) {
      overlap = overlap_there;
      key.store(k, std::memory_order_relaxed);
    }
    busy.clear(std::memory_order_release);
  }
  bool found() const { return key.load() != none; }
};

// Contact c's key, whether its overlap is not a number in the lowest bit.
inline std::uint64_t fault_key(std::size_t c, double overlap) {
  return 2 * static_cast<std::uint64_t>(c) + static_cast<std::uint64_t>(std::isnan(overlap));
}

// The onset and separation bookkeeping of contact c (shared by update_contact and the vectorised
// loop, which sets v0 itself): first-touch step and rate, floor hits; separation step.
inline void record_onset(ContactList& cl, std::size_t c, std::int64_t step, double rate,
                         const ContactRules& rules, bool reads_v0) {
  cl.onset_evaluation[c] = ContactList::evaluation_of(step);
  set_if_differs(cl.onset_rate, c, rate);  // beads that touch at rest leave the zero untouched
  if (reads_v0 && rate < rules.floor) ++cl.floor_hits[c];
}

// Whether update_contact of contact c at overlap d, after the first evaluation, would leave every
// column of the contact as it is: apart now and at its last evaluation (not touching; overlap,
// force and power +0) with a work that adding +0 keeps. In bits, not values (-0 is not +0 here):
// skipping such an update changes nothing.
template <class KernelT>
inline bool update_changes_nothing(const ContactList& cl, std::size_t c, double d) {
  const auto bits = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  if (d > 0.0 || cl.touching[c] || bits(cl.overlap[c]) != 0 || bits(cl.force[c]) != 0) return false;
  if constexpr (kernels::splits_force<KernelT>)
    return bits(cl.power[c]) == 0 && cl.work[c] == cl.work[c] && bits(cl.work[c]) != bits(-0.0);
  return true;
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
  ContactState& s = cl.state_of(c);
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
  cl.end_evaluation[c] = ContactList::evaluation_of(step);
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

}  // namespace chaindem::detail
