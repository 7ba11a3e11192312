// `chaindem fit`: which law, with which parameters, reproduces measured impacts or a measured
// chain (docs/fit.md). Two kinds of data:
// - impacts: a CSV file of impact velocities and what was measured at each (restitution, peak
//   force, contact duration, largest overlap), optionally with uncertainties; the bodies as
//   `collide` takes them (fit/impact_data.hpp);
// - a chain history: a case (--case) and a record of bead velocities or contact forces over
//   time, in the CSV form `compare --reference-data` reads (fit/chain_model.hpp).
// Each law is fitted (fit/least_squares.hpp), the laws in parallel, and ranked by AICc. The
// command line is here; its parts are in fit_parts.hpp.
#include "chaindem/commands/fit_command.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <iostream>
#include <optional>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"
#include "fit_parts.hpp"

namespace chaindem {

using namespace fit_command_parts;

namespace {

// The options; those of the bodies apart, in `bodies`, which a chain's fit refuses.
void add_fit_options(po::options_description& desc, po::options_description& bodies, FitInput& in) {
  desc.add_options()("help,h", "this help")(
      "data", po::value(&in.data),
      "CSV file of the measurements: impacts, or a chain's history with --case (docs/fit.md)")(
      "laws", po::value(&in.laws), "laws to fit, comma separated")("family", po::value(&in.family),
                                                                   "or every law of this family")(
      "free", po::value(&in.free),
      "parameters to fit, comma separated (default: each law's required ones)")(
      "bounds", po::value(&in.bounds)->composing(),
      "a narrower range for a fitted parameter than the law's: --bounds key=low:high")(
      "start", po::value(&in.starts)->composing(),
      "where a search starts: --start key=value (needed for a parameter without a default "
      "and an unbounded range, e.g. yield_stress)")(
      "set", po::value(&in.sets)->composing(),
      "a law parameter held fixed: --set key=value (with --case also any case key: "
      "--set section.key=value)");
  add_body_options(bodies, in.bodies);
  desc.add(bodies);
  desc.add_options()("case", po::value(&in.case_path),
                     "a case file: the data are the history of its chain, in the CSV form of "
                     "`compare --reference-data`")(
      "pair", po::value(&in.pair),
      "with --case: A.B, fit the law of the contacts of materials A and B ([contact.A.B]; A may "
      "be a wall), every other contact keeping its own (default: [contact]'s)")(
      "quantity", po::value(&in.quantity),
      "with --case: what the record measures, velocity (default) or force")(
      "sigma", po::value(&in.sigma),
      "with --case: the uncertainty of every recorded value, in SI units (default: none, "
      "estimated from the residuals)")("tension", po::value(&in.tension),
                                       "law | clamp | allow (default: each law's policy)")(
      "starts", po::value(&in.search_starts), "starts of the search per law: 1 to 100 (default 8)")(
      "bootstrap", po::value(&in.bootstrap),
      "intervals from this many refits to resampled residuals instead: 100 to 100000 (default: "
      "none)")("block", po::value(&in.block),
               "with --bootstrap: residuals resampled in blocks of this many consecutive points "
               "(default: 1 for impacts; from the residuals' correlation for a chain)")(
      "seed", po::value(&in.seed), "of the random starts (default 1)")(
      "confidence", po::value(&in.confidence), "of the intervals: 0.5 to 0.999 (default 0.95)")(
      "threads", po::value<int>(), "laws fitted at once (default OMP_NUM_THREADS or all cores)")(
      "json", po::bool_switch(&in.json), "print the results as JSON")(
      "output,o", po::value(&in.output),
      "HDF5 file of the fits, with each law's curves (chaindem-plot fit draws it)");
  add_force_option(desc, &in.force);
}

void print_fit_usage(std::ostream& out, const po::options_description& desc) {
  out << "usage: chaindem fit --data FILE.csv (--laws A,B,... | --family NAME) [--free k1,k2]\n"
         "         [--start key=value ...] [--set key=value ...] BODIES [--json] [-o FIT.h5]\n"
         "       chaindem fit --case CASE.ini --data RECORD.csv (--laws ... | --family ...)\n"
         "         [--quantity velocity|force] [--sigma S] ...\n"
         "BODIES as for `chaindem collide`: --radius R --youngs-modulus E --poisson-ratio NU\n"
         "--density RHO [--wall], or --mass M [--mass2 M2 | --wall] --set stiffness=K.\n\n"
         "Fits each law's free parameters to measured binary impacts (restitution, peak force,\n"
         "contact duration or largest overlap against impact velocity), or to the measured\n"
         "history of a chain (bead velocities or contact forces over time), with confidence\n"
         "intervals, and ranks the laws by AICc (docs/fit.md).\n\n"
      << desc;
}

// What the options say by themselves, before any file is read: the data are given, the numbers
// are in their ranges, and the options of one kind of data are not given for the other.
void check_fit_options(const FitInput& in, const po::variables_map& vm) {
  if (in.data.empty())
    throw CaseError(std::string("--data is missing: the measured ") +
                    (in.case_path.empty() ? "impacts" : "history of the chain") + " (CSV)");
  if (in.search_starts < 1 || in.search_starts > 100)
    throw CaseError("--starts: " + std::to_string(in.search_starts) +
                    " is out of range: allowed 1 to 100");
  if (in.bootstrap != 0 && (in.bootstrap < 100 || in.bootstrap > 100000))
    throw CaseError("--bootstrap: " + std::to_string(in.bootstrap) +
                    " is out of range: allowed 100 to 100000 refits (0: none)");
  if (vm.count("block") && in.bootstrap == 0)
    throw CaseError("--block is the block length of --bootstrap, which is not given");
  if (vm.count("block") && in.block < 1)
    throw CaseError("--block: " + std::to_string(in.block) + " is out of range: allowed >= 1");
  if (!(in.confidence >= 0.5 && in.confidence <= 0.999))
    throw CaseError("--confidence: " + number_text(in.confidence) +
                    " is out of range: allowed 0.5 to 0.999");
  if (in.case_path.empty())
    for (const char* option : {"quantity", "sigma"})
      if (vm.count(option))
        throw CaseError(std::string("--") + option +
                        " is for a chain's history (--case); impact data name their "
                        "quantities and uncertainties in their columns");
  if (vm.count("pair") && in.case_path.empty())
    throw CaseError("--pair names a contact of a case's chain (--case); impact data have one");
  if (vm.count("pair") && contact_pair_of(pair_key_name(in.pair, &PairContactSpec::law)) != in.pair)
    throw CaseError("--pair '" + quoted_text(in.pair) +
                    "' is not two names A.B: two materials, or a wall and a material, as a "
                    "[contact.A.B] section names them");
  if (vm.count("free") && comma_list("--free", in.free).empty())
    throw CaseError("--free is empty: name the parameters to fit, or leave it out");
}

// The output checked, and locked so that a second writer is told at once.
void claim_output(const FitInput& in, std::optional<OutputLock>& lock) {
  std::vector<std::string> inputs{in.data};
  if (!in.case_path.empty()) inputs.push_back(in.case_path);
  check_output_path(in.output, inputs, existing_output(in.force));
  check_nothing_to_resume(in.output);
  lock.emplace(in.output);
}

// No law fitted, the best ranked first: the command fails. Bounds that exclude what the data
// call for are input (CaseError); anything else is a failed fit.
void require_a_fit(const std::vector<LawFit>& fits) {
  if (fits.front().failure.empty()) return;
  const auto excluded =
      std::find_if(fits.begin(), fits.end(), [](const LawFit& f) { return f.excluded; });
  const LawFit& shown = excluded != fits.end() ? *excluded : fits.front();
  const std::string what =
      "no law was fitted: " + std::string(shown.law->id) + ": " + shown.failure;
  if (excluded != fits.end()) throw CaseError(what);
  throw std::runtime_error(what);
}

// The fits are done: an output that cannot be written now is a failed run, whatever stops it.
void write_fit_output(const FitInput& in, const DataReport& report,
                      const std::vector<LawFit>& fits) {
  try {
    write_fit_file(in.output, in, report, fits);
  } catch (const OutputPathError& e) {
    throw OutputError(e.what());
  }
}

}  // namespace

int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    FitInput in;
    po::options_description desc("chaindem fit options");
    po::options_description bodies("the bodies of impact data (as for chaindem collide)");
    add_fit_options(desc, bodies, in);
    const po::variables_map vm = parse_command_line(args, desc, nullptr, "fit");
    if (vm.count("help")) {
      print_fit_usage(out, desc);
      return exit_done;
    }
    install_stop_handlers();         // a signal ends the searches, and the command, cleanly
    std::optional<OutputLock> lock;  // held from here to the end
    if (!in.output.empty()) claim_output(in, lock);
    check_fit_options(in, vm);
    if (!in.pair.empty()) {
      try {  // a case that cannot be read is refused below, saying why
        in.pair = pair_as_written(CaseConfig::load(in.case_path), in.pair);
      } catch (const CaseError&) {
      }
    }
    const int threads = in.threads = command_threads(vm);
    const std::vector<const LawEntry*> laws = chosen_laws(in);
    std::vector<LawFit> fits;
    ImpactData impacts;  // the data, which the report reads
    ChainRecord record;
    const DataReport report = in.case_path.empty()
                                  ? fit_impacts(in, vm, laws, threads, impacts, fits)
                                  : fit_chain(in, vm, bodies, laws, threads, record, fits, err);
    if (const int signal = *stop_flag()) {
      err << "chaindem fit: interrupted by signal " << signal << "; no fit reported"
          << (in.output.empty() ? "" : ", no output written") << "\n";
      return exit_on_signal + signal;
    }
    rank(fits);
    require_a_fit(fits);
    if (!in.output.empty()) write_fit_output(in, report, fits);
    if (in.json) {
      print_json(out, in, report, fits);
    } else {
      print_table(out, in, report, fits);
      if (!in.output.empty()) out << "\nwritten " << quoted_path(in.output) << "\n";
    }
    return exit_done;
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem fit", &err});
  }
}

}  // namespace chaindem
