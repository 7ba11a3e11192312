// `chaindem run`: the command line, the case read and checked, the run, and its summary.
#include "chaindem/commands/run_command.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <csignal>
#include <iomanip>
#include <iostream>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/command_registry.hpp"
#include "chaindem/output/checkpoint_file.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

void add_run_options(po::options_description& desc, RunOptions& o) {
  desc.add_options()("help,h", "this help")(
      "output,o", po::value(&o.output),
      "output HDF5 file (default: output.file of the case, else "
      "out/CASE[_KEY=VALUE...].h5)")(
      "set", po::value(&o.overrides)->composing(),
      "override a case key: --set section.key=value (repeatable; wins over the file)")(
      "unset", po::value(&o.unset)->composing(),
      "remove a key the case file gives: --unset section.key (repeatable; its default "
      "applies)")("quiet,q", po::bool_switch(&o.quiet), "no progress and no summary")(
      "restart", po::bool_switch(&o.restart),
      "continue from the checkpoint OUT.h5.checkpoint that an interrupted run of the same case "
      "left (SIGTERM, or output.checkpoint_interval); the result is bitwise the uninterrupted "
      "run's")("discard-checkpoint", po::bool_switch(&o.discard_checkpoint),
               "start over although OUT.h5.checkpoint holds this case's interrupted run (deletes "
               "it and OUT.h5.partial; without --restart or this, such a run is refused)");
  add_force_option(desc, &o.force);
}

void print_run_help(std::ostream& out, const po::options_description& desc) {
  out << "usage: chaindem run CASE.ini [-o OUT.h5] [--set section.key=value ...]\n\n"
         "Runs one case and writes an H5MD/HDF5 file (docs/output-format.md). Case keys "
         "(docs/case-format.md):\n";
  for (const auto& k : case_keys())
    out << "  " << std::left << std::setw(30) << k.key << " " << k.unit << "  " << k.description
        << "\n";
  out << "  material.NAME.{youngs_modulus,poisson_ratio,density,yield_stress}\n\n" << desc;
}

// The case read, checked and built, and the file it is run into: all that is settled before it
// runs.
struct PreparedRun {
  CaseConfig cfg;
  RunSetup run;
  std::string output;
};

// Reads and builds the case, its notes to `err`; throws CaseError for a case that is refused.
PreparedRun build_case(const RunOptions& options, std::ostream& err) {
  PreparedRun p;
  p.cfg = CaseConfig::load(options.case_path, options.overrides, options.unset);
  p.run = build_run(p.cfg);
  for (const std::string& note : p.run.notes) err << "chaindem: note: " << note << "\n";
  p.cfg.forget(p.run.ignored_keys);  // recorded without them, the keys reproduce the run
  return p;
}

// The output file, -o or the case's, checked (OutputPathError) not to replace an input, and the
// restart options checked against each other.
void check_output(const RunOptions& options, PreparedRun& p) {
  p.output = options.output;
  if (p.output.empty()) p.output = p.run.output_file;
  if (p.output.empty())
    p.output = default_output_path(options.case_path, ".h5", options.overrides, options.unset);
  std::vector<std::string> inputs = p.run.input_files;  // initial.file, for one
  inputs.push_back(options.case_path);
  check_run_output(p.output, inputs, existing_output(options.force), writes_xdmf(p.run));
  if (options.restart && options.discard_checkpoint)
    throw CaseError(
        "--restart continues the checkpoint and --discard-checkpoint deletes it: give one of "
        "them");
}

// What the summary tells of the case besides its results, taken before the run consumes it.
struct CaseFacts {
  CaseSpec spec;
  std::string note;  // how the time step was chosen
  SimulationSettings settings;
  Eigen::Index particles;
  bool has_striker;
  Eigen::Index beads;
  std::size_t memory;
  std::int64_t output_every;  // steps between frames
  double output_interval;     // asked for [s]
  std::string interval_note;  // why the interval is not the one asked for, if it is not
};

CaseFacts case_facts(const RunSetup& run) {
  return {.spec = run.spec,
          .note = run.time_step_note,
          .settings = run.settings,
          .particles = run.scene.particles.size(),
          .has_striker = run.scene.striker.has_value(),
          .beads = run.scene.chain_count,
          .memory = run.memory_estimate,
          .output_every = run.output_every,
          .output_interval = run.output_interval,
          .interval_note = run.output_interval_note};
}

// What the run will cost, before it starts: its file, its memory, a checkpoint of it.
void print_costs(std::ostream& err, const PreparedRun& p) {
  const RunSetup::OutputEstimate& e = p.run.estimate;
  err << "chaindem: " << p.run.steps << " steps, " << e.frames << " frames to "
      << quoted_path(p.output) << ": at most " << bytes_text(static_cast<double>(e.hdf5_bytes))
      << " (HDF5, before compression)";
  if (e.xdmf_bytes > 0) err << " + " << bytes_text(static_cast<double>(e.xdmf_bytes)) << " (XDMF)";
  err << "; memory about " << bytes_text(static_cast<double>(p.run.memory_estimate))
      << "; a checkpoint about " << bytes_text(static_cast<double>(e.checkpoint_bytes)) << "\n";
}

// Runs the case into its file, checkpointed as the case and the options say. A checkpoint that
// cannot be continued refuses --restart in its own words; without it, the output is refused.
layout::RunSummary run_into_file(const RunOptions& options, PreparedRun& p, std::ostream& err) {
  const CheckpointPlan checkpoints{p.run.spec.output.checkpoint_interval, options.restart,
                                   options.discard_checkpoint};
  install_stop_handlers();
  try {
    return run_to_file(p.cfg, std::move(p.run), p.output, existing_output(options.force),
                       RunControl{options.quiet ? nullptr : &err, stop_flag(), &checkpoints, true});
  } catch (const CheckpointError& e) {
    if (!options.restart) throw;
    throw Refusal("cannot restart: " + std::string(e.what()));
  }
}

// A run a signal stopped: what it left, and how to continue it.
int report_interruption(const Interrupted& e, const std::string& output, std::ostream& err) {
  if (e.checkpoint.empty()) {
    err << "chaindem: " << e.what() << "; no output written\n";
  } else {
    err << "chaindem: " << e.what() << "; checkpoint written to " << quoted_path(e.checkpoint)
        << " (the frames so far are in " << quoted_path(output)
        << ".partial); run the same command with --restart to continue\n";
  }
  return exit_on_signal + e.signal;
}

// A case of several contact models: what the contacts of each did.
void print_models(std::ostream& out, const std::vector<layout::ModelSummary>& models) {
  if (models.empty()) return;
  std::size_t width = 0;
  for (const auto& m : models) width = std::max(width, m.section.size());
  out << "  contact models     " << models.size() << " (dissipated energy; isolated contacts)\n";
  for (const auto& m : models) {
    out << "    " << m.section << std::string(width - m.section.size() + 2, ' ') << m.law << ": "
        << m.dissipated_energy << " J; " << m.isolated_contacts;
    if (m.isolated_contacts > 0)
      out << ", restitution mean " << m.isolated_restitution_mean << " (range "
          << m.isolated_restitution_min << " to " << m.isolated_restitution_max << ")";
    out << "\n";
  }
}

// A warning per bound of a law that a kind of contact of the run went beyond (docs/engine.md,
// "Validity of the laws"): printed with --quiet too, as the notes on the case are.
void print_validity_warnings(std::ostream& err, const layout::RunSummary& s) {
  for (const layout::ValiditySummary& v : s.validity)
    for (const std::string& e : v.exceeded)
      err << "chaindem: warning: the " << quoted_text(v.contacts) << " contacts of law '" << v.law
          << "' left the range its sources state: " << e << "\n";
}

// The run's estimated time-discretisation error (simulation.error_estimate), or why it has none.
void print_error_estimate(std::ostream& out, const layout::RunSummary& s, const CaseSpec& spec) {
  out << "  error estimate     ";
  if (s.error_estimate)
    out << "velocities within " << *s.error_estimate << " of the largest speed at every frame, "
        << *s.final_error_estimate << " at the end (from a second run at half the step)\n";
  else if (spec.simulation.error_estimate == ErrorEstimate::off)
    out << "none (simulation.error_estimate = off)\n";
  else if (spec.simulation.error_estimate == ErrorEstimate::automatic)
    out << "none (simulation.error_estimate = auto: a run of more than "
        << auto_error_estimate_particles << " particles, or continued from a checkpoint)\n";
  else
    out << "none (the run at half the step did not finish, or this run continued a "
           "checkpoint)\n";
}

void print_summary(std::ostream& out, const CaseConfig& cfg, const std::string& output,
                   const CaseFacts& facts, const layout::RunSummary& summary) {
  const auto& [spec, note, settings, particles, has_striker, beads, memory, every, asked,
               interval_note] = facts;
  const layout::RunSummary& s = summary;
  out << std::setprecision(6);
  out << "chaindem run " << quoted_path(cfg.origin()) << " -> " << quoted_path(output) << "\n"
      << "  law                " << settings.law->id << " (tension " << to_string(settings.tension)
      << ")\n"
      << "  particles          " << particles << " (" << beads << " chain beads"
      << (has_striker ? " + striker" : "") << ")\n";
  // Gaps as the case set them (a state from data, initial.file, has its own).
  if ((has_striker || spec.chain.gap > 0.0) && (!spec.initial.file || spec.initial.file->empty())) {
    out << "  gaps               ";
    if (has_striker) out << "striker to first bead " << spec.striker.gap << " m, ";
    out << "between beads " << spec.chain.gap << " m\n";
  }
  out << "  steps              " << s.steps << "\n"
      << "  time step          " << s.time_step << " s (" << note << ")\n";
  // Frames come every whole number of steps: say so where that is not the interval asked for.
  const double interval = static_cast<double>(every) * s.time_step;
  if (!interval_note.empty())
    out << "  output interval    " << interval << " s (" << interval_note << ")\n";
  else if (std::abs(interval - asked) > 1e-9 * asked)
    out << "  output interval    " << interval << " s, every " << every << " steps (asked " << asked
        << " s, which is not a whole number of steps)\n";
  out << "  simulated time     " << s.simulated_time << " s\n"
      << "  wall time          " << s.wall_time << " s (" << s.ns_per_bead_step
      << " ns per bead-step)\n"
      << "  memory             " << static_cast<double>(memory) / 1e6
      << " MB at most (estimated before the run)\n";
  if (has_striker)
    out << "  striker velocity   " << s.striker_final_velocity.value()
        << " m/s (final; rebound ratio " << s.striker_rebound_ratio.value() << ")\n";
  out << "  first bead         " << s.first_bead_final_velocity << " m/s (final)\n"
      << "  last bead          " << s.last_bead_final_velocity << " m/s (final)\n"
      << "  pulse arrival      ";
  for (std::size_t a = 0; a < summary.arrival_beads.size(); ++a) {
    out << (a ? ", " : "") << "bead " << summary.arrival_beads[a];
    if (std::isnan(summary.arrival_time[a]))  // the file's NaN: not reached
      out << " not reached";
    else
      out << " at " << summary.arrival_time[a] << " s";
  }
  out << "\n  largest force      " << s.largest_contact_force << " N\n";
  // Contacts that began from apart and ended alone: the chain's binary impacts.
  out << "  isolated contacts  " << s.isolated_contacts;
  if (s.isolated_contacts > 0)
    out << ", restitution mean " << s.isolated_restitution_mean << " (range "
        << s.isolated_restitution_min << " to " << s.isolated_restitution_max << ")";
  out << "\n";
  print_models(out, s.models);
  out << "  law validity       ";
  if (s.left_validity == 0)
    out << "every kind of contact stayed where its law's sources state it holds\n";
  else
    out << s.left_validity << " of " << s.validity.size()
        << " kinds of contact left it (the warnings above; /summary/validity)\n";
  // Every term of the balance, so that the line adds up as printed.
  const EnergyReport& e = s.energy;
  out << "  energy             kinetic " << e.kinetic << " + stored " << e.stored
      << " + dissipated " << e.dissipated << " + external potential " << e.external_potential
      << " - wall work " << e.wall_work << " = " << e.balance() << " J (initial "
      << s.initial_energy << " J)\n"
      << "  energy balance     relative error " << s.energy_balance_error
      << " (largest over frames " << s.energy_balance_error_max << ")\n";
  print_error_estimate(out, s, spec);
  out << "  integrator         " << s.integrator << "\n"
      << "  impact velocity    " << s.impact_velocity;
  if (s.impact_velocity == "none")
    out << (s.models.empty() ? " (the law has no v0)" : " (no law of the case has v0)");
  if (s.impact_velocity_floor)
    out << ", floor " << *s.impact_velocity_floor << " m/s ("
        << (spec.contact.params.count("impact_velocity_floor") ? "given" : "automatic")
        << ") used by " << s.impact_velocity_floor_hits << " contact onset(s)";
  out << "\n";
}

}  // namespace

int run_case(const RunOptions& options, std::ostream& out, std::ostream& err) {
  FailureReport report{"chaindem", &err, " while building the case"};
  PreparedRun p;
  try {
    p = build_case(options, err);
    report.under_way = {};
    check_output(options, p);
    if (!options.restart) {  // a restart continues the step its checkpoint has
      report.under_way = " during the first run of simulation.accuracy";
      install_stop_handlers();
      p.run = step_for_accuracy(p.cfg, std::move(p.run), options.quiet ? nullptr : &err);
    }
    const CaseFacts facts = case_facts(p.run);
    if (!options.quiet) print_costs(err, p);
    report.under_way = " during the run";
    const layout::RunSummary summary = run_into_file(options, p, err);
    print_validity_warnings(err, summary);
    if (!options.quiet) print_summary(out, p.cfg, p.output, facts, summary);
    return exit_done;
  } catch (const Interrupted& e) {
    return report_interruption(e, p.output, err);
  } catch (...) {
    return report_failure(std::current_exception(), report);
  }
}

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  RunOptions o;
  try {
    po::options_description desc("chaindem run options");
    add_run_options(desc, o);
    const po::variables_map vm = parse_command_line(args, desc, &o.case_path, "run");
    if (vm.count("help")) {
      print_run_help(out, desc);
      return exit_done;
    }
    if (o.case_path.empty()) {  // followed by the usage of every command
      err << "chaindem run: missing CASE.ini\n" << usage_text();
      return exit_refused;
    }
    if (vm.count("output") && o.output.empty())  // not the case's output.file, silently
      throw OutputPathError(
          "-o is empty: give the output file, or leave -o out to write the case's output.file");
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem run", &err});
  }
  return run_case(o, out, err);
}

}  // namespace chaindem
