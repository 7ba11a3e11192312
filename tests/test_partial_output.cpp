// A partial output is the file chaindem created, not whatever its name holds: a file another
// process put under the name between its creation and the moment chaindem takes it into its
// care is neither synced as if it held the frames (a checkpoint would continue nothing) nor
// removed when the output is given up.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

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

}  // namespace
}  // namespace chaindem
