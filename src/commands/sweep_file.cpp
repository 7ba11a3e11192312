#include "chaindem/commands/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace chaindem::sweep {
namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}  // namespace

CaseRecord read_case(hid_t file, const std::string& case_group) {
  using namespace hdf5;
  CaseRecord r;
  const std::string path = case_group + "/summary";
  Handle summary(check(H5Gopen2(file, path.c_str(), H5P_DEFAULT), path), H5Gclose);
  H5O_info_t info;
  check_status(H5Oget_info(summary.get(), &info), "summary info");
  for (hsize_t a = 0; a < info.num_attrs; ++a) {
    Handle attr(check(H5Aopen_by_idx(summary.get(), ".", H5_INDEX_NAME, H5_ITER_INC, a, H5P_DEFAULT,
                                     H5P_DEFAULT),
                      "attribute"),
                H5Aclose);
    char name[256] = {};
    H5Aget_name(attr.get(), sizeof(name), name);
    Handle type(check(H5Aget_type(attr.get()), "type"), H5Tclose);
    if (H5Tget_class(type.get()) == H5T_STRING) {
      r.texts[name] = read_string_attr(summary.get(), name);
      continue;
    }
    double value = nan;
    check_status(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value), "read attribute");
    r.scalars[name] = value;
  }
  for (const char* name : {"max_contact_force", "peak_velocity", "arrival_beads", "arrival_time"}) {
    Handle d(check(H5Dopen2(summary.get(), name, H5P_DEFAULT), name), H5Dclose);
    Handle space(check(H5Dget_space(d.get()), "space"), H5Sclose);
    const auto n = H5Sget_simple_extent_npoints(space.get());
    std::vector<double> v(static_cast<std::size_t>(n));
    if (n > 0)
      check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
                   name);
    r.arrays[name] = v;
  }
  r.status = "ok";
  return r;
}

void write_string_column(hid_t group, const std::string& name,
                         const std::vector<std::string>& values) {
  using namespace hdf5;
  Handle type(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
  check_status(H5Tset_size(type.get(), H5T_VARIABLE), "string size");
  check_status(H5Tset_cset(type.get(), H5T_CSET_UTF8), "charset");
  const hsize_t n = values.size();
  Handle space(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
  Handle d(check(H5Dcreate2(group, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT),
                 "dataset " + name),
           H5Dclose);
  std::vector<const char*> p;
  for (const auto& v : values) p.push_back(v.c_str());
  if (n > 0)
    check_status(H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()), name);
}

// The values as numbers, when every one is a number (an axis of a numeric key).
std::optional<std::vector<double>> numeric(const std::vector<std::string>& values) {
  std::vector<double> x(values.size());
  for (std::size_t k = 0; k < values.size(); ++k)
    if (read_number(values[k], x[k]) != NumberText::number) return std::nullopt;
  return x;
}

// A new sweep file: H5MD metadata, the sweep definition (with the signature a resume checks),
// and the group the cases go into.
void write_definition(hid_t f, const SweepDefinition& d, const std::string& signature) {
  using namespace hdf5;
  write_h5md_metadata(f, version);
  Handle sweep = group(f, "sweep");
  dataset_string(sweep.get(), "sweep_file", d.text);
  std::ifstream base(d.base);
  std::stringstream base_text;
  base_text << base.rdbuf();
  dataset_string(sweep.get(), "base_case_file", base_text.str());
  attr_string(sweep.get(), "base", d.base);
  attr_string(sweep.get(), "combine", d.combine);
  attr_string(sweep.get(), "signature", signature);
  std::vector<std::string> fixed = d.fixed;
  if (fixed.empty()) fixed.push_back("");
  attr_strings(sweep.get(), "fixed", fixed);
  Handle axes = group(sweep.get(), "axes");
  for (const auto& a : d.axes) write_string_column(axes.get(), a.key, a.values);
  group(f, "cases");
}

// The summary table: one row per case, read back from the cases' own /summary groups.
void write_summary(hid_t f, const SweepDefinition& d, const std::vector<CaseRecord>& records) {
  using namespace hdf5;
  Handle summary = group(f, "summary");
  const auto n = static_cast<hsize_t>(d.cases.size());
  std::vector<std::int64_t> index(d.cases.size());
  for (std::size_t k = 0; k < index.size(); ++k) index[k] = static_cast<std::int64_t>(k);
  dataset_fixed(summary.get(), "case", {n}, index.data(), H5T_NATIVE_INT64);
  for (std::size_t a = 0; a < d.axes.size(); ++a) {
    std::vector<std::string> column;
    for (const auto& c : d.cases) column.push_back(c[a]);
    if (const auto x = numeric(column)) {
      dataset_fixed(summary.get(), d.axes[a].key, {n}, x->data(), H5T_NATIVE_DOUBLE);
    } else {
      write_string_column(summary.get(), d.axes[a].key, column);
    }
  }
  std::set<std::string> scalar_names;
  for (const auto& r : records)
    for (const auto& [name, value] : r.scalars) scalar_names.insert(name);
  for (const auto& name : scalar_names) {
    std::vector<double> column;
    for (const auto& r : records) {
      const auto it = r.scalars.find(name);
      column.push_back(it == r.scalars.end() ? nan : it->second);
    }
    dataset_fixed(summary.get(), name, {n}, column.data(), H5T_NATIVE_DOUBLE);
  }
  std::set<std::string> text_names;
  for (const auto& r : records)
    for (const auto& [name, value] : r.texts) text_names.insert(name);
  for (const auto& name : text_names) {
    std::vector<std::string> column;
    for (const auto& r : records) {
      const auto it = r.texts.find(name);
      column.push_back(it == r.texts.end() ? "" : it->second);
    }
    write_string_column(summary.get(), name, column);
  }
  for (const char* name : {"max_contact_force", "peak_velocity", "arrival_beads", "arrival_time"}) {
    std::size_t width = 1;
    for (const auto& r : records)
      if (r.arrays.count(name)) width = std::max(width, r.arrays.at(name).size());
    std::vector<double> table(d.cases.size() * width, nan);
    for (std::size_t k = 0; k < records.size(); ++k)
      if (records[k].arrays.count(name)) {
        const auto& v = records[k].arrays.at(name);
        std::copy(v.begin(), v.end(), table.begin() + static_cast<long>(k * width));
      }
    dataset_fixed(summary.get(), name, {n, static_cast<hsize_t>(width)}, table.data(),
                  H5T_NATIVE_DOUBLE);
  }
  std::vector<std::string> status;
  for (const auto& r : records) status.push_back(r.status);
  write_string_column(summary.get(), "status", status);
}

}  // namespace chaindem::sweep
