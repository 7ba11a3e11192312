#pragma once
// What a command's failure means for the user: the message on stderr and the exit status of the
// process. Every command reports its failures through report_failure, so that one kind of
// failure gets one status and one form of message whichever command meets it.

#include <exception>
#include <iosfwd>
#include <stdexcept>
#include <string_view>

namespace chaindem {

/// The exit statuses of every command: 0 done; 1 a run that failed (its fault, or the
/// machine's: a diverged integration, a full disk, memory running out); 2 input refused before
/// anything ran (a case key, an option, an output path). A command stopped by signal N exits
/// with exit_on_signal + N, as a shell reports a process the signal ended.
inline constexpr int exit_done = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_refused = 2;
inline constexpr int exit_on_signal = 128;

/// Input a command refuses before anything runs, told in its own words: the message is
/// "chaindem COMMAND: " and the text, with no kind of refusal added (an option the command does
/// not know, a missing file argument, a law that is not there). Exit status 2.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Who tells a failure, and where.
struct FailureReport {
  std::string_view speaker;         ///< the start of the message: "chaindem sweep"
  std::ostream* err = nullptr;      ///< where it goes; null: nowhere (an MPI rank but the first)
  std::string_view under_way = {};  ///< what memory ran out during: " while building the case"
};

/// Writes what `failure` means to `report.err`, one line "SPEAKER: KIND: what", and returns the
/// exit status:
/// - 2, input refused: "invalid input" for a CaseError; for a LawParamError "invalid input:
///   --set KEY" (a law parameter refused without an option to blame: bare law parameters come
///   only from --set); "invalid output" for an OutputPathError or a CheckpointError (the output
///   or its checkpoint cannot be used); no kind for a Refusal;
/// - 1, a failed run: "error: memory ran out" and `under_way` for std::bad_alloc; "error" for
///   every other exception.
int report_failure(const std::exception_ptr& failure, const FailureReport& report);

}  // namespace chaindem
