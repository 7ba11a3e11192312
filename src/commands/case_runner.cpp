#include "chaindem/commands/case_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include "chaindem/commands/progress.hpp"
#include "chaindem/io/h5md_writer.hpp"

namespace chaindem {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double divergence_limit = 0.1;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

volatile std::sig_atomic_t stop_signal = 0;
extern "C" void chaindem_request_stop(int signal) {
  stop_signal = signal;
}

}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, chaindem_request_stop);
  std::signal(SIGTERM, chaindem_request_stop);
}

const volatile std::sig_atomic_t* stop_flag() {
  return &stop_signal;
}

namespace {

using WriterFactory =
    std::function<std::unique_ptr<H5mdWriter>(const RunMetadata&, const Simulation&, bool)>;

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
  meta.labels = labels;
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

// Writes one output frame and checks the energy balance at it.
void write_frame(const Simulation& sim, H5mdWriter& writer, EnergyBalance& balance) {
  const EnergyReport energies = sim.energies();
  writer.write_frame(sim, energies);
  const double error = balance.error(energies);
  balance.worst = std::max(balance.worst, error);
  // An explicit integration that gains or loses this much energy has gone unstable; stop
  // rather than write a file of nonsense.
  if (!(error < divergence_limit)) {
    std::ostringstream m;
    m << "the integration diverged at t = " << sim.time() << " s (energy balance error " << error
      << " of the energy involved). Reduce simulation.time_step or raise "
         "simulation.steps_per_contact; under contact.impact_velocity = onset, raise "
         "contact.impact_velocity_floor";
    throw std::runtime_error(m.str());
  }
}

// The per-bead results, before the run: extremes at their starting values, and the beads the
// case watches for the pulse (build_run resolved and checked them), not yet reached.
CaseSummary empty_summary(const RunSetup& run, Eigen::Index count) {
  CaseSummary summary;
  summary.max_contact_force.assign(static_cast<std::size_t>(count), 0.0);
  summary.peak_velocity.assign(static_cast<std::size_t>(count),
                               -std::numeric_limits<double>::infinity());
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
  void observe(CaseSummary& summary, SpeedOf&& speed_of, double time) const {
    if (speed > 0.0)
      for (std::size_t a = 0; a < summary.arrival_beads.size(); ++a)
        if (std::isnan(summary.arrival_time[a]) && speed_of(a) >= speed)
          summary.arrival_time[a] = time;
  }
};

ArrivalWatch watch_arrival(const CaseConfig& cfg, Simulation& sim, const CaseSummary& summary) {
  const Scene& scene = sim.scene();
  double reference_speed = sim.particles().velocity.matrix().rowwise().norm().maxCoeff();
  for (const auto& w : scene.walls) reference_speed = std::max(reference_speed, w.velocity.norm());
  ArrivalWatch arrival;
  arrival.speed = cfg.number("output.arrival_threshold") * reference_speed;
  for (const Eigen::Index b : summary.arrival_beads)
    arrival.particles.push_back(scene.chain_first + b);
  // Per step only the watched beads (Simulation::watch records them for each step).
  sim.watch({}, arrival.particles);
  return arrival;
}

// Contacts that began from apart and ended without either body touching anything else: the
// only contacts of a chain whose restitution is a binary impact's.
struct IsolatedContacts {
  std::int64_t count = 0;
  double sum = 0.0, min = nan, max = nan;
  double first_restitution = nan, first_impact_velocity = nan;

  void observe(const Simulation& sim) {
    for (const auto& ic : sim.isolated_contacts()) {
      if (count++ == 0) {
        first_restitution = ic.restitution;
        first_impact_velocity = ic.impact_velocity;
        min = max = ic.restitution;
      }
      sum += ic.restitution;
      min = std::min(min, ic.restitution);
      max = std::max(max, ic.restitution);
    }
  }
};

// Runs the steps, observing every step and writing every output frame; returns the wall time
// [s].
double run_steps(Simulation& sim, const RunSetup& run, const RunControl& control,
                 H5mdWriter& writer, EnergyBalance& balance, const ArrivalWatch& arrival,
                 IsolatedContacts& isolated, CaseSummary& summary) {
  Progress progress(control.progress, run.steps, "run", "steps", false);
  const auto start = Clock::now();
  const Particles& p = sim.particles();
  arrival.observe(
      summary, [&](std::size_t a) { return p.velocity.row(arrival.particles[a]).matrix().norm(); },
      sim.time());
  write_frame(sim, writer, balance);
  // Steps in chunks of at most 256 that end at every frame (progress, interruption).
  constexpr std::int64_t chunk = 256;
  while (sim.step_count() < run.steps) {
    if (control.stop && *control.stop) throw Interrupted(*control.stop, sim.time());
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
    isolated.observe(sim);
    if (sim.step_count() % run.output_every == 0 || sim.step_count() == run.steps)
      write_frame(sim, writer, balance);
    progress.update(sim.step_count());  // prints at most every 0.5 s (terminal) or 10 s
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The results of the finished run: per-bead extremes, scalars and the policies they depend on.
void finish_summary(CaseSummary& summary, const Simulation& sim, const RunSetup& run,
                    EnergyBalance& balance, const IsolatedContacts& isolated, double wall_time,
                    double striker_initial_velocity) {
  const Scene& scene = sim.scene();
  const Particles& p = sim.particles();
  const Eigen::Index first = scene.chain_first, count = scene.chain_count;
  for (Eigen::Index k = 0; k < count; ++k) {
    summary.max_contact_force[static_cast<std::size_t>(k)] = sim.peak_contact_force()(first + k);
    summary.peak_velocity[static_cast<std::size_t>(k)] = sim.peak_velocity_x()(first + k);
  }

  const Eigen::Index last = first + count - 1;
  const EnergyReport e = sim.energies();
  const double final_balance_error = balance.error(e);
  const double bead_steps = static_cast<double>(p.size()) * static_cast<double>(run.steps);
  summary.scalars = {
      {"steps", static_cast<double>(run.steps)},
      {"time_step", sim.time_step()},
      {"simulated_time", sim.time()},
      {"wall_time", wall_time},
      {"ns_per_bead_step", 1e9 * wall_time / std::max(bead_steps, 1.0)},
      {"first_bead_final_velocity", p.velocity(first, 0)},
      {"last_bead_final_velocity", p.velocity(last, 0)},
      {"isolated_contacts", static_cast<double>(isolated.count)},
      {"isolated_restitution_mean",
       isolated.count > 0 ? isolated.sum / static_cast<double>(isolated.count) : nan},
      {"isolated_restitution_min", isolated.min},
      {"isolated_restitution_max", isolated.max},
      {"first_isolated_restitution", isolated.first_restitution},
      {"first_isolated_impact_velocity", isolated.first_impact_velocity},
      {"largest_contact_force",
       *std::max_element(summary.max_contact_force.begin(), summary.max_contact_force.end())},
      {"energy_balance_error", final_balance_error},
      {"energy_balance_error_max", balance.worst},
      {"initial_energy", balance.initial.balance()},
      {"kinetic_energy", e.kinetic},
      {"stored_energy", e.stored},
      {"dissipated_energy", e.dissipated},
      {"external_potential_energy", e.external_potential},
      {"wall_work", e.wall_work},
      {"impact_velocity_floor_hits", static_cast<double>(sim.impact_velocity_floor_hits())},
      {"neighbor_rebuilds", static_cast<double>(sim.neighbor_rebuilds())}};
  if (scene.striker >= 0) {
    summary.scalars["striker_final_velocity"] = p.velocity(scene.striker, 0);
    // Its velocity after over before, along the chain: 1 for a full rebound, < 0 if it follows.
    summary.scalars["striker_rebound_ratio"] =
        striker_initial_velocity != 0.0 ? -p.velocity(scene.striker, 0) / striker_initial_velocity
                                        : nan;
  }
  const SimulationSettings& settings = sim.settings();
  summary.texts = {{"impact_velocity", settings.law->uses_impact_velocity()
                                           ? std::string(to_string(settings.impact_velocity))
                                           : "none"},
                   {"integrator", std::string(to_string(settings.integrator))}};
  if (const auto it = settings.law_params.find("impact_velocity_floor");
      it != settings.law_params.end())
    summary.scalars["impact_velocity_floor"] = it->second;
}

PendingRun run_case(const CaseConfig& cfg, RunSetup run, const WriterFactory& make_writer,
                    const RunControl& control,
                    const std::map<std::string, std::string>& labels = {}) {
  Simulation sim(std::move(run.scene), run.settings);
  sim.track_extremes();  // largest force and v_x per bead, inside the step's loops
  std::unique_ptr<H5mdWriter> writer =
      make_writer(run_metadata(cfg, run, sim, labels), sim, run.write_contacts);

  EnergyBalance balance{sim.energies()};
  CaseSummary summary = empty_summary(run, sim.scene().chain_count);
  const ArrivalWatch arrival = watch_arrival(cfg, sim, summary);
  IsolatedContacts isolated;
  const Scene& scene = sim.scene();
  const double striker_initial_velocity =
      scene.striker >= 0 ? sim.particles().velocity(scene.striker, 0) : nan;

  const double wall_time =
      run_steps(sim, run, control, *writer, balance, arrival, isolated, summary);
  finish_summary(summary, sim, run, balance, isolated, wall_time, striker_initial_velocity);
  return PendingRun(std::move(summary), std::move(writer));
}

}  // namespace

std::map<std::string, std::vector<double>> summary_arrays(const CaseSummary& summary) {
  return {{"max_contact_force", summary.max_contact_force},
          {"peak_velocity", summary.peak_velocity},
          {"arrival_beads", {summary.arrival_beads.begin(), summary.arrival_beads.end()}},
          {"arrival_time", summary.arrival_time}};
}

PendingRun::PendingRun(CaseSummary summary, std::unique_ptr<H5mdWriter> writer)
    : summary_(std::move(summary)), writer_(std::move(writer)) {}
PendingRun::PendingRun(PendingRun&&) noexcept = default;
PendingRun& PendingRun::operator=(PendingRun&&) noexcept = default;
PendingRun::~PendingRun() = default;

std::size_t PendingRun::buffered_bytes() const {
  return writer_->buffered_bytes();
}

void PendingRun::commit() {
  writer_->finish(summary_.scalars, summary_arrays(summary_), summary_.texts);
}

CaseSummary run_to_file(const CaseConfig& cfg, RunSetup run, const std::string& path,
                        const RunControl& control) {
  PendingRun done = run_case(
      cfg, std::move(run),
      [&](const RunMetadata& meta, const Simulation& sim, bool contacts) {
        return std::make_unique<H5mdWriter>(path, meta, sim, contacts);
      },
      control);
  done.commit();
  return done.summary();
}

PendingRun run_to_group(const CaseConfig& cfg, RunSetup run, std::int64_t parent,
                        const std::string& name, std::mutex* lock, const RunControl& control,
                        const std::map<std::string, std::string>& labels) {
  return run_case(
      cfg, std::move(run),
      [&](const RunMetadata& meta, const Simulation& sim, bool contacts) {
        return std::make_unique<H5mdWriter>(parent, name, meta, sim, contacts, lock);
      },
      control, labels);
}

}  // namespace chaindem
