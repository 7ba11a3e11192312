#include "chaindem/output/output_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ext/stdio_filebuf.h>

#include <cerrno>
#include <cstdio>  // renameat2
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <system_error>
#include <utility>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/journaled_file.hpp"
#include "chaindem/output/side_files.hpp"
#include "chaindem/text.hpp"

namespace fs = std::filesystem;

namespace chaindem {
namespace {

// A file that failed to write is abandoned, never closed (see PartialOutput), and HDF5 would
// close it at exit anyway, which crashes. So HDF5's clean-up at exit is turned off, before any
// other HDF5 call as it must be; every file chaindem completes is closed explicitly first.
const bool hdf5_cleanup_at_exit_off = H5dont_atexit() >= 0;

// Built by appending: g++ 12 warns of a false overlap in "'" + (temporary string).
std::string in_quotes(const fs::path& p) {
  std::string s(1, '\'');
  s += quoted_path(p.string());
  s += '\'';
  return s;
}

// `file` (the output, or the partial file it is written as) may be created or replaced.
void check_target(const std::string& output, const fs::path& file,
                  const std::vector<std::string>& inputs) {
  const std::string named = file == fs::path(output) ? "output " + in_quotes(output)
                                                     : "output " + in_quotes(output) + ": " +
                                                           in_quotes(file) + ", written first,";
  const std::string replaced = ": writing the output would replace it";
  std::error_code ec;
  const fs::file_status status = fs::status(file, ec);  // what a symbolic link points to
  if (ec && status.type() != fs::file_type::not_found)
    throw OutputPathError(named + " cannot be checked: " + ec.message());
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    const bool link = fs::is_symlink(fs::symlink_status(file, ec));
    throw OutputPathError(named + " is " + (link ? "a symbolic link to " : "") +
                          file_type_name(status.type()) + ", not a regular file" + replaced);
  }
  for (const auto& input : inputs) {
    std::error_code same_ec;
    if (!input.empty() && fs::equivalent(file, input, same_ec) && !same_ec)
      throw OutputPathError(named + " is the input " + in_quotes(input) + replaced);
  }
}

// Why an output that exists is not replaced, and how to replace it.
std::string already_there(const std::string& path) {
  return "output " + in_quotes(path) +
         " exists; chaindem replaces an output only when told to: give --force (force=True "
         "in Python), or another output name";
}

// Renames `from` to `to`; unless `existing` allows it, not over a file `to` that exists, checked
// in the same system call where the file system can (renameat2 RENAME_NOREPLACE), else by a
// hard link, which fails on an existing name.
void place(const std::string& from, const std::string& to, Existing existing) {
  std::error_code ec;
  if (existing == Existing::replace) {
    fs::rename(from, to, ec);
    if (ec) throw std::runtime_error("renaming " + in_quotes(from) + ": " + ec.message());
    return;
  }
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return;
  int error_number = errno;
  if (error_number == EINVAL || error_number == ENOSYS) {  // no RENAME_NOREPLACE here
    if (::link(from.c_str(), to.c_str()) == 0) {
      ::unlink(from.c_str());
      return;
    }
    error_number = errno;
  }
  if (error_number == EEXIST)
    throw std::runtime_error(already_there(to) +
                             " (it appeared while "
                             "chaindem computed)");
  throw std::runtime_error("renaming " + in_quotes(from) + ": " + std::strerror(error_number));
}

}  // namespace

void check_output_path(const std::string& path, const std::vector<std::string>& inputs,
                       Existing existing, bool companion) {
  if (path.empty()) throw OutputPathError("the output path is empty");
  const fs::path file(path);
  const fs::path parent = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  std::error_code ec;
  if (!fs::is_directory(parent, ec))
    throw OutputPathError("output " + in_quotes(path) + ": " +
                          (fs::exists(parent, ec)
                               ? in_quotes(parent) + " is not a directory"
                               : "the directory " + in_quotes(parent) + " does not exist"));
  // The files chaindem keeps beside an output while it writes it are never outputs themselves
  // (a slip of tab completion would have a sweep's journal replayed onto another file, or a
  // run's checkpoint removed when the run it belongs to completes).
  for (const char* ending :
       {".partial", ".journal", ".journal.new", ".lock", ".checkpoint", ".previous"})
    if (path.size() > std::strlen(ending) && path.ends_with(ending))
      throw OutputPathError("output " + in_quotes(path) + ": a name ending in " + ending +
                            " is what chaindem writes beside an output while writing it; "
                            "choose another name");
  // Nor is an XDMF name, which a run writes beside its output NAME.h5 as NAME.xdmf: an HDF5
  // file under it would be replaced by another command's XDMF text.
  if (!companion && path.ends_with(".xdmf"))
    throw OutputPathError("output " + in_quotes(path) +
                          ": a name ending in .xdmf is what `chaindem run` writes beside its "
                          "output for ParaView (the XDMF file); choose another name");
  check_target(path, file, inputs);
  check_target(path, path + ".partial", inputs);
  if (existing == Existing::refuse && fs::exists(fs::symlink_status(file, ec)))
    throw OutputPathError(already_there(path));
  // None of them is ever written through a link, nor may one be a folder or a device, which
  // would make the command fail only once it has computed.
  for (const SideFile& side : side_files())
    refuse_unless_regular(path + side.suffix, path, side.role);
}

void check_nothing_to_resume(const std::string& path) {
  const std::string partial = path + ".partial";
  std::error_code ec;
  if (!(fs::file_size(partial, ec) > 0) || ec) return;  // nothing computed is there
  const std::string checkpoint = path + ".checkpoint", journal = hdf5::journal_path(partial);
  const std::string what = "output " + in_quotes(path) + ": " + in_quotes(partial) + " holds ";
  if (identity_of(checkpoint).exists)
    throw OutputPathError(what + "the frames of an interrupted `chaindem run`, which " +
                          in_quotes(checkpoint) +
                          " continues: continue it with `chaindem run --restart`, start it "
                          "over with --discard-checkpoint, or delete both");
  if (identity_of(journal).exists)
    throw OutputPathError(what + "the finished cases of an interrupted sweep (with its journal " +
                          in_quotes(journal) +
                          "): run that sweep again to resume it, or delete both");
}

namespace {

// The locks this process holds, by output (absolute, normalised path): a nested OutputLock of
// the same output only counts (a second flock on a new descriptor would block on the first).
struct HeldLock {
  int fd = -1;
  int count = 0;
  std::string file;
  FileId id;
};
std::mutex held_mutex;
std::map<std::string, HeldLock> held;

std::string holder_of(int fd) {
  char text[256] = {};
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  // What the holder wrote (see OutputLock), or anything a file of that name holds.
  return n > 0 ? quoted_text(std::string_view(text, static_cast<std::size_t>(n)), 128)
               : "another process";
}

}  // namespace

OutputLock::OutputLock(const std::string& path) {
  std::error_code ec;
  key_ = fs::weakly_canonical(fs::absolute(path), ec).string();
  if (ec) key_ = fs::absolute(path).lexically_normal().string();
  std::lock_guard guard(held_mutex);
  if (HeldLock& h = held[key_]; h.count++ > 0) return;
  const std::string file = key_ + ".lock";
  const char* role = side_file_role(".lock");
  // Retried while the lock file is replaced under us: a holder removes it as it releases, and
  // the lock on a removed file would guard nothing.
  for (;;) {
    // Never through a link (which would have us write what it points to), and never blocking
    // on a FIFO put in its place.
    const int fd =
        ::open(file.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
    struct stat opened {};
    // One name of a regular file: another (a hard link) would have us write over that file.
    if (fd >= 0 &&
        (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_nlink != 1)) {
      ::close(fd);
      held.erase(key_);
      refuse_unless_regular(file, path, role);
      throw OutputPathError("output " + in_quotes(path) + ": " + in_quotes(file) + " (" + role +
                            ") is not a regular file");
    }
    if (fd < 0) {
      const int error = errno;
      if (error == ELOOP || error == ENXIO || error == EISDIR) {  // a link, a socket, a folder
        held.erase(key_);
        refuse_unless_regular(file, path, role);
      }
      // A folder where no file can be made (read-only, no permission, full): the output cannot
      // be written either, which the command reports when it creates it, with the reason. A lock
      // file that is there but not this user's to open (another's, in a shared folder) leaves
      // the output unguarded: said, as where the file system cannot lock.
      if (identity_of(file).exists)
        std::cerr << "chaindem: warning: cannot open the lock " << quoted_path(file) << " ("
                  << std::strerror(error) << "): two commands writing '" << quoted_path(path)
                  << "' at once would go undetected\n";
      held[key_] = {-1, 1, "", {}};
      return;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      if (error == EWOULDBLOCK) {
        const std::string holder = holder_of(fd);
        ::close(fd);
        held.erase(key_);
        throw OutputPathError("output " + in_quotes(path) + " is being written by " + holder +
                              "; wait for it to finish or choose another output");
      }
      std::cerr << "chaindem: warning: cannot lock " << quoted_path(file) << " ("
                << std::strerror(error) << "): two commands writing " << in_quotes(path)
                << " at once would go undetected\n";
    }
    if (const FileId id = identity_of(fd); id == identity_of(file)) {
      char host[256] = {};
      ::gethostname(host, sizeof host - 1);
      const std::string who = "chaindem process " + std::to_string(::getpid()) + " on " + host;
      if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, who.data(), who.size(), 0) < 0) {
        // Only the message of a refused writer reads it.
      }
      held[key_] = {fd, 1, file, id};
      return;
    }
    ::close(fd);
  }
}

OutputLock::~OutputLock() {
  std::lock_guard guard(held_mutex);
  const auto it = held.find(key_);
  if (it == held.end() || --it->second.count > 0) return;
  // Removed while still locked, so that no one locks a file that is about to go; and only if it
  // is still this lock's file, not one another process put in its place.
  if (it->second.fd >= 0) {
    remove_own(it->second.file, it->second.id);
    ::close(it->second.fd);
  }
  held.erase(it);
}

PartialOutput::PartialOutput(std::string path, Existing existing, std::string partial_path)
    : path_(std::move(path)),
      partial_(partial_path.empty() ? path_ + ".partial" : partial_path),
      existing_(existing),
      locks_(partial_path.empty()) {}

PartialOutput::~PartialOutput() {
  if (!committed_ && !kept_) discard();
}

OutputError PartialOutput::error(const std::string& reason) const {
  return OutputError("cannot write " + in_quotes(path_) + ": " + reason);
}

hid_t PartialOutput::create_hdf5(hid_t access) {
  if (!lock_ && locks_) lock_ = std::make_unique<OutputLock>(path_);
  hdf5::quiet_errors();
  // A file a stopped command left is removed, and a journal beside it, which belongs to none of
  // this one; the new file is created, not opened (O_EXCL), so that no link put in its place is
  // followed. HDF5 then writes the file made here, not what its name holds by then: a creation
  // that fails after it (a full disk) removes this file, never one another process put there.
  refuse_resumable();
  remove_stale(hdf5::journal_path(partial_), path_, side_file_role(".partial.journal"));
  remove_stale(partial_, path_, side_file_role(".partial"));
  const int fd = create_new(partial_);
  if (fd < 0) {
    const int error_number = errno;
    throw error("creating " + quoted_path(partial_) + ": " + std::strerror(error_number));
  }
  const FileId made = identity_of(fd);
  const hid_t id = hdf5::create_in(fd, partial_, access);
  ::close(fd);
  if (id < 0) {
    const std::string reason = hdf5::error_reason();
    remove_own(partial_, made);
    throw error("creating " + quoted_path(partial_) + ": " + reason);
  }
  file_ = id;
  own();
  return id;
}

void PartialOutput::refuse_resumable() const {
  if (partial_ == path_ + ".partial") check_nothing_to_resume(path_);
}

void PartialOutput::adopt_hdf5(hid_t file) {
  file_ = file;
  own();
}

void PartialOutput::own() {
  // The file HDF5 has open, not the one the name holds now: another process may have put its
  // own file there since this one was created, which this object must neither checkpoint as its
  // frames nor remove.
  created_ = identity_of_open(file_);
  in_use_ = InUse(partial_, created_);
}

FileId PartialOutput::identity_of_open(hid_t file) const {
  const int fd = hdf5::file_descriptor(file);
  return fd >= 0 ? identity_of(fd) : identity_of(partial_);
}

void PartialOutput::flush() {
  hdf5::quiet_errors();
  if (H5Fflush(file_, H5F_SCOPE_GLOBAL) < 0) throw error("flush: " + hdf5::error_reason());
}

void PartialOutput::sync() {
  flush();
  // What a checkpoint counts on is the file this object writes, under its name: one put in its
  // place would leave a checkpoint that continues nothing.
  const int fd = ::open(partial_.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0 && identity_of(fd) != created_) {
    ::close(fd);
    throw error(quoted_path(partial_) + " was replaced by another file while it was written");
  }
  const int failure = fd < 0 ? errno : (::fsync(fd) == 0 ? 0 : errno);
  if (fd >= 0) ::close(fd);
  if (failure) throw error("fsync " + quoted_path(partial_) + ": " + std::strerror(failure));
}

void PartialOutput::close_file() {
  hdf5::quiet_errors();
  // HDF5 does not close a file while objects in it are open, yet reports success: the file
  // would be written later, or never.
  const ssize_t open =
      H5Fget_obj_count(file_, H5F_OBJ_DATASET | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE | H5F_OBJ_ATTR);
  if (open != 0) throw error(std::to_string(open) + " HDF5 object(s) still open");
  // Flushing first: a failure here leaves the file open, to be given up (discard) rather than
  // closed; once flushed, the file closes without writing much.
  if (H5Fflush(file_, H5F_SCOPE_GLOBAL) < 0) throw error("flush: " + hdf5::error_reason());
  if (H5Fclose(std::exchange(file_, -1)) < 0) throw error("close: " + hdf5::error_reason());
}

hid_t PartialOutput::reopen_hdf5() {
  close_file();
  const std::string replaced =
      quoted_path(partial_) + " was replaced by another file while it was written";
  // A file already put in its place is not opened at all: HDF5 would open it for writing, or
  // fail saying why it cannot (not an HDF5 file, locked) rather than that it is not this one.
  if (identity_of(partial_) != created_) throw error(replaced);
  const hid_t id = open_by_name(partial_.c_str(), H5F_ACC_RDWR, hdf5::swmr_file_access());
  if (id < 0) throw error("reopening " + quoted_path(partial_) + ": " + hdf5::error_reason());
  // One put there between that check and the opening is told by the file HDF5 opened.
  if (identity_of_open(id) != created_) {
    H5Fclose(id);
    throw error(replaced);
  }
  file_ = id;
  return id;
}

void PartialOutput::add_companion(std::string path, std::function<void(std::ostream&)> write) {
  companions_.push_back({std::move(path), std::move(write), false, {}});
}

void PartialOutput::write_companion(Companion& c) {
  const std::string partial = c.path + ".partial";
  auto failed = [&](const char* doing, int error_number) {
    return error(std::string(doing) + " " + quoted_path(partial) + ": " +
                 (error_number ? std::strerror(error_number) : "the write failed"));
  };
  try {
    remove_stale(partial, c.path, side_file_role(".partial"));
  } catch (const OutputPathError& e) {
    throw error(e.what());
  }
  const int fd = create_new(partial);
  if (fd < 0) throw failed("creating", errno);
  c.id = identity_of(fd);
  errno = 0;
  {
    __gnu_cxx::stdio_filebuf<char> file(fd, std::ios::out | std::ios::binary);  // closes fd
    std::ostream out(&file);
    c.write(out);
    out.flush();
    const bool written = out.good() && file.close() != nullptr;  // a full disk shows here
    if (!written) throw failed("writing", errno);
  }
  // Renamed only while the name is still the file written here.
  if (identity_of(partial) != c.id)
    throw error(quoted_path(partial) + " was replaced by another file while it was written");
  try {
    place(partial, c.path, existing_);
  } catch (const std::runtime_error& e) {
    throw error(e.what());
  }
  c.placed = true;
}

void PartialOutput::close_hdf5() {
  if (file_ < 0) return;
  try {
    close_file();
  } catch (...) {
    discard();
    throw;
  }
}

void PartialOutput::commit() {
  try {
    close_hdf5();
    for (Companion& c : companions_) write_companion(c);
    if (identity_of(partial_) != created_)
      throw error(quoted_path(partial_) + " was replaced by another file while it was written");
    place(partial_, path_, existing_);
    committed_ = true;
  } catch (const OutputError&) {
    discard();
    throw;
  } catch (const std::bad_alloc&) {  // memory ran out, as the command says; not a write error
    discard();
    throw;
  } catch (const std::exception& e) {
    discard();
    throw error(e.what());
  }
}

hid_t PartialOutput::keep_partial() {
  kept_ = true;
  return std::exchange(file_, -1);
}

void PartialOutput::discard() noexcept {
  // The HDF5 file is abandoned: its identifier is dropped unclosed (closing a file whose writes
  // failed can crash HDF5), and its name removed; the system frees it when the program ends.
  // Only what this object made is removed, under whatever name it still has.
  file_ = -1;
  if (created_.exists && identity_of(partial_) == created_) {
    // The journal beside it is its own (a file written through the journal, a sweep's).
    const std::string journal = hdf5::journal_path(partial_);
    remove_own(journal, identity_of(journal));
    remove_own(partial_, created_);
  }
  for (Companion& c : companions_) {
    remove_own(c.path + ".partial", c.id);
    if (c.placed) remove_own(c.path, c.id);
    c.placed = false;
  }
  in_use_ = InUse();
}

std::string file_type_name(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::regular:
      return "a regular file";
    case std::filesystem::file_type::directory:
      return "a directory";
    case std::filesystem::file_type::character:
      return "a character device";
    case std::filesystem::file_type::block:
      return "a block device";
    case std::filesystem::file_type::fifo:
      return "a FIFO";
    case std::filesystem::file_type::socket:
      return "a socket";
    case std::filesystem::file_type::symlink:
      return "a symbolic link";
    default:
      return "a special file";
  }
}

std::string input_file_problem(const std::string& path) {
  std::error_code ec;
  const std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status) || std::filesystem::is_regular_file(status)) return "";
  return "is " + file_type_name(status.type()) + ", not a regular file";
}

}  // namespace chaindem
