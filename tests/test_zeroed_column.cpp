// ZeroedColumn (huge_pages.hpp): long columns of zeros that take memory only where written, as
// the contact lists keep their records of first touch and separation.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <vector>

#include "chaindem/engine/huge_pages.hpp"

namespace chaindem {
namespace {

// The resident memory of this process [bytes], as the kernel counts it (Linux).
double resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

constexpr double mib = 1 << 20;

TEST(ZeroedColumn, NewRowsAreZerosThatTakeNoMemoryUntilWritten) {
  constexpr std::size_t rows = std::size_t{1} << 25;  // 256 MiB of doubles
  const double before = resident_bytes();
  ZeroedColumn<double> column;
  column.resize(rows);
  EXPECT_EQ(std::count_if(column.begin(), column.end(),
                          [](double x) { return std::bit_cast<std::uint64_t>(x) != 0; }),
            0);
  EXPECT_LT(resident_bytes() - before, 16 * mib);
  // Rows set to the zero they hold stay unwritten; a row set to a value maps its page only.
  for (std::size_t k = 0; k < rows; k += 64) set_if_differs(column, k, 0.0);
  set_if_differs(column, rows / 2, 2.5);
  column[rows / 3] = -1.0;
  EXPECT_LT(resident_bytes() - before, 16 * mib);
  EXPECT_EQ(column[rows / 2], 2.5);
  EXPECT_EQ(column[rows / 3], -1.0);
  EXPECT_EQ(column[rows / 2 + 1], 0.0);
  // Written throughout, it takes its whole size.
  std::fill(column.begin(), column.end(), 1.0);
  EXPECT_GT(resident_bytes() - before, 200 * mib);
}

TEST(ZeroedColumn, RowsAddedAreZeroAsInAVector) {
  const auto rows = [](const ZeroedColumn<std::int64_t>& c) {
    return std::vector<std::int64_t>(c.begin(), c.end());
  };
  ZeroedColumn<std::int64_t> column;
  column.resize(3);
  std::fill(column.begin(), column.end(), 7);
  column.resize(6);
  EXPECT_EQ(rows(column), (std::vector<std::int64_t>{7, 7, 7, 0, 0, 0}));
  // Rows dropped and added again are zero, not what they held.
  column[4] = 9;
  column.resize(2);
  column.resize(5);
  EXPECT_EQ(rows(column), (std::vector<std::int64_t>{7, 7, 0, 0, 0}));
  // Beyond its storage, the rows kept move to the new one.
  column[3] = 5;
  column.resize(1000);
  EXPECT_EQ(rows(column), [] {
    std::vector<std::int64_t> expected(1000, 0);
    expected[0] = expected[1] = 7;
    expected[3] = 5;
    return expected;
  }());
  const ZeroedColumn<std::int64_t> copy = column;
  EXPECT_EQ(copy, column);
  ZeroedColumn<std::int64_t> moved = std::move(column);
  EXPECT_EQ(moved, copy);
  // -0.0 is not zero bytes: dropped and added again, it is +0.0.
  ZeroedColumn<double> doubles;
  doubles.resize(2);
  doubles[1] = -0.0;
  doubles.resize(1);
  doubles.resize(2);
  EXPECT_EQ(std::bit_cast<std::uint64_t>(doubles[1]), 0u);
}

}  // namespace
}  // namespace chaindem
