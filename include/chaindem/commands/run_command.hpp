#pragma once
// `chaindem run`: case file -> simulation -> HDF5, with progress and a summary.

#include <iosfwd>
#include <string>
#include <vector>

namespace chaindem {

struct RunOptions {
  std::string case_path;
  std::string output;                  ///< empty: output.file, else default_output_path
  std::vector<std::string> overrides;  ///< "section.key=value"
  std::vector<std::string> unset;      ///< keys removed from the case
  bool quiet = false;                  ///< no progress and no summary
  bool restart = false;                ///< continue from the output's checkpoint
  bool discard_checkpoint = false;     ///< start over though a checkpoint of this case is there
  bool force = false;                  ///< replace the output if it exists
};

/// The command: its options, then run_case. Returns the process exit code.
int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Runs one case. Returns the process exit code: 0 success, 2 invalid input, 1 runtime failure.
int run_case(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace chaindem
