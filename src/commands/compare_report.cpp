#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

#include "chaindem/output/output_layout.hpp"
#include "chaindem/text.hpp"
#include "compare_parts.hpp"

namespace chaindem::compare_detail {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
using layout::comparison_metrics;

// `x` to 4 significant digits, for the lines that describe the data (10 us, not 1.00...26e-05).
std::string short_number(double x) {
  std::ostringstream s;
  s << std::setprecision(4) << x;
  return s.str();
}

// The mean over the beads of `values`, NaN where there is none.
double mean_of(const std::vector<double>& values) {
  double sum = 0.0;
  int count = 0;
  for (const double x : values)
    if (!std::isnan(x)) {
      sum += x;
      ++count;
    }
  return count ? sum / count : nan;
}

}  // namespace

// The /comparison group: the reference, each law's values and errors, and the policies they
// depend on. Fills the mean errors.
void write_comparison(hid_t cmp, const CompareInput& in, const ComparePlan& plan,
                      const LawRuns& runs, Errors& errors) {
  using namespace hdf5;
  const auto& laws = plan.laws;
  attr_string(cmp, "reference",
              in.reference_law.empty() ? "data:" + in.reference_data : in.reference_law);
  attr_string(cmp, "case", in.case_path);
  attr_string(cmp, "law_key", in.law_key());
  attr_strings(cmp, "laws", laws);
  {  // per law of `laws`, in its order
    std::vector<std::string> policies;
    std::vector<std::int64_t> hits;  // counts
    for (const auto& law : laws) {
      const auto l = static_cast<std::size_t>(
          std::find(plan.run_laws.begin(), plan.run_laws.end(), law) - plan.run_laws.begin());
      policies.push_back(runs.policy[l]);
      hits.push_back(std::llround(runs.floor_hits[l]));
    }
    attr_strings(cmp, "impact_velocity", policies);
    dataset_fixed(cmp, "impact_velocity_floor_hits", {hits.size()}, hits.data(), H5T_NATIVE_INT64);
  }
  const auto n_laws = static_cast<hsize_t>(laws.size()), n_beads = static_cast<hsize_t>(plan.beads);
  for (const layout::ComparisonMetric& metric : comparison_metrics) {
    const std::string name = metric.name;
    dataset_fixed(cmp, layout::reference_prefix + name, {n_beads}, errors.reference.at(name).data(),
                  H5T_NATIVE_DOUBLE, metric.unit);
    std::vector<double> values, percent;
    for (std::size_t l = 0; l < laws.size(); ++l) {
      double sum = 0.0;
      int count = 0;
      for (long long b = 0; b < plan.beads; ++b) {
        const auto u = static_cast<std::size_t>(b);
        const double x = errors.metrics[l].at(name)[u];
        const double e = relative_error_percent(x, errors.reference.at(name)[u]);
        values.push_back(x);
        percent.push_back(e);
        if (!std::isnan(e)) {
          sum += e;
          ++count;
        }
      }
      errors.mean_error[name].push_back(count ? sum / count : nan);
      errors.compared[name].push_back(count);
    }
    dataset_fixed(cmp, name, {n_laws, n_beads}, values.data(), H5T_NATIVE_DOUBLE, metric.unit);
    dataset_fixed(cmp, name + layout::error_percent_suffix, {n_laws, n_beads}, percent.data(),
                  H5T_NATIVE_DOUBLE, "%");
    dataset_fixed(cmp, name + layout::mean_error_percent_suffix, {n_laws},
                  errors.mean_error[name].data(), H5T_NATIVE_DOUBLE, "%");
    const std::vector<std::int64_t> compared(errors.compared[name].begin(),
                                             errors.compared[name].end());  // counts
    dataset_fixed(cmp, name + layout::beads_compared_suffix, {n_laws}, compared.data(),
                  H5T_NATIVE_INT64);
    if (plan.record)
      dataset_fixed(cmp, name + layout::sampling_bound_suffix, {n_beads},
                    plan.resolution.bound.at(name).data(), H5T_NATIVE_DOUBLE, "%");
  }
  if (plan.record) {
    attr_numbers<double>(cmp, layout::sample_interval_attribute, {plan.resolution.interval},
                         H5T_NATIVE_DOUBLE);
    dataset_fixed(cmp, layout::samples_per_pulse_dataset, {n_beads},
                  plan.resolution.samples_per_pulse.data(), H5T_NATIVE_DOUBLE);
  }
}

// Reference data: warns, per metric, when the two laws that match the data best differ by less
// than the data's sampling can shift the metric (Resolution::bound, mean over the beads).
void warn_unresolved(std::ostream& err, const ComparePlan& plan, const Errors& errors) {
  if (!plan.record || plan.laws.size() < 2) return;
  for (const layout::ComparisonMetric& metric : comparison_metrics) {
    const std::vector<double>& mean = errors.mean_error.at(metric.name);
    std::vector<std::size_t> order(mean.size());
    for (std::size_t l = 0; l < order.size(); ++l) order[l] = l;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return !std::isnan(mean[a]) && (std::isnan(mean[b]) || mean[a] < mean[b]);
    });
    const double bound = mean_of(plan.resolution.bound.at(metric.name));
    const double gap = mean[order[1]] - mean[order[0]];
    if (std::isnan(gap) || std::isnan(bound) || gap >= bound) continue;
    err << "chaindem compare: warning: the data, sampled every "
        << short_number(plan.resolution.interval) << " s, resolve the " << metric.words << " to "
        << short_number(bound) << " % (mean over the beads): they cannot separate "
        << plan.laws[order[0]] << " and " << plan.laws[order[1]] << ", whose mean errors differ by "
        << short_number(gap) << " %\n";
  }
}

void print_json(std::ostream& out, const CompareInput& in, const ComparePlan& plan,
                const LawRuns& runs, const Errors& errors) {
  out << "{\"reference\": \"" << in.reference_name() << "\", \"impact_velocity\": {";
  for (std::size_t l = 0; l < plan.run_laws.size(); ++l)
    out << (l ? ", " : "") << "\"" << plan.run_laws[l] << "\": {\"policy\": \"" << runs.policy[l]
        << "\", \"floor_hits\": " << runs.floor_hits[l] << "}";
  out << "}, \"errors\": {";
  for (std::size_t l = 0; l < plan.laws.size(); ++l) {
    out << (l ? ", " : "") << "\"" << plan.laws[l] << "\": {";
    for (std::size_t k = 0; k < comparison_metrics.size(); ++k) {
      const char* name = comparison_metrics[k].name;
      out << (k ? ", " : "") << "\"" << name << "\": [";
      for (long long b = 0; b < plan.beads; ++b) {
        out << (b ? ", " : "") << json_number(errors.at(l, name, b));
      }
      out << "]";
    }
    out << "}";
  }
  out << "}";
  if (plan.record) {
    const compare_detail::Resolution& r = plan.resolution;
    out << ", \"sampling\": {\"interval\": " << json_number(r.interval)
        << ", \"samples_per_pulse\": [";
    for (std::size_t b = 0; b < r.samples_per_pulse.size(); ++b)
      out << (b ? ", " : "") << json_number(r.samples_per_pulse[b]);
    out << "], \"bound_percent\": {";
    for (std::size_t k = 0; k < comparison_metrics.size(); ++k) {
      const std::vector<double>& bound = r.bound.at(comparison_metrics[k].name);
      out << (k ? ", " : "") << "\"" << comparison_metrics[k].name << "\": [";
      for (std::size_t b = 0; b < bound.size(); ++b)
        out << (b ? ", " : "") << json_number(bound[b]);
      out << "]";
    }
    out << "}}";
  }
  out << "}\n";
}

void print_table(std::ostream& out, const CompareInput& in, const ComparePlan& plan,
                 const LawRuns& runs, const Errors& errors) {
  out << "chaindem compare " << quoted_path(in.case_path) << ": " << plan.beads
      << " chain beads, reference " << in.reference_name() << "\n"
      << "relative error [%] per bead (bead index 0 = first chain bead; - where there is no "
         "value); mean over the n "
         "beads where both the law and the reference have a value\n";
  std::string policies;
  for (std::size_t l = 0; l < plan.run_laws.size(); ++l)
    if (runs.policy[l] != "none")
      policies += (policies.empty() ? "" : ", ") + plan.run_laws[l] + " " + runs.policy[l] +
                  (runs.floor_hits[l] > 0
                       ? " (" + std::to_string(static_cast<long long>(runs.floor_hits[l])) +
                             " at the floor)"
                       : "");
  if (!policies.empty()) out << "impact velocity v0: " << policies << "\n";
  if (plan.record) {
    std::vector<double> spans;
    for (const double s : plan.resolution.samples_per_pulse)
      if (!std::isnan(s)) spans.push_back(s);
    std::sort(spans.begin(), spans.end());
    const double span = spans.empty() ? 0.0 : spans[spans.size() / 2];
    out << "every law is read at the data's times (sampled every "
        << short_number(plan.resolution.interval) << " s; "
        << (spans.empty()
                ? std::string("no pulse")
                : short_number(span) + (span == 1.0 ? " sample" : " samples") + " per pulse width")
        << ", the median over the beads); 'sampling' is the most the sampling can shift each "
           "value [%]\n";
  }
  out << std::fixed << std::setprecision(2);
  for (const layout::ComparisonMetric& metric : comparison_metrics) {
    const std::string name = metric.name;
    bool any = false;
    for (double r : errors.reference.at(name)) any = any || !std::isnan(r);
    if (!any) continue;
    out << "\n"
        << name << "\n  " << std::left << std::setw(30) << "law" << std::right << std::setw(9)
        << "mean" << std::setw(5) << "n";
    for (long long b : plan.shown) {
      std::string label = "#";  // not "#" + ...: GCC 12 warns about it falsely (-Wrestrict)
      label += std::to_string(b);
      out << std::setw(9) << label;
    }
    out << "\n";
    for (std::size_t l = 0; l < plan.laws.size(); ++l) {
      // A cell without a value (a bead the data do not measure, a pulse that never came) is
      // "-": the terminal never shows "nan".
      auto cell = [&](double x) {
        if (std::isnan(x))
          out << std::setw(9) << "-";
        else
          out << std::setw(9) << x;
      };
      out << "  " << std::left << std::setw(30) << plan.laws[l] << std::right;
      cell(errors.mean_error.at(name)[l]);
      out << std::setw(5) << static_cast<int>(errors.compared.at(name)[l]);
      for (long long b : plan.shown) cell(errors.at(l, name, b));
      out << "\n";
    }
    if (plan.record) {
      const std::vector<double>& bound = plan.resolution.bound.at(name);
      out << "  " << std::left << std::setw(30) << "sampling" << std::right;
      if (std::isnan(mean_of(bound)))
        out << std::setw(9) << "-";
      else
        out << std::setw(9) << mean_of(bound);
      out << std::setw(5) << "";
      for (long long b : plan.shown) {
        const double x = bound[static_cast<std::size_t>(b)];
        if (std::isnan(x))
          out << std::setw(9) << "-";
        else
          out << std::setw(9) << x;
      }
      out << "\n";
    }
  }
}

}  // namespace chaindem::compare_detail
