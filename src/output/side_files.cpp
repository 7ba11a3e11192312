#include "chaindem/output/side_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "chaindem/output/output_file.hpp"
#include "chaindem/text.hpp"

namespace chaindem {
namespace {

namespace fs = std::filesystem;

constexpr std::array<SideFile, 7> all_side_files{{
    {".partial", "the output while it is written, renamed to the output when complete"},
    {".lock", "the lock that keeps a second command from writing the output at once"},
    {".partial.journal",
     "the undo journal of a sweep's partial output, which returns it to its last checkpoint "
     "after a kill"},
    {".partial.journal.new", "the next undo journal of a sweep, while it is started"},
    {".checkpoint", "a run's checkpoint, from which --restart continues it"},
    {".checkpoint.partial", "a checkpoint while it is written"},
    {".partial.previous",
     "the partial output a restart continues, until the restarted run has taken over its "
     "frames"},
}};

std::string quoted(const std::string& path) {
  std::string out(1, '\'');
  out += quoted_path(path);
  out += '\'';
  return out;
}

// Whether another process marks the regular file `path` as being written (InUse).
bool in_use(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct flock probe {};
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  const bool marked = ::fcntl(fd, F_OFD_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  ::close(fd);
  return marked;
}

}  // namespace

std::span<const SideFile> side_files() {
  return all_side_files;
}

const char* side_file_role(std::string_view suffix) {
  for (const SideFile& side : all_side_files)
    if (suffix == side.suffix) return side.role;
  return "a file chaindem writes beside an output";
}

FileId identity_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  return {st.st_dev, st.st_ino, true};
}

FileId identity_of(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return {};
  return {st.st_dev, st.st_ino, true};
}

void remove_own(const std::string& path, const FileId& file) noexcept {
  if (file.exists && identity_of(path) == file) ::unlink(path.c_str());
}

void refuse_unless_regular(const std::string& path, const std::string& output, const char* role) {
  std::error_code ec;
  const fs::file_type type = fs::symlink_status(path, ec).type();  // a link as itself
  if (type == fs::file_type::not_found) return;
  // A hard link is another name of a file elsewhere: writing or truncating it would change that.
  if (type == fs::file_type::regular) {
    if (fs::hard_link_count(path, ec) > 1 && !ec)
      throw OutputPathError("output " + quoted(output) + ": " + quoted(path) + " (" + role +
                            ") is a hard link, another name of a file elsewhere: remove it or "
                            "choose another output");
    return;
  }
  if (ec)
    throw OutputPathError("output " + quoted(output) + ": " + quoted(path) + " (" + role +
                          ") cannot be checked: " + ec.message());
  const std::string remedy = type == fs::file_type::symlink
                                 ? "chaindem writes no file through a link; remove the link or "
                                   "choose another output"
                                 : "remove it or choose another output";
  throw OutputPathError("output " + quoted(output) + ": " + quoted(path) + " (" + role + ") is " +
                        file_type_name(type) + ", not a regular file: " + remedy);
}

void refuse_if_in_use(const std::string& path, const std::string& output, const char* role) {
  if (in_use(path))
    throw OutputPathError("output " + quoted(output) + ": " + quoted(path) + " (" + role +
                          ") is being written by another process; wait for it to finish or "
                          "choose another output");
}

void remove_stale(const std::string& path, const std::string& output, const char* role) {
  refuse_unless_regular(path, output, role);
  if (!identity_of(path).exists) return;
  refuse_if_in_use(path, output, role);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    throw OutputPathError("output " + quoted(output) + ": cannot remove the stale " + quoted(path) +
                          " (" + role + "): " + std::strerror(errno));
}

int create_new(const std::string& path) {
  return ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
}

InUse::InUse(const std::string& path, const FileId& file) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  struct flock mark {};
  mark.l_type = F_RDLCK;
  mark.l_whence = SEEK_SET;
  if (identity_of(fd) == file && ::fcntl(fd, F_OFD_SETLK, &mark) == 0)
    fd_ = fd;
  else
    ::close(fd);
}

InUse::~InUse() {
  if (fd_ >= 0) ::close(fd_);
}

InUse::InUse(InUse&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

InUse& InUse::operator=(InUse&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

}  // namespace chaindem
