// `chaindem fit`: which laws, which of their parameters, fitting them in parallel, ranking
// (fit_parts.hpp).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mutex>
#include <sstream>

#include "chaindem/commands/case_runner.hpp"
#include "chaindem/commands/command_line.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"
#include "fit_parts.hpp"

namespace chaindem::fit_command_parts {

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
  const std::vector<std::string> named = comma_list("--laws", in.laws);
  if (named.empty()) throw CaseError("--laws: give at least one law");
  for (const std::string& id : named) {
    const LawEntry* law = find_law(id);
    if (!law) throw CaseError("--laws: " + unknown_law_text(id));
    if (std::find(laws.begin(), laws.end(), law) != laws.end())
      throw CaseError("--laws: '" + quoted_text(id) + "' is named twice");
    laws.push_back(law);
  }
  return laws;
}

std::map<std::string, double> key_values(const std::vector<std::string>& given,
                                         const std::string& option) {
  std::map<std::string, double> out;
  for (const std::string& s : given) {
    const auto [key, value] = split_setting(option, s, "key=number");
    if (out.count(key)) throw CaseError(option + " " + quoted_text(key) + ": given twice");
    out[key] = option_number(option + " " + quoted_text(key), trimmed(value));
  }
  return out;
}

std::map<std::string, Range> key_ranges(const std::vector<std::string>& given) {
  std::map<std::string, Range> out;
  for (const std::string& s : given) {
    const auto [key, value] = split_setting("--bounds", s, "key=low:high");
    const auto colon = value.find(':');
    if (colon == std::string::npos)
      throw CaseError("--bounds '" + quoted_text(s) + "': expected key=low:high");
    // An empty end keeps the law's own (NaN here).
    const std::string low_text = trimmed(value.substr(0, colon)),
                      high_text = trimmed(value.substr(colon + 1));
    const double low = low_text.empty()
                           ? std::nan("")
                           : option_number("--bounds " + quoted_text(key) + " low", low_text);
    const double high = high_text.empty()
                            ? std::nan("")
                            : option_number("--bounds " + quoted_text(key) + " high", high_text);
    if (low >= high)
      throw CaseError("--bounds " + quoted_text(key) + "=" + number_text(low) + ":" +
                      number_text(high) + ": the low end must be below the high end");
    if (out.count(key)) throw CaseError("--bounds " + quoted_text(key) + ": given twice");
    out[key] = {low, high};
  }
  return out;
}

std::vector<fit::FreeParameter> free_parameters(const LawEntry& law, const std::string& free_text,
                                                const FreeChoice& c) {
  std::vector<std::string> keys;
  if (!free_text.empty()) {
    for (const std::string& key : comma_list("--free", free_text)) {
      if (c.held.count(key))
        throw CaseError("--free " + quoted_text(key) + " and --set " + quoted_text(key) +
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
    fit::FreeParameter f{
        .key = key, .unit = std::string(p.unit), .range = p.range, .start = p.default_value};
    ValueRange& range = f.range;
    if (const auto given = c.given ? c.given(key) : std::nullopt; given && p.admits(*given))
      f.start = *given;
    if (const auto b = c.bounds.find(key); b != c.bounds.end()) {
      // The bounds narrow the law's range: its intersection with them, an end of the law's
      // kept open or closed as the law has it.
      const auto [low, high] = b->second;
      if (low > range.min) range.min = low, range.min_inclusive = true;
      if (high < range.max) range.max = high, range.max_inclusive = true;
      if (!(range.min < range.max))
        throw CaseError(
            "--bounds " + quoted_text(key) + "=" + (std::isnan(low) ? "" : number_text(low)) + ":" +
            (std::isnan(high) ? "" : number_text(high)) + " leaves nothing of the range of law '" +
            std::string(law.id) + "': allowed " + p.range_text());
      if (f.start && (*f.start < range.min || *f.start > range.max)) f.start.reset();
    }
    if (const auto s = c.starts.find(key); s != c.starts.end()) {
      if (!p.admits(s->second))
        throw CaseError("--start " + quoted_text(key) + "=" + number_text(s->second) +
                        ": out of the range of law '" + std::string(law.id) + "': allowed " +
                        p.range_text());
      if (s->second < range.min || s->second > range.max)
        throw CaseError("--start " + quoted_text(key) + "=" + number_text(s->second) +
                        ": outside --bounds " + number_text(range.min) + ":" +
                        number_text(range.max));
      f.start = s->second;
    }
    free.push_back(f);
  }
  return free;
}

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
    for (const std::string& key : comma_list("--free", in.free)) {
      if (!named.insert(key).second)
        throw CaseError("--free: '" + quoted_text(key) + "' is named twice");
      bool anyone = false;
      for (const LawEntry* law : laws) anyone = anyone || law->find_param(key);
      if (!anyone)
        throw CaseError("--free: '" + quoted_text(key) + "' is a parameter of none of the laws");
    }
  FreeChoice which = c;  // which parameters are fitted, whatever their bounds and starts say
  which.bounds.clear();
  which.starts.clear();
  for (const auto& [key, range] : c.bounds) {
    bool fitted = false;
    for (const LawEntry* law : laws)
      for (const auto& p : free_parameters(*law, in.free, which)) fitted = fitted || p.key == key;
    if (!fitted)
      throw CaseError("--bounds: '" + quoted_text(key) + "' is fitted in none of the laws");
  }
}

void skip(const FitInput& in, const LawEntry& law, const std::string& why, std::string& skipped) {
  if (in.family.empty()) throw CaseError("law '" + std::string(law.id) + "': " + why);
  skipped = why;
}

std::vector<std::vector<fit::FreeParameter>> chosen_free(const FitInput& in,
                                                         const std::vector<const LawEntry*>& laws,
                                                         const FreeChoice& c,
                                                         std::vector<std::string>& skipped) {
  check_keys(in, laws, c);
  std::vector<std::vector<fit::FreeParameter>> out;
  skipped.assign(laws.size(), "");
  for (std::size_t l = 0; l < laws.size(); ++l) {
    std::string why;
    try {
      out.push_back(free_parameters(*laws[l], in.free, c));
    } catch (const CaseError& e) {  // --start or --bounds outside the law's range
      if (in.family.empty()) throw;
      out.emplace_back();
      skipped[l] = e.what();
      continue;
    }
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

void check_points(const FitInput& in, const std::vector<const LawEntry*>& laws,
                  const std::vector<std::vector<fit::FreeParameter>>& free, std::size_t points,
                  bool weighted) {
  for (std::size_t l = 0; l < laws.size(); ++l) {
    const std::size_t k = free[l].size(), needed = k + (weighted ? 2 : 3);
    if (k > 0 && points < needed)
      throw CaseError(quoted_path(in.data) + ": " + std::to_string(points) +
                      (points == 1 ? " point is" : " points are") + " too few to fit " +
                      std::to_string(k) + " parameter(s) of law '" + std::string(laws[l]->id) +
                      "'" + (weighted ? "" : " and the scatter") +
                      " and rank it by AICc; at least " + std::to_string(needed));
  }
}

namespace {

// Whether `v` is at the low (-1) or high (+1) end of [lower, upper], to 1e-6 of the range (of
// |v| when the range is unbounded); 0 if at neither.
int at_range_end(double v, double lower, double upper) {
  const double span = upper - lower;
  const double tolerance = 1e-6 * (std::isfinite(span) ? span : std::max(std::abs(v), 1e-300));
  if (std::isfinite(lower) && v - lower <= tolerance) return -1;
  if (std::isfinite(upper) && upper - v <= tolerance) return +1;
  return 0;
}

// Why the fit of `f` is refused because --bounds exclude what the data call for: its best fit
// at an end of its range that is the bounds', not the law's own; empty if not.
std::string excluded_by_bounds(const LawFit& f) {
  for (std::size_t j = 0; j < f.free.size(); ++j) {
    const fit::FreeParameter& p = f.free[j];
    const ParamSpec& spec = *f.law->find_param(p.key);
    const int end = at_range_end(f.result.values[j], p.range.min, p.range.max);
    const bool low = end < 0 && p.range.min > spec.range.min,
               high = end > 0 && p.range.max < spec.range.max;
    const double v = f.result.values[j];
    if (low || high)
      return "its best fit, " + p.key + " = " + number_text(v) + ", lies at the " +
             (low ? "low" : "high") + " end of --bounds (" +
             number_text(low ? p.range.min : p.range.max) +
             "): the data call for a value the bounds exclude; widen them";
  }
  return "";
}

}  // namespace

void bootstrap_intervals(const FitInput& in, const fit::Problem& problem, LawFit& f,
                         const std::vector<std::size_t>& sequences, bool time_series) {
  if (in.bootstrap == 0) return;
  f.block = in.block > 0  ? std::size_t(in.block)
            : time_series ? fit::suggested_block(f.result.residuals, sequences)
                          : 1;
  const auto booted =
      fit::bootstrap(problem, f.result, in.confidence,
                     {in.bootstrap, f.block, sequences, in.seed, in.threads}, &f.refits);
  // A best fit at an end of the range pins every refit there too: a bootstrap interval of
  // zero width. The profile interval (which solve() gives there) says what the data allow.
  for (std::size_t j = 0; j < booted.size(); ++j) {
    const fit::FreeParameter& p = f.free[j];
    if (at_range_end(f.result.values[j], p.range.min, p.range.max) == 0)
      f.result.intervals[j] = booted[j];
  }
}

void check_block(const FitInput& in, const std::vector<std::size_t>& sequences) {
  const std::size_t shortest = *std::min_element(sequences.begin(), sequences.end());
  if (in.block > 0 && std::size_t(in.block) > shortest / 2)
    throw CaseError("--block " + std::to_string(in.block) +
                    ": allowed at most half the shortest series of the data (" +
                    std::to_string(shortest) +
                    " points): longer blocks leave too few ways to resample it");
}

void fit_laws(std::vector<LawFit>& fits,
              const std::function<void(LawFit&, std::size_t index)>& fit_one, int threads,
              std::ostream* progress) {
  std::mutex lock;
  std::exception_ptr error;
  int done = 0;
  const auto start = std::chrono::steady_clock::now();
  // No more threads than laws: a thread left over would make the refits of a law's bootstrap
  // a nested region, which OpenMP runs on one thread.
  const auto to_fit =
      std::count_if(fits.begin(), fits.end(), [](const LawFit& f) { return f.failure.empty(); });
  const int team = int(std::clamp<std::ptrdiff_t>(to_fit, 1, threads));
#pragma omp parallel for schedule(dynamic) num_threads(team)
  for (std::size_t l = 0; l < fits.size(); ++l) {
    if (!fits[l].failure.empty()) continue;  // skipped before fitting
    if (*stop_flag()) {                      // the command stops: no law is begun
      fits[l].failure = "stopped by a signal";
      continue;
    }
    try {
      fit_one(fits[l], l);
      fits[l].failure = excluded_by_bounds(fits[l]);
      fits[l].excluded = !fits[l].failure.empty();
    } catch (const std::exception& e) {
      fits[l].failure = failure_text(e);
    } catch (...) {
      fits[l].failure = "stopped by an unknown error";
      std::lock_guard<std::mutex> guard(lock);
      if (!error) error = std::current_exception();
    }
    std::lock_guard<std::mutex> guard(lock);
    ++done;
    if (progress)
      *progress << "chaindem fit: " << fits[l].law->id << " "
                << (fits[l].failure.empty() ? "fitted" : "not fitted") << " (" << done << " of "
                << to_fit << ", "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
                << " s)\n"
                << std::flush;
  }
  if (error) std::rethrow_exception(error);
}

fit::Problem stoppable(fit::Problem problem) {
  problem.residuals = [inner = std::move(problem.residuals)](const std::vector<double>& theta,
                                                             std::vector<double>& r) {
    return !*stop_flag() && inner(theta, r);
  };
  return problem;
}

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

}  // namespace chaindem::fit_command_parts
