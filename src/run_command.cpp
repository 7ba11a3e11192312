#include "chaindem/run_command.hpp"

#include <unistd.h>

#include <csignal>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "chaindem/h5md_writer.hpp"
#include "chaindem/scene_builder.hpp"

namespace chaindem {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double divergence_limit = 0.1;

// SIGINT/SIGTERM stop the run between steps, so the partial output file is removed cleanly.
volatile std::sig_atomic_t stop_signal = 0;
extern "C" void request_stop(int signal) {
  stop_signal = signal;
}

// Progress on stderr: a rewritten line on a terminal, a plain line every 10 s otherwise.
class Progress {
 public:
  Progress(std::ostream& err, std::int64_t total, bool enabled)
      : err_(err),
        total_(total),
        enabled_(enabled),
        tty_(isatty(STDERR_FILENO) != 0),
        start_(Clock::now()),
        last_(start_) {}
  void update(std::int64_t done) {
    if (!enabled_) return;
    const auto now = Clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (since < (tty_ ? 0.5 : 10.0)) return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const double rate = static_cast<double>(done) / elapsed;
    const double eta = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
    std::ostringstream line;
    line << std::fixed << std::setprecision(1)
         << "run: " << 100.0 * static_cast<double>(done) / static_cast<double>(total_) << "% ("
         << done << "/" << total_ << " steps, " << std::setprecision(0) << rate << " steps/s, ETA "
         << eta << " s)";
    if (tty_)
      err_ << "\r" << line.str() << std::flush;
    else
      err_ << line.str() << std::endl;
    printed_ = true;
  }
  void done() {
    if (enabled_ && tty_ && printed_) err_ << "\r" << std::string(72, ' ') << "\r" << std::flush;
  }

 private:
  std::ostream& err_;
  std::int64_t total_;
  bool enabled_, tty_;
  Clock::time_point start_, last_;
  bool printed_ = false;
};

}  // namespace

int run_case(const RunOptions& options, std::ostream& out, std::ostream& err) {
  RunSetup run;
  CaseConfig cfg;
  try {
    cfg = CaseConfig::load(options.case_path, options.overrides);
    run = build_run(cfg);
  } catch (const CaseError& e) {
    err << "chaindem: invalid input: " << e.what() << "\n";
    return 2;
  }
  const std::string output = options.output.empty() ? run.output_file : options.output;

  try {
    Simulation sim(std::move(run.scene), run.settings);
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

    H5mdWriter writer(output, meta, sim, run.write_contacts);
    const EnergyReport e0 = sim.energies();
    // Balance errors are relative to the largest energy that has taken part so far, so a case
    // that starts at rest (a wall pushes the chain) has a meaningful scale too.
    double scale = 0.0, worst_balance = 0.0;
    auto energy_scale = [&](const EnergyReport& e) {
      return e.kinetic + e.stored + std::abs(e.dissipated) + std::abs(e.wall_work) +
             std::abs(e.external_potential - e0.external_potential);
    };
    auto balance_error = [&](const EnergyReport& e) {
      scale = std::max(scale, energy_scale(e));
      return scale > 0.0 ? std::abs(e.balance() - e0.balance()) / scale : 0.0;
    };
    auto frame = [&] {
      writer.write_frame(sim);
      const double error = balance_error(sim.energies());
      worst_balance = std::max(worst_balance, error);
      // An explicit integration that gains or loses this much energy has gone unstable; stop
      // rather than write a file of nonsense.
      if (!(error < divergence_limit)) {
        std::ostringstream m;
        m << "the integration diverged at t = " << sim.time() << " s (energy balance error "
          << error
          << " of the energy involved). Reduce simulation.time_step or raise "
             "simulation.steps_per_contact; for laws with v0 in the damping term, raise "
             "contact.impact_velocity_floor";
        throw std::runtime_error(m.str());
      }
    };

    Progress progress(err, run.steps, !options.quiet);
    const auto start = Clock::now();
    std::signal(SIGINT, request_stop);
    std::signal(SIGTERM, request_stop);
    frame();
    // Advance in chunks of at most 1000 steps so a stop request is seen promptly.
    const std::int64_t chunk_limit = std::min<std::int64_t>(run.output_every, 1000);
    while (sim.step_count() < run.steps) {
      if (stop_signal) {
        progress.done();
        err << "chaindem: interrupted by signal " << stop_signal << " at t = " << sim.time()
            << " s; no output written\n";
        return 128 + stop_signal;  // the writer's destructor removes the partial file
      }
      const std::int64_t to_frame = run.output_every - sim.step_count() % run.output_every;
      const std::int64_t chunk = std::min({chunk_limit, to_frame, run.steps - sim.step_count()});
      sim.advance(chunk);
      if (sim.step_count() % run.output_every == 0 || sim.step_count() == run.steps) frame();
      progress.update(sim.step_count());
    }
    progress.done();
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();

    const Particles& p = sim.particles();
    const Eigen::Index first = sim.scene().chain_first;
    const Eigen::Index last = first + sim.scene().chain_count - 1;
    const EnergyReport e = sim.energies();
    const double final_balance_error = balance_error(e);
    const double bead_steps = static_cast<double>(p.size()) * static_cast<double>(run.steps);
    std::map<std::string, double> summary{
        {"steps", static_cast<double>(run.steps)},
        {"time_step", sim.time_step()},
        {"wall_time", wall},
        {"ns_per_bead_step", 1e9 * wall / std::max(bead_steps, 1.0)},
        {"first_bead_final_velocity", p.velocity(first, 0)},
        {"last_bead_final_velocity", p.velocity(last, 0)},
        {"energy_balance_error", final_balance_error},
        {"energy_balance_error_max", worst_balance},
        {"initial_energy", e0.balance()},
        {"kinetic_energy", e.kinetic},
        {"stored_energy", e.stored},
        {"dissipated_energy", e.dissipated},
        {"impact_velocity_floor_hits", static_cast<double>(sim.impact_velocity_floor_hits())},
        {"neighbor_rebuilds", static_cast<double>(sim.neighbor_rebuilds())}};
    if (sim.scene().striker >= 0)
      summary["striker_final_velocity"] = p.velocity(sim.scene().striker, 0);
    writer.finish(summary);

    if (!options.quiet) {
      out << std::setprecision(6);
      out << "chaindem run " << cfg.origin() << " -> " << output << "\n"
          << "  law                " << sim.settings().law->id << " (tension "
          << (sim.settings().tension == TensionPolicy::clamp ? "clamped" : "allowed") << ")\n"
          << "  particles          " << p.size() << " (" << sim.scene().chain_count
          << " chain beads" << (sim.scene().striker >= 0 ? " + striker" : "") << ")\n"
          << "  steps              " << run.steps << "\n"
          << "  time step          " << sim.time_step() << " s (" << run.time_step_note << ")\n"
          << "  simulated time     " << sim.time() << " s\n"
          << "  wall time          " << wall << " s (" << summary["ns_per_bead_step"]
          << " ns per bead-step)\n";
      if (sim.scene().striker >= 0)
        out << "  striker velocity   " << p.velocity(sim.scene().striker, 0) << " m/s (final)\n";
      out << "  first bead         " << p.velocity(first, 0) << " m/s (final)\n"
          << "  last bead          " << p.velocity(last, 0) << " m/s (final)\n"
          << "  energy             initial " << e0.balance() << " J = kinetic " << e.kinetic
          << " + stored " << e.stored << " + dissipated " << e.dissipated;
      if (e.external_potential != 0.0 || e.wall_work != 0.0)
        out << " + external potential " << e.external_potential << " - wall work " << e.wall_work;
      out << "\n  energy balance     relative error " << final_balance_error
          << " (largest over frames " << worst_balance << ")\n";
      const auto& lp = sim.settings().law_params;
      if (const auto it = lp.find("impact_velocity_floor"); it != lp.end())
        out << "  impact velocity    floor " << it->second << " m/s ("
            << (cfg.given("contact.impact_velocity_floor") ? "given" : "automatic") << "), used by "
            << sim.impact_velocity_floor_hits() << " contact onset(s)\n";
    }
  } catch (const CaseError& e) {
    err << "chaindem: invalid input: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "chaindem: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace chaindem
