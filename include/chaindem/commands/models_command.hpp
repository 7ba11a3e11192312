#pragma once
// `chaindem models [LAW ...] [--markdown | --list]`: the contact laws and their parameters, from
// the law registry (docs/contact-laws.md is its --markdown).

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 an unknown law or option).
int models_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
