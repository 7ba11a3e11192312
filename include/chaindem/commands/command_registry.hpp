#pragma once
// The commands of `chaindem`, one row each of a table (command_registry.cpp): what the program
// dispatches to, what `chaindem --help` lists, what a mistyped command is compared with, and
// what the Python module runs in its process all read it. A new command is a row there and its
// file.

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace chaindem {

/// A command: its arguments (those after its name), where its results and its messages go;
/// returns the exit status of the process (exit_status.hpp).
using CommandFunction = int (*)(const std::vector<std::string>& args, std::ostream& out,
                                std::ostream& err);

/// One row of the table.
struct Command {
  std::string_view name;  ///< what the user types after `chaindem`
  /// How it is typed, as `chaindem --help` lists it after "chaindem " (a line break continues
  /// under the arguments); empty: not listed (another name of a listed command).
  std::string_view usage = {};
  /// What it does, after its usage when that leaves room on the line; empty when the usage says
  /// it.
  std::string_view summary = {};
  CommandFunction run = nullptr;
  /// Offered for a mistyped command ("did you mean"): the commands, not the options --help and
  /// --version.
  bool suggested = true;
};

/// The row of `name`, or null.
const Command* find_command(std::string_view name);

/// `chaindem --help`: what the program is, and the usage of every listed command.
std::string usage_text();

/// The program: `args` are its arguments (without the program's name), the first naming the
/// command. Returns the exit status.
int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace chaindem
