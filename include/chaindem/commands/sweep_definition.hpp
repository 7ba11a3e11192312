#pragma once
// A sweep file (docs/sweeps.md): a base case, keys set for every case, and axes over any case
// keys, combined as a grid or zipped; each case is the base case with its overrides.

#include <cstddef>
#include <string>
#include <vector>

#include "chaindem/output/output_file.hpp"  // Existing

namespace chaindem::sweep {

/// The most cases a sweep may have. Every case is parsed and checked before any runs, and each
/// holds its keys in memory until it has run (~15 kB for a case of the default chain): 100000
/// cases take ~1.6 GB and ~3 s of checking on two cores before the first one runs, and as many
/// groups in one file unless the sweep keeps only its table. The shipped
/// studies have 16 and 120 cases; a larger study is split into several sweeps.
inline constexpr std::size_t max_cases = 100000;
/// The most values one axis may have: as many as the cases of a sweep (of which it is a factor).
/// Ranges are counted before their values are made.
inline constexpr std::size_t max_axis_values = max_cases;

/// One swept case key and its values.
struct Axis {
  std::string key;                  // case key, section.name
  std::vector<std::string> values;  // as text
};

/// What a sweep keeps of its cases (sweep.keep): a group per case under /cases and the summary
/// table; the summary table only (no case writes a frame); or their series stacked, a row per
/// case in one dataset per series under /stacked, and the summary table.
enum class Keep { cases, table, stacked };

/// A sweep as read from its file, with its cases enumerated.
struct SweepDefinition {
  std::string path, text;
  std::string name;  // the sweep file as messages name it (quoted_path of the given path)
  std::string base;  // base case file, resolved against the sweep file's folder
  std::string combine = "grid";
  std::string output;  // sweep.output; empty: the command's default (default_output_path)
  Existing existing = Existing::refuse;    // whether the sweep may replace `output` (--force)
  Keep keep = Keep::cases;                 ///< sweep.keep
  std::vector<std::string> fixed;          // "key=value" applied to every case
  std::vector<std::string> fixed_sources;  // where each comes from: "SWEEP.ini [set]", "--set"
  std::vector<std::string> unset;  // keys of the base case removed from every case (--unset)
  std::vector<Axis> axes;
  std::vector<std::vector<std::string>> cases;  // per case: the axis values
};

/// Reads SWEEP.ini; `extra_fixed` are keys set for every case from the command line
/// (section.key=value). Throws CaseError for an invalid file.
SweepDefinition read_sweep(const std::string& path, const std::vector<std::string>& extra_fixed);
/// The same from the file's text: `path` names the file in messages and its folder is where the
/// base case is looked for (only its name is resolved; no file is read).
SweepDefinition parse_sweep(const std::string& text, const std::string& path,
                            const std::vector<std::string>& extra_fixed);
/// The overrides of case k over the base case (its fixed keys, its axis values, one thread).
std::vector<std::string> case_overrides(const SweepDefinition& d, std::size_t k);
/// Where each of case_overrides comes from ("SWEEP.ini [set]", "SWEEP.ini [axes]", "--set"),
/// for messages (CaseConfig::load's sources).
std::vector<std::string> case_sources(const SweepDefinition& d);
/// "case k (key=value, ...)", for messages.
std::string case_label(const SweepDefinition& d, std::size_t k);
/// The case's group name in the file, case-NNNNNN.
std::string case_name(std::size_t k);
/// What identifies a sweep (version, sweep file, base case, overrides): a rerun may resume only
/// the same sweep.
std::string signature(const SweepDefinition& d);

}  // namespace chaindem::sweep
