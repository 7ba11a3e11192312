// The journaled HDF5 file driver (journaled_file.hpp). A POSIX driver like HDF5's "sec2", plus
// the undo journal. Journal layout, all integers little-endian as the machine writes them (the
// journal never leaves the machine that wrote it):
//   header: "CDJRNL02", u64 boundary (the file's size at the checkpoint), u64 device and u64
//           inode of the file (a journal is replayed onto its own file only), u32 CRC-32 of the
//           previous 32 bytes, u32 zero;
//   records, one per saved page: u64 offset, u64 length, u32 CRC-32 of offset, length and the
//           bytes, u32 zero, then the page's `length` old bytes.
// A kill while records are appended leaves the last one incomplete; its page was not yet
// overwritten (the record is written first), so replay ends there. A complete record that does
// not check is damage, not a kill: the replay refuses the journal.
#include "chaindem/output/journaled_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <boost/crc.hpp>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <unordered_set>
#include <vector>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/side_files.hpp"
#include "chaindem/text.hpp"

namespace chaindem::hdf5 {
namespace {

constexpr std::uint64_t page_size = 4096;
constexpr char magic[8] = {'C', 'D', 'J', 'R', 'N', 'L', '0', '2'};
constexpr std::size_t header_size = 40, record_header_size = 24;
constexpr haddr_t max_address = (haddr_t{1} << (8 * sizeof(off_t) - 1)) - 1;

// One open file: the descriptor, HDF5's end of address space (eoa) and the file's size (eof),
// and the journal.
struct State {
  std::string path, journal;
  int fd = -1, journal_fd = -1;  // journal_fd < 0: opened read-only, nothing journaled
  haddr_t eoa = 0, eof = 0;
  dev_t device = 0;
  ino_t inode = 0;
  std::uint64_t boundary = 0;               // the file's size at the last checkpoint
  std::unordered_set<std::uint64_t> saved;  // pages below `boundary` already in the journal
  bool wrote = false;
  bool broken = false;  // a journal write failed: the journal no longer undoes, so no more writes
};

// The file create_in() has the driver write in place of the one the name holds: a descriptor of
// it, set for the length of that call, in its thread (HDF5 hands a driver nothing but the name
// and the access list, whose copies outlive the call).
thread_local int given_fd = -1;

// HDF5's view of an open file: its own part first, as the driver interface requires.
struct DriverFile {
  H5FD_t pub;
  State* state;
};

State& state_of(const H5FD_t* file) {
  return *reinterpret_cast<const DriverFile*>(file)->state;
}

// Pushes `message` (with the system's reason) on HDF5's error stack: the innermost entry, which
// error_reason() reports.
herr_t failure(hid_t minor, const std::string& message, int error_number = 0) {
  const std::string text =
      message + (error_number ? std::string(": ") + std::strerror(error_number) : "");
  H5Epush2(H5E_DEFAULT, __FILE__, "journaled file", __LINE__, H5E_ERR_CLS, H5E_VFL, minor, "%s",
           text.c_str());
  return -1;
}

// CRC-32 of `n` bytes at `data`, then `m` at `more`.
std::uint32_t crc32(const void* data, std::size_t n, const void* more = nullptr,
                    std::size_t m = 0) {
  boost::crc_32_type crc;
  crc.process_bytes(data, n);
  if (m) crc.process_bytes(more, m);
  return crc.checksum();
}

// Whole reads and writes at an offset (retrying short and interrupted calls); false with errno.
bool write_at(int fd, const void* data, std::size_t n, std::uint64_t offset) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::pwrite(fd, p, n, static_cast<off_t>(offset));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= static_cast<std::size_t>(w), offset += static_cast<std::uint64_t>(w);
  }
  return true;
}
bool append(int fd, const void* data, std::size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w, n -= static_cast<std::size_t>(w);
  }
  return true;
}
// Past the end of the file reads zeros, as HDF5 expects of a driver.
bool read_at(int fd, void* data, std::size_t n, std::uint64_t offset) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    const ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return false;
    if (r == 0) {
      std::memset(p, 0, n);
      return true;
    }
    p += r, n -= static_cast<std::size_t>(r), offset += static_cast<std::uint64_t>(r);
  }
  return true;
}

template <class T>
void put(std::vector<char>& out, T value) {
  const auto* p = reinterpret_cast<const char*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}
template <class T>
T get(const char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

// Starts an empty journal for a checkpoint at `boundary`: written under a temporary name and
// renamed over the old one, so that a kill leaves one valid journal or the other.
herr_t start_journal(State& s, std::uint64_t boundary) {
  std::vector<char> header(magic, magic + sizeof(magic));
  put(header, boundary);
  put(header, static_cast<std::uint64_t>(s.device));
  put(header, static_cast<std::uint64_t>(s.inode));
  put(header, crc32(header.data(), header.size()));
  put(header, std::uint32_t{0});
  const std::string temporary = s.journal + ".new";
  // A new file of our own: one a kill left is removed first, and no link is followed (in a
  // folder others may write, a link there would have us overwrite what it points to).
  ::unlink(temporary.c_str());
  const int fd = ::open(temporary.c_str(),
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_APPEND | O_CLOEXEC, 0666);
  if (fd < 0) return failure(H5E_CANTOPENFILE, "creating journal " + quoted_path(temporary), errno);
  if (!append(fd, header.data(), header.size()) ||
      ::rename(temporary.c_str(), s.journal.c_str()) != 0) {
    const int error_number = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    return failure(H5E_WRITEERROR, "starting journal " + quoted_path(s.journal), error_number);
  }
  if (s.journal_fd >= 0) ::close(s.journal_fd);
  s.journal_fd = fd;
  s.boundary = boundary;
  s.saved.clear();
  return 0;
}

// Before [addr, addr + size) is overwritten: the old content of its pages below the boundary
// that are not in the journal yet, appended to it in one write.
herr_t save_old_pages(State& s, haddr_t addr, std::size_t size) {
  if (addr >= s.boundary) return 0;
  const std::uint64_t end = std::min<std::uint64_t>(addr + size, s.boundary);
  std::vector<char> records;
  std::vector<std::uint64_t> added;
  for (std::uint64_t p = addr / page_size; p * page_size < end; ++p) {
    if (!s.saved.insert(p).second) continue;
    added.push_back(p);
    const std::uint64_t offset = p * page_size;
    const std::uint64_t length = std::min(page_size, s.boundary - offset);
    const std::size_t at = records.size();
    put(records, offset);
    put(records, length);
    put(records, std::uint64_t{0});  // the CRC and padding, filled in below
    records.resize(at + record_header_size + length);
    char* bytes = records.data() + at + record_header_size;
    if (!read_at(s.fd, bytes, length, offset)) {
      for (auto q : added) s.saved.erase(q);
      return failure(H5E_READERROR, "reading " + s.path + " for its journal", errno);
    }
    const std::uint32_t crc = crc32(records.data() + at, 16, bytes, length);
    std::memcpy(records.data() + at + 16, &crc, sizeof(crc));
  }
  if (!records.empty() && !append(s.journal_fd, records.data(), records.size())) {
    s.broken = true;  // a partial record would hide every later one from the replay
    return failure(H5E_WRITEERROR, "writing journal " + quoted_path(s.journal), errno);
  }
  return 0;
}

// Returns `path` to its last checkpoint from `journal`: the saved pages written back, the file
// cut to its size then. Repeating it (after a kill during it) does the same again.
herr_t replay(const std::string& path, const std::string& journal) {
  std::vector<char> j;
  {
    const int fd = ::open(journal.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return failure(H5E_CANTOPENFILE, "opening journal " + quoted_path(journal), errno);
    struct stat st {};
    const bool sized = ::fstat(fd, &st) == 0;
    if (sized) j.resize(static_cast<std::size_t>(st.st_size));
    const bool read = sized && read_at(fd, j.data(), j.size(), 0);
    const int error_number = errno;
    ::close(fd);
    if (!read)
      return failure(H5E_READERROR, "reading journal " + quoted_path(journal), error_number);
  }
  const std::string damaged = "journal " + quoted_path(journal) + " is damaged, so " +
                              quoted_path(path) +
                              " cannot be returned to its last checkpoint; delete both to start "
                              "over";
  if (j.size() < header_size || std::memcmp(j.data(), magic, sizeof(magic)) != 0 ||
      get<std::uint32_t>(j.data() + 32) != crc32(j.data(), 32))
    return failure(H5E_BADFILE, damaged);
  const auto boundary = get<std::uint64_t>(j.data() + 8);
  std::vector<std::size_t> records;
  for (std::size_t at = header_size; at + record_header_size <= j.size();) {
    const auto length = get<std::uint64_t>(j.data() + at + 8);
    if (length > page_size) return failure(H5E_BADFILE, damaged);
    if (at + record_header_size + length > j.size()) break;  // the tail a kill cut
    const char* bytes = j.data() + at + record_header_size;
    if (get<std::uint32_t>(j.data() + at + 16) != crc32(j.data() + at, 16, bytes, length))
      return failure(H5E_BADFILE, damaged);
    records.push_back(at);
    at += record_header_size + length;
  }
  const int fd = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return failure(H5E_CANTOPENFILE, "opening " + path + " to replay its journal", errno);
  struct stat file {};
  if (::fstat(fd, &file) != 0 ||
      static_cast<std::uint64_t>(file.st_dev) != get<std::uint64_t>(j.data() + 16) ||
      static_cast<std::uint64_t>(file.st_ino) != get<std::uint64_t>(j.data() + 24) ||
      static_cast<std::uint64_t>(file.st_size) < boundary) {
    ::close(fd);
    return failure(H5E_BADFILE, "journal " + quoted_path(journal) +
                                    " belongs to another file than " + quoted_path(path) +
                                    " (replaced, moved or copied since it was written); delete "
                                    "the journal, or both to start over");
  }
  bool ok = true;
  for (auto it = records.rbegin(); ok && it != records.rend(); ++it)
    ok = write_at(fd, j.data() + *it + record_header_size, get<std::uint64_t>(j.data() + *it + 8),
                  get<std::uint64_t>(j.data() + *it));
  ok = ok && ::ftruncate(fd, static_cast<off_t>(boundary)) == 0;
  const int error_number = errno;
  ::close(fd);
  if (!ok) return failure(H5E_WRITEERROR, "replaying journal of " + path, error_number);
  return 0;
}

// The driver's callbacks.

H5FD_t* open_file(const char* name, unsigned flags, hid_t, haddr_t maxaddr) {
  if (!name || !*name || maxaddr == 0 || maxaddr == HADDR_UNDEF || maxaddr > max_address) {
    failure(H5E_BADVALUE, "invalid file name or address space");
    return nullptr;
  }
  auto s = std::make_unique<State>();
  s->path = name;
  s->journal = journal_path(name);
  const bool writable = flags & H5F_ACC_RDWR;
  const bool truncate = flags & H5F_ACC_TRUNC;
  // A file given by its descriptor is new and empty: nothing to truncate, no journal of its own.
  const bool given = given_fd >= 0;
  const bool journal_left = !given && ::access(s->journal.c_str(), F_OK) == 0;
  if (journal_left && !truncate) {
    if (!writable) {
      failure(H5E_CANTOPENFILE, quoted_path(s->path) + " was not closed (its journal " +
                                    quoted_path(s->journal) +
                                    " is there): open it for writing to return it to its last "
                                    "checkpoint");
      return nullptr;
    }
    if (replay(s->path, s->journal) < 0) return nullptr;
  }
  // Never through a link: the driver writes chaindem's own partial files only.
  int o_flags = (writable ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_CLOEXEC;
  if (truncate) o_flags |= O_TRUNC;
  if (flags & H5F_ACC_CREAT) o_flags |= O_CREAT;
  if (flags & H5F_ACC_EXCL) o_flags |= O_EXCL;
  s->fd = given ? ::fcntl(given_fd, F_DUPFD_CLOEXEC, 0) : ::open(name, o_flags, 0666);
  if (s->fd < 0) {
    failure(H5E_CANTOPENFILE, std::strerror(errno));  // the caller names the file
    return nullptr;
  }
  struct stat st {};
  if (::fstat(s->fd, &st) != 0) {
    failure(H5E_BADFILE, std::string("fstat ") + name, errno);
    ::close(s->fd);
    return nullptr;
  }
  s->eof = static_cast<haddr_t>(st.st_size);
  s->device = st.st_dev;
  s->inode = st.st_ino;
  if (writable && start_journal(*s, s->eof) < 0) {
    ::close(s->fd);
    return nullptr;
  }
  auto* file = new DriverFile{};
  file->state = s.release();
  return &file->pub;
}

herr_t close_file(H5FD_t* file) {
  std::unique_ptr<DriverFile> owner(reinterpret_cast<DriverFile*>(file));
  std::unique_ptr<State> s(owner->state);
  herr_t status = 0;
  if (s->journal_fd >= 0) {
    // HDF5 has flushed everything: the file is complete, and the journal goes first. Only then
    // may the file shrink to what HDF5 uses, below the last checkpoint's size.
    ::close(s->journal_fd);
    if (::unlink(s->journal.c_str()) != 0)
      status = failure(H5E_CANTCLOSEFILE, "removing journal " + quoted_path(s->journal), errno);
    else if (s->wrote && s->eoa > 0 && s->eof > s->eoa &&
             ::ftruncate(s->fd, static_cast<off_t>(s->eoa)) != 0)
      status = failure(H5E_CANTCLOSEFILE, "truncating " + s->path, errno);
  }
  if (::close(s->fd) != 0 && status == 0)
    status = failure(H5E_CANTCLOSEFILE, "closing " + s->path, errno);
  return status;
}

int compare_files(const H5FD_t* a, const H5FD_t* b) {
  const State &x = state_of(a), &y = state_of(b);
  if (x.device != y.device) return x.device < y.device ? -1 : 1;
  if (x.inode != y.inode) return x.inode < y.inode ? -1 : 1;
  return 0;
}

herr_t query(const H5FD_t*, unsigned long* flags) {
  if (flags)
    *flags = H5FD_FEAT_AGGREGATE_METADATA | H5FD_FEAT_ACCUMULATE_METADATA | H5FD_FEAT_DATA_SIEVE |
             H5FD_FEAT_AGGREGATE_SMALLDATA;
  return 0;
}

haddr_t get_eoa(const H5FD_t* file, H5FD_mem_t) {
  return state_of(file).eoa;
}
herr_t set_eoa(H5FD_t* file, H5FD_mem_t, haddr_t address) {
  state_of(file).eoa = address;
  return 0;
}
haddr_t get_eof(const H5FD_t* file, H5FD_mem_t) {
  return state_of(file).eof;
}
// What journal_checkpoint reaches the state through (H5Fget_vfd_handle).
herr_t get_handle(H5FD_t* file, hid_t, void** handle) {
  *handle = file;
  return 0;
}

herr_t driver_read(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size, void* buffer) {
  State& s = state_of(file);
  if (addr == HADDR_UNDEF || addr > max_address || size > max_address - addr)
    return failure(H5E_OVERFLOW, "read beyond the address space of " + s.path);
  if (!read_at(s.fd, buffer, size, addr)) return failure(H5E_READERROR, "reading " + s.path, errno);
  return 0;
}

herr_t driver_write(H5FD_t* file, H5FD_mem_t, hid_t, haddr_t addr, size_t size,
                    const void* buffer) {
  State& s = state_of(file);
  if (addr == HADDR_UNDEF || addr > max_address || size > max_address - addr)
    return failure(H5E_OVERFLOW, "write beyond the address space of " + s.path);
  if (s.broken)
    return failure(H5E_WRITEERROR, "journal " + quoted_path(s.journal) + " failed earlier");
  if (save_old_pages(s, addr, size) < 0) return -1;
  s.wrote = true;
  if (!write_at(s.fd, buffer, size, addr))
    return failure(H5E_WRITEERROR, "writing " + s.path, errno);
  s.eof = std::max<haddr_t>(s.eof, addr + size);
  return 0;
}

// HDF5 sets the file's size to its end of address space; never below the last checkpoint's
// size while the journal may need to return to it (the replay puts pages back, it does not
// re-create a cut tail). HDF5 reads a file longer than it needs.
herr_t driver_truncate(H5FD_t* file, hid_t, hbool_t) {
  State& s = state_of(file);
  const haddr_t size = s.journal_fd >= 0 ? std::max<haddr_t>(s.eoa, s.boundary) : s.eoa;
  if (size == s.eof) return 0;
  if (::ftruncate(s.fd, static_cast<off_t>(size)) != 0)
    return failure(H5E_SEEKERROR, "setting the size of " + s.path, errno);
  s.eof = size;
  return 0;
}

H5FD_class_t driver_class() {
  H5FD_class_t c{};
  c.name = "chaindem_journaled";
  c.maxaddr = max_address;
  c.fc_degree = H5F_CLOSE_WEAK;
  c.open = open_file;
  c.close = close_file;
  c.cmp = compare_files;
  c.query = query;
  c.get_eoa = get_eoa;
  c.set_eoa = set_eoa;
  c.get_eof = get_eof;
  c.get_handle = get_handle;
  c.read = driver_read;
  c.write = driver_write;
  c.truncate = driver_truncate;
  const H5FD_mem_t map[] = H5FD_FLMAP_DICHOTOMY;
  std::copy(std::begin(map), std::end(map), c.fl_map);
  return c;
}

hid_t driver() {
  static const H5FD_class_t c = driver_class();
  static const hid_t id = check(H5FDregister(&c), "registering the journaled file driver");
  return id;
}

}  // namespace

std::string journal_path(const std::string& path) {
  return path + ".journal";
}

hid_t journaled_file_access() {
  static const hid_t fapl = [] {
    const hid_t p = file_access_in(H5F_LIBVER_V18);
    check_status(H5Pset_driver(p, driver(), nullptr), "journaled file driver");
    return p;
  }();
  return fapl;
}

void recover_journal(const std::string& path) {
  const std::string journal = journal_path(path);
  if (::access(journal.c_str(), F_OK) != 0) return;
  quiet_errors();
  if (replay(path, journal) < 0) throw Error(error_reason());
  if (::unlink(journal.c_str()) != 0)
    throw Error("removing journal " + quoted_path(journal) + ": " + std::strerror(errno));
}

hid_t create_in(int fd, const std::string& path, hid_t access) {
  if (H5Pget_driver(access) == driver()) {
    given_fd = fd;
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access);
    given_fd = -1;
    return file;
  }
  // HDF5's own drivers open a name only: /proc/self/fd/N names the file open on N itself
  // (proc(5)), whatever `path` holds by the time HDF5 opens it, a link even. HDF5 then knows the
  // file by that name (H5Fget_name), from which it would resolve external links; chaindem's
  // files hold none.
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  struct stat reached {};
  const FileId made = identity_of(fd);
  if (::stat(self.c_str(), &reached) == 0 && FileId{reached.st_dev, reached.st_ino, true} == made)
    return H5Fcreate(self.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access);
  // Without /proc (a chroot that does not mount it), HDF5 creates the file anew under its name,
  // without following a link (H5F_ACC_EXCL: O_EXCL), once the one made is removed.
  remove_own(path, made);
  return H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, access);
}

int file_descriptor(hid_t file) {
  quiet_errors();
  const Handle access(H5Fget_access_plist(file), H5Pclose);
  const hid_t used = access.get() < 0 ? -1 : H5Pget_driver(access.get());
  void* handle = nullptr;
  if ((used != H5FD_SEC2 && used != driver()) ||
      H5Fget_vfd_handle(file, H5P_DEFAULT, &handle) < 0 || handle == nullptr) {
    H5Eclear2(H5E_DEFAULT);
    return -1;
  }
  return used == driver() ? state_of(static_cast<H5FD_t*>(handle)).fd : *static_cast<int*>(handle);
}

void journal_checkpoint(hid_t file) {
  const Handle access(check(H5Fget_access_plist(file), "file access"), H5Pclose);
  if (H5Pget_driver(access.get()) != driver())
    throw Error("journal_checkpoint: the file was not opened through the journal");
  void* handle = nullptr;
  check_status(H5Fget_vfd_handle(file, H5P_DEFAULT, &handle), "file driver");
  State& s = state_of(static_cast<H5FD_t*>(handle));
  if (s.broken || start_journal(s, s.eof) < 0) fail("checkpoint of " + s.path);
}

}  // namespace chaindem::hdf5
