// EngineState: the state both engines advance, and what they do to it alike (engine_state.hpp).
#include "engine_state.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include "chaindem/engine/huge_pages.hpp"
#include "chaindem/text.hpp"

namespace chaindem {

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

std::size_t simulation_bytes(std::size_t particles, std::size_t contacts,
                             const SimulationShape& shape) {
  const bool chain = shape.chain;
  // Per particle: Particles' columns (position, velocity, force, the load if any; radius, mass,
  // inverse mass; material), the look-ahead, the position's carry (general engine) or the
  // displacement and lattice place (chain engine), the load flag and the peaks; the chain
  // engine's base force (with loads), or the general engine's incidence offsets and positions at
  // the last rebuild.
  const std::size_t vector_bytes = shape.on_x_axis ? sizeof(double) : sizeof(Eigen::Vector3d);
  const std::size_t per_particle =
      4 * vector_bytes + (chain ? 2 * sizeof(double) : vector_bytes) +
      (shape.loads ? sizeof(Eigen::Vector3d) : 0) + 3 * sizeof(double) + sizeof(int) + 1 +
      2 * sizeof(double) +
      (chain ? (shape.loads ? sizeof(double) : 0) : sizeof(int) + sizeof(Eigen::Vector3d));
  // Per contact: its columns (on the chain engine, one record for them all of those its pairs
  // share, and none for the pair's particles, which its index gives), or the general engine's
  // columns, two incidence entries, candidate pair and the history kept across a rebuild.
  ContactList list;
  list.shared_coeffs = chain && shape.shared_coeffs;
  list.shared_state = chain && shape.shared_state;
  list.shared_normal = list.chain_indices = chain;
  const std::optional<std::size_t> touching = chain ? shape.pairs_touching_at_start : std::nullopt;
  const std::size_t per_contact = chain ? list.bytes_per_entry(!touching)
                                        : list.bytes_per_entry() + 2 * sizeof(int) +
                                              sizeof(std::pair<int, int>) + sizeof(ContactState);
  // The records of a first touch of the chain's pairs that touch at the start, which its first
  // evaluation writes: the step, and the floor hit (onset policy). Not the approach rate: that
  // of beads that touch at rest is zero, which leaves the record as it was.
  const std::size_t first_touch = sizeof(decltype(ContactList::onset_evaluation)::value_type) +
                                  sizeof(decltype(ContactList::floor_hits)::value_type);
  return particles * per_particle + contacts * per_contact +
         std::min(touching.value_or(0), contacts) * first_touch;
}

bool no_model_keeps_state(const SimulationSettings& settings) {
  for (int k = 0; k < settings.model_count(); ++k)
    if (!with_kernel(settings.model(k).law->kernel,
                     [](auto kernel) { return kernels::history_free<decltype(kernel)>; }))
      return false;
  return true;
}

namespace detail {

namespace {

// A contact's model is kept in a byte per contact (ContactList::model).
constexpr int most_models = 256;

// Refuses a contact table that does not fit the scene: a model without a law, a table sized for
// other materials or walls, an entry naming no model, an asymmetric pair table.
void check_contact_table(const Scene& scene, const SimulationSettings& s) {
  const ContactTable& t = s.contact_table;
  const int models = s.model_count();
  if (models > most_models)
    throw std::invalid_argument("Simulation: " + std::to_string(models) +
                                " contact models; at most " + std::to_string(most_models));
  for (std::size_t k = 0; k < t.models.size(); ++k)
    if (!t.models[k].law)
      throw std::invalid_argument("Simulation: contact model " + std::to_string(k + 1) +
                                  " has no law");
  const std::size_t materials = scene.materials.size();
  if ((!t.pair_model.empty() || !t.wall_model.empty()) && t.materials != materials)
    throw std::invalid_argument("Simulation: the contact table is for " +
                                std::to_string(t.materials) + " materials; the scene has " +
                                std::to_string(materials));
  auto material = [&](std::size_t a) { return quoted_text(scene.materials[a].name); };
  auto check_entry = [&](int model, const std::string& where) {
    if (model < 0 || model >= models)
      throw std::invalid_argument("Simulation: the contact table gives " + where + " model " +
                                  std::to_string(model) + "; the run has models 0 to " +
                                  std::to_string(models - 1));
  };
  if (!t.pair_model.empty()) {
    if (t.pair_model.size() != materials * materials)
      throw std::invalid_argument("Simulation: the contact table has " +
                                  std::to_string(t.pair_model.size()) + " pair entries; " +
                                  std::to_string(materials) + " materials need " +
                                  std::to_string(materials * materials));
    for (std::size_t a = 0; a < materials; ++a)
      for (std::size_t b = 0; b < materials; ++b) {
        const std::string pair = "materials " + material(a) + " and " + material(b);
        check_entry(t.pair_model[a * materials + b], pair);
        if (t.pair_model[a * materials + b] != t.pair_model[b * materials + a])
          throw std::invalid_argument("Simulation: the contact table gives " + pair +
                                      " two models (its pair entries must be symmetric)");
      }
  }
  // Entries for walls beyond the scene's are never read: a table may be laid out for more.
  if (!t.wall_model.empty()) {
    if (t.wall_model.size() < scene.walls.size() * materials)
      throw std::invalid_argument("Simulation: the contact table has " +
                                  std::to_string(t.wall_model.size()) + " wall entries; " +
                                  std::to_string(scene.walls.size()) + " walls and " +
                                  std::to_string(materials) + " materials need " +
                                  std::to_string(scene.walls.size() * materials));
    for (std::size_t w = 0; w < scene.walls.size(); ++w)
      for (std::size_t a = 0; a < materials; ++a)
        check_entry(t.wall_model[w * materials + a], "wall " + quoted_text(scene.walls[w].name) +
                                                         " against material " + material(a));
  }
}

}  // namespace

EngineState::EngineState(Scene scene_in, SimulationSettings settings_in)
    : scene(std::move(scene_in)), settings(std::move(settings_in)) {
  if (!settings.law) throw std::invalid_argument("Simulation: no contact law");
  if (!(settings.time_step > 0.0)) throw std::invalid_argument("Simulation: time step must be > 0");
  if (!(settings.skin > 0.0)) throw std::invalid_argument("Simulation: skin must be > 0");
  check_contact_table(scene, settings);
  for (int k = 0; k < settings.model_count(); ++k) models.push_back(settings.model(k));
  // The impact-velocity policy is the run's: it must hold for every law that reads v0.
  const bool reads_v0 = std::any_of(models.begin(), models.end(), [](const ContactModel& m) {
    return m.law->uses_impact_velocity();
  });
  if (reads_v0 && settings.impact_velocity == SimulationSettings::ImpactVelocity::onset &&
      !(settings.impact_velocity_floor > 0.0))
    throw std::invalid_argument("Simulation: the impact velocity floor must be > 0");
  if (reads_v0 && settings.impact_velocity == SimulationSettings::ImpactVelocity::reference &&
      !(settings.reference_velocity > 0.0))
    throw std::invalid_argument("Simulation: the reference impact velocity must be > 0");
  retired_by_model.assign(models.size(), 0.0);
  wall_offset.assign(scene.walls.size(), Eigen::Vector3d::Zero());
  wall_drive.assign(scene.walls.size(), WallDrive{});
  move_walls(0.0, 0.0);
  const Particles& p = scene.particles;
  loaded.assign(static_cast<std::size_t>(p.size()), 0);
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const Eigen::Vector3d f = p.load(i) + p.mass(i) * scene.gravity;
    initial_external += f.dot(p.position.row(i).transpose().matrix());
    loaded[static_cast<std::size_t>(i)] = f != Eigen::Vector3d::Zero();
  }
  for (const DrivenLoad& l : scene.driven_loads) {
    if (l.particle < 0 || l.particle >= p.size() || !(std::abs(l.direction.norm() - 1.0) < 1e-12))
      throw std::invalid_argument(
          "Simulation: a driven load needs a particle and a unit direction");
    loaded[static_cast<std::size_t>(l.particle)] = 1;
  }
  load_power = driven_load_power();
  isolated_logs.resize(static_cast<std::size_t>(std::max(settings.threads, 1)));
  validity.reset(scene.materials.size(), scene.walls.size(), settings.threads);
  conservative_resize_zeroed(lookahead, p.size());
  // A scene whose particles were sized by hand has no carries: zeros.
  conservative_resize_zeroed(scene.particles.position_carry, p.size());
  // Only laws with a velocity-dependent force read the predicted rate.
  const bool damped = std::any_of(models.begin(), models.end(), [](const ContactModel& m) {
    return with_kernel(m.law->kernel, [](auto kernel) {
      using KernelT = decltype(kernel);
      return kernels::splits_force<KernelT> && !kernels::conservative<KernelT>;
    });
  });
  look_kick = settings.integrator == SimulationSettings::Integrator::second_order && damped
                  ? 0.5 * settings.time_step
                  : 0.0;
  wall_power.assign(scene.walls.size(), 0.0);
  // Zeros written only where they are not (a chain's y and z are left untouched: Particles).
  Vec3Array& force = scene.particles.force;
  for (Eigen::Index k = 0; k < 3; ++k)
    if (std::any_of(force.col(k).begin(), force.col(k).end(),
                    [](double f) { return std::bit_cast<std::uint64_t>(f) != 0; }))
      force.col(k).setZero();
}

int EngineState::pair_model(int i, int j) const {
  const std::vector<int>& material = scene.particles.material;
  return settings.contact_table.of_pair(material[static_cast<std::size_t>(i)],
                                        material[static_cast<std::size_t>(j)]);
}

int EngineState::wall_model(int i, int w) const {
  return settings.contact_table.of_wall(static_cast<std::size_t>(w),
                                        scene.particles.material[static_cast<std::size_t>(i)]);
}

PairCoeffs EngineState::pair_coeffs(int i, int j) const {
  const ContactModel& m = models[static_cast<std::size_t>(pair_model(i, j))];
  return m.law->prepare(*m.law, pair_input(scene, i, j), m.params);
}

PairCoeffs EngineState::wall_coeffs(int i, int w) const {
  const ContactModel& m = models[static_cast<std::size_t>(wall_model(i, w))];
  return m.law->prepare(*m.law, wall_input(scene, i, static_cast<std::size_t>(w)), m.params);
}

const PairCoeffs& RecentCoeffs::of(const EngineState& st, int model, const PairInput& in) {
  for (std::size_t k = 0; k < size_; ++k)
    if (entries_[k].model == model && std::memcmp(&entries_[k].input, &in, sizeof(PairInput)) == 0)
      return entries_[k].coeffs;
  Entry& e = entries_[next_];
  next_ = (next_ + 1) % entries_.size();
  size_ = std::min(size_ + 1, entries_.size());
  const ContactModel& m = st.models[static_cast<std::size_t>(model)];
  e = {model, in, m.law->prepare(*m.law, in, m.params)};
  return e.coeffs;
}

int EngineState::common_model() const {
  int common = -1;
  for (const ContactList* cl : {&pairs, &wall_contacts})
    for (const std::uint8_t m : cl->model) {
      if (common >= 0 && m != common) return -1;
      common = m;
    }
  return std::max(common, 0);
}

// Incidence lists: pairs in list order, then wall contacts, for every particle.
void EngineState::build_incidence() {
  if (chain_pairs) {
    incidence_offset.clear();
    incidence.clear();
    return;
  }
  const std::size_t n = static_cast<std::size_t>(scene.particles.size());
  incidence_offset.assign(n + 1, 0);
  for (std::size_t c = 0; c < pairs.size(); ++c) {
    ++incidence_offset[pairs.first_of(c) + 1];
    ++incidence_offset[pairs.second_of(c) + 1];
  }
  for (std::size_t c = 0; c < wall_contacts.size(); ++c)
    ++incidence_offset[wall_contacts.first[c] + 1];
  for (std::size_t i = 0; i < n; ++i) incidence_offset[i + 1] += incidence_offset[i];
  incidence.assign(static_cast<std::size_t>(incidence_offset[n]), 0);
  std::vector<int> fill(incidence_offset.begin(), incidence_offset.end() - 1);
  for (std::size_t c = 0; c < pairs.size(); ++c) {
    incidence[fill[pairs.first_of(c)]++] = static_cast<int>(c);
    incidence[fill[pairs.second_of(c)]++] = static_cast<int>(c);
  }
  for (std::size_t c = 0; c < wall_contacts.size(); ++c)
    incidence[fill[wall_contacts.first[c]]++] = wall_entry(c);
}

std::optional<std::size_t> EngineState::find_contact(int i, int j) const {
  if (pairs.chain_indices) {
    if (i >= 0 && j == i + 1 && static_cast<std::size_t>(i) < pairs.size())
      return static_cast<std::size_t>(i);
    return std::nullopt;
  }
  const auto lo = std::lower_bound(pairs.first.begin(), pairs.first.end(), i);
  for (auto it = lo; it != pairs.first.end() && *it == i; ++it) {
    const auto c = static_cast<std::size_t>(it - pairs.first.begin());
    if (pairs.second_of(c) == j) return c;
  }
  return std::nullopt;
}

namespace {

// The approach rate of contact c of `cl`: its normal . (v_first - v_second), the second a wall
// driven as wall_drive[w] says (the contact's normal is the wall's reversed, times its
// obliquity) when `wall_drive` is given. Inlined into both callers, so that a frame's rates cost no
// call each and are the values approach_rate gives.
[[gnu::always_inline]] inline double rate_of(const Particles& p,
                                             const std::vector<WallDrive>* wall_drive,
                                             const ContactList& cl, std::size_t c) {
  const Eigen::Vector3d n = cl.normal_of(c);
  const Eigen::Vector3d vi = p.velocity.row(cl.first_of(c)).transpose();
  if (wall_drive)
    return n.dot(vi) +
           (*wall_drive)[static_cast<std::size_t>(cl.second_of(c))].normal_speed(cl.overlap[c]);
  return n.dot(vi - p.velocity.row(cl.second_of(c)).transpose().matrix());
}

}  // namespace

double EngineState::approach_rate(const ContactList& cl, std::size_t c) const {
  return rate_of(scene.particles, &cl == &wall_contacts ? &wall_drive : nullptr, cl, c);
}

void EngineState::approach_rates(const ContactList& cl, const std::uint32_t* rows,
                                 std::size_t count, double* out) const {
  const std::vector<WallDrive>* walls = &cl == &wall_contacts ? &wall_drive : nullptr;
  for (std::size_t j = 0; j < count; ++j) out[j] = rate_of(scene.particles, walls, cl, rows[j]);
}

// A contact is isolated when, from its first touch to its separation, no other contact of
// either body touched and neither body carried a load: its restitution is then a binary one.
// Neighbour contacts are judged from their own first-touch and separation steps, which are
// exact whatever order the chain engine's passes evaluate them in: a neighbour is at step s or
// s - 1 when this contact is evaluated at step s, and touched during [onset, s - 1] if it still
// touches since before step s, or separated after this contact's first touch.
void EngineState::note_separation(const ContactList& cl, std::size_t c, std::int64_t at) {
  const std::int64_t onset = cl.onset_step(c);
  const double approach = cl.onset_rate[c];
  if (onset <= 0 || !(approach > 0.0)) return;  // began pressed together, not an impact
  const bool wall = &cl == &wall_contacts;
  // Whether `body` carried a load, or another of its contacts touched during this one.
  auto disturbed = [&](int body) {
    const auto b = static_cast<std::size_t>(body);
    if (loaded[b]) return true;
    bool touched = false;
    for_each_contact_of(b, [&](const ContactList& other, std::size_t o) {
      if (&other == &cl && o == c) return;
      const std::int64_t on = other.onset_step(o), end = other.end_step(o);
      touched = touched || (on > end && on < at) || end > onset;
    });
    return touched;
  };
  const int first = cl.first_of(c);
  if (disturbed(first) || (!wall && disturbed(cl.second_of(c)))) return;
  const int second =
      wall ? Simulation::IsolatedContact::wall_body(static_cast<std::size_t>(cl.second_of(c)))
           : cl.second_of(c);
  // The bodies part at the rate that carried them across delta = 0, less what the pair's force
  // at this evaluation (the edge impulse of a force that lasted to delta = 0, or 0) still gives
  // them in its two half kicks.
  const double parting =
      cl.end_rate[c] - settings.time_step * cl.force[c] / cl.coeffs_of(c).effective_mass;
  const std::size_t thread = static_cast<std::size_t>(omp_get_thread_num());
  isolated_logs[std::min(thread, isolated_logs.size() - 1)].push_back(
      {at, first, second, approach, -parting / approach, cl.model[c]});
}

void EngineState::collect_isolated() {
  isolated.clear();
  for (auto& thread_log : isolated_logs) {
    isolated.insert(isolated.end(), thread_log.begin(), thread_log.end());
    thread_log.clear();
  }
  std::sort(isolated.begin(), isolated.end(), [](const auto& a, const auto& b) {
    return std::tie(a.step, a.first, a.second) < std::tie(b.step, b.first, b.second);
  });
}

void EngineState::record_step(std::int64_t s) {
  const auto entry = static_cast<std::size_t>(s);
  for (std::size_t k = 0; k < watched_pairs.size(); ++k) {
    const auto c = find_contact(watched_pairs[k].first, watched_pairs[k].second);
    if (!c) continue;
    log.touching[entry * watched_pairs.size() + k] = contact_state(pairs, *c);
    log.rate[entry * watched_pairs.size() + k] = approach_rate(pairs, *c);
  }
  for (std::size_t k = 0; k < watched_particles.size(); ++k)
    log.speed[entry * watched_particles.size() + k] =
        scene.particles.velocity.row(watched_particles[k]).matrix().norm();
}

// Power delivered by each wall: the contact force times the wall's normal speed.
void EngineState::book_wall_power() {
  std::fill(wall_power.begin(), wall_power.end(), 0.0);
  for (std::size_t c = 0; c < wall_contacts.size(); ++c) {
    const auto w = static_cast<std::size_t>(wall_contacts.second[c]);
    wall_power[w] += wall_contacts.force[c] * wall_drive[w].normal_speed(wall_contacts.overlap[c]);
  }
}

double EngineState::driven_load_power() const {
  double power = 0.0;
  for (const DrivenLoad& l : scene.driven_loads)
    power += l.at(time).dot(scene.particles.velocity.row(l.particle).transpose().matrix());
  return power;
}

bool EngineState::walls_move() const {
  return std::any_of(scene.walls.begin(), scene.walls.end(),
                     [](const Wall& wall) { return wall.moves_along_normal(); });
}

namespace {

// The first particle whose position, velocity or force is not finite, and which of them.
std::optional<std::pair<Eigen::Index, EngineFault::Quantity>> first_not_finite(const Particles& p) {
  using Quantity = EngineFault::Quantity;
  if (p.position.allFinite() && p.velocity.allFinite() && p.force.allFinite()) return std::nullopt;
  Eigen::Index i = 0;
  while (p.position.row(i).allFinite() && p.velocity.row(i).allFinite() &&
         p.force.row(i).allFinite())
    ++i;
  const Quantity q = !p.position.row(i).allFinite()   ? Quantity::position
                     : !p.velocity.row(i).allFinite() ? Quantity::velocity
                                                      : Quantity::force;
  return std::pair(i, q);
}

const char* name_of(EngineFault::Quantity q) {
  switch (q) {
    case EngineFault::Quantity::overlap:
      return "overlap";
    case EngineFault::Quantity::position:
      return "position";
    case EngineFault::Quantity::velocity:
      return "velocity";
    case EngineFault::Quantity::force:
      return "force";
  }
  return "?";
}

// The norm of particle i's `q` (position, velocity or force).
double norm_of(const Particles& p, Eigen::Index i, EngineFault::Quantity q) {
  const Vec3Array& column = q == EngineFault::Quantity::position   ? p.position
                            : q == EngineFault::Quantity::velocity ? p.velocity
                                                                   : p.force;
  return column.row(i).matrix().norm();
}

}  // namespace

void EngineState::check_finite_at_start() const {
  if (const auto bad = first_not_finite(scene.particles))
    throw std::invalid_argument("particle " + std::to_string(bad->first) + ": its " +
                                name_of(bad->second) +
                                " is not finite at the start (check the positions, sizes, "
                                "speeds and loads of the case)");
}

void EngineState::check_finite_since(std::int64_t since) const {
  const auto bad = first_not_finite(scene.particles);
  if (!bad) return;
  const auto [i, quantity] = *bad;
  const EngineFault::Facts facts{EngineFault::Kind::diverged,
                                 quantity,
                                 static_cast<int>(i),
                                 std::nullopt,
                                 std::nullopt,
                                 step,
                                 time,
                                 norm_of(scene.particles, i, quantity),
                                 std::numeric_limits<double>::infinity()};
  throw EngineFault(
      facts, "particle " + std::to_string(i) + ": its " + name_of(quantity) +
                 " is not finite after step " + std::to_string(step) +
                 (step - since > 1 ? " (it diverged after step " + std::to_string(since) + ")"
                                   : std::string()) +
                 ": the integration diverged");
}

void EngineState::throw_position_not_finite(Eigen::Index i) const {
  const EngineFault::Facts facts{EngineFault::Kind::diverged,
                                 EngineFault::Quantity::position,
                                 static_cast<int>(i),
                                 std::nullopt,
                                 std::nullopt,
                                 step,
                                 time,
                                 norm_of(scene.particles, i, EngineFault::Quantity::position),
                                 std::numeric_limits<double>::infinity()};
  throw EngineFault(facts, "particle " + std::to_string(i) +
                               ": its position is not finite at step " + std::to_string(step) +
                               ": the integration diverged");
}

namespace {

// What body i is in the case, for messages: "the striker", "bead k", "extra sphere k", or
// nothing for a scene built without a chain (through the API).
std::string role(const Scene& scene, Eigen::Index i) {
  if (i == scene.striker) return "the striker";
  const Eigen::Index k = i - scene.chain_first;
  if (k >= 0 && k < scene.chain_count) return "bead " + std::to_string(k);
  if (!scene.striker && scene.chain_count == 0) return "";
  return "extra sphere " + std::to_string(i - scene.chain_first - scene.chain_count);
}

// "particles 2 and 3 (beads 1 and 2)", "particles 0 and 1 (the striker and bead 0)".
std::string pair_text(const Scene& scene, Eigen::Index i, Eigen::Index j) {
  std::string text = "particles " + std::to_string(i) + " and " + std::to_string(j);
  const std::string a = role(scene, i), b = role(scene, j);
  if (a.empty() || b.empty()) return text;
  if (a.starts_with("bead ") && b.starts_with("bead "))
    return text + " (beads " + a.substr(5) + " and " + b.substr(5) + ")";
  return text + " (" + a + " and " + b + ")";
}

// "particle 0 (the striker)".
std::string particle_text(const Scene& scene, Eigen::Index i) {
  const std::string a = role(scene, i);
  return "particle " + std::to_string(i) + (a.empty() ? "" : " (" + a + ")");
}

}  // namespace

void EngineState::throw_too_deep(const ContactList& cl, std::size_t c, double overlap,
                                 std::int64_t at) const {
  const Particles& p = scene.particles;
  const bool wall = &cl == &wall_contacts;
  const bool not_a_number = std::isnan(overlap);
  const int i = cl.first_of(c);
  const double time_at = static_cast<double>(at) * settings.time_step;
  EngineFault::Facts facts{not_a_number ? EngineFault::Kind::diverged : EngineFault::Kind::too_deep,
                           EngineFault::Quantity::overlap,
                           i,
                           std::nullopt,
                           std::nullopt,
                           at,
                           time_at,
                           overlap,
                           p.radius(i)};
  if (wall) {
    facts.wall = static_cast<std::size_t>(cl.second_of(c));
  } else {
    facts.other_particle = cl.second_of(c);
    facts.limit = std::min(p.radius(i), p.radius(cl.second_of(c)));
  }
  const std::string bodies = wall ? particle_text(scene, i) : pair_text(scene, i, cl.second_of(c));
  const std::string wall_name = wall ? quoted_text(scene.walls[*facts.wall].name) : "";
  const std::string when =
      at == 0 ? " at the start"
              : " at step " + std::to_string(at) + " (t = " + rounded_text(time_at) + " s)";
  if (not_a_number)
    throw EngineFault(facts, "the overlap of " + bodies + (wall ? " with wall " + wall_name : "") +
                                 " is not a number" + when + ": the integration diverged");
  throw EngineFault(facts, bodies +
                               (wall ? " overlaps wall " + wall_name + " by its radius or more"
                                     : " overlap by a radius or more") +
                               when +
                               ", where no contact law holds (they describe overlaps small next "
                               "to the radii)");
}

void EngineState::check_wall_depths(std::int64_t at) const {
  for (std::size_t c = 0; c < wall_contacts.size(); ++c)
    if (too_deep(wall_contacts.overlap[c], scene.particles.radius(wall_contacts.first[c])))
      throw_too_deep(wall_contacts, c, wall_contacts.overlap[c], at);
}

}  // namespace detail
}  // namespace chaindem
