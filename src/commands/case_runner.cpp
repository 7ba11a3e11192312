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

PendingRun run_case(const CaseConfig& cfg, RunSetup run, const WriterFactory& make_writer,
                    const RunControl& control,
                    const std::map<std::string, std::string>& labels = {}) {
  Simulation sim(std::move(run.scene), run.settings);
  sim.track_extremes();  // largest force and v_x per bead, inside the step's loops
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
  std::unique_ptr<H5mdWriter> owned_writer = make_writer(meta, sim, run.write_contacts);
  H5mdWriter& writer = *owned_writer;

  const Scene& scene = sim.scene();
  const Particles& p = sim.particles();
  const Eigen::Index first = scene.chain_first, count = scene.chain_count;

  // Energy balance, relative to the largest energy that has taken part so far.
  const EnergyReport e0 = sim.energies();
  double scale = 0.0, worst_balance = 0.0;
  auto balance_error = [&](const EnergyReport& e) {
    scale = std::max(scale, e.kinetic + e.stored + std::abs(e.dissipated) + std::abs(e.wall_work) +
                                std::abs(e.external_potential - e0.external_potential));
    return scale > 0.0 ? std::abs(e.balance() - e0.balance()) / scale : 0.0;
  };
  auto frame = [&] {
    const EnergyReport energies = sim.energies();
    writer.write_frame(sim, energies);
    const double error = balance_error(energies);
    worst_balance = std::max(worst_balance, error);
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
  };

  // Observers: largest contact force per bead, pulse arrival, isolated contacts.
  CaseSummary summary;
  summary.max_contact_force.assign(static_cast<std::size_t>(count), 0.0);
  summary.peak_velocity.assign(static_cast<std::size_t>(count),
                               -std::numeric_limits<double>::infinity());
  for (double b : cfg.numbers("output.arrival_beads")) {
    const auto k = static_cast<long long>(b < 0 ? static_cast<double>(count) + b : b);
    if (k < 0 || k >= count)
      cfg.fail("output.arrival_beads", "bead " + std::to_string(b) + " is not in the chain (0.." +
                                           std::to_string(count - 1) + ", negative from the end)");
    summary.arrival_beads.push_back(k);
  }
  summary.arrival_time.assign(summary.arrival_beads.size(), nan);
  double reference_speed = p.velocity.matrix().rowwise().norm().maxCoeff();
  for (const auto& w : scene.walls) reference_speed = std::max(reference_speed, w.velocity.norm());
  const double arrival_speed = cfg.number("output.arrival_threshold") * reference_speed;
  // Per step only the watched beads (Simulation::watch records them for each step).
  std::vector<Eigen::Index> watched_beads;
  for (const Eigen::Index b : summary.arrival_beads) watched_beads.push_back(first + b);
  sim.watch({}, watched_beads);
  auto observe_arrival = [&](auto&& speed_of, double time) {
    if (arrival_speed > 0.0)
      for (std::size_t a = 0; a < summary.arrival_beads.size(); ++a)
        if (std::isnan(summary.arrival_time[a]) && speed_of(a) >= arrival_speed)
          summary.arrival_time[a] = time;
  };
  // Contacts that began from apart and ended without either body touching anything else: the
  // only contacts of a chain whose restitution is a binary impact's.
  std::int64_t isolated = 0;
  double isolated_sum = 0.0, isolated_min = nan, isolated_max = nan;
  double first_isolated_restitution = nan, first_isolated_v0 = nan;
  auto observe_isolated = [&] {
    for (const auto& ic : sim.isolated_contacts()) {
      if (isolated++ == 0) {
        first_isolated_restitution = ic.restitution;
        first_isolated_v0 = ic.impact_velocity;
        isolated_min = isolated_max = ic.restitution;
      }
      isolated_sum += ic.restitution;
      isolated_min = std::min(isolated_min, ic.restitution);
      isolated_max = std::max(isolated_max, ic.restitution);
    }
  };
  const double striker_initial_velocity = scene.striker >= 0 ? p.velocity(scene.striker, 0) : nan;

  Progress progress(control.progress, run.steps, "run", "steps", false);
  const auto start = Clock::now();
  observe_arrival([&](std::size_t a) { return p.velocity.row(watched_beads[a]).matrix().norm(); },
                  sim.time());
  frame();
  // Steps in chunks of at most 256 that end at every frame (progress, interruption).
  constexpr std::int64_t chunk = 256;
  while (sim.step_count() < run.steps) {
    if (control.stop && *control.stop) throw Interrupted(*control.stop, sim.time());
    const std::int64_t at = sim.step_count();
    const std::int64_t steps =
        std::min({run.steps - at, run.output_every - at % run.output_every, chunk});
    sim.advance(steps);
    const Simulation::StepLog& log = sim.step_log();
    const std::size_t beads = watched_beads.size();
    for (std::int64_t s = 0; s < steps; ++s) {
      const auto e = static_cast<std::size_t>(s);
      observe_arrival([&](std::size_t a) { return log.speed[e * beads + a]; },
                      static_cast<double>(at + s + 1) * sim.time_step());
    }
    observe_isolated();
    if (sim.step_count() % run.output_every == 0 || sim.step_count() == run.steps) frame();
    progress.update(sim.step_count());  // prints at most every 0.5 s (terminal) or 10 s
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  for (Eigen::Index k = 0; k < count; ++k) {
    summary.max_contact_force[static_cast<std::size_t>(k)] = sim.peak_contact_force()(first + k);
    summary.peak_velocity[static_cast<std::size_t>(k)] = sim.peak_velocity_x()(first + k);
  }

  const Eigen::Index last = first + count - 1;
  const EnergyReport e = sim.energies();
  const double final_balance_error = balance_error(e);
  const double bead_steps = static_cast<double>(p.size()) * static_cast<double>(run.steps);
  summary.scalars = {
      {"steps", static_cast<double>(run.steps)},
      {"time_step", sim.time_step()},
      {"simulated_time", sim.time()},
      {"wall_time", wall},
      {"ns_per_bead_step", 1e9 * wall / std::max(bead_steps, 1.0)},
      {"first_bead_final_velocity", p.velocity(first, 0)},
      {"last_bead_final_velocity", p.velocity(last, 0)},
      {"isolated_contacts", static_cast<double>(isolated)},
      {"isolated_restitution_mean",
       isolated > 0 ? isolated_sum / static_cast<double>(isolated) : nan},
      {"isolated_restitution_min", isolated_min},
      {"isolated_restitution_max", isolated_max},
      {"first_isolated_restitution", first_isolated_restitution},
      {"first_isolated_impact_velocity", first_isolated_v0},
      {"largest_contact_force",
       *std::max_element(summary.max_contact_force.begin(), summary.max_contact_force.end())},
      {"energy_balance_error", final_balance_error},
      {"energy_balance_error_max", worst_balance},
      {"initial_energy", e0.balance()},
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
  return PendingRun(std::move(summary), std::move(owned_writer));
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
