#include "hdf5_tree.hpp"

#include <pybind11/numpy.h>

#include <functional>
#include <vector>

#include "chaindem/output/hdf5_util.hpp"

namespace chaindem::python {
namespace {

namespace py = pybind11;
using hdf5::check;
using hdf5::check_status;
using hdf5::Handle;

// Reads the whole of a dataset or attribute into memory of type `memory_type`.
using Reader = std::function<herr_t(hid_t memory_type, void* buffer)>;

std::vector<py::ssize_t> shape_of(hid_t space) {
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return {dims.begin(), dims.end()};
}

// Strings: one str for a scalar, else a numpy object array of str of the dataset's shape.
py::object read_strings(hid_t type, hid_t space, const std::vector<py::ssize_t>& shape,
                        const Reader& read, const std::string& what) {
  const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
  std::vector<std::string> values(n);
  if (H5Tis_variable_str(type) > 0) {
    Handle memory(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
    check_status(H5Tset_size(memory.get(), H5T_VARIABLE), "string size");
    check_status(H5Tset_cset(memory.get(), H5Tget_cset(type)), "charset");
    std::vector<char*> pointers(n, nullptr);
    check_status(read(memory.get(), pointers.data()), "read " + what);
    for (std::size_t k = 0; k < n; ++k) values[k] = pointers[k] ? pointers[k] : "";
    check_status(H5Dvlen_reclaim(memory.get(), space, H5P_DEFAULT, pointers.data()),
                 "free " + what);
  } else {
    const std::size_t size = H5Tget_size(type);
    Handle memory(check(H5Tcopy(type), "string type"), H5Tclose);
    std::vector<char> text(n * size);
    check_status(read(memory.get(), text.data()), "read " + what);
    for (std::size_t k = 0; k < n; ++k) {
      const char* p = text.data() + k * size;
      values[k].assign(p, strnlen(p, size));
    }
  }
  if (shape.empty()) return py::str(values.empty() ? "" : values[0]);
  py::array result(py::dtype("O"), shape);
  auto* items = static_cast<PyObject**>(result.mutable_data());
  for (std::size_t k = 0; k < n; ++k) {
    Py_XDECREF(items[k]);
    items[k] = py::str(values[k]).release().ptr();
  }
  return result;
}

// Numbers: a numpy array of the stored type (machine byte order) and shape.
py::object read_numbers(hid_t type, const std::vector<py::ssize_t>& shape, const Reader& read,
                        const std::string& what) {
  Handle native(check(H5Tget_native_type(type, H5T_DIR_ASCEND), "native type"), H5Tclose);
  const std::size_t size = H5Tget_size(native.get());
  const H5T_class_t kind = H5Tget_class(native.get());
  std::string code;
  if (kind == H5T_FLOAT && (size == 4 || size == 8))
    code = size == 4 ? "f4" : "f8";
  else if ((kind == H5T_INTEGER || kind == H5T_ENUM) && size <= 8)
    code = std::string(H5Tget_sign(native.get()) == H5T_SGN_2 ? "i" : "u") + std::to_string(size);
  else
    throw hdf5::Error("HDF5 error: " + what + ": a type chaindem does not write");
  py::array result(py::dtype(code), shape);
  check_status(read(native.get(), result.mutable_data()), "read " + what);
  return result;
}

py::object read_value(hid_t type, hid_t space, const Reader& read, const std::string& what) {
  const auto shape = shape_of(space);
  if (H5Tget_class(type) == H5T_STRING) return read_strings(type, space, shape, read, what);
  return read_numbers(type, shape, read, what);
}

// Attributes as Python values: scalars as float, int or str.
py::dict read_attributes(hid_t object, const std::string& path) {
  py::dict attributes;
  H5O_info_t info;
  check_status(H5Oget_info(object, &info), "info " + path);
  for (hsize_t a = 0; a < info.num_attrs; ++a) {
    Handle attribute(
        check(H5Aopen_by_idx(object, ".", H5_INDEX_NAME, H5_ITER_INC, a, H5P_DEFAULT, H5P_DEFAULT),
              "attribute of " + path),
        H5Aclose);
    const ssize_t length = H5Aget_name(attribute.get(), 0, nullptr);
    std::string name(static_cast<std::size_t>(std::max<ssize_t>(length, 0)), '\0');
    H5Aget_name(attribute.get(), name.size() + 1, name.data());
    Handle type(check(H5Aget_type(attribute.get()), "type"), H5Tclose);
    Handle space(check(H5Aget_space(attribute.get()), "space"), H5Sclose);
    py::object value = read_value(
        type.get(), space.get(),
        [&](hid_t memory, void* buffer) { return H5Aread(attribute.get(), memory, buffer); },
        path + "@" + name);
    if (py::isinstance<py::array>(value) && py::array(value).ndim() == 0)
      value = value.attr("item")();  // a Python float or int
    attributes[py::str(name)] = value;
  }
  return attributes;
}

py::object read_dataset(hid_t parent, const std::string& name, const std::string& path) {
  Handle dataset(check(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), path), H5Dclose);
  Handle type(check(H5Dget_type(dataset.get()), "type"), H5Tclose);
  Handle space(check(H5Dget_space(dataset.get()), "space"), H5Sclose);
  return read_value(
      type.get(), space.get(),
      [&](hid_t memory, void* buffer) {
        return H5Dread(dataset.get(), memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer);
      },
      path);
}

py::tuple read_open_group(hid_t group, const std::string& path) {
  py::dict members;
  H5G_info_t info;
  check_status(H5Gget_info(group, &info), "info " + path);
  for (hsize_t k = 0; k < info.nlinks; ++k) {
    const ssize_t length =
        H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, k, nullptr, 0, H5P_DEFAULT);
    std::string name(static_cast<std::size_t>(std::max<ssize_t>(length, 0)), '\0');
    H5Lget_name_by_idx(group, ".", H5_INDEX_NAME, H5_ITER_INC, k, name.data(), name.size() + 1,
                       H5P_DEFAULT);
    H5O_info_t object;
    check_status(H5Oget_info_by_name(group, name.c_str(), &object, H5P_DEFAULT), path + name);
    const std::string child = path + name;
    if (object.type == H5O_TYPE_GROUP) {
      Handle g(check(H5Gopen2(group, name.c_str(), H5P_DEFAULT), child), H5Gclose);
      members[py::str(name)] = read_open_group(g.get(), child + "/");
    } else if (object.type == H5O_TYPE_DATASET) {
      members[py::str(name)] = read_dataset(group, name, child);
    }
  }
  return py::make_tuple(members, read_attributes(group, path.empty() ? "/" : path));
}

}  // namespace

py::tuple read_group(hid_t file, const std::string& name) {
  Handle group(check(H5Gopen2(file, name.c_str(), H5P_DEFAULT), "open " + name), H5Gclose);
  return read_open_group(group.get(), name == "/" ? "" : name + "/");
}

}  // namespace chaindem::python
