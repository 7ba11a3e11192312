// Simulation: the choice of engine and what it reports of the state the engine advances
// (engine_state.hpp); the engines are in chain_engine.cpp and general_engine.cpp.
#include "chaindem/engine/simulation.hpp"

#include "chain_engine.hpp"
#include "chaindem/engine/huge_pages.hpp"
#include "general_engine.hpp"

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
    : state_(std::make_unique<detail::EngineState>(std::move(scene), std::move(settings))) {
  using EngineChoice = SimulationSettings::EngineChoice;
  const EngineChoice wanted = state_->settings.engine;
  const bool chain = forms_chain(state_->scene);
  if (wanted == EngineChoice::chain && !chain)
    throw std::invalid_argument("Simulation: the scene is not a chain on the x axis");
  if (chain && wanted != EngineChoice::general)
    engine_ = std::make_unique<detail::ChainEngine>(*state_);
  else
    engine_ = std::make_unique<detail::GeneralEngine>(*state_);
  state_->check_finite_at_start();
}

Simulation::~Simulation() = default;
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;

bool forms_chain(const Scene& scene) {
  const Particles& p = scene.particles;
  const Eigen::Index n = p.size();
  if (n < 2 || scene.gravity.y() != 0.0 || scene.gravity.z() != 0.0) return false;
  const double y = p.position(0, 1), z = p.position(0, 2);
  for (Eigen::Index i = 0; i < n; ++i) {
    if (p.position(i, 1) != y || p.position(i, 2) != z || p.velocity(i, 1) != 0.0 ||
        p.velocity(i, 2) != 0.0 || p.load(i).y() != 0.0 || p.load(i).z() != 0.0)
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
  for (const DrivenLoad& l : scene.driven_loads)
    if (l.direction.y() != 0.0 || l.direction.z() != 0.0) return false;
  return true;
}

void Simulation::track_extremes() {
  detail::EngineState& st = *state_;
  const Particles& p = st.scene.particles;
  conservative_resize_zeroed(st.peak_velocity_x, p.size());
  st.peak_velocity_x = p.velocity.col(0);
  conservative_resize_zeroed(st.peak_contact_force, p.size());
  st.peak_contact_force.setZero();
  auto raise = [&](int i, double force) {
    st.peak_contact_force(i) = std::max(st.peak_contact_force(i), force);
  };
  for (std::size_t c = 0; c < st.pairs.size(); ++c)
    if (st.pairs.touching[c]) {
      raise(st.pairs.first_of(c), st.pairs.force[c]);
      raise(st.pairs.second_of(c), st.pairs.force[c]);
    }
  for (std::size_t c = 0; c < st.wall_contacts.size(); ++c)
    if (st.wall_contacts.touching[c]) raise(st.wall_contacts.first[c], st.wall_contacts.force[c]);
  st.tracking = true;
}

void Simulation::step() {
  advance(1);
}

void Simulation::advance(std::int64_t n) {
  detail::EngineState& st = *state_;
  const auto steps = static_cast<std::size_t>(std::max<std::int64_t>(n, 0));
  st.log.steps = static_cast<std::int64_t>(steps);
  st.log.touching.assign(steps * st.watched_pairs.size(),
                         Simulation::StepLog::Contact::not_a_candidate);
  st.log.rate.assign(steps * st.watched_pairs.size(), 0.0);
  st.log.speed.assign(steps * st.watched_particles.size(), 0.0);
  const std::int64_t since = st.step;
  engine_->advance(n);
  st.collect_isolated();
  st.check_finite_since(since);
}

void Simulation::watch(std::vector<std::pair<int, int>> pairs,
                       std::vector<Eigen::Index> particles) {
  state_->watched_pairs = std::move(pairs);
  state_->watched_particles = std::move(particles);
  engine_->watch_changed();
}

std::optional<std::size_t> Simulation::find_contact(int i, int j) const {
  return state_->find_contact(i, j);
}

Eigen::Vector3d Simulation::momentum() const {
  const Particles& p = state_->scene.particles;
  return p.velocity.matrix().transpose() * p.mass.matrix();  // no N x 3 temporary
}

// What the state holds, as the engine left it.
const Simulation::StepLog& Simulation::step_log() const {
  return state_->log;
}
const std::vector<Simulation::IsolatedContact>& Simulation::isolated_contacts() const {
  return state_->isolated;
}
double Simulation::time() const {
  return state_->time;
}
std::int64_t Simulation::step_count() const {
  return state_->step;
}
const SimulationSettings& Simulation::settings() const {
  return state_->settings;
}
const Scene& Simulation::scene() const {
  return state_->scene;
}
const ContactList& Simulation::pair_contacts() const {
  return state_->pairs;
}
const ContactList& Simulation::wall_contacts() const {
  return state_->wall_contacts;
}
Eigen::Vector3d Simulation::wall_point(std::size_t w) const {
  return state_->wall_point(w);
}
double Simulation::approach_rate(const ContactList& cl, std::size_t c) const {
  return state_->approach_rate(cl, c);
}
void Simulation::approach_rates(const ContactList& cl, const std::uint32_t* rows, std::size_t count,
                                double* out) const {
  state_->approach_rates(cl, rows, count, out);
}
EnergyReport Simulation::energies() const {
  return state_->energies();
}
std::vector<double> Simulation::dissipated_by_model() const {
  return state_->dissipated_by_model();
}
std::vector<double> Simulation::stored_energy_by_particle() const {
  return state_->stored_energy_by_particle();
}
std::int64_t Simulation::impact_velocity_floor_hits() const {
  return state_->impact_velocity_floor_hits();
}
std::vector<Simulation::KindExtremes> Simulation::contact_extremes() const {
  const detail::ValidityWatch& watch = state_->validity;
  const ContactTable& table = state_->settings.contact_table;
  const std::vector<double> strain = watch.strain(), speed = watch.speed();
  std::vector<KindExtremes> out;
  for (std::size_t k = 0; k < watch.kinds(); ++k) {
    if (!(strain[k] > 0.0) && !(speed[k] > 0.0)) continue;  // never touched
    const auto [material, other] = watch.parts_of(k);
    const bool wall = watch.is_wall_kind(k);
    out.push_back({.material = material,
                   .other = other,
                   .wall = wall,
                   .model = wall ? table.of_wall(static_cast<std::size_t>(other), material)
                                 : table.of_pair(material, other),
                   .largest_strain = strain[k],
                   .largest_impact_speed = speed[k]});
  }
  return out;
}

std::int64_t Simulation::neighbor_rebuilds() const {
  return engine_->neighbor_rebuilds();
}
bool Simulation::uses_chain_engine() const {
  return dynamic_cast<const detail::ChainEngine*>(engine_.get()) != nullptr;
}
bool Simulation::uses_vectorised_pairs() const {
  return engine_->vectorised_pairs();
}
const Eigen::ArrayXd& Simulation::peak_contact_force() const {
  return state_->peak_contact_force;
}
const Eigen::ArrayXd& Simulation::peak_velocity_x() const {
  return state_->peak_velocity_x;
}
Simulation::Extremes Simulation::take_extremes() && {
  Extremes e{std::move(state_->peak_contact_force), std::move(state_->peak_velocity_x)};
  engine_.reset();  // it refers to the state
  state_.reset();
  return e;
}

}  // namespace chaindem
