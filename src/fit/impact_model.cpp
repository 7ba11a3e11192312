#include "chaindem/fit/impact_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace chaindem::fit {

std::string_view to_string(ImpactQuantity q) {
  switch (q) {
    case ImpactQuantity::restitution:
      return "restitution";
    case ImpactQuantity::peak_force:
      return "peak_force";
    case ImpactQuantity::contact_duration:
      return "contact_duration";
    case ImpactQuantity::max_overlap:
      return "max_overlap";
  }
  return "?";
}

ImpactModel::ImpactModel(const LawEntry& law, const PairInput& pair, const ImpactOptions& options,
                         LawParams fixed, std::vector<std::string> free)
    : law_(law), pair_(pair), options_(options), fixed_(std::move(fixed)), free_(std::move(free)) {
  for (const std::string& key : free_)
    if (!law_.find_param(key))
      throw LawParamError(key,
                          "'" + key + "' is not a parameter of law '" + std::string(law_.id) + "'");
  options_.record = false;
}

LawParams ImpactModel::parameters(const std::vector<double>& values) const {
  LawParams given = fixed_;
  for (std::size_t k = 0; k < free_.size(); ++k) given[free_[k]] = values.at(k);
  return resolve_law_params(law_, given);
}

namespace {

double quantity_of(const ImpactResult& r, ImpactQuantity quantity) {
  switch (quantity) {
    case ImpactQuantity::restitution:
      return r.restitution;
    case ImpactQuantity::peak_force:
      return r.peak_force;
    case ImpactQuantity::contact_duration:
      return r.contact_duration;
    case ImpactQuantity::max_overlap:
      return r.max_overlap;
  }
  return std::nan("");
}

}  // namespace

bool ImpactModel::predict(const std::vector<double>& values, const std::vector<double>& velocities,
                          ImpactQuantity quantity, std::vector<double>& out) const {
  std::vector<std::vector<double>> all;
  if (!predict(values, velocities, std::vector<ImpactQuantity>{quantity}, all)) return false;
  out = std::move(all.front());
  return true;
}

bool ImpactModel::predict(const std::vector<double>& values, const std::vector<double>& velocities,
                          const std::vector<ImpactQuantity>& quantities,
                          std::vector<std::vector<double>>& out) const {
  PairCoeffs coeffs;
  try {
    coeffs = law_.prepare(law_, pair_, parameters(values));
  } catch (const std::invalid_argument&) {
    // Outside the law's ranges (LawParamError), or a combination of values the law refuses
    // (some elastoplastic laws): the search steps back.
    return false;
  }
  out.assign(quantities.size(), std::vector<double>(velocities.size(), std::nan("")));
  if (velocities.empty()) return true;
  auto impact = [&](double v) {
    return simulate_impact(law_, coeffs, pair_.effective_mass, v, options_);
  };
  // The hysteresis family's restitution does not depend on the impact velocity (the damping is
  // divided by it): where the impacts at the slowest and the fastest velocity agree, that one
  // value is every point's.
  if (quantities.size() == 1 && quantities[0] == ImpactQuantity::restitution &&
      law_.family == Family::hysteresis && velocities.size() > 2) {
    const auto [slow, fast] = std::minmax_element(velocities.begin(), velocities.end());
    const ImpactResult r_slow = impact(*slow), r_fast = impact(*fast);
    if (!r_slow.separated || !r_fast.separated) return false;
    const double e = r_slow.restitution;
    if (std::abs(e - r_fast.restitution) <= 1e-9 * std::max(std::abs(e), 1e-12)) {
      std::fill(out[0].begin(), out[0].end(), e);
      return true;
    }
  }
  for (std::size_t i = 0; i < velocities.size(); ++i) {
    const ImpactResult r = impact(velocities[i]);
    if (!r.separated) return false;
    for (std::size_t q = 0; q < quantities.size(); ++q) out[q][i] = quantity_of(r, quantities[q]);
  }
  return true;
}

}  // namespace chaindem::fit
