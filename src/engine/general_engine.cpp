// The general engine (general_engine.hpp): the neighbor structure with its history, the pair and
// wall forces, the force gather over incidence lists and the velocity-Verlet step.
#include "general_engine.hpp"

#include "chaindem/engine/neighbor_search.hpp"

namespace chaindem::detail {

GeneralEngine::GeneralEngine(EngineState& state) : state_(state) {
  // Spheres of one material make one kind of pair; of one radius too, one R* (watch_strains).
  const Particles& p = state_.scene.particles;
  if (std::all_of(p.material.begin(), p.material.end(),
                  [&](int m) { return m == p.material[0]; })) {
    one_kind_ = state_.validity.pair_kind(p.material[0], p.material[0]);
    const double r = p.radius.minCoeff();
    if ((p.radius == r).all()) one_radius_ = r * r / (r + r);
  }
  rebuild_neighbors();
  compute_forces();
}

void GeneralEngine::advance(std::int64_t n) {
  for (std::int64_t s = 0; s < n; ++s) {
    step();
    state_.record_step(s);
  }
}

void GeneralEngine::rebuild_neighbors() {
  EngineState& st = state_;
  const Particles& p = st.scene.particles;
  const double skin = st.settings.skin;

  // Merges the new candidate list with the old one so that pairs keep their history. A pair that
  // leaves with a plastic history (permanent overlap) parks it in dormant, keyed by the pair,
  // and gets it back when it re-enters: beads in a chain hit each other many times, and may fly
  // further apart than the skin in between. Its work is counted in retired_dissipated.
  auto merge = [&](ContactList& list, std::unordered_map<std::uint64_t, ContactState>& dormant,
                   const std::vector<std::pair<int, int>>& found, auto&& model_of,
                   auto&& fresh_coeffs, auto&& geometric_overlap) {
    auto key = [](int i, int j) {
      return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(i)) << 32) |
             static_cast<std::uint32_t>(j);
    };
    auto retire = [&](std::size_t old) {
      const ContactState& s = list.state[old];
      // Apart, it stores nothing; a split law's last sample counts half (energies()).
      const double dissipated = list.work[old] + 0.5 * st.settings.time_step * list.power[old];
      st.retired_dissipated += dissipated;
      st.retired_by_model[list.model[old]] += dissipated;
      st.retired_floor_hits += list.floor_hits[old];
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
        const int model = model_of(i, j);
        next.start_entry(k, i, j, fresh_coeffs(i, j), geometric_overlap(i, j),
                         Eigen::Vector3d::Zero(), model);
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
      st.pairs, dormant_pairs_, find_particle_pairs(p.position, p.radius, skin),
      [&](int i, int j) { return st.pair_model(i, j); },
      [&](int i, int j) { return st.pair_coeffs(i, j); },
      [&](int i, int j) {
        return initial_overlap(p.radius(i) + p.radius(j) - st.distance(i, j),
                               std::min(p.radius(i), p.radius(j)));
      });
  merge(
      st.wall_contacts, dormant_walls_,
      find_wall_pairs(p.position, p.radius, st.scene.walls, st.wall_offset, skin),
      [&](int i, int w) { return st.wall_model(i, w); },
      [&](int i, int w) { return st.wall_coeffs(i, w); },
      [&](int i, int w) {
        return initial_overlap(st.wall_overlap_at(i, w, st.wall_point(w)), p.radius(i));
      });

  st.build_incidence();
  group_by_model();
  bound_pair_radius();
  reference_position_ = p.position;
  wall_offset_at_rebuild_ = st.wall_offset;
  ++rebuilds_;
}

// The smallest R* of the pairs, where they are of one kind but not one R* (watch_strains): no
// pair's strain exceeds their largest overlap over it.
void GeneralEngine::bound_pair_radius() {
  if (one_kind_ < 0 || one_radius_ > 0.0) return;
  least_radius_ = std::numeric_limits<double>::infinity();
  for (std::size_t c = 0; c < state_.pairs.size(); ++c)
    least_radius_ = std::min(least_radius_, state_.pair_radius(c));
}

void GeneralEngine::group_by_model() {
  common_model_ = state_.common_model();
  group_pairs_.resize(common_model_ < 0 ? state_.models.size() : 0);
  for (std::vector<std::size_t>& group : group_pairs_) group.clear();
  if (common_model_ < 0)
    for (std::size_t c = 0; c < state_.pairs.size(); ++c)
      group_pairs_[state_.pairs.model[c]].push_back(c);
}

template <class KernelT>
void GeneralEngine::evaluate_pairs(const ContactRules& rules, FirstFault& deep,
                                   const std::vector<std::size_t>* group) {
  const Particles& p = state_.scene.particles;
  const Vec3Array& look = state_.lookahead;
  const Vec3Array& carry = state_.scene.particles.position_carry;
  ContactList& cl = state_.pairs;
  const std::int64_t step = state_.step;
  auto evaluate = [&](std::size_t c) {
    const int i = cl.first[c], j = cl.second[c];
    const double dx = separation(p.position(i, 0), carry(i, 0), p.position(j, 0), carry(j, 0));
    const double dy = separation(p.position(i, 1), carry(i, 1), p.position(j, 1), carry(j, 1));
    const double dz = separation(p.position(i, 2), carry(i, 2), p.position(j, 2), carry(j, 2));
    const double dist = std::sqrt(dx * dx + dy * dy + dz * dz);
    // Divided rather than multiplied by 1 / dist: a pair along an axis then has a normal of
    // exactly +-1, as the chain engine's, instead of 1 up to an ulp, whose difference the
    // positions' carry would keep.
    const double nx = dx / dist, ny = dy / dist, nz = dz / dist;
    const double rate =
        -((p.velocity(j, 0) - p.velocity(i, 0)) * nx + (p.velocity(j, 1) - p.velocity(i, 1)) * ny +
          (p.velocity(j, 2) - p.velocity(i, 2)) * nz);
    // The predicted rate: the same with each velocity advanced by its look-ahead.
    const double ahead = (look(i, 0) - look(j, 0)) * nx + (look(i, 1) - look(j, 1)) * ny +
                         (look(i, 2) - look(j, 2)) * nz;
    cl.nx[c] = nx;
    cl.ny[c] = ny;
    cl.nz[c] = nz;
    const double d = p.radius(i) + p.radius(j) - dist;
    if (too_deep(d, std::min(p.radius(i), p.radius(j)))) deep.note(fault_key(c, d), d);
    if (update_contact<KernelT>(cl, c, d, rate, rate + ahead, rules, cl.coeffs_of(c), step) ==
        ContactEvent::onset) [[unlikely]]
      note_onset(c);
  };
  // Each pair writes only its own entry: any grouping and any thread count give the same bits.
  if (!group)
    for_each_index(cl.size(), state_.settings.threads, evaluate);
  else
    for_each_index(group->size(), state_.settings.threads,
                   [&](std::size_t k) { evaluate((*group)[k]); });
}

// Pair c's impact speed, as record_onset booked it at its first touch, into the thread's tally
// (validity_watch.hpp). Out of the force loop: first touches are rare.
void GeneralEngine::note_onset(std::size_t c) const {
  state_.validity.here().note_speed(state_.pair_kind(c), state_.pairs.onset_rate[c]);
}

// The pairs' strains at this evaluation, into the tallies (validity_watch.hpp). Spheres of one
// material: from the largest overlap d (an integer maximum of the overlaps' bits, which
// vectorises), d/R* for spheres of one radius; else only where d over the smallest R* may raise
// the kind's largest, each touching pair's, on the force loop's threads, as for several
// materials. A pass of its own costs far less than a test per pair in the force loop.
void GeneralEngine::watch_strains() {
  EngineState& st = state_;
  const ContactList& cl = st.pairs;
  if (one_kind_ >= 0) {
    const double d = largest_overlap(0, cl.size(), cl.overlap.data());
    const ValidityTally tally = st.validity.here();
    if (!(d > 0.0)) return;
    if (one_radius_ > 0.0) return tally.note_strain(one_kind_, d / one_radius_);
    if (!(d / least_radius_ > tally.strain[one_kind_])) return;
  }
  const Eigen::ArrayXd& r = st.scene.particles.radius;
  for_each_index_local(
      cl.size(), st.settings.threads, [&] { return st.validity.here(); },
      [&](std::size_t c, const ValidityTally& tally) {
        if (cl.overlap[c] > 0.0)
          tally.note_strain(st.pair_kind(c), cl.overlap[c], r(cl.first[c]), r(cl.second[c]));
      });
}

// Inlined into compute_forces, its one caller, where GCC's budget would no longer take it: called
// apart, it costs 7 % more instructions (cachegrind), however small the call.
[[gnu::always_inline]] inline void GeneralEngine::gather_forces(bool first) {
  EngineState& st = state_;
  Particles& p = st.scene.particles;
  const Eigen::Vector3d g = st.scene.gravity;
  for_each_index(p.size(), st.settings.threads, [&](Eigen::Index i) {
    const Eigen::Vector3d load = p.load(i);
    double fx = load.x() + p.mass(i) * g.x();
    double fy = load.y() + p.mass(i) * g.y();
    double fz = load.z() + p.mass(i) * g.z();
    for (int k = st.incidence_offset[i]; k < st.incidence_offset[i + 1]; ++k) {
      const int e = st.incidence[k];
      const bool pair = is_pair_entry(e);
      const ContactList& cl = pair ? st.pairs : st.wall_contacts;
      const std::size_t c = contact_of_entry(e);
      // Force on `second` is +F n, on `first` -F n.
      const double sign = (pair && cl.second[c] == i) ? 1.0 : -1.0;
      const double f = sign * cl.force[c];
      fx += f * cl.nx[c];
      fy += f * cl.ny[c];
      fz += f * cl.nz[c];
      // Apart contacts carry F = 0, which never raises the (non-negative) peak.
      if (st.tracking) st.peak_contact_force(i) = std::max(st.peak_contact_force(i), cl.force[c]);
    }
    // Look-ahead of the next step: dt/2 (2 a_n - a_(n-1)), or dt/2 a_0 at construction.
    const double k = st.look_kick * p.inverse_mass(i);
    st.lookahead(i, 0) = k * (first ? fx : (fx + fx) - p.force(i, 0));
    st.lookahead(i, 1) = k * (first ? fy : (fy + fy) - p.force(i, 1));
    st.lookahead(i, 2) = k * (first ? fz : (fz + fz) - p.force(i, 2));
    p.force(i, 0) = fx;
    p.force(i, 1) = fy;
    p.force(i, 2) = fz;
  });
}

// The contact forces of the step: pairs from the neighbor structure and wall contacts (the run
// stops at the first one gone too deep), model by model when they obey several, the separations
// of this step in list order, then the particle forces and the walls' power.
void GeneralEngine::compute_forces() {
  EngineState& st = state_;
  const bool first = st.step == 0;  // at construction
  FirstFault deep;
  if (common_model_ >= 0) {
    const ContactRules rules = st.rules_of(common_model_, first);
    with_kernel(st.kernel_of(common_model_), [&](auto kernel) {
      using KernelT = decltype(kernel);
      evaluate_pairs<KernelT>(rules, deep);
      st.evaluate_walls<KernelT>(rules, st.step);
    });
  } else {
    for (int m = 0; m < static_cast<int>(st.models.size()); ++m) {
      const ContactRules rules = st.rules_of(m, first);
      const std::vector<std::size_t>& group = group_pairs_[static_cast<std::size_t>(m)];
      with_kernel(st.kernel_of(m), [&](auto kernel) {
        using KernelT = decltype(kernel);
        if (!group.empty()) evaluate_pairs<KernelT>(rules, deep, &group);
        st.evaluate_walls<KernelT>(rules, st.step, m);
      });
    }
  }
  watch_strains();
  if (deep.found()) {
    const std::uint64_t key = deep.key.load();
    st.throw_too_deep(st.pairs, key / 2, deep.overlap, st.step);
  }
  st.check_wall_depths(st.step);
  if (!first)
    for (const ContactList* cl : {&st.pairs, &st.wall_contacts})
      for (std::size_t c = 0; c < cl->size(); ++c)
        if (cl->end_step(c) == st.step) st.note_separation(*cl, c, st.step);
  gather_forces(first);
  add_driven_loads(first);
  st.book_wall_power();
}

// The driven loads' changes at the state's time, added to their particles' forces and to the
// look-ahead gather_forces took from them (per loaded particle: none in the particle loop).
void GeneralEngine::add_driven_loads(bool first) {
  EngineState& st = state_;
  Particles& p = st.scene.particles;
  for (const DrivenLoad& l : st.scene.driven_loads) {
    const Eigen::Vector3d df = l.at(st.time);
    const double k = st.look_kick * p.inverse_mass(l.particle) * (first ? 1.0 : 2.0);
    for (int a = 0; a < 3; ++a) {
      p.force(l.particle, a) += df(a);
      st.lookahead(l.particle, a) += k * df(a);
    }
  }
}

bool GeneralEngine::skin_crossed() const {
  const EngineState& st = state_;
  const Particles& p = st.scene.particles;
  double largest_move2 = 0.0;  // a plain loop: no temporary per step
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const double dx = p.position(i, 0) - reference_position_(i, 0);
    const double dy = p.position(i, 1) - reference_position_(i, 1);
    const double dz = p.position(i, 2) - reference_position_(i, 2);
    const double move2 = dx * dx + dy * dy + dz * dz;
    // A position that is no longer a finite number has diverged; no neighbor search holds it.
    if (!(move2 < std::numeric_limits<double>::infinity())) st.throw_position_not_finite(i);
    largest_move2 = std::max(largest_move2, move2);
  }
  const double particle_move = std::sqrt(largest_move2);
  double wall_move = 0.0;
  for (std::size_t w = 0; w < st.wall_offset.size(); ++w)
    wall_move = std::max(wall_move, (st.wall_offset[w] - wall_offset_at_rebuild_[w]).norm());
  return 2.0 * particle_move > st.settings.skin || particle_move + wall_move > st.settings.skin;
}

void GeneralEngine::step() {
  EngineState& st = state_;
  Particles& p = st.scene.particles;
  const double dt = st.settings.time_step;
  const double half = 0.5 * dt;
  const Eigen::Index n = p.size();

  double power_before = 0.0;
  for (double w : st.wall_power) power_before += w;
  const bool loads = !st.scene.driven_loads.empty();
  if (loads) power_before += st.load_power;

  for_each_index(n, st.settings.threads, [&](Eigen::Index i) {
    for (int a = 0; a < 3; ++a) {
      p.velocity(i, a) += half * p.force(i, a) * p.inverse_mass(i);
      drift_by(p.position(i, a), p.position_carry(i, a), dt * p.velocity(i, a));
    }
  });
  st.time = static_cast<double>(++st.step) * dt;
  st.move_walls(st.time, dt);

  if (skin_crossed()) rebuild_neighbors();
  compute_forces();

  for_each_index(n, st.settings.threads, [&](Eigen::Index i) {
    for (int a = 0; a < 3; ++a) p.velocity(i, a) += half * p.force(i, a) * p.inverse_mass(i);
    if (st.tracking) st.peak_velocity_x(i) = std::max(st.peak_velocity_x(i), p.velocity(i, 0));
  });

  double power_after = 0.0;
  for (double w : st.wall_power) power_after += w;
  if (loads) {
    st.load_power = st.driven_load_power();  // at the step's end, its velocities kicked
    power_after += st.load_power;
  }
  st.wall_work += half * (power_before + power_after);
}

}  // namespace chaindem::detail
