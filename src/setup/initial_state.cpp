// The initial state of a run from data: a CSV file or one frame of a chaindem HDF5 output.
#include "chaindem/setup/initial_state.hpp"
#include "chaindem/setup/case_spec.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/output/output_layout.hpp"
#include "chaindem/setup/chain_record.hpp"  // csv_line, csv_cells
#include "chaindem/text.hpp"

namespace fs = std::filesystem;

namespace chaindem {
namespace {

const char* const hdf5_signature = "\x89HDF\r\n\x1a\n";

// The keys a problem with the data is blamed on: the file, or the frame chosen of it.
const std::string& file_key() {
  static const std::string key = key_name(&CaseSpec::initial, &InitialSpec::file);
  return key;
}
const std::string& frame_key() {
  static const std::string key = key_name(&CaseSpec::initial, &InitialSpec::frame);
  return key;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

[[noreturn]] void fail_file(const std::string& file, const std::string& what,
                            const std::string& key = file_key()) {
  throw InitialStateError(key, "'" + quoted_path(file) + "' " + what);
}

// The checks every body's values pass, whichever file they come from; `where` names the value.
void check_radius(double r, const std::string& where) {
  if (!(r >= min_radius && r <= max_radius))
    throw InitialStateError(file_key(),
                            where + ": radius " + number_text(r) + " m is out of range: allowed [" +
                                number_text(min_radius) + ", " + number_text(max_radius) + "] m");
}
void check_speed(const Eigen::Vector3d& v, const std::string& where) {
  if (!(v.norm() <= max_speed))
    throw InitialStateError(file_key(), where + ": speed " + number_text(v.norm()) +
                                            " m/s is out of range: allowed at most " +
                                            number_text(max_speed) + " m/s");
}
int material_index(const std::vector<std::string>& materials, const std::string& name,
                   const std::string& where) {
  const auto it = std::find(materials.begin(), materials.end(), name);
  if (it == materials.end())
    throw InitialStateError(file_key(), where + ": material '" + quoted_text(name) +
                                            "' is not defined in the case (defined: " +
                                            (materials.empty() ? "none" : joined(materials)) + ")");
  return static_cast<int>(it - materials.begin());
}

// ---------------------------------------------------------------------------------------------
// CSV: a header naming the columns, then one row per body.

struct Column {
  const char* name;
  const char* unit;  // "" for words
};
// x, y, z, vx, vy, vz, radius, material: the order of the `Csv::at` slots.
constexpr Column columns[] = {{"x", "m"},    {"y", "m"},    {"z", "m"},      {"vx", "m/s"},
                              {"vy", "m/s"}, {"vz", "m/s"}, {"radius", "m"}, {"material", ""}};
constexpr int n_columns = 8, material_slot = 7, radius_slot = 6;
const char* const columns_text =
    "required: x [m], vx [m/s]; optional: y, z [m], vy, vz [m/s] (default 0), radius [m], "
    "material (a material of the case)";

class CsvReader {
 public:
  CsvReader(std::string file, const std::vector<std::string>& materials)
      : file_(std::move(file)), materials_(materials) {}

  InitialState read() {
    std::ifstream in(file_, std::ios::binary);
    if (!in) fail_file(file_, "cannot be read");
    InitialState s;
    s.file = file_;
    std::vector<std::array<double, 6>> rows;
    std::vector<std::array<double, 3>> carries;  // of the positions (read_number's `below`)
    std::vector<double> radii;
    std::vector<int> material;
    std::string text;
    bool header_read = false;
    while (csv_line(in, text)) {
      ++line_;
      if (line_ == 1 && text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // byte-order mark
      const std::string t = trimmed(text);
      if (t.empty() || t[0] == '#') continue;  // blank lines and comments
      const std::vector<std::string> cells = csv_cells(text);
      if (!header_read) {
        read_header(cells, t);
        header_read = true;
        continue;
      }
      body_ = static_cast<long long>(rows.size());
      if (cells.size() != header_.size())
        fail_at(std::min(cells.size(), header_.size()),
                std::to_string(cells.size()) + " values, but the header has " +
                    std::to_string(header_.size()) + " columns");
      std::array<double, 6> r{};
      std::array<double, 3> carry{};
      for (int c = 0; c < 6; ++c)
        if (at_[c])
          r[static_cast<std::size_t>(c)] =
              number(cells, *at_[c], c < 3 ? &carry[static_cast<std::size_t>(c)] : nullptr);
      const std::string where = where_at(std::nullopt);
      check_speed(Eigen::Vector3d(r[3], r[4], r[5]), where);
      if (const std::optional<int> column = at_[radius_slot]) {
        const double radius = number(cells, *column);
        check_radius(radius, where_at(column));
        radii.push_back(radius);
      }
      if (const std::optional<int> column = at_[material_slot]) {
        const std::string& name = cells[static_cast<std::size_t>(*column)];
        if (name.empty()) fail_at(static_cast<std::size_t>(*column), "empty cell");
        material.push_back(material_index(materials_, name, where_at(column)));
      }
      rows.push_back(r);
      carries.push_back(carry);
      s.line.push_back(line_);
    }
    if (in.bad()) fail_file(file_, "cannot be read");
    if (!header_read)
      fail_file(file_, std::string("is empty: it needs a header line naming the columns (") +
                           columns_text + ") and one row per body");
    if (rows.empty()) fail_file(file_, "has a header but no data rows (one row per body)");
    const auto n = static_cast<Eigen::Index>(rows.size());
    s.position.resize(n, 3);
    s.position_carry.resize(n, 3);
    s.velocity.resize(n, 3);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index c = 0; c < 3; ++c) {
        s.position(i, c) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)];
        s.position_carry(i, c) = carries[static_cast<std::size_t>(i)][static_cast<std::size_t>(c)];
        s.velocity(i, c) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(c + 3)];
      }
    if (!radii.empty()) s.radius = Eigen::Map<const Eigen::ArrayXd>(radii.data(), n);
    s.material = std::move(material);
    return s;
  }

 private:
  [[noreturn]] void fail_at(std::size_t column, const std::string& what) const {
    throw InitialStateError(file_key(), where_at(static_cast<int>(column)) + ": " + what);
  }

  // "'F', line L (body B), column C ('name')"; column < 0: the row alone.
  std::string where_at(std::optional<int> column) const {
    std::ostringstream w;
    w << "'" << quoted_path(file_) << "', line " << line_;
    if (body_) w << " (body " << *body_ << ")";
    if (column) {
      w << ", column " << *column + 1;
      if (static_cast<std::size_t>(*column) < header_.size())
        w << " ('" << quoted_excerpt(header_[static_cast<std::size_t>(*column)]) << "')";
    }
    return w.str();
  }

  void read_header(const std::vector<std::string>& cells, const std::string& text) {
    header_ = cells;
    if (cells.size() == 1)
      for (const char sep : {';', '\t', ' '})
        if (text.find(sep) != std::string::npos) {
          const std::string shown = sep == '\t' ? "a tab" : sep == ' ' ? "spaces" : "';'";
          fail_at_header("the header '" + quoted_excerpt(text) + "' is separated by " + shown +
                         ": expected column names separated by ',' (" + columns_text + ")");
        }
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string& cell = cells[c];
      if (cell.empty()) fail_at(c, std::string("empty column name (") + columns_text + ")");
      std::string name = cell, unit;
      bool has_unit = false;
      if (const auto open = cell.find('['); open != std::string::npos) {
        const auto close = cell.find(']', open);
        if (close == std::string::npos || trimmed(cell.substr(close + 1)) != "")
          fail_at(c, "'" + quoted_excerpt(cell) +
                         "' is not a column name with a unit, such as 'x [m]'");
        name = trimmed(cell.substr(0, open));
        unit = trimmed(cell.substr(open + 1, close - open - 1));
        has_unit = true;
      }
      std::string lower = name;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const auto known = std::find_if(std::begin(columns), std::end(columns),
                                      [&](const auto& column) { return lower == column.name; });
      if (known == std::end(columns)) {
        double x = 0;
        if (read_number(cell, x) != NumberText::not_a_number)
          fail_at(c, "'" + quoted_excerpt(cell) +
                         "' is a number, not a column name: the first line is the header "
                         "naming the columns (" +
                         columns_text + ")");
        fail_at(c, "unknown column '" + quoted_excerpt(name) + "' (" + columns_text + ")");
      }
      const auto slot = static_cast<std::size_t>(known - std::begin(columns));
      if (at_[slot])
        fail_at(c, "column '" + std::string(columns[slot].name) + "' is given twice (column " +
                       std::to_string(*at_[slot] + 1) + " and " + std::to_string(c + 1) + ")");
      if (has_unit && unit != columns[slot].unit) {
        const std::string column = columns[slot].name, right = columns[slot].unit;
        if (right.empty())
          fail_at(c, "the " + column + " column has no unit: write '" + column + "'");
        fail_at(c, "unit '" + quoted_excerpt(unit) + "' is not allowed: the column is in " + right +
                       " (SI units throughout; write '" + column + " [" + right + "]' or '" +
                       column + "')");
      }
      at_[slot] = static_cast<int>(c);
    }
    for (const int required : {0, 3})
      if (!at_[required])
        fail_at_header("has no column '" + std::string(columns[required].name) + "' (" +
                       columns_text + ")");
  }

  [[noreturn]] void fail_at_header(const std::string& what) const {
    throw InitialStateError(
        file_key(), "'" + quoted_path(file_) + "', line " + std::to_string(line_) + ": " + what);
  }

  // The number in `column`; with `below`, also the part of its value the double cannot hold.
  double number(const std::vector<std::string>& cells, int column, double* below = nullptr) const {
    const std::string& cell = cells[static_cast<std::size_t>(column)];
    const auto c = static_cast<std::size_t>(column);
    if (cell.empty()) fail_at(c, "empty cell");
    double x = 0;
    const NumberText read = below ? read_number(cell, x, *below) : read_number(cell, x);
    if (read == NumberText::not_a_number)
      fail_at(c, number_problem(cell, read) +
                     " (SI units: write the number alone, the unit belongs in the header)");
    if (read != NumberText::number) fail_at(c, number_problem(cell, read));
    return x;
  }

  std::string file_;
  const std::vector<std::string>& materials_;
  std::vector<std::string> header_;
  std::array<std::optional<int>, n_columns> at_{};  // column of each slot, where given
  long long line_ = 0;
  std::optional<long long> body_;  // from the first row after the header
};

// ---------------------------------------------------------------------------------------------
// HDF5: one frame of a chaindem output (docs/output-format.md).

// HDF5 calls of this reader are made one at a time: sweeps validate their cases in parallel.
std::mutex hdf5_reading;

class Hdf5Reader {
 public:
  Hdf5Reader(std::string file, const std::vector<std::string>& materials)
      : file_(std::move(file)), materials_(materials) {}

  InitialState read(long long frame) {
    using namespace hdf5;
    const std::lock_guard guard(hdf5_reading);
    quiet_errors();
    const hid_t id = H5Fopen(file_.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (id < 0) {
      const std::string reason = error_reason();
      fail_file(file_, "is not an HDF5 file that can be read" +
                           (reason.empty() ? std::string() : " (" + quoted_text(reason) + ")") +
                           "; initial.file is a CSV file or a chaindem output (.h5)");
    }
    file_handle_ = Handle(id, H5Fclose);

    InitialState s;
    s.file = file_;
    s.hdf5 = true;
    const std::string position = "/" + layout::value_path(layout::Quantity::position);
    const std::string velocity = "/" + layout::value_path(layout::Quantity::velocity);
    const std::vector<hsize_t> pos_dims = dims_of(position);
    if (pos_dims.size() != 3 || (pos_dims[2] != 3 && pos_dims[2] != 1) || pos_dims[1] == 0)
      fail_file(file_, "dataset " + position + " has shape " + shape_text(pos_dims) +
                           "; expected frames x bodies x 3, or frames x bodies x 1 (x alone)");
    const hsize_t frames = pos_dims[0], n = pos_dims[1];
    if (const std::string ids =
            "/" + std::string(layout::particles_group) + "/" + layout::particle_id;
        exists(ids))
      fail_file(file_, "holds the frames of " + std::to_string(n) +
                           " of its run's particles (written with output.beads; " + ids +
                           " lists them): a run starts from a frame of every particle, as a run "
                           "with output.beads = all writes");
    if (dims_of(velocity) != pos_dims)
      fail_file(file_, "dataset " + velocity + " has shape " + shape_text(dims_of(velocity)) +
                           ", but " + position + " has " + shape_text(pos_dims));
    s.frames = static_cast<long long>(frames);
    const long long f = frame < 0 ? s.frames + frame : frame;
    if (frames == 0 || f < 0 || f >= s.frames) {
      std::string allowed = frames == 0
                                ? "it has none"
                                : "allowed 0 to " + std::to_string(s.frames - 1) + ", or -1 to -" +
                                      std::to_string(s.frames) + " from the end";
      fail_file(file_,
                "has " + std::to_string(s.frames) + " frame" + (frames == 1 ? "" : "s") +
                    ": frame " + std::to_string(frame) + " is out of range (" + allowed + ")",
                frame_key());
    }
    s.frame = f;
    const auto bodies = static_cast<Eigen::Index>(n);
    s.position = frame_of(position, pos_dims, f);
    s.velocity = frame_of(velocity, pos_dims, f);
    s.radius = Eigen::ArrayXd(bodies);
    read_all(radius_path, {n}, H5T_NATIVE_DOUBLE, s.radius.data());
    std::vector<int> species(n);
    read_all(species_path, {n}, H5T_NATIVE_INT, species.data());
    const std::vector<std::string> names = species_names();
    for (Eigen::Index i = 0; i < bodies; ++i) {
      const std::string where = s.where(i);
      for (const auto* a : {&s.position, &s.velocity})
        for (Eigen::Index c = 0; c < 3; ++c)
          if (!std::isfinite((*a)(i, c)))
            throw InitialStateError(
                file_key(), where + ": " + (a == &s.position ? position : velocity) + " holds " +
                                number_text((*a)(i, c)) + ", which is not finite");
      check_speed(s.velocity.row(i).matrix().transpose(), where);
      check_radius(s.radius(i), where + " (" + radius_path + ")");
      const int k = species[static_cast<std::size_t>(i)];
      if (k < 0 || static_cast<std::size_t>(k) >= names.size())
        throw InitialStateError(
            file_key(), where + ": " + species_path + " holds " + std::to_string(k) +
                            ", which is not an index of its " + layout::species_names_attribute +
                            " (0 to " + std::to_string(static_cast<long long>(names.size()) - 1) +
                            ")");
      s.material.push_back(material_index(materials_, names[static_cast<std::size_t>(k)],
                                          where + " (" + species_path + ")"));
    }
    s.striker = integer_attribute(chain_path, layout::striker_attribute);
    s.chain_count = integer_attribute(chain_path, layout::chain_count_attribute);
    read_walls(s, f);
    file_handle_.close("'" + quoted_path(file_) + "'");
    return s;
  }

 private:
  static std::string shape_text(const std::vector<hsize_t>& dims) {
    std::string s = "(";
    for (std::size_t k = 0; k < dims.size(); ++k) s += (k ? ", " : "") + std::to_string(dims[k]);
    return s + ")";
  }

  bool exists(const std::string& path) const {
    std::size_t at = 0;
    while ((at = path.find('/', at + 1)) != std::string::npos)
      if (H5Lexists(file_handle_.get(), path.substr(0, at).c_str(), H5P_DEFAULT) <= 0) return false;
    return H5Lexists(file_handle_.get(), path.c_str(), H5P_DEFAULT) > 0;
  }

  hdf5::Handle open(const std::string& path) const {
    using namespace hdf5;
    if (!exists(path))
      fail_file(file_, "has no dataset " + path +
                           " (initial.file is a CSV file or a chaindem run's output, which has "
                           "it)");
    const hid_t d = H5Dopen2(file_handle_.get(), path.c_str(), H5P_DEFAULT);
    if (d < 0)
      fail_file(file_,
                path + " is not a dataset that can be read (" + quoted_text(error_reason()) + ")");
    return Handle(d, H5Dclose);
  }

  std::vector<hsize_t> dims_of(const std::string& path) const {
    using namespace hdf5;
    Handle d = open(path);
    Handle space(check(H5Dget_space(d.get()), "space of " + path), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0) fail("rank of " + path);
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    check_status(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "shape of " + path);
    return dims;
  }

  void read_all(const std::string& path, const std::vector<hsize_t>& expected, hid_t type,
                void* out) const {
    using namespace hdf5;
    if (const auto dims = dims_of(path); dims != expected)
      fail_file(file_, "dataset " + path + " has shape " + shape_text(dims) + "; expected " +
                           shape_text(expected) + ", one value per body");
    Handle d = open(path);
    read_checked(H5Dread(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out), path);
  }

  void read_checked(herr_t status, const std::string& path) const {
    if (status < 0)
      fail_file(file_, path + " cannot be read (" + quoted_text(hdf5::error_reason()) + ")");
  }

  // Frame `f` of a frames x N x 3 dataset, as N x 3 columns.
  Vec3Array frame_of(const std::string& path, const std::vector<hsize_t>& dims, long long f) const {
    using namespace hdf5;
    Handle d = open(path);
    Handle file_space(check(H5Dget_space(d.get()), "space of " + path), H5Sclose);
    // D = dims[2] components: 3, or x alone (1), whose y and z are zero.
    const hsize_t start[3] = {static_cast<hsize_t>(f), 0, 0}, count[3] = {1, dims[1], dims[2]};
    check_status(
        H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
        "select frame of " + path);
    Handle memory(check(H5Screate_simple(3, count, nullptr), "space"), H5Sclose);
    std::vector<double> rows(dims[1] * dims[2]);
    read_checked(H5Dread(d.get(), H5T_NATIVE_DOUBLE, memory.get(), file_space.get(), H5P_DEFAULT,
                         rows.data()),
                 path);
    const auto n = static_cast<Eigen::Index>(dims[1]);
    const auto components = static_cast<Eigen::Index>(dims[2]);
    Vec3Array out = Vec3Array::Zero(n, 3);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index c = 0; c < components; ++c)
        out(i, c) = rows[static_cast<std::size_t>(components * i + c)];
    return out;
  }

  hdf5::Handle open_attribute(const std::string& object, const char* name,
                              const std::string& what) const {
    return hdf5::Handle(hdf5::check(H5Aopen_by_name(file_handle_.get(), object.c_str(), name,
                                                    H5P_DEFAULT, H5P_DEFAULT),
                                    what),
                        H5Aclose);
  }

  // A string array attribute (variable or fixed length); nullopt when absent.
  std::optional<std::vector<std::string>> strings_attribute(const std::string& object,
                                                            const char* name) const {
    using namespace hdf5;
    if (!exists(object) ||
        H5Aexists_by_name(file_handle_.get(), object.c_str(), name, H5P_DEFAULT) <= 0)
      return std::nullopt;
    const std::string what = object + " attribute " + name;
    hdf5::Handle attr = open_attribute(object, name, what);
    Handle type(check(H5Aget_type(attr.get()), what), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING)
      fail_file(file_, "has " + what + ", which is not a list of strings");
    Handle space(check(H5Aget_space(attr.get()), what), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < 0) fail(what);
    std::vector<std::string> out;
    if (H5Tis_variable_str(type.get()) > 0) {
      Handle memtype(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
      check_status(H5Tset_size(memtype.get(), H5T_VARIABLE), "string size");
      check_status(H5Tset_cset(memtype.get(), H5Tget_cset(type.get())), "string charset");
      std::vector<char*> values(static_cast<std::size_t>(n), nullptr);
      read_checked(H5Aread(attr.get(), memtype.get(), values.data()), what);
      for (char* v : values) out.emplace_back(v ? v : "");
      check_status(H5Dvlen_reclaim(memtype.get(), space.get(), H5P_DEFAULT, values.data()),
                   "free " + what);
    } else {
      const std::size_t width = H5Tget_size(type.get());
      std::vector<char> buffer(width * static_cast<std::size_t>(n) + 1, '\0');
      read_checked(H5Aread(attr.get(), type.get(), buffer.data()), what);
      for (hssize_t k = 0; k < n; ++k) {
        const char* p = buffer.data() + static_cast<std::size_t>(k) * width;
        out.emplace_back(p, strnlen(p, width));
      }
    }
    return out;
  }

  std::vector<std::string> species_names() const {
    auto names = strings_attribute(species_path, layout::species_names_attribute);
    if (!names) names = strings_attribute(chain_path, layout::species_names_attribute);  // 0.1
    if (!names)
      fail_file(file_, std::string("has no attribute ") + layout::species_names_attribute + " on " +
                           species_path +
                           " (the material name of each species; a chaindem run's output has "
                           "it)");
    return *names;
  }

  std::optional<long long> integer_attribute(const std::string& object, const char* name) const {
    using namespace hdf5;
    if (H5Aexists_by_name(file_handle_.get(), object.c_str(), name, H5P_DEFAULT) <= 0)
      return std::nullopt;
    const std::string what = object + " attribute " + name;
    hdf5::Handle attr = open_attribute(object, name, what);
    Handle space(check(H5Aget_space(attr.get()), what), H5Sclose);
    if (H5Sget_simple_extent_npoints(space.get()) != 1) return std::nullopt;
    long long value = 0;
    read_checked(H5Aread(attr.get(), H5T_NATIVE_LLONG, &value), what);
    return value;
  }

  // Where each wall of the run was at frame `f`: the names of /walls and their positions.
  void read_walls(InitialState& s, long long f) const {
    const auto names =
        strings_attribute(std::string("/") + layout::walls_group, layout::wall_names_attribute);
    const std::string path = "/" + layout::value_path(layout::Quantity::wall_position);
    if (!names || names->empty() || !exists(path)) return;
    const std::vector<hsize_t> dims = dims_of(path);
    if (dims.size() != 3 || dims[0] != static_cast<hsize_t>(s.frames) || dims[1] != names->size() ||
        dims[2] != 3)
      fail_file(file_, "dataset " + path + " has shape " + shape_text(dims) + "; expected (" +
                           std::to_string(s.frames) + ", " + std::to_string(names->size()) +
                           ", 3), frames x walls x 3");
    const Vec3Array points = frame_of(path, dims, f);
    for (std::size_t w = 0; w < names->size(); ++w) {
      const Eigen::Vector3d x = points.row(static_cast<Eigen::Index>(w)).matrix().transpose();
      if (!x.allFinite())
        fail_file(file_, "frame " + std::to_string(f) + ": " + path + " of wall '" +
                             quoted_text((*names)[w]) + "' is not finite");
      s.walls[(*names)[w]] = x;
    }
  }

  // The datasets of a run's particles that a state is read from.
  const std::string chain_path = std::string("/") + layout::particles_group;
  const std::string radius_path = chain_path + "/" + layout::particle_radius.name;
  const std::string species_path = chain_path + "/" + layout::particle_species.name;

  std::string file_;
  const std::vector<std::string>& materials_;
  hdf5::Handle file_handle_;
};

}  // namespace

std::string InitialState::where(Eigen::Index i) const {
  const std::string body = "body " + std::to_string(i);
  if (hdf5) return "'" + quoted_path(file) + "', frame " + std::to_string(frame) + ", " + body;
  if (static_cast<std::size_t>(i) < line.size())
    return "'" + quoted_path(file) + "', line " +
           std::to_string(line[static_cast<std::size_t>(i)]) + " (" + body + ")";
  return "'" + quoted_path(file) + "', " + body;
}

std::string resolve_initial_path(const std::string& value, const std::string& case_origin) {
  const fs::path given(value);
  if (given.is_absolute()) return value;
  const fs::path dir = fs::path(case_origin).parent_path();
  return dir.empty() ? value : (dir / given).string();
}

bool is_hdf5_path(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".h5" || ext == ".hdf5") return true;
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  return in.read(head, 8) && std::string_view(head, 8) == std::string_view(hdf5_signature, 8);
}

InitialState read_initial_state(const std::string& path, long long frame,
                                const std::vector<std::string>& materials) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) fail_file(path, "does not exist");
  if (const std::string problem = input_file_problem(path); !problem.empty())
    fail_file(path, problem);
  if (is_hdf5_path(path)) return Hdf5Reader(path, materials).read(frame);
  return CsvReader(path, materials).read();
}

}  // namespace chaindem
