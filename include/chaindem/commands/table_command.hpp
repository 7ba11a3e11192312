#pragma once
// `chaindem table FILE.h5 [--csv | --json]`: the table a chaindem file holds (a sweep's summary,
// a comparison's errors, a run's summary), printed for readers without h5py.

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 a file without a table or a wrong option).
int table_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
