// The chunks of a spilled time series are shuffled and compressed by chaindem and handed to
// HDF5 whole (ChunkWriter): read back through the filters the dataset declares, as any reader
// does, they must give every value written, bit for bit, whatever the row shape, the chunks
// that end beyond the last bead or frame, and the rows written before a chunk's end.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "chaindem/output/chunk_writer.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/output/hdf5_util.hpp"

namespace chaindem {
namespace {

using hdf5::Handle;

struct TempFile {
  std::string path;
  Handle file;
  TempFile() {
    char name[] = "/tmp/chaindem-chunks-XXXXXX";
    const int fd = ::mkstemp(name);
    ::close(fd);
    path = name;
    hdf5::quiet_errors();
    file =
        Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, hdf5::file_access()), H5Fclose);
  }
  ~TempFile() {
    file.reset();
    std::filesystem::remove(path);
  }
};

// The filters of a dataset's pipeline, in order.
std::vector<H5Z_filter_t> filters_of(hid_t dataset) {
  Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  std::vector<H5Z_filter_t> out;
  for (int k = 0; k < H5Pget_nfilters(plist.get()); ++k) {
    unsigned flags = 0;
    std::size_t values = 0;
    out.push_back(H5Pget_filter2(plist.get(), static_cast<unsigned>(k), &flags, &values, nullptr, 0,
                                 nullptr, nullptr));
  }
  return out;
}

std::vector<hsize_t> chunk_of(hid_t dataset) {
  Handle plist(H5Dget_create_plist(dataset), H5Pclose);
  std::vector<hsize_t> chunk(8);
  chunk.resize(static_cast<std::size_t>(H5Pget_chunk(plist.get(), 8, chunk.data())));
  return chunk;
}

// Rows of `beads` x `components` doubles, as a run's series: most beads at rest (a constant
// position), a few moving every row, one that moves in a single row and rests elsewhere after
// it, and one column of chunks of random bit patterns, which no compressor can shrink.
std::vector<double> series_rows(hsize_t rows, hsize_t beads, hsize_t components,
                                hsize_t chunk_beads) {
  std::mt19937_64 random(7);
  std::vector<double> out(rows * beads * components);
  const hsize_t noise = std::min<hsize_t>(2, (beads - 1) / chunk_beads);  // a column of chunks
  for (hsize_t r = 0; r < rows; ++r)
    for (hsize_t i = 0; i < beads; ++i)
      for (hsize_t c = 0; c < components; ++c) {
        double& v = out[(r * beads + i) * components + c];
        v = c == 0 ? 0.01 * static_cast<double>(i) : 0.0;
        if (i < 7) v += 1e-3 * std::sin(0.1 * static_cast<double>(r * (c + 1) + i));
        if (i == chunk_beads + 3 && r >= 101) v += 1e-4;  // moved once, at row 101
        if (i / chunk_beads == noise) {
          const std::uint64_t bits = random();
          std::memcpy(&v, &bits, sizeof v);
        }
      }
  return out;
}

// A chunk as the file stores it.
struct Stored {
  std::vector<hsize_t> offset;
  unsigned mask;  // the filters it skipped
  std::vector<char> bytes;
  bool operator<(const Stored& o) const { return offset < o.offset; }
  bool operator==(const Stored& o) const = default;
};

// Every chunk of a dataset as stored, by offset.
std::vector<Stored> stored_chunks(hid_t dataset) {
  Handle space(H5Dget_space(dataset), H5Sclose);
  const auto rank = static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get()));
  hsize_t chunks = 0;
  EXPECT_GE(H5Dget_num_chunks(dataset, space.get(), &chunks), 0);
  std::vector<Stored> out;
  for (hsize_t k = 0; k < chunks; ++k) {
    Stored c{std::vector<hsize_t>(rank), 0, {}};
    haddr_t address = 0;
    hsize_t size = 0;
    EXPECT_GE(H5Dget_chunk_info(dataset, space.get(), k, c.offset.data(), &c.mask, &address, &size),
              0);
    c.bytes.resize(size);
    std::uint32_t mask = 0;
    EXPECT_GE(H5Dread_chunk(dataset, H5P_DEFAULT, c.offset.data(), &mask, c.bytes.data()), 0);
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct Written {
  std::vector<char> read;  // the dataset's bytes, read back
  std::vector<hsize_t> dims, chunk;
  std::vector<H5Z_filter_t> filters;
  std::vector<Stored> chunks;
};

// Appends `rows` rows of `row_shape` from `data` to a Growing one row at a time, flushing after
// `flush_at` rows (a flush ends inside a chunk's rows), holding a lock as a sweep does, then
// reads the dataset back with H5Dread.
Written write_and_read(const std::vector<hsize_t>& row_shape, hdf5::Scalar scalar,
                       Compression compression, hsize_t rows, hsize_t expected_rows,
                       const char* data, hsize_t flush_at) {
  TempFile f;
  std::mutex lock;
  hdf5::Growing g(f.file.get(), "value", row_shape, scalar, "", expected_rows, &lock, compression);
  hsize_t row_bytes = hdf5::size_of(scalar);
  for (hsize_t s : row_shape) row_bytes *= s;
  for (hsize_t r = 0; r < rows; ++r) {
    g.append(data + r * row_bytes, 1);
    if (r + 1 == flush_at) {
      std::lock_guard held(lock);
      g.flush();
    }
  }
  {
    std::lock_guard held(lock);
    g.close();
  }
  Written out;
  Handle d(H5Dopen2(f.file.get(), "value", H5P_DEFAULT), H5Dclose);
  EXPECT_GE(d.get(), 0);
  Handle space(H5Dget_space(d.get()), H5Sclose);
  out.dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
  H5Sget_simple_extent_dims(space.get(), out.dims.data(), nullptr);
  out.chunk = chunk_of(d.get());
  out.filters = filters_of(d.get());
  out.read.assign(rows * row_bytes, 0);
  EXPECT_GE(
      H5Dread(d.get(), hdf5::native_type(scalar), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.read.data()),
      0);
  out.chunks = stored_chunks(d.get());
  return out;
}

std::vector<Compression> compressions() {
  std::vector<Compression> out{Compression::gzip, Compression::none};
  if (compression_unavailable(Compression::lzf).empty()) out.push_back(Compression::lzf);
  return out;
}

std::vector<H5Z_filter_t> declared(Compression c) {
  if (c == Compression::none) return {};
  return {H5Z_FILTER_SHUFFLE,
          c == Compression::lzf ? H5Z_filter_t{lzf_filter_id} : H5Z_filter_t{H5Z_FILTER_DEFLATE}};
}

TEST(ChunkWriter, ShuffleGathersEachByteOfEqualSignificance) {
  const unsigned char from[] = {0xa0, 0xa1, 0xa2, 0xa3, 0xb0, 0xb1, 0xb2, 0xb3};
  char to[8] = {};
  hdf5::shuffle_bytes(reinterpret_cast<const char*>(from), 2, 4, to, 2);
  const unsigned char expected[] = {0xa0, 0xb0, 0xa1, 0xb1, 0xa2, 0xb2, 0xa3, 0xb3};
  EXPECT_EQ(std::memcmp(to, expected, 8), 0);
}

// Against HDF5's own shuffle filter: the chunk it stores for the same elements, for each size
// chaindem writes and one it does not (the loop every other size takes).
TEST(ChunkWriter, ShuffleStoresWhatHdf5sShuffleStores) {
  for (const hid_t type : {H5T_NATIVE_INT64, H5T_NATIVE_INT32, H5T_NATIVE_INT16}) {
    const std::size_t size = H5Tget_size(type);
    SCOPED_TRACE(size);
    TempFile f;
    const hsize_t n = 1000;
    std::vector<char> values(n * size);
    std::mt19937 random(3);
    for (char& c : values) c = static_cast<char>(random() % 7);  // compressible: no skip
    Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(plist.get(), 1, &n);
    H5Pset_shuffle(plist.get());
    Handle d(
        H5Dcreate2(f.file.get(), "s", type, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
        H5Dclose);
    ASSERT_GE(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), 0);
    ASSERT_GE(H5Dflush(d.get()), 0);
    std::vector<char> stored(n * size);
    const hsize_t origin = 0;
    std::uint32_t mask = 0;
    ASSERT_GE(H5Dread_chunk(d.get(), H5P_DEFAULT, &origin, &mask, stored.data()), 0);
    std::vector<char> ours(n * size);
    hdf5::shuffle_bytes(values.data(), n, size, ours.data(), n);
    EXPECT_EQ(ours, stored);
  }
}

// Beads not a multiple of a chunk's beads, rows not a multiple of a chunk's rows, a flush
// inside a chunk's rows: every value comes back, through each filter.
TEST(ChunkWriter, SeriesOfBeadsReadBackBitForBit) {
  for (const std::vector<hsize_t>& row_shape :
       {std::vector<hsize_t>{997, 3}, std::vector<hsize_t>{997, 1}}) {
    const hsize_t rows = 437, expected_rows = 400;
    const std::vector<hsize_t> chunk = hdf5::chunk_shape(row_shape, expected_rows, 8);
    ASSERT_NE(row_shape[0] % chunk[1], 0u);
    ASSERT_NE(rows % chunk[0], 0u);
    const std::vector<double> data = series_rows(rows, row_shape[0], row_shape[1], chunk[1]);
    for (const Compression c : compressions()) {
      SCOPED_TRACE(std::to_string(row_shape[1]) + " components, compression " +
                   std::to_string(static_cast<int>(c)));
      const Written w = write_and_read(row_shape, hdf5::Scalar::float64, c, rows, expected_rows,
                                       reinterpret_cast<const char*>(data.data()), 150);
      EXPECT_EQ(w.dims, (std::vector<hsize_t>{rows, row_shape[0], row_shape[1]}));
      EXPECT_EQ(w.chunk, chunk);
      EXPECT_EQ(w.filters, declared(c));
      EXPECT_EQ(std::memcmp(w.read.data(), data.data(), w.read.size()), 0);
      // The chunks of random bits do not shrink under LZF: stored as they are, marked as not
      // compressed by it.
      const auto skipped = std::count_if(w.chunks.begin(), w.chunks.end(),
                                         [](const Stored& k) { return k.mask == 1u << 1; });
      if (c == Compression::lzf)
        EXPECT_GT(skipped, 0);
      else
        EXPECT_EQ(skipped, 0);
    }
  }
}

// The chunks written past HDF5's filters are the bytes its filters store: the same series
// written in one H5Dwrite to a dataset of the same chunks and filters stores the same chunks.
TEST(ChunkWriter, ChunksAreTheBytesHdf5sFiltersStore) {
  const std::vector<hsize_t> row_shape{997, 3};
  const hsize_t rows = 437, expected_rows = 400;
  const std::vector<hsize_t> chunk = hdf5::chunk_shape(row_shape, expected_rows, 8);
  const std::vector<double> data = series_rows(rows, row_shape[0], row_shape[1], chunk[1]);
  for (const Compression c : compressions()) {
    if (c == Compression::none) continue;
    SCOPED_TRACE(static_cast<int>(c));
    const Written w = write_and_read(row_shape, hdf5::Scalar::float64, c, rows, expected_rows,
                                     reinterpret_cast<const char*>(data.data()), 150);
    TempFile f;
    const std::vector<hsize_t> dims{rows, row_shape[0], row_shape[1]};
    Handle space(H5Screate_simple(3, dims.data(), nullptr), H5Sclose);
    Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(plist.get(), 3, chunk.data());
    H5Pset_fill_time(plist.get(), H5D_FILL_TIME_NEVER);
    H5Pset_shuffle(plist.get());
    if (c == Compression::lzf)
      H5Pset_filter(plist.get(), lzf_filter_id, H5Z_FLAG_OPTIONAL, 0, nullptr);
    else
      H5Pset_deflate(plist.get(), 1);
    Handle d(H5Dcreate2(f.file.get(), "value", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT,
                        plist.get(), H5P_DEFAULT),
             H5Dclose);
    ASSERT_GE(H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()), 0);
    ASSERT_GE(H5Dflush(d.get()), 0);
    const std::vector<Stored> expected = stored_chunks(d.get());
    ASSERT_EQ(w.chunks.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(w.chunks[k].offset, expected[k].offset);
      EXPECT_EQ(w.chunks[k].mask, expected[k].mask);
      EXPECT_TRUE(w.chunks[k].bytes == expected[k].bytes)
          << "chunk at " << expected[k].offset[0] << ", " << expected[k].offset[1];
    }
  }
}

// Rows of one value (contact indices, int32) and of a short vector (an observable): rows of
// chunks are whole rows, and they spill only after many rows.
TEST(ChunkWriter, ScalarAndVectorRowsReadBackBitForBit) {
  const hsize_t rows = 1'100'001;  // 4.4 MB of indices: past one spill
  std::vector<std::int32_t> indices(rows);
  for (hsize_t r = 0; r < rows; ++r) indices[r] = static_cast<std::int32_t>((r * 7919) % 1013);
  std::vector<double> vectors(rows * 5);
  for (hsize_t k = 0; k < vectors.size(); ++k)
    vectors[k] = k % 5 == 0 ? 1.0 : std::cos(0.001 * static_cast<double>(k));
  for (const Compression c : compressions()) {
    SCOPED_TRACE(static_cast<int>(c));
    const Written a = write_and_read({}, hdf5::Scalar::int32, c, rows, 4096,
                                     reinterpret_cast<const char*>(indices.data()), 5000);
    EXPECT_EQ(a.filters, declared(c));
    EXPECT_EQ(std::memcmp(a.read.data(), indices.data(), a.read.size()), 0);
    const Written v = write_and_read({5}, hdf5::Scalar::float64, c, rows, 4096,
                                     reinterpret_cast<const char*>(vectors.data()), 5000);
    EXPECT_EQ(v.filters, declared(c));
    EXPECT_EQ(std::memcmp(v.read.data(), vectors.data(), v.read.size()), 0);
  }
}

}  // namespace
}  // namespace chaindem
