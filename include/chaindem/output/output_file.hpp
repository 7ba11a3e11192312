#pragma once
// How every command writes its output files, so that nothing is lost and nothing looks complete
// when it is not (docs/output-format.md, "Output files"):
// - check_output_path() refuses, before anything runs, a path the command must not write: one
//   that is not a regular file (a directory, a device, a FIFO), one that is an input, one in a
//   directory that does not exist;
// - a PartialOutput writes PATH.partial and renames it to PATH only once every byte is written
//   and the file is closed, each step checked. Uncommitted, it leaves nothing behind.

#include <hdf5.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/side_files.hpp"

namespace chaindem {

/// An output path refused before anything runs (the command exits with status 2).
struct OutputPathError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// An output file that could not be written (status 1); nothing of it is left on disk.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a command does with an output that exists already: refuse it (the default: a result is
/// replaced only when the user says so, `--force`), or replace it.
enum class Existing { refuse, replace };

/// Throws OutputPathError, naming `path` and why, if the file cannot be written safely: `path`
/// exists and `existing` refuses it,
/// or `path`.partial exists and is not a regular file (for `path`, a symbolic link counts as
/// what it points to), either is the same file as one of `inputs` (however spelled or linked),
/// the directory of `path` does not exist, a file beside it (side_files) is a symbolic link or
/// not a regular file (or is a hard link), or `path` ends in a side file's suffix or in .xdmf.
/// `companion`: `path` is a file written beside an output (a run's XDMF file), whose name may
/// end in .xdmf.
void check_output_path(const std::string& path, const std::vector<std::string>& inputs,
                       Existing existing, bool companion = false);

/// Throws OutputPathError if `path`.partial holds work another command resumes: the frames of an
/// interrupted run that `path`.checkpoint continues (run --restart), or the finished cases of a
/// sweep that its journal keeps. Checked before anything runs by the commands that do not
/// resume them (collide, compare, fit), and again as the partial file is created.
void check_nothing_to_resume(const std::string& path);

/// While it lives, this process is the one writer of output `path`: another chaindem that would
/// write it (a run, a sweep resuming it) is refused with OutputPathError naming this process,
/// whether or not HDF5 locks its files (cluster file systems often run with
/// HDF5_USE_FILE_LOCKING=FALSE). The lock is the system's (flock) on `path`.lock, so it ends with
/// the process however that ends; the lock file is removed when the lock is released, and one a
/// killed process left is taken over. Locks of one path within a process nest. Where the file
/// system cannot lock, a warning says that concurrent writers go undetected.
class OutputLock {
 public:
  explicit OutputLock(const std::string& path);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string key_;
};

/// One output file, written under a temporary name and renamed to its own when complete.
///
/// The HDF5 file is created as `partial_path`. Before commit(), the caller closes every object
/// it opened in it (hdf5::Handle::close: each close checked). commit() then flushes and closes
/// the file, writes the text files beside it (add_companion), each through its own .partial,
/// and last renames `partial_path` to `path`; every step is checked. If anything fails, or the
/// object is destroyed uncommitted (an error, an interruption), the partial file and the
/// companions are removed. A failed HDF5 file is abandoned, not closed: HDF5 1.10 can crash
/// closing a file whose writes failed.
class PartialOutput {
 public:
  /// Nothing is created yet; the partial file is `path`.partial unless given (the caller then
  /// holds the output's lock). `existing`: whether commit() may replace a file `path` (or a
  /// companion's) that exists by then.
  PartialOutput(std::string path, Existing existing, std::string partial_path = "");
  ~PartialOutput();
  PartialOutput(const PartialOutput&) = delete;
  PartialOutput& operator=(const PartialOutput&) = delete;

  const std::string& path() const { return path_; }
  const std::string& partial_path() const { return partial_; }

  /// Takes the output's lock (OutputLock), creates the partial file as a new HDF5 file
  /// (replacing a stale one) and returns it; it is owned here. Throws OutputError, or
  /// OutputPathError when another process writes the output.
  /// `access`: the file access property list (hdf5::file_access, swmr_file_access for a file
  /// written in SWMR mode, journaled_file_access for one that survives a kill).
  hid_t create_hdf5(hid_t access = hdf5::file_access());
  /// Takes `file`, an HDF5 file already open as the partial file, into this object's care.
  void adopt_hdf5(hid_t file);
  hid_t file() const { return file_; }
  /// Flushes the HDF5 file to disk (checked), leaving it open. Throws OutputError.
  void flush();
  /// flush(), then waits until the system has the file on disk (fsync): what a checkpoint
  /// counts on. Throws OutputError.
  void sync();
  /// Closes the HDF5 file (checked; every object in it must be closed) and opens it again for
  /// writing without SWMR, in the same format: a file written in SWMR mode takes no new objects,
  /// which the end of a run adds. Returns the new identifier, owned here. Throws OutputError.
  hid_t reopen_hdf5();
  /// Flushes and closes the HDF5 file (the first step of commit()), each step checked; every
  /// object in it must be closed. Throws OutputError, having removed the partial file.
  void close_hdf5();

  /// A text file committed with this one, before it: `write` fills it. Output files come in
  /// pairs this way (a run's HDF5 file and its XDMF file): both are there or neither is.
  void add_companion(std::string path, std::function<void(std::ostream&)> write);

  /// Closes, writes the companions and renames (above). Throws OutputError, having removed
  /// everything.
  void commit();

  /// Hands the open HDF5 file to the caller and keeps the partial file on disk (a sweep
  /// resumes from it): this object no longer removes it.
  hid_t keep_partial();

  /// An OutputError naming the file: "cannot write 'PATH': `reason`".
  OutputError error(const std::string& reason) const;

  /// How reopen_hdf5() opens the partial file again by its name: H5Fopen. Tests put a function
  /// here that changes what the name holds first, as another process may at that instant.
  static inline hid_t (*open_by_name)(const char* name, unsigned flags, hid_t access) = H5Fopen;

 private:
  struct Companion {
    std::string path;
    std::function<void(std::ostream&)> write;
    bool placed = false;  // renamed to its own name
    FileId id;            // the file written, once created
  };
  void write_companion(Companion& c);
  /// Flushes and closes the HDF5 file, every object in it closed, each step checked.
  void close_file();
  void discard() noexcept;
  /// Throws OutputPathError if the partial file holds work another command resumes: a run's
  /// frames that its checkpoint continues, a sweep's cases that its journal keeps.
  void refuse_resumable() const;
  /// Records the open HDF5 file as the partial file this object made, and marks it in use
  /// (InUse) while its name still refers to it.
  void own();
  /// The identity of the file HDF5 has open as `file` (the partial file's, or another put under
  /// its name): that of its descriptor, whatever the name holds by now; by the name only for a
  /// driver that has none.
  FileId identity_of_open(hid_t file) const;

  std::string path_, partial_;
  Existing existing_;
  /// The output's lock, from create_hdf5() on; taken only with the default partial name: a
  /// sweep's ranks write partial files of their own under the lock the sweep holds.
  std::unique_ptr<OutputLock> lock_;
  bool locks_ = true;
  hid_t file_ = -1;
  FileId created_;  ///< the partial file this object made (or adopted): the one it may remove
  InUse in_use_;
  std::vector<Companion> companions_;
  bool committed_ = false, kept_ = false;
};

/// What a file that is not a regular file is: "a directory", "a FIFO", "a character device", ...
std::string file_type_name(std::filesystem::file_type type);

/// Why `path` cannot be read as an input file, checked before it is opened: opening a FIFO waits
/// for a writer, forever if none comes, and a device or a directory holds no file's text.
/// "is a FIFO, not a regular file", or "" when it is a regular file (or a symbolic link to one)
/// and when it does not exist or cannot be looked up (opening it then says why).
std::string input_file_problem(const std::string& path);

}  // namespace chaindem
