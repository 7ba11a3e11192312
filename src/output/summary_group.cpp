// The run summary's group, /summary: written at the end of a run, read back by compare and the
// sweeps (output_layout.hpp's tables say what it holds).
#include <hdf5.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "chaindem/output/h5md_writer.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "several_models.hpp"

namespace chaindem {
namespace output_detail {
namespace {

// /summary/validity: a dataset per column of layout::validity_summary_columns, a row per kind of
// contact (none when nothing touched); the list of what was exceeded as one text.
void write_validity_summary(hid_t summary, const std::vector<layout::ValiditySummary>& rows) {
  using namespace hdf5;
  std::size_t room = 0;
  for (const layout::ValiditySummaryColumn& column : layout::validity_summary_columns)
    room += link_room(column.name);
  Handle g = group(summary, layout::summary_validity_group, room);
  const std::vector<hsize_t> shape{rows.size()};
  for (const layout::ValiditySummaryColumn& column : layout::validity_summary_columns)
    std::visit(
        [&](auto field) {
          using T = std::remove_cvref_t<decltype(rows[0].*field)>;
          if constexpr (std::is_same_v<T, std::vector<std::string>>) {
            std::vector<std::string> texts;
            for (const layout::ValiditySummary& r : rows) {
              std::string joined;
              for (const std::string& e : r.*field) joined += (joined.empty() ? "" : "; ") + e;
              texts.push_back(joined);
            }
            dataset_strings(g.get(), column.name, texts);
          } else if constexpr (std::is_same_v<T, std::string>) {
            std::vector<std::string> texts;
            for (const layout::ValiditySummary& r : rows) texts.push_back(r.*field);
            dataset_strings(g.get(), column.name, texts);
          } else {
            std::vector<T> values;
            for (const layout::ValiditySummary& r : rows) values.push_back(r.*field);
            const T none{};  // a buffer even for no row: HDF5 refuses a null one
            dataset_fixed(g.get(), column.name, shape, values.empty() ? &none : values.data(),
                          std::is_same_v<T, double> ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64,
                          column.unit);
          }
        },
        column.field);
  g.close(layout::summary_validity_group);
}

}  // namespace

void write_summary(hid_t root, const layout::RunSummary& summary, bool several) {
  using namespace hdf5;
  std::size_t room = link_room(layout::summary_validity_group);
  if (several) room += link_room(layout::summary_models_group);
  for (const layout::SummaryScalar& scalar : layout::summary_scalars)
    if (layout::value_of(scalar, summary)) room += attribute_room(scalar.name, 8);
  for (const layout::SummaryText& text : layout::summary_texts) room += attribute_room(text.name);
  for (const layout::SummaryArray& array : layout::summary_arrays) room += link_room(array.name);
  Handle s = group(root, layout::summary_group, room);
  for (const layout::SummaryScalar& scalar : layout::summary_scalars) {
    const std::optional<double> value = layout::value_of(scalar, summary);
    if (!value) continue;
    if (layout::is_integer(scalar))
      attr_numbers<std::int64_t>(s.get(), scalar.name, {std::llround(*value)}, H5T_NATIVE_INT64);
    else
      attr_numbers<double>(s.get(), scalar.name, {*value}, H5T_NATIVE_DOUBLE);
  }
  for (const layout::SummaryText& text : layout::summary_texts)
    attr_string(s.get(), text.name, summary.*text.field);
  for (const layout::SummaryArray& array : layout::summary_arrays) {
    const std::vector<double> values = layout::values_of(array, summary);
    const std::vector<hsize_t> shape{values.size()};
    if (layout::is_integer(array)) {
      const std::vector<std::int64_t> counts(values.begin(), values.end());
      dataset_fixed(s.get(), array.name, shape, counts.data(), H5T_NATIVE_INT64, array.unit);
    } else {
      dataset_fixed(s.get(), array.name, shape, values.data(), H5T_NATIVE_DOUBLE, array.unit);
    }
  }
  if (several) write_model_summary(s.get(), summary.models);
  write_validity_summary(s.get(), summary.validity);
  s.close("/summary");
}

}  // namespace output_detail

layout::RunSummary read_run_summary(std::int64_t file, const std::string& run_group) {
  using namespace hdf5;
  layout::RunSummary r;
  const std::string path = run_group + "/" + layout::summary_group;
  Handle summary(check(H5Gopen2(file, path.c_str(), H5P_DEFAULT), path), H5Gclose);
  const hid_t g = summary.get();
  for (const layout::SummaryScalar& scalar : layout::summary_scalars) {
    if (H5Aexists(g, scalar.name) <= 0) continue;
    Handle attr(check(H5Aopen(g, scalar.name, H5P_DEFAULT), scalar.name), H5Aclose);
    double value = 0.0;
    check_status(H5Aread(attr.get(), H5T_NATIVE_DOUBLE, &value), scalar.name);
    layout::set_value(scalar, r, value);
  }
  for (const layout::SummaryText& text : layout::summary_texts)
    if (H5Aexists(g, text.name) > 0) r.*text.field = read_string_attr(g, text.name);
  for (const layout::SummaryArray& array : layout::summary_arrays) {
    Handle d(check(H5Dopen2(g, array.name, H5P_DEFAULT), array.name), H5Dclose);
    Handle space(check(H5Dget_space(d.get()), "space"), H5Sclose);
    std::vector<double> v(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get())));
    if (!v.empty())
      check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
                   array.name);
    layout::set_values(array, r, v);
  }
  return r;
}

}  // namespace chaindem
