#pragma once
// What a law predicts of binary impacts, as a function of the parameters a fit adjusts: the
// restitution, peak force, contact duration or largest overlap at an impact velocity
// (docs/fit.md). Each prediction is an impact integrated as `chaindem collide` integrates it
// (simulate_impact), but for the restitution of the hysteresis family: their damping scales
// with the impact velocity v0 so that the restitution does not depend on it (nor on the mass
// or the stiffness), and one impact gives it for every velocity (checked at the slowest and the
// fastest impact of the data, where it applies).

#include <string>
#include <vector>

#include "chaindem/laws/binary_impact.hpp"
#include "chaindem/laws/law.hpp"

namespace chaindem::fit {

/// What is measured of an impact.
enum class ImpactQuantity { restitution, peak_force, contact_duration, max_overlap };
std::string_view to_string(ImpactQuantity q);

class ImpactModel {
 public:
  /// `law` between the bodies of `pair` (materials, radii, effective mass), integrated with
  /// `options` (tension, impact-velocity policy). `fixed`: the parameters the fit does not
  /// adjust, as given; `free`: the keys of those it does, in the order of the values predict()
  /// takes. Throws LawParamError naming a key the law does not have.
  ImpactModel(const LawEntry& law, const PairInput& pair, const ImpactOptions& options,
              LawParams fixed, std::vector<std::string> free);

  /// `quantity` at each of `velocities` [m/s], with the free parameters at `values`. False
  /// when the values are outside the law's ranges or an impact does not end (the bodies never
  /// separate): the fit steps back.
  bool predict(const std::vector<double>& values, const std::vector<double>& velocities,
               ImpactQuantity quantity, std::vector<double>& out) const;
  /// Several quantities at once, from one impact per velocity: out[q][i] is quantities[q] at
  /// velocities[i].
  bool predict(const std::vector<double>& values, const std::vector<double>& velocities,
               const std::vector<ImpactQuantity>& quantities,
               std::vector<std::vector<double>>& out) const;

  const LawEntry& law() const { return law_; }
  const std::vector<std::string>& free_keys() const { return free_; }
  /// The law's parameters with the free ones at `values`, resolved (defaults, derived values);
  /// throws LawParamError outside the law's ranges.
  LawParams parameters(const std::vector<double>& values) const;

 private:
  double quantity_at(const PairCoeffs& coeffs, double velocity, ImpactQuantity quantity,
                     bool* ended) const;

  const LawEntry& law_;
  PairInput pair_;
  ImpactOptions options_;
  LawParams fixed_;
  std::vector<std::string> free_;
};

}  // namespace chaindem::fit
