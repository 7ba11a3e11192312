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
#include "chaindem/text.hpp"
#include "fit_parts.hpp"

namespace chaindem {

using namespace fit_command_parts;

int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  FitInput in;
  po::options_description desc("chaindem fit options");
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
  po::options_description bodies("the bodies of impact data (as for chaindem collide)");
  add_body_options(bodies, in.bodies);
  desc.add(bodies);
  desc.add_options()("case", po::value(&in.case_path),
                     "a case file: the data are the history of its chain, in the CSV form of "
                     "`compare --reference-data`")(
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
  const auto parsed = parse_command_line(args, desc, nullptr, "fit", &err);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
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
    return 0;
  }
  std::vector<LawFit> fits;
  ImpactData impacts;
  ChainRecord record;
  DataReport report;
  install_stop_handlers();         // a signal ends the searches, and the command, cleanly
  std::optional<OutputLock> lock;  // held from here, so a second writer is told at once
  try {
    if (!in.output.empty()) {
      std::vector<std::string> inputs{in.data};
      if (!in.case_path.empty()) inputs.push_back(in.case_path);
      check_output_path(in.output, inputs);
      check_nothing_to_resume(in.output);
      lock.emplace(in.output);
    }
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
    if (vm.count("free") && comma_list("--free", in.free).empty())
      throw CaseError("--free is empty: name the parameters to fit, or leave it out");
    const int threads = in.threads = command_threads(vm);
    const std::vector<const LawEntry*> laws = chosen_laws(in);
    report = in.case_path.empty() ? fit_impacts(in, vm, laws, threads, impacts, fits)
                                  : fit_chain(in, vm, bodies, laws, threads, record, fits, err);
  } catch (const CaseError& e) {
    err << "chaindem fit: invalid input: " << e.what() << "\n";
    return 2;
  } catch (const OutputPathError& e) {
    err << "chaindem fit: invalid output: " << e.what() << "\n";
    return 2;
  } catch (const LawParamError& e) {
    err << "chaindem fit: invalid input: --set " << quoted_text(e.key) << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "chaindem fit: error: " << failure_text(e) << "\n";
    return 1;
  }
  if (const int signal = *stop_flag()) {
    err << "chaindem fit: interrupted by signal " << signal << "; no fit reported"
        << (in.output.empty() ? "" : ", no output written") << "\n";
    return 128 + signal;
  }
  rank(fits);
  if (!fits.front().failure.empty()) {  // none fitted: bounds that exclude the data are input
    const auto excluded =
        std::find_if(fits.begin(), fits.end(), [](const LawFit& f) { return f.excluded; });
    const LawFit& shown = excluded != fits.end() ? *excluded : fits.front();
    err << "chaindem fit: " << (excluded != fits.end() ? "invalid input" : "error")
        << ": no law was fitted: " << shown.law->id << ": " << shown.failure << "\n";
    return excluded != fits.end() ? 2 : 1;
  }
  if (!in.output.empty()) try {
      write_fit_file(in.output, in, report, fits);
    } catch (const std::exception& e) {
      err << "chaindem fit: error: " << failure_text(e) << "\n";
      return 1;
    }
  if (in.json) {
    print_json(out, in, report, fits);
  } else {
    print_table(out, in, report, fits);
    if (!in.output.empty()) out << "\nwritten " << quoted_path(in.output) << "\n";
  }
  return 0;
}

}  // namespace chaindem
