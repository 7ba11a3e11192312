// A partial output is the file chaindem created, not whatever its name holds: a file another
// process put under the name between its creation and the moment chaindem takes it into its
// care is neither synced as if it held the frames (a checkpoint would continue nothing) nor
// removed when the output is given up.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/journaled_file.hpp"
#include "chaindem/output/output_file.hpp"

namespace chaindem {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/chaindem-partial-XXXXXX";
    path = ::mkdtemp(name);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Creates OUT.partial with `access`, puts another file under its name, then hands the HDF5 file
// to a PartialOutput: its sync() must refuse, and giving it up must leave the other file.
void replaced_before_adoption(hid_t access) {
  TempDir dir;
  const std::string output = (dir.path / "out.h5").string();
  const std::string partial = output + ".partial";
  hdf5::quiet_errors();
  const hid_t file = H5Fcreate(partial.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, access);
  ASSERT_GE(file, 0);
  ASSERT_EQ(::unlink(partial.c_str()), 0);
  std::ofstream(partial) << "another file\n";
  {
    PartialOutput out(output, Existing::refuse);
    out.adopt_hdf5(file);
    try {
      out.sync();
      ADD_FAILURE() << "sync() accepted the file put in place of the partial one";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("was replaced by another file"), std::string::npos)
          << e.what();
    }
  }  // given up uncommitted
  EXPECT_EQ(read(partial), "another file\n");
  EXPECT_FALSE(fs::exists(output));
}

TEST(PartialOutput, FileReplacedBeforeItIsTakenIsNotItsOwn) {
  replaced_before_adoption(hdf5::file_access());
}

TEST(PartialOutput, JournaledFileReplacedBeforeItIsTakenIsNotItsOwn) {
  replaced_before_adoption(hdf5::journaled_file_access());
}

// The same file under its own name is its own: synced, committed, nothing left beside it.
TEST(PartialOutput, UnreplacedFileIsSyncedAndCommitted) {
  for (const hid_t access : {hdf5::file_access(), hdf5::journaled_file_access()}) {
    TempDir dir;
    const std::string output = (dir.path / "out.h5").string();
    PartialOutput out(output, Existing::refuse);
    out.adopt_hdf5(H5Fcreate((output + ".partial").c_str(), H5F_ACC_EXCL, H5P_DEFAULT, access));
    ASSERT_GE(out.file(), 0);
    EXPECT_NO_THROW(out.sync());
    EXPECT_NO_THROW(out.commit());
    EXPECT_TRUE(fs::is_regular_file(output));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
  }
}

// A file that appears under the output's name while chaindem computes is not replaced unless the
// user allowed it: the commit refuses, saying so, and leaves that file and nothing else; allowed,
// the commit replaces it.
TEST(PartialOutput, FileThatAppearsUnderTheNameIsReplacedOnlyWhenAllowed) {
  for (const Existing existing : {Existing::refuse, Existing::replace}) {
    TempDir dir;
    const std::string output = (dir.path / "out.h5").string();
    {
      PartialOutput out(output, existing);
      ASSERT_GE(out.create_hdf5(), 0);
      std::ofstream(output) << "a result of another run\n";
      if (existing == Existing::refuse) {
        try {
          out.commit();
          ADD_FAILURE() << "commit() replaced a file it was not allowed to";
        } catch (const OutputError& e) {
          EXPECT_NE(std::string(e.what()).find("exists"), std::string::npos) << e.what();
          EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
        }
      } else {
        EXPECT_NO_THROW(out.commit());
      }
    }  // its lock released
    EXPECT_EQ(read(output) == "a result of another run\n", existing == Existing::refuse);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
  }
}

// Before anything runs, an output that exists is refused unless it may be replaced.
TEST(PartialOutput, ExistingOutputIsRefusedBeforeTheRunUnlessAllowed) {
  TempDir dir;
  const std::string output = (dir.path / "out.h5").string();
  std::ofstream(output) << "a result\n";
  EXPECT_THROW(check_output_path(output, {}, Existing::refuse), OutputPathError);
  EXPECT_NO_THROW(check_output_path(output, {}, Existing::replace));
  // A dangling symbolic link under the name is a name taken, too.
  const std::string link = (dir.path / "link.h5").string();
  fs::create_symlink(dir.path / "nowhere.h5", link);
  EXPECT_THROW(check_output_path(link, {}, Existing::refuse), OutputPathError);
}

// While it lives, a write that would make a file longer fails (EFBIG), as on a full disk: HDF5
// creates a file and then fails to write its first bytes.
class FilesCannotGrow {
 public:
  FilesCannotGrow() {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    const rlimit none{0, saved_.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &none);
  }
  ~FilesCannotGrow() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, signal_);
  }

 private:
  void (*signal_)(int) = std::signal(SIGXFSZ, SIG_IGN);  // else the write kills the process
  rlimit saved_{};
};

// While it lives, the first HDF5 call of this thread to fail puts `other` under the name
// `partial`: HDF5 calls the thread's error handler as the call returns, after it gave up on the
// file it was writing and before chaindem can look at the name.
class SwapOnFailure {
 public:
  SwapOnFailure(std::string partial, std::string other)
      : partial_(std::move(partial)), other_(std::move(other)) {
    hdf5::quiet_errors();  // done once per thread: it would undo the handler set here
    H5Eset_auto2(H5E_DEFAULT, &SwapOnFailure::swap, this);
  }
  ~SwapOnFailure() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
  bool swapped() const { return swapped_; }

 private:
  static herr_t swap(hid_t, void* self) {
    auto* s = static_cast<SwapOnFailure*>(self);
    if (!s->swapped_) s->swapped_ = std::rename(s->other_.c_str(), s->partial_.c_str()) == 0;
    return 0;
  }
  std::string partial_, other_;
  bool swapped_ = false;
};

// The creation of OUT.partial fails once HDF5 has made the file (its first write fails), and
// another process puts its own file under the name before chaindem removes what HDF5 left: the
// other file stays, and nothing of the output does.
void swapped_after_a_failed_creation(hid_t access) {
  TempDir dir;
  const std::string output = (dir.path / "out.h5").string();
  const std::string partial = output + ".partial", other = (dir.path / "other").string();
  std::ofstream(other) << "another file\n";
  {
    PartialOutput out(output, Existing::refuse);
    SwapOnFailure swap(partial, other);
    FilesCannotGrow full;
    try {
      out.create_hdf5(access);
      ADD_FAILURE() << "created a file with no room to write it";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("creating"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(swap.swapped());
  }
  EXPECT_EQ(read(partial), "another file\n");
  EXPECT_FALSE(fs::exists(output));
  EXPECT_FALSE(fs::exists(hdf5::journal_path(partial)));
}

TEST(PartialOutput, FileSwappedInAfterAFailedCreationIsLeft) {
  swapped_after_a_failed_creation(hdf5::file_access());
}

TEST(PartialOutput, FileSwappedInAfterAFailedSwmrCreationIsLeft) {
  swapped_after_a_failed_creation(hdf5::swmr_file_access());
}

TEST(PartialOutput, FileSwappedInAfterAFailedJournaledCreationIsLeft) {
  swapped_after_a_failed_creation(hdf5::journaled_file_access());
}

// The control: with nothing put in its place, what a failed creation made is removed.
TEST(PartialOutput, FailedCreationLeavesNothing) {
  for (const hid_t access :
       {hdf5::file_access(), hdf5::swmr_file_access(), hdf5::journaled_file_access()}) {
    TempDir dir;
    const std::string output = (dir.path / "out.h5").string();
    {
      PartialOutput out(output, Existing::refuse);
      FilesCannotGrow full;
      EXPECT_THROW(out.create_hdf5(access), OutputError);
    }
    EXPECT_TRUE(fs::is_empty(dir.path));
  }
}

// Another process's HDF5 file, with a group of its own.
void write_other_hdf5(const std::string& path) {
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, hdf5::file_access());
  ASSERT_GE(file, 0);
  H5Gclose(hdf5::check(H5Gcreate2(file, "theirs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "g"));
  ASSERT_GE(H5Fclose(file), 0);
}

// What the other file holds at its top level.
std::vector<std::string> top_level(const std::string& path) {
  std::vector<std::string> names;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return {"(not an HDF5 file)"};
  H5Literate(
      file, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  H5Fclose(file);
  return names;
}

// While it lives, reopen_hdf5() finds `other` under the partial file's name as it opens it.
class SwapOnReopening {
 public:
  explicit SwapOnReopening(std::string other) {
    other_ = std::move(other);
    PartialOutput::open_by_name = &SwapOnReopening::open;
  }
  ~SwapOnReopening() { PartialOutput::open_by_name = H5Fopen; }

 private:
  static hid_t open(const char* name, unsigned flags, hid_t access) {
    if (std::rename(other_.c_str(), name) != 0) return -1;
    return H5Fopen(name, flags, access);
  }
  static inline std::string other_;
};

// A run's output, written in SWMR mode, is reopened to take the objects of its end. Another file
// put under the partial file's name meanwhile is neither taken as the output nor written nor
// removed, and the error says what happened. `while_reopening`: put there at the instant
// reopen_hdf5() opens the name (an HDF5 file, which HDF5 opens), else before reopen_hdf5() (a
// text file, of which HDF5 could say only that it is no HDF5 file).
void replaced_at_reopening(bool while_reopening) {
  TempDir dir;
  const std::string output = (dir.path / "out.h5").string();
  const std::string partial = output + ".partial", other = (dir.path / "other").string();
  if (while_reopening)
    write_other_hdf5(other);
  else
    std::ofstream(other) << "another file\n";
  const std::string theirs = read(other);
  {
    PartialOutput out(output, Existing::refuse);
    ASSERT_GE(H5Fstart_swmr_write(out.create_hdf5(hdf5::swmr_file_access())), 0);
    std::optional<SwapOnReopening> swap;
    if (while_reopening) {
      swap.emplace(other);
    } else {
      ASSERT_EQ(std::rename(other.c_str(), partial.c_str()), 0);
    }
    try {
      const hid_t reopened = out.reopen_hdf5();
      H5Gclose(H5Gcreate2(reopened, "ours", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      out.commit();
      ADD_FAILURE() << "reopened the file put in place of the partial one";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("was replaced by another file"), std::string::npos)
          << e.what();
    }
  }  // given up uncommitted
  if (while_reopening) {
    EXPECT_EQ(top_level(partial), std::vector<std::string>{"theirs"});
  }
  EXPECT_TRUE(read(partial) == theirs) << "the other file changed";
  EXPECT_FALSE(fs::exists(output));
}

TEST(PartialOutput, FileReplacedBeforeReopeningIsNotReopened) {
  replaced_at_reopening(false);
}

TEST(PartialOutput, FileReplacedWhileReopeningIsNotTaken) {
  replaced_at_reopening(true);
}

}  // namespace
}  // namespace chaindem
