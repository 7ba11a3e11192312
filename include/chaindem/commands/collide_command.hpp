#pragma once
// `chaindem collide`: a head-on collision of two bodies, or a body and a wall, for any law.

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "chaindem/laws/binary_impact.hpp"

namespace chaindem {

struct CollisionReport {
  const LawEntry* law = nullptr;
  LawParams params;
  TensionPolicy tension = TensionPolicy::clamp;
  double effective_mass = 0.0;
  PairCoeffs coeffs;
  ImpactResult result;
  /// Named scalar results (SI units), in output order.
  std::vector<std::pair<std::string, double>> scalars() const;
};

/// Runs the command; returns the exit code (0, 2 invalid input, 1 failure).
int collide_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
