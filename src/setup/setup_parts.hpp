#pragma once
// The steps of the set-up (case to scene), shared by the files of src/setup/ and by nothing
// else. build_run (scene_builder.cpp) calls them in order:
//   contact_setup.cpp  the law and its parameters, the damping policies, a pair's coefficients
//   chain_layout.cpp   materials, striker, beads, walls, extra particles: made, placed, checked
//   initial_data.cpp   a state from data (initial.file) in place of the case's own set-up
//   resources.cpp      the memory the run needs, against what the machine has
//   plausibility.cpp   initial overlaps within the laws' range; notes on likely unit mistakes
//   time_step.cpp      contact time scales, the time step and the number of steps
// Every step reads the typed case (Case) and reports a problem through Case::fail, which names
// the key of the field at fault.

#include <Eigen/Core>
#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/setup/bead_list.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/setup/initial_state.hpp"
#include "chaindem/setup/scene_builder.hpp"

namespace chaindem::setup {

/// Materials by name: their index in Scene::materials.
using MaterialIndex = std::map<std::string, int>;

/// The [chain] section with its materials resolved: the beads before they are placed.
struct ChainPlan {
  Eigen::Index count = 0;
  BeadList<int> materials;    ///< along the chain, resolved for `count` beads
  BeadList<double> radii;     ///< likewise, bead k scaled by taper^k
  BeadList<double> velocity;  ///< likewise [m/s]
  double taper = 1.0, gap = 0.0, overlap = 0.0, end_force = 0.0;
  bool static_overlap = false;  ///< the contacts start at the overlap that carries end_force
  bool held_by_walls = false;   ///< both walls carry end_force; no load is applied

  /// Whether the wall at the start (or end) carries end_force at its static overlap, the load
  /// pushing towards the end when `load_towards_end`.
  bool wall_carries(bool start, bool load_towards_end) const {
    return static_overlap && (held_by_walls || start != load_towards_end);
  }
};

/// A body of the chain (the striker or a bead) before it is placed.
struct Body {
  double radius;
  int material;
  double velocity;
};

/// Where the chain is among the particles: the striker (if any) and the beads are particles
/// [0, bodies); extra particles follow.
struct ChainIndices {
  Eigen::Index bodies, first_bead, last_bead;
};

/// The enabled walls by their index in Scene::walls, and the gap each is given.
struct WallSlots {
  std::optional<std::size_t> start, end;
  std::vector<double> gap;
};

/// A record of extra.particles: "material radius x y z vx vy vz".
struct ExtraParticle {
  std::string material;
  double radius;
  Eigen::Vector3d x, v;
};

/// The density of material `material` of the scene.
inline double density_of(const Scene& scene, int material) {
  return scene.materials[static_cast<std::size_t>(material)].density;
}

// contact_setup.cpp
const LawEntry& resolve_law(const Case& c, LawParams& params, bool ignore_foreign, RunSetup& run);
void resolve_contact_table(const Case& c, const MaterialIndex& materials, bool ignore_foreign,
                           RunSetup& run);
void set_contact_policies(const Case& c, SimulationSettings& settings, double speed);
/// True when a contact model of the run has the impact velocity v0 in its damping.
bool uses_impact_velocity(const SimulationSettings& settings);
/// One contact of the scene as its model describes it.
struct PreparedContact {
  PairInput input;
  PairCoeffs coeffs;
  Kernel kernel;
};
/// Particles i and j, or particle i and wall w, prepared by their model.
PreparedContact prepare_pair(const Case& c, const RunSetup& run, Eigen::Index i, Eigen::Index j);
PreparedContact prepare_wall(const Case& c, const RunSetup& run, Eigen::Index i, std::size_t w);
/// prepare_pair and prepare_wall for the many contacts of a chain, which are of a few kinds: each
/// distinct contact (its model and PairInput, of which a law's coefficients are a function) is
/// prepared once among the last few asked for.
class ContactPreparer {
 public:
  const PreparedContact& pair(const Case& c, const RunSetup& run, Eigen::Index i, Eigen::Index j);
  const PreparedContact& wall(const Case& c, const RunSetup& run, Eigen::Index i, std::size_t w);

 private:
  const PreparedContact& of(const Case& c, const RunSetup& run, const PairInput& in, int k);
  struct Entry {
    int model = -1;
    PreparedContact contact{};
  };
  std::array<Entry, 4> entries_{};
  std::size_t size_ = 0, next_ = 0;
};
/// The overlap at which the contact's elastic force carries `force`.
double static_overlap_of(const PreparedContact& contact, double force);

// chain_layout.cpp
MaterialIndex add_materials(const Case& c, Scene& scene);
ChainPlan read_chain(const Case& c, const MaterialIndex& materials, Scene& scene);
bool has_striker(const Case& c);
std::vector<ExtraParticle> parse_extra(const Case& c);
std::vector<Body> chain_bodies(const Case& c, const MaterialIndex& materials,
                               const ChainPlan& chain, bool striker);
ChainIndices add_bodies(Scene& scene, const std::vector<Body>& bodies, std::size_t extra,
                        bool striker, Eigen::Index count);
WallSlots add_walls(const Case& c, const MaterialIndex& materials, Scene& scene);
void check_load_wall(const Case& c, const WallSlots& walls, bool striker, bool load_towards_end);
std::vector<double> surface_separations(const Case& c, const RunSetup& run, const ChainPlan& chain,
                                        const ChainIndices& at, bool striker);
double place_bodies(Particles& p, const std::vector<double>& separation, Eigen::Index bodies);
void place_walls(const Case& c, RunSetup& run, const WallSlots& walls, const ChainPlan& chain,
                 bool load_towards_end, const ChainIndices& at, double x);
void apply_loads(const Case& c, Scene& scene, double end_force, bool load_towards_end,
                 const ChainIndices& at);

// wall_motion.cpp
/// The wall's prescribed motion from its keys, along a normal whose x component is `normal_x`
/// (the keys give it along +x); a table must reach `duration`.
Motion wall_motion(const Case& c, const WallSpec& s, double normal_x, double duration);
/// The end load's change beside chain.end_force from its keys (chain.end_force_motion), in
/// newtons along the load; refuses keys of another kind, and a drive of a load held by walls.
Motion end_load_motion(const Case& c, double duration);
void add_extra_particles(const Case& c, const MaterialIndex& materials, Scene& scene,
                         const std::vector<ExtraParticle>& extra, Eigen::Index bodies,
                         const InitialState* data);
void check_wall_sides(const Case& c, const Scene& scene, Eigen::Index bodies,
                      const InitialState* data);
void check_extent(const Case& c, const Scene& scene, bool striker, Eigen::Index bodies,
                  bool from_data);

// initial_data.cpp
void set_from_data(Scene& scene, const InitialState& data, Eigen::Index i);
std::optional<InitialState> read_initial(const Case& c, RunSetup& run, bool striker,
                                         Eigen::Index count, std::size_t extra);
std::vector<double> data_separations(const Case& c, const Particles& p, const InitialState& data,
                                     Eigen::Index bodies);
void place_walls_on_data(const Case& c, RunSetup& run, const WallSlots& walls,
                         const ChainPlan& chain, bool load_towards_end, const ChainIndices& at,
                         const InitialState& data);

// resources.cpp
std::size_t check_memory(const Case& c, const RunSetup& run, const ChainPlan& plan,
                         std::size_t particles, const layout::OutputSelection& output);
/// The output interval of the run: requested_output_interval, or, for an automatic one
/// (output.interval = 0) whose frames would take more than output.max_file_size, the interval
/// of as many frames as fit (saying so in run.output_interval_note).
double output_interval_within_budget(const Case& c, RunSetup& run);
/// Refuses (CaseError naming output.max_file_size) a run whose run.estimate exceeds it.
void check_output_budget(const Case& c, const RunSetup& run);

// plausibility.cpp
/// The largest strain delta/R* an initial overlap may make, R* the contact's effective radius:
/// the contact laws hold for overlaps small against the radius (docs/case-format.md,
/// "Plausibility"), the bound of the Hertzian laws' validity.
inline constexpr double max_initial_strain = hertz_strain_bound;
inline bool beyond_initial_strain(double overlap, double r_star) {
  return overlap > max_initial_strain * r_star;
}
/// "0.001 m, a strain delta/R* = 0.4 of the contact's effective radius R* = 0.0025 m".
std::string overlap_strain_text(double overlap, double r_star);
/// What the bound allows, for a message refusing an overlap: "the contact laws hold for ...".
std::string initial_strain_bound_text(double r_star);
/// The static overlap of `contact` that carries `force` (static_overlap_of); beyond
/// max_initial_strain, a CaseError naming chain.end_force, with the largest load within it.
/// `between` names the contact: "beads 0 and 1", "bead 29 and wall_end".
double checked_static_overlap(const Case& c, const PreparedContact& contact, double force,
                              const std::string& between);
/// Notes (run.notes) on values that are likely a unit mistake or beyond what the law assumes:
/// sizes, material values, and `speed`, the case's largest relative speed, which the key
/// `speed_key` gives (asked only for a note: fastest_key reads every body).
void add_plausibility_notes(const Case& c, RunSetup& run, double speed,
                            const std::function<std::string()>& speed_key);

// time_step.cpp
std::vector<TimeScalePair> contact_time_scales(const Case& c, const RunSetup& run,
                                               const std::vector<double>& separation,
                                               const WallSlots& walls, double end_force,
                                               const ChainIndices& at);
double largest_relative_speed(const Scene& scene, double duration);
std::string fastest_key(const Case& c, const Scene& scene, double duration, bool from_data);
void check_gravity(const Case& c, const Scene& scene, double duration);
/// The interval between output frames the case asks for: output.interval, or a 200th of the
/// run when it gives 0; at most the run's duration [s].
double requested_output_interval(const OutputSpec& output, double duration);
/// `speed_key` names the key that gives `speed` (fastest_key), asked only for a message;
/// `per_contact` > 0 replaces simulation.steps_per_contact.
void choose_time_step(const Case& c, RunSetup& run,
                      const std::vector<TimeScalePair>& time_scale_pairs, double speed,
                      const std::function<std::string()>& speed_key, double per_contact = 0.0);

}  // namespace chaindem::setup
