// The general engine: spheres in 3D, their pairs found by a neighbor search with a skin,
// velocity Verlet over every particle (docs/engine.md).
#include "chaindem/engine/neighbor_search.hpp"
#include "contact_update.hpp"

namespace chaindem {

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

// The contact forces of the step: pairs from the neighbor structure and wall contacts, the
// separations of this step in list order, then the particle forces.
void Simulation::evaluate_general_contacts(const ContactRules& rules, bool first) {
  with_kernel(settings_.law->kernel, [&](auto kernel) {
    using KernelT = decltype(kernel);
    evaluate_pairs<KernelT>(rules, step_);
    evaluate_walls<KernelT>(rules, step_);
  });
  if (!first)
    for (const ContactList* cl : {&pairs_, &wall_contacts_})
      for (std::size_t c = 0; c < cl->size(); ++c)
        if (cl->end_step[c] == step_) note_separation(*cl, c, step_);
  gather_forces(first);
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

}  // namespace chaindem
