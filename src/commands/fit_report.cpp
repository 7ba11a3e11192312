// `chaindem fit`: the table, the JSON and the HDF5 file of a fit (fit_parts.hpp).
#include <cmath>
#include <iomanip>

#include "chaindem/commands/command_line.hpp"  // existing_output
#include "chaindem/output/output_file.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"
#include "fit_parts.hpp"

namespace chaindem::fit_command_parts {

void print_table(std::ostream& out, const FitInput& in, const DataReport& d,
                 const std::vector<LawFit>& fits) {
  out << "chaindem fit: " << d.summary << ", "
      << (d.weighted ? "weighted by their uncertainties"
                     : "unweighted (the scatter estimated from the residuals)")
      << "; laws ranked by AICc, " << number_text(std::round(1000 * in.confidence) / 10)
      << " % intervals\n";
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
          << f.block
          << (double(f.refits) * (1.0 - in.confidence) / 2.0 < 5.0
                  ? " (fewer than 5 refits beyond each end of an interval: raise --bootstrap)"
                  : "")
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

void print_json(std::ostream& out, const FitInput& in, const DataReport& d,
                const std::vector<LawFit>& fits) {
  const double best = fits.front().result.aicc;
  out << "{\"data\": " << json_string(in.data) << ", " << d.json
      << ", \"weighted\": " << (d.weighted ? "true" : "false")
      << ", \"confidence\": " << json_number(in.confidence) << ", \"laws\": [";
  for (std::size_t k = 0; k < fits.size(); ++k) {
    const LawFit& f = fits[k];
    out << (k ? ", " : "") << "{\"law\": \"" << f.law->id << "\"";
    if (!f.failure.empty()) {
      out << ", \"rank\": null, \"failure\": " << json_string(f.failure) << "}";
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

void write_fit_file(const std::string& path, const FitInput& in, const DataReport& d,
                    const std::vector<LawFit>& fits) {
  using namespace hdf5;
  PartialOutput output(path, existing_output(in.force));
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
        attr_numbers<int>(g.get(), "bootstrap_samples", {in.bootstrap}, H5T_NATIVE_INT);
        attr_numbers<int>(g.get(), "bootstrap_refits", {fitted.refits}, H5T_NATIVE_INT);
        attr_numbers<int>(g.get(), "bootstrap_block", {int(fitted.block)}, H5T_NATIVE_INT);
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
      // One row per parameter, each in its own unit: the datasets carry `units`, one per row.
      for (const auto& [name, column] : {std::pair{"values", r.values.data()},
                                         {"standard_errors", r.standard_errors.data()},
                                         {"low", low.data()},
                                         {"high", high.data()}}) {
        dataset_fixed(g.get(), name, {free}, column, H5T_NATIVE_DOUBLE);
        Handle rows(check(H5Dopen2(g.get(), name, H5P_DEFAULT), name), H5Dclose);
        attr_strings(rows.get(), "units", units);
        rows.close(name);
      }
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

}  // namespace chaindem::fit_command_parts
