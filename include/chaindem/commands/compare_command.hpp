#pragma once
// `chaindem compare CASE.ini --laws A,B (--reference LAW | --reference-data FILE.csv)`: one chain
// under several laws, run in parallel, with per-bead relative errors against the reference
// (peak velocity, peak contact force, pulse arrival time, final velocity), printed as a table
// like Table 6 of the CJTAM review (docs/references.md) and written to HDF5 (/cases/<law>,
// /comparison).

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

/// Runs the command; returns the exit code (0, 2 invalid input, 1 a run failed).
int compare_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
