// `chaindem fit`: which law, with which parameters, reproduces measured impacts (docs/fit.md).
// The data: a CSV file of impact velocities and what was measured at each (restitution, peak
// force, contact duration or largest overlap), optionally with each point's uncertainty; the
// bodies as `collide` takes them. Each law is fitted (fit/least_squares.hpp over
// fit/impact_model.hpp) and the laws are ranked by AICc.
#include "chaindem/commands/fit_command.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/impact_bodies.hpp"
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
  std::string data, laws, family, free, tension = "law", output;
  std::vector<std::string> starts, sets, bounds;
  ImpactBodies bodies;
  int search_starts = 8;
  unsigned seed = 1;
  double confidence = 0.95;
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
    out[key] = {low, high};
  }
  return out;
}

// One law's fit: its free parameters, the result, and the fitted law's curve over the data's
// velocities (for the figure).
struct LawFit {
  const LawEntry* law;
  std::vector<fit::FreeParameter> free;
  fit::Result result;
  double weight = 0.0;  // Akaike weight among the laws
  std::vector<double> curve_velocity;
  std::vector<std::vector<double>> curve;  // per series, at curve_velocity
};

// The file of a fit (docs/fit.md, "The output"): /data, and /laws/<law> per law.
void write_fit_file(const std::string& path, const FitInput& in, const ImpactData& d,
                    const std::vector<LawFit>& fits) {
  using namespace hdf5;
  PartialOutput output(path);
  const hid_t f = output.create_hdf5();
  try {
    write_h5md_metadata(f, version);
    std::vector<std::string> names;
    for (const Series& s : d.series) names.emplace_back(fit::to_string(s.quantity));
    attr_strings(f, "quantities", names);
    attr_string(f, "data_file", in.data);
    attr_numbers<double>(f, "confidence", {in.confidence}, H5T_NATIVE_DOUBLE);
    Handle data = group(f, "data");
    const hsize_t n = d.velocity.size();
    dataset_fixed(data.get(), "velocity", {n}, d.velocity.data(), H5T_NATIVE_DOUBLE, "m/s");
    for (std::size_t q = 0; q < d.series.size(); ++q) {
      dataset_fixed(data.get(), names[q], {n}, d.series[q].value.data(), H5T_NATIVE_DOUBLE);
      if (d.weighted())
        dataset_fixed(data.get(), names[q] + "_sigma", {n}, d.series[q].sigma.data(),
                      H5T_NATIVE_DOUBLE);
    }
    Handle laws = group(f, "laws");
    std::vector<std::string> order;
    const double best = fits.front().result.aicc;
    for (std::size_t k = 0; k < fits.size(); ++k) {
      const LawFit& fitted = fits[k];
      const fit::Result& r = fitted.result;
      order.emplace_back(fitted.law->id);
      Handle g = group(laws.get(), std::string(fitted.law->id));
      const std::pair<const char*, double> scalars[] = {
          {"rank", double(k + 1)},   {"aicc", r.aicc}, {"delta_aicc", r.aicc - best},
          {"weight", fitted.weight}, {"bic", r.bic},   {"rss", r.rss},
          {"scale", r.scale}};
      for (const auto& [name, value] : scalars)
        attr_numbers<double>(g.get(), name, {value}, H5T_NATIVE_DOUBLE);
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
      const auto residuals = fit::residuals_by_series(d, r.residuals);
      const hsize_t m = fitted.curve_velocity.size();
      dataset_fixed(g.get(), "curve_velocity", {m}, fitted.curve_velocity.data(), H5T_NATIVE_DOUBLE,
                    "m/s");
      for (std::size_t q = 0; q < d.series.size(); ++q) {
        dataset_fixed(g.get(), "residuals_" + names[q], {n}, residuals[q].data(),
                      H5T_NATIVE_DOUBLE);
        dataset_fixed(g.get(), "curve_" + names[q], {m}, fitted.curve[q].data(), H5T_NATIVE_DOUBLE);
      }
    }
    attr_strings(laws.get(), "ranked", order);
  } catch (const std::exception& e) {
    throw output.error(e.what());
  }
  output.commit();
}

// The free parameters of `law`: --free's keys it has (all of them must be some law's), else
// those without a default, neither given by --set nor derived (the stiffness from the
// materials, an impact-velocity floor from the law); the yield stress is fitted unless the
// bodies have one.
std::vector<fit::FreeParameter> free_parameters(const LawEntry& law, const FitInput& in,
                                                const std::map<std::string, double>& starts,
                                                const std::map<std::string, double>& sets,
                                                const std::map<std::string, Range>& bounds,
                                                const PairInput& pair) {
  std::vector<std::string> keys;
  if (!in.free.empty()) {
    for (const std::string& key : split(in.free, ',')) {
      if (sets.count(key))
        throw CaseError("--free " + key + " and --set " + key +
                        ": a parameter is fitted or "
                        "held fixed, not both");
      if (law.find_param(key)) keys.push_back(key);
    }
  } else {
    for (const ParamSpec& p : law.params) {
      const bool derived =
          p.key == "yield_stress" ? pair.yield_stress > 0.0 : !p.default_text.empty();
      if (!p.default_value && !derived && !sets.count(std::string(p.key))) keys.emplace_back(p.key);
    }
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
    if (const auto b = bounds.find(key); b != bounds.end()) {
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
    if (const auto s = starts.find(key); s != starts.end()) {
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

void print_table(std::ostream& out, const FitInput& in, const ImpactData& d,
                 const std::vector<LawFit>& fits) {
  std::string names;
  for (const Series& s : d.series)
    names += (names.empty() ? "" : ", ") + std::string(fit::to_string(s.quantity));
  out << "chaindem fit: " << d.points() << " points of " << names << " against impact velocity ("
      << in.data << "), "
      << (d.weighted() ? "weighted by their uncertainties"
                       : "unweighted (the scatter estimated from the residuals)")
      << "; laws ranked by AICc, " << int(std::round(100 * in.confidence)) << " % intervals\n";
  const double best = fits.front().result.aicc;
  out << std::setprecision(6);
  for (std::size_t k = 0; k < fits.size(); ++k) {
    const LawFit& f = fits[k];
    const fit::Result& r = f.result;
    const double rmse = std::sqrt(r.rss / double(r.points));
    out << "\n"
        << k + 1 << ". " << f.law->id << "  AICc " << r.aicc << " (delta " << r.aicc - best
        << ", weight " << f.weight << ")  BIC " << r.bic << "  "
        << (d.weighted() ? "chi2/dof " : "RMS residual ")
        << (d.weighted() ? r.rss / std::max(1.0, double(r.points) - double(r.parameters)) : rmse)
        << "\n";
    for (std::size_t j = 0; j < f.free.size(); ++j) {
      const std::string unit = f.free[j].unit == "-" ? "" : " " + f.free[j].unit;
      out << "   " << f.free[j].key << " = " << r.values[j];
      if (std::isfinite(r.standard_errors[j])) out << " +- " << r.standard_errors[j];
      out << unit << "  [" << r.intervals[j].low << ", " << r.intervals[j].high << "]" << unit
          << " (" << r.intervals[j].method << ")\n";
    }
  }
}

void print_json(std::ostream& out, const FitInput& in, const ImpactData& d,
                const std::vector<LawFit>& fits) {
  const double best = fits.front().result.aicc;
  out << "{\"data\": \"" << quoted_text(in.data) << "\", \"quantities\": [";
  for (std::size_t q = 0; q < d.series.size(); ++q)
    out << (q ? ", " : "") << "\"" << fit::to_string(d.series[q].quantity) << "\"";
  out << "], \"points\": " << d.points() << ", \"weighted\": " << (d.weighted() ? "true" : "false")
      << ", \"confidence\": " << json_number(in.confidence) << ", \"laws\": [";
  for (std::size_t k = 0; k < fits.size(); ++k) {
    const LawFit& f = fits[k];
    const fit::Result& r = f.result;
    out << (k ? ", " : "") << "{\"law\": \"" << f.law->id << "\", \"rank\": " << k + 1
        << ", \"aicc\": " << json_number(r.aicc)
        << ", \"delta_aicc\": " << json_number(r.aicc - best)
        << ", \"weight\": " << json_number(f.weight) << ", \"bic\": " << json_number(r.bic)
        << ", \"rss\": " << json_number(r.rss) << ", \"scale\": " << json_number(r.scale)
        << ", \"parameters\": [";
    for (std::size_t j = 0; j < f.free.size(); ++j)
      out << (j ? ", " : "") << "{\"key\": \"" << f.free[j].key << "\", \"unit\": \""
          << f.free[j].unit << "\", \"value\": " << json_number(r.values[j])
          << ", \"standard_error\": " << json_number(r.standard_errors[j])
          << ", \"low\": " << json_number(r.intervals[j].low)
          << ", \"high\": " << json_number(r.intervals[j].high) << ", \"interval\": \""
          << r.intervals[j].method << "\"}";
    out << "], \"residuals\": {";
    const auto residuals = fit::residuals_by_series(d, r.residuals);
    for (std::size_t q = 0; q < d.series.size(); ++q) {
      out << (q ? ", " : "") << "\"" << fit::to_string(d.series[q].quantity) << "\": [";
      for (std::size_t i = 0; i < residuals[q].size(); ++i)
        out << (i ? ", " : "") << json_number(residuals[q][i]);
      out << "]";
    }
    out << "}}";
  }
  out << "]}\n";
}

}  // namespace

int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  FitInput in;
  po::options_description desc("chaindem fit options");
  desc.add_options()("help,h", "this help")("data", po::value(&in.data),
                                            "CSV file of the measured impacts (docs/fit.md)")(
      "laws", po::value(&in.laws), "laws to fit, comma separated")("family", po::value(&in.family),
                                                                   "or every law of this family")(
      "free", po::value(&in.free),
      "parameters to fit, comma separated (default: each law's required ones)")(
      "bounds", po::value(&in.bounds)->composing(),
      "a narrower range for a fitted parameter than the law's: --bounds key=low:high")(
      "start", po::value(&in.starts)->composing(),
      "where a search starts: --start key=value (needed for a parameter without a default "
      "and an unbounded range, e.g. yield_stress)")("set", po::value(&in.sets)->composing(),
                                                    "a law parameter held fixed: --set key=value");
  add_body_options(desc, in.bodies);
  desc.add_options()("tension", po::value(&in.tension),
                     "law | clamp | allow (default: each law's policy)")(
      "starts", po::value(&in.search_starts), "starts of the search per law: 1 to 100 (default 8)")(
      "seed", po::value(&in.seed), "of the random starts (default 1)")(
      "confidence", po::value(&in.confidence), "of the intervals: 0.5 to 0.999 (default 0.95)")(
      "json", po::bool_switch(&in.json), "print the results as JSON")(
      "output,o", po::value(&in.output),
      "HDF5 file of the fits, with each law's curve (chaindem-plot fit draws it)");
  const auto parsed = parse_command_line(args, desc, nullptr, "fit", &err);
  if (!parsed) return 2;
  const po::variables_map& vm = *parsed;
  if (vm.count("help")) {
    out << "usage: chaindem fit --data FILE.csv (--laws A,B,... | --family NAME) [--free k1,k2]\n"
           "         [--start key=value ...] [--set key=value ...] BODIES [--json]\n"
           "BODIES as for `chaindem collide`: --radius R --youngs-modulus E --poisson-ratio NU\n"
           "--density RHO [--wall], or --mass M [--mass2 M2 | --wall] --stiffness K.\n\n"
           "Fits each law's free parameters to measured binary impacts (restitution, peak force,\n"
           "contact duration or largest overlap against impact velocity), with confidence\n"
           "intervals, and ranks the laws by AICc (docs/fit.md).\n\n"
        << desc;
    return 0;
  }
  std::vector<LawFit> fits;
  ImpactData data;
  std::optional<OutputLock> lock;  // held from here, so a second writer is told at once
  try {
    if (!in.output.empty()) {
      check_output_path(in.output, {in.data});
      lock.emplace(in.output);
    }
    if (in.data.empty()) throw CaseError("--data is missing: the measured impacts (CSV)");
    if (in.search_starts < 1 || in.search_starts > 100)
      throw CaseError("--starts: " + std::to_string(in.search_starts) +
                      " is out of range: allowed 1 to 100");
    if (!(in.confidence >= 0.5 && in.confidence <= 0.999))
      throw CaseError("--confidence: " + number_text(in.confidence) +
                      " is out of range: allowed 0.5 to 0.999");
    check_body_numbers(vm);
    check_body_combinations(in.bodies, vm);
    const std::vector<const LawEntry*> laws = chosen_laws(in);
    data = fit::read_impact_data(in.data);
    const PairInput pair = contact_pair(in.bodies, vm);
    const auto starts = key_values(in.starts, "--start");
    const auto sets = key_values(in.sets, "--set");
    const auto bounds = key_ranges(in.bounds);
    if (!in.free.empty())
      for (const std::string& key : split(in.free, ',')) {
        bool anyone = false;
        for (const LawEntry* law : laws) anyone = anyone || law->find_param(key);
        if (!anyone)
          throw CaseError("--free: '" + quoted_text(key) + "' is a parameter of none of the laws");
      }
    for (const auto& [key, range] : bounds) {
      bool fitted = false;
      for (const LawEntry* law : laws)
        for (const auto& p : free_parameters(*law, in, starts, sets, bounds, pair))
          fitted = fitted || p.key == key;
      if (!fitted)
        throw CaseError("--bounds: '" + quoted_text(key) + "' is fitted in none of the laws");
    }
    for (const LawEntry* law : laws) {
      LawFit f{law, free_parameters(*law, in, starts, sets, bounds, pair), {}, 0.0, {}, {}};
      if (f.free.empty())
        throw CaseError("law '" + std::string(law->id) + "' has no parameter to fit" +
                        (in.free.empty() ? "" : " among --free " + in.free));
      // Uncertainties given, as many points as parameters can be fitted (with no degree of
      // freedom left); without them the scatter is one more parameter, and needs one more.
      const std::size_t needed = f.free.size() + (data.weighted() ? 0 : 2);
      if (data.points() < needed)
        throw CaseError(
            in.data + ": " + std::to_string(data.points()) + " points are too few to fit " +
            std::to_string(f.free.size()) + " parameter(s) of law '" + std::string(law->id) + "'" +
            (data.weighted() ? "" : " and the scatter") + "; at least " + std::to_string(needed));
      LawParams fixed;
      for (const auto& [key, value] : sets)
        if (law->find_param(key)) fixed[key] = value;
      ImpactOptions options;
      const std::optional<TensionPolicy> tension = tension_from(in.tension, *law);
      if (!tension)
        throw CaseError("--tension: '" + quoted_text(in.tension) + "' is not law, clamp or allow");
      options.tension = *tension;
      std::vector<std::string> keys;
      for (const auto& p : f.free) keys.push_back(p.key);
      const fit::ImpactModel model(*law, pair, options, fixed, keys);
      const fit::Problem problem = fit::impact_problem(model, data, f.free);
      try {
        f.result = fit::solve(problem, {in.search_starts, in.seed, in.confidence});
      } catch (const std::invalid_argument& e) {
        throw CaseError("law '" + std::string(law->id) + "': " + e.what() + " (--start key=value)");
      }
      if (!in.output.empty()) {  // the fitted law over the data's velocities, for the figure
        const auto [slow, fast] = std::minmax_element(data.velocity.begin(), data.velocity.end());
        for (int i = 0; i < 100; ++i)
          f.curve_velocity.push_back(*slow * std::pow(*fast / *slow, i / 99.0));
        if (!model.predict(f.result.values, f.curve_velocity, data.quantities(), f.curve))
          f.curve.assign(data.series.size(),
                         std::vector<double>(f.curve_velocity.size(), std::nan("")));
      }
      fits.push_back(std::move(f));
    }
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
  std::stable_sort(fits.begin(), fits.end(),
                   [](const LawFit& a, const LawFit& b) { return a.result.aicc < b.result.aicc; });
  double total = 0.0;
  for (LawFit& f : fits) total += f.weight = std::exp(-0.5 * (f.result.aicc - fits[0].result.aicc));
  for (LawFit& f : fits) f.weight /= total;
  if (!in.output.empty()) try {
      write_fit_file(in.output, in, data, fits);
    } catch (const std::exception& e) {
      err << "chaindem fit: error: " << e.what() << "\n";
      return 1;
    }
  if (in.json)
    print_json(out, in, data, fits);
  else
    print_table(out, in, data, fits);
  return 0;
}

}  // namespace chaindem
