#pragma once
// Measured histories of a chain: a CSV file with a header line, time first, then a column per
// chain bead, of bead velocity or contact force (docs/compare.md, "Reference data"): every bead
// in the chain's order, or any beads named by their index. Units in the header are converted to
// SI. Read by `chaindem compare --reference-data` and `chaindem fit --case`.

#include <istream>
#include <string>
#include <utility>
#include <vector>

namespace chaindem {

enum class RecordQuantity { velocity, force };

/// The largest magnitude of a measured force, duration or overlap, and the range of any
/// measurement's uncertainty, in SI units: far beyond any impact, and such that every residual of
/// a fit, (measured - predicted) / uncertainty, stays below 1e60, whose squares the fit sums.
inline constexpr double most_measured = 1e30;
inline constexpr double least_uncertainty = 1e-30, most_uncertainty = 1e30;

struct ChainRecord {
  RecordQuantity quantity = RecordQuantity::velocity;
  std::vector<double> time;                  ///< [s], increasing
  std::vector<long long> beads;              ///< the chain beads measured, in column order
  std::vector<std::vector<double>> columns;  ///< per chain bead, at `time`; empty: not measured
};

/// Reads and checks the whole file for a chain of `beads` beads whose run lasts `duration`
/// seconds (the data must start before the run ends). Throws CaseError at the first problem,
/// naming `option` (the command-line option that gave the file), the line and the column
/// (counted from 1, with the column's name).
ChainRecord read_chain_record(const std::string& path, RecordQuantity quantity, long long beads,
                              double duration, const std::string& option);

/// The next line of a text file into `line`, without its end: LF, CR LF, or a lone CR (as old
/// Mac OS ended lines, and some spreadsheets still write them). False at the end of the file, as
/// std::getline.
bool csv_line(std::istream& in, std::string& line);

/// One line of a CSV file, split at `delimiter`; each cell without the spaces around it. Empty
/// cells are kept: they are errors of the file, to be reported at their column.
std::vector<std::string> csv_cells(const std::string& line, char delimiter = ',');

/// The delimiter of a CSV file, from its header line: a comma, or else a semicolon or a tab (as
/// spreadsheets in many locales write), whichever the line holds; a comma if none.
char csv_delimiter(const std::string& header);

/// A header cell "name [unit]" or "name (unit)": the name and the unit ("" if none).
std::pair<std::string, std::string> name_and_unit(const std::string& cell);

}  // namespace chaindem
