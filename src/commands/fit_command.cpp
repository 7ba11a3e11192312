// `chaindem fit`: which law, with which parameters, reproduces measured impacts or a measured
// chain (docs/fit.md). Two kinds of data:
// - impacts: a CSV file of impact velocities and what was measured at each (restitution, peak
//   force, contact duration, largest overlap), optionally with uncertainties; the bodies as
//   `collide` takes them (fit/impact_data.hpp);
// - a chain history: a case (--case) and a record of bead velocities or contact forces over
//   time, in the CSV form `compare --reference-data` reads (fit/chain_model.hpp).
// Each law is fitted (fit/least_squares.hpp), the laws in parallel, and ranked by AICc.
#include "chaindem/commands/fit_command.hpp"

#include <omp.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/impact_bodies.hpp"
#include "chaindem/fit/chain_model.hpp"
#include "chaindem/fit/impact_data.hpp"
#include "chaindem/fit/least_squares.hpp"
#include "chaindem/io/case_file.hpp"
#include "chaindem/io/hdf5_util.hpp"
#include "chaindem/io/output_file.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

using fit::ImpactData;
using fit::ImpactQuantity;
using fit::Series;

struct FitInput {
  std::string data, laws, family, free, tension = "law", output, case_path, quantity = "velocity";
  std::vector<std::string> starts, sets, bounds;
  ImpactBodies bodies;
  int search_starts = 8;
  unsigned seed = 1;
  double confidence = 0.95;
  double sigma = 0.0;  // chain records: the uncertainty of every value (0: none given)
  int bootstrap = 0;   // refits of the residual bootstrap (0: none)
  int block = 0;       // its block length (0: automatic)
  bool json = false;
};

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, by);) out.push_back(trimmed(item));
  return out;
}

// The laws to fit: --laws, or every law of --family.
std::vector<const LawEntry*> chosen_laws(const FitInput& in) {
  std::vector<const LawEntry*> laws;
  if (in.laws.empty() == in.family.empty())
    throw CaseError("give --laws A,B,... or --family NAME (one of them)");
  if (!in.family.empty()) {
    std::vector<std::string> families;
    for (const LawEntry& law : all_laws()) {
      families.emplace_back(to_string(law.family));
      if (to_string(law.family) == in.family) laws.push_back(&law);
    }
    if (laws.empty())
      throw CaseError("--family: '" + quoted_text(in.family) + "' is not a law family" +
                      did_you_mean(in.family, families));
    return laws;
  }
  for (const std::string& id : split(in.laws, ',')) {
    const LawEntry* law = find_law(id);
    if (!law) {
      std::vector<std::string> ids;
      for (const LawEntry& l : all_laws()) ids.emplace_back(l.id);
      throw CaseError("--laws: '" + quoted_text(id) + "' is not a law of chaindem" +
                      did_you_mean(id, ids));
    }
    if (std::find(laws.begin(), laws.end(), law) != laws.end())
      throw CaseError("--laws: '" + id + "' is named twice");
    laws.push_back(law);
  }
  return laws;
}

// key=value options (--set, --start) as numbers by key.
std::map<std::string, double> key_values(const std::vector<std::string>& given,
                                         const std::string& option) {
  std::map<std::string, double> out;
  for (const std::string& s : given) {
    const auto eq = s.find('=');
    const std::string key = trimmed(s.substr(0, eq));
    if (key.empty() || eq == std::string::npos)
      throw CaseError(option + " '" + quoted_text(s) + "': expected key=number");
    if (out.count(key)) throw CaseError(option + " " + key + ": given twice");
    out[key] = option_number(option + " " + key, trimmed(s.substr(eq + 1)));
  }
  return out;
}

// --bounds key=low:high, a narrower range for a fitted parameter than the law's.
struct Range {
  double low, high;
};
std::map<std::string, Range> key_ranges(const std::vector<std::string>& given) {
  std::map<std::string, Range> out;
  for (const std::string& s : given) {
    const auto eq = s.find('='), colon = s.find(':', eq == std::string::npos ? 0 : eq);
    const std::string key = trimmed(s.substr(0, eq));
    if (key.empty() || eq == std::string::npos || colon == std::string::npos)
      throw CaseError("--bounds '" + quoted_text(s) + "': expected key=low:high");
    const double low =
        option_number("--bounds " + key + " low", trimmed(s.substr(eq + 1, colon - eq - 1)));
    const double high = option_number("--bounds " + key + " high", trimmed(s.substr(colon + 1)));
    if (!(low < high))
      throw CaseError("--bounds " + key + "=" + number_text(low) + ":" + number_text(high) +
                      ": the low end must be below the high end");
    if (out.count(key)) throw CaseError("--bounds " + key + ": given twice");
    out[key] = {low, high};
  }
  return out;
}

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

// The free parameters of `law`: --free's keys it has (all of them must be some law's), else
// those without a default that neither --set nor the data give.
std::vector<fit::FreeParameter> free_parameters(const LawEntry& law, const std::string& free_text,
                                                const FreeChoice& c) {
  std::vector<std::string> keys;
  if (!free_text.empty()) {
    for (const std::string& key : split(free_text, ',')) {
      if (c.held.count(key))
        throw CaseError("--free " + key + " and --set " + key +
                        ": a parameter is fitted or held fixed, not both");
      if (law.find_param(key)) keys.push_back(key);
    }
  } else {
    for (const ParamSpec& p : law.params)
      if (!p.default_value && !c.derived(p) && !c.held.count(std::string(p.key)))
        keys.emplace_back(p.key);
  }
  std::vector<fit::FreeParameter> free;
  for (const std::string& key : keys) {
    const ParamSpec& p = *law.find_param(key);
    fit::FreeParameter f{key,
                         std::string(p.unit),
                         p.min,
                         p.max,
                         !p.min_inclusive,
                         !p.max_inclusive,
                         p.default_value};
    if (const auto given = c.given ? c.given(key) : std::nullopt; given && p.admits(*given))
      f.start = *given;
    if (const auto b = c.bounds.find(key); b != c.bounds.end()) {
      const auto [low, high] = b->second;
      if (!p.admits(low) || !p.admits(high))
        throw CaseError("--bounds " + key + "=" + number_text(low) + ":" + number_text(high) +
                        ": outside the range of law '" + std::string(law.id) + "': allowed " +
                        p.range_text());
      f.lower = low;
      f.upper = high;
      f.lower_open = f.upper_open = false;
      if (f.start && (*f.start < low || *f.start > high)) f.start.reset();
    }
    if (const auto s = c.starts.find(key); s != c.starts.end()) {
      if (!p.admits(s->second))
        throw CaseError("--start " + key + "=" + number_text(s->second) +
                        ": out of the range of law '" + std::string(law.id) + "': allowed " +
                        p.range_text());
      if (s->second < f.lower || s->second > f.upper)
        throw CaseError("--start " + key + "=" + number_text(s->second) + ": outside --bounds " +
                        number_text(f.lower) + ":" + number_text(f.upper));
      f.start = s->second;
    }
    free.push_back(f);
  }
  return free;
}

// Every key of --free, --start and --set (a law parameter's) is some law's parameter, every key
// of --bounds is fitted in some law.
void check_keys(const FitInput& in, const std::vector<const LawEntry*>& laws, const FreeChoice& c) {
  std::vector<std::string> all_keys;
  for (const LawEntry* law : laws)
    for (const ParamSpec& p : law->params) all_keys.emplace_back(p.key);
  auto check = [&](const std::string& option, const std::string& key) {
    if (std::find(all_keys.begin(), all_keys.end(), key) == all_keys.end())
      throw CaseError(option + ": '" + quoted_text(key) + "' is a parameter of none of the laws" +
                      did_you_mean(key, all_keys));
  };
  for (const auto& [key, value] : c.starts) check("--start", key);
  for (const std::string& key : c.held) check("--set", key);
  std::set<std::string> named;
  if (!in.free.empty())
    for (const std::string& key : split(in.free, ',')) {
      if (!named.insert(key).second) throw CaseError("--free: '" + key + "' is named twice");
      bool anyone = false;
      for (const LawEntry* law : laws) anyone = anyone || law->find_param(key);
      if (!anyone)
        throw CaseError("--free: '" + quoted_text(key) + "' is a parameter of none of the laws");
    }
  for (const auto& [key, range] : c.bounds) {
    bool fitted = false;
    for (const LawEntry* law : laws)
      for (const auto& p : free_parameters(*law, in.free, c)) fitted = fitted || p.key == key;
    if (!fitted)
      throw CaseError("--bounds: '" + quoted_text(key) + "' is fitted in none of the laws");
  }
}

// A law that cannot be fitted, for `why`: an error when --laws named it, else (a law of
// --family) its reason in `skipped`.
void skip(const FitInput& in, const LawEntry& law, const std::string& why, std::string& skipped) {
  if (in.family.empty()) throw CaseError("law '" + std::string(law.id) + "': " + why);
  skipped = why;
}

// The free parameters of each law, checked: something to fit and somewhere to start. A law of
// --family without either is skipped, its reason in `skipped` (a law named by --laws is an
// error).
std::vector<std::vector<fit::FreeParameter>> chosen_free(const FitInput& in,
                                                         const std::vector<const LawEntry*>& laws,
                                                         const FreeChoice& c,
                                                         std::vector<std::string>& skipped) {
  check_keys(in, laws, c);
  std::vector<std::vector<fit::FreeParameter>> out;
  skipped.assign(laws.size(), "");
  for (std::size_t l = 0; l < laws.size(); ++l) {
    out.push_back(free_parameters(*laws[l], in.free, c));
    std::string why;
    if (out.back().empty()) {
      why = in.free.empty() ? "it has no parameter to fit"
                            : "it has none of the parameters of --free " + in.free;
    } else {
      try {
        fit::first_start(out.back());
      } catch (const std::invalid_argument& e) {
        why = std::string(e.what()) + " (--start key=value)";
      }
    }
    if (!why.empty()) skip(in, *laws[l], why, skipped[l]);
  }
  return out;
}

// Enough points for each law's fit: AICc needs n - K - 1 > 0, K the parameters and, without
// uncertainties, the scatter.
void check_points(const FitInput& in, const std::vector<const LawEntry*>& laws,
                  const std::vector<std::vector<fit::FreeParameter>>& free, std::size_t points,
                  bool weighted) {
  for (std::size_t l = 0; l < laws.size(); ++l) {
    const std::size_t k = free[l].size(), needed = k + (weighted ? 2 : 3);
    if (k > 0 && points < needed)
      throw CaseError(in.data + ": " + std::to_string(points) +
                      (points == 1 ? " point is" : " points are") + " too few to fit " +
                      std::to_string(k) + " parameter(s) of law '" + std::string(laws[l]->id) +
                      "'" + (weighted ? "" : " and the scatter") +
                      " and rank it by AICc; at least " + std::to_string(needed));
  }
}

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
  int refits = 0;                          // bootstrap refits that converged
  std::size_t block = 0;                   // bootstrap block length
};

// With --bootstrap, the intervals of `f` are its bootstrap's: residuals resampled in blocks
// that stay within each of `sequences` (a series of impacts, a bead's record), of --block
// points, else of one for independent points and from the residuals' correlation for a
// `time_series`.
void bootstrap_intervals(const FitInput& in, const fit::Problem& problem, LawFit& f,
                         const std::vector<std::size_t>& sequences, bool time_series) {
  if (in.bootstrap == 0) return;
  f.block = in.block > 0  ? std::size_t(in.block)
            : time_series ? fit::suggested_block(f.result.residuals, sequences)
                          : 1;
  f.result.intervals = fit::bootstrap(problem, f.result, in.confidence,
                                      {in.bootstrap, f.block, sequences, in.seed}, &f.refits);
}

// --block fits in every sequence the bootstrap resamples (a series of impacts, a bead's record).
void check_block(const FitInput& in, const std::vector<std::size_t>& sequences) {
  const std::size_t shortest = *std::min_element(sequences.begin(), sequences.end());
  if (in.block > 0 && std::size_t(in.block) > shortest)
    throw CaseError("--block " + std::to_string(in.block) +
                    ": longer than the shortest series of the data (" + std::to_string(shortest) +
                    " points)");
}

// Fits every law not already failed, `threads` at a time (each fit is independent and seeded:
// the results do not depend on the thread count); a line on `progress` as each ends. A fit that
// throws a standard exception fails alone (its reason kept); anything else is rethrown.
void fit_laws(std::vector<LawFit>& fits,
              const std::function<void(LawFit&, std::size_t index)>& fit_one, int threads,
              std::ostream* progress) {
  std::mutex lock;
  std::exception_ptr error;
  int done = 0;
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic) num_threads(threads)
  for (std::size_t l = 0; l < fits.size(); ++l) {
    if (!fits[l].failure.empty()) continue;  // skipped before fitting
    try {
      fit_one(fits[l], l);
    } catch (const std::exception& e) {
      fits[l].failure = e.what();
    } catch (...) {
      fits[l].failure = "stopped by an unknown error";
      std::lock_guard<std::mutex> guard(lock);
      if (!error) error = std::current_exception();
    }
    std::lock_guard<std::mutex> guard(lock);
    ++done;
    if (progress)
      *progress << "chaindem fit: " << fits[l].law->id << " "
                << (fits[l].failure.empty() ? "fitted" : "failed") << " (" << done << " of "
                << fits.size() << ", "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                << " s)\n"
                << std::flush;
  }
  if (error) std::rethrow_exception(error);
}

// Best AICc first, laws without a fit last; Akaike weights among those with one.
void rank(std::vector<LawFit>& fits) {
  std::stable_sort(fits.begin(), fits.end(), [](const LawFit& a, const LawFit& b) {
    if (a.failure.empty() != b.failure.empty()) return a.failure.empty();
    return a.failure.empty() && a.result.aicc < b.result.aicc;
  });
  double total = 0.0;
  for (LawFit& f : fits)
    if (f.failure.empty())
      total += f.weight = std::exp(-0.5 * (f.result.aicc - fits.front().result.aicc));
  for (LawFit& f : fits) f.weight /= total;
}

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

void print_table(std::ostream& out, const FitInput& in, const DataReport& d,
                 const std::vector<LawFit>& fits) {
  out << "chaindem fit: " << d.summary << ", "
      << (d.weighted ? "weighted by their uncertainties"
                     : "unweighted (the scatter estimated from the residuals)")
      << "; laws ranked by AICc, " << int(std::round(100 * in.confidence)) << " % intervals\n";
  const double best = fits.front().result.aicc;
  out << std::setprecision(6);
  for (std::size_t k = 0; k < fits.size(); ++k) {
    const LawFit& f = fits[k];
    if (!f.failure.empty()) {
      out << "\n-. " << f.law->id << "  not fitted: " << f.failure << "\n";
      continue;
    }
    const fit::Result& r = f.result;
    const double rmse = std::sqrt(r.rss / double(r.points));
    out << "\n"
        << k + 1 << ". " << f.law->id << "  AICc " << r.aicc << " (delta " << r.aicc - best
        << ", weight " << f.weight << ")  BIC " << r.bic << "  "
        << (d.weighted ? "chi2/dof " : "RMS residual ")
        << (d.weighted ? r.rss / std::max(1.0, double(r.points) - double(r.parameters)) : rmse)
        << "\n";
    if (in.bootstrap > 0)
      out << "   bootstrap: " << f.refits << " of " << in.bootstrap << " refits, blocks of "
          << f.block << "\n";
    for (std::size_t j = 0; j < f.free.size(); ++j) {
      const std::string unit = f.free[j].unit == "-" ? "" : " " + f.free[j].unit;
      out << "   " << f.free[j].key << " = " << r.values[j];
      if (std::isfinite(r.standard_errors[j])) out << " +- " << r.standard_errors[j];
      out << unit << "  [" << r.intervals[j].low << ", " << r.intervals[j].high << "]" << unit
          << " (" << r.intervals[j].method << ")\n";
    }
  }
}

void print_json(std::ostream& out, const FitInput& in, const DataReport& d,
                const std::vector<LawFit>& fits) {
  const double best = fits.front().result.aicc;
  out << "{\"data\": \"" << quoted_text(in.data) << "\", " << d.json
      << ", \"weighted\": " << (d.weighted ? "true" : "false")
      << ", \"confidence\": " << json_number(in.confidence) << ", \"laws\": [";
  for (std::size_t k = 0; k < fits.size(); ++k) {
    const LawFit& f = fits[k];
    out << (k ? ", " : "") << "{\"law\": \"" << f.law->id << "\"";
    if (!f.failure.empty()) {
      out << ", \"rank\": null, \"failure\": \"" << quoted_text(f.failure) << "\"}";
      continue;
    }
    const fit::Result& r = f.result;
    out << ", \"rank\": " << k + 1 << ", \"aicc\": " << json_number(r.aicc)
        << ", \"delta_aicc\": " << json_number(r.aicc - best)
        << ", \"weight\": " << json_number(f.weight) << ", \"bic\": " << json_number(r.bic)
        << ", \"rss\": " << json_number(r.rss) << ", \"scale\": " << json_number(r.scale);
    if (in.bootstrap > 0)
      out << ", \"bootstrap\": {\"samples\": " << in.bootstrap << ", \"refits\": " << f.refits
          << ", \"block\": " << f.block << "}";
    out << ", \"parameters\": [";
    for (std::size_t j = 0; j < f.free.size(); ++j)
      out << (j ? ", " : "") << "{\"key\": \"" << f.free[j].key << "\", \"unit\": \""
          << f.free[j].unit << "\", \"value\": " << json_number(r.values[j])
          << ", \"standard_error\": " << json_number(r.standard_errors[j])
          << ", \"low\": " << json_number(r.intervals[j].low)
          << ", \"high\": " << json_number(r.intervals[j].high) << ", \"interval\": \""
          << r.intervals[j].method << "\"}";
    out << "], \"residuals\": {";
    const auto residuals = d.residuals(r);
    for (std::size_t q = 0; q < d.series.size(); ++q) {
      out << (q ? ", " : "") << "\"" << d.series[q] << "\": [";
      for (std::size_t i = 0; i < residuals[q].size(); ++i)
        out << (i ? ", " : "") << json_number(residuals[q][i]);
      out << "]";
    }
    out << "}}";
  }
  out << "]}\n";
}

// The file of a fit (docs/fit.md, "The output"): /data, and /laws/<law> per law fitted.
void write_fit_file(const std::string& path, const FitInput& in, const DataReport& d,
                    const std::vector<LawFit>& fits) {
  using namespace hdf5;
  PartialOutput output(path);
  const hid_t f = output.create_hdf5();
  try {
    write_h5md_metadata(f, version);
    attr_string(f, "kind", in.case_path.empty() ? "impacts" : "chain");
    attr_strings(f, "series", d.series);
    attr_string(f, "data_file", in.data);
    if (!in.case_path.empty()) attr_string(f, "case", in.case_path);
    attr_numbers<double>(f, "confidence", {in.confidence}, H5T_NATIVE_DOUBLE);
    Handle data = group(f, "data");
    d.write_data(data.get());
    Handle laws = group(f, "laws");
    std::vector<std::string> order;
    const double best = fits.front().result.aicc;
    for (std::size_t k = 0; k < fits.size(); ++k) {
      const LawFit& fitted = fits[k];
      if (!fitted.failure.empty()) continue;
      const fit::Result& r = fitted.result;
      order.emplace_back(fitted.law->id);
      Handle g = group(laws.get(), std::string(fitted.law->id));
      const std::pair<const char*, double> scalars[] = {
          {"rank", double(k + 1)},   {"aicc", r.aicc}, {"delta_aicc", r.aicc - best},
          {"weight", fitted.weight}, {"bic", r.bic},   {"rss", r.rss},
          {"scale", r.scale}};
      for (const auto& [name, value] : scalars)
        attr_numbers<double>(g.get(), name, {value}, H5T_NATIVE_DOUBLE);
      if (in.bootstrap > 0) {
        attr_numbers<double>(g.get(), "bootstrap_samples", {double(in.bootstrap)},
                             H5T_NATIVE_DOUBLE);
        attr_numbers<double>(g.get(), "bootstrap_refits", {double(fitted.refits)},
                             H5T_NATIVE_DOUBLE);
        attr_numbers<double>(g.get(), "bootstrap_block", {double(fitted.block)}, H5T_NATIVE_DOUBLE);
      }
      std::vector<std::string> keys, units, methods;
      std::vector<double> low, high;
      for (std::size_t j = 0; j < fitted.free.size(); ++j) {
        keys.push_back(fitted.free[j].key);
        units.push_back(fitted.free[j].unit);
        methods.push_back(r.intervals[j].method);
        low.push_back(r.intervals[j].low);
        high.push_back(r.intervals[j].high);
      }
      attr_strings(g.get(), "parameters", keys);
      attr_strings(g.get(), "units", units);
      attr_strings(g.get(), "interval_methods", methods);
      const hsize_t free = keys.size();
      dataset_fixed(g.get(), "values", {free}, r.values.data(), H5T_NATIVE_DOUBLE);
      dataset_fixed(g.get(), "standard_errors", {free}, r.standard_errors.data(),
                    H5T_NATIVE_DOUBLE);
      dataset_fixed(g.get(), "low", {free}, low.data(), H5T_NATIVE_DOUBLE);
      dataset_fixed(g.get(), "high", {free}, high.data(), H5T_NATIVE_DOUBLE);
      const auto residuals = d.residuals(r);
      const hsize_t m = fitted.curve_x.size();
      dataset_fixed(g.get(), "curve_" + d.x_name, {m}, fitted.curve_x.data(), H5T_NATIVE_DOUBLE,
                    d.x_name == "time" ? "s" : "m/s");
      for (std::size_t q = 0; q < d.series.size(); ++q) {
        dataset_fixed(g.get(), "residuals_" + d.series[q], {hsize_t(residuals[q].size())},
                      residuals[q].data(), H5T_NATIVE_DOUBLE);
        dataset_fixed(g.get(), "curve_" + d.series[q], {m}, fitted.curve[q].data(),
                      H5T_NATIVE_DOUBLE);
      }
    }
    attr_strings(laws.get(), "ranked", order);
  } catch (const std::exception& e) {
    throw output.error(e.what());
  }
  output.commit();
}

// Measured impacts against the bodies of the command line: each law's fit, and the report.
DataReport fit_impacts(const FitInput& in, const po::variables_map& vm,
                       const std::vector<const LawEntry*>& laws, int threads, ImpactData& data,
                       std::vector<LawFit>& fits) {
  check_body_numbers(vm);
  check_body_combinations(in.bodies, vm);
  data = fit::read_impact_data(in.data);
  const PairInput pair = contact_pair(in.bodies, vm);
  FreeChoice c;
  c.starts = key_values(in.starts, "--start");
  const auto sets = key_values(in.sets, "--set");
  for (const auto& [key, value] : sets) c.held.insert(key);
  c.bounds = key_ranges(in.bounds);
  // The stiffness and other derived parameters come from the materials, the yield stress from
  // --yield-stress when given.
  c.derived = [&pair](const ParamSpec& p) {
    return p.key == "yield_stress" ? pair.yield_stress > 0.0 : !p.default_text.empty();
  };
  std::vector<std::string> skipped;
  const auto free = chosen_free(in, laws, c, skipped);
  check_points(in, laws, free, data.points(), data.weighted());
  std::vector<std::size_t> sequences;  // the measured values of each quantity
  for (const Series& series : data.series)
    sequences.push_back(std::size_t(std::count_if(series.value.begin(), series.value.end(),
                                                  [](double x) { return std::isfinite(x); })));
  check_block(in, sequences);
  for (std::size_t l = 0; l < laws.size(); ++l) {  // what --set holds, in the law's ranges
    if (!skipped[l].empty()) continue;
    LawParams fixed;
    for (const auto& [key, value] : sets)
      if (laws[l]->find_param(key)) fixed[key] = value;
    std::vector<std::string> keys;
    for (const auto& p : free[l]) keys.push_back(p.key);
    try {
      fit::ImpactModel(*laws[l], pair, {}, fixed, keys).parameters(fit::first_start(free[l]));
    } catch (const LawParamError& e) {
      skip(in, *laws[l], "--set " + e.key + ": " + e.what(), skipped[l]);
    }
  }
  std::vector<ImpactOptions> options(laws.size());
  for (std::size_t l = 0; l < laws.size(); ++l) {
    const std::optional<TensionPolicy> tension = tension_from(in.tension, *laws[l]);
    if (!tension)
      throw CaseError("--tension: '" + quoted_text(in.tension) + "' is not law, clamp or allow");
    options[l].tension = *tension;
    fits.push_back({laws[l], free[l], {}, skipped[l], 0.0, {}, {}});
  }
  fit_laws(
      fits,
      [&](LawFit& f, std::size_t l) {
        LawParams fixed;
        for (const auto& [key, value] : sets)
          if (f.law->find_param(key)) fixed[key] = value;
        std::vector<std::string> keys;
        for (const auto& p : f.free) keys.push_back(p.key);
        const fit::ImpactModel model(*f.law, pair, options[l], fixed, keys);
        const fit::Problem problem = fit::impact_problem(model, data, f.free);
        f.result = fit::solve(problem, {in.search_starts, in.seed, in.confidence});
        bootstrap_intervals(in, problem, f, sequences, false);
        if (!in.output.empty()) {  // the fitted law over the data's velocities
          const auto [slow, fast] = std::minmax_element(data.velocity.begin(), data.velocity.end());
          for (int i = 0; i < 100; ++i)
            f.curve_x.push_back(*slow * std::pow(*fast / *slow, i / 99.0));
          if (!model.predict(f.result.values, f.curve_x, data.quantities(), f.curve))
            f.curve.assign(data.series.size(), std::vector<double>(f.curve_x.size(), std::nan("")));
        }
      },
      threads, nullptr);

  DataReport d;
  std::string names, json_names;
  for (const Series& s : data.series) {
    d.series.emplace_back(fit::to_string(s.quantity));
    names += (names.empty() ? "" : ", ") + d.series.back();
    json_names += (json_names.empty() ? "\"" : ", \"") + d.series.back() + "\"";
  }
  d.summary = std::to_string(data.points()) + " points of " + names + " against impact velocity (" +
              in.data + ")";
  d.json = "\"kind\": \"impacts\", \"quantities\": [" + json_names +
           "], \"points\": " + std::to_string(data.points());
  d.weighted = data.weighted();
  d.x_name = "velocity";
  d.residuals = [&data](const fit::Result& r) {
    return fit::residuals_by_series(data, r.residuals);
  };
  d.write_data = [&data, series = d.series](hid_t g) {
    using namespace hdf5;
    const hsize_t n = data.velocity.size();
    dataset_fixed(g, "velocity", {n}, data.velocity.data(), H5T_NATIVE_DOUBLE, "m/s");
    for (std::size_t q = 0; q < data.series.size(); ++q) {
      dataset_fixed(g, series[q], {n}, data.series[q].value.data(), H5T_NATIVE_DOUBLE);
      if (data.weighted())
        dataset_fixed(g, series[q] + "_sigma", {n}, data.series[q].sigma.data(), H5T_NATIVE_DOUBLE);
    }
  };
  return d;
}

// A measured chain: the case run under each law, against the record.
DataReport fit_chain(const FitInput& in, const po::variables_map& vm,
                     const po::options_description& bodies,
                     const std::vector<const LawEntry*>& laws, int threads, ChainRecord& record,
                     std::vector<LawFit>& fits, std::ostream& err) {
  for (const auto& option : bodies.options())
    if (vm.count(option->long_name()) && !vm[option->long_name()].defaulted())
      throw CaseError("--" + option->long_name() +
                      ": the bodies of a chain come from its case (--case); body options are "
                      "for impact data");
  if (!(in.sigma >= 0.0 && std::isfinite(in.sigma)))
    throw CaseError("--sigma: " + number_text(in.sigma) + " must be > 0 (or 0: none given)");
  const RecordQuantity quantity = in.quantity == "velocity" ? RecordQuantity::velocity
                                  : in.quantity == "force"
                                      ? RecordQuantity::force
                                      : throw CaseError("--quantity: '" + quoted_text(in.quantity) +
                                                        "' is not velocity or force");
  // --set: a law parameter (key=value, into [contact]) or any case key (section.key=value).
  std::vector<std::string> overrides;
  FreeChoice c;
  for (const std::string& s : in.sets) {
    const auto eq = s.find('=');
    const std::string key = trimmed(s.substr(0, eq));
    if (key.empty() || eq == std::string::npos)
      throw CaseError("--set '" + quoted_text(s) + "': expected key=value");
    if (key == "contact.law")
      throw CaseError("--set contact.law: the laws to fit are chosen by --laws or --family");
    // A law parameter, given bare or in [contact]: held fixed, not fitted.
    const std::string bare = key.starts_with("contact.") ? key.substr(8) : key;
    bool law_key = key.find('.') == std::string::npos;
    for (const LawEntry* law : laws) law_key = law_key || law->find_param(bare);
    overrides.push_back((key.find('.') == std::string::npos ? "contact." : "") + key + "=" +
                        trimmed(s.substr(eq + 1)));
    if (law_key) c.held.insert(bare);
  }
  if (in.tension != "law") overrides.push_back("contact.tension=" + in.tension);
  const CaseConfig base = CaseConfig::load(in.case_path, overrides);
  c.starts = key_values(in.starts, "--start");
  c.bounds = key_ranges(in.bounds);
  c.derived = [](const ParamSpec& p) { return p.key != "yield_stress" && !p.default_text.empty(); };
  c.given = [&base](const std::string& key) -> std::optional<double> {
    const std::string k = "contact." + key;
    if (base.has(k) && base.given(k)) return base.number(k);
    return std::nullopt;
  };
  // Every law's run is checked before any fit starts, its parameters where the search starts;
  // the first that runs gives the chain's beads and the run's duration, to read the record.
  std::vector<std::string> skipped;
  const auto free = chosen_free(in, laws, c, skipped);
  std::vector<std::unique_ptr<fit::ChainModel>> models;
  std::optional<fit::ChainModel::Extent> extent;
  for (std::size_t l = 0; l < laws.size(); ++l) {
    std::vector<std::string> keys;
    for (const auto& p : free[l]) keys.push_back(p.key);
    fits.push_back({laws[l], free[l], {}, skipped[l], 0.0, {}, {}});
    models.push_back(std::make_unique<fit::ChainModel>(in.case_path, overrides,
                                                       std::vector<std::string>{}, *laws[l], keys));
    if (!skipped[l].empty()) continue;
    try {
      const auto e = models.back()->check(fit::first_start(free[l]));
      if (!extent) extent = e;
    } catch (const CaseError& e) {
      skip(in, *laws[l], e.what(), fits.back().failure);
    }
  }
  if (!extent)
    throw CaseError("the case runs under none of the laws: " + std::string(fits.front().law->id) +
                    ": " + fits.front().failure);
  record = read_chain_record(in.data, quantity, extent->beads, extent->duration, "--data");
  if (record.time.front() < 0.0)
    throw CaseError("--data '" + in.data + "': its first time, " +
                    number_text(record.time.front()) +
                    " s, is before the run starts (t = 0): the record's times are those of the "
                    "case's run, which starts with the striker where the case puts it");
  check_points(in, laws, free, record.beads.size() * record.time.size(), in.sigma > 0.0);
  check_block(in, std::vector<std::size_t>(record.beads.size(), record.time.size()));
  fit_laws(
      fits,
      [&](LawFit& f, std::size_t l) {
        const fit::ChainModel& model = *models[l];
        const fit::Problem problem = fit::chain_problem(model, record, f.free, in.sigma);
        f.result = fit::solve(problem, {in.search_starts, in.seed, in.confidence});
        bootstrap_intervals(in, problem, f,
                            std::vector<std::size_t>(record.beads.size(), record.time.size()),
                            true);
        f.curve_x = record.time;
        if (!model.predict(f.result.values, record, f.curve))
          f.curve.assign(record.beads.size(), std::vector<double>(f.curve_x.size(), std::nan("")));
      },
      threads, &err);

  DataReport d;
  std::string beads, json_beads;
  for (const long long b : record.beads) {
    d.series.push_back("bead" + std::to_string(b));
    beads += (beads.empty() ? "" : ", ") + std::to_string(b);
    json_beads += (json_beads.empty() ? "" : ", ") + std::to_string(b);
  }
  const std::size_t points = record.beads.size() * record.time.size();
  d.summary = std::to_string(points) + " points of bead " + in.quantity + " at " +
              std::to_string(record.time.size()) + " times, beads " + beads + " of " +
              in.case_path + " (" + in.data + ")";
  d.json = "\"kind\": \"chain\", \"case\": \"" + quoted_text(in.case_path) +
           "\", \"quantities\": [\"" + in.quantity + "\"], \"beads\": [" + json_beads +
           "], \"points\": " + std::to_string(points);
  d.weighted = in.sigma > 0.0;
  d.x_name = "time";
  d.residuals = [&record](const fit::Result& r) {
    std::vector<std::vector<double>> out;
    for (std::size_t b = 0; b < record.beads.size(); ++b)
      out.emplace_back(r.residuals.begin() + std::ptrdiff_t(b * record.time.size()),
                       r.residuals.begin() + std::ptrdiff_t((b + 1) * record.time.size()));
    return out;
  };
  d.write_data = [&record, &in, series = d.series](hid_t g) {
    using namespace hdf5;
    const hsize_t n = record.time.size();
    dataset_fixed(g, "time", {n}, record.time.data(), H5T_NATIVE_DOUBLE, "s");
    attr_string(g, "quantity", in.quantity);
    for (std::size_t b = 0; b < record.beads.size(); ++b) {
      const auto& column = record.columns[std::size_t(record.beads[b])];
      dataset_fixed(g, series[b], {n}, column.data(), H5T_NATIVE_DOUBLE,
                    in.quantity == "velocity" ? "m/s" : "N");
      if (in.sigma > 0.0) {
        const std::vector<double> sigma(column.size(), in.sigma);
        dataset_fixed(g, series[b] + "_sigma", {n}, sigma.data(), H5T_NATIVE_DOUBLE);
      }
    }
  };
  return d;
}

}  // namespace

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
  std::optional<OutputLock> lock;  // held from here, so a second writer is told at once
  try {
    if (!in.output.empty()) {
      std::vector<std::string> inputs{in.data};
      if (!in.case_path.empty()) inputs.push_back(in.case_path);
      check_output_path(in.output, inputs);
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
    if (vm.count("free") && split(in.free, ',').empty())
      throw CaseError("--free is empty: name the parameters to fit, or leave it out");
    const int threads = command_threads(vm);
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
    err << "chaindem fit: invalid input: --set " << e.key << ": " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "chaindem fit: error: " << e.what() << "\n";
    return 1;
  }
  // A best fit at an end of --bounds: the data call for a value the bounds exclude.
  bool excluded_by_bounds = false;
  for (LawFit& f : fits) {
    if (!f.failure.empty()) continue;
    for (const std::string& text : in.bounds) {
      const std::string key = trimmed(text.substr(0, text.find('=')));
      for (std::size_t j = 0; j < f.free.size(); ++j) {
        const double v = f.result.values[j], lo = f.free[j].lower, hi = f.free[j].upper;
        if (f.free[j].key != key || !(std::min(v - lo, hi - v) <= 1e-6 * (hi - lo))) continue;
        f.failure = "its best fit, " + key + " = " + number_text(v) +
                    ", lies at an end of --bounds " + key + "=" + number_text(lo) + ":" +
                    number_text(hi) + ": the data call for a value the bounds exclude; widen them";
        excluded_by_bounds = true;
      }
    }
  }
  rank(fits);
  if (!fits.front().failure.empty()) {
    err << "chaindem fit: " << (excluded_by_bounds ? "invalid input" : "error")
        << ": no law was fitted: " << fits.front().failure << "\n";
    return excluded_by_bounds ? 2 : 1;
  }
  if (!in.output.empty()) try {
      write_fit_file(in.output, in, report, fits);
    } catch (const std::exception& e) {
      err << "chaindem fit: error: " << e.what() << "\n";
      return 1;
    }
  if (in.json)
    print_json(out, in, report, fits);
  else
    print_table(out, in, report, fits);
  return 0;
}

}  // namespace chaindem
