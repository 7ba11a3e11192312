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
    PartialOutput out(output);
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
    PartialOutput out(output);
    out.adopt_hdf5(H5Fcreate((output + ".partial").c_str(), H5F_ACC_EXCL, H5P_DEFAULT, access));
    ASSERT_GE(out.file(), 0);
    EXPECT_NO_THROW(out.sync());
    EXPECT_NO_THROW(out.commit());
    EXPECT_TRUE(fs::is_regular_file(output));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
  }
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
    PartialOutput out(output);
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
      PartialOutput out(output);
      FilesCannotGrow full;
      EXPECT_THROW(out.create_hdf5(access), OutputError);
    }
    EXPECT_TRUE(fs::is_empty(dir.path));
  }
}

}  // namespace
}  // namespace chaindem
