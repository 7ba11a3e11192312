#pragma once
// A sweep's HDF5 file (docs/sweeps.md): /sweep (the definition and its signature), /cases (one
// group per case, the layout of `chaindem run`), /summary (one row per case).

#include <hdf5.h>

#include <optional>
#include <string>
#include <vector>

#include "chaindem/commands/sweep_definition.hpp"
#include "chaindem/output/output_layout.hpp"

namespace chaindem::sweep {

/// One case's row of the summary: its status ("ok", or why it failed) and, when it finished,
/// its run's summary.
struct CaseRecord {
  std::string status = "missing";
  std::optional<layout::RunSummary> summary;
};

/// The summary of the case stored in group `case_group` of `file`.
CaseRecord read_case(hid_t file, const std::string& case_group);
/// /sweep: the definition, its axes and its signature; and /cases if the sweep keeps its cases.
void write_definition(hid_t f, const SweepDefinition& d, const std::string& signature);
/// /summary: one row per case, a column per axis and per value of the run summary that any
/// case has (layout::summary_scalars, summary_texts, summary_arrays; NaN or "" where a case has
/// none).
void write_summary(hid_t f, const SweepDefinition& d, const std::vector<CaseRecord>& records);
/// A case's row of the summary table as bytes (what write_summary takes of it), for another MPI
/// rank: read back by summary_from_bytes, every value bitwise.
std::string summary_bytes(const layout::RunSummary& s);
layout::RunSummary summary_from_bytes(const std::string& bytes);

}  // namespace chaindem::sweep
