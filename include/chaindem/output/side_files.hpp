#pragma once
// The files chaindem keeps beside an output while it writes it, and the rules that make them
// safe in a folder others may write (docs/output-format.md, "Files beside an output"):
// - each is created new, never through a link (O_CREAT | O_EXCL | O_NOFOLLOW), after a stale one
//   a stopped command left is removed; one that is a link, not a regular file, or in use by
//   another process is refused, naming it;
// - a process removes a file only while its name still refers to the file the process made
//   (device and inode): never one that another process put in its place.

#include <sys/types.h>

#include <span>
#include <string>
#include <string_view>

namespace chaindem {

/// A file beside output OUT, named OUT + suffix.
struct SideFile {
  const char* suffix;
  const char* role;  ///< what it is for, as messages and docs/output-format.md say it
};

/// Every file chaindem may create beside an output. An output may not end in one of these
/// suffixes, nor in .journal (check_output_path).
std::span<const SideFile> side_files();
/// The role of the side file of `suffix`, one of side_files().
const char* side_file_role(std::string_view suffix);

/// A file's identity: names can be replaced, identities cannot.
struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
  bool exists = false;
  bool operator==(const FileId&) const = default;
};

/// The identity of the file `path` names, not following a final link; `exists` false if none.
FileId identity_of(const std::string& path);
/// The identity of the open file `fd`.
FileId identity_of(int fd);

/// Removes `path` if it still names `file`, the file this process made; leaves anything else.
void remove_own(const std::string& path, const FileId& file) noexcept;

/// Throws OutputPathError, naming `path` (beside output `output`, for `role`), if it exists and
/// is a symbolic link or not a regular file.
void refuse_unless_regular(const std::string& path, const std::string& output, const char* role);

/// Throws OutputPathError, naming `path`, if another process marks it as being written (InUse).
void refuse_if_in_use(const std::string& path, const std::string& output, const char* role);

/// Readies `path` (beside output `output`, for `role`) to be created new: a regular file a
/// stopped command left is removed. Throws OutputPathError when it is a link, not a regular
/// file, or being written by another process (InUse).
void remove_stale(const std::string& path, const std::string& output, const char* role);

/// Creates `path` new and opens it for reading and writing: never through a link, never over a file
/// (the caller removed a stale one first: remove_stale). Returns the descriptor (close-on-exec), or
/// -1 with errno set.
int create_new(const std::string& path);

/// While it lives, marks the file `path` names as being written by this process (an open file
/// description lock, F_OFD_SETLK, which is apart from the flock locks HDF5 takes): remove_stale
/// in another process refuses to remove it. Best effort: where the file system cannot lock, the
/// mark is not set, and the output's lock (OutputLock) still keeps a second writer away.
class InUse {
 public:
  InUse() = default;
  /// Marks `path` if it still names `file`.
  InUse(const std::string& path, const FileId& file);
  ~InUse();
  InUse(InUse&& other) noexcept;
  InUse& operator=(InUse&& other) noexcept;
  InUse(const InUse&) = delete;
  InUse& operator=(const InUse&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace chaindem
