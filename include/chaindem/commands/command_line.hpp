#pragma once
// What every command does with its arguments: Boost.Program_options over the command's options,
// and at most one positional argument (the case or sweep file).

#include <boost/program_options.hpp>
#include <exception>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "chaindem/commands/exit_status.hpp"  // Refusal, report_failure: how commands fail
#include "chaindem/output/output_file.hpp"    // Existing: outputs that exist
#include "chaindem/setup/case_file.hpp"       // trimmed, option_number: what commands read
#include "chaindem/text.hpp"                  // quoted_text, number_text: what commands quote

namespace chaindem {

/// Parses `args` against `options`, the first positional argument into `*positional` (nullptr:
/// none allowed), or every positional argument into `*positionals` when that is given. A parse
/// error (an unknown option, with the closest ones suggested; an argument the command does not
/// take) throws a Refusal saying what, which `command` reports (exit status 2).
boost::program_options::variables_map parse_command_line(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& options, std::string* positional,
    std::string_view command, std::vector<std::string>* positionals = nullptr);

/// The entries of the comma-separated list `text` that `option` gave, each without the blanks at
/// its ends; none for a blank `text`. An empty entry ("a,,b", "a,") is refused with a CaseError
/// naming the option, followed by `allowed` (what the entries may be) when given.
std::vector<std::string> comma_list(const std::string& option, const std::string& text,
                                    const std::string& allowed = "");

/// The threads of a command's parallel loop: its --threads option, or when that is not given the
/// OpenMP default (OMP_NUM_THREADS, else all cores). Throws CaseError, naming the option (or
/// OMP_NUM_THREADS) and the allowed range, when the count is not in 1..max_threads.
int command_threads(const boost::program_options::variables_map& options);

/// Adds --force, which lets the command replace an output file that exists (refused otherwise),
/// setting `*force`.
void add_force_option(boost::program_options::options_description& options, bool* force);
/// What the command does with an output that exists: replace it under --force, else refuse it.
inline Existing existing_output(bool force) {
  return force ? Existing::replace : Existing::refuse;
}

/// The output a command writes when not told where: out/NAME`suffix` under the current folder
/// (made if missing), NAME being the stem of `input` followed by the command line's changes to
/// it, `_KEY=VALUE` per --set and `_-KEY` per --unset, in their order (characters other than
/// letters, digits and `.=+-` become `-`; a name over 100 characters is cut and ends in a hash
/// of the whole). Runs of one case with different --set values so go to files of their own.
std::string default_output_path(const std::string& input, std::string_view suffix,
                                const std::vector<std::string>& overrides = {},
                                const std::vector<std::string>& unset = {});

/// What a message says of a failure `e`: its own text, or that memory ran out for
/// std::bad_alloc, whose text names only its type.
std::string failure_text(const std::exception& e);

}  // namespace chaindem
