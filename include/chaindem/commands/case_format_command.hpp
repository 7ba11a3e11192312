#pragma once
// `chaindem case-format`: the reference of every case-file key (docs/case-format.md is its
// output).

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 an argument or option it does not take).
int case_format_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
