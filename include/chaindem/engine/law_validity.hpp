#pragma once
// The watch of the contact laws' validity over a run (docs/engine.md, "Validity of the laws"):
// what the contacts of each kind reached (Simulation::contact_extremes) against where their law's
// sources state it holds (LawValidity). It only watches and says: nothing is clamped.

#include <limits>
#include <string>
#include <vector>

#include "chaindem/engine/simulation.hpp"

namespace chaindem {

/// How the contacts of one kind did over a run against their law's stated validity. A bound is
/// NaN where the law's sources state none (the pressure's also where the materials give no yield
/// stress).
struct ValidityCheck {
  int model = 0;  ///< SimulationSettings::model
  const LawEntry* law = nullptr;
  std::string contacts;         ///< "steel-steel" (two beads), "steel-wall_end" (a bead on a wall)
  double largest_strain = 0.0;  ///< overlap over the effective radius, delta/R*
  double strain_bound = std::numeric_limits<double>::quiet_NaN();
  double largest_impact_speed = 0.0;  ///< approach rate at first touch [m/s]
  double impact_speed_bound = std::numeric_limits<double>::quiet_NaN();  ///< [m/s]
  /// The peak Hertz pressure p0 = (2 E*/pi) sqrt(delta/R*) at the largest strain [Pa].
  double largest_pressure = 0.0;
  double pressure_bound = std::numeric_limits<double>::quiet_NaN();  ///< [Pa]
  /// Each bound the contacts went beyond, and a restitution outside the law's range: what, how
  /// far, and the bound with who states it.
  std::vector<std::string> exceeded;
  bool left() const { return !exceeded.empty(); }
};

/// The checks of the kinds of contact of a run that have touched, in contact_extremes' order.
std::vector<ValidityCheck> check_validity(const Simulation& sim);

}  // namespace chaindem
