// The chain engine: a line of beads whose pair c joins beads c and c + 1 for the whole run,
// advanced in cache-sized passes of several steps (docs/engine.md, "Chain engine"). Here: its
// contacts, the history columns, the passes and their tiles, the particle loops and the walls;
// the pair loops are in chain_pairs.hpp, the watch of their strains in chain_validity.cpp.
#include "chain_engine.hpp"
#include "chain_pairs.hpp"

namespace chaindem::detail {
namespace {

// The particle loops, on the x components (contiguous columns), written over restrict pointers
// so that the compiler vectorises them (CHAINDEM_HOT). Same arithmetic as the general step.

// A chain of equal masses reads one inverse mass instead of an array (less memory traffic: the
// loops are bandwidth-bound); the values, and so the results, are the same.
struct MassOf {
  const double* inverse_mass;  // per particle, or nullptr
  double uniform;              // when inverse_mass is nullptr
  double operator[](std::size_t i) const { return inverse_mass ? inverse_mass[i] : uniform; }
};

// Each loop is written once, inline, for the vectorised clones (CHAINDEM_HOT) of long chains
// and for the passes over a short chain (run_whole), where a call per loop and step would cost
// more than its few particles.
// u: the displacements (ChainEngine::displacement_).
template <bool uniform_mass>
[[gnu::always_inline]] inline void kick_drift_loop(std::size_t begin, std::size_t end,
                                                   double* __restrict u, double* __restrict v,
                                                   const double* __restrict f, MassOf m,
                                                   double half, double dt) {
  const double* __restrict inverse_mass = m.inverse_mass;
  for (std::size_t i = begin; i < end; ++i) {
    v[i] += half * f[i] * (uniform_mass ? m.uniform : inverse_mass[i]);
    u[i] += dt * v[i];
  }
}

template <bool uniform_mass>
CHAINDEM_HOT void kick_drift(std::size_t begin, std::size_t end, double* __restrict u,
                             double* __restrict v, const double* __restrict f, MassOf m,
                             double half, double dt) {
  kick_drift_loop<uniform_mass>(begin, end, u, v, f, m, half, dt);
}

// The speed of a particle of the chain moving at vx along x: |v| as the general engine computes
// it, sqrt(vx^2 + 0 + 0) (a chain's particles never move across it), which is |vx| exactly when
// vx is 0 or vx^2 a normal double (a correctly rounded square root of a correctly rounded
// square); only outside that range is the root taken. A root per watched particle and step,
// waiting on the pairs' roots, was a tenth of a short chain's step.
inline double chain_speed(double vx) {
  const double a = std::abs(vx);
  return a == 0.0 || (a > 0x1p-500 && a < 0x1p500) ? a : Eigen::Vector3d(vx, 0.0, 0.0).norm();
}

// Force on interior particles i in [begin, end), 0 < i < n - 1: pair i - 1 pushes it along +x,
// pair i along -x (the general gather's order: base, then pairs in list order).
CHAINDEM_HOT void gather_interior(std::size_t begin, std::size_t end, double* __restrict f,
                                  const double* __restrict base,
                                  const double* __restrict pair_force,
                                  double* __restrict peak_force) {
  for (std::size_t i = begin; i < end; ++i)
    f[i] = ((base ? base[i] : 0.0) + pair_force[i - 1]) + -pair_force[i];
  if (peak_force)
    for (std::size_t i = begin; i < end; ++i)
      peak_force[i] = std::max(peak_force[i], std::max(pair_force[i - 1], pair_force[i]));
}

// gather_interior and the step's closing half kick in one pass (and the peaks, if tracked), and,
// for the predicted rate, the next step's look-ahead dt/2 (2 a_n - a_(n-1)) from the new force
// and the one it replaces. `base` may be nullptr: no external force or gravity (one array less
// to read).
template <bool track, bool uniform_mass, bool has_base, bool predict>
[[gnu::always_inline]] inline void gather_kick_loop(
    std::size_t begin, std::size_t end, double* __restrict f, const double* __restrict base,
    const double* __restrict pair_force, double* __restrict v, MassOf m, double half,
    double* __restrict look, double* __restrict peak_force, double* __restrict peak_v) {
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

template <bool track, bool uniform_mass, bool has_base, bool predict>
CHAINDEM_HOT void gather_kick_interior(std::size_t begin, std::size_t end, double* __restrict f,
                                       const double* __restrict base,
                                       const double* __restrict pair_force, double* __restrict v,
                                       MassOf m, double half, double* __restrict look,
                                       double* __restrict peak_force, double* __restrict peak_v) {
  gather_kick_loop<track, uniform_mass, has_base, predict>(begin, end, f, base, pair_force, v, m,
                                                           half, look, peak_force, peak_v);
}

}  // namespace

ChainEngine::ChainEngine(EngineState& state) : state_(state) {
  build_contacts();
  build_lattice();
  evaluate_contacts();
  state_.book_wall_power();
  // The positions are set from the displacements from now on, to a double: carries given with
  // the data (Particles::position_carry) are in the displacements.
  Vec3Array& carry = state_.scene.particles.position_carry;
  for (Eigen::Index i = 0; i < carry.rows(); ++i)
    if (carry(i, 0) != 0.0) carry(i, 0) = 0.0;
}

// Whether every pair joins bodies of the same materials, radii and masses, and so (under one
// model) has the same coefficients: a uniform chain, whose pairs then hold them once.
bool ChainEngine::equal_pairs() const {
  const Scene& scene = state_.scene;
  const Particles& p = scene.particles;
  const Eigen::Index n = p.size();
  // Equal bodies make equal pairs (the common chain: settled at the cost of reading three
  // columns, where building each pair's effective quantities costs ten times more).
  if ((p.radius == p.radius(0)).all() && (p.mass == p.mass(0)).all() &&
      std::all_of(p.material.begin(), p.material.end(), [&](int m) { return m == p.material[0]; }))
    return true;
  const PairInput first = pair_input(scene, 0, 1);
  const int model = state_.pair_model(0, 1);
  for (Eigen::Index i = 1; i + 1 < n; ++i) {
    const PairInput in = pair_input(scene, i, i + 1);
    if (state_.pair_model(static_cast<int>(i), static_cast<int>(i + 1)) != model ||
        std::memcmp(&in, &first, sizeof(PairInput)) != 0)
      return false;
  }
  return true;
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
  state_.pairs.shared_coeffs = equal_pairs();
  state_.pairs.shared_state = no_model_keeps_state(state_.settings);
  state_.pairs.shared_normal = true;  // every pair along +x
  state_.pairs.chain_indices = true;
  state_.pairs.resize(n - 1);
  RecentCoeffs coeffs;
  // Shared coefficients are those of the first pair, whose model is every pair's.
  const int shared_model = state_.pairs.shared_coeffs ? state_.pair_model(0, 1) : -1;
  const PairCoeffs* shared = shared_model >= 0
                                 ? &coeffs.of(state_, shared_model, pair_input(state_.scene, 0, 1))
                                 : nullptr;
  for (std::size_t c = 0; c + 1 < n; ++c) {
    const auto i = static_cast<Eigen::Index>(c);
    const int first = static_cast<int>(c), second = static_cast<int>(c + 1);
    const double d0 = radius_sum(c) - separation(p.position(i, 0), p.position_carry(i, 0),
                                                 p.position(i + 1, 0), p.position_carry(i + 1, 0));
    const int model = shared ? shared_model : state_.pair_model(first, second);
    state_.pairs.start_entry(
        c, first, second,
        shared ? *shared : coeffs.of(state_, model, pair_input(state_.scene, i, i + 1)),
        initial_overlap(d0, std::min(p.radius(i), p.radius(i + 1))), Eigen::Vector3d::UnitX(),
        model);
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
        initial_overlap(state_.wall_overlap_at(i, w, wall.point), p.radius(i)), -wall.normal,
        state_.wall_model(i, w));
  }
  model_ = state_.common_model();
  build_segments();
  build_kind_runs();
  uniform_pairs_ = model_ >= 0 && segments_[0].uniform;
  // Most chains carry neither a load nor gravity along x: the loops then read no base force.
  const auto base_of = [&](Eigen::Index k) {
    return p.load(k).x() + p.mass(k) * state_.scene.gravity.x();
  };
  bool zero = state_.scene.driven_loads.empty();
  for (Eigen::Index k = 0; k < p.size() && zero; ++k) zero = base_of(k) == 0.0;
  base_force_x_.clear();
  if (!zero)
    for (Eigen::Index k = 0; k < p.size(); ++k) base_force_x_.push_back(base_of(k));
  load_base_.clear();
  for (const DrivenLoad& l : state_.scene.driven_loads)
    load_base_.push_back(base_force_x_[static_cast<std::size_t>(l.particle)]);
  uniform_mass_ = (p.inverse_mass == p.inverse_mass(0)).all();
  state_.chain_pairs = true;
  state_.build_incidence();
}

// Segments: maximal runs of consecutive pairs of one model (a chain of one model is one). Each is
// uniform when its pairs share one coefficient record and radius sum, as the pairs within one
// medium of equal beads do; a long uniform segment under a kernel the vectorised loop takes runs
// there.
void ChainEngine::build_segments() {
  const ContactList& pairs = state_.pairs;
  const Particles& p = state_.scene.particles;
  segments_.clear();
  for (std::size_t b = 0; b < pairs.size();) {
    const double first_radius = p.radius(static_cast<Eigen::Index>(b));
    Segment g{b, b + 1, pairs.model[b], true, radius_sum(b), first_radius};
    while (g.end < pairs.size() && pairs.model[g.end] == pairs.model[b]) ++g.end;
    g.kind = state_.pair_kind(b);
    g.contact_radius = state_.pair_radius(b);
    for (std::size_t c = b; c < g.end; ++c) {
      g.min_radius = std::min(g.min_radius, p.radius(static_cast<Eigen::Index>(c + 1)));
      g.uniform = g.uniform && radius_sum(c) == g.radius_sum &&
                  (pairs.shared_coeffs ||
                   std::memcmp(&pairs.coeffs_of(c), &pairs.coeffs_of(b), sizeof(PairCoeffs)) == 0);
      if (state_.pair_kind(c) != g.kind || state_.pair_radius(c) != g.contact_radius) g.kind = -1;
    }
    with_kernel(state_.kernel_of(g.model), [&](auto kernel) {
      using KernelT = decltype(kernel);
      g.vector = vectorised<KernelT>(g);
      if constexpr (kernels::history_in_columns<KernelT>) {
        if (g.vector) g.columns = Segment::Columns::plastic;
      } else if constexpr (kernels::reads_only_impact_velocity<KernelT>) {
        if (g.vector) g.columns = Segment::Columns::v0;
      }
    });
    segments_.push_back(g);
    b = g.end;
  }
}

bool ChainEngine::vectorised_pairs() const {
  return std::any_of(segments_.begin(), segments_.end(), [](const Segment& g) { return g.vector; });
}

void ChainEngine::HistoryColumns::load(const std::vector<ContactState>& states, std::size_t begin,
                                       std::size_t end) {
  for (auto* column : {&max_overlap, &max_force, &residual_overlap, &unload_stiffness,
                       &unload_exponent, &unloading, &regime})
    column->resize(states.size());
  for (std::size_t c = begin; c < end; ++c) set(c, kernels::PlasticHistory::of(states[c]));
}

void ChainEngine::HistoryColumns::store(std::vector<ContactState>& states, std::size_t begin,
                                        std::size_t end) const {
  for (std::size_t c = begin; c < end; ++c) get(c).store(states[c]);
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
  ColumnsGuard() = default;
  explicit ColumnsGuard(ChainEngine* e) : engine(e) {}
  ColumnsGuard(const ColumnsGuard&) = delete;
  ColumnsGuard& operator=(const ColumnsGuard&) = delete;
  ~ColumnsGuard() {
    if (engine) engine->store_history_columns();
  }
};

// The histories of the segments on the vectorised loop that keeps them in columns: the plastic
// laws' (plastic_columns_), or v0 and the damping origin (pair_impact_velocity_ ...). The columns
// span the chain; each segment loads and stores its own pairs.
ChainEngine::ColumnsGuard ChainEngine::load_history_columns() {
  const std::vector<ContactState>& states = state_.pairs.state;
  bool loaded = false;
  any_damping_origin_ = false;
  for (const Segment& g : segments_) {
    if (g.columns == Segment::Columns::plastic) {
      plastic_columns_.load(states, g.begin, g.end);
    } else if (g.columns == Segment::Columns::v0) {
      for (auto* column : {&pair_impact_velocity_, &pair_damping_origin_, &pair_origin_overlap_,
                           &pair_origin_force_, &pair_origin_energy_})
        column->resize(states.size());
      for (std::size_t c = g.begin; c < g.end; ++c) {
        pair_impact_velocity_[c] = states[c].impact_velocity;
        pair_damping_origin_[c] = states[c].damping_origin;
        pair_origin_overlap_[c] = states[c].origin_overlap;
        pair_origin_force_[c] = states[c].origin_force;
        pair_origin_energy_[c] = states[c].origin_energy;
        any_damping_origin_ = any_damping_origin_ || states[c].origin_overlap != 0.0;
      }
    } else {
      continue;
    }
    loaded = true;
  }
  return loaded ? ColumnsGuard(this) : ColumnsGuard();
}

// The columns back into the pairs' states.
void ChainEngine::store_history_columns() {
  std::vector<ContactState>& states = state_.pairs.state;
  for (const Segment& g : segments_) {
    if (g.columns == Segment::Columns::plastic) {
      plastic_columns_.store(states, g.begin, g.end);
    } else if (g.columns == Segment::Columns::v0) {
      for (std::size_t c = g.begin; c < g.end; ++c) {
        states[c].impact_velocity = pair_impact_velocity_[c];
        states[c].damping_origin = pair_damping_origin_[c];
        states[c].origin_overlap = pair_origin_overlap_[c];
        states[c].origin_force = pair_origin_force_[c];
        states[c].origin_energy = pair_origin_energy_[c];
      }
    }
  }
}

// Gathers particles [begin, end): contact forces (and walls at the ends) into the force, then,
// if closing_kick is nonzero, the step's closing half kick v += closing_kick f / m.
void ChainEngine::gather(std::size_t begin, std::size_t end, double closing_kick,
                         std::int64_t step) {
  if (!load_base_.empty()) set_driven_loads(begin, end, step);  // most chains have none
  Particles& p = state_.scene.particles;
  const std::size_t n = static_cast<std::size_t>(p.size());
  double* f = p.force.col(0).data();
  double* v = p.velocity.col(0).data();
  const double* pair_force = state_.pairs.force.data();
  double* peak = state_.tracking ? state_.peak_contact_force.data() : nullptr;
  double* peak_v = state_.tracking ? state_.peak_velocity_x.data() : nullptr;
  const MassOf mass{uniform_mass_ ? nullptr : p.inverse_mass.data(), p.inverse_mass(0)};
  const double* base = base_force_x_.empty() ? nullptr : base_force_x_.data();
  double* look = state_.lookahead.col(0).data();
  const bool predict = state_.look_kick != 0.0;
  const std::size_t b = std::max<std::size_t>(begin, 1), e = std::min(end, n - 1);
  if (b < e) {
    if (closing_kick == 0.0) {  // at construction: the look-ahead of a first step, dt/2 a_0
      gather_interior(b, e, f, base, pair_force, peak);
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
  gather_ends(begin, end, closing_kick);
  if (!load_base_.empty()) note_load_power(begin, end, step);
}

// gather() of the two end particles, which also meet the walls, where in [begin, end).
void ChainEngine::gather_ends(std::size_t begin, std::size_t end, double closing_kick) {
  Particles& p = state_.scene.particles;
  const std::size_t n = static_cast<std::size_t>(p.size());
  double* f = p.force.col(0).data();
  double* v = p.velocity.col(0).data();
  const double* inverse_mass = p.inverse_mass.data();
  const double* pair_force = state_.pairs.force.data();
  double* peak = state_.tracking ? state_.peak_contact_force.data() : nullptr;
  double* peak_v = state_.tracking ? state_.peak_velocity_x.data() : nullptr;
  double* look = state_.lookahead.col(0).data();
  const bool predict = state_.look_kick != 0.0;
  const ContactList& walls = state_.wall_contacts;
  // End particle i, its base force, its pair's push on it and that pair's force: summed in locals
  // (the columns may alias, each store would be read back), the same operations in the same order.
  auto end_particle = [&](std::size_t i, double base, double push, double pair) {
    double fi = base + push, peak_i = peak ? std::max(peak[i], pair) : 0.0;
    for (std::size_t c = 0; c < walls.size(); ++c) {
      if (static_cast<std::size_t>(walls.first[c]) != i) continue;
      fi += -walls.force[c] * walls.nx[c];
      if (peak) peak_i = std::max(peak_i, walls.force[c]);
    }
    const double f_old = f[i];
    f[i] = fi;
    if (peak) peak[i] = peak_i;
    if (closing_kick != 0.0) {
      if (predict) look[i] = closing_kick * ((fi + fi) - f_old) * inverse_mass[i];
      v[i] += closing_kick * fi * inverse_mass[i];
      if (peak_v) peak_v[i] = std::max(peak_v[i], v[i]);
    } else {
      look[i] = state_.look_kick * fi * inverse_mass[i];
    }
  };
  const auto base_at = [&](std::size_t i) {
    return base_force_x_.empty() ? 0.0 : base_force_x_[i];
  };
  if (begin == 0) end_particle(0, base_at(0), -pair_force[0], pair_force[0]);
  if (end == n) end_particle(n - 1, base_at(n - 1), pair_force[n - 2], pair_force[n - 2]);
}

// Pairs [c0, c1) of a chain whose contacts obey several models: the part of each segment in it
// with the segment's kernel, on the loop the segment runs on. One dispatch per segment and chunk:
// the pairs of one medium are a long run of one model. (Here rather than in chain_pairs.hpp:
// instantiated from a header, the pair loops' closures draw GCC's -Wsubobject-linkage.)
void ChainEngine::advance_segments(std::size_t c0, std::size_t c1, std::int64_t step,
                                   ChainPass& pass) {
  // The segment holding c0: the last one that begins at or before it.
  auto g = std::upper_bound(segments_.begin(), segments_.end(), c0,
                            [](std::size_t c, const Segment& s) { return c < s.begin; }) -
           1;
  for (; c0 < c1; ++g) {
    const std::size_t hi = std::min(c1, g->end);
    with_kernel(state_.kernel_of(g->model), [&](auto kernel) {
      using KernelT = decltype(kernel);
      if constexpr (vector_loop_kernel<KernelT>) {
        if (g->vector) return advance_pairs_vector<KernelT>(c0, hi, step, pass, *g);
      }
      advance_pairs<KernelT>(c0, hi, step, &pass, g->model, g->gap);
    });
    c0 = hi;
  }
}

// The wall contacts of end particle `end_particle` (0 or the last), once it has drifted, at step
// `step` of the pass, under `rules` (SeveralModels: each contact under its own model's).
template <class KernelT>
void ChainEngine::step_walls(std::size_t end_particle, std::int64_t step, ChainPass& pass,
                             const ContactRules& rules) {
  const Particles& p = state_.scene.particles;
  const std::size_t np = static_cast<std::size_t>(p.size()) - 1;
  const std::size_t walls = state_.scene.walls.size(), wall_contacts = state_.wall_contacts.size();
  for (std::size_t c = 0; c < wall_contacts; ++c) {
    const auto i = static_cast<std::size_t>(state_.wall_contacts.first[c]);
    if (i != end_particle) continue;
    const auto w = static_cast<std::size_t>(state_.wall_contacts.second[c]);
    const std::int64_t run_step = state_.step + step + 1;
    const Eigen::Vector3d& point = pass_wall_point_[static_cast<std::size_t>(step) * walls + w];
    const WallDrive& drive = pass_wall_drive_[static_cast<std::size_t>(step) * walls + w];
    ContactEvent event;
    if constexpr (std::is_same_v<KernelT, SeveralModels>) {
      const int m = state_.wall_contacts.model[c];
      event = with_kernel(state_.kernel_of(m), [&](auto kernel) {
        return state_.update_wall<decltype(kernel)>(c, wall_overlap(c, point), drive,
                                                    state_.rules_of(m, false), run_step);
      });
    } else {
      // Mostly the wall is far from the chain's end: an update that would only rewrite the
      // contact's columns as they are (its normal is the wall's, set when it was made, unless the
      // wall's obliquity turns it) is skipped.
      const double overlap = wall_overlap(c, point);
      if (!drive.oblique() && update_changes_nothing<KernelT>(state_.wall_contacts, c, overlap))
        continue;
      event = state_.update_wall<KernelT>(c, overlap, drive, rules, run_step);
    }
    if (event == ContactEvent::end) state_.note_separation(state_.wall_contacts, c, run_step);
    pass_wall_power_[static_cast<std::size_t>(step) * wall_contacts + c] =
        state_.wall_contacts.force[c] * drive.normal_speed(state_.wall_contacts.overlap[c]);
    if (too_deep(state_.wall_contacts.overlap[c], p.radius(static_cast<Eigen::Index>(i))))
      pass.note_fault(step, np + c, state_.wall_contacts.overlap[c]);
  }
}

// What the watchers record of step `step` of the pass (Simulation::watch): the watched pairs
// among [lo, hi) and the watched particles this range gathered, [gather_begin, gather_end).
void ChainEngine::record_watched(const ChainPass& pass, std::int64_t step, std::size_t lo,
                                 std::size_t hi, std::size_t gather_begin, std::size_t gather_end) {
  const Particles& p = state_.scene.particles;
  const std::size_t entry = static_cast<std::size_t>(pass.log_offset + step);
  for (std::size_t k = 0; k < watched_chain_pair_.size(); ++k) {
    const std::optional<std::size_t> c = watched_chain_pair_[k];
    if (!c || *c < lo || *c >= hi) continue;
    const std::size_t at = entry * state_.watched_pairs.size() + k;
    state_.log.touching[at] = EngineState::contact_state(state_.pairs, *c);
    state_.log.rate[at] = state_.approach_rate(state_.pairs, *c);
  }
  for (std::size_t k = 0; k < state_.watched_particles.size(); ++k) {
    const auto i = static_cast<std::size_t>(state_.watched_particles[k]);
    if (i >= gather_begin && i < gather_end)
      state_.log.speed[entry * state_.watched_particles.size() + k] =
          chain_speed(p.velocity(state_.watched_particles[k], 0));
  }
}

// One step of one range of a pass: drift, the walls at the chain's ends, the pairs, the gather
// with the closing kick, and what the watchers record. KernelT is the kernel of every contact, or
// SeveralModels: each segment and wall contact then takes its model's.
template <class KernelT, bool vector_pairs>
void ChainEngine::run_range(ChainPass& pass, const ChainRange& r) {
  constexpr bool several = std::is_same_v<KernelT, SeveralModels>;
  Particles& p = state_.scene.particles;
  const std::size_t n = static_cast<std::size_t>(p.size()), np = n - 1;
  const double dt = state_.settings.time_step, half = 0.5 * dt;
  // Particles this range drifts and gathers (the table in docs/engine.md, "Passes and tiles").
  const std::size_t drift_begin = r.left == Edge::ran_first ? r.lo + 1 : r.lo;
  const std::size_t drift_end = r.right == Edge::ran_first ? r.hi : r.hi + 1;
  const std::size_t gather_begin = r.left == Edge::runs_later ? r.lo + 1 : r.lo;
  const std::size_t gather_end = r.right == Edge::runs_later ? r.hi : r.hi + 1;
  double* u = displacement_.data();
  double* v = p.velocity.col(0).data();
  const MassOf mass{uniform_mass_ ? nullptr : p.inverse_mass.data(), p.inverse_mass(0)};
  auto drift = [&](std::size_t begin, std::size_t end) {
    if (begin < end)
      with_flags(
          [&]<bool uniform>() {
            kick_drift<uniform>(begin, end, u, v, p.force.col(0).data(), mass, half, dt);
          },
          mass.inverse_mass == nullptr);
  };
  const ContactRules wall_rules = state_.rules_of(std::max(model_, 0), false);
  auto walls_of = [&](std::size_t end_particle) {
    step_walls<KernelT>(end_particle, r.step, pass, wall_rules);
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
    if constexpr (several)
      advance_segments(c0, c1, r.step, pass);
    else if constexpr (vector_pairs)
      advance_pairs_vector<KernelT>(c0, c1, r.step, pass, segments_[0]);
    else
      advance_pairs<KernelT>(c0, c1, r.step, &pass, model_, segments_[0].gap);
    const std::size_t gather_to = last ? gather_end : std::min(gather_end, c1);
    if (gathered < gather_to) gather(gathered, gather_to, half, r.step);
    gathered = std::max(gathered, gather_to);
    if (last) break;
    c0 = c1;
  }

  record_watched(pass, r.step, r.lo, r.hi, gather_begin, gather_end);
}

// A pass over a chain that is one range of one chunk (a few dozen beads, as a sweep's cases
// have): run_range's steps, each the whole chain, with what does not change from step to step
// (the columns, the rules, the kernel and the loops' flags) set once for the pass. A short
// chain's step is mostly such overhead; every particle and pair does run_range's arithmetic.
template <class KernelT>
void ChainEngine::run_whole(ChainPass& pass, std::size_t pass_steps) {
  Particles& p = state_.scene.particles;
  const std::size_t n = static_cast<std::size_t>(p.size()), np = n - 1;
  const double dt = state_.settings.time_step, half = 0.5 * dt;
  double* u = displacement_.data();
  const double gap = segments_[0].gap;
  double* v = p.velocity.col(0).data();
  double* f = p.force.col(0).data();
  const MassOf mass{uniform_mass_ ? nullptr : p.inverse_mass.data(), p.inverse_mass(0)};
  const double* base = base_force_x_.empty() ? nullptr : base_force_x_.data();
  const double* pair_force = state_.pairs.force.data();
  const double* overlap = state_.pairs.overlap.data();
  const double* power = state_.pairs.power.data();
  double* look = state_.lookahead.col(0).data();
  double* peak = state_.tracking ? state_.peak_contact_force.data() : nullptr;
  double* peak_v = state_.tracking ? state_.peak_velocity_x.data() : nullptr;
  const ContactRules rules = state_.rules_of(model_, false);
  const std::vector<int>& wall_particle = state_.wall_contacts.first;
  const bool walls_at_start = std::count(wall_particle.begin(), wall_particle.end(), 0) > 0;
  const bool walls_at_end =
      std::count(wall_particle.begin(), wall_particle.end(), static_cast<int>(np)) > 0;
  with_flags(
      [&]<bool uniform, bool track, bool has_base, bool predict>() {
        for (std::size_t s = 0; s < pass_steps; ++s) {
          const auto step = static_cast<std::int64_t>(s);
          kick_drift_loop<uniform>(0, n, u, v, f, mass, half, dt);
          if (walls_at_start) step_walls<KernelT>(0, step, pass, rules);
          if (walls_at_end) step_walls<KernelT>(np, step, pass, rules);
          const std::int64_t run_step = state_.step + step + 1;
          std::size_t first = np, last = np;  // the pairs evaluated (advance_pairs)
          for (std::size_t c = 0; c < np; ++c) {
            const double dc = (u[c] - u[c + 1]) - gap;
            if (idle_pair(dc, overlap[c], pair_force[c], power[c])) continue;
            first = std::min(first, c);
            last = c + 1;
            advance_pair<KernelT>(c, dc, step, &pass, rules, run_step);
          }
          if (first < last) watch_pairs(first, last, state_.validity.here());
          if (!load_base_.empty()) set_driven_loads(0, n, step);
          gather_kick_loop<track, uniform, has_base, predict>(1, np, f, base, pair_force, v, mass,
                                                              half, look, peak, peak_v);
          gather_ends(0, n, half);
          if (!load_base_.empty()) note_load_power(0, n, step);
          record_watched(pass, step, 0, np, 0, n);
        }
      },
      uniform_mass_, state_.tracking, base != nullptr, state_.look_kick != 0.0);
}

// Advances the chain by `steps` steps in one pass. With several threads the chain is cut into
// one region per thread. A region's ranges shrink by one pair per step at each cut, so that it
// never needs the step of a particle another thread owns; the triangles left at the cuts are
// filled afterwards (also in parallel), each step in order.
void ChainEngine::run_pass(std::int64_t steps, std::int64_t log_offset) {
  Particles& p = state_.scene.particles;
  const std::size_t np = static_cast<std::size_t>(p.size()) - 1;
  const auto pass_steps = static_cast<std::size_t>(steps);

  ChainPass pass{log_offset, {}, 2 * (np + state_.wall_contacts.size())};
  place_walls(pass_steps);
  place_loads(pass_steps);

  const std::size_t tile = std::max(state_.settings.chain_tile_pairs, 2 * pass_steps);
  std::size_t regions = static_cast<std::size_t>(std::max(state_.settings.threads, 1));
  while (regions > 1 && (np <= parallel_threshold || np / regions < 4 * pass_steps + 2 * tile))
    --regions;
  auto cut = [&](std::size_t j) { return np * j / regions; };

  // The regions and their tiles, each range stepped by range(r).
  auto schedule = [&](auto&& range) {
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
  };
  // A chain of one model that is one range (one region, one tile) of one chunk, on the per-pair
  // loop, steps whole.
  const bool whole = regions == 1 && np <= tile && np <= state_.settings.chain_chunk_pairs &&
                     model_ >= 0 && !segments_[0].vector;
  if (whole) {
    with_kernel(state_.kernel_of(model_),
                [&](auto kernel) { run_whole<decltype(kernel)>(pass, pass_steps); });
  } else if (model_ < 0) {
    schedule([&](const ChainRange& r) { run_range<SeveralModels, false>(pass, r); });
  } else {
    with_kernel(state_.kernel_of(model_), [&](auto kernel) {
      using KernelT = decltype(kernel);
      const bool vector_pairs = segments_[0].vector;
      schedule([&](const ChainRange& r) {
        if constexpr (vector_loop_kernel<KernelT>) {
          if (vector_pairs) return run_range<KernelT, true>(pass, r);
        }
        run_range<KernelT, false>(pass, r);
      });
    });
  }

  book_wall_work(pass_steps);
  state_.step += steps;
  state_.time = static_cast<double>(state_.step) * state_.settings.time_step;
  if (pass.fault.found()) {
    place_particles();  // the state the message describes
    report_fault(pass, steps);
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

// The contact forces at construction: every pair and wall contact (segment by segment, and
// model by model at the walls, when they obey several models), then the particle forces.
void ChainEngine::evaluate_contacts() {
  if (model_ >= 0) {
    const ContactRules rules = state_.rules_of(model_, true);
    with_kernel(state_.kernel_of(model_), [&](auto kernel) {
      using KernelT = decltype(kernel);
      advance_pairs<KernelT>(0, state_.pairs.size(), 0, nullptr, model_, segments_[0].gap);
      state_.evaluate_walls<KernelT>(rules, state_.step);
    });
  } else {
    for (const Segment& g : segments_)
      with_kernel(state_.kernel_of(g.model), [&](auto kernel) {
        advance_pairs<decltype(kernel)>(g.begin, g.end, 0, nullptr, g.model, g.gap);
      });
    for (int m = 0; m < static_cast<int>(state_.models.size()); ++m)
      with_kernel(state_.kernel_of(m), [&](auto kernel) {
        state_.evaluate_walls<decltype(kernel)>(state_.rules_of(m, true), state_.step, m);
      });
  }
  state_.check_wall_depths(0);
  gather(0, static_cast<std::size_t>(state_.scene.particles.size()), 0.0, -1);
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
  place_particles();
}

}  // namespace chaindem::detail
