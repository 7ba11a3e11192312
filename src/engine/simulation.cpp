// Simulation: what both engines share (construction, the choice of engine, advance, the
// bookkeeping of isolated contacts, energies); the engines are in chain_engine.cpp and
// general_engine.cpp, the per-contact update in contact_update.hpp.
#include "contact_update.hpp"

namespace chaindem {

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

void Simulation::compute_forces() {
  const bool first = step_ == 0;  // at construction
  const ContactRules rules = contact_rules(settings_, impact_velocity_floor_, first);
  if (chain_)
    evaluate_chain_contacts(rules);
  else
    evaluate_general_contacts(rules, first);
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
    advance_chain(n);
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
