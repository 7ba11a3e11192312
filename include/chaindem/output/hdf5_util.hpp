#pragma once
// Small RAII helpers over the HDF5 C API, shared by the writers (internal header).

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chaindem/output/chunk_writer.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/output/h5md_units.hpp"

namespace chaindem::hdf5 {

/// A failed HDF5 call: what was being done and, from HDF5's error stack, why.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// HDF5 prints its error stack to stderr, per thread, unless told not to; chaindem reports the
/// error itself (Error), so each thread that calls HDF5 turns the printing off before it does.
inline void quiet_errors() {
  thread_local const bool quiet = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  (void)quiet;
}

/// Why the last HDF5 call of this thread failed, and clears its error stack. The innermost entry
/// holds the cause; a file driver's names the system's error ("error message = 'No space left
/// on device'"), which is what a user needs to read.
inline std::string error_reason() {
  std::string innermost;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* out) -> herr_t {
        if (n == 0 && e->desc) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &innermost);
  H5Eclear2(H5E_DEFAULT);
  const std::string marker = "error message = '";
  if (const auto at = innermost.find(marker); at != std::string::npos) {
    const auto from = at + marker.size();
    return innermost.substr(from, innermost.find('\'', from) - from);
  }
  return innermost;
}

[[noreturn]] inline void fail(const std::string& what) {
  const std::string reason = error_reason();
  throw Error("HDF5 error: " + what + (reason.empty() ? "" : ": " + reason));
}
inline hid_t check(hid_t id, const std::string& what) {
  if (id < 0) fail(what);
  return id;
}
inline void check_status(herr_t status, const std::string& what) {
  if (status < 0) fail(what);
}

// Owns one HDF5 identifier.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close_fn)(hid_t)) : id_(id), close_(close_fn) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept {
    reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
    return *this;
  }
  ~Handle() { reset(); }
  /// Closes, ignoring a failure: for objects given up on after an error.
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = -1;
  }
  /// Closes and throws Error if HDF5 cannot: closing a dataset writes what it still buffers, so
  /// a full disk can show here first. Objects of a file about to be committed close this way.
  void close(const std::string& what) {
    const hid_t id = std::exchange(id_, -1);
    if (id >= 0 && close_) check_status(close_(id), "close " + what);
  }
  /// Gives up the identifier without closing it (an abandoned file, see PartialOutput).
  hid_t release() { return std::exchange(id_, -1); }
  hid_t get() const { return id_; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// A file access property list for the file format `format` (both bounds), with metadata
// gathered in 64 KiB blocks: a file keeps the unused rest of its last block, so a block of 1 MiB
// made every small output at least a megabyte.
inline hid_t file_access_in(H5F_libver_t format) {
  const hid_t p = check(H5Pcreate(H5P_FILE_ACCESS), "file access plist");
  check_status(H5Pset_libver_bounds(p, format, format), "format bounds");
  check_status(H5Pset_meta_block_size(p, 64 << 10), "metadata block");
  return p;
}

// File access for every file chaindem writes: the HDF5 1.8 object format, whose groups keep
// their links in the object header (no B-tree and local heap per group). Creating a group costs
// a fraction of the 1.6 format's, which matters in sweeps (dozens of groups per case, created
// while the file's lock is held); every reader since HDF5 1.8 (2008) reads it.
inline hid_t file_access() {
  static const hid_t fapl = file_access_in(H5F_LIBVER_V18);
  return fapl;
}

// File access for a run's output that may be read while it is written and must survive the
// writer's crash: the HDF5 1.10 format, which single-writer/multiple-reader (SWMR) writing needs.
// A file written this way can be read by HDF5 1.10 or later (h5py, MATLAB R2021b on, ParaView).
inline hid_t swmr_file_access() {
  static const hid_t fapl = file_access_in(H5F_LIBVER_V110);
  return fapl;
}

// Group creation: attributes stay in the object header ("compact") up to 1000 of them instead of
// moving to a B-tree and fractal heap after 8. /parameters carries ~80; compact storage is
// faster to write, and HDF5 1.10's H5Ocopy (used to merge MPI ranks' files) crashes copying
// dense attributes of variable-length strings.
inline hid_t group_creation() {
  static const hid_t gcpl = [] {
    const hid_t p = check(H5Pcreate(H5P_GROUP_CREATE), "group creation plist");
    check_status(H5Pset_attr_phase_change(p, 1000, 1000), "attribute storage");
    check_status(H5Pset_obj_track_times(p, false), "times");
    return p;
  }();
  return gcpl;
}

// Bytes that an attribute named `name` takes in its object's header: the message, its type and
// space, and `value_bytes` of value there (16 per variable-length string, whose text is in the
// file's global heap; 8 per number). An estimate, for group(..., room).
inline std::size_t attribute_room(std::string_view name, std::size_t value_bytes = 16) {
  return 40 + name.size() + value_bytes;
}
// The same for a member (a link) named `name`.
inline std::size_t link_room(std::string_view name) {
  return 16 + name.size();
}

// Group creation for a group whose header will hold `room` bytes of links and attributes. HDF5
// makes a new group's header as large as it expects its links to take (H5Pset_est_link_info),
// and attributes fill the same space. A header that grows instead takes a block of its own every
// few messages, each another object of the metadata cache, allocated, written and freed apart: a
// case's /parameters took five blocks, its /summary six; made large enough at once, a sweep's
// case groups take a fifth less time to write.
inline hid_t group_creation(std::size_t room) {
  constexpr unsigned name_size = 32, link_size = name_size + 15;  // HDF5's size of such a link
  const std::size_t links = (room + link_size - 1) / link_size;
  if (links <= 2) return group_creation();  // within HDF5's default estimate
  const auto estimate = static_cast<unsigned>(std::min<std::size_t>((links + 3) / 4 * 4, 65532));
  static std::mutex made_mutex;
  static std::map<unsigned, hid_t> made;  // by estimate, kept as the other property lists are
  std::lock_guard guard(made_mutex);
  hid_t& plist = made[estimate];
  if (plist <= 0) {
    const hid_t p = check(H5Pcopy(group_creation()), "group creation plist");
    if (H5Pset_est_link_info(p, estimate, name_size) < 0) {
      H5Pclose(p);
      fail("group size");
    }
    plist = p;
  }
  return plist;
}

// A new group `name` in `parent`; `room`: the bytes of links and attributes it will hold, if
// known (group_creation(room)).
inline Handle group(hid_t parent, const std::string& name, std::size_t room = 0) {
  return {check(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, group_creation(room), H5P_DEFAULT),
                "create group " + name),
          H5Gclose};
}

// Variable-length UTF-8 string type and scalar dataspace, made once: runs write hundreds of
// string attributes and every HDF5 call is serialised.
inline hid_t utf8_string_type() {
  static const hid_t type = [] {
    const hid_t t = check(H5Tcopy(H5T_C_S1), "string type");
    check_status(H5Tset_size(t, H5T_VARIABLE), "string size");
    check_status(H5Tset_cset(t, H5T_CSET_UTF8), "string charset");
    return t;
  }();
  return type;
}
// The value of the string attribute `name` of `object` (variable or fixed length, one value), or
// "" if it has none.
inline std::string read_string_attr(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return "";
  Handle attr(check(H5Aopen(object, name, H5P_DEFAULT), name), H5Aclose);
  Handle type(check(H5Aget_type(attr.get()), "type"), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING) return "";
  if (H5Tis_variable_str(type.get()) <= 0) {  // fixed length (H5MD's ASCII: units, metadata)
    Handle space(check(H5Aget_space(attr.get()), "space"), H5Sclose);
    if (H5Sget_simple_extent_npoints(space.get()) != 1) return "";
    std::string buffer(H5Tget_size(type.get()), '\0');
    check_status(H5Aread(attr.get(), type.get(), buffer.data()), name);
    return buffer.substr(0, buffer.find('\0'));
  }
  char* value = nullptr;
  check_status(H5Aread(attr.get(), utf8_string_type(), &value), name);
  std::string out = value ? value : "";
  H5free_memory(value);
  return out;
}

inline hid_t scalar_space() {
  static const hid_t space = check(H5Screate(H5S_SCALAR), "scalar space");
  return space;
}

inline void attr_string(hid_t obj, const std::string& name, const std::string& value) {
  Handle attr(check(H5Acreate2(obj, name.c_str(), utf8_string_type(), scalar_space(), H5P_DEFAULT,
                               H5P_DEFAULT),
                    "attribute " + name),
              H5Aclose);
  const char* p = value.c_str();
  check_status(H5Awrite(attr.get(), utf8_string_type(), &p), "write attribute " + name);
  attr.close("attribute " + name);
}

// The type of fixed-length, null-terminated ASCII strings of `width` bytes, made once per width:
// every dataset with a unit has an attribute of one.
inline hid_t fixed_string_type(std::size_t width) {
  static std::mutex made_mutex;
  static std::map<std::size_t, hid_t> made;
  std::lock_guard guard(made_mutex);
  hid_t& type = made[width];
  if (type <= 0) {
    Handle t(check(H5Tcopy(H5T_C_S1), "string type"), H5Tclose);
    check_status(H5Tset_size(t.get(), width), "string size");
    check_status(H5Tset_strpad(t.get(), H5T_STR_NULLTERM), "string padding");
    type = t.release();
  }
  return type;
}

// Fixed-length, null-terminated ASCII strings, which H5MD 1.1 requires for its metadata.
inline void attr_fixed_strings(hid_t obj, const std::string& name,
                               const std::vector<std::string>& values, bool scalar = false) {
  std::size_t width = 1;
  for (const auto& v : values) width = std::max(width, v.size() + 1);
  const hid_t type = fixed_string_type(width);
  const hsize_t n = values.size();
  Handle space;
  if (!scalar) space = Handle(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, scalar ? scalar_space() : space.get(),
                               H5P_DEFAULT, H5P_DEFAULT),
                    "attribute " + name),
              H5Aclose);
  std::vector<char> buffer(width * values.size(), '\0');
  for (std::size_t k = 0; k < values.size(); ++k)
    std::copy(values[k].begin(), values[k].end(), buffer.begin() + static_cast<long>(k * width));
  check_status(H5Awrite(attr.get(), type, buffer.data()), "write attribute " + name);
  attr.close("attribute " + name);
}

inline void attr_strings(hid_t obj, const std::string& name,
                         const std::vector<std::string>& values) {
  const hid_t type = utf8_string_type();
  const hsize_t n = values.size();
  Handle space(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                    "attribute " + name),
              H5Aclose);
  std::vector<const char*> p;
  for (const auto& v : values) p.push_back(v.c_str());
  check_status(H5Awrite(attr.get(), type, p.data()), "write attribute " + name);
  attr.close("attribute " + name);
}

template <class T>
void attr_numbers(hid_t obj, const std::string& name, const std::vector<T>& values, hid_t type) {
  const hsize_t n = values.size();
  Handle space;
  if (n != 1) space = Handle(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, n == 1 ? scalar_space() : space.get(),
                               H5P_DEFAULT, H5P_DEFAULT),
                    "attribute " + name),
              H5Aclose);
  check_status(H5Awrite(attr.get(), type, values.data()), "write attribute " + name);
  attr.close("attribute " + name);
}

// Dataset creation: no modification times in the object header (the
// sweep creates thousands of objects; without times a rerun also writes the same bytes).
inline hid_t dataset_creation() {
  static const hid_t dcpl = [] {
    const hid_t p = check(H5Pcreate(H5P_DATASET_CREATE), "dataset creation plist");
    check_status(H5Pset_obj_track_times(p, false), "times");
    return p;
  }();
  return dcpl;
}
// The same, with no fill values, for numeric datasets written whole (or extended and written)
// right after they are created.
inline hid_t numeric_dataset_creation() {
  static const hid_t dcpl = [] {
    const hid_t p = check(H5Pcopy(dataset_creation()), "dataset creation plist");
    check_status(H5Pset_fill_time(p, H5D_FILL_TIME_NEVER), "fill time");
    return p;
  }();
  return dcpl;
}

// Transfer of `strings` strings: converted in strips of 64 KiB (4 KiB for one), not through
// HDF5's default 1 MiB buffer, zeroed on every write: a sweep's table of a few hundred strings
// took a millisecond a column.
inline hid_t string_transfer(std::size_t strings) {
  const auto made = [](std::size_t bytes) {
    const hid_t p = check(H5Pcreate(H5P_DATASET_XFER), "transfer plist");
    check_status(H5Pset_buffer(p, bytes, nullptr, nullptr), "conversion buffer");
    return p;
  };
  static const hid_t one = made(4096), many = made(64 << 10);
  return strings == 1 ? one : many;
}

inline void dataset_string(hid_t parent, const std::string& name, const std::string& value) {
  const hid_t type = utf8_string_type();
  Handle d(check(H5Dcreate2(parent, name.c_str(), type, scalar_space(), H5P_DEFAULT,
                            dataset_creation(), H5P_DEFAULT),
                 "dataset " + name),
           H5Dclose);
  const char* p = value.c_str();
  check_status(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, string_transfer(1), &p), "write " + name);
  d.close("dataset " + name);
}

// A dataset of strings (variable length, UTF-8), one per row.
inline void dataset_strings(hid_t parent, const std::string& name,
                            const std::vector<std::string>& values) {
  const hid_t type = utf8_string_type();
  const hsize_t n = values.size();
  Handle space(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
  Handle d(check(H5Dcreate2(parent, name.c_str(), type, space.get(), H5P_DEFAULT,
                            dataset_creation(), H5P_DEFAULT),
                 "dataset " + name),
           H5Dclose);
  std::vector<const char*> p;
  for (const auto& v : values) p.push_back(v.c_str());
  if (n > 0)
    check_status(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, string_transfer(n), p.data()),
                 "write " + name);
  d.close("dataset " + name);
}

// The `unit` attribute of a dataset: `readable` ("m/s") in the H5MD form ("m s-1", h5md_unit),
// ASCII, as the H5MD units module asks; none for "" (a count, a ratio).
inline void attr_unit(hid_t dataset, std::string_view readable) {
  if (readable.empty()) return;
  attr_fixed_strings(dataset, "unit", {h5md_unit(readable)}, true);
}

// Selects rows [first, first + rows) of `space`, a dataset's space of dimensions `dims` (the
// rows its first dimension, every other taken whole), and returns the memory space they fill.
inline Handle select_rows(hid_t space, std::vector<hsize_t> dims, hsize_t first, hsize_t rows) {
  std::vector<hsize_t> start(dims.size(), 0);
  start[0] = first;
  dims[0] = rows;
  check_status(
      H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr, dims.data(), nullptr),
      "select rows");
  return Handle(
      check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), "space"),
      H5Sclose);
}

// A fixed dataset of doubles or ints with shape `dims`.
template <class T>
void dataset_fixed(hid_t parent, const std::string& name, const std::vector<hsize_t>& dims,
                   const T* data, hid_t type, const std::string& unit = "") {
  Handle space(
      check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), "space"),
      H5Sclose);
  Handle d(check(H5Dcreate2(parent, name.c_str(), type, space.get(), H5P_DEFAULT,
                            numeric_dataset_creation(), H5P_DEFAULT),
                 "dataset " + name),
           H5Dclose);
  check_status(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write " + name);
  attr_unit(d.get(), unit);
  d.close("dataset " + name);
}

// Who ran it, for /h5md/author: CHAINDEM_AUTHOR (a person's name, as H5MD asks), else the
// login name (USER, LOGNAME), else "unknown".
inline std::string author_name() {
  for (const char* variable : {"CHAINDEM_AUTHOR", "USER", "LOGNAME"})
    if (const char* value = std::getenv(variable); value && *value) return value;
  return "unknown";
}

// The /h5md group of H5MD 1.1: version, author, creator, and the units module.
inline void write_h5md_metadata(hid_t file, const std::string& creator_version) {
  Handle h5md = group(file, "h5md");
  attr_numbers<int>(h5md.get(), "version", {1, 1}, H5T_NATIVE_INT);
  Handle author = group(h5md.get(), "author");
  attr_fixed_strings(author.get(), "name", {author_name()}, true);
  if (const char* email = std::getenv("CHAINDEM_AUTHOR_EMAIL"); email && *email)
    attr_fixed_strings(author.get(), "email", {email}, true);
  Handle creator = group(h5md.get(), "creator");
  attr_fixed_strings(creator.get(), "name", {"chaindem"}, true);
  attr_fixed_strings(creator.get(), "version", {creator_version}, true);
  Handle modules = group(h5md.get(), "modules");
  Handle units = group(modules.get(), "units");  // every `unit` attribute is in its form
  attr_numbers<int>(units.get(), "version", {1, 0}, H5T_NATIVE_INT);
  attr_fixed_strings(units.get(), "system", {"SI"}, true);
  units.close("/h5md/modules/units");
  modules.close("/h5md/modules");
  creator.close("/h5md/creator");
  author.close("/h5md/author");
  h5md.close("/h5md");
}

// A dataset that grows along its first dimension. Appended rows are buffered; the dataset is
// created when the buffer is first written. If that happens only at the end (close(), the common
// case for short runs), it is created at its final size: contiguous, and chunked and compressed
// only when large. A long run spills its buffer every ~4 MiB (whole rows of chunks) into a
// chunked, compressed, extendible dataset, whose whole rows of chunks ChunkWriter compresses
// and writes past HDF5's filters. Rows of one value or vector seldom end on a chunk (a frame's
// contacts) and so seldom spill: their whole chunks are compressed as soon as they are complete,
// and held compressed until they are written. Either way a run makes few HDF5 calls: the library
// serialises them, and sweeps run many cases in parallel. A Growing made without a parent only
// buffers until attach() gives it one, so a run can compute without touching HDF5 at all.
/// Element types of Growing datasets. Named here, not as HDF5 type ids: even reading
/// H5T_NATIVE_DOUBLE calls into the (not thread-safe) library, and a Growing is made by threads
/// that do not hold the file's lock. The id is looked up only when writing, under the lock.
enum class Scalar { float64, int64, int32 };
inline hid_t native_type(Scalar s) {
  switch (s) {
    case Scalar::int64:
      return H5T_NATIVE_INT64;
    case Scalar::int32:
      return H5T_NATIVE_INT32;
    case Scalar::float64:
      break;
  }
  return H5T_NATIVE_DOUBLE;
}
inline std::size_t size_of(Scalar s) {
  return s == Scalar::int32 ? 4 : 8;
}

class Growing {
 public:
  static constexpr std::size_t spill_bytes = 4u << 20;

  Growing() = default;
  /// `expected_rows` sizes the chunks of a spilled dataset; `lock` (optional) is held while a
  /// spill writes (several writers share one file); `compression`: the filter of a chunked
  /// dataset. `parent` < 0: attach() later. Makes no HDF5 call.
  Growing(hid_t parent, std::string name, std::vector<hsize_t> row_shape, Scalar type,
          std::string unit = "", hsize_t expected_rows = 4096, std::mutex* lock = nullptr,
          Compression compression = Compression::gzip)
      : parent_(parent),
        name_(std::move(name)),
        unit_(std::move(unit)),
        row_shape_(std::move(row_shape)),
        scalar_(type),
        element_size_(size_of(type)),
        expected_rows_(expected_rows),
        compression_(compression),
        lock_(lock) {
    for (hsize_t s : row_shape_) row_elements_ *= s;
    chunk_rows_ = chunk_shape(row_shape_, expected_rows_, element_size_)[0];
  }

  void append(const void* data, hsize_t rows) {
    const auto* bytes = static_cast<const char*>(data);
    const std::size_t size = rows * row_elements_ * element_size_;
    if (parent_ >= 0 && pending_ == 0 && size >= spill_bytes && ends_chunks(rows)) {
      // Rows that would spill at once (a frame of a long chain) go to the file from where they
      // are: a copy would hold them twice.
      pending_ = rows;
      spill_rows(bytes);
      return;
    }
    if (keeping()) {
      keep_rows(bytes, rows);
    } else {
      // Rows a spill waits for, to end on a chunk, are held in one allocation, not grown into.
      if (const std::size_t chunk = chunk_rows_ * row_elements_ * element_size_;
          chunk > spill_bytes && buffer_.capacity() < chunk)
        buffer_.reserve(chunk);
      buffer_.insert(buffer_.end(), bytes, bytes + size);
      pending_ += rows;
      keep_whole_chunks();
    }
    // A spill ends on a chunk's last row: a chunk written in parts is read back, decompressed
    // and compressed again for every part.
    if (parent_ >= 0 && buffered_bytes() >= spill_bytes && ends_chunks(pending_)) {
      spill_rows(buffer_.data());
      if (buffer_.capacity() > 2 * (spill_bytes + chunk_rows_ * row_elements_ * element_size_))
        std::vector<char>().swap(buffer_);
    }
  }

  /// Gives a parentless Growing the group its dataset will live in.
  void attach(hid_t parent) { parent_ = parent; }
  const std::string& name() const { return name_; }
  /// The bytes of the rows appended and not yet written (some perhaps held compressed).
  std::size_t buffered_bytes() const { return pending_ * row_elements_ * element_size_; }

  /// Writes what is buffered to the dataset, creating it (extendible) if it does not exist yet;
  /// the caller holds the file's lock, if any.
  void flush() {
    quiet_errors();
    write(true, nullptr, true);
  }

  /// Why append_from(dataset, begin, end) cannot take rows from `dataset` (another row shape, or
  /// fewer than `end` rows), or "" when it can; reads nothing but the dataset's shape.
  std::string cannot_append_from(hid_t dataset, hsize_t end) const {
    Handle space(check(H5Dget_space(dataset), "space of " + name_), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
    if (rank < 1 || H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0 ||
        std::vector<hsize_t>(dims.begin() + 1, dims.end()) != row_shape_)
      return "dataset " + name_ + " does not have the shape this run writes";
    if (dims[0] < end)
      return "dataset " + name_ + " holds " + std::to_string(dims[0]) + " rows; " +
             std::to_string(end) + " are needed";
    return "";
  }

  /// Appends rows [begin, end) of `dataset`, which must have this one's row shape and type
  /// family (a dataset this class wrote): how a run continued from a checkpoint takes over the
  /// frames its previous partial file holds.
  void append_from(hid_t dataset, hsize_t begin, hsize_t end) {
    if (const std::string problem = cannot_append_from(dataset, end); !problem.empty())
      throw Error(problem);
    Handle space(check(H5Dget_space(dataset), "space of " + name_), H5Sclose);
    const hsize_t row_bytes = row_elements_ * element_size_;
    const hsize_t block = std::max<hsize_t>(1, spill_bytes / std::max<hsize_t>(row_bytes, 1));
    std::vector<char> rows;
    for (hsize_t first = begin; first < end; first += block) {
      const hsize_t count = std::min(block, end - first);
      const Handle memory = select_rows(space.get(), with_rows(count), first, count);
      rows.resize(count * row_bytes);
      check_status(H5Dread(dataset, native_type(scalar_), memory.get(), space.get(), H5P_DEFAULT,
                           rows.data()),
                   "read " + name_);
      append(rows.data(), count);
    }
  }

  /// Writes what is buffered and closes the dataset; the caller holds the file's lock, if any.
  void close() {
    quiet_errors();
    write(false, nullptr, true);
    dataset_.close("dataset " + name_);
    chunks_.reset();
  }

 private:
  /// Datasets of fewer bytes are stored as they are: compression is no gain.
  static constexpr std::size_t compressed_bytes = 64u << 10;

  /// Whether `rows` more rows would end the dataset at a chunk's last row.
  bool ends_chunks(hsize_t rows) const { return (rows_ + rows) % chunk_rows_ == 0; }

  /// Whether the whole chunks of rows of one value or vector (a contact column: rows that rarely
  /// end on a chunk, so that they seldom spill) are compressed as they complete, keeping only
  /// their bytes until the dataset is written. They are once the dataset is sure to be
  /// compressed in chunks of the most rows a chunk takes, whether it is made at the end of the
  /// run (its rows fill one and 64 KiB) or at a spill or flush (expected_rows fill one). Makes
  /// the ChunkWriter that compresses them.
  bool keeps_chunks() {
    if (chunks_) return keeping();
    if (created_ || row_shape_.size() >= 2 || compression_ == Compression::none ||
        buffered_bytes() < compressed_bytes)
      return false;
    const std::vector<hsize_t> chunk = chunk_shape(row_shape_, pending_, element_size_);
    const bool known =
        chunk[0] == chunk_rows_ &&
        chunk == chunk_shape(row_shape_, std::numeric_limits<hsize_t>::max(), element_size_);
    if (!known || !ChunkWriter::suits(row_shape_, chunk, compression_)) return false;
    chunks_ = std::make_unique<ChunkWriter>(row_shape_, chunk, element_size_, compression_);
    return true;
  }

  bool keeping() const { return chunks_ && row_shape_.size() < 2; }

  /// Rows appended while whole chunks are kept: those that complete the part of a chunk
  /// buffered join it, the whole chunks after them are compressed from where they are (not
  /// copied), the rest is buffered.
  void keep_rows(const char* bytes, hsize_t rows) {
    const hsize_t row_bytes = row_elements_ * element_size_;
    const hsize_t open = (chunk_rows_ - (rows_ + pending_) % chunk_rows_) % chunk_rows_;
    const hsize_t fill = std::min(rows, open);
    buffer_.insert(buffer_.end(), bytes, bytes + fill * row_bytes);
    pending_ += rows;
    keep_whole_chunks();
    const hsize_t whole = (rows - fill) / chunk_rows_ * chunk_rows_;
    if (whole > 0) chunks_->keep(name_, bytes + fill * row_bytes, whole);
    buffer_.insert(buffer_.end(), bytes + (fill + whole) * row_bytes, bytes + rows * row_bytes);
  }

  /// The buffered rows of whole chunks, after those before the first chunk's start (after a
  /// flush that ended inside one), compressed and taken out of the buffer.
  void keep_whole_chunks() {
    if (!keeps_chunks()) return;
    const hsize_t row_bytes = row_elements_ * element_size_;
    const hsize_t head = (chunk_rows_ - rows_ % chunk_rows_) % chunk_rows_;
    const hsize_t raw = buffer_.size() / row_bytes;
    if (raw < head + chunk_rows_) return;
    const hsize_t whole = (raw - head) / chunk_rows_ * chunk_rows_;
    const auto from = buffer_.begin() + static_cast<std::ptrdiff_t>(head * row_bytes);
    chunks_->keep(name_, &*from, whole);
    buffer_.erase(from, from + static_cast<std::ptrdiff_t>(whole * row_bytes));
  }

  std::vector<hsize_t> with_rows(hsize_t rows) const {
    std::vector<hsize_t> dims{rows};
    dims.insert(dims.end(), row_shape_.begin(), row_shape_.end());
    return dims;
  }

  void create(bool extendible) {
    const hsize_t rows = extendible ? 0 : pending_;
    const std::vector<hsize_t> dims = with_rows(rows);
    std::vector<hsize_t> maxdims = dims;
    if (extendible) maxdims[0] = H5S_UNLIMITED;
    Handle space(check(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), maxdims.data()),
                       "space"),
                 H5Sclose);
    Handle plist;  // a copy only for chunks and filters: most datasets of a sweep are small
    // Small datasets: compression is no gain; uncompressed ones of known size need no chunks.
    const bool large = buffered_bytes() >= compressed_bytes;
    if (extendible || (large && compression_ != Compression::none)) {
      plist = Handle(check(H5Pcopy(numeric_dataset_creation()), "plist"), H5Pclose);
      // No more rows than the run will write.
      const std::vector<hsize_t> chunk =
          chunk_shape(row_shape_, extendible ? expected_rows_ : rows, element_size_);
      check_status(H5Pset_chunk(plist.get(), static_cast<int>(chunk.size()), chunk.data()),
                   "chunk");
      set_filters(plist.get());
      if (extendible && !chunks_ && ChunkWriter::suits(row_shape_, chunk, compression_))
        chunks_ = std::make_unique<ChunkWriter>(row_shape_, chunk, element_size_, compression_);
    }
    dataset_ = Handle(
        check(H5Dcreate2(parent_, name_.c_str(), native_type(scalar_), space.get(), H5P_DEFAULT,
                         plist.get() >= 0 ? plist.get() : numeric_dataset_creation(), H5P_DEFAULT),
              "dataset " + name_),
        H5Dclose);
    attr_unit(dataset_.get(), unit_);
    created_ = true;
  }

  // Shuffling the bytes of the numbers by significance first lets either filter find the
  // leading bytes that neighbouring doubles share: without it LZF left a run's positions ten
  // times larger. ChunkWriter applies them in this order.
  void set_filters(hid_t plist) const {
    if (compression_ == Compression::none) return;
    check_status(H5Pset_shuffle(plist), "shuffle");
    // LZF optional, as h5py declares it (Collette 2008): HDF5 stores a chunk LZF cannot shrink
    // as it is, marked as such, where a mandatory LZF failed the write. Whether the plugin is
    // there is checked before the run (compression_unavailable).
    if (compression_ == Compression::lzf)
      check_status(H5Pset_filter(plist, lzf_filter_id, H5Z_FLAG_OPTIONAL, 0, nullptr), "lzf");
    else
      check_status(H5Pset_deflate(plist, deflate_level), "deflate");
  }

  void spill_rows(const char* rows) {
    quiet_errors();
    write(true, rows, false);
  }

  /// Writes the pending rows, which are at `rows` (the buffer, unless given); `locked`: the
  /// caller holds the file's lock, else it is taken for each HDF5 call, and chunks are
  /// compressed without it.
  void write(bool spill, const char* rows, bool locked) {
    if (!rows) rows = buffer_.data();
    std::mutex* const lock = locked ? nullptr : lock_;
    const auto hold = [lock] {
      return lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
    };
    // Rows whose chunks were compressed as they completed (keep_whole_chunks) follow those
    // before the first chunk's start and are no longer at `rows`.
    const hsize_t kept = chunks_ ? chunks_->kept_rows() : 0;
    const bool final_size = !created_ && !spill;  // created here with every row
    if (!created_) {
      std::unique_lock guard = hold();
      create(spill);
      if (final_size && kept == 0) {  // final size known: one write of everything
        if (pending_ > 0)
          check_status(
              H5Dwrite(dataset_.get(), native_type(scalar_), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows),
              "write " + name_);
        rows_ = pending_;
        pending_ = 0;
        buffer_.clear();
        return;
      }
    }
    if (pending_ == 0) return;
    if (!final_size) {
      std::unique_lock guard = hold();
      check_status(H5Dset_extent(dataset_.get(), with_rows(rows_ + pending_).data()), "extend");
    }
    // Whole rows of chunks go to ChunkWriter; rows before the first (after a flush that ended
    // inside one) and after the last (the run's end) through HDF5's filters.
    const hsize_t row_bytes = row_elements_ * element_size_;
    const hsize_t head = std::min(pending_, (chunk_rows_ - rows_ % chunk_rows_) % chunk_rows_);
    const hsize_t whole = chunks_ ? (pending_ - head - kept) / chunk_rows_ * chunk_rows_ : 0;
    {
      std::unique_lock guard = hold();
      write_rows(rows_, head, rows);
    }
    if (kept > 0) chunks_->write_kept(dataset_.get(), name_, rows_ + head, lock);
    if (whole > 0)
      chunks_->write(dataset_.get(), name_, rows_ + head + kept, whole, rows + head * row_bytes,
                     lock);
    {
      std::unique_lock guard = hold();
      const hsize_t done = head + kept + whole;
      write_rows(rows_ + done, pending_ - done, rows + (head + whole) * row_bytes);
    }
    rows_ += pending_;
    pending_ = 0;
    buffer_.clear();
  }

  /// Writes `count` rows at `rows` as rows [first, first + count) through HDF5's filters.
  void write_rows(hsize_t first, hsize_t count, const char* rows) {
    if (count == 0) return;
    std::vector<hsize_t> start(row_shape_.size() + 1, 0);
    const std::vector<hsize_t> counts = with_rows(count);
    start[0] = first;
    Handle file_space(check(H5Dget_space(dataset_.get()), "space"), H5Sclose);
    check_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr,
                                     counts.data(), nullptr),
                 "select");
    Handle mem_space(
        check(H5Screate_simple(static_cast<int>(counts.size()), counts.data(), nullptr), "space"),
        H5Sclose);
    check_status(H5Dwrite(dataset_.get(), native_type(scalar_), mem_space.get(), file_space.get(),
                          H5P_DEFAULT, rows),
                 "write " + name_);
  }

  hid_t parent_ = -1;
  std::string name_, unit_;
  Handle dataset_;
  std::vector<hsize_t> row_shape_;
  Scalar scalar_ = Scalar::float64;
  std::size_t element_size_ = 8;
  hsize_t row_elements_ = 1;
  hsize_t expected_rows_ = 4096;
  hsize_t chunk_rows_ = 1;  ///< rows of a spilled dataset's chunk
  Compression compression_ = Compression::gzip;
  hsize_t rows_ = 0, pending_ = 0;
  bool created_ = false;
  std::vector<char> buffer_;
  std::mutex* lock_ = nullptr;
  std::unique_ptr<ChunkWriter> chunks_;  ///< a spilled dataset's whole rows of chunks
};

}  // namespace chaindem::hdf5
