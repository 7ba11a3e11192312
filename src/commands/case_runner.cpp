#include "chaindem/commands/case_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>

#include "chaindem/commands/progress.hpp"
#include "chaindem/engine/law_validity.hpp"
#include "chaindem/engine/state_archive.hpp"
#include "chaindem/output/checkpoint_file.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/output/side_files.hpp"
#include "chaindem/output/stacked_writer.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"
#include "shadow_run.hpp"

namespace chaindem {

using layout::RunSummary;

namespace {

using Clock = std::chrono::steady_clock;
constexpr double divergence_limit = 0.1;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

volatile std::sig_atomic_t stop_signal = 0;
extern "C" void chaindem_request_stop(int signal) {
  stop_signal = signal;
}

}  // namespace

std::atomic<bool> handlers_held{false};

void install_stop_handlers() {
  if (handlers_held) return;  // the embedding process installed them for all its commands
  stop_signal = 0;  // a fresh watch: a process that runs several commands (Python) reuses it
  // SIGHUP: the terminal or ssh connection closed. Like SIGTERM, a request to stop that keeps
  // what was computed, not a reason to die mid-write.
  for (const int s : stop_signals()) std::signal(s, chaindem_request_stop);
}

std::span<const int> stop_signals() {
  static constexpr int all[] = {SIGINT, SIGTERM, SIGHUP};
  return all;
}

bool keeps_work(int signal) {
  return signal == SIGTERM || signal == SIGHUP;
}

void hold_stop_handlers(bool hold) {
  handlers_held = hold;
}

const volatile std::sig_atomic_t* stop_flag() {
  return &stop_signal;
}

namespace {

// Makes a run's writer: from the run, its simulation and, when the writer records them, the
// run's metadata (gathered only when asked for: a stacked sweep's case needs none).
using WriterFactory = std::function<std::unique_ptr<RunWriter>(
    const RunSetup&, const Simulation&, const std::function<RunMetadata()>& metadata)>;

// What the run's file records of its parameters, beside the case itself.
RunMetadata run_metadata(const CaseConfig& cfg, const RunSetup& run, const Simulation& sim,
                         const std::map<std::string, std::string>& labels) {
  RunMetadata meta;
  meta.parameters = cfg.resolved();
  meta.case_text = cfg.source_text();
  meta.case_origin = cfg.origin();
  meta.time_step_note = run.time_step_note;
  meta.derived = {{"time_step", sim.time_step()},
                  {"steps", static_cast<double>(run.steps)},
                  {"output_every_steps", static_cast<double>(run.output_every)},
                  {"skin", sim.settings().skin},
                  {"threads", sim.settings().threads}};
  meta.expected_frames = run.steps / run.output_every + 2;
  meta.steps = run.steps;
  meta.output_every = run.output_every;
  meta.compression = run.spec.output.compression;
  meta.labels = labels;
  meta.model_sections = run.model_sections;
  meta.xdmf = writes_xdmf(run);
  return meta;
}

// Energy balance, relative to the largest energy that has taken part so far.
struct EnergyBalance {
  EnergyReport initial;
  double scale = 0.0;
  double worst = 0.0;  // over the output frames

  double error(const EnergyReport& e) {
    const double involved = e.kinetic + e.stored + std::abs(e.dissipated) + std::abs(e.wall_work) +
                            std::abs(e.external_potential - initial.external_potential);
    // An energy that is not finite is a diverged state (std::max would keep the old scale).
    if (!std::isfinite(involved) || !std::isfinite(e.balance()))
      return std::numeric_limits<double>::infinity();
    scale = std::max(scale, involved);
    return scale > 0.0 ? std::abs(e.balance() - initial.balance()) / scale : 0.0;
  }
};

// Writes one output frame (if the run has a writer) and checks the energy balance at it.
void write_frame(const Simulation& sim, RunWriter* writer, EnergyBalance& balance) {
  const EnergyReport energies = sim.energies();
  if (writer) writer->write_frame(sim, energies);
  const double error = balance.error(energies);
  balance.worst = std::max(balance.worst, error);
  // An explicit integration that gains or loses this much energy has gone unstable; stop
  // rather than write a file of nonsense.
  if (!(error < divergence_limit)) {
    std::ostringstream m;
    m << "the integration diverged at t = " << sim.time() << " s (energy balance error " << error
      << " of the energy involved). Reduce "
      << key_name(&CaseSpec::simulation, &SimulationSpec::time_step) << " or raise "
      << key_name(&CaseSpec::simulation, &SimulationSpec::steps_per_contact) << "; under "
      << key_name(&CaseSpec::contact, &ContactSpec::impact_velocity) << " = onset, raise "
      << contact_param_key("impact_velocity_floor");
    throw std::runtime_error(m.str());
  }
}

// The results before the run: the beads the case watches for the pulse (build_run resolved and
// checked them), not yet reached. The per-bead extremes are the simulation's own
// (track_extremes) until the run ends: take_bead_extremes copies them then, once the simulation
// has freed the rest of its memory, so that the run never holds them twice beside it.
RunSummary empty_summary(const RunSetup& run) {
  RunSummary summary;
  summary.arrival_beads = run.arrival_beads;
  summary.arrival_time.assign(summary.arrival_beads.size(), nan);
  return summary;
}

// Pulse arrival: the first time each watched bead moves at the arrival speed, a fraction
// (output.arrival_threshold) of the fastest body or wall at the start.
struct ArrivalWatch {
  std::vector<Eigen::Index> particles;  // the watched beads
  double speed = 0.0;

  template <class SpeedOf>
  void observe(RunSummary& summary, SpeedOf&& speed_of, double time) const {
    if (speed > 0.0)
      for (std::size_t a = 0; a < summary.arrival_beads.size(); ++a)
        if (std::isnan(summary.arrival_time[a]) && speed_of(a) >= speed)
          summary.arrival_time[a] = time;
  }
};

ArrivalWatch watch_arrival(const RunSetup& run, Simulation& sim, const RunSummary& summary) {
  const Scene& scene = sim.scene();
  double reference_speed = sim.particles().velocity.matrix().rowwise().norm().maxCoeff();
  for (const auto& w : scene.walls) reference_speed = std::max(reference_speed, w.velocity.norm());
  ArrivalWatch arrival;
  arrival.speed = run.spec.output.arrival_threshold * reference_speed;
  for (const Eigen::Index b : summary.arrival_beads)
    arrival.particles.push_back(scene.chain_first + b);
  // Per step only the watched beads (Simulation::watch records them for each step).
  sim.watch({}, arrival.particles);
  return arrival;
}

// The restitutions of some isolated contacts: how many, their sum and extremes.
struct RestitutionTally {
  std::int64_t count = 0;
  double sum = 0.0, min = nan, max = nan;

  void add(double e) {
    min = count == 0 ? e : std::min(min, e);
    max = count == 0 ? e : std::max(max, e);
    ++count;
    sum += e;
  }
  double mean() const { return count > 0 ? sum / static_cast<double>(count) : nan; }
};

// Contacts that began from apart and ended without either body touching anything else: the
// only contacts of a chain whose restitution is a binary impact's. Tallied over all of them and
// per contact model (a case of several media: steel on steel, steel on PTFE, ...).
struct IsolatedContacts {
  RestitutionTally all;
  double first_restitution = nan, first_impact_velocity = nan;
  std::vector<RestitutionTally> by_model;

  explicit IsolatedContacts(int models = 1) : by_model(static_cast<std::size_t>(models)) {}
  void observe(const Simulation& sim) {
    for (const auto& ic : sim.isolated_contacts()) {
      if (all.count == 0) {
        first_restitution = ic.restitution;
        first_impact_velocity = ic.impact_velocity;
      }
      all.add(ic.restitution);
      by_model[static_cast<std::size_t>(ic.model)].add(ic.restitution);
    }
  }
  void save(StateArchive& a) const {
    a.put_value("isolated", all);
    a.put_value("isolated_first", std::array{first_restitution, first_impact_velocity});
    a.put("isolated_by_model", by_model);
  }
  void restore(const StateArchive& a) {
    all = a.get_value<RestitutionTally>("isolated");
    const auto first = a.get_value<std::array<double, 2>>("isolated_first");
    first_restitution = first[0];
    first_impact_velocity = first[1];
    std::vector<RestitutionTally> saved;
    a.get("isolated_by_model", saved);
    if (saved.size() != by_model.size())
      throw StateArchiveError("checkpoint tallies " + std::to_string(saved.size()) +
                              " contact models; this case has " + std::to_string(by_model.size()));
    by_model = saved;
  }
};

// What the run's observers have gathered so far, saved with the simulation's state so that a
// continued run reports what an uninterrupted one would.
struct RunRecords {
  EnergyBalance balance;
  IsolatedContacts isolated;
  RunSummary summary;
  double wall_time = 0.0;  // of the steps before this invocation [s]

  void save(StateArchive& a, double wall_time_now) const {
    a.put_value("balance", balance);
    isolated.save(a);
    a.put("arrival_time", summary.arrival_time);
    a.put_value("wall_time", wall_time_now);
  }
  void restore(const StateArchive& a) {
    balance = a.get_value<EnergyBalance>("balance");
    isolated.restore(a);
    std::vector<double> arrival;
    a.get("arrival_time", arrival);
    if (arrival.size() != summary.arrival_time.size())
      throw StateArchiveError("checkpoint watches " + std::to_string(arrival.size()) +
                              " beads for the pulse; this case watches " +
                              std::to_string(summary.arrival_time.size()));
    summary.arrival_time = arrival;
    wall_time = a.get_value<double>("wall_time");
  }
};

// Writes a run's checkpoints (checkpoint_file.hpp): the output synced to disk first, so that the
// checkpoint never counts frames the file may not hold. Only a run's own file has checkpoints.
struct Checkpointer {
  const CheckpointPlan* plan = nullptr;
  std::string path;
  std::map<std::string, std::string> parameters;
  H5mdWriter* writer = nullptr;       // the run's file
  const ShadowRun* shadow = nullptr;  // its error estimate's second simulation, if any
  Clock::time_point last = Clock::now();

  bool due() const {
    return plan->interval > 0.0 &&
           std::chrono::duration<double>(Clock::now() - last).count() >= plan->interval;
  }
  void write(const Simulation& sim, const RunRecords& records, double wall_time_now) {
    Checkpoint cp;
    const OutputPosition at = writer->sync();
    cp.step = sim.step_count();
    cp.time = sim.time();
    cp.frames = at.frames;
    cp.contact_rows = at.contact_rows;
    cp.parameters = parameters;
    sim.save_state(cp.simulation);
    records.save(cp.run, wall_time_now);
    if (shadow) shadow->save(cp.run);
    write_checkpoint(path, cp);
    last = Clock::now();
  }
};

// Runs the steps, observing every step and writing every output frame (none without a
// `writer`; `checkpoints` need one); returns the wall time [s]. A continued run (`resumed`) has
// its first frame in the file already.
double run_steps(Simulation& sim, const RunSetup& run, const RunControl& control, RunWriter* writer,
                 RunRecords& records, const ArrivalWatch& arrival, Checkpointer* checkpoints,
                 bool resumed, ShadowRun* estimate) {
  Progress progress(control.progress, run.steps, "run", "steps", false);
  const auto start = Clock::now();
  auto wall_time = [&] {
    return records.wall_time + std::chrono::duration<double>(Clock::now() - start).count();
  };
  const Particles& p = sim.particles();
  RunSummary& summary = records.summary;
  if (!resumed) {
    arrival.observe(
        summary,
        [&](std::size_t a) { return p.velocity.row(arrival.particles[a]).matrix().norm(); },
        sim.time());
    write_frame(sim, writer, records.balance);
    if (estimate) estimate->at_frame(sim);
  }
  // Steps in chunks of at most 256 that end at every frame (progress, interruption).
  constexpr std::int64_t chunk = 256;
  while (sim.step_count() < run.steps) {
    if (control.stop && *control.stop) {
      // SIGTERM, what batch systems send before they kill a job (or SIGHUP, a closed terminal):
      // keep what was computed. A run
      // that continues a checkpoint keeps it on any stop: what was computed before this
      // invocation is not its to discard.
      if (checkpoints && (keeps_work(*control.stop) || resumed)) {
        checkpoints->write(sim, records, wall_time());
        checkpoints->writer->keep_partial();
        throw Interrupted(*control.stop, sim.time(), checkpoints->path);
      }
      throw Interrupted(*control.stop, sim.time());
    }
    const std::int64_t at = sim.step_count();
    const std::int64_t steps =
        std::min({run.steps - at, run.output_every - at % run.output_every, chunk});
    sim.advance(steps);
    const Simulation::StepLog& log = sim.step_log();
    const std::size_t beads = arrival.particles.size();
    for (std::int64_t s = 0; s < steps; ++s) {
      const auto e = static_cast<std::size_t>(s);
      arrival.observe(
          summary, [&](std::size_t a) { return log.speed[e * beads + a]; },
          static_cast<double>(at + s + 1) * sim.time_step());
    }
    records.isolated.observe(sim);
    if (sim.step_count() % run.output_every == 0 || sim.step_count() == run.steps) {
      write_frame(sim, writer, records.balance);
      if (estimate) estimate->at_frame(sim);
    }
    if (checkpoints && checkpoints->due() && sim.step_count() < run.steps)
      checkpoints->write(sim, records, wall_time());
    progress.update(sim.step_count());  // prints at most every 0.5 s (terminal) or 10 s
  }
  return wall_time();
}

// How each kind of contact did against its law's stated validity (law_validity.hpp), and how
// many left it.
void summarise_validity(RunSummary& summary, const Simulation& sim) {
  summary.validity.clear();
  for (const ValidityCheck& c : check_validity(sim))
    summary.validity.push_back({.model = c.model,
                                .law = std::string(c.law->id),
                                .contacts = c.contacts,
                                .largest_strain = c.largest_strain,
                                .strain_bound = c.strain_bound,
                                .largest_impact_speed = c.largest_impact_speed,
                                .impact_speed_bound = c.impact_speed_bound,
                                .largest_pressure = c.largest_pressure,
                                .pressure_bound = c.pressure_bound,
                                .left = c.left() ? 1 : 0,
                                .exceeded = c.exceeded});
  summary.left_validity = std::count_if(summary.validity.begin(), summary.validity.end(),
                                        [](const layout::ValiditySummary& v) { return v.left; });
}

// The results of the finished run but the per-bead extremes (take_bead_extremes): scalars and
// the policies they depend on.
void finish_summary(RunSummary& summary, const Simulation& sim, const RunSetup& run,
                    EnergyBalance& balance, const IsolatedContacts& isolated, double wall_time,
                    double striker_initial_velocity) {
  const Scene& scene = sim.scene();
  const Particles& p = sim.particles();
  const Eigen::Index first = scene.chain_first, count = scene.chain_count;
  const double* peak_force = sim.peak_contact_force().data();

  const Eigen::Index last = first + count - 1;
  const EnergyReport e = sim.energies();
  const double final_balance_error = balance.error(e);
  const double bead_steps = static_cast<double>(p.size()) * static_cast<double>(run.steps);
  summary.steps = run.steps;
  summary.time_step = sim.time_step();
  summary.simulated_time = sim.time();
  summary.wall_time = wall_time;
  summary.ns_per_bead_step = 1e9 * wall_time / std::max(bead_steps, 1.0);
  summary.first_bead_final_velocity = p.velocity(first, 0);
  summary.last_bead_final_velocity = p.velocity(last, 0);
  summary.isolated_contacts = isolated.all.count;
  summary.isolated_restitution_mean = isolated.all.mean();
  summary.isolated_restitution_min = isolated.all.min;
  summary.isolated_restitution_max = isolated.all.max;
  summary.first_isolated_restitution = isolated.first_restitution;
  summary.first_isolated_impact_velocity = isolated.first_impact_velocity;
  summary.largest_contact_force = *std::max_element(peak_force + first, peak_force + first + count);
  summary.energy_balance_error = final_balance_error;
  summary.energy_balance_error_max = balance.worst;
  summary.initial_energy = balance.initial.balance();
  summary.energy = e;
  summary.impact_velocity_floor_hits = sim.impact_velocity_floor_hits();
  summary.neighbor_rebuilds = sim.neighbor_rebuilds();
  if (scene.striker) {
    summary.striker_final_velocity = p.velocity(*scene.striker, 0);
    // Its velocity after over before, along the chain: 1 for a full rebound, < 0 if it follows.
    summary.striker_rebound_ratio = striker_initial_velocity != 0.0
                                        ? -p.velocity(*scene.striker, 0) / striker_initial_velocity
                                        : nan;
  }
  const SimulationSettings& settings = sim.settings();
  bool uses_v0 = false;
  for (int k = 0; k < settings.model_count(); ++k)
    uses_v0 = uses_v0 || settings.model(k).law->uses_impact_velocity();
  summary.impact_velocity = uses_v0 ? std::string(to_string(settings.impact_velocity)) : "none";
  if (settings.model_count() > 1) {
    const std::vector<double> dissipated = sim.dissipated_by_model();
    for (int k = 0; k < settings.model_count(); ++k) {
      const auto m = static_cast<std::size_t>(k);
      const RestitutionTally& t = isolated.by_model[m];
      const bool named = m < run.model_sections.size();  // a RunSetup built by build_run
      summary.models.push_back(
          {.section = named ? run.model_sections[m] : "model " + std::to_string(k),
           .law = std::string(settings.model(k).law->id),
           .dissipated_energy = dissipated[m],
           .isolated_contacts = t.count,
           .isolated_restitution_mean = t.mean(),
           .isolated_restitution_min = t.min,
           .isolated_restitution_max = t.max});
    }
  }
  summarise_validity(summary, sim);
  summary.integrator = to_string(settings.integrator);
  if (const auto it = settings.law_params.find("impact_velocity_floor");
      it != settings.law_params.end())
    summary.impact_velocity_floor = it->second;
}

// The per-bead extremes of the chain's beads into `summary`, taken from the finished simulation,
// which frees its memory first (Simulation::take_extremes).
void take_bead_extremes(RunSummary& summary, Simulation&& sim) {
  const Eigen::Index first = sim.scene().chain_first, count = sim.scene().chain_count;
  const Simulation::Extremes peaks = std::move(sim).take_extremes();
  summary.max_contact_force.assign(peaks.contact_force.data() + first,
                                   peaks.contact_force.data() + first + count);
  summary.peak_velocity.assign(peaks.velocity_x.data() + first,
                               peaks.velocity_x.data() + first + count);
}

// A run that continues from a checkpoint: the checkpoint, and the partial file that holds the
// frames before it.
struct Resume {
  Checkpoint checkpoint;
  std::string previous;
};

PendingRun simulate_case(const CaseConfig& cfg, RunSetup run, const WriterFactory& make_writer,
                         const RunControl& control,
                         const std::map<std::string, std::string>& labels,
                         const std::string& output, const Resume* resume) {
  std::optional<ShadowRun> estimate;
  if (estimates_error(run, control.own_run)) estimate.emplace(run.scene, run.settings);
  Simulation sim(std::move(run.scene), run.settings);
  sim.track_extremes();  // largest force and v_x per bead, inside the step's loops
  // Without a factory the run writes nothing: no metadata is gathered, no frame copied.
  std::unique_ptr<RunWriter> writer =
      make_writer ? make_writer(run, sim, [&] { return run_metadata(cfg, run, sim, labels); })
                  : nullptr;

  RunRecords records{EnergyBalance{sim.energies()}, IsolatedContacts(sim.settings().model_count()),
                     empty_summary(run)};
  const ArrivalWatch arrival = watch_arrival(run, sim, records.summary);
  const Scene& scene = sim.scene();
  const double striker_initial_velocity =
      scene.striker ? sim.particles().velocity(*scene.striker, 0) : nan;

  // A run with checkpoints, or continuing one, writes its own file (run_to_file).
  H5mdWriter* const own_file = dynamic_cast<H5mdWriter*>(writer.get());
  std::optional<Checkpointer> checkpoints;
  if (control.checkpoint)
    checkpoints = Checkpointer{control.checkpoint, checkpoint_path_for(output), cfg.resolved(),
                               own_file, estimate ? &*estimate : nullptr};
  if (resume) {  // everything built as at the start; now the state of the checkpoint
    try {
      sim.restore_state(resume->checkpoint.simulation);
      records.restore(resume->checkpoint.run);
      if (estimate) estimate->restore(resume->checkpoint.run);
    } catch (const StateArchiveError& e) {
      throw CheckpointError(e.what());
    }
    own_file->continue_from(resume->previous,
                            {resume->checkpoint.frames, resume->checkpoint.contact_rows});
    own_file->sync();  // the frames before the checkpoint are in the new file, on disk
    std::filesystem::remove(resume->previous);
  }

  const double wall_time = run_steps(sim, run, control, writer.get(), records, arrival,
                                     checkpoints ? &*checkpoints : nullptr, resume != nullptr,
                                     estimate ? &*estimate : nullptr);
  finish_summary(records.summary, sim, run, records.balance, records.isolated,
                 wall_time - (estimate ? estimate->seconds() : 0.0), striker_initial_velocity);
  if (estimate) estimate->finish(records.summary);
  estimate.reset();  // its simulation too is freed before the extremes are copied
  take_bead_extremes(records.summary, std::move(sim));
  if (writer) writer->computed();
  return PendingRun(std::move(records.summary), std::move(writer));
}

// simulate_case, its engine's faults said in the case's terms.
PendingRun run_case(const CaseConfig& cfg, RunSetup run, const WriterFactory& make_writer,
                    const RunControl& control,
                    const std::map<std::string, std::string>& labels = {},
                    const std::string& output = "", const Resume* resume = nullptr) {
  try {
    return simulate_case(cfg, std::move(run), make_writer, control, labels, output, resume);
  } catch (const EngineFault& fault) {
    throw EngineFault(fault.facts, case_fault_text(fault));
  }
}

// Reads the checkpoint of `output` for this case and sets the partial file it continues aside
// as `output`.partial.previous (a restart that stopped before taking over its frames left it
// there already).
Resume prepare_resume(const CaseConfig& cfg, const std::string& output) {
  Resume r;
  const std::string path = checkpoint_path_for(output);
  r.checkpoint = read_checkpoint(path);
  if (const std::string d =
          parameter_difference(r.checkpoint.parameters, cfg.resolved(), changes_no_result);
      !d.empty())
    throw CheckpointError("the checkpoint '" + quoted_path(path) + "' is of another case: " + d +
                          " (run the command that wrote it, with --restart)");
  r.previous = output + ".partial.previous";
  const std::string partial = output + ".partial";
  std::error_code ec;
  if (!std::filesystem::exists(r.previous, ec)) {
    if (!std::filesystem::is_regular_file(partial, ec))
      throw CheckpointError("the partial output '" + quoted_path(partial) +
                            "' that the checkpoint '" + quoted_path(path) +
                            "' continues is missing");
    std::filesystem::rename(partial, r.previous, ec);
    if (ec)
      throw OutputError("cannot write '" + quoted_path(output) + "': renaming " +
                        quoted_path(partial) + ": " + ec.message());
  }
  return r;
}

}  // namespace

std::string case_fault_text(const EngineFault& fault) {
  const std::string finer_steps =
      "reduce simulation.time_step or raise simulation.steps_per_contact";
  if (fault.facts.kind == EngineFault::Kind::too_deep)
    return std::string(fault.what()) +
           ": lower the speeds (striker.velocity) or the loads, or choose stiffer materials; if "
           "the contact lasts only a few steps, " +
           finer_steps;
  return std::string(fault.what()) + " (" + finer_steps + ")";
}

PendingRun::PendingRun(RunSummary summary, std::unique_ptr<RunWriter> writer)
    : summary_(std::move(summary)), writer_(std::move(writer)) {}
PendingRun::PendingRun(PendingRun&&) noexcept = default;
PendingRun& PendingRun::operator=(PendingRun&&) noexcept = default;
PendingRun::~PendingRun() = default;

std::size_t PendingRun::buffered_bytes() const {
  return writer_ ? writer_->buffered_bytes() : 0;
}

void PendingRun::commit() {
  if (writer_) writer_->finish(summary_);
}

namespace {

// After a failure or an interruption without checkpoint: the partial output is gone, so its
// checkpoint goes too, unless the run was continuing one whose frames it had not taken over
// yet; the earlier partial file then returns to its place, to be continued again.
void forget(const std::string& path, const std::optional<Resume>& resume) {
  std::error_code ec;
  if (resume && std::filesystem::exists(resume->previous, ec))
    std::filesystem::rename(resume->previous, path + ".partial", ec);
  else
    std::remove(checkpoint_path_for(path).c_str());
}

// A new run of `path`: what an interrupted run of it left (its checkpoint, the partial file the
// checkpoint continues) is deleted, but for a checkpoint this case could continue, which only
// `discard` deletes: computed work is not lost because --restart was forgotten. What is deleted
// is said on `note`.
void discard_earlier_run(const CaseConfig& cfg, const std::string& path, bool discard,
                         std::ostream& note) {
  const std::string checkpoint = checkpoint_path_for(path);
  const std::string previous = path + ".partial.previous";
  if (!identity_of(checkpoint).exists) {
    std::remove(previous.c_str());
    return;
  }
  std::string what = "the checkpoint '" + quoted_path(checkpoint) + "'";
  bool continuable = false;
  try {
    const Checkpoint cp = read_checkpoint(checkpoint);
    const std::string difference =
        parameter_difference(cp.parameters, cfg.resolved(), changes_no_result);
    continuable = difference.empty();
    what += " (stopped at t = " + rounded_text(cp.time, 6) + " s" +
            (continuable ? "" : "; of another case: " + difference) + ")";
  } catch (const std::exception& e) {  // damaged, or of another build: nothing can continue it
    what += " (which cannot be continued: " + std::string(e.what()) + ")";
  }
  if (continuable && !discard)
    throw CheckpointError(what +
                          " holds this case's interrupted run: run the same command with "
                          "--restart to continue it, or with --discard-checkpoint to "
                          "start over, deleting it");
  std::remove(checkpoint.c_str());
  std::remove(previous.c_str());
  note << "chaindem: note: deleted " << what << " and the partial output it continued; this run "
       << "starts over\n";
}

}  // namespace

RunSummary run_to_file(const CaseConfig& cfg, RunSetup run, const std::string& path,
                       Existing existing, const RunControl& control) {
  const CheckpointPlan* plan = control.checkpoint;
  // SWMR keeps the file on disk consistent whatever happens to the process: needed by periodic
  // checkpoints, and by a restart, whose checkpoint counts frames of the file it now writes.
  const bool swmr = plan && (plan->interval > 0.0 || plan->restart);
  auto make_writer = [&](const RunSetup& setup, const Simulation& sim,
                         const std::function<RunMetadata()>& metadata) {
    return std::make_unique<H5mdWriter>(path, existing, metadata(), sim, setup.output, swmr);
  };
  if (!plan) {
    PendingRun done = run_case(cfg, std::move(run), make_writer, control);
    done.commit();
    return done.summary();
  }
  const std::string checkpoint = checkpoint_path_for(path);
  const OutputLock lock(path);  // held from the checkpoint's first reading to the end
  std::optional<Resume> resume;
  // A writer whose lock file was removed under it still marks its partial file: nothing of its
  // is touched. A stale checkpoint.partial that cannot be removed would fail the first
  // checkpoint, losing the run: refused now.
  refuse_if_in_use(path + ".partial", path, side_file_role(".partial"));
  remove_stale(checkpoint + ".partial", path, side_file_role(".checkpoint.partial"));
  if (plan->restart)
    resume = prepare_resume(cfg, path);
  else
    discard_earlier_run(cfg, path, plan->discard, std::cerr);
  try {
    PendingRun done =
        run_case(cfg, std::move(run), make_writer, control, {}, path, resume ? &*resume : nullptr);
    done.commit();
    std::remove(checkpoint.c_str());
    return done.summary();
  } catch (const Interrupted& e) {
    if (!e.checkpoint.empty()) throw;  // kept, with its partial file
    forget(path, resume);
    throw;
  } catch (...) {
    forget(path, resume);
    throw;
  }
}

PendingRun run_to_group(const CaseConfig& cfg, RunSetup run, std::int64_t parent,
                        const std::string& name, std::mutex* lock, const RunControl& control,
                        const std::map<std::string, std::string>& labels) {
  return run_case(
      cfg, std::move(run),
      [&](const RunSetup& setup, const Simulation& sim,
          const std::function<RunMetadata()>& metadata) {
        return std::make_unique<H5mdWriter>(parent, name, metadata(), sim, setup.output, lock);
      },
      control, labels);
}

PendingRun run_to_stacked(const CaseConfig& cfg, RunSetup run, StackedFile& file, std::size_t index,
                          std::mutex* lock, const RunControl& control) {
  return run_case(
      cfg, std::move(run),
      [&](const RunSetup& setup, const Simulation& sim, const std::function<RunMetadata()>&) {
        return std::make_unique<StackedCase>(file, index, sim, setup.output, setup.steps,
                                             setup.output_every, setup.spec.output.compression,
                                             lock);
      },
      control);
}

RunSetup step_for_accuracy(const CaseConfig& cfg, RunSetup run, std::ostream* progress) {
  const double wanted = run.spec.simulation.accuracy;
  if (!(wanted > 0.0)) return run;
  // The steps per contact the first run takes: more than simulation.steps_per_contact where its
  // step was fitted to the output interval, or to the damping.
  const double taken = run.contact_time / run.settings.time_step;
  RunSetup first = run;
  first.spec.simulation.error_estimate = ErrorEstimate::on;
  if (progress)
    *progress << "chaindem: simulation.accuracy = " << wanted << ": a first run at " << taken
              << " steps per contact estimates the error\n";
  const RunSummary s =
      run_summary_only(cfg, std::move(first), RunControl{progress, stop_flag(), nullptr, true});
  if (!s.error_estimate)
    throw std::runtime_error(
        "simulation.accuracy: the error of a first run could not be estimated (its second "
        "simulation, at half the step, failed): give simulation.steps_per_contact instead");
  std::ostringstream note;
  note << "; for simulation.accuracy = " << wanted << ", a first run at " << taken
       << " steps per contact estimated " << *s.error_estimate;
  if (*s.error_estimate <= wanted) {
    run.time_step_note += note.str() + ", within it";
    return run;
  }
  // The error goes as dt^2; a tenth more steps for the estimate's own error.
  const double chosen = taken * std::sqrt(*s.error_estimate / wanted) * 1.1;
  RunSetup better = build_run(cfg, {.steps_per_contact = chosen});
  note << ": this run takes " << chosen << " steps per contact";
  better.time_step_note += note.str();
  return better;
}

layout::RunSummary run_summary_only(const CaseConfig& cfg, RunSetup run,
                                    const RunControl& control) {
  return run_case(cfg, std::move(run), nullptr, control).summary();
}

}  // namespace chaindem
