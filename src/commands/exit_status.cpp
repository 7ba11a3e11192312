#include "chaindem/commands/exit_status.hpp"

#include <new>
#include <ostream>
#include <string>

#include "chaindem/laws/law.hpp"
#include "chaindem/output/checkpoint_file.hpp"
#include "chaindem/output/output_file.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/text.hpp"

namespace chaindem {

int report_failure(const std::exception_ptr& failure, const FailureReport& report) {
  auto tell = [&](std::string_view kind, std::string_view what, int status) {
    if (report.err) *report.err << report.speaker << ": " << kind << what << "\n";
    return status;
  };
  try {
    std::rethrow_exception(failure);
  } catch (const Refusal& e) {
    return tell("", e.what(), exit_refused);
  } catch (const CaseError& e) {
    return tell("invalid input: ", e.what(), exit_refused);
  } catch (const LawParamError& e) {
    return tell("invalid input: --set " + quoted_text(e.key) + ": ", e.what(), exit_refused);
  } catch (const OutputPathError& e) {
    return tell("invalid output: ", e.what(), exit_refused);
  } catch (const CheckpointError& e) {
    return tell("invalid output: ", e.what(), exit_refused);
  } catch (const std::bad_alloc&) {  // not the input's fault: the machine's, or its limits'
    return tell("error: memory ran out", report.under_way, exit_failed);
  } catch (const std::exception& e) {
    return tell("error: ", e.what(), exit_failed);
  }
}

}  // namespace chaindem
