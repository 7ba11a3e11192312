#include "chaindem/fit/impact_data.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace chaindem::fit {

std::vector<ImpactQuantity> ImpactData::quantities() const {
  std::vector<ImpactQuantity> q;
  for (const Series& s : series) q.push_back(s.quantity);
  return q;
}

std::size_t ImpactData::points() const {
  std::size_t n = 0;
  for (const Series& s : series)
    n += std::size_t(
        std::count_if(s.value.begin(), s.value.end(), [](double x) { return std::isfinite(x); }));
  return n;
}

Problem impact_problem(const ImpactModel& model, const ImpactData& data,
                       std::vector<FreeParameter> parameters) {
  if (parameters.size() != model.free_keys().size())
    throw std::invalid_argument("impact_problem: one parameter per free key of the model");
  Problem p;
  p.parameters = std::move(parameters);
  p.residual_count = data.points();
  p.sigma_known = data.weighted();
  p.residuals = [&model, &data, quantities = data.quantities()](const std::vector<double>& theta,
                                                                std::vector<double>& r) {
    std::vector<std::vector<double>> predicted;
    if (!model.predict(theta, data.velocity, quantities, predicted)) return false;
    std::size_t k = 0;
    for (std::size_t q = 0; q < data.series.size(); ++q) {
      const Series& s = data.series[q];
      for (std::size_t i = 0; i < s.value.size(); ++i)
        if (std::isfinite(s.value[i]))
          r[k++] = (s.value[i] - predicted[q][i]) / (s.sigma.empty() ? 1.0 : s.sigma[i]);
    }
    return true;
  };
  return p;
}

std::vector<std::vector<double>> residuals_by_series(const ImpactData& data,
                                                     const std::vector<double>& residuals) {
  std::vector<std::vector<double>> out;
  std::size_t k = 0;
  for (const Series& s : data.series) {
    out.emplace_back(s.value.size(), std::nan(""));
    for (std::size_t i = 0; i < s.value.size(); ++i)
      if (std::isfinite(s.value[i])) out.back()[i] = residuals.at(k++);
  }
  return out;
}

}  // namespace chaindem::fit
