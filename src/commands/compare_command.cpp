// `chaindem compare`: one chain under several laws, per-bead errors against a reference law or
// measured data (peak velocity, peak contact force, pulse arrival time, final velocity).
#include "chaindem/commands/compare_command.hpp"
#include "chaindem/commands/command_line.hpp"

#include <omp.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/laws/restitution.hpp"
#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/output/output_layout.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/setup/chain_record.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"
#include "compare_parts.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace chaindem {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
using layout::comparison_metrics;

using namespace compare_detail;

// Metrics of one run, read back from its group: velocities per frame and the run summary.
Metrics run_metrics(hid_t file, const std::string& group, long long first, long long beads) {
  using namespace hdf5;
  auto read = [&](const std::string& path, std::vector<hsize_t>& dims) {
    Handle d(check(H5Dopen2(file, path.c_str(), H5P_DEFAULT), path), H5Dclose);
    Handle space(check(H5Dget_space(d.get()), "space"), H5Sclose);
    dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())), 0);
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
    if (!v.empty())
      check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
                   path);
    return v;
  };
  std::vector<hsize_t> dims;
  const auto v = read(group + "/" + layout::value_path(layout::Quantity::velocity), dims);
  const std::size_t frames = dims[0], n = dims[1], components = dims[2];  // 3, or x alone
  const layout::RunSummary summary = read_run_summary(file, group);       // peaks: every step
  Metrics m;
  for (long long b = 0; b < beads; ++b) {
    const std::size_t i = static_cast<std::size_t>(first + b), u = static_cast<std::size_t>(b);
    m["peak_velocity"].push_back(summary.peak_velocity[u]);
    m["final_velocity"].push_back(v[((frames - 1) * n + i) * components]);
    m["peak_force"].push_back(summary.max_contact_force[u]);
    m["arrival_time"].push_back(summary.arrival_time[u]);
  }
  return m;
}

// The event-driven solution with Newton's impact law (contact-laws.md `newton_restitution`):
// rigid beads, instantaneous binary impacts of restitution c_r, free flight in between. It is
// well defined only when impacts never coincide, so every contact needs a gap; walls are fixed.
Metrics newton_metrics(const RunSetup& run, double restitution, long long beads,
                       double arrival_speed) {
  const Scene& scene = run.scene;
  const Particles& p = scene.particles;
  const Eigen::Index n = scene.chain_first + scene.chain_count;  // striker and beads
  if (p.size() != n)
    throw CaseError("--reference newton: extra particles are not supported (1D chains only)");
  for (const auto& w : scene.walls)
    if (w.velocity.norm() != 0.0)
      throw CaseError("--reference newton: moving walls are not supported");
  std::vector<double> x(static_cast<std::size_t>(n)), v(x.size()), m(x.size()), r(x.size());
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto u = static_cast<std::size_t>(i);
    x[u] = p.position(i, 0);
    v[u] = p.velocity(i, 0);
    m[u] = p.mass(i);
    r[u] = p.radius(i);
  }
  // Bodies in order along x; walls bound them as infinite masses.
  double left = -std::numeric_limits<double>::infinity(), right = -left;
  for (const auto& w : scene.walls) (w.normal.x() > 0 ? left : right) = w.point.x();
  auto gap = [&](std::size_t i) { return x[i + 1] - x[i] - r[i] - r[i + 1]; };
  const double tolerance = 1e-12 * r[0];
  for (std::size_t i = 0; i + 1 < x.size(); ++i)
    if (gap(i) <= tolerance)
      throw CaseError("--reference newton: bodies " + std::to_string(i) + " and " +
                      std::to_string(i + 1) +
                      " touch; with simultaneous contacts Newton's law has no unique outcome "
                      "(give chain.gap > 0 and striker.gap > 0)");

  if (x.front() - r.front() - left <= tolerance || right - x.back() - r.back() <= tolerance)
    throw CaseError(
        "--reference newton: a bead touches a wall; with simultaneous contacts "
        "Newton's law has no unique outcome (give the wall a gap)");
  Metrics out;
  for (const auto& metric : comparison_metrics)
    out[metric.name].assign(static_cast<std::size_t>(beads), nan);
  auto& peak = out["peak_velocity"];
  auto& arrived = out["arrival_time"];
  const auto first = static_cast<std::size_t>(scene.chain_first);
  auto observe = [&](double t) {
    for (long long b = 0; b < beads; ++b) {
      const auto u = static_cast<std::size_t>(b), i = first + u;
      peak[u] = std::isnan(peak[u]) ? v[i] : std::max(peak[u], v[i]);
      if (std::isnan(arrived[u]) && arrival_speed > 0 && std::abs(v[i]) >= arrival_speed)
        arrived[u] = t;
    }
  };
  // An impact of body k: on body k + 1, or on a wall (body 0 on the left one, the last body on
  // the right one).
  struct Impact {
    std::size_t body;
    bool on_wall;
  };
  double t = 0.0;
  observe(t);
  for (long events = 0; events < 100000000; ++events) {
    // The next impact: the earliest closing gap (bodies or walls); none if no gap closes.
    double dt = std::numeric_limits<double>::infinity();
    std::optional<Impact> next;
    int ties = 0;
    auto consider = [&](double candidate, Impact impact) {
      if (!(candidate >= 0.0)) return;
      if (candidate < dt * (1 - 1e-12)) {
        dt = candidate, next = impact, ties = 0;
      } else if (candidate <= dt * (1 + 1e-12)) {
        ++ties;
      }
    };
    if (v[0] < 0) consider((x[0] - r[0] - left) / -v[0], {0, true});
    for (std::size_t i = 0; i + 1 < x.size(); ++i)
      if (v[i] > v[i + 1]) consider(gap(i) / (v[i] - v[i + 1]), {i, false});
    if (v.back() > 0) consider((right - x.back() - r.back()) / v.back(), {x.size() - 1, true});
    if (t + dt >= run.duration || !next) break;
    if (ties > 0)
      throw CaseError("--reference newton: two impacts at t = " + rounded_text(t + dt, 6) +
                      " s; Newton's law has no unique outcome for simultaneous impacts");
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += v[i] * dt;
    t += dt;
    const std::size_t k = next->body;
    if (next->on_wall) {
      v[k] = -restitution * v[k];
    } else {
      const BinaryImpactOutcome o = newton_restitution(m[k], m[k + 1], v[k], v[k + 1], restitution);
      v[k] = o.velocity_i;
      v[k + 1] = o.velocity_j;
    }
    observe(t);
  }
  for (long long b = 0; b < beads; ++b)
    out["final_velocity"][static_cast<std::size_t>(b)] = v[first + static_cast<std::size_t>(b)];
  return out;
}

void add_compare_options(po::options_description& desc, CompareInput& in) {
  desc.add_options()("help,h", "this help")("laws", po::value(&in.laws_text),
                                            "laws to compare, comma separated")(
      "reference", po::value(&in.reference_law),
      "reference law, or 'newton': the event-driven solution with Newton's impact law (rigid "
      "beads, restitution contact.restitution; needs gaps between all bodies)")(
      "reference-data", po::value(&in.reference_data),
      "reference measurements: CSV with a header, time [s] then one column per chain bead")(
      "pair", po::value(&in.pair),
      "A.B: the laws are those of the contacts of materials A and B ([contact.A.B]; A may be a "
      "wall), every other contact keeping its own (default: the laws of [contact])")(
      "reference-quantity", po::value(&in.quantity),
      "what the CSV columns are: velocity [m/s] (default) or force [N]")(
      "output,o", po::value(&in.output),
      "HDF5 output (default: out/CASE[_KEY=VALUE...]-compare.h5)")(
      "set", po::value(&in.sets)->composing(), "a case key: --set section.key=value")(
      "unset", po::value(&in.unset)->composing(),
      "remove a key the case file gives: --unset section.key (its default applies)")(
      "beads", po::value(&in.beads_text),
      "beads shown in the table (default: 8 spread over the chain)")(
      "threads", po::value(&in.threads),
      ("OpenMP threads, one law per thread: 1 to " + std::to_string(max_threads) +
       " (default: OMP_NUM_THREADS or all cores)")
          .c_str())("json", po::bool_switch(&in.json), "print the errors as JSON");
  add_force_option(desc, &in.force);
}

void print_compare_usage(std::ostream& out, const po::options_description& desc) {
  out << "usage: chaindem compare CASE.ini --laws A,B,... (--reference LAW | --reference-data "
         "FILE.csv)\n\n"
         "Runs the case under each law (in parallel) and reports, per chain bead, the relative\n"
         "error [%] of each against the reference: peak velocity, peak contact force, pulse\n"
         "arrival time and final velocity (the layout of Table 6 of the CJTAM review, "
         "docs/references.md). Case parameters\n"
         "a law does not take are ignored for that law. docs/compare.md.\n\n"
      << desc;
}

// The laws to compare; the checks that need only the arguments.
std::vector<std::string> checked_laws(const CompareInput& in) {
  if (in.case_path.empty()) throw CaseError("missing CASE.ini");
  auto laws = comma_list("--laws", in.laws_text);
  if (laws.empty()) throw CaseError("--laws: give at least one law");
  if (!in.pair.empty() && contact_pair_of(in.law_key()) != in.pair)
    throw CaseError("--pair '" + quoted_text(in.pair) +
                    "' is not two names A.B: two materials, or a wall and a material, as a "
                    "[contact.A.B] section names them");
  // Keys compare sets itself for each run.
  const std::pair<std::string, const char*> set_by_compare[] = {
      {in.law_key(), "the case runs under each law of --laws and --reference"},
      {key_name(&CaseSpec::simulation, &SimulationSpec::threads),
       "each law runs on one thread; --threads sets how many run at once"},
      {key_name(&CaseSpec::output, &OutputSpec::arrival_beads),
       "compare times the pulse's arrival at every bead"},
      {key_name(&CaseSpec::output, &OutputSpec::file), "compare writes its file to -o"},
      {key_name(&CaseSpec::output, &OutputSpec::checkpoint_interval),
       "it times the checkpoints of `chaindem run`, which compare does not write"}};
  for (const std::string& set : in.sets) {
    const std::string key = trimmed(set.substr(0, set.find('=')));
    for (const auto& [set_key, why] : set_by_compare)
      if (key == set_key) throw CaseError("--set " + key + ": compare sets it: " + why);
  }
  if (in.reference_law.empty() == in.reference_data.empty())
    throw CaseError("give exactly one of --reference LAW and --reference-data FILE");
  if (in.quantity != "velocity" && in.quantity != "force")
    throw CaseError("--reference-quantity: '" + quoted_text(in.quantity) +
                    "' is not velocity or force");
  if (in.quantity_given && in.reference_data.empty())
    throw CaseError(
        "--reference-quantity is given without --reference-data, whose columns it "
        "names");
  // Named wrongly, a law is blamed on the option that names it (not on the --set it becomes).
  const auto check_law = [](const char* option, const std::string& id) {
    if (find_law(id)) return;
    throw CaseError(std::string(option) + ": " + unknown_law_text(id));
  };
  for (const std::string& law : laws) check_law("--laws", law);
  if (!in.reference_law.empty() && in.reference_law != "newton")
    check_law("--reference", in.reference_law);
  for (std::size_t a = 0; a < laws.size(); ++a)
    for (std::size_t b = a + 1; b < laws.size(); ++b)
      if (laws[a] == laws[b]) throw CaseError("--laws: " + laws[a] + " is given twice");
  return laws;
}

// Validates every run first; all chain beads are watched for the pulse. Returns the case as
// given (without the keys of any law).
CaseConfig check_runs(const CompareInput& in, ComparePlan& plan) {
  CaseConfig base = CaseConfig::load(in.case_path, in.sets, in.unset);
  const RunSetup probe = build_run(base, {.ignore_foreign_law_params = true});
  refuse_accuracy(base, probe, "compare");
  plan.first = probe.scene.chain_first;
  plan.duration = static_cast<double>(probe.steps) * probe.settings.time_step;
  plan.beads = probe.scene.chain_count;
  plan.arrival_speed = probe.spec.output.arrival_threshold *
                       probe.scene.particles.velocity.matrix().rowwise().norm().maxCoeff();
  std::string all_beads;
  for (long long b = 0; b < plan.beads; ++b) all_beads += std::to_string(b) + " ";
  plan.overrides.resize(plan.run_laws.size());
  for (std::size_t l = 0; l < plan.run_laws.size(); ++l) {
    std::vector<std::string>& keys = plan.overrides[l];
    keys = in.sets;
    keys.push_back(in.law_key() + "=" + plan.run_laws[l]);
    keys.push_back(key_name(&CaseSpec::output, &OutputSpec::arrival_beads) + "=" + all_beads);
    keys.push_back(key_name(&CaseSpec::simulation, &SimulationSpec::threads) + "=1");
    try {
      const RunSetup run = build_run(CaseConfig::load(in.case_path, keys, in.unset),
                                     {.ignore_foreign_law_params = true});
      for (const std::string& note : run.notes)
        if (std::find(plan.notes.begin(), plan.notes.end(), note) == plan.notes.end())
          plan.notes.push_back(note);
    } catch (const CaseError& e) {
      throw CaseError("law " + plan.run_laws[l] + ": " + e.what());
    }
  }
  return base;
}

// The beads of the table: given (chain bead indices, comma separated, each once), or 8 spread
// over the chain.
std::vector<long long> shown_beads(const std::string& beads_text, bool given, long long beads) {
  std::vector<long long> shown;
  if (given) {
    const std::string range = "allowed 0 to " + std::to_string(beads - 1) +
                              " (integers; 0 = the first chain bead, comma separated)";
    const std::vector<std::string> entries = comma_list("--beads", beads_text, range);
    if (entries.empty()) throw CaseError("--beads: no bead; " + range);
    for (const auto& b : entries) {
      double x = 0.0;
      const NumberText read = read_number(b, x);
      if (read == NumberText::not_a_number || (read == NumberText::number && x != std::floor(x)))
        throw CaseError("--beads: '" + quoted_text(b) + "' is not an integer; " + range);
      if (read != NumberText::number || x < 0 || x >= static_cast<double>(beads))
        throw CaseError("--beads: " + quoted_text(b) + " is not a bead of the chain: " + range);
      const auto k = static_cast<long long>(x);
      if (std::find(shown.begin(), shown.end(), k) != shown.end())
        throw CaseError("--beads: " + quoted_text(b) + " is given twice");
      shown.push_back(k);
    }
  } else {
    const long long count = std::min<long long>(8, beads);
    for (long long k = 0; k < count; ++k)
      shown.push_back(count == 1 ? 0 : k * (beads - 1) / (count - 1));
  }
  return shown;
}

// A reference that is not a run is computed (and checked) before anything runs.
std::optional<Metrics> computed_reference(const CompareInput& in, const CaseConfig& base,
                                          ComparePlan& plan) {
  if (in.reference_law == "newton") {
    const std::string restitution = contact_param_key("restitution");
    if (const auto& pairs = read_case_spec(base).contact_pairs; !pairs.empty())
      throw CaseError(
          "--reference newton takes one restitution for every impact, and the case "
          "gives [contact." +
          pairs.begin()->first + "] a model of its own");
    if (!base.has(restitution))
      throw CaseError("--reference newton: the case needs " + restitution);
    return newton_metrics(build_run(base, {.ignore_foreign_law_params = true}),
                          base.number(restitution), plan.beads, plan.arrival_speed);
  }
  if (!in.reference_data.empty()) {
    plan.record = read_chain_record(
        in.reference_data,
        in.quantity == "velocity" ? RecordQuantity::velocity : RecordQuantity::force, plan.beads,
        plan.duration, "--reference-data");
    plan.resolution =
        compare_detail::sampling_resolution(*plan.record, plan.beads, plan.arrival_speed);
    std::vector<long long> measured = plan.record->beads;
    std::sort(measured.begin(), measured.end());
    Metrics m = compare_detail::sampled_metrics(*plan.record, plan.beads, plan.arrival_speed);
    // The table shows the beads measured (8 of them spread over them), unless --beads says.
    if (!in.beads_given && measured.size() < static_cast<std::size_t>(plan.beads)) {
      plan.shown.clear();
      const std::size_t count = std::min<std::size_t>(8, measured.size());
      for (std::size_t k = 0; k < count; ++k)
        plan.shown.push_back(measured[count == 1 ? 0 : k * (measured.size() - 1) / (count - 1)]);
    }
    return m;
  }
  return std::nullopt;
}

// Settles what the runs share; throws CaseError for invalid input.
ComparePlan plan_comparison(const CompareInput& in) {
  ComparePlan plan;
  plan.laws = checked_laws(in);
  const bool newton = in.reference_law == "newton";
  plan.run_laws = plan.laws;
  if (!in.reference_law.empty() && !newton &&
      std::find(plan.run_laws.begin(), plan.run_laws.end(), in.reference_law) ==
          plan.run_laws.end())
    plan.run_laws.push_back(in.reference_law);
  const CaseConfig base = check_runs(in, plan);
  plan.shown = shown_beads(in.beads_text, in.beads_given, plan.beads);
  plan.given_reference = computed_reference(in, base, plan);
  return plan;
}

// Runs the case under every run law into `cases`, one law per thread. A failure is kept, not
// thrown: an exception may not leave the OpenMP loop, and the other laws still finish.
LawRuns run_every_law(const CompareInput& in, const ComparePlan& plan, hid_t cases,
                      const PartialOutput& output) {
  const std::size_t n = plan.run_laws.size();
  LawRuns runs{std::vector<std::string>(n), std::vector<std::string>(n),
               std::vector<double>(n, 0.0), std::vector<double>(n, nan), std::vector<Metrics>(n)};
  std::mutex h5;
  install_stop_handlers();
#pragma omp parallel for schedule(dynamic, 1) num_threads(in.threads)
  for (std::size_t l = 0; l < n; ++l) {
    hdf5::quiet_errors();  // per thread: each writes its law's run
    try {
      const CaseConfig cfg = CaseConfig::load(in.case_path, plan.overrides[l], in.unset);
      RunSetup setup = build_run(cfg, {.ignore_foreign_law_params = true});
      // The comparison reads each bead's final velocity from the frames, whatever
      // output.quantities and output.beads leave out.
      setup.output = setup.output.with(layout::Quantity::velocity).with_particles({});
      PendingRun run = run_to_group(cfg, std::move(setup), cases, plan.run_laws[l], &h5,
                                    RunControl{nullptr, stop_flag()});
      const layout::RunSummary& summary = run.summary();
      runs.policy[l] = summary.impact_velocity;
      runs.floor_hits[l] = static_cast<double>(summary.impact_velocity_floor_hits);
      runs.floor[l] = summary.impact_velocity_floor.value_or(nan);
      run.commit();
      if (plan.record) {  // the same run, read at the data's times
        const std::optional<ChainRecord> at = compare_detail::run_at_samples(
            in.case_path, in.sets, in.unset, *find_law(plan.run_laws[l]), in.pair, *plan.record);
        if (!at) throw std::runtime_error("its run at the reference data's times failed");
        runs.sampled[l] = compare_detail::sampled_metrics(*at, plan.beads, plan.arrival_speed);
      }
    } catch (const hdf5::Error& e) {  // the run is fine, the file is not: name the file
      runs.failures[l] = output.error(e.what()).what();
    } catch (const std::exception& e) {
      runs.failures[l] = failure_text(e);
    }
  }
  return runs;
}

void warn_floor_hits(std::ostream& err, const ComparePlan& plan, const LawRuns& runs) {
  for (std::size_t l = 0; l < plan.run_laws.size(); ++l)
    if (runs.floor_hits[l] > 0)
      err << "chaindem compare: warning: law " << plan.run_laws[l] << ": "
          << static_cast<long long>(runs.floor_hits[l])
          << " contact(s) began slower than the impact-velocity floor (" << runs.floor[l]
          << " m/s) and were damped as if they had hit at it: their result follows the floor. "
             "The energy policy (contact.impact_velocity = energy) needs no floor\n";
}

Errors read_metrics(hid_t file, const CompareInput& in, const ComparePlan& plan,
                    const LawRuns& runs) {
  Errors errors;
  if (plan.record) {  // every side from the data's samples
    errors.reference = *plan.given_reference;
    for (const auto& law : plan.laws)
      errors.metrics.push_back(runs.sampled[static_cast<std::size_t>(
          std::find(plan.run_laws.begin(), plan.run_laws.end(), law) - plan.run_laws.begin())]);
    return errors;
  }
  errors.reference =
      plan.given_reference
          ? *plan.given_reference
          : run_metrics(file, std::string(layout::cases_group) + "/" + in.reference_law, plan.first,
                        plan.beads);
  for (const auto& law : plan.laws)
    errors.metrics.push_back(
        run_metrics(file, std::string(layout::cases_group) + "/" + law, plan.first, plan.beads));
  return errors;
}

// Runs the laws into OUTPUT.partial, writes the comparison and prints it; the file becomes
// OUTPUT only once every write and its close succeeded (PartialOutput). A failure leaves no file,
// and "written" is printed only for a file that is there.
int write_comparison_file(const CompareInput& in, const ComparePlan& plan, std::ostream& out,
                          std::ostream& err) {
  using namespace hdf5;
  try {
    PartialOutput output(in.output, existing_output(in.force));
    const hid_t file = output.create_hdf5();
    try {
      write_h5md_metadata(file, version);
      Handle cases = group(file, "cases");
      const LawRuns runs = run_every_law(in, plan, cases.get(), output);
      for (std::size_t l = 0; l < plan.run_laws.size(); ++l)
        if (!runs.failures[l].empty()) {
          err << "chaindem compare: law " << plan.run_laws[l] << " failed: " << runs.failures[l]
              << "\n";
          // `output` removes the partial file
          return *stop_flag() ? exit_on_signal + *stop_flag() : exit_failed;
        }
      warn_floor_hits(err, plan, runs);

      Errors errors = read_metrics(file, in, plan, runs);
      Handle cmp = group(file, layout::comparison_group);
      write_comparison(cmp.get(), in, plan, runs, errors);
      warn_unresolved(err, plan, errors);
      attr_string(file, "chaindem_status", "complete");
      cmp.close("/comparison");
      cases.close("/cases");
      // The results do not depend on the file: they are shown even if it cannot be committed.
      if (in.json)
        print_json(out, in, plan, runs, errors);
      else
        print_table(out, in, plan, runs, errors);
    } catch (const Error& e) {  // HDF5's: name the file
      throw output.error(e.what());
    }
    output.commit();
    if (!in.json) out << "\nwritten " << quoted_path(in.output) << "\n";
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem compare", &err});
  }
  return exit_done;
}

}  // namespace

int compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CompareInput in;
  ComparePlan plan;
  std::optional<OutputLock> lock;  // held while the laws run, so a second writer is told at once
  FailureReport report{"chaindem compare", &err, " while checking the laws' runs"};
  try {
    po::options_description desc("chaindem compare options");
    add_compare_options(desc, in);
    const po::variables_map vm = parse_command_line(args, desc, &in.case_path, "compare");
    if (vm.count("help")) {
      print_compare_usage(out, desc);
      return exit_done;
    }
    if (!in.pair.empty()) {
      try {  // a case that cannot be read is refused below, saying why
        in.pair = pair_as_written(CaseConfig::load(in.case_path, in.sets, in.unset), in.pair);
      } catch (const CaseError&) {
      }
    }
    in.beads_given = vm.count("beads") > 0;
    in.quantity_given = vm.count("reference-quantity") > 0;
    in.threads = command_threads(vm);
    plan = plan_comparison(in);
    report.under_way = {};
    for (const std::string& note : plan.notes) err << "chaindem compare: note: " << note << "\n";
    if (in.output.empty())
      in.output = default_output_path(in.case_path, "-compare.h5", in.sets, in.unset);
    check_output_path(in.output, {in.case_path, in.reference_data}, existing_output(in.force));
    check_nothing_to_resume(in.output);
    lock.emplace(in.output);
  } catch (...) {
    return report_failure(std::current_exception(), report);
  }
  return write_comparison_file(in, plan, out, err);
}

}  // namespace chaindem
