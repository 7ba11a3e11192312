// The journaled HDF5 file driver: a writer killed with SIGKILL at a random instant leaves a file
// that opens again, exactly as at its last checkpoint, every group and dataset intact.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/journaled_file.hpp"

namespace chaindem {
namespace {

namespace fs = std::filesystem;
using hdf5::Handle;

constexpr int per_checkpoint = 8;  // groups written between two checkpoints

struct TempDir {
  fs::path path;
  TempDir() {
    char name[] = "/tmp/chaindem-journal-XXXXXX";
    path = ::mkdtemp(name);
  }
  ~TempDir() { fs::remove_all(path); }
};

// Group `k` of /cases: a dataset of 3000 values k (several pages, so that evictions and
// reallocations overwrite metadata written before) and an attribute.
void write_case(hid_t cases, int k) {
  Handle g = hdf5::group(cases, "case-" + std::to_string(k));
  const std::vector<double> v(3000, static_cast<double>(k));
  hdf5::dataset_fixed(g.get(), "value", {v.size()}, v.data(), H5T_NATIVE_DOUBLE);
  hdf5::attr_string(g.get(), "status", "complete");
}

// The child: writes groups forever, a checkpoint every `per_checkpoint` groups, each announced
// on `report` (the number of groups it holds) once taken. Never returns.
[[noreturn]] void write_until_killed(const std::string& path, int report) {
  hdf5::quiet_errors();
  const hid_t f =
      H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, hdf5::journaled_file_access());
  if (f < 0) ::_exit(3);
  {
    Handle cases = hdf5::group(f, "cases");
    for (int k = 0;; ++k) {
      write_case(cases.get(), k);
      if ((k + 1) % per_checkpoint == 0) {
        if (H5Fflush(f, H5F_SCOPE_GLOBAL) < 0) ::_exit(4);
        hdf5::journal_checkpoint(f);
        const int n = k + 1;
        if (::write(report, &n, sizeof(n)) != sizeof(n)) ::_exit(5);
      }
    }
  }
}

// The groups /cases of `path` holds, each checked to be complete and intact.
int intact_cases(const std::string& path) {
  Handle f(hdf5::check(H5Fopen(path.c_str(), H5F_ACC_RDWR, hdf5::journaled_file_access()),
                       "reopen " + path),
           H5Fclose);
  Handle cases(hdf5::check(H5Gopen2(f.get(), "cases", H5P_DEFAULT), "cases"), H5Gclose);
  H5G_info_t info;
  hdf5::check_status(H5Gget_info(cases.get(), &info), "cases info");
  const int n = static_cast<int>(info.nlinks);
  for (int k = 0; k < n; ++k) {
    const std::string name = "case-" + std::to_string(k);
    Handle g(hdf5::check(H5Gopen2(cases.get(), name.c_str(), H5P_DEFAULT), name), H5Gclose);
    EXPECT_EQ(hdf5::read_string_attr(g.get(), "status"), "complete") << name;
    Handle d(hdf5::check(H5Dopen2(g.get(), "value", H5P_DEFAULT), "value"), H5Dclose);
    std::vector<double> v(3000, -1.0);
    hdf5::check_status(H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()),
                       "read");
    EXPECT_EQ(v, std::vector<double>(3000, k)) << name;
  }
  return n;
}

TEST(JournaledFile, KilledWriterReturnsToItsLastCheckpoint) {
  TempDir dir;
  std::mt19937 random(7);
  int before_first = 0;
  for (int trial = 0; trial < 24; ++trial) {
    std::string path = (dir.path / "t").string();
    path += std::to_string(trial);  // one append at a time: GCC 12 misreads "t" + ... (-Wrestrict)
    path += ".h5";
    int pipe_ends[2];
    ASSERT_EQ(::pipe(pipe_ends), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(pipe_ends[0]);
      write_until_killed(path, pipe_ends[1]);
    }
    ::close(pipe_ends[1]);
    // Let it take 0 to 3 checkpoints, then kill it a random time later: anywhere in creating
    // the file, writing, flushing or starting a journal.
    int reported = 0, n = 0;
    const int wanted = static_cast<int>(random() % 4);
    for (int seen = 0; seen < wanted && ::read(pipe_ends[0], &n, sizeof(n)) == sizeof(n); ++seen)
      reported = n;
    // (Without waiting for a checkpoint, a short delay: a kill before the first is likely.)
    std::this_thread::sleep_for(std::chrono::microseconds(random() % (wanted ? 20000 : 3000)));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer stopped by itself, status " << status;
    while (::read(pipe_ends[0], &n, sizeof(n)) == sizeof(n)) reported = n;  // announced since
    ::close(pipe_ends[0]);
    before_first += reported == 0;

    // Read-only, the unclosed file is refused; for writing (here recover_journal, which opening
    // does too), it returns to a checkpoint: the last announced one, or one taken just before
    // the kill and not yet announced. Before the first, that is an empty file (or none).
    hdf5::quiet_errors();
    if (fs::exists(hdf5::journal_path(path))) {
      EXPECT_LT(H5Fopen(path.c_str(), H5F_ACC_RDONLY, hdf5::journaled_file_access()), 0);
      EXPECT_NE(hdf5::error_reason().find("was not closed"), std::string::npos);
    }
    hdf5::recover_journal(path);
    EXPECT_FALSE(fs::exists(hdf5::journal_path(path)));
    if (!fs::exists(path) || fs::file_size(path) == 0) {
      EXPECT_EQ(reported, 0) << "trial " << trial << ": the checkpoint at " << reported << " lost";
      continue;
    }
    const int cases = intact_cases(path);
    EXPECT_TRUE(cases == reported || cases == reported + per_checkpoint)
        << "trial " << trial << ": " << cases << " groups, last checkpoint at " << reported;
    EXPECT_FALSE(fs::exists(hdf5::journal_path(path)));  // closed cleanly by intact_cases
  }
  EXPECT_LT(before_first, 12) << "too few kills came after a checkpoint";
}

TEST(JournaledFile, ClosedFileIsPlainHdf5AndLeavesNoJournal) {
  TempDir dir;
  const std::string path = (dir.path / "plain.h5").string();
  {
    Handle f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, hdf5::journaled_file_access()),
             H5Fclose);
    ASSERT_GE(f.get(), 0);
    Handle cases = hdf5::group(f.get(), "cases");
    for (int k = 0; k < 20; ++k) write_case(cases.get(), k);
    ASSERT_GE(H5Fflush(f.get(), H5F_SCOPE_GLOBAL), 0);
    hdf5::journal_checkpoint(f.get());
    H5Ldelete(cases.get(), "case-3", H5P_DEFAULT);  // frees space below the checkpoint
    EXPECT_TRUE(fs::exists(hdf5::journal_path(path)));
  }
  EXPECT_FALSE(fs::exists(hdf5::journal_path(path)));
  // HDF5's default driver reads it: nothing of the journal is in the file.
  Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  ASSERT_GE(f.get(), 0);
  EXPECT_GT(H5Lexists(f.get(), "cases/case-19", H5P_DEFAULT), 0);
  EXPECT_EQ(H5Lexists(f.get(), "cases/case-3", H5P_DEFAULT), 0);
}

// A journal as a kill leaves it (records after a checkpoint), copied while the file is open.
std::string journal_after_checkpoint(const std::string& path) {
  Handle f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, hdf5::journaled_file_access()),
           H5Fclose);
  Handle cases = hdf5::group(f.get(), "cases");
  for (int k = 0; k < 10; ++k) write_case(cases.get(), k);
  H5Fflush(f.get(), H5F_SCOPE_GLOBAL);
  hdf5::journal_checkpoint(f.get());
  for (int k = 10; k < 40; ++k) write_case(cases.get(), k);  // overwrites the group's metadata
  H5Fflush(f.get(), H5F_SCOPE_GLOBAL);
  std::ifstream in(hdf5::journal_path(path), std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void put_journal(const std::string& path, const std::string& bytes) {
  std::ofstream(hdf5::journal_path(path), std::ios::binary) << bytes;
}

std::string recovery_error(const std::string& path) {
  try {
    hdf5::recover_journal(path);
  } catch (const hdf5::Error& e) {
    return e.what();
  }
  return "";
}

TEST(JournaledFile, DamagedOrForeignJournalIsRefused) {
  TempDir dir;
  const std::string path = (dir.path / "a.h5").string();
  const std::string journal = journal_after_checkpoint(path);
  ASSERT_GT(journal.size(), 40u + 24u + 4096u);  // the header and records
  // A complete record whose bytes changed: damage, not a kill, refused.
  std::string damaged = journal;
  damaged[40 + 24 + 100] ^= 1;
  put_journal(path, damaged);
  EXPECT_NE(recovery_error(path).find("is damaged"), std::string::npos);
  // The journal beside a copy of its file (another inode): refused, the copy untouched.
  const std::string copy = (dir.path / "copy.h5").string();
  fs::copy_file(path, copy);
  const auto size = fs::file_size(copy);
  put_journal(copy, journal);
  EXPECT_NE(recovery_error(copy).find("belongs to another file"), std::string::npos);
  EXPECT_EQ(fs::file_size(copy), size);
  // A tail a kill cut off is no damage: the records before it are replayed.
  put_journal(path, journal.substr(0, journal.size() - 100));
  EXPECT_EQ(recovery_error(path), "");
}

TEST(JournaledFile, CheckpointOfAnotherDriversFileIsRefused) {
  TempDir dir;
  const std::string path = (dir.path / "other.h5").string();
  Handle f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, hdf5::file_access()), H5Fclose);
  EXPECT_THROW(hdf5::journal_checkpoint(f.get()), hdf5::Error);
}

}  // namespace
}  // namespace chaindem
