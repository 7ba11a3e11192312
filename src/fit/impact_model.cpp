#include "chaindem/fit/impact_model.hpp"

#include <algorithm>
#include <cmath>

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

double ImpactModel::quantity_at(const PairCoeffs& coeffs, double velocity, ImpactQuantity quantity,
                                bool* ended) const {
  const ImpactResult r = simulate_impact(law_, coeffs, pair_.effective_mass, velocity, options_);
  *ended = r.separated;
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

bool ImpactModel::predict(const std::vector<double>& values, const std::vector<double>& velocities,
                          ImpactQuantity quantity, std::vector<double>& out) const {
  PairCoeffs coeffs;
  try {
    coeffs = law_.prepare(law_, pair_, parameters(values));
  } catch (const LawParamError&) {
    return false;  // outside the law's ranges: the search steps back
  }
  out.assign(velocities.size(), std::nan(""));
  if (velocities.empty()) return true;
  bool ended = true;
  // The hysteresis family's restitution does not depend on the impact velocity (the damping is
  // divided by it): where the impacts at the slowest and the fastest velocity agree, that one
  // value is every point's.
  if (quantity == ImpactQuantity::restitution && law_.family == Family::hysteresis &&
      velocities.size() > 2) {
    const auto [slow, fast] = std::minmax_element(velocities.begin(), velocities.end());
    bool slow_ended = true, fast_ended = true;
    const double e_slow = quantity_at(coeffs, *slow, quantity, &slow_ended);
    const double e_fast = quantity_at(coeffs, *fast, quantity, &fast_ended);
    if (!slow_ended || !fast_ended) return false;
    if (std::abs(e_slow - e_fast) <= 1e-9 * std::max(std::abs(e_slow), 1e-12)) {
      std::fill(out.begin(), out.end(), e_slow);
      return true;
    }
  }
  for (std::size_t i = 0; i < velocities.size() && ended; ++i)
    out[i] = quantity_at(coeffs, velocities[i], quantity, &ended);
  return ended;
}

}  // namespace chaindem::fit
