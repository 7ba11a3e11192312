#pragma once
// Turns a validated case into a scene and engine settings: the chain builders (uniform,
// repeating pattern, tapered, explicit list), striker, walls, loads, an initial state from data
// (initial.file), and the time step.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/output_layout.hpp"
#include "chaindem/setup/case_spec.hpp"

namespace chaindem {

struct RunSetup {
  CaseSpec spec;  ///< the typed case it was built from
  Scene scene;
  SimulationSettings settings;
  /// Whether the chain engine will step it (forms_chain, and no engine = general), as build_run
  /// found once the scene was laid out: the estimates ask it several times, and each answer
  /// reads every particle.
  bool chain_engine = false;
  double duration = 0.0;          ///< [s]
  std::int64_t steps = 0;         ///< steps to run
  std::int64_t output_every = 1;  ///< steps between output frames
  /// The interval between frames the case asks for, or the automatic one within the output's
  /// budget (output_interval_note) [s].
  double output_interval = 0.0;
  /// The quantities its output writes over time.
  layout::OutputSelection output = layout::OutputSelection::all();
  /// The chain beads watched for the pulse (output.arrival_beads, negative ones resolved from the
  /// end), each checked to be in the chain.
  std::vector<long long> arrival_beads;
  std::string output_file;          ///< output.file of the case; empty when it gives none
  std::string time_step_note;       ///< how the time step was chosen
  std::size_t memory_estimate = 0;  ///< estimated_peak_memory(*this), as build_run left it [bytes]
  /// The shortest contact duration of the case at its largest relative speed, which the
  /// automatic step divides [s] (infinite when nothing moves).
  double contact_time = 0.0;
  /// What the run will write, estimated before it starts (estimate_output).
  struct OutputEstimate {
    std::int64_t frames = 0;
    std::size_t hdf5_bytes = 0;        ///< its frames before compression, at most
    std::size_t xdmf_bytes = 0;        ///< the XDMF file (0 without output.xdmf)
    std::size_t checkpoint_bytes = 0;  ///< one checkpoint of its state
  } estimate;
  /// Why the output interval is not the one asked for (an automatic interval that writes fewer
  /// frames to keep the output within output.max_file_size); empty when it is.
  std::string output_interval_note;
  /// Files the run reads besides the case file (initial.file, resolved): inputs that its output
  /// must not replace.
  std::vector<std::string> input_files;
  /// What the command should tell the user about how the case was read (law parameters that
  /// the chosen law does not take, ignored), one sentence each.
  std::vector<std::string> notes;
  /// The [contact] keys those notes name: a command that records the case reads it again
  /// without them (--unset), so that its recorded keys reproduce the run.
  std::vector<std::string> ignored_keys;
  /// The section of each contact model of settings: "contact" (model 0), "contact.A.B".
  std::vector<std::string> model_sections{"contact"};
};

struct BuildOptions {
  /// The law is chosen apart from the case's parameters (comparing laws on one case): every
  /// [contact] parameter the chosen law does not take is ignored, with a note. Otherwise only
  /// those the case file gives while the command line chose the law are (one rule for every
  /// command: docs/case-format.md, "Switching laws").
  bool ignore_foreign_law_params = false;
  /// > 0: replaces simulation.steps_per_contact (the step simulation.accuracy chose).
  double steps_per_contact = 0.0;
};

/// The peak resident memory of running `run` as `chaindem run` does, before anything is stepped
/// [bytes]: the program, the simulation on the engine it will take (particle columns, contact
/// lists, the engine's own per-particle and per-contact structures), the writer's frames (at
/// most two in memory: the one being written and the next; the writer's queue bound is a limit,
/// not an allocation) and buffers, and the first-touch records of the chain's pairs that touch
/// at the start. Within 30 % of the measured peak resident size for chains of 21 to 10^6 beads
/// (tests/cli/test_memory_estimate.py). Cheap: a few passes over the particles' columns.
std::size_t estimated_peak_memory(const RunSetup& run);

/// The most particles of a run whose error simulation.error_estimate = auto estimates: its
/// second simulation, at half the step, then takes at most ~50 MB beside it.
inline constexpr Eigen::Index auto_error_estimate_particles = 200000;
/// Whether a run of `run` estimates its time-discretisation error from a second simulation at
/// half its step (simulation.error_estimate): on; or auto for a run of its own (`own_run`: not a
/// case of a sweep, a comparison or a fit) of at most auto_error_estimate_particles particles.
inline bool estimates_error(const RunSetup& run, bool own_run) {
  switch (run.spec.simulation.error_estimate) {
    case ErrorEstimate::on:
      return true;
    case ErrorEstimate::off:
      return false;
    case ErrorEstimate::automatic:
      break;
  }
  return own_run && run.scene.particles.size() <= auto_error_estimate_particles;
}

/// Refuses (CaseError naming the key and where it was given) simulation.accuracy in a case of
/// `command` ("sweep", "compare", "fit"), which runs its cases at the step they give: the key
/// chooses the step of a run of its own (step_for_accuracy).
void refuse_accuracy(const CaseConfig& cfg, const RunSetup& run, std::string_view command);

/// Whether a run's own file gets the XDMF file beside it: output.xdmf, and frames to show.
inline bool writes_xdmf(const RunSetup& run) {
  return run.spec.output.xdmf && run.output.writes_frames();
}

/// Whether `run` will step on the chain engine (RunSetup::chain_engine).
inline bool steps_on_chain_engine(const RunSetup& run) {
  return run.chain_engine;
}
/// The components of each particle vector `run`'s output holds under output.dimension = auto:
/// 1 when the chain engine steps a chain on the x axis itself (y = z = 0, so they stay 0), else 3.
std::size_t automatic_components(const RunSetup& run);

/// What `run` will write (frames, HDF5 and XDMF bytes) and a checkpoint of it, estimated before
/// anything runs. The HDF5 figure is that of the frames before compression, an upper bound: a
/// chain that is mostly at rest compresses to a small part of it.
RunSetup::OutputEstimate estimate_output(const RunSetup& run);

/// Builds the scene and settings; throws CaseError naming the offending key.
RunSetup build_run(const CaseConfig& cfg, const BuildOptions& options = {});

/// Shortest characteristic contact time among the given pairs [s]: the elastic (Hertz) impact
/// duration at `speed` and, for pairs that start overlapped by delta0 > 0, the half period
/// pi sqrt(m*/k_lin) of small oscillations about that overlap. Infinite if nothing sets a scale.
/// Each entry: coefficients, effective mass, initial overlap.
struct TimeScalePair {
  PairCoeffs coeffs;
  double effective_mass;
  double initial_overlap;
  /// The law's kernel: line contacts that are not power laws are timed on their own curve.
  Kernel kernel = Kernel::power_law;
};
double shortest_contact_time(const std::vector<TimeScalePair>& pairs, double speed);

}  // namespace chaindem
