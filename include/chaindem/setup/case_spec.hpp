#pragma once
// A case as the set-up reads it: one typed struct per section, filled from a validated
// CaseConfig by the key declarations (src/setup/case_keys.cpp), where each key names the field it
// fills. The set-up reads these fields, never a key by its name; a message about a value names
// its key through the field (Case::fail, Case::key).

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/setup/bead_list.hpp"
#include "chaindem/setup/case_file.hpp"

namespace chaindem {

/// [simulation]
/// simulation.error_estimate: whether a run is shadowed by one at half its step, whose
/// difference estimates its time-discretisation error (docs/engine.md, "Accuracy of a run").
enum class ErrorEstimate { automatic, on, off };

struct SimulationSpec {
  double duration = 0.0;            ///< simulated time [s]
  double time_step = 0.0;           ///< [s]; 0: chosen from the contact physics
  double steps_per_contact = 50.0;  ///< automatic step = shortest contact / this
  double skin = 0.0;                ///< neighbor skin [m]; 0: 0.2 x smallest radius
  int threads = 0;                  ///< 0: OMP_NUM_THREADS or all cores
  SimulationSettings::Integrator integrator = SimulationSettings::Integrator::second_order;
  SimulationSettings::EngineChoice engine = SimulationSettings::EngineChoice::automatic;
  ErrorEstimate error_estimate = ErrorEstimate::automatic;
  /// The velocity error the run should reach, relative to the largest speed (0: none): the step
  /// is chosen from a first run's error estimate (docs/engine.md, "Accuracy of a run").
  double accuracy = 0.0;
};

/// [contact]: the law, the policies that apply to every law, and the law parameters given.
struct ContactSpec {
  std::string law;                       ///< identifier as given (an old name is still read)
  std::optional<TensionPolicy> tension;  ///< nullopt: the law's own policy
  SimulationSettings::ImpactVelocity impact_velocity = SimulationSettings::ImpactVelocity::energy;
  double reference_velocity = 0.0;  ///< [m/s]; 0: the case's largest relative speed
  bool static_origin = true;        ///< hysteresis measured from the initial overlap
  /// The law parameters the case gives (contact.KEY), by KEY; checked against the law later.
  std::map<std::string, double, std::less<>> params;
};

/// wall_*.motion: how a wall moves beside its constant velocity; chain.end_force_motion: how the
/// end load changes beside its constant part (constant, harmonic or table).
enum class WallMotion { constant, harmonic, table, slider_crank };

/// [chain]
struct ChainSpec {
  long long count = 0;
  BeadList<std::string> materials;  ///< a pattern repeated along the chain, beads set apart
  BeadList<double> radii;           ///< likewise [m]
  /// Each bead's velocity along +x at the start, likewise [m/s]; nullopt: at rest.
  std::optional<BeadList<double>> velocity;
  double taper = 1.0;            ///< radius ratio of consecutive beads
  double gap = 0.0;              ///< [m]
  double overlap = 0.0;          ///< [m]
  double end_force = 0.0;        ///< [N]
  double cylinder_length = 0.0;  ///< [m]; 0: spheres
  bool static_overlap = false;
  bool held_by_walls = false;  ///< end_force carried by both walls, no load applied
  // The end load's change beside end_force, as a wall's motion (WallSpec) read in newtons.
  WallMotion end_force_motion = WallMotion::constant;  ///< constant, harmonic or table
  std::vector<double> end_force_amplitude;             ///< [N]
  std::vector<double> end_force_frequency;             ///< [Hz]
  std::vector<double> end_force_phase;                 ///< [rad]; empty: 0 for every term
  double end_force_ramp = 0.0;                         ///< [s]
  std::optional<std::string> end_force_table;          ///< CSV file, columns t and F
  Motion::Interpolation end_force_interpolation = Motion::Interpolation::makima;
};

/// [striker]: present when its velocity is given (and it is enabled).
struct StrikerSpec {
  bool enabled = true;
  std::optional<std::string> material;  ///< nullopt: the first bead's
  std::optional<double> radius;         ///< [m]; nullopt: the first bead's
  std::optional<double> velocity;       ///< [m/s]
  double gap = 0.0;                     ///< [m]
};

/// [wall_start], [wall_end]
struct WallSpec {
  bool enabled = false;
  std::optional<std::string> material;
  double gap = 0.0;       ///< [m]
  double velocity = 0.0;  ///< along +x [m/s]
  WallMotion motion = WallMotion::constant;
  // harmonic: x(t) = r(t) sum_k amplitude_k sin(2 pi frequency_k t + phase_k), r the ramp
  std::vector<double> amplitude;  ///< along +x [m]
  std::vector<double> frequency;  ///< [Hz]
  std::vector<double> phase;      ///< [rad]; empty: 0 for every term
  double ramp = 0.0;              ///< [s]
  // table: x(t) from a CSV file of samples (columns t, x)
  std::optional<std::string> table;
  Motion::Interpolation interpolation = Motion::Interpolation::makima;
  // slider_crank: the slider of a crank and rod (Motion::slider_crank), x along +x
  std::optional<double> crank_radius;  ///< [m]
  std::optional<double> crank_speed;   ///< [rad/s]
  double crank_angle = 0.0;            ///< at t = 0, from +x [deg]
  std::optional<double> rod_length;    ///< [m]
  double crank_offset = 0.0;           ///< the pivot's distance from the line of stroke [m]
  int slider_side = 1;                 ///< +1: slider on the +x side of the pivot; -1: -x
};

/// [gravity]
struct GravitySpec {
  std::array<double, 3> acceleration{};  ///< [m/s^2]
};

/// [extra]
struct ExtraSpec {
  std::optional<std::string> particles;  ///< records 'material radius x y z vx vy vz; ...'
};

/// [initial]
struct InitialSpec {
  std::optional<std::string> file;  ///< as given, relative to the case file's directory
  long long frame = -1;             ///< of an HDF5 file; negative counts from the end
};

/// output.dimension: the components of the particle vectors a run writes.
enum class OutputDimension {
  automatic,  ///< x alone for a chain on the x axis stepped by the chain engine, else x, y, z
  three,      ///< always x, y and z
};

/// [output]
struct OutputSpec {
  std::optional<std::string> file;
  double interval = 0.0;  ///< [s]; 0: duration/200
  long long every = 0;    ///< steps between frames; 0: by the interval
  /// [s] between the rows of each group of series, whole numbers of frames; 0: every frame
  double particles_interval = 0.0, observables_interval = 0.0, contacts_interval = 0.0;
  std::vector<std::string> quantities{"all"};  ///< the time series written (layout)
  std::vector<std::string> beads{"all"};       ///< whose per-particle series (output_beads.hpp)
  bool contacts = true;
  bool xdmf = true;                   ///< write NAME.xdmf beside the output for ParaView
  std::vector<double> arrival_beads;  ///< negative counts from the end
  double arrival_threshold = 0.1;
  double checkpoint_interval = 0.0;             ///< wall-clock [s]; 0: only on a signal
  double max_file_size = 4e9;                   ///< [bytes] the output (HDF5 + XDMF) at most
  Compression compression = Compression::gzip;  ///< of the time series
  OutputDimension dimension = OutputDimension::automatic;
};

/// [material.NAME]
struct MaterialSpec {
  double youngs_modulus = 0.0;  ///< [Pa]
  double poisson_ratio = 0.0;
  double density = 0.0;                ///< [kg/m^3]
  std::optional<double> yield_stress;  ///< [Pa]
};

/// [contact.A.B]: the contact model of materials A and B, or of a wall (A or B: wall_start,
/// wall_end) and a material. What the section does not give it takes from [contact]: its law,
/// and those of [contact]'s parameters that its law takes.
struct PairContactSpec {
  std::optional<std::string> law;  ///< nullopt: [contact]'s
  /// nullopt: [contact]'s; a value holding nullopt: the pair's law's own policy ("law").
  std::optional<std::optional<TensionPolicy>> tension;
  std::map<std::string, double, std::less<>> params;  ///< given in the section, by name
};

/// Every section of a case.
struct CaseSpec {
  SimulationSpec simulation;
  ContactSpec contact;
  ChainSpec chain;
  StrikerSpec striker;
  WallSpec wall_start, wall_end;
  GravitySpec gravity;
  ExtraSpec extra;
  InitialSpec initial;
  OutputSpec output;
  std::map<std::string, MaterialSpec> materials;  ///< by NAME, sorted
  /// [contact.A.B] sections by "A.B", as written, sorted.
  std::map<std::string, PairContactSpec> contact_pairs;
};

/// The typed case of a validated configuration (values as read, defaults filled in).
CaseSpec read_case_spec(const CaseConfig& config);

/// The key that sets `field`, a field of `spec` (of a section, a material, or a law parameter in
/// ContactSpec::params): "chain.gap". Throws std::logic_error for anything else.
std::string key_of(const CaseSpec& spec, const void* field);

/// The key of law parameter `name` of the [contact] section: "contact.NAME".
std::string contact_param_key(std::string_view name);
/// The NAME of a [contact] key ("contact.restitution" gives "restitution"); nullopt for a key of
/// another section.
std::optional<std::string> contact_param_name(std::string_view key);

/// The key of a field of the [contact.A.B] section `pair` ("A.B"):
/// pair_key_name("steel.ptfe", &PairContactSpec::law) is "contact.steel.ptfe.law".
template <class T>
std::string pair_key_name(const std::string& pair, T PairContactSpec::*field) {
  CaseSpec spec;
  return key_of(spec, &(spec.contact_pairs[pair].*field));
}
/// The key of law parameter `name` of the [contact.A.B] section `pair`.
std::string pair_param_key(const std::string& pair, std::string_view name);
/// `pair` ("A.B") as the case `config` writes it: "B.A" when it has a [contact.B.A] section and
/// no [contact.A.B] (the order of A and B does not matter).
std::string pair_as_written(const CaseConfig& config, const std::string& pair);

/// The key of a field of a section, where there is no case to read it from (a command's option
/// that takes a key's range, a key a command sets itself):
/// key_name(&CaseSpec::chain, &ChainSpec::gap) is "chain.gap".
template <class S, class T>
std::string key_name(S CaseSpec::*section, T S::*field) {
  static const CaseSpec blank{};
  return key_of(blank, &(blank.*section.*field));
}

/// The key of a field of material `name`: "material.NAME.density".
template <class T>
std::string material_key_name(const std::string& name, T MaterialSpec::*field) {
  CaseSpec spec;
  return key_of(spec, &(spec.materials[name].*field));
}

/// True when `key` is declared to say how a run is carried out, not what it computes
/// (KeySpec::changes_no_result).
bool changes_no_result(const std::string& key);

/// The declaration of `key`, a key of a section or of a [material.NAME] section; nullopt for a
/// key that is not declared.
std::optional<KeySpec> find_key(std::string_view key);
/// The declaration of `key` if it is a key of a section of its own (not of a [material.NAME] or
/// [contact.A.B] section), without a copy of it (a law key's lists every law); else null.
const KeySpec* find_section_key(std::string_view key);

/// A case as the set-up reads it: its typed sections, and where each value came from, so that a
/// message about a field names its key ("--set chain.gap" or "case.ini: chain.gap").
class Case {
 public:
  explicit Case(const CaseConfig& config) : config_(config), spec_(read_case_spec(config)) {}

  const CaseSpec& spec() const { return spec_; }
  const CaseConfig& config() const { return config_; }

  /// The key of a field of spec(): "chain.gap".
  template <class T>
  std::string key(const T& field) const {
    return key_of(spec_, &field);
  }
  /// Where the field's value comes from: "--set chain.gap" or "FILE: chain.gap".
  template <class T>
  std::string where(const T& field) const {
    return config_.where(key(field));
  }
  /// True when the user gave the field's key, false when it holds a default.
  template <class T>
  bool given(const T& field) const {
    return config_.given(key(field));
  }
  /// True when the command line (--set, a sweep's [set] or axes) gave it.
  template <class T>
  bool from_command_line(const T& field) const {
    return config_.from_command_line(key(field));
  }
  /// Throws CaseError naming the field's key and where it came from.
  template <class T>
  [[noreturn]] void fail(const T& field, const std::string& what) const {
    config_.fail(key(field), what);
  }

 private:
  const CaseConfig& config_;
  CaseSpec spec_;
};

}  // namespace chaindem
