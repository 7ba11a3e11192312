#pragma once
// An HDF5 group read whole into Python objects: what the Python module hands over of a run
// (written into an HDF5 file in memory, the layout of `chaindem run`'s file) or of any chaindem
// file. chaindem/_tree.py wraps the result so that it reads like an h5py group.

#include <hdf5.h>
#include <pybind11/pybind11.h>

#include <string>

namespace chaindem::python {

/// Group `name` of `file`: a tuple (members, attributes). Members maps each link name to a
/// dataset's values (a numpy array of its type and shape; strings as str, or an object array of
/// str) or to a subgroup's tuple; attributes maps each name to a number, a str, or an array.
/// Throws hdf5::Error.
pybind11::tuple read_group(hid_t file, const std::string& name);

}  // namespace chaindem::python
