#include "chaindem/commands/run_command.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <csignal>
#include <iomanip>
#include <iostream>
#include <new>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/command_registry.hpp"
#include "chaindem/output/checkpoint_file.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {

int run_case(const RunOptions& options, std::ostream& out, std::ostream& err) {
  RunSetup run;
  CaseConfig cfg;
  try {
    cfg = CaseConfig::load(options.case_path, options.overrides, options.unset);
    run = build_run(cfg);
    for (const std::string& note : run.notes) err << "chaindem: note: " << note << "\n";
    cfg.forget(run.ignored_keys);  // recorded without them, the keys reproduce the run
  } catch (const CaseError& e) {
    err << "chaindem: invalid input: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {  // not the input's fault: the machine's, or its limits'
    err << "chaindem: error: memory ran out while building the case\n";
    return 1;
  }
  const std::string output = options.output.empty() ? run.output_file : options.output;
  try {
    std::vector<std::string> inputs = run.input_files;  // initial.file, for one
    inputs.push_back(options.case_path);
    check_run_output(output, inputs);
  } catch (const OutputPathError& e) {
    err << "chaindem: invalid output: " << e.what() << "\n";
    return 2;
  }
  const std::string note = run.time_step_note;
  const SimulationSettings settings = run.settings;
  const Eigen::Index particles = run.scene.particles.size();
  const bool has_striker = run.scene.striker >= 0;
  const Eigen::Index beads = run.scene.chain_count;
  const std::size_t memory = run.memory_estimate;

  if (options.restart && options.discard_checkpoint) {
    err << "chaindem: invalid input: --restart continues the checkpoint and --discard-checkpoint "
           "deletes it: give one of them\n";
    return 2;
  }
  const CheckpointPlan checkpoints{cfg.number("output.checkpoint_interval"), options.restart,
                                   options.discard_checkpoint};
  install_stop_handlers();
  layout::RunSummary summary;
  try {
    summary = run_to_file(cfg, std::move(run), output,
                          RunControl{options.quiet ? nullptr : &err, stop_flag(), &checkpoints});
  } catch (const Interrupted& e) {
    if (e.checkpoint.empty()) {
      err << "chaindem: " << e.what() << "; no output written\n";
    } else {
      err << "chaindem: " << e.what() << "; checkpoint written to " << quoted_path(e.checkpoint)
          << " (the frames so far are in " << quoted_path(output)
          << ".partial); run the same command with --restart to continue\n";
    }
    return 128 + e.signal;
  } catch (const CheckpointError& e) {
    err << "chaindem: " << (options.restart ? "cannot restart: " : "invalid output: ") << e.what()
        << "\n";
    return 2;
  } catch (const CaseError& e) {
    err << "chaindem: invalid input: " << e.what() << "\n";
    return 2;
  } catch (const OutputPathError& e) {  // another process writes the output (OutputLock)
    err << "chaindem: invalid output: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << "chaindem: error: memory ran out during the run\n";
    return 1;
  } catch (const std::exception& e) {
    err << "chaindem: error: " << e.what() << "\n";
    return 1;
  }
  if (options.quiet) return 0;

  const layout::RunSummary& s = summary;
  out << std::setprecision(6);
  out << "chaindem run " << quoted_path(cfg.origin()) << " -> " << quoted_path(output) << "\n"
      << "  law                " << settings.law->id << " (tension " << to_string(settings.tension)
      << ")\n"
      << "  particles          " << particles << " (" << beads << " chain beads"
      << (has_striker ? " + striker" : "") << ")\n";
  // Gaps as the case set them (a state from data, initial.file, has its own).
  if ((has_striker || cfg.number("chain.gap") > 0.0) &&
      (!cfg.has("initial.file") || cfg.text("initial.file").empty())) {
    out << "  gaps               ";
    if (has_striker) out << "striker to first bead " << cfg.number("striker.gap") << " m, ";
    out << "between beads " << cfg.number("chain.gap") << " m\n";
  }
  out << "  steps              " << s.steps << "\n"
      << "  time step          " << s.time_step << " s (" << note << ")\n"
      << "  simulated time     " << s.simulated_time << " s\n"
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
  // Every term of the balance, so that the line adds up as printed.
  const EnergyReport& e = s.energy;
  out << "  energy             kinetic " << e.kinetic << " + stored " << e.stored
      << " + dissipated " << e.dissipated << " + external potential " << e.external_potential
      << " - wall work " << e.wall_work << " = " << e.balance() << " J (initial "
      << s.initial_energy << " J)\n"
      << "  energy balance     relative error " << s.energy_balance_error
      << " (largest over frames " << s.energy_balance_error_max << ")\n"
      << "  integrator         " << s.integrator << "\n"
      << "  impact velocity    " << s.impact_velocity;
  if (s.impact_velocity == "none") out << " (the law has no v0)";
  if (s.impact_velocity_floor)
    out << ", floor " << *s.impact_velocity_floor << " m/s ("
        << (cfg.given("contact.impact_velocity_floor") ? "given" : "automatic") << ") used by "
        << s.impact_velocity_floor_hits << " contact onset(s)";
  out << "\n";
  return 0;
}

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description desc("chaindem run options");
  RunOptions o;
  desc.add_options()("help,h", "this help")("output,o", po::value(&o.output),
                                            "output HDF5 file (default: output.file of the case)")(
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
  const auto parsed = parse_command_line(args, desc, &o.case_path, "run", &err);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
    out << "usage: chaindem run CASE.ini [-o OUT.h5] [--set section.key=value ...]\n\n"
           "Runs one case and writes an H5MD/HDF5 file (docs/output-format.md). Case keys "
           "(docs/case-format.md):\n";
    for (const auto& k : case_keys())
      out << "  " << std::left << std::setw(30) << k.key << " " << k.unit << "  " << k.description
          << "\n";
    out << "  material.NAME.{youngs_modulus,poisson_ratio,density,yield_stress}\n\n" << desc;
    return 0;
  }
  if (o.case_path.empty()) {
    err << "chaindem run: missing CASE.ini\n" << usage_text();
    return 2;
  }
  if (vm.count("output") && o.output.empty()) {  // not the case's output.file, silently
    err << "chaindem run: invalid output: -o is empty: give the output file, or leave -o "
           "out to write the case's output.file\n";
    return 2;
  }
  return run_case(o, out, err);
}

}  // namespace chaindem
