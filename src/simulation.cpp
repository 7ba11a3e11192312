#include "chaindem/simulation.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <unordered_map>

#include "chaindem/neighbor_search.hpp"

namespace chaindem {

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

// Pairs [c0, c1) of a uniform chain under a history-free law or one that reads only v0 (from
// `impact_velocity`, one per pair), branch-free so that it vectorises:
// the same arithmetic as update_contact (a pair apart has F = 0 and adds 0.5 (F_old + 0)
// (0 - delta_old) to the work, which is exactly how update_contact closes a contact). Onsets
// (first touch) are flagged in `onset`; returns block_onset and block_too_deep flags.
constexpr int block_onset = 1;     // a pair of the block touched for the first time
constexpr int block_too_deep = 2;  // a pair of the block overlaps by a radius or more

// After a block's pairs: touching = delta > 0, the new overlap's sign; onsets (first touch) in
// `onset`; returns block_onset and block_too_deep flags.
CHAINDEM_HOT int block_touching(std::size_t c0, std::size_t c1, const double* __restrict overlap,
                                std::uint8_t* __restrict touching, std::uint8_t* __restrict onset,
                                double deep_limit) {
  std::uint8_t any = 0, deep = 0;
  for (std::size_t c = c0; c < c1; ++c) {
    const auto on = static_cast<std::uint8_t>(overlap[c] > 0.0);
    const auto o = static_cast<std::uint8_t>(on & (touching[c] ^ 1));
    onset[c - c0] = o;
    any |= o;
    deep |= static_cast<std::uint8_t>(overlap[c] >= deep_limit);
    touching[c] = on;
  }
  return (any ? block_onset : 0) | (deep ? block_too_deep : 0);
}

// The plastic history columns of a chain, as restrict pointers for the vector loop.
struct HistoryView {
  double *max_overlap, *max_force, *residual_overlap, *unload_stiffness, *unload_exponent,
      *unloading, *regime;
};

template <class KernelT, bool clamp>
CHAINDEM_HOT int uniform_pairs_block(std::size_t c0, std::size_t c1, const double* __restrict x,
                                     const double* __restrict v, const PairCoeffs& coeffs,
                                     double radius_sum, double* __restrict overlap,
                                     double* __restrict force, double* __restrict rate,
                                     std::uint8_t* __restrict touching, double* __restrict work,
                                     std::uint8_t* __restrict onset,
                                     const double* __restrict impact_velocity, double floor,
                                     double deep_limit) {
  const PairCoeffs c_local = coeffs;
  for (std::size_t c = c0; c < c1; ++c) {  // doubles only: one vector loop
    const double d = radius_sum - (x[c + 1] - x[c]);
    const double r = v[c] - v[c + 1];
    const bool on = d > 0.0;
    const double d_on = on ? d : 0.0;
    ContactState state;  // history-free kernels never read it
    if constexpr (kernels::reads_only_impact_velocity<KernelT>) {
      // A pair touches exactly when its stored overlap is positive (after the first
      // evaluation); at first touch v0 is this step's rate, raised to the floor.
      const bool first_touch = on & !(overlap[c] > 0.0);
      const double v0 = r < floor ? floor : r;
      const double stored = impact_velocity[c];  // loaded always: a select, no branch
      state.impact_velocity = first_touch ? v0 : stored;
    }
    double f = KernelT::force(c_local, state, d_on, r);
    if constexpr (clamp) f = f < 0.0 ? 0.0 : f;
    f = on ? f : 0.0;
    work[c] += 0.5 * (force[c] + f) * (d_on - overlap[c]);
    overlap[c] = d_on;
    force[c] = f;
    rate[c] = r;
  }
  return block_touching(c0, c1, overlap, touching, onset, deep_limit);
}

// The same for a plastic law whose history is kept in columns (kernels::PlasticHistory): pairs
// where the kernel's branch-free form is exact advance here; the others (`fallback[c - c0]`
// set, nothing of theirs written) are left to update_contact. Returns whether there are any.
// The flags are 64-bit like the doubles: byte flags would make GCC take 64 pairs per vector
// iteration, far more than the registers hold.
template <class KernelT, bool clamp>
CHAINDEM_HOT bool columns_pairs_block(std::size_t c0, std::size_t c1, const double* __restrict x,
                                      const double* __restrict v, const PairCoeffs& coeffs,
                                      double radius_sum, double* __restrict overlap,
                                      double* __restrict force, double* __restrict rate,
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
    const double r = v[c] - v[c + 1];
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
    rate[c] = here ? r : rate[c];
    if constexpr (!KernelT::columns_always_exact) {
      fallback[c - c0] = static_cast<std::uint64_t>(!here);
      any |= static_cast<std::uint64_t>(!here);
    }
  }
  return any != 0;
}

// gather_interior and the step's closing half kick in one pass (and the peaks, if tracked).
// `base` may be nullptr: no external force or gravity (one array less to read).
template <bool track, bool uniform_mass, bool has_base>
CHAINDEM_HOT void gather_kick_interior(std::size_t begin, std::size_t end, double* __restrict f,
                                       const double* __restrict base,
                                       const double* __restrict pair_force, double* __restrict v,
                                       MassOf m, double half, double* __restrict peak_force,
                                       double* __restrict peak_v) {
  const double* __restrict inverse_mass = m.inverse_mass;
  for (std::size_t i = begin; i < end; ++i) {
    const double fi = ((has_base ? base[i] : 0.0) + pair_force[i - 1]) + -pair_force[i];
    f[i] = fi;
    v[i] += half * fi * (uniform_mass ? m.uniform : inverse_mass[i]);
    if constexpr (track) {
      peak_force[i] = std::max(peak_force[i], std::max(pair_force[i - 1], pair_force[i]));
      peak_v[i] = std::max(peak_v[i], v[i]);
    }
  }
}

// The chain engine's stops. `when`: " at step N", or nothing at construction. A wall meets
// only the end particle: one pressed into it by a radius could let its neighbour reach the wall
// too, which only the general engine would see.
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

// Advances one contact to overlap d and approach rate v: onset (v0 capture), force with the
// tension policy, and the work the contact absorbs, the trapezoidal integral
// sum 0.5 (F_old + F_new)(d_new - d_old). Dissipated energy = work - recoverable potential.
template <class KernelT>
inline void update_contact(ContactList& cl, std::size_t c, double d, double v, double floor,
                           bool clamp, const PairCoeffs& coeffs) {
  ContactState& s = cl.state[c];
  const double d_old = cl.overlap[c];
  const double f_old = cl.force[c];
  cl.rate[c] = v;
  if (d > 0.0) {
    if (!cl.touching[c]) {
      cl.touching[c] = 1;
      double v0 = v;
      if (v0 < floor) {  // floor is 0 for laws without v0: only a negative onset rate fires it
        v0 = floor;
        ++cl.floor_hits[c];
      }
      s.impact_velocity = v0;
    }
    double f = KernelT::force(coeffs, s, d, v);
    if (clamp && f < 0.0) f = 0.0;
    cl.work[c] += 0.5 * (f_old + f) * (d - d_old);
    cl.overlap[c] = d;
    cl.force[c] = f;
  } else {
    if (cl.touching[c]) {  // the contact ended during this step: close the integral at d = 0
      cl.touching[c] = 0;
      cl.work[c] += 0.5 * f_old * (0.0 - d_old);
    }
    cl.overlap[c] = 0.0;
    cl.force[c] = 0.0;
  }
}
}  // namespace

void Particles::resize(Eigen::Index n) {
  position.conservativeResize(n, 3);
  velocity.conservativeResize(n, 3);
  force.conservativeResize(n, 3);
  external_force.conservativeResize(n, 3);
  radius.conservativeResize(n);
  mass.conservativeResize(n);
  inverse_mass.conservativeResize(n);
  material.resize(static_cast<std::size_t>(n));
}

void Particles::set(Eigen::Index i, const Eigen::Vector3d& x, const Eigen::Vector3d& v, double r,
                    int material_index, double density, double length) {
  position.row(i) = x.transpose().array();
  velocity.row(i) = v.transpose().array();
  force.row(i).setZero();
  external_force.row(i).setZero();
  radius(i) = r;
  mass(i) = length > 0.0 ? density * std::numbers::pi * r * r * length
                         : density * 4.0 / 3.0 * std::numbers::pi * r * r * r;
  inverse_mass(i) = 1.0 / mass(i);
  material[static_cast<std::size_t>(i)] = material_index;
}

void ContactList::resize(std::size_t n) {
  first.resize(n);
  second.resize(n);
  coeffs.resize(n);
  state.resize(n);
  overlap.resize(n);
  rate.resize(n);
  force.resize(n);
  nx.resize(n);
  ny.resize(n);
  nz.resize(n);
  touching.resize(n);
  work.resize(n);
  floor_hits.resize(n);
}

void ContactList::copy_entry(std::size_t to, const ContactList& o, std::size_t from) {
  first[to] = o.first[from];
  second[to] = o.second[from];
  coeffs[to] = o.coeffs[from];
  state[to] = o.state[from];
  overlap[to] = o.overlap[from];
  rate[to] = o.rate[from];
  force[to] = o.force[from];
  nx[to] = o.nx[from];
  ny[to] = o.ny[from];
  nz[to] = o.nz[from];
  touching[to] = o.touching[from];
  work[to] = o.work[from];
  floor_hits[to] = o.floor_hits[from];
}

void ContactList::start_entry(std::size_t k, int i, int j, const PairCoeffs& c, double delta0,
                              const Eigen::Vector3d& n) {
  first[k] = i;
  second[k] = j;
  coeffs[k] = c;
  state[k] = ContactState{};
  touching[k] = 0;
  work[k] = 0.0;
  floor_hits[k] = 0;
  overlap[k] = std::max(0.0, delta0);
  rate[k] = force[k] = 0.0;
  nx[k] = n.x();
  ny[k] = n.y();
  nz[k] = n.z();
}

Simulation::Simulation(Scene scene, SimulationSettings settings)
    : scene_(std::move(scene)), settings_(std::move(settings)) {
  if (!settings_.law) throw std::invalid_argument("Simulation: no contact law");
  if (!(settings_.time_step > 0.0))
    throw std::invalid_argument("Simulation: time step must be > 0");
  if (!(settings_.skin > 0.0)) throw std::invalid_argument("Simulation: skin must be > 0");
  if (settings_.law->uses_impact_velocity())
    impact_velocity_floor_ = settings_.law_params.at("impact_velocity_floor");
  wall_offset_.assign(scene_.walls.size(), Eigen::Vector3d::Zero());
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
    pairs_.start_entry(c, static_cast<int>(c), static_cast<int>(c + 1),
                       pair_coeffs(static_cast<int>(c), static_cast<int>(c + 1)),
                       radius_sum_[c] - (p.position(i + 1, 0) - p.position(i, 0)),
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
    wall_contacts_.start_entry(c, i, w, wall_coeffs(i, w),
                               p.radius(i) - (p.position(i, 0) - wall.point.x()) * wall.normal.x(),
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
// evaluation: touching, or a pair that starts overlapped).
template <class KernelT>
void Simulation::chain_pairs(std::size_t c0, std::size_t c1, std::int64_t step, ChainPass* pass) {
  const Particles& p = scene_.particles;
  const double* x = p.position.col(0).data();
  const double* v = p.velocity.col(0).data();
  const double* radius_sum = radius_sum_.data();
  const double* overlap = pairs_.overlap.data();
  const double floor = impact_velocity_floor_;
  const bool clamp = settings_.tension == TensionPolicy::clamp;
  constexpr std::size_t block = 8;
  for (std::size_t b0 = c0; b0 < c1; b0 += block) {
    const std::size_t b1 = std::min(b0 + block, c1);
    double d[block];
    bool any = false;
    for (std::size_t c = b0; c < b1; ++c) {
      d[c - b0] = radius_sum[c] - (x[c + 1] - x[c]);
      any |= (d[c - b0] > 0.0) | (overlap[c] > 0.0);
    }
    if (!any) continue;
    for (std::size_t c = b0; c < b1; ++c) {
      const double dc = d[c - b0];
      if (!(dc > 0.0) && !(overlap[c] > 0.0)) continue;
      const auto i = static_cast<Eigen::Index>(c);
      if (dc >= std::min(p.radius(i), p.radius(i + 1))) {
        if (!pass) throw_too_deep(c);
        pass->note_fault(step, c);
      }
      update_contact<KernelT>(pairs_, c, dc, v[c] - v[c + 1], floor, clamp,
                              uniform_pairs_ ? pairs_.coeffs[0] : pairs_.coeffs[c]);
    }
  }
}

// Pairs [c0, c1) of a uniform chain under a history-free or v0-only law: every pair through the
// branch-free loop (uniform_pairs_block); only the rare onsets leave it.
template <class KernelT>
void Simulation::chain_pairs_vector(std::size_t c0, std::size_t c1, std::int64_t step,
                                    ChainPass& pass) {
  const Particles& p = scene_.particles;
  const double* x = p.position.col(0).data();
  const double* v = p.velocity.col(0).data();
  const PairCoeffs& coeffs = pairs_.coeffs[0];
  const double radius_sum = radius_sum_[0];
  const double floor = impact_velocity_floor_;
  double* overlap = pairs_.overlap.data();
  // The smallest radius of the chain bounds every pair's overlap (the per-pair loop uses the
  // pair's own smaller radius).
  const double deep_limit = min_radius_;
  const bool clamp = settings_.tension == TensionPolicy::clamp;
  for (std::size_t b0 = c0; b0 < c1; b0 += chain_block) {
    const std::size_t b1 = std::min(b0 + chain_block, c1);
    std::uint8_t onset[chain_block];
    int flags = 0;
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
            return columns_pairs_block<KernelT, clamped>(b0, b1, x, v, coeffs, radius_sum, overlap,
                                                         pairs_.force.data(), pairs_.rate.data(),
                                                         pairs_.work.data(), view, fallback);
          },
          clamp);
      if (any)  // beyond the branch-free form (plastic flow): the pair's own update, as the
                // per-pair loop does it, on its history taken out of the columns
        for (std::size_t c = b0; c < b1; ++c) {
          if (!fallback[c - b0]) continue;
          h.get(c).store(pairs_.state[c]);
          update_contact<KernelT>(pairs_, c, radius_sum - (x[c + 1] - x[c]), v[c] - v[c + 1], floor,
                                  clamp, coeffs);
          h.set(c, kernels::PlasticHistory::of(pairs_.state[c]));
        }
      flags = block_touching(b0, b1, overlap, pairs_.touching.data(), onset, deep_limit);
    } else {
      flags = with_flags(
          [&]<bool clamped>() {
            return uniform_pairs_block<KernelT, clamped>(
                b0, b1, x, v, coeffs, radius_sum, overlap, pairs_.force.data(), pairs_.rate.data(),
                pairs_.touching.data(), pairs_.work.data(), onset, pair_impact_velocity_.data(),
                floor, deep_limit);
          },
          clamp);
    }
    if (flags & block_too_deep)
      for (std::size_t c = b0; c < b1; ++c)
        if (overlap[c] >= deep_limit) {
          pass.note_fault(step, c);
          break;
        }
    if (flags & block_onset)
      for (std::size_t c = b0; c < b1; ++c)
        if (onset[c - b0]) {
          double v0 = pairs_.rate[c];
          if (v0 < floor) {
            v0 = floor;
            ++pairs_.floor_hits[c];
          }
          pairs_.state[c].impact_velocity = v0;
          if constexpr (kernels::reads_only_impact_velocity<KernelT>) pair_impact_velocity_[c] = v0;
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
  ColumnsGuard() = default;
  explicit ColumnsGuard(Simulation* s) : sim(s) {}
  ColumnsGuard(const ColumnsGuard&) = delete;
  ColumnsGuard& operator=(const ColumnsGuard&) = delete;
  ~ColumnsGuard() {
    if (!sim) return;
    sim->plastic_columns_.store(sim->pairs_.state);
  }
};

Simulation::ColumnsGuard Simulation::load_history_columns() {
  const bool columns = with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    if constexpr (kernels::history_in_columns<KernelT>)
      return chain_vectorised<KernelT>();
    else
      return false;
  });
  if (!columns) return {};
  plastic_columns_.load(pairs_.state);
  return ColumnsGuard(this);
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
  const std::size_t b = std::max<std::size_t>(begin, 1), e = std::min(end, n - 1);
  if (b < e) {
    if (closing_kick == 0.0) {
      gather_interior(b, e, f, base_force_x_.data(), pair_force, peak);
    } else {
      with_flags(
          [&]<bool track, bool uniform, bool has_base>() {
            gather_kick_interior<track, uniform, has_base>(b, e, f, base, pair_force, v, mass,
                                                           closing_kick, peak, peak_v);
          },
          tracking_, mass.inverse_mass == nullptr, base != nullptr);
    }
  }
  // The two end particles, which also meet the walls.
  for (const std::size_t i : {std::size_t{0}, n - 1}) {
    if (i < begin || i >= end) continue;
    f[i] = i == 0 ? base_force_x_[0] + -pair_force[0] : base_force_x_[n - 1] + pair_force[n - 2];
    if (peak) peak[i] = std::max(peak[i], pair_force[i == 0 ? 0 : n - 2]);
    for (std::size_t c = 0; c < wall_contacts_.size(); ++c) {
      if (static_cast<std::size_t>(wall_contacts_.first[c]) != i) continue;
      f[i] += -wall_contacts_.force[c] * wall_contacts_.nx[c];
      if (peak) peak[i] = std::max(peak[i], wall_contacts_.force[c]);
    }
    if (closing_kick != 0.0) {
      v[i] += closing_kick * f[i] * inverse_mass[i];
      if (peak_v) peak_v[i] = std::max(peak_v[i], v[i]);
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
  auto walls_of = [&](std::size_t end_particle) {
    for (std::size_t c = 0; c < wall_contacts; ++c) {
      const auto i = static_cast<std::size_t>(wall_contacts_.first[c]);
      if (i != end_particle) continue;
      const auto w = static_cast<std::size_t>(wall_contacts_.second[c]);
      update_wall<KernelT>(c, pass_wall_point_[static_cast<std::size_t>(r.step) * walls + w]);
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
    log_.rate[at] = pairs_.rate[static_cast<std::size_t>(c)];
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
    if (kernels::reads_only_impact_velocity<KernelT> && vector_pairs &&
        pair_impact_velocity_.size() != np) {  // first pass: v0 of the pairs touching already
      pair_impact_velocity_.resize(np);
      for (std::size_t c = 0; c < np; ++c)
        pair_impact_velocity_[c] = pairs_.state[c].impact_velocity;
    }
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
  PairInput in{1.0 / (a.compliance() + b.compliance()), radius, mass};
  in.youngs_modulus = 0.5 * (a.youngs_modulus + b.youngs_modulus);
  in.poisson_ratio = 0.5 * (a.poisson_ratio + b.poisson_ratio);
  in.yield_stress = std::min(a.yield_stress.value_or(INFINITY), b.yield_stress.value_or(INFINITY));
  if (std::isinf(in.yield_stress)) in.yield_stress = 0.0;
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
      retired_work_ += list.work[old];
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
        return p.radius(i) + p.radius(j) -
               std::sqrt((p.position.row(i) - p.position.row(j)).square().sum());
      });
  merge(
      wall_contacts_, dormant_walls_,
      find_wall_pairs(p.position, p.radius, scene_.walls, wall_offset_, skin),
      [&](int i, int w) { return wall_coeffs(i, w); },
      [&](int i, int w) {
        return p.radius(i) -
               (p.position.row(i).transpose().matrix() - wall_point(w)).dot(scene_.walls[w].normal);
      });

  // Incidence lists: pairs in list order, then wall contacts, for every particle.
  const std::size_t n = static_cast<std::size_t>(p.size());
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

  reference_position_ = p.position;
  wall_offset_at_rebuild_ = wall_offset_;
  ++rebuilds_;
}

template <class KernelT>
void Simulation::evaluate_pairs(KernelT) {
  const Particles& p = scene_.particles;
  ContactList& cl = pairs_;
  const double floor = impact_velocity_floor_;
  const bool clamp = settings_.tension == TensionPolicy::clamp;
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
    cl.nx[c] = nx;
    cl.ny[c] = ny;
    cl.nz[c] = nz;
    update_contact<KernelT>(cl, c, p.radius(i) + p.radius(j) - dist, rate, floor, clamp,
                            cl.coeffs[c]);
  });
}

// Advances wall contact c, its wall at `point`.
template <class KernelT>
void Simulation::update_wall(std::size_t c, const Eigen::Vector3d& point) {
  const Particles& p = scene_.particles;
  ContactList& cl = wall_contacts_;
  const int i = cl.first[c];
  const Wall& wall = scene_.walls[static_cast<std::size_t>(cl.second[c])];
  const Eigen::Vector3d x = p.position.row(i).transpose();
  const Eigen::Vector3d v = p.velocity.row(i).transpose();
  const double distance = (x - point).dot(wall.normal);
  // Normal from the particle towards the wall: -wall.normal.
  cl.nx[c] = -wall.normal.x();
  cl.ny[c] = -wall.normal.y();
  cl.nz[c] = -wall.normal.z();
  const double rate = (wall.velocity - v).dot(wall.normal);
  update_contact<KernelT>(cl, c, p.radius(i) - distance, rate, impact_velocity_floor_,
                          settings_.tension == TensionPolicy::clamp, cl.coeffs[c]);
}

template <class KernelT>
void Simulation::evaluate_walls(KernelT) {
  for (std::size_t c = 0; c < wall_contacts_.size(); ++c)
    update_wall<KernelT>(c, wall_point(static_cast<std::size_t>(wall_contacts_.second[c])));
}

void Simulation::gather_forces() {
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
    p.force(i, 0) = fx;
    p.force(i, 1) = fy;
    p.force(i, 2) = fz;
  });
}

void Simulation::compute_forces() {
  with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    if (chain_)
      chain_pairs<KernelT>(0, pairs_.size(), 0, nullptr);
    else
      evaluate_pairs(kernel);
    evaluate_walls(kernel);
  });
  if (chain_) {
    const Particles& p = scene_.particles;
    for (std::size_t c = 0; c < wall_contacts_.size(); ++c)
      if (wall_contacts_.overlap[c] >= p.radius(wall_contacts_.first[c]))
        throw_wall_too_deep(wall_contacts_.first[c],
                            scene_.walls[static_cast<std::size_t>(wall_contacts_.second[c])].name);
    chain_gather(0, static_cast<std::size_t>(p.size()), 0.0);
  } else {
    gather_forces();
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
    const ColumnsGuard columns = load_history_columns();
    for (std::int64_t k = 0, done = 0; k < passes; ++k) {
      const std::int64_t length = (n - done) / (passes - k);
      chain_pass(length, done);
      done += length;
    }
    return;
  }
  for (std::int64_t s = 0; s < n; ++s) {
    step_general();
    record_step(s);
  }
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
    log_.rate[entry * watched_pairs_.size() + k] = pairs_.rate[static_cast<std::size_t>(c)];
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
  e.external_potential = potential;
  double work = retired_work_;
  with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
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
  e.dissipated = work - e.stored;
  e.wall_work = wall_work_;
  return e;
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
