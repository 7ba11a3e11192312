#pragma once
// The parts of `chaindem fit` (docs/fit.md), shared by its source files:
// - fit_laws.cpp: which laws, which of their parameters, fitting them in parallel, ranking;
// - fit_data.cpp: the two kinds of data, measured impacts and a chain's history;
// - fit_report.cpp: the table, the JSON and the HDF5 file;
// - fit_command.cpp: the command line.
// Not a library interface: the command's own.

#include <boost/program_options.hpp>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "chaindem/commands/impact_bodies.hpp"
#include "chaindem/fit/impact_data.hpp"
#include "chaindem/fit/least_squares.hpp"
#include "chaindem/laws/law.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/setup/chain_record.hpp"

namespace chaindem::fit_command_parts {

namespace po = boost::program_options;
using fit::ImpactData;

/// What the command line gives.
struct FitInput {
  std::string data, laws, family, free, tension = "law", output, case_path, quantity = "velocity";
  std::string pair;  // "A.B": with --case, the laws and parameters are [contact.A.B]'s
  std::vector<std::string> starts, sets, bounds;
  ImpactBodies bodies;
  int search_starts = 8;
  unsigned seed = 1;
  double confidence = 0.95;
  double sigma = 0.0;  // chain records: the uncertainty of every value (0: none given)
  int bootstrap = 0;   // refits of the residual bootstrap (0: none)
  int block = 0;       // its block length (0: automatic)
  int threads = 1;     // laws fitted at once; a lone law's bootstrap refits at once
  bool json = false;
  bool force = false;  // replace the output if it exists
};

// --bounds key=low:high, a narrower range for a fitted parameter than the law's.
struct Range {
  double low, high;
};

// What each law's fit starts from: the options, and where the data give a parameter a value or
// derive it.
struct FreeChoice {
  std::map<std::string, double> starts;  // --start
  std::set<std::string> held;            // --set: not fitted
  std::map<std::string, Range> bounds;   // --bounds
  // The law's parameters that something other than a default gives (the materials' yield
  // stress, a stiffness derived from them): not fitted unless --free names them.
  std::function<bool(const ParamSpec&)> derived;
  // Where a search starts when --start does not say: the case's value, if it gives one.
  std::function<std::optional<double>(const std::string& key)> given;
};

// One law's fit: its free parameters, the result (or why there is none), and the fitted law's
// curve of each series of the data, for the figure.
struct LawFit {
  const LawEntry* law;
  std::vector<fit::FreeParameter> free;
  fit::Result result;
  std::string failure;  // why no start of the search reached a usable fit
  double weight = 0.0;  // Akaike weight among the laws
  std::vector<double> curve_x;
  std::vector<std::vector<double>> curve;  // per series, at curve_x
  bool excluded = false;                   // failed as --bounds exclude what the data call for
  int refits = 0;                          // bootstrap refits that converged
  std::size_t block = 0;                   // bootstrap block length
};

// What the report says of the data, apart from the laws: the kind's own parts.
struct DataReport {
  std::string summary;  // the table's first line, after "chaindem fit: "
  std::string json;     // the JSON members about the data, after "data"
  bool weighted = false;
  std::string x_name;               // "velocity" [m/s] or "time" [s]
  std::vector<std::string> series;  // names of the series: quantities, or bead<k>
  // Per series: the residuals of a law's fit, NaN where not measured.
  std::function<std::vector<std::vector<double>>(const fit::Result&)> residuals;
  std::function<void(hid_t data_group)> write_data;
};

// Laws, their parameters, fitting and ranking (fit_laws.cpp).

// The laws to fit: --laws, or every law of --family.
std::vector<const LawEntry*> chosen_laws(const FitInput& in);

// key=value options (--set, --start) as numbers by key.
std::map<std::string, double> key_values(const std::vector<std::string>& given,
                                         const std::string& option);

// --bounds key=low:high, a narrower range for a fitted parameter than the law's.
std::map<std::string, Range> key_ranges(const std::vector<std::string>& given);

// The free parameters of `law`: --free's keys it has (all of them must be some law's), else
// those without a default that neither --set nor the data give.
std::vector<fit::FreeParameter> free_parameters(const LawEntry& law, const std::string& free_text,
                                                const FreeChoice& c);

// Every key of --free, --start and --set (a law parameter's) is some law's parameter, every key
// of --bounds is fitted in some law.
void check_keys(const FitInput& in, const std::vector<const LawEntry*>& laws, const FreeChoice& c);

// A law that cannot be fitted, for `why`: an error when --laws named it, else (a law of
// --family) its reason in `skipped`.
void skip(const FitInput& in, const LawEntry& law, const std::string& why, std::string& skipped);

// The free parameters of each law, checked: something to fit and somewhere to start. A law of
// --family without either is skipped, its reason in `skipped` (a law named by --laws is an
// error).
std::vector<std::vector<fit::FreeParameter>> chosen_free(const FitInput& in,
                                                         const std::vector<const LawEntry*>& laws,
                                                         const FreeChoice& c,
                                                         std::vector<std::string>& skipped);

// Enough points for each law's fit: AICc needs n - K - 1 > 0, K the parameters and, without
// uncertainties, the scatter.
void check_points(const FitInput& in, const std::vector<const LawEntry*>& laws,
                  const std::vector<std::vector<fit::FreeParameter>>& free, std::size_t points,
                  bool weighted);

// With --bootstrap, the intervals of `f` are its bootstrap's: residuals resampled in blocks
// that stay within each of `sequences` (a series of impacts, a bead's record), of --block
// points, else of one for independent points and from the residuals' correlation for a
// `time_series`.
void bootstrap_intervals(const FitInput& in, const fit::Problem& problem, LawFit& f,
                         const std::vector<std::size_t>& sequences, bool time_series);

// --block fits in every sequence the bootstrap resamples (a series of impacts, a bead's record).
void check_block(const FitInput& in, const std::vector<std::size_t>& sequences);

// Fits every law not already failed, `threads` at a time (each fit is independent and seeded:
// the results do not depend on the thread count); a line on `progress` as each ends. A fit that
// throws a standard exception fails alone (its reason kept); anything else is rethrown. A best
// fit at an end of --bounds (not at one of the law's own) fails: the bounds exclude what the
// data call for.
void fit_laws(std::vector<LawFit>& fits,
              const std::function<void(LawFit&, std::size_t index)>& fit_one, int threads,
              std::ostream* progress);

// `problem` that stops being evaluated once a signal asked the command to stop (stop_flag()):
// each evaluation then fails at once, so that a search, and the fit of every law, ends quickly
// and the command can exit cleanly (fit_command.cpp).
fit::Problem stoppable(fit::Problem problem);

// Best AICc first, laws without a fit last; Akaike weights among those with one.
void rank(std::vector<LawFit>& fits);

// The two kinds of data (fit_data.cpp).

// Measured impacts against the bodies of the command line: each law's fit, and the report.
DataReport fit_impacts(const FitInput& in, const po::variables_map& vm,
                       const std::vector<const LawEntry*>& laws, int threads, ImpactData& data,
                       std::vector<LawFit>& fits);

// A measured chain: the case run under each law, against the record.
DataReport fit_chain(const FitInput& in, const po::variables_map& vm,
                     const po::options_description& bodies,
                     const std::vector<const LawEntry*>& laws, int threads, ChainRecord& record,
                     std::vector<LawFit>& fits, std::ostream& err);

// The report (fit_report.cpp).

void print_table(std::ostream& out, const FitInput& in, const DataReport& d,
                 const std::vector<LawFit>& fits);

void print_json(std::ostream& out, const FitInput& in, const DataReport& d,
                const std::vector<LawFit>& fits);

// The file of a fit (docs/fit.md, "The output"): /data, and /laws/<law> per law fitted.
void write_fit_file(const std::string& path, const FitInput& in, const DataReport& d,
                    const std::vector<LawFit>& fits);

}  // namespace chaindem::fit_command_parts
