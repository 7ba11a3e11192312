#include "compare_parts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "chaindem/fit/chain_model.hpp"
#include "chaindem/output/output_layout.hpp"

namespace chaindem::compare_detail {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The first sample whose magnitude reaches `threshold`; none: `size`.
std::size_t arrival_sample(const std::vector<double>& c, double threshold) {
  for (std::size_t k = 0; k < c.size(); ++k)
    if (std::abs(c[k]) >= threshold) return k;
  return c.size();
}

Metrics empty_metrics(long long beads) {
  Metrics m;
  for (const auto& metric : layout::comparison_metrics)
    m[metric.name].assign(static_cast<std::size_t>(beads), nan);
  return m;
}

}  // namespace

Metrics sampled_metrics(const ChainRecord& record, long long beads, double arrival_speed) {
  Metrics m = empty_metrics(beads);
  for (const long long b : record.beads) {
    const std::vector<double>& c = record.columns[static_cast<std::size_t>(b)];
    const auto u = static_cast<std::size_t>(b);
    if (record.quantity == RecordQuantity::force) {
      m["peak_force"][u] = *std::max_element(c.begin(), c.end());
      continue;
    }
    m["peak_velocity"][u] = *std::max_element(c.begin(), c.end());
    m["final_velocity"][u] = c.back();
    const std::size_t k = arrival_sample(c, arrival_speed);
    m["arrival_time"][u] = k < c.size() ? record.time[k] : nan;
  }
  return m;
}

Resolution sampling_resolution(const ChainRecord& record, long long beads, double arrival_speed) {
  Resolution r;
  const std::vector<double>& t = record.time;
  std::vector<double> spacing;
  for (std::size_t k = 1; k < t.size(); ++k) spacing.push_back(t[k] - t[k - 1]);
  if (!spacing.empty()) {
    std::nth_element(spacing.begin(), spacing.begin() + spacing.size() / 2, spacing.end());
    r.interval = spacing[spacing.size() / 2];
  }
  r.samples_per_pulse.assign(static_cast<std::size_t>(beads), nan);
  r.bound = empty_metrics(beads);
  const char* peak = record.quantity == RecordQuantity::force ? "peak_force" : "peak_velocity";
  for (const long long b : record.beads) {
    const std::vector<double>& c = record.columns[static_cast<std::size_t>(b)];
    const auto u = static_cast<std::size_t>(b);
    const auto top = static_cast<std::size_t>(std::max_element(c.begin(), c.end()) - c.begin());
    const double height = c[top];
    if (height > 0.0) {
      // The pulse: the samples around its peak at or above half of it.
      std::size_t first = top, last = top;
      while (first > 0 && c[first - 1] >= 0.5 * height) --first;
      while (last + 1 < c.size() && c[last + 1] >= 0.5 * height) ++last;
      r.samples_per_pulse[u] = static_cast<double>(last - first + 1);
      // A smooth peak p(t) = a - q (t - t0)^2 between two samples h apart lies above the larger
      // of them by at most q h^2 / 4 = |second difference| / 8.
      if (top > 0 && top + 1 < c.size())
        r.bound[peak][u] = 100.0 * std::abs(c[top - 1] - 2.0 * height + c[top + 1]) / 8.0 / height;
    }
    r.bound["final_velocity"][u] = record.quantity == RecordQuantity::velocity ? 0.0 : nan;
    if (record.quantity == RecordQuantity::force) continue;
    const std::size_t k = arrival_sample(c, arrival_speed);
    if (k > 0 && k < c.size() && t[k] > 0.0)
      r.bound["arrival_time"][u] = 100.0 * (t[k] - t[k - 1]) / t[k];
  }
  return r;
}

std::optional<ChainRecord> run_at_samples(const std::string& case_path,
                                          const std::vector<std::string>& sets,
                                          const std::vector<std::string>& unset,
                                          const LawEntry& law, const std::string& pair,
                                          const ChainRecord& data) {
  const fit::ChainModel model(case_path, sets, unset, law, {}, 1, pair);
  std::vector<std::vector<double>> predicted;
  if (!model.predict({}, data, predicted)) return std::nullopt;
  ChainRecord run{data.quantity, data.time, data.beads, {}};
  run.columns.resize(data.columns.size());
  for (std::size_t b = 0; b < data.beads.size(); ++b)
    run.columns[static_cast<std::size_t>(data.beads[b])] = std::move(predicted[b]);
  return run;
}

}  // namespace chaindem::compare_detail
