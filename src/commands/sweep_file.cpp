#include "chaindem/commands/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/setup/case_spec.hpp"  // find_key: an axis key's unit
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace chaindem::sweep {
namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}  // namespace

CaseRecord read_case(hid_t file, const std::string& case_group) {
  return {"ok", read_run_summary(file, case_group)};
}

// The values as numbers, when every one is a number (an axis of a numeric key).
std::optional<std::vector<double>> numeric(const std::vector<std::string>& values) {
  std::vector<double> x(values.size());
  for (std::size_t k = 0; k < values.size(); ++k)
    if (read_number(values[k], x[k]) != NumberText::number) return std::nullopt;
  return x;
}

// A new sweep file: H5MD metadata, the sweep definition (with the signature a resume checks),
// and the group the cases go into (if it keeps them).
void write_definition(hid_t f, const SweepDefinition& d, const std::string& signature) {
  using namespace hdf5;
  write_h5md_metadata(f, version);
  Handle sweep = group(f, layout::sweep_group);
  dataset_string(sweep.get(), layout::sweep_file_dataset, d.text);
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
  Handle axes = group(sweep.get(), layout::sweep_axes_group);
  for (const auto& a : d.axes) dataset_strings(axes.get(), a.key, a.values);
  if (d.keep == Keep::cases) group(f, layout::cases_group);
}

// A column of the summary table: float64, or int64 for counts and bead indices, where a case
// without that value (NaN) holds -1.
void write_column(hid_t summary, const char* name, const std::vector<hsize_t>& shape,
                  const std::vector<double>& values, bool integer, const char* unit) {
  if (!integer) {
    hdf5::dataset_fixed(summary, name, shape, values.data(), H5T_NATIVE_DOUBLE, unit);
    return;
  }
  std::vector<std::int64_t> counts;
  for (const double v : values) counts.push_back(std::isnan(v) ? -1 : std::llround(v));
  hdf5::dataset_fixed(summary, name, shape, counts.data(), H5T_NATIVE_INT64, unit);
}

// The summary table: one row per case, read back from the cases' own /summary groups.
void write_summary(hid_t f, const SweepDefinition& d, const std::vector<CaseRecord>& records) {
  using namespace hdf5;
  Handle summary = group(f, layout::summary_group);
  const auto n = static_cast<hsize_t>(d.cases.size());
  std::vector<std::int64_t> index(d.cases.size());
  for (std::size_t k = 0; k < index.size(); ++k) index[k] = static_cast<std::int64_t>(k);
  dataset_fixed(summary.get(), layout::sweep_case_column, {n}, index.data(), H5T_NATIVE_INT64);
  for (std::size_t a = 0; a < d.axes.size(); ++a) {
    std::vector<std::string> column;
    for (const auto& c : d.cases) column.push_back(c[a]);
    if (const auto x = numeric(column)) {
      const std::optional<KeySpec> key = find_key(d.axes[a].key);  // a declared key, checked
      const std::string unit = key && key->unit != "-" ? key->unit : "";
      dataset_fixed(summary.get(), d.axes[a].key, {n}, x->data(), H5T_NATIVE_DOUBLE, unit);
    } else {
      dataset_strings(summary.get(), d.axes[a].key, column);
    }
  }
  for (const layout::SummaryScalar& scalar : layout::summary_scalars) {
    std::vector<double> column;
    bool any = false;
    for (const auto& r : records) {
      const std::optional<double> value = r.summary ? value_of(scalar, *r.summary) : std::nullopt;
      any = any || value;
      column.push_back(value.value_or(nan));
    }
    if (any)
      write_column(summary.get(), scalar.name, {n}, column, layout::is_integer(scalar),
                   scalar.unit);
  }
  const bool any_summary =
      std::any_of(records.begin(), records.end(), [](const CaseRecord& r) { return r.summary; });
  for (const layout::SummaryText& text : layout::summary_texts) {
    if (!any_summary) break;
    std::vector<std::string> column;
    for (const auto& r : records) column.push_back(r.summary ? (*r.summary).*text.field : "");
    dataset_strings(summary.get(), text.name, column);
  }
  for (const layout::SummaryArray& array : layout::summary_arrays) {
    std::vector<std::vector<double>> rows(records.size());
    std::size_t width = 1;
    for (std::size_t k = 0; k < records.size(); ++k)
      if (records[k].summary) {
        rows[k] = values_of(array, *records[k].summary);
        width = std::max(width, rows[k].size());
      }
    std::vector<double> table(d.cases.size() * width, nan);
    for (std::size_t k = 0; k < records.size(); ++k)
      std::copy(rows[k].begin(), rows[k].end(), table.begin() + static_cast<long>(k * width));
    write_column(summary.get(), array.name, {n, static_cast<hsize_t>(width)}, table,
                 layout::is_integer(array), array.unit);
  }
  std::vector<std::string> status;
  for (const auto& r : records) status.push_back(r.status);
  dataset_strings(summary.get(), layout::sweep_status_column, status);
}

namespace {

template <class T>
void put(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Reads the bytes `put` appended, in the same order; throws when they run out (bytes that are
// not a row).
class Taker {
 public:
  explicit Taker(const std::string& bytes) : bytes_(bytes) {}
  template <class T>
  T take() {
    T value{};
    std::memcpy(&value, span(sizeof value), sizeof value);
    return value;
  }
  std::string take_string(std::size_t size) { return {span(size), size}; }

 private:
  const char* span(std::size_t size) {
    if (size > bytes_.size() - at_) throw std::runtime_error("a summary row cut short");
    const char* p = bytes_.data() + at_;
    at_ += size;
    return p;
  }
  const std::string& bytes_;
  std::size_t at_ = 0;
};

}  // namespace

// Each scalar (a byte: whether the case has it, then its value), each text and each array
// (its size, then its values), in the order of their tables.
std::string summary_bytes(const layout::RunSummary& s) {
  std::string bytes;
  for (const layout::SummaryScalar& scalar : layout::summary_scalars) {
    const std::optional<double> value = value_of(scalar, s);
    put(bytes, static_cast<char>(value.has_value()));
    if (value) put(bytes, *value);
  }
  for (const layout::SummaryText& text : layout::summary_texts) {
    put(bytes, (s.*text.field).size());
    bytes += s.*text.field;
  }
  for (const layout::SummaryArray& array : layout::summary_arrays) {
    const std::vector<double> values = values_of(array, s);
    put(bytes, values.size());
    for (const double x : values) put(bytes, x);
  }
  return bytes;
}

layout::RunSummary summary_from_bytes(const std::string& bytes) {
  layout::RunSummary s;
  Taker in(bytes);
  for (const layout::SummaryScalar& scalar : layout::summary_scalars)
    if (in.take<char>()) set_value(scalar, s, in.take<double>());
  for (const layout::SummaryText& text : layout::summary_texts)
    s.*text.field = in.take_string(in.take<std::size_t>());
  for (const layout::SummaryArray& array : layout::summary_arrays) {
    const auto size = in.take<std::size_t>();
    std::vector<double> values;
    for (std::size_t k = 0; k < size; ++k) values.push_back(in.take<double>());
    set_values(array, s, values);
  }
  return s;
}

}  // namespace chaindem::sweep
