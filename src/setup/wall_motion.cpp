// A wall's prescribed motion from its case keys (wall_*.motion and the keys of its kind): the
// harmonics, a table of samples read from a CSV file, or a slider-crank, along the wall's normal;
// and the driven end load's change from its keys (chain.end_force_motion and the keys of its
// kind), the same harmonics and tables read in newtons.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "chaindem/output/output_file.hpp"   // input_file_problem
#include "chaindem/setup/chain_record.hpp"   // csv_line, csv_cells, name_and_unit
#include "chaindem/setup/initial_state.hpp"  // resolve_initial_path
#include "chaindem/text.hpp"
#include "setup_parts.hpp"

namespace chaindem::setup {
namespace {

const char* motion_word(WallMotion m) {
  switch (m) {
    case WallMotion::harmonic:
      return "harmonic";
    case WallMotion::table:
      return "table";
    case WallMotion::slider_crank:
      return "slider_crank";
    case WallMotion::constant:
      break;
  }
  return "constant";
}

// The keys of a drive by harmonics or a table: a wall's, or the end load's.
struct DriveKeys {
  const WallMotion& motion;
  const std::vector<double>&amplitude, &frequency, &phase;
  const double& ramp;
  const std::optional<std::string>& table;
  const Motion::Interpolation& interpolation;
};

// A key of another kind of motion than the drive's is refused when it would change something:
// it would be silently ignored. (Its default is not: the parameters an output records, which
// name every key, must give the run again.) `whose`: "the wall's" or "the load's".
template <class T>
void refuse_unless(const Case& c, const WallMotion& motion, const T& field, WallMotion kind,
                   bool has_effect, const std::string& whose = "the wall's") {
  if (motion == kind || !has_effect) return;
  c.fail(field, std::string("belongs to ") + c.key(motion) + " = " + motion_word(kind) + ", but " +
                    whose + " motion is " + motion_word(motion) + ": set " + c.key(motion) + " = " +
                    motion_word(kind) + ", or remove it");
}

Motion harmonic_motion(const Case& c, const DriveKeys& s) {
  if (s.amplitude.empty()) c.fail(s.amplitude, "is missing (harmonic motion needs it)");
  const std::size_t n = s.amplitude.size();
  auto same_count = [&](const std::vector<double>& list) {
    if (list.size() != n)
      c.fail(list, "has " + std::to_string(list.size()) + " values for " + std::to_string(n) +
                       " amplitude" + (n == 1 ? "" : "s") + " (" + c.key(s.amplitude) +
                       "): give one per term");
  };
  same_count(s.frequency);
  if (!s.phase.empty()) same_count(s.phase);
  std::vector<Motion::Harmonic> terms;
  for (std::size_t k = 0; k < n; ++k)
    terms.push_back({s.amplitude[k], s.frequency[k], s.phase.empty() ? 0.0 : s.phase[k]});
  return Motion::harmonics(std::move(terms), s.ramp);
}

// What a table's second column holds: a wall's displacement or the load's change.
struct TableColumn {
  std::string name;     // "x", "F"
  bool force = false;   // its units: of force (N), else of length (m)
  std::string meaning;  // what it is, for the header's message
  std::string drive;    // "the wall's motion", for an empty key
  std::string origin;   // why the first sample is at t = 0
  std::string zero;     // why its value starts at 0
};

// The samples of a table file: columns t [s] and the drive's column (x [m] or F [N]; by name, in
// any order, other columns ignored), each row's values checked where they are.
class TableReader {
 public:
  TableReader(const Case& c, const DriveKeys& s, TableColumn column, double duration)
      : c_(c), s_(s), column_(std::move(column)) {
    given_ = *s.table;
    if (given_.empty()) c.fail(s.table, "is empty: give the CSV file of " + column_.drive);
    path_ = resolve_initial_path(given_, c.config().origin());
    read();
    check(duration);
  }
  std::vector<double> time, x;

 private:
  const Case& c_;
  const DriveKeys& s_;
  TableColumn column_;
  std::string given_, path_;
  std::size_t line_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    std::string where = "'" + quoted_path(given_) + "'";
    if (line_ > 0) where += ", line " + std::to_string(line_);
    c_.fail(s_.table, where + ": " + what);
  }

  static bool is_blank_or_comment(const std::string& line) {
    const auto first = line.find_first_not_of(" \t\r");
    return first == std::string::npos || line[first] == '#';
  }

  double unit_factor(const std::string& unit, bool is_time, std::string& allowed) const {
    using Units = std::vector<std::pair<std::string, double>>;
    static const Units times{{"", 1.0}, {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"µs", 1e-6}};
    static const Units lengths{{"", 1.0}, {"m", 1.0}, {"mm", 1e-3}, {"um", 1e-6}, {"µm", 1e-6}};
    static const Units forces{{"", 1.0}, {"N", 1.0}, {"kN", 1e3}, {"mN", 1e-3}};
    for (const auto& [name, factor] : is_time ? times : column_.force ? forces : lengths) {
      if (name == unit) return factor;
      if (!name.empty()) allowed += (allowed.empty() ? "" : ", ") + name;
    }
    return 0.0;
  }

  void read() {
    if (const std::string problem = input_file_problem(path_); !problem.empty()) {
      std::string what = problem;
      if (path_ != given_)
        what += " (relative paths are read from the case file's directory: '" + quoted_path(path_) +
                "')";
      fail(what);
    }
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec))
      fail(path_ == given_ ? "does not exist"
                           : "does not exist (relative paths are read from the case file's "
                             "directory: '" +
                                 quoted_path(path_) + "')");
    std::ifstream in(path_, std::ios::binary);
    std::string line;
    if (!in) fail("cannot be read");
    do {  // the header: the first line that is neither blank nor a comment
      if (!csv_line(in, line))
        fail("is empty: expected a header naming the columns t and " + column_.name);
      ++line_;
    } while (is_blank_or_comment(line));
    if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);
    if (std::any_of(line.begin(), line.end(), [](char ch) {
          return (static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7F;
        }))
      fail(
          "is not a text file: its first line holds control characters, where a header "
          "naming the columns t and " +
          column_.name + " belongs");
    const char delimiter = csv_delimiter(line);
    const std::vector<std::string> header = csv_cells(line, delimiter);
    std::size_t column[2] = {header.size(), header.size()};
    double factor[2] = {1.0, 1.0};
    for (std::size_t k = 0; k < header.size(); ++k) {
      const auto [name, unit] = name_and_unit(header[k]);
      const int which = name == "t" || name == "time" ? 0 : name == column_.name ? 1 : -1;
      if (which < 0) continue;
      if (column[which] != header.size())
        fail("columns " + std::to_string(column[which] + 1) + " and " + std::to_string(k + 1) +
             " both hold " + (which == 0 ? "the time" : column_.name) + ": give it once");
      std::string allowed;
      factor[which] = unit_factor(unit, which == 0, allowed);
      if (factor[which] == 0.0)
        fail("column " + std::to_string(k + 1) + " ('" + quoted_excerpt(header[k]) +
             "'): unknown unit '" + quoted_text(unit) + "': allowed " + allowed);
      column[which] = k;
    }
    for (int which = 0; which < 2; ++which)
      if (column[which] == header.size())
        fail(std::string("has no column ") + (which == 0 ? "t" : column_.name) +
             ": the header names the columns t [s] and " + column_.name +
             (column_.force ? " [N] (" : " [m] (") + column_.meaning + ")");
    while (csv_line(in, line)) {
      ++line_;
      if (is_blank_or_comment(line)) continue;
      const std::vector<std::string> cells = csv_cells(line, delimiter);
      double value[2];
      for (int which = 0; which < 2; ++which) {
        const std::size_t k = column[which];
        const std::string cell = k < cells.size() ? cells[k] : "";
        const NumberText read = read_number(cell, value[which]);
        if (read != NumberText::number)
          fail("column " + std::to_string(k + 1) + ": " +
               (cell.empty() ? std::string("no value") : number_problem(cell, read)));
        value[which] *= factor[which];
      }
      if (!time.empty() && !(value[0] > time.back()))
        fail("t = " + number_text(value[0]) + " s does not follow " + number_text(time.back()) +
             " s: the times must increase strictly");
      time.push_back(value[0]);
      x.push_back(value[1]);
    }
    if (in.bad()) fail("cannot be read");
    line_ = 0;
  }

  void check(double duration) {
    const std::size_t least = s_.interpolation == Motion::Interpolation::makima ? 4 : 2;
    if (time.size() < least)
      fail("has " + std::to_string(time.size()) + " samples; " +
           (least == 4 ? "makima interpolation needs at least 4" : "a table needs at least 2"));
    if (time.front() != 0.0)
      fail("starts at t = " + number_text(time.front()) + " s: the first sample is " +
           column_.origin + " at t = 0");
    if (x.front() != 0.0)
      fail("gives " + column_.name + " = " + number_text(x.front()) +
           (column_.force ? " N" : " m") + " at t = 0: " + column_.zero + ", so it starts at 0");
    if (time.back() < duration)
      fail("ends at t = " + number_text(time.back()) + " s, before the run does (" +
           c_.key(c_.spec().simulation.duration) + " = " + number_text(duration) +
           " s): extend it to the end of the run");
  }
};

// The slider of a slider-crank along +x; its rod must reach the line of stroke from every place
// of the crank pin.
Motion slider_crank_motion(const Case& c, const WallSpec& s) {
  const std::string needs = "is missing (slider_crank motion needs it)";
  if (!s.crank_radius) c.fail(s.crank_radius, needs);
  if (!s.crank_speed) c.fail(s.crank_speed, needs);
  if (!s.rod_length) c.fail(s.rod_length, needs);
  const double reach = *s.crank_radius + std::abs(s.crank_offset);
  if (!(*s.rod_length > reach))
    c.fail(s.rod_length, number_text(*s.rod_length) +
                             " m does not reach the line of stroke from every place of the "
                             "crank pin: it must be longer than " +
                             c.key(s.crank_radius) + " + |" + c.key(s.crank_offset) +
                             "| = " + number_text(reach) + " m");
  Motion::Crank k;
  k.radius = *s.crank_radius;
  k.speed = *s.crank_speed;
  k.angle = s.crank_angle * std::numbers::pi / 180.0;
  k.rod = *s.rod_length;
  k.offset = s.crank_offset;
  k.side = s.slider_side;
  return Motion::slider_crank(k);
}

}  // namespace

namespace {

// A drive may not move the wall faster than any body may move (max_speed), over the run.
Motion within_speed(const Case& c, const WallSpec& s, Motion motion, double duration) {
  const double fastest = motion.largest_speed(duration);
  if (fastest <= max_speed) return motion;
  const std::string what = "moves the wall at up to " + rounded_text(fastest) +
                           " m/s over the run, beyond " + number_text(max_speed) +
                           " m/s, the fastest a body may move";
  if (s.motion == WallMotion::table) {
    std::string message = "'";  // appended: GCC 12 warns of a false overlap otherwise
    message.append(quoted_path(*s.table)).append("' ").append(what);
    c.fail(s.table, message.append(": samples too far apart for the time between them"));
  }
  if (s.motion == WallMotion::slider_crank)
    c.fail(s.crank_speed, "with " + c.key(s.crank_radius) + " and " + c.key(s.rod_length) + " " +
                              what + " (at most r omega (1 + y / sqrt(l^2 - y^2)), y = r + |e|)");
  c.fail(s.amplitude, "with " + c.key(s.frequency) + " and " + c.key(s.ramp) + " " + what +
                          " (a term moves at up to 2 pi f A, a ramp adds 1.875 A / ramp)");
}

}  // namespace

namespace {

DriveKeys drive_keys(const WallSpec& s) {
  return {s.motion, s.amplitude, s.frequency, s.phase, s.ramp, s.table, s.interpolation};
}

// The keys of harmonics and tables that another kind of drive refuses.
void refuse_other_kinds(const Case& c, const DriveKeys& s, const std::string& whose) {
  refuse_unless(c, s.motion, s.amplitude, WallMotion::harmonic, !s.amplitude.empty(), whose);
  refuse_unless(c, s.motion, s.frequency, WallMotion::harmonic, !s.frequency.empty(), whose);
  refuse_unless(c, s.motion, s.phase, WallMotion::harmonic, !s.phase.empty(), whose);
  refuse_unless(c, s.motion, s.ramp, WallMotion::harmonic, s.ramp != 0.0, whose);
  refuse_unless(c, s.motion, s.table, WallMotion::table, s.table.has_value(), whose);
  refuse_unless(c, s.motion, s.interpolation, WallMotion::table,
                s.interpolation != Motion::Interpolation::makima, whose);
}

}  // namespace

Motion wall_motion(const Case& c, const WallSpec& s, double normal_x, double duration) {
  const DriveKeys keys = drive_keys(s);
  refuse_other_kinds(c, keys, "the wall's");
  constexpr WallMotion crank = WallMotion::slider_crank;
  refuse_unless(c, s.motion, s.crank_radius, crank, s.crank_radius.has_value());
  refuse_unless(c, s.motion, s.crank_speed, crank, s.crank_speed.has_value());
  refuse_unless(c, s.motion, s.crank_angle, crank, s.crank_angle != 0.0);
  refuse_unless(c, s.motion, s.rod_length, crank, s.rod_length.has_value());
  refuse_unless(c, s.motion, s.crank_offset, crank, s.crank_offset != 0.0);
  refuse_unless(c, s.motion, s.slider_side, crank, s.slider_side != 1);
  switch (s.motion) {
    case WallMotion::constant:
      return Motion();
    case WallMotion::harmonic:
      return within_speed(c, s, harmonic_motion(c, keys), duration).scaled(normal_x);
    case WallMotion::table: {
      if (!s.table) c.fail(s.table, "is missing (table motion needs it)");
      TableReader table(c, keys,
                        {"x", false, "the wall's displacement along +x from its place at t = 0",
                         "the wall's motion", "the wall's place",
                         "x is the displacement from the wall's place at t = 0 (set by its gap)"},
                        duration);
      return within_speed(c, s,
                          Motion::table(std::move(table.time), std::move(table.x), s.interpolation),
                          duration)
          .scaled(normal_x);
    }
    case WallMotion::slider_crank:
      return within_speed(c, s, slider_crank_motion(c, s), duration).scaled(normal_x);
  }
  return Motion();
}

Motion end_load_motion(const Case& c, double duration) {
  const ChainSpec& s = c.spec().chain;
  const DriveKeys keys{s.end_force_motion,       s.end_force_amplitude, s.end_force_frequency,
                       s.end_force_phase,        s.end_force_ramp,      s.end_force_table,
                       s.end_force_interpolation};
  refuse_other_kinds(c, keys, "the load's");
  if (s.end_force_motion != WallMotion::constant && s.held_by_walls)
    c.fail(s.end_force_motion, "drives the end load, but " + c.key(s.held_by_walls) +
                                   " = walls applies none: set " + c.key(s.held_by_walls) +
                                   " = load, or drive a wall");
  switch (s.end_force_motion) {
    case WallMotion::harmonic:
      return harmonic_motion(c, keys);
    case WallMotion::table: {
      if (!s.end_force_table) c.fail(s.end_force_table, "is missing (table motion needs it)");
      TableReader table(
          c, keys,
          {"F", true, "the end load's change from " + c.key(s.end_force), "the end load's drive",
           "the load", "F is the load's change from " + c.key(s.end_force)},
          duration);
      return Motion::table(std::move(table.time), std::move(table.x), s.end_force_interpolation);
    }
    case WallMotion::constant:
    case WallMotion::slider_crank:
      break;
  }
  return Motion();
}

}  // namespace chaindem::setup
