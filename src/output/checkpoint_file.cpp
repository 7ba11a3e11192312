#include "chaindem/output/checkpoint_file.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/journaled_file.hpp"
#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/output/output_file.hpp"
#include "chaindem/output/side_files.hpp"
#include "chaindem/text.hpp"
#include "chaindem/version.hpp"

namespace chaindem {
namespace {

using namespace hdf5;

constexpr const char* format_name = "chaindem checkpoint";
constexpr std::int64_t format_version = 1;

// What the records' bytes mean depends on the build: the version and the sizes of the structs
// saved whole. A checkpoint is read only where these match.
std::string layout() {
  std::ostringstream s;
  s << "chaindem " << version << "; ContactState " << sizeof(ContactState) << " B, PairCoeffs "
    << sizeof(PairCoeffs) << " B, contact entry " << ContactList{}.bytes_per_entry()
    << " B, shared coefficients, states and normals, chain displacements and position carries";
  return s.str();
}

void write_records(hid_t parent, const std::string& name, const StateArchive& archive) {
  Handle g = group(parent, name);
  for (const auto& [key, bytes] : archive.records()) {
    const hsize_t n = bytes.size();
    Handle space(check(H5Screate_simple(1, &n, nullptr), "space"), H5Sclose);
    // A checksum on every record: a checkpoint damaged on disk is refused, not restored.
    Handle plist(check(H5Pcreate(H5P_DATASET_CREATE), "plist"), H5Pclose);
    if (n > 0) {
      const hsize_t chunk = std::min<hsize_t>(n, hsize_t{1} << 20);
      check_status(H5Pset_chunk(plist.get(), 1, &chunk), "chunk");
      check_status(H5Pset_fletcher32(plist.get()), "checksum");
    }
    Handle d(check(H5Dcreate2(g.get(), key.c_str(), H5T_NATIVE_UCHAR, space.get(), H5P_DEFAULT,
                              plist.get(), H5P_DEFAULT),
                   "dataset " + key),
             H5Dclose);
    if (n > 0)
      check_status(H5Dwrite(d.get(), H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()),
                   "write " + key);
    d.close(key);
  }
  g.close(name);
}

StateArchive read_records(hid_t parent, const std::string& name) {
  Handle g(check(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "group " + name), H5Gclose);
  std::vector<std::string> keys;
  check_status(H5Literate(
                   g.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
                   [](hid_t, const char* key, const H5L_info_t*, void* out) -> herr_t {
                     static_cast<std::vector<std::string>*>(out)->push_back(key);
                     return 0;
                   },
                   &keys),
               "list " + name);
  StateArchive archive;
  for (const std::string& key : keys) {
    Handle d(check(H5Dopen2(g.get(), key.c_str(), H5P_DEFAULT), "dataset " + key), H5Dclose);
    Handle space(check(H5Dget_space(d.get()), "space"), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space.get());
    if (n < 0) throw Error("size of " + key);
    StateArchive::Bytes bytes(static_cast<std::size_t>(n));
    if (n > 0)
      check_status(H5Dread(d.get(), H5T_NATIVE_UCHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()),
                   "read " + key);
    archive.set_record(key, std::move(bytes));
  }
  return archive;
}

template <class T>
T read_number(hid_t object, const char* name, hid_t type) {
  Handle attr(check(H5Aopen(object, name, H5P_DEFAULT), name), H5Aclose);
  T value{};
  check_status(H5Aread(attr.get(), type, &value), name);
  return value;
}

std::string read_string_dataset(hid_t parent, const char* name) {
  Handle d(check(H5Dopen2(parent, name, H5P_DEFAULT), name), H5Dclose);
  Handle type(check(H5Tcopy(H5T_C_S1), "type"), H5Tclose);
  check_status(H5Tset_size(type.get(), H5T_VARIABLE), "type");
  check_status(H5Tset_cset(type.get(), H5T_CSET_UTF8), "type");
  char* value = nullptr;
  check_status(H5Dread(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &value), name);
  std::string out = value ? value : "";
  H5free_memory(value);
  return out;
}

// Parameters travel as "key=value" lines: keys hold no '=' and values no line break.
std::string parameter_lines(const std::map<std::string, std::string>& parameters) {
  std::string text;
  for (const auto& [key, value] : parameters) text += key + "=" + value + "\n";
  return text;
}

std::map<std::string, std::string> parse_parameter_lines(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (const auto eq = line.find('='); eq != std::string::npos)
      out[line.substr(0, eq)] = line.substr(eq + 1);
  return out;
}

// fsync of a file or directory; errno of the failure, or 0.
int sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const int status = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  // Some file systems cannot sync a directory; the rename is then as durable as they make it.
  return directory && (status == EINVAL || status == EROFS) ? 0 : status;
}

}  // namespace

std::string checkpoint_path_for(const std::string& output) {
  return output + ".checkpoint";
}

void write_checkpoint(const std::string& path, const Checkpoint& cp) {
  const std::string partial = path + ".partial";
  FileId made;  // the partial checkpoint this call created: the only file it removes
  auto fail = [&](const std::string& reason) {
    remove_own(partial, made);
    return OutputError("cannot write '" + quoted_path(path) + "': " + reason);
  };
  quiet_errors();
  try {
    remove_stale(partial, path, side_file_role(".checkpoint.partial"));
  } catch (const OutputPathError& e) {
    throw OutputError(e.what());
  }
  // Created, not opened (O_EXCL): never through a link put in its place.
  Handle file(H5Fcreate(partial.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, file_access()), H5Fclose);
  if (file.get() < 0) {
    const std::string reason = error_reason();
    if (reason.find(strerror(EEXIST)) == std::string::npos) made = identity_of(partial);
    throw fail("creating " + quoted_path(partial) + ": " + reason);
  }
  made = identity_of(file_descriptor(file.get()));  // the file created, whatever the name holds
  try {
    const hid_t f = file.get();
    attr_string(f, "format", format_name);
    attr_numbers<std::int64_t>(f, "format_version", {format_version}, H5T_NATIVE_INT64);
    attr_string(f, "layout", layout());
    attr_string(f, "chaindem_version", version);
    attr_numbers<std::int64_t>(f, "step", {cp.step}, H5T_NATIVE_INT64);
    attr_numbers<double>(f, "time", {cp.time}, H5T_NATIVE_DOUBLE);
    attr_numbers<std::int64_t>(f, "frames", {cp.frames}, H5T_NATIVE_INT64);
    attr_numbers<std::int64_t>(f, "contact_rows", {cp.contact_rows}, H5T_NATIVE_INT64);
    dataset_string(f, "parameters", parameter_lines(cp.parameters));
    write_records(f, "simulation", cp.simulation);
    write_records(f, "run", cp.run);
    check_status(H5Fflush(f, H5F_SCOPE_GLOBAL), "flush");
    file.close(partial);
  } catch (const std::exception& e) {
    file.release();  // abandoned, not closed (PartialOutput explains why)
    throw fail(e.what());
  }
  if (const int e = sync_path(partial, false)) throw fail("fsync: " + std::string(strerror(e)));
  if (identity_of(partial) != made)
    throw fail(quoted_path(partial) + " was replaced by another file while it was written");
  if (std::rename(partial.c_str(), path.c_str()) != 0)
    throw fail("renaming " + quoted_path(partial) + ": " + std::string(strerror(errno)));
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (const int e = sync_path(dir.empty() ? "." : dir.string(), true))
    throw OutputError("cannot write '" + quoted_path(path) +
                      "': fsync of its folder: " + strerror(e));
}

Checkpoint read_checkpoint(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw CheckpointError("there is no checkpoint '" + quoted_path(path) +
                          "' to continue from (a run writes one every "
                          "output.checkpoint_interval seconds and when it receives SIGTERM)");
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw CheckpointError("the checkpoint '" + quoted_path(path) + "' " + problem);
  quiet_errors();
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.get() < 0)
    throw CheckpointError("cannot read the checkpoint '" + quoted_path(path) +
                          "': " + error_reason());
  const hid_t f = file.get();
  try {
    if (read_string_attr(f, "format") != format_name)
      throw CheckpointError("'" + quoted_path(path) + "' is not a chaindem checkpoint");
    if (const std::string written = read_string_attr(f, "layout"); written != layout())
      throw CheckpointError("the checkpoint '" + quoted_path(path) +
                            "' was written by another build (" + quoted_text(written) +
                            "); this is " + layout() +
                            ": continue it with the chaindem that wrote it");
    Checkpoint cp;
    cp.step = read_number<std::int64_t>(f, "step", H5T_NATIVE_INT64);
    cp.time = read_number<double>(f, "time", H5T_NATIVE_DOUBLE);
    cp.frames = read_number<std::int64_t>(f, "frames", H5T_NATIVE_INT64);
    cp.contact_rows = read_number<std::int64_t>(f, "contact_rows", H5T_NATIVE_INT64);
    cp.parameters = parse_parameter_lines(read_string_dataset(f, "parameters"));
    cp.simulation = read_records(f, "simulation");
    cp.run = read_records(f, "run");
    return cp;
  } catch (const Error& e) {
    throw CheckpointError("cannot read the checkpoint '" + quoted_path(path) + "': " + e.what());
  }
}

std::string parameter_difference(const std::map<std::string, std::string>& checkpoint,
                                 const std::map<std::string, std::string>& current,
                                 const std::function<bool(const std::string&)>& may_differ) {
  auto value = [](const std::map<std::string, std::string>& m, const std::string& key) {
    const auto it = m.find(key);
    return it == m.end() ? std::string("not set") : "'" + quoted_text(it->second) + "'";
  };
  std::map<std::string, std::string> keys = checkpoint;
  keys.insert(current.begin(), current.end());
  for (const auto& [key, unused] : keys) {
    if (may_differ(key)) continue;
    const auto a = checkpoint.find(key), b = current.find(key);
    if (a != checkpoint.end() && b != current.end() && a->second == b->second) continue;
    return key + " is " + value(checkpoint, key) + " in the checkpoint and " + value(current, key) +
           " here";
  }
  return "";
}

}  // namespace chaindem
