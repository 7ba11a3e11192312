// `chaindem table FILE.h5 [--csv | --json]`: the table a file holds, for readers without h5py:
// a sweep's summary (a row per case), a comparison's errors (a row per law, metric and bead), or
// a run's summary (a row per quantity).
#include "chaindem/commands/table_command.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <ostream>

#include "chaindem/commands/command_line.hpp"
#include "chaindem/commands/exit_status.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

using hdf5::Handle;

// A table: named columns (with their units, "" for none) of cells, each a number or a word.
struct Cell {
  std::string text;
  bool number = false;
};
struct Table {
  std::vector<std::string> names, units;
  std::vector<std::vector<Cell>> rows;
};

// A dataset of a group, read whole: numbers as their shortest text, strings as written.
struct Column {
  std::string name, unit;
  std::vector<hsize_t> dims;
  std::vector<Cell> cells;  // in storage order
};

// The in-memory type that reads strings stored as `stored` (variable length): of the same
// character set, since HDF5 converts none between ASCII and UTF-8.
Handle string_memory_type(hid_t stored) {
  Handle memory(hdf5::check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
  H5Tset_size(memory.get(), H5T_VARIABLE);
  H5Tset_cset(memory.get(), H5Tget_cset(stored));
  return memory;
}

std::vector<std::string> member_names(hid_t group) {
  std::vector<std::string> names;
  auto add = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->emplace_back(name);
    return 0;
  };
  H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, add, &names);
  return names;
}

Column read_column(hid_t group, const std::string& name) {
  using namespace hdf5;
  Column c{name, {}, {}, {}};
  Handle d(check(H5Dopen2(group, name.c_str(), H5P_DEFAULT), name), H5Dclose);
  if (H5Aexists(d.get(), "unit") > 0) c.unit = read_string_attr(d.get(), "unit");
  Handle space(check(H5Dget_space(d.get()), name), H5Sclose);
  c.dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())), 0);
  H5Sget_simple_extent_dims(space.get(), c.dims.data(), nullptr);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
  Handle type(check(H5Dget_type(d.get()), name), H5Tclose);
  const H5T_class_t kind = H5Tget_class(type.get());
  if (kind == H5T_STRING) {
    std::vector<char*> text(n, nullptr);
    const Handle memory = string_memory_type(type.get());
    if (n > 0)
      check_status(H5Dread(d.get(), memory.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, text.data()),
                   name);
    for (char* s : text) c.cells.push_back({s ? s : "", false});
    if (n > 0) H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, text.data());
    return c;
  }
  std::vector<double> v(n);
  if (n > 0)
    check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
                 name);
  for (const double x : v) c.cells.push_back({number_text(x), true});
  return c;
}

// The strings of an attribute, stored at a fixed or a variable length.
std::vector<std::string> string_attributes(hid_t object, const char* name) {
  using namespace hdf5;
  Handle a(check(H5Aopen(object, name, H5P_DEFAULT), name), H5Aclose);
  Handle space(check(H5Aget_space(a.get()), name), H5Sclose);
  Handle type(check(H5Aget_type(a.get()), name), H5Tclose);
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
  std::vector<std::string> out;
  if (H5Tis_variable_str(type.get()) > 0) {
    std::vector<char*> text(n, nullptr);
    const Handle memory = string_memory_type(type.get());
    check_status(H5Aread(a.get(), memory.get(), text.data()), name);
    for (char* t : text) out.emplace_back(t ? t : "");
    H5Dvlen_reclaim(memory.get(), space.get(), H5P_DEFAULT, text.data());
    return out;
  }
  const std::size_t size = H5Tget_size(type.get());
  std::vector<char> buffer(n * size + 1, '\0');
  check_status(H5Aread(a.get(), type.get(), buffer.data()), name);
  for (std::size_t k = 0; k < n; ++k) {
    const char* start = buffer.data() + k * size;
    out.emplace_back(start, strnlen(start, size));
  }
  return out;
}

// A sweep: a row per case; the case index, the axes, the status, then every other summary
// quantity of one value per case (the per-bead arrays are left to h5py and MATLAB).
Table sweep_table(hid_t file) {
  Handle summary(hdf5::check(H5Gopen2(file, "summary", H5P_DEFAULT), "/summary"), H5Gclose);
  Handle axes(hdf5::check(H5Gopen2(file, "sweep/axes", H5P_DEFAULT), "/sweep/axes"), H5Gclose);
  std::vector<std::string> order{"case"};
  for (const std::string& axis : member_names(axes.get())) order.push_back(axis);
  order.emplace_back("status");
  for (const std::string& name : member_names(summary.get()))
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  Table t;
  std::vector<Column> columns;
  for (const std::string& name : order) {
    Column c = read_column(summary.get(), name);
    if (c.dims.size() != 1) continue;  // cases x beads
    t.names.push_back(c.name);
    t.units.push_back(c.unit);
    columns.push_back(std::move(c));
  }
  const std::size_t cases = columns.empty() ? 0 : columns.front().cells.size();
  for (std::size_t r = 0; r < cases; ++r) {
    t.rows.emplace_back();
    for (const Column& c : columns) t.rows.back().push_back(c.cells[r]);
  }
  return t;
}

// A comparison: a row per law, metric and bead (and the mean over the beads), each with its
// value, the reference's and the relative error.
Table comparison_table(hid_t file) {
  Handle cmp(hdf5::check(H5Gopen2(file, "comparison", H5P_DEFAULT), "/comparison"), H5Gclose);
  const std::vector<std::string> laws = string_attributes(cmp.get(), "laws");
  Table t{{"law", "metric", "bead", "value", "reference", "unit", "error"},
          {"", "", "", "", "", "", "%"},
          {}};
  for (const std::string metric :
       {"peak_velocity", "peak_force", "arrival_time", "final_velocity"}) {
    const Column value = read_column(cmp.get(), metric);
    const Column reference = read_column(cmp.get(), "reference_" + metric);
    const Column error = read_column(cmp.get(), metric + "_error_percent");
    const Column mean = read_column(cmp.get(), metric + "_mean_error_percent");
    const std::size_t beads = value.dims.size() == 2 ? value.dims[1] : 0;
    for (std::size_t l = 0; l < laws.size(); ++l) {
      for (std::size_t b = 0; b < beads; ++b)
        t.rows.push_back({{laws[l]},
                          {metric},
                          {std::to_string(b), true},
                          value.cells[l * beads + b],
                          reference.cells[b],
                          {value.unit},
                          error.cells[l * beads + b]});
      t.rows.push_back({{laws[l]}, {metric}, {"mean"}, {}, {}, {value.unit}, mean.cells[l]});
    }
  }
  return t;
}

// A run: its summary's numbers and words, a row each.
Table run_table(hid_t file) {
  Handle summary(hdf5::check(H5Gopen2(file, "summary", H5P_DEFAULT), "/summary"), H5Gclose);
  Table t{{"quantity", "value"}, {"", ""}, {}};
  H5O_info_t info;
  H5Oget_info2(summary.get(), &info, H5O_INFO_NUM_ATTRS);
  for (hsize_t k = 0; k < info.num_attrs; ++k) {
    Handle a(
        H5Aopen_by_idx(summary.get(), ".", H5_INDEX_NAME, H5_ITER_INC, k, H5P_DEFAULT, H5P_DEFAULT),
        H5Aclose);
    std::string name(static_cast<std::size_t>(H5Aget_name(a.get(), 0, nullptr)), '\0');
    H5Aget_name(a.get(), name.size() + 1, name.data());
    Handle type(H5Aget_type(a.get()), H5Tclose);
    if (H5Tget_class(type.get()) == H5T_STRING) {
      t.rows.push_back({{name}, {hdf5::read_string_attr(summary.get(), name.c_str())}});
    } else {
      double x = 0.0;
      hdf5::check_status(H5Aread(a.get(), H5T_NATIVE_DOUBLE, &x), name);
      t.rows.push_back({{name}, {number_text(x), true}});
    }
  }
  // A run of several contact models: what each model did, a row per model and quantity.
  if (H5Lexists(summary.get(), "models", H5P_DEFAULT) > 0) {
    Handle models(hdf5::check(H5Gopen2(summary.get(), "models", H5P_DEFAULT), "models"), H5Gclose);
    const Column section = read_column(models.get(), "section");
    for (const std::string& name : member_names(models.get())) {
      if (name == "section") continue;
      const Column c = read_column(models.get(), name);
      for (std::size_t k = 0; k < c.cells.size() && k < section.cells.size(); ++k)
        t.rows.push_back({{"models." + section.cells[k].text + "." + name}, c.cells[k]});
    }
  }
  return t;
}

std::string header(const Table& t, std::size_t k) {
  return t.units[k].empty() || t.units[k] == "-" ? t.names[k]
                                                 : t.names[k] + " [" + t.units[k] + "]";
}

void print_csv(std::ostream& out, const Table& t) {
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  for (std::size_t k = 0; k < t.names.size(); ++k) out << (k ? "," : "") << field(header(t, k));
  out << "\n";
  for (const auto& row : t.rows) {
    for (std::size_t k = 0; k < row.size(); ++k) out << (k ? "," : "") << field(row[k].text);
    out << "\n";
  }
}

void print_json(std::ostream& out, const Table& t) {
  out << "{\"units\": {";
  for (std::size_t k = 0; k < t.names.size(); ++k)
    out << (k ? ", " : "") << json_string(t.names[k]) << ": " << json_string(t.units[k]);
  out << "},\n \"rows\": [";
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    out << (r ? ",\n  {" : "\n  {");
    for (std::size_t k = 0; k < t.names.size(); ++k) {
      const Cell& c = t.rows[r][k];
      out << (k ? ", " : "") << json_string(t.names[k]) << ": ";
      if (c.text.empty())
        out << "null";
      else if (c.number)
        out << json_number(std::stod(c.text));
      else
        out << json_string(c.text);
    }
    out << "}";
  }
  out << "]}\n";
}

void print_text(std::ostream& out, const Table& t) {
  std::vector<std::size_t> width(t.names.size());
  for (std::size_t k = 0; k < t.names.size(); ++k) width[k] = header(t, k).size();
  for (const auto& row : t.rows)
    for (std::size_t k = 0; k < row.size(); ++k)
      width[k] = std::max(width[k], terminal_text(row[k].text).size());
  for (std::size_t k = 0; k < t.names.size(); ++k)
    out << (k ? "  " : "") << std::left << std::setw(static_cast<int>(width[k])) << header(t, k);
  out << "\n";
  for (const auto& row : t.rows) {
    for (std::size_t k = 0; k < row.size(); ++k)
      out << (k ? "  " : "") << (row[k].number ? std::right : std::left)
          << std::setw(static_cast<int>(width[k])) << terminal_text(row[k].text);
    out << "\n";
  }
}

Table read_table(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw Refusal("'" + quoted_path(path) + "' does not exist");
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw Refusal("'" + quoted_path(path) + "' " + problem);
  hdf5::quiet_errors();
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw Refusal("'" + quoted_path(path) + "' is not an HDF5 file (a chaindem output)");
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, hdf5::file_access()), H5Fclose);
  if (file.get() < 0)
    throw Refusal("cannot open '" + quoted_path(path) + "': " + hdf5::error_reason());
  auto has = [&](const char* name) { return H5Lexists(file.get(), name, H5P_DEFAULT) > 0; };
  if (has("sweep") && has("summary")) return sweep_table(file.get());
  if (has("comparison")) return comparison_table(file.get());
  if (has("summary")) return run_table(file.get());
  throw Refusal("'" + quoted_path(path) +
                "' holds no table: `table` reads a run's, a sweep's or a comparison's file");
}

}  // namespace

int table_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  try {
    po::options_description desc("chaindem table options");
    bool csv = false, json = false;
    desc.add_options()("help,h", "this help")("csv", po::bool_switch(&csv),
                                              "comma-separated values, units in the header")(
        "json", po::bool_switch(&json), "a JSON object: the units, and a row object per row");
    std::vector<std::string> files;
    const po::variables_map vm = parse_command_line(args, desc, nullptr, "table", &files);
    if (vm.count("help")) {
      out << "usage: chaindem table FILE.h5 [--csv | --json]\n"
             "Prints the table a chaindem file holds, for readers without h5py: a sweep's "
             "summary (a row per case: its axes, status and every summary quantity of one value; "
             "the per-bead arrays are in the file), a comparison's errors (a row per law, metric "
             "and bead, and their mean), or a run's summary (a row per quantity). Aligned text "
             "by default. docs/output-format.md.\n\n"
          << desc;
      return exit_done;
    }
    if (files.size() != 1)
      throw Refusal(files.empty() ? "missing FILE.h5"
                                  : "give one file, not " + std::to_string(files.size()));
    if (csv && json) throw Refusal("--csv and --json cannot both be given");
    const Table t = read_table(files.front());
    if (csv)
      print_csv(out, t);
    else if (json)
      print_json(out, t);
    else
      print_text(out, t);
    return exit_done;
  } catch (...) {
    return report_failure(std::current_exception(), {"chaindem table", &err});
  }
}

}  // namespace chaindem
