// `chaindem fit`: the two kinds of data, measured impacts against the bodies of the command
// line and a chain's history against its case (fit_parts.hpp).
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <set>

#include "chaindem/commands/command_line.hpp"
#include "chaindem/fit/chain_model.hpp"
#include "chaindem/fit/impact_model.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/case_spec.hpp"
#include "chaindem/text.hpp"
#include "fit_parts.hpp"

namespace chaindem::fit_command_parts {

using fit::ImpactQuantity;
using fit::Series;

DataReport fit_impacts(const FitInput& in, const po::variables_map& vm,
                       const std::vector<const LawEntry*>& laws, int threads, ImpactData& data,
                       std::vector<LawFit>& fits) {
  check_body_numbers(vm);
  check_body_combinations(in.bodies, vm);
  data = fit::read_impact_data(in.data);
  const PairInput pair = contact_pair(in.bodies, vm);
  for (const std::string& set : in.sets)
    if (const std::string key = trimmed(set.substr(0, set.find('=')));
        is_law_key(key) || is_law_key(contact_param_key(key)))
      throw CaseError("--set " + key + ": the laws to fit are chosen by --laws or --family");
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
  // The law's model: what --set holds of its parameters, its free ones (in their order).
  auto model_of = [&](const LawEntry& law, const std::vector<fit::FreeParameter>& parameters,
                      const ImpactOptions& options) {
    LawParams fixed;
    for (const auto& [key, value] : sets)
      if (law.find_param(key)) fixed[key] = value;
    std::vector<std::string> keys;
    for (const auto& p : parameters) keys.push_back(p.key);
    return fit::ImpactModel(law, pair, options, fixed, keys);
  };
  for (std::size_t l = 0; l < laws.size(); ++l) {  // what --set holds, in the law's ranges
    if (!skipped[l].empty()) continue;
    try {
      model_of(*laws[l], free[l], {}).parameters(fit::first_start(free[l]));
    } catch (const LawParamError& e) {
      skip(in, *laws[l], "--set " + quoted_text(e.key) + ": " + e.what(), skipped[l]);
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
        const fit::ImpactModel model = model_of(*f.law, f.free, options[l]);
        const fit::Problem problem = stoppable(fit::impact_problem(model, data, f.free));
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
              quoted_path(in.data) + ")";
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

namespace {

// What a chain's fit takes from the options alone: no body options (its case gives the bodies),
// --sigma in range, and what the record measures (--quantity).
RecordQuantity chain_quantity(const FitInput& in, const po::variables_map& vm,
                              const po::options_description& bodies) {
  for (const auto& option : bodies.options())
    if (vm.count(option->long_name()) && !vm[option->long_name()].defaulted())
      throw CaseError("--" + option->long_name() +
                      ": the bodies of a chain come from its case (--case); body options are "
                      "for impact data");
  if (!(in.sigma == 0.0 || (in.sigma >= least_uncertainty && in.sigma <= most_uncertainty)))
    throw CaseError("--sigma: " + number_text(in.sigma) + " is out of range: allowed [" +
                    number_text(least_uncertainty) + ", " + number_text(most_uncertainty) +
                    "] in the record's SI unit (m/s or N), or 0: none given");
  return in.quantity == "velocity" ? RecordQuantity::velocity
         : in.quantity == "force"  ? RecordQuantity::force
                                   : throw CaseError("--quantity: '" + quoted_text(in.quantity) +
                                                     "' is not velocity or force");
}

// The section whose law is fitted: [contact], or [contact.A.B] under --pair.
std::string fitted_param_key(const FitInput& in, const std::string& name) {
  return in.pair.empty() ? contact_param_key(name) : pair_param_key(in.pair, name);
}

// The case's overrides: --set, a law parameter (key=value, into the fitted section) or any case
// key (section.key=value), and --tension. The law parameters among them are held fixed (`held`).
std::vector<std::string> chain_overrides(const FitInput& in,
                                         const std::vector<const LawEntry*>& laws,
                                         std::set<std::string>& held) {
  std::vector<std::string> overrides;
  for (const std::string& s : in.sets) {
    const auto [key, value] = split_setting("--set", s, "key=value");
    if (key == "law" || key == fitted_param_key(in, "law"))  // another section's is a case key
      throw CaseError("--set " + key + ": the laws to fit are chosen by --laws or --family");
    // A law parameter of the fitted section, given bare or with its section: held fixed, not
    // fitted. A key of another section is a case key like any other.
    const bool given_bare = key.find('.') == std::string::npos;
    const std::string section = fitted_param_key(in, "");
    const bool in_section = given_bare || key.starts_with(section);
    const std::string bare = given_bare ? key : key.substr(in_section ? section.size() : 0);
    bool law_key = given_bare;
    for (const LawEntry* law : laws) law_key = law_key || (in_section && law->find_param(bare));
    overrides.push_back((given_bare ? fitted_param_key(in, key) : key) + "=" + trimmed(value));
    if (law_key) held.insert(bare);
  }
  if (in.tension != "law" && in.tension != "clamp" && in.tension != "allow")
    throw CaseError("--tension: '" + quoted_text(in.tension) + "' is not law, clamp or allow");
  if (in.tension != "law")
    overrides.push_back((in.pair.empty() ? key_name(&CaseSpec::contact, &ContactSpec::tension)
                                         : pair_key_name(in.pair, &PairContactSpec::tension)) +
                        "=" + in.tension);
  return overrides;
}

// Each law's model of the chain (`models`, and its entry in `fits`), its run checked where its
// search starts: a law whose case does not run is skipped (or refused, named by --laws). The
// first that runs gives the chain's beads and the run's duration, to read the record by.
fit::ChainModel::Extent chain_models(const FitInput& in, const std::vector<const LawEntry*>& laws,
                                     const std::vector<std::string>& overrides,
                                     const std::vector<std::vector<fit::FreeParameter>>& free,
                                     const std::vector<std::string>& skipped,
                                     std::vector<LawFit>& fits,
                                     std::vector<std::unique_ptr<fit::ChainModel>>& models) {
  std::optional<fit::ChainModel::Extent> extent;
  for (std::size_t l = 0; l < laws.size(); ++l) {
    std::vector<std::string> keys;
    for (const auto& p : free[l]) keys.push_back(p.key);
    fits.push_back({laws[l], free[l], {}, skipped[l], 0.0, {}, {}});
    models.push_back(std::make_unique<fit::ChainModel>(
        in.case_path, overrides, std::vector<std::string>{}, *laws[l], keys, 1, in.pair));
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
  return *extent;
}

// The record (--data) of the beads and the times of the case's run.
ChainRecord chain_record(const FitInput& in, RecordQuantity quantity,
                         const fit::ChainModel::Extent& extent) {
  ChainRecord record =
      read_chain_record(in.data, quantity, extent.beads, extent.duration, "--data");
  if (record.time.front() < 0.0)
    throw CaseError("--data '" + quoted_path(in.data) + "': its first time, " +
                    number_text(record.time.front()) +
                    " s, is before the run starts (t = 0): the record's times are those of the "
                    "case's run, which starts with the striker where the case puts it");
  return record;
}

// What the report says of a chain's record, and how it writes it.
DataReport chain_report(const FitInput& in, const ChainRecord& record) {
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
              quoted_path(in.case_path) + " (" + quoted_path(in.data) + ")";
  d.json = "\"kind\": \"chain\", \"case\": " + json_string(in.case_path) + ", \"quantities\": [\"" +
           in.quantity + "\"], \"beads\": [" + json_beads +
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

DataReport fit_chain(const FitInput& in, const po::variables_map& vm,
                     const po::options_description& bodies,
                     const std::vector<const LawEntry*>& laws, int threads, ChainRecord& record,
                     std::vector<LawFit>& fits, std::ostream& err) {
  const RecordQuantity quantity = chain_quantity(in, vm, bodies);
  FreeChoice c;
  const std::vector<std::string> overrides = chain_overrides(in, laws, c.held);
  const CaseConfig base = CaseConfig::load(in.case_path, overrides);
  c.starts = key_values(in.starts, "--start");
  c.bounds = key_ranges(in.bounds);
  c.derived = [](const ParamSpec& p) { return p.key != "yield_stress" && !p.default_text.empty(); };
  c.given = [&base, &in](const std::string& key) -> std::optional<double> {
    const std::string k = fitted_param_key(in, key);
    if (base.has(k) && base.given(k)) return base.number(k);
    return std::nullopt;
  };
  std::vector<std::string> skipped;
  const auto free = chosen_free(in, laws, c, skipped);
  std::vector<std::unique_ptr<fit::ChainModel>> models;
  const auto extent = chain_models(in, laws, overrides, free, skipped, fits, models);
  record = chain_record(in, quantity, extent);
  check_points(in, laws, free, record.beads.size() * record.time.size(), in.sigma > 0.0);
  check_block(in, std::vector<std::size_t>(record.beads.size(), record.time.size()));
  fit_laws(
      fits,
      [&](LawFit& f, std::size_t l) {
        const fit::ChainModel& model = *models[l];
        const fit::Problem problem = stoppable(fit::chain_problem(model, record, f.free, in.sigma));
        f.result = fit::solve(problem, {in.search_starts, in.seed, in.confidence});
        bootstrap_intervals(in, problem, f,
                            std::vector<std::size_t>(record.beads.size(), record.time.size()),
                            true);
        f.curve_x = record.time;
        if (!model.predict(f.result.values, record, f.curve))
          f.curve.assign(record.beads.size(), std::vector<double>(f.curve_x.size(), std::nan("")));
      },
      threads, &err);
  return chain_report(in, record);
}

}  // namespace chaindem::fit_command_parts
