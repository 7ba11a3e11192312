#include "chaindem/commands/command_registry.hpp"

#include <array>
#include <cstddef>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "chaindem/commands/case_format_command.hpp"
#include "chaindem/commands/collide_command.hpp"
#include "chaindem/commands/compare_command.hpp"
#include "chaindem/commands/exit_status.hpp"
#include "chaindem/commands/fit_command.hpp"
#include "chaindem/commands/models_command.hpp"
#include "chaindem/commands/run_command.hpp"
#include "chaindem/commands/sweep_command.hpp"
#include "chaindem/commands/table_command.hpp"
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace chaindem {
namespace {

// `chaindem --help`, and `help`, `-h`: the usage of every command; arguments are ignored.
int help_command(const std::vector<std::string>&, std::ostream& out, std::ostream&) {
  out << usage_text();
  return exit_done;
}

int version_command(const std::vector<std::string>&, std::ostream& out, std::ostream&) {
  out << "chaindem " << version << "\n";
  return exit_done;
}

// The commands, in the order `chaindem --help` lists them.
constexpr std::array command_table{
    Command{.name = "run",
            .usage = "run CASE.ini [-o OUT.h5] [--set section.key=value ...] [--quiet]\n"
                     "    [--restart | --discard-checkpoint]",
            .run = run_command},
    Command{.name = "sweep",
            .usage = "sweep SWEEP.ini [-o OUT.h5] [--threads N]",
            .summary = "many cases in parallel (OpenMP, MPI)",
            .run = sweep_command},
    Command{.name = "compare",
            .usage = "compare CASE.ini --laws A,B (--reference LAW | --reference-data CSV)",
            .run = compare_command},
    Command{.name = "collide",
            .usage = "collide --law ID ...",
            .summary = "one head-on impact under any law (see collide --help)",
            .run = collide_command},
    Command{.name = "fit",
            .usage = "fit --data CSV --laws A,B ...",
            .summary = "fit laws to measured impacts, ranked (docs/fit.md)",
            .run = fit_command},
    Command{.name = "table",
            .usage = "table FILE.h5 [--csv|--json]",
            .summary = "print a sweep's, comparison's or run's table",
            .run = table_command},
    Command{.name = "models",
            .usage = "models [LAW ...] [--markdown|--list]",
            .summary = "the contact laws and their parameters",
            .run = models_command},
    Command{.name = "case-format",
            .usage = "case-format",
            .summary = "print the case-file reference (docs/case-format.md)",
            .run = case_format_command},
    Command{.name = "--help",
            .usage = "COMMAND --help",
            .summary = "help for one command",
            .run = help_command,
            .suggested = false},
    Command{.name = "-h", .run = help_command, .suggested = false},
    Command{.name = "help", .run = help_command, .suggested = false},
    Command{.name = "--version", .usage = "--version", .run = version_command, .suggested = false},
};

// The names a mistyped command is compared with.
std::vector<std::string> suggested_names() {
  std::vector<std::string> names;
  for (const Command& c : command_table)
    if (c.suggested) names.emplace_back(c.name);
  return names;
}

}  // namespace

const Command* find_command(std::string_view name) {
  for (const Command& c : command_table)
    if (c.name == name) return &c;
  return nullptr;
}

std::string usage_text() {
  constexpr std::string_view program = "  chaindem ";
  // A summary starts two blanks after the usage, and in one column where the usage is short.
  constexpr int summary_column = 16;
  std::ostringstream s;
  s << "chaindem - discrete-element simulator for granular chains\n\nusage:\n";
  for (const Command& c : command_table) {
    if (c.usage.empty()) continue;
    // A line break continues under the command's arguments.
    std::string usage(c.usage);
    for (std::size_t at = usage.find('\n'); at != std::string::npos; at = usage.find('\n', at + 1))
      usage.insert(at + 1, program.size(), ' ');
    s << program;
    if (c.summary.empty())
      s << usage;
    else
      s << std::left << std::setw(summary_column) << usage << "  " << c.summary;
    s << "\n";
  }
  return s.str();
}

int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << usage_text();
    return exit_refused;
  }
  const std::string& name = args.front();
  const Command* command = find_command(name);
  if (!command) {
    err << "chaindem: unknown command '" << quoted_text(name) << "'"
        << did_you_mean(name, suggested_names()) << "\n"
        << usage_text();
    return exit_refused;
  }
  const std::string speaker = "chaindem " + name;
  try {
    return command->run({args.begin() + 1, args.end()}, out, err);
  } catch (...) {  // a failure its command let through: reported as every command reports one
    return report_failure(std::current_exception(), {speaker, &err});
  }
}

}  // namespace chaindem
