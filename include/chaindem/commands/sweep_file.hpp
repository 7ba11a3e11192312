#pragma once
// A sweep's HDF5 file (docs/sweeps.md): /sweep (the definition and its signature), /cases (one
// group per case, the layout of `chaindem run`), /summary (one row per case).

#include <hdf5.h>

#include <map>
#include <string>
#include <vector>

#include "chaindem/commands/sweep_definition.hpp"

namespace chaindem::sweep {

/// The results of one finished case, as its summary row holds them.
struct CaseRecord {
  std::string status = "missing";
  std::map<std::string, double> scalars;
  std::map<std::string, std::string> texts;
  std::map<std::string, std::vector<double>> arrays;
};

/// The summary of the case stored in group `case_group` of `file`.
CaseRecord read_case(hid_t file, const std::string& case_group);
/// /sweep: the definition, its axes and its signature.
void write_definition(hid_t f, const SweepDefinition& d, const std::string& signature);
/// /summary: one row per case, a column per axis and per summary value.
void write_summary(hid_t f, const SweepDefinition& d, const std::vector<CaseRecord>& records);

}  // namespace chaindem::sweep
