#pragma once
// `chaindem fit --data FILE.csv --laws A,B,...`: each law's parameters fitted to measured
// binary impacts, with confidence intervals, and the laws ranked by AICc (docs/fit.md).

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 invalid input, 1 a fit failed).
int fit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
