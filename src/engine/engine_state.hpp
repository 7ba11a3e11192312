#pragma once
// What the two engines share: the state they advance (particles, contact lists with their
// history, the energy books, the logs observers read) and the contract each engine keeps.
// Private to src/engine/; Simulation (simulation.hpp) is the public face.

#include <array>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "chaindem/engine/state_archive.hpp"
#include "contact_update.hpp"
#include "validity_watch.hpp"

namespace chaindem::detail {

/// An entry of the incidence lists (EngineState::incidence): a pair's index, or wall contact c
/// as wall_entry(c) = -c - 1, so that one int column holds both for the force gather.
inline int wall_entry(std::size_t c) {
  return -static_cast<int>(c) - 1;
}
inline bool is_pair_entry(int e) {
  return e >= 0;
}
/// The index of entry e's contact in its list (pairs or wall contacts).
inline std::size_t contact_of_entry(int e) {
  return static_cast<std::size_t>(e >= 0 ? e : -e - 1);
}

// Positions are kept as two doubles, x + carry, the carry holding what x's last digit cannot
// (compensated summation, Kahan 1965). A step's displacement dt v is
// added to x + carry instead of being rounded against x, which would lose its digits below x's
// last one at every step: the loss grows with the distance from the origin and with the number
// of steps (so, for smaller steps, faster than the time error shrinks). With the carry a run's
// trajectories do not depend on where the chain lies, and keep converging down to any step.

/// Adds dx to the position x + carry. Fast2Sum (Dekker 1971), exact when |x| >= |dx + carry|:
/// the new carry is what the new x could not hold, |carry| at most half an ulp of x. (A
/// particle nearer the origin than its step loses at most an ulp of that step.) A position
/// flung to infinity keeps a zero carry, not inf - inf: the position alone shows the fault, and
/// its neighbours' distances to it stay infinite rather than not a number.
inline void drift_by(double& x, double& carry, double dx) {
  const double y = dx + carry;
  const double t = x + y;
  const double lost = y - (t - x);
  carry = lost == lost ? lost : 0.0;
  x = t;
}

/// (x_j + carry_j) - (x_i + carry_i): the difference of the rounded positions, exact for
/// neighbours within a factor 2 of each other (Sterbenz 1974) and otherwise rounded at the
/// scale of the separation, plus that of the carries.
inline double separation(double x_i, double carry_i, double x_j, double carry_j) {
  return (x_j - x_i) + (carry_j - carry_i);
}

/// How a wall drives its contacts at one time: its speed along its normal, and the obliquity of
/// its contacts (Motion::obliquity), n and dn/dt. A contact whose normal makes the angle acos n
/// with the wall's has the normal overlap n delta_x (delta_x along the wall's normal) at the
/// rate n d(delta_x)/dt + (dn/dt) delta_x; the bodies feel n times its force along the wall's
/// normal, and the wall delivers the power F (n v_wall + (dn/dt) delta_x): the work of the
/// turning normal is the wall's, and the energy books stay closed.
struct WallDrive {
  double speed = 0.0;           ///< along the wall's normal [m/s]
  double chord = 0.0;           ///< its mean over the last step [m/s]
  double obliquity = 1.0;       ///< n, in (0, 1]
  double obliquity_rate = 0.0;  ///< dn/dt [1/s]
  bool oblique() const { return obliquity != 1.0 || obliquity_rate != 0.0; }
  /// What the wall adds to the approach rate of a contact at normal overlap d (0 when apart):
  /// n v_wall + (dn/dt) delta_x, or v_wall. The power it delivers through a force f is f times it.
  double normal_speed(double d) const {
    if (!oblique()) return speed;
    return obliquity * speed + (d > 0.0 ? obliquity_rate * (d / obliquity) : 0.0);
  }
};

/// The state of a run that both engines step and Simulation reports: built from the scene and
/// the settings (which it checks), it holds what an engine must leave behind after each step so
/// that energies, logs and output read the same whichever engine ran.
struct EngineState {
  EngineState(Scene scene, SimulationSettings settings);

  Scene scene;
  SimulationSettings settings;
  /// The run's contact models: [k] is settings.model(k), resolved once.
  std::vector<ContactModel> models;
  double initial_external = 0.0;  ///< sum f_ext . x at the start [J]
  /// Predicted rate: each particle's velocity at the end of the next step is its half-step
  /// velocity plus this, dt/2 (2 a_n - a_(n-1)) (0 for the half-step rate) [m/s]
  Vec3Array lookahead;
  double look_kick = 0.0;            ///< dt/2 for the predicted rate, 0 for the half-step rate [s]
  std::vector<std::uint8_t> loaded;  ///< particle carries an applied load or gravity
  double time = 0.0;
  std::int64_t step = 0;

  ContactList pairs;
  ContactList wall_contacts;
  // Per-particle incidence (CSR) into the contact lists, in a fixed order, so that force sums
  // are bitwise identical for any thread count. Not built for chain pairs, whose particle's
  // contacts follow from its index.
  bool chain_pairs = false;  ///< pair c joins particles c and c + 1 for the whole run
  std::vector<int> incidence_offset;
  std::vector<int> incidence;                ///< pair indices and wall_entry(wall contact index)
  std::vector<Eigen::Vector3d> wall_offset;  ///< how far each wall has moved from its point [m]
  /// Each wall's drive: its speed along its normal now, its mean speed over the last step (what
  /// carried it to where it is, as a particle's half-step velocity carried the particle), and
  /// the obliquity of its contacts (update_wall).
  std::vector<WallDrive> wall_drive;

  // Energy books beyond the contact lists' own columns.
  double retired_dissipated = 0.0;  ///< dissipated by pairs that left the neighbor structure [J]
  std::vector<double> retired_by_model;  ///< the same per model (several models only) [J]
  std::int64_t retired_floor_hits = 0;
  /// Work done on the particles by moving walls and by the changes of the driven loads
  /// (Scene::driven_loads) [J]
  double wall_work = 0.0;
  std::vector<double> wall_power;  ///< power delivered by each wall at the last evaluation [W]
  /// Power of the driven loads' changes at the last evaluation, sum dF(t) . v [W]: a function of
  /// the state and its time (driven_load_power), so that a checkpoint needs nothing more.
  double load_power = 0.0;
  /// sum over the driven loads of their change at the state's time times their particle's
  /// velocity [W].
  double driven_load_power() const;

  // Extremes (Simulation::track_extremes) and the step log (Simulation::watch).
  bool tracking = false;
  Eigen::ArrayXd peak_contact_force, peak_velocity_x;
  std::vector<std::pair<int, int>> watched_pairs;
  std::vector<Eigen::Index> watched_particles;
  Simulation::StepLog log;

  /// The largest strain and impact speed of each kind of contact (validity_watch.hpp).
  ValidityWatch validity;
  /// Pair c of `pairs`' kind (validity), and its effective radius R* as pair_input has it.
  int pair_kind(std::size_t c) const {
    const std::vector<int>& material = scene.particles.material;
    return validity.pair_kind(material[static_cast<std::size_t>(pairs.first_of(c))],
                              material[static_cast<std::size_t>(pairs.second_of(c))]);
  }
  double pair_radius(std::size_t c) const {
    const Eigen::ArrayXd& r = scene.particles.radius;
    const Eigen::Index i = pairs.first_of(c), j = pairs.second_of(c);
    return r(i) * r(j) / (r(i) + r(j));
  }

  // Isolated contacts: logged per thread during advance(), then sorted (collect_isolated).
  std::vector<std::vector<Simulation::IsolatedContact>> isolated_logs;
  std::vector<Simulation::IsolatedContact> isolated;

  /// Current position of wall w.
  Eigen::Vector3d wall_point(std::size_t w) const { return scene.walls[w].point + wall_offset[w]; }
  /// How far wall w has moved from its point at time t, and its speed along its normal then:
  /// exact functions of t, so that a wall follows its path to rounding over any number of steps.
  Eigen::Vector3d wall_offset_at(std::size_t w, double t) const {
    const Wall& wall = scene.walls[w];
    return t * wall.velocity + wall.motion.displacement(t) * wall.normal;
  }
  /// Its speed along its normal at time t, its mean speed from t - dt to t (dt = 0: its speed at
  /// t), and its contacts' obliquity at t.
  WallDrive wall_drive_at(std::size_t w, double t, double dt) const {
    const Wall& wall = scene.walls[w];
    WallDrive d;
    const double steady = wall.velocity.dot(wall.normal);
    d.speed = steady + wall.motion.velocity(t);
    d.chord = !(dt > 0.0) || wall.motion.is_constant_velocity()
                  ? d.speed
                  : steady + (wall.motion.displacement(t) - wall.motion.displacement(t - dt)) / dt;
    if (wall.motion.oblique()) {
      d.obliquity = wall.motion.obliquity(t);
      d.obliquity_rate = wall.motion.obliquity_rate(t);
    }
    return d;
  }
  /// Puts every wall where it is at time t, reached by a step dt (wall_offset, wall_drive).
  void move_walls(double t, double dt) {
    for (std::size_t w = 0; w < scene.walls.size(); ++w) {
      wall_offset[w] = wall_offset_at(w, t);
      wall_drive[w] = wall_drive_at(w, t, dt);
    }
  }
  /// True when some wall moves along its normal at some time (its work may not be zero).
  bool walls_move() const;
  /// The model of the contact of particles i and j, and of particle i with wall w
  /// (settings.contact_table, by the bodies' materials).
  int pair_model(int i, int j) const;
  int wall_model(int i, int w) const;
  /// Their coefficients, under that model's law and parameters.
  PairCoeffs pair_coeffs(int i, int j) const;
  PairCoeffs wall_coeffs(int i, int w) const;
  /// The rules of the contacts of model m (its tension policy, the run's other rules).
  ContactRules rules_of(int m, bool first_evaluation) const {
    return contact_rules(settings, models[static_cast<std::size_t>(m)].tension, first_evaluation);
  }
  /// The kernel of model m.
  Kernel kernel_of(int m) const { return models[static_cast<std::size_t>(m)].law->kernel; }
  /// The model every contact of both lists obeys, or -1 when they obey several (0 for none).
  int common_model() const;
  /// Per-particle incidence lists of the current contacts, pairs then walls (none for chain pairs).
  void build_incidence();
  /// Calls f(list, c) for every contact c of particle b, in pairs or wall_contacts.
  template <class F>
  void for_each_contact_of(std::size_t b, F&& f) const {
    if (chain_pairs) {
      if (b > 0 && b - 1 < pairs.size()) f(pairs, b - 1);
      if (b < pairs.size()) f(pairs, b);
      for (std::size_t c = 0; c < wall_contacts.size(); ++c)
        if (static_cast<std::size_t>(wall_contacts.first[c]) == b) f(wall_contacts, c);
      return;
    }
    for (int k = incidence_offset[b]; k < incidence_offset[b + 1]; ++k) {
      const int e = incidence[static_cast<std::size_t>(k)];
      f(is_pair_entry(e) ? pairs : wall_contacts, contact_of_entry(e));
    }
  }
  /// Index of the contact of particles i < j in `pairs`, if they have one.
  std::optional<std::size_t> find_contact(int i, int j) const;
  /// Approach rate of contact c of `cl` (pairs or wall_contacts) now [m/s].
  double approach_rate(const ContactList& cl, std::size_t c) const;
  /// approach_rate of contacts rows[0 .. count-1] of `cl`, into out[0 .. count-1].
  void approach_rates(const ContactList& cl, const std::uint32_t* rows, std::size_t count,
                      double* out) const;
  /// Whether contact c of `cl` touches now, as the step log records it.
  static Simulation::StepLog::Contact contact_state(const ContactList& cl, std::size_t c) {
    return cl.touching[c] ? Simulation::StepLog::Contact::touching
                          : Simulation::StepLog::Contact::apart;
  }
  /// Books the contact of `cl` at c that has just separated at step `at`, if it was isolated.
  void note_separation(const ContactList& cl, std::size_t c, std::int64_t at);
  /// Sorts the isolated contacts the threads logged during advance() into `isolated`.
  void collect_isolated();
  /// Records entry s of the step log from the current state.
  void record_step(std::int64_t s);
  /// Sets wall_power from the wall contacts' forces and the walls' drives (WallDrive::power).
  void book_wall_power();
  /// Refuses (std::invalid_argument) a state to start from whose positions, velocities or
  /// forces are not all finite, naming the first particle.
  void check_finite_at_start() const;
  /// Stops the run (EngineFault, diverged) if a position, velocity or force is not finite after
  /// the steps since step `since`, where the last advance started: a diverged state, which the
  /// engines catch earlier when it shows in an overlap.
  void check_finite_since(std::int64_t since) const;
  /// Stops the run (EngineFault, diverged) at particle i, whose position is not finite (or so
  /// far from where it was that the distance is not) at this step.
  [[noreturn]] void throw_position_not_finite(Eigen::Index i) const;
  /// Stops the run (EngineFault) at a contact gone too deep (too_deep): contact c of `cl` (pairs
  /// or wall_contacts) has `overlap`, a radius or more or not a number, at step `at` (0: the
  /// state the run starts from). The message names the bodies (or the body and the wall), the
  /// step and the simulated time.
  [[noreturn]] void throw_too_deep(const ContactList& cl, std::size_t c, double overlap,
                                   std::int64_t at) const;
  /// throw_too_deep for the first wall contact whose overlap reaches its particle's radius, from
  /// the overlaps of the last evaluation (at step `at`).
  void check_wall_depths(std::int64_t at) const;
  /// What the steps change, saved to and restored from a checkpoint (state_checkpoint.cpp); the
  /// rest is rebuilt by constructing the state from the same case. restore() rebuilds the
  /// incidence lists.
  void save(StateArchive& archive) const;
  void restore(const StateArchive& archive);
  /// The energy books (energy_books.cpp), in total and the dissipation per model.
  EnergyReport energies() const;
  std::vector<double> dissipated_by_model() const;
  /// Simulation::stored_energy_by_particle.
  std::vector<double> stored_energy_by_particle() const;
  std::int64_t impact_velocity_floor_hits() const;

  /// The overlap of wall contact c, its wall at `point` (as update_wall evaluates it).
  double wall_overlap(std::size_t c, const Eigen::Vector3d& point) const {
    return wall_overlap_at(wall_contacts.first[c], wall_contacts.second[c], point);
  }
  /// The distance between particles i and j (as the general engine's pair loop computes it).
  double distance(int i, int j) const {
    const Particles& p = scene.particles;
    double sum = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double d = separation(p.position(i, a), p.position_carry(i, a), p.position(j, a),
                                  p.position_carry(j, a));
      sum += d * d;
    }
    return std::sqrt(sum);
  }
  /// The overlap of particle i with wall w at `point`.
  double wall_overlap_at(int i, int w, const Eigen::Vector3d& point) const {
    const Wall& wall = scene.walls[static_cast<std::size_t>(w)];
    const Eigen::Vector3d x = scene.particles.position.row(i).transpose();
    const Eigen::Vector3d carry = scene.particles.position_carry.row(i).transpose();
    return scene.particles.radius(i) - ((x - point) + (carry - wall.point_carry)).dot(wall.normal);
  }
  /// Advances wall contact c at `overlap` along the wall's normal (wall_overlap, or the chain
  /// engine's), its wall driving it as `drive` says; returns what happened to it.
  template <class KernelT>
  ContactEvent update_wall(std::size_t c, double overlap, const WallDrive& drive,
                           const ContactRules& rules, std::int64_t at);
  /// Advances every wall contact of model m (any model: m < 0), each wall at its current point.
  template <class KernelT>
  void evaluate_walls(const ContactRules& rules, std::int64_t at, int m = -1) {
    for (std::size_t c = 0; c < wall_contacts.size(); ++c)
      if (m < 0 || wall_contacts.model[c] == m) {
        const auto w = static_cast<std::size_t>(wall_contacts.second[c]);
        update_wall<KernelT>(c, wall_overlap(c, wall_point(w)), wall_drive[w], rules, at);
      }
  }
};

/// Coefficients of contacts, prepared once per distinct contact among the last few: a law's
/// prepare() is a function of the model and the bodies' effective quantities (PairInput), and a
/// chain repeats a few kinds of pairs over and over.
class RecentCoeffs {
 public:
  const PairCoeffs& of(const EngineState& st, int model, const PairInput& in);

 private:
  struct Entry {
    int model = -1;
    PairInput input{};
    PairCoeffs coeffs;
  };
  std::array<Entry, 4> entries_{};
  std::size_t size_ = 0, next_ = 0;
};

/// What an engine does. It is built on an EngineState, whose contacts it creates and whose forces
/// it evaluates once (step 0); advance(n) then moves the state by n steps, leaving every shared
/// column (positions, velocities, forces, contact lists, energy books, isolated contacts logged
/// per thread, step-log entries [0, n)) as a step-by-step run leaves them.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual void advance(std::int64_t n) = 0;
  /// The watched pairs or particles have changed.
  virtual void watch_changed() {}
  virtual bool vectorised_pairs() const { return false; }
  virtual std::int64_t neighbor_rebuilds() const = 0;
  /// The engine's own structures that its next steps read, beyond the EngineState's.
  virtual void save(StateArchive&) const {}
  virtual void restore(const StateArchive&) {}
};

template <class KernelT>
ContactEvent EngineState::update_wall(std::size_t c, double overlap, const WallDrive& drive,
                                      const ContactRules& rules, std::int64_t at) {
  const Particles& p = scene.particles;
  ContactList& cl = wall_contacts;
  const int i = cl.first[c];
  const Wall& wall = scene.walls[static_cast<std::size_t>(cl.second[c])];
  const Eigen::Vector3d v = p.velocity.row(i).transpose();
  const Eigen::Vector3d ahead = lookahead.row(i).transpose();
  // The half-step rate pairs the particle's half-step velocity with the wall's mean speed over
  // the step (both carried them to `overlap`; at first touch it sets v0), the predicted rate
  // the predicted velocity with the wall's speed at the step's end: an accelerating wall's
  // speed at either time alone would be off by its acceleration times dt.
  double rate = drive.chord - v.dot(wall.normal);
  double force_rate =
      look_kick != 0.0 ? drive.speed - (v + ahead).dot(wall.normal) : rate - ahead.dot(wall.normal);
  // Normal from the particle towards the wall: -wall.normal (times the obliquity: the part of
  // the contact's normal along the wall's, which the particle feels).
  if (drive.oblique()) {
    const double n = drive.obliquity, turning = drive.obliquity_rate * overlap;
    rate = n * rate + turning;
    force_rate = n * force_rate + turning;
    overlap *= n;
    cl.nx[c] = -n * wall.normal.x();
    cl.ny[c] = -n * wall.normal.y();
    cl.nz[c] = -n * wall.normal.z();
  } else {
    cl.nx[c] = -wall.normal.x();
    cl.ny[c] = -wall.normal.y();
    cl.nz[c] = -wall.normal.z();
  }
  const ContactEvent event =
      update_contact<KernelT>(cl, c, overlap, rate, force_rate, rules, cl.coeffs_of(c), at);
  if (overlap > 0.0) {  // R* = R against a wall
    const ValidityTally tally = validity.here();
    const int kind = validity.wall_kind(p.material[static_cast<std::size_t>(i)],
                                        static_cast<std::size_t>(cl.second[c]));
    tally.note_strain(kind, overlap / p.radius(i));
    if (event == ContactEvent::onset) tally.note_speed(kind, rate);
  }
  return event;
}

}  // namespace chaindem::detail
