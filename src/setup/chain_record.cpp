#include "chaindem/setup/chain_record.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/setup/case_file.hpp"
#include "chaindem/text.hpp"

namespace chaindem {

bool csv_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf& text = *in.rdbuf();
  for (;;) {
    const int c = text.sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(line.empty() ? std::ios::eofbit | std::ios::failbit : std::ios::eofbit);
      return !line.empty();
    }
    if (c == '\n') return true;
    if (c == '\r') {
      if (text.sgetc() == '\n') text.sbumpc();
      return true;
    }
    line += static_cast<char>(c);
  }
}

std::vector<std::string> csv_cells(const std::string& line, char delimiter) {
  std::vector<std::string> cells;
  std::size_t from = 0;
  while (true) {
    const auto comma = line.find(delimiter, from);
    std::string cell = line.substr(from, comma == std::string::npos ? comma : comma - from);
    const auto b = cell.find_first_not_of(" \t\r");
    cells.push_back(
        b == std::string::npos ? "" : cell.substr(b, cell.find_last_not_of(" \t\r") - b + 1));
    if (comma == std::string::npos) return cells;
    from = comma + 1;
  }
}

// The delimiter of a CSV file, from its header line: a comma, or else a semicolon or a tab
// (as spreadsheets in many locales write), whichever the line holds; a comma if none.
char csv_delimiter(const std::string& header) {
  if (header.find(',') != std::string::npos) return ',';
  if (header.find(';') != std::string::npos) return ';';
  if (header.find('\t') != std::string::npos) return '\t';
  return ',';
}

// A header cell "name [unit]" or "name (unit)": the name and the unit ("" if none).
std::pair<std::string, std::string> name_and_unit(const std::string& cell) {
  for (const auto& [open, close] : {std::pair{'[', ']'}, std::pair{'(', ')'}}) {
    const auto a = cell.rfind(open);
    if (a != std::string::npos && cell.back() == close) {
      std::string name = cell.substr(0, a);
      name.erase(name.find_last_not_of(" ") + 1);
      return {name, cell.substr(a + 1, cell.size() - a - 2)};
    }
  }
  return {cell, ""};
}

namespace {

bool is_number(const std::string& cell) {
  double x = 0.0;
  return read_number(cell, x) != NumberText::not_a_number;
}

// The bead a header name numbers: the digits that end it (bead7, b7, v_7, 7), or -1 if it ends
// otherwise (or the number is too long to be a bead's).
long long numbered_bead(const std::string& name) {
  const auto last = name.find_last_not_of("0123456789");
  const std::string digits = last == std::string::npos ? name : name.substr(last + 1);
  if (digits.empty() || digits.size() > 12) return -1;
  return std::stoll(digits);
}

class Reader {
 public:
  Reader(std::string path, std::string option, bool velocity, long long beads, double duration)
      : path_(std::move(path)),
        option_(std::move(option)),
        velocity_(velocity),
        beads_(beads),
        duration_(duration) {}

  // Reads the file; throws CaseError at the first problem.
  void read() {
    if (const std::string problem = input_file_problem(path_); !problem.empty()) fail(problem);
    std::ifstream in(path_, std::ios::binary);
    if (!in) fail("cannot be read");
    std::string line;
    if (!next_line(in, line)) fail("is empty: expected a header line, then the data rows");
    // A byte-order mark is how some programs begin UTF-8 files; it is not part of the header.
    if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    delimiter_ = csv_delimiter(line);
    read_header(csv_cells(line, delimiter_));
    columns_.assign(static_cast<std::size_t>(beads_), {});
    while (next_line(in, line))
      if (line.find_first_not_of(" \t\r") != std::string::npos)
        read_row(csv_cells(line, delimiter_));
    if (in.bad()) fail("cannot be read");
    if (time_.empty())
      fail("has no data rows: expected rows of time and one value per column after the header");
    check_time_range();
  }

  const std::vector<double>& time() const { return time_; }
  const std::vector<std::vector<double>>& columns() const { return columns_; }
  /// The chain beads the file measures, in column order.
  const std::vector<long long>& beads() const { return bead_of_column_; }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw CaseError(option_ + " '" + quoted_path(path_) + "' " + what);
  }
  // The line being read and `column`, counted from 1, with the column's name (an excerpt: the
  // file named may be any file, its first line anything).
  std::string where(std::size_t column) const {
    const std::string name =
        column < header_.size() ? " ('" + quoted_excerpt(header_[column]) + "')" : "";
    return option_ + " '" + quoted_path(path_) + "', line " + std::to_string(line_) + ", column " +
           std::to_string(column + 1) + name;
  }
  [[noreturn]] void fail_at(std::size_t column, const std::string& what) const {
    throw CaseError(where(column) + ": " + what);
  }

  bool next_line(std::istream& in, std::string& line) {
    if (!csv_line(in, line)) return false;
    ++line_;
    return true;
  }

  // The factor from the unit of column `c` to SI; "" is SI.
  double unit_factor(std::size_t c, const std::string& unit) const {
    using Units = std::vector<std::pair<std::string, double>>;
    static const Units time{{"", 1.0},    {"s", 1.0},   {"ms", 1e-3},
                            {"us", 1e-6}, {"µs", 1e-6}, {"ns", 1e-9}};
    static const Units speed{{"", 1.0}, {"m/s", 1.0}, {"mm/s", 1e-3}, {"mm/ms", 1.0}};
    static const Units force{{"", 1.0}, {"N", 1.0}, {"kN", 1e3}, {"mN", 1e-3}};
    const Units& allowed = c == 0 ? time : velocity_ ? speed : force;
    std::string names;
    for (const auto& [name, factor] : allowed) {
      if (name == unit) return factor;
      if (!name.empty()) names += (names.empty() ? "" : ", ") + name;
    }
    fail_at(c, "unknown unit '" + quoted_text(unit) + "': allowed " + names);
  }

  void read_header(const std::vector<std::string>& cells) {
    header_ = cells;
    bool numbers = true;
    for (const auto& cell : cells) numbers = numbers && is_number(cell);
    if (numbers)
      fail_at(0,
              "the first line is numbers, not the header: the file begins with a header "
              "line (time, then a name per measured bead)");
    if (cells.size() < 2) {
      const char* found = delimiter_ == ',' ? "no comma" : "one column";
      fail_at(0, std::string("a header of one column (") + found +
                     "): expected time and at least one bead, separated by commas (or "
                     "semicolons, or tabs)");
    }
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (cells[c].empty()) fail_at(c, "empty column name");
      factor_.push_back(unit_factor(c, name_and_unit(cells[c]).second));
    }
    const auto all = static_cast<std::size_t>(beads_) + 1;
    const std::string range =
        "allowed 0 to " + std::to_string(beads_ - 1) + " (0 = the first chain bead)";
    for (std::size_t c = 1; c < cells.size(); ++c) {
      const long long named = numbered_bead(name_and_unit(cells[c]).first);
      if (named >= beads_) fail_at(c, "names bead " + std::to_string(named) + ": " + range);
      if (cells.size() == all) {  // every bead, in the chain's order
        const long long bead = static_cast<long long>(c) - 1;
        if (named >= 0 && named != bead)
          fail_at(c, "names bead " + std::to_string(named) + ", but the column holds bead " +
                         std::to_string(bead) + ": with a column per chain bead the columns " +
                         "follow the beads in order, from 0");
        bead_of_column_.push_back(bead);
        continue;
      }
      if (named < 0)
        fail_at(c, std::to_string(cells.size() - 1) + " bead columns for a chain of " +
                       std::to_string(beads_) +
                       " beads: give every bead in order, or name the bead each column "
                       "measures by its index (bead3, v_7, 12; " +
                       range + ")");
      if (std::find(bead_of_column_.begin(), bead_of_column_.end(), named) != bead_of_column_.end())
        fail_at(c, "bead " + std::to_string(named) + " has two columns");
      bead_of_column_.push_back(named);
    }
  }

  void read_row(const std::vector<std::string>& cells) {
    if (cells.size() != header_.size())
      fail_at(std::min(cells.size(), header_.size()),
              std::to_string(cells.size()) + " values, but the header has " +
                  std::to_string(header_.size()) + " columns");
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const double x = number(cells[c], c) * factor_[c];
      if (c == 0) {
        if (!time_.empty() && !(x > time_.back()))
          fail_at(c, number_text(x) + " s is not after the previous row's " +
                         number_text(time_.back()) + " s: time must increase from row to row");
        time_.push_back(x);
      } else {
        if (velocity_ && !(std::abs(x) <= max_speed))
          fail_at(c, number_text(x) + " m/s is out of range: allowed [-" + number_text(max_speed) +
                         ", " + number_text(max_speed) + "] m/s");
        // A normal contact force pushes the beads apart: chaindem's are >= 0 (a record that
        // counts compression negative must change its sign first).
        if (!velocity_ && !(x >= 0.0 && x <= most_measured))
          fail_at(c, number_text(x) + " N is out of range: allowed [0, " +
                         number_text(most_measured) +
                         "] N, the contact force pushing the beads apart (compression counts "
                         "positive)");
        columns_[static_cast<std::size_t>(bead_of_column_[c - 1])].push_back(x);
      }
    }
  }

  // The data must cover the run's time: a file in other units than its header says (ms read as
  // s) would otherwise give meaningless errors.
  void check_time_range() const {
    const std::string run = " the run lasts " + rounded_text(duration_, 6) + " s";
    const std::string hint =
        " (is the time in another unit? name it in the header, e.g. 'time [ms]')";
    if (!(time_.front() < duration_))
      fail("starts at t = " + number_text(time_.front()) + " s, when the run has ended:" + run +
           hint);
    if (time_.back() > 10.0 * duration_)
      fail("runs to t = " + number_text(time_.back()) + " s, " +
           rounded_text(time_.back() / duration_) + " times as long as the run:" + run + hint +
           "; or lengthen the run, simulation.duration");
    // One instant is no history: no peak, arrival or final value to compare or fit.
    const auto within =
        std::count_if(time_.begin(), time_.end(), [&](double t) { return t <= duration_; });
    if (within < 2)
      fail("has " + std::to_string(within) + " data row" + (within == 1 ? "" : "s") +
           " within the run (up to t = " + rounded_text(duration_) +
           " s): a history needs at least two");
  }

  double number(const std::string& cell, std::size_t column) const {
    if (cell.empty()) fail_at(column, "empty cell; expected a number");
    return option_number(where(column), cell);
  }

  std::string path_;
  std::string option_;  // the command-line option that named the file, for messages
  bool velocity_;
  long long beads_;
  double duration_;
  char delimiter_ = ',';
  std::size_t line_ = 0;
  std::vector<std::string> header_;
  std::vector<double> factor_;  // per column: to SI
  std::vector<long long> bead_of_column_;
  std::vector<double> time_;
  std::vector<std::vector<double>> columns_;  // per chain bead; empty: not measured
};

}  // namespace

ChainRecord read_chain_record(const std::string& path, RecordQuantity quantity, long long beads,
                              double duration, const std::string& option) {
  Reader reader(path, option, quantity == RecordQuantity::velocity, beads, duration);
  reader.read();
  return {quantity, reader.time(), reader.beads(), reader.columns()};
}

}  // namespace chaindem
