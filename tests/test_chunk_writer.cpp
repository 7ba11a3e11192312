// The chunks of a spilled time series are shuffled and compressed by chaindem and handed to
// HDF5 whole (ChunkWriter): read back through the filters the dataset declares, as any reader
// does, they must give every value written, bit for bit, whatever the row shape, the chunks
// that end beyond the last bead or frame, and the rows written before a chunk's end. So must
// those of a contact column, compressed as the frames complete them and written at the end,
// and the zlib stream chaindem makes must be the one zlib's compress2 makes.

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "chaindem/output/chunk_writer.hpp"
#include "chaindem/output/compression.hpp"
#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/zlib_stream.hpp"

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
  const int rank = H5Pget_chunk(plist.get(), 8, chunk.data());  // < 0: not chunked
  chunk.resize(static_cast<std::size_t>(std::max(rank, 0)));
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
  std::vector<hsize_t> dims, maxdims, chunk;
  std::vector<H5Z_filter_t> filters;
  std::vector<Stored> chunks;
};

// Appends rows of `row_shape` from `data` to a Growing, `appends[k]` rows at a time (a frame's
// contacts, perhaps none), flushing after the appends numbered in `flush_after` (from 1),
// holding a lock as a sweep does, then reads the dataset back with H5Dread.
Written write_appends(const std::vector<hsize_t>& row_shape, hdf5::Scalar scalar,
                      Compression compression, const std::vector<hsize_t>& appends,
                      hsize_t expected_rows, const char* data,
                      const std::vector<hsize_t>& flush_after) {
  TempFile f;
  std::mutex lock;
  hdf5::Growing g(f.file.get(), "value", row_shape, scalar, "", expected_rows, &lock, compression);
  hsize_t row_bytes = hdf5::size_of(scalar);
  for (hsize_t s : row_shape) row_bytes *= s;
  hsize_t rows = 0;
  for (std::size_t k = 0; k < appends.size(); ++k) {
    g.append(data + rows * row_bytes, appends[k]);
    rows += appends[k];
    if (std::find(flush_after.begin(), flush_after.end(), k + 1) != flush_after.end()) {
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
  out.maxdims.resize(out.dims.size());
  H5Sget_simple_extent_dims(space.get(), out.dims.data(), out.maxdims.data());
  out.chunk = chunk_of(d.get());
  out.filters = filters_of(d.get());
  out.read.assign(rows * row_bytes, 0);
  EXPECT_GE(
      H5Dread(d.get(), hdf5::native_type(scalar), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.read.data()),
      0);
  if (!out.chunk.empty()) out.chunks = stored_chunks(d.get());  // else contiguous
  return out;
}

// `rows` rows one at a time, flushing after `flush_at` rows (a flush ends inside a chunk's rows).
Written write_and_read(const std::vector<hsize_t>& row_shape, hdf5::Scalar scalar,
                       Compression compression, hsize_t rows, hsize_t expected_rows,
                       const char* data, hsize_t flush_at) {
  return write_appends(row_shape, scalar, compression, std::vector<hsize_t>(rows, 1), expected_rows,
                       data, {flush_at});
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

// The creation list of a dataset of chunks `chunk` (rank `rank`) through HDF5's own filters:
// shuffle, then deflate at level 1 or LZF, as Growing declares them (c is not none).
Handle filtered_creation(int rank, const hsize_t* chunk, Compression c) {
  Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_chunk(plist.get(), rank, chunk);
  H5Pset_fill_time(plist.get(), H5D_FILL_TIME_NEVER);
  H5Pset_shuffle(plist.get());
  if (c == Compression::lzf)
    H5Pset_filter(plist.get(), lzf_filter_id, H5Z_FLAG_OPTIONAL, 0, nullptr);
  else
    H5Pset_deflate(plist.get(), 1);
  return plist;
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

// Rows of `beads` x `components` doubles as a run's velocities or forces, in chunks of
// `chunk_rows` x `chunk_beads`: zero where the beads rest (chunks the writer keeps no copy of),
// but for one bead that moves over rows [100, 180), one that moves at row 101 alone, and one
// whose -0.0 from the start of the fourth row of chunks on is zero but not zero bytes: its
// chunks follow chunks of zeros.
std::vector<double> rest_rows(hsize_t rows, hsize_t beads, hsize_t components, hsize_t chunk_rows,
                              hsize_t chunk_beads) {
  std::vector<double> out(rows * beads * components, 0.0);
  auto at = [&](hsize_t r, hsize_t i) -> double& { return out[(r * beads + i) * components]; };
  for (hsize_t r = 100; r < 180; ++r) at(r, 3) = 1e-3 * std::sin(0.1 * static_cast<double>(r));
  at(101, chunk_beads + 3) = 1e-4;
  for (hsize_t r = 3 * chunk_rows; r < rows; ++r) at(r, 2 * chunk_beads + 1) = -0.0;
  return out;
}

// The chunks written past HDF5's filters are the bytes its filters store: the same series
// written in one H5Dwrite to a dataset of the same chunks and filters stores the same chunks,
// whether the chunks of beads at rest hold positions or zeros.
TEST(ChunkWriter, ChunksAreTheBytesHdf5sFiltersStore) {
  const std::vector<hsize_t> row_shape{997, 3};
  const hsize_t rows = 437, expected_rows = 400;
  const std::vector<hsize_t> chunk = hdf5::chunk_shape(row_shape, expected_rows, 8);
  ASSERT_LT(4 * chunk[0], rows);
  for (const auto& [what, data] :
       {std::pair{"positions", series_rows(rows, row_shape[0], row_shape[1], chunk[1])},
        std::pair{"velocities", rest_rows(rows, row_shape[0], row_shape[1], chunk[0], chunk[1])}})
    for (const Compression c : compressions()) {
      if (c == Compression::none) continue;
      SCOPED_TRACE(std::string(what) + ", compression " + std::to_string(static_cast<int>(c)));
      const Written w = write_and_read(row_shape, hdf5::Scalar::float64, c, rows, expected_rows,
                                       reinterpret_cast<const char*>(data.data()), 150);
      EXPECT_EQ(std::memcmp(w.read.data(), data.data(), w.read.size()), 0);
      TempFile f;
      const std::vector<hsize_t> dims{rows, row_shape[0], row_shape[1]};
      Handle space(H5Screate_simple(3, dims.data(), nullptr), H5Sclose);
      Handle plist = filtered_creation(3, chunk.data(), c);
      Handle d(H5Dcreate2(f.file.get(), "value", H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT,
                          plist.get(), H5P_DEFAULT),
               H5Dclose);
      ASSERT_GE(H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
                0);
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

// The rows of a contact column: frames of contacts, of uneven counts, some with none, as
// `appends` row counts; their values are the contact indices of a chain, or doubles mostly at
// rest with a stretch of random bits, which no compressor shrinks.
std::vector<hsize_t> contact_frames() {
  std::vector<hsize_t> appends;
  for (hsize_t k = 0; k < 40; ++k) appends.push_back(k % 7 == 3 ? 0 : 2000 + (k * 797) % 3001);
  return appends;
}
template <class T>
std::vector<T> contact_values(hsize_t rows) {
  std::mt19937_64 random(11);
  std::vector<T> out(rows);
  for (hsize_t r = 0; r < rows; ++r) {
    if constexpr (std::is_same_v<T, double>) {
      out[r] = r % 5000 < 4000 ? 0.0 : 1e-6 * std::sin(0.01 * static_cast<double>(r));
      if (r >= 30000 && r < 40000) {
        const std::uint64_t bits = random();
        std::memcpy(&out[r], &bits, sizeof bits);
      }
    } else {
      out[r] = static_cast<T>(r % 2600);
    }
  }
  return out;
}

// The same rows written in one H5Dwrite through HDF5's filters, to a dataset of the same chunks:
// its stored chunks.
std::vector<Stored> chunks_hdf5_stores(hid_t type, const void* data, hsize_t rows, hsize_t chunk,
                                       Compression c) {
  TempFile f;
  Handle space(H5Screate_simple(1, &rows, nullptr), H5Sclose);
  Handle plist = filtered_creation(1, &chunk, c);
  Handle d(
      H5Dcreate2(f.file.get(), "value", type, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
      H5Dclose);
  EXPECT_GE(H5Dwrite(d.get(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), 0);
  EXPECT_GE(H5Dflush(d.get()), 0);
  return stored_chunks(d.get());
}

// A contact column is never flushed in a run without checkpoints: its whole chunks are
// compressed as the frames complete them and written when the run ends, to a dataset of its
// final size, of the chunks and filters it always had, that stores what HDF5's filters store.
TEST(ChunkWriter, ContactRowsCompressedAsTheyComeAreWhatHdf5Stores) {
  const std::vector<hsize_t> appends = contact_frames();
  hsize_t rows = 0;
  for (hsize_t a : appends) rows += a;
  ASSERT_GT(rows, 20 * 4096u);
  ASSERT_NE(rows % 4096, 0u);
  const std::vector<std::int32_t> indices = contact_values<std::int32_t>(rows);
  const std::vector<double> values = contact_values<double>(rows);
  for (const Compression c : compressions()) {
    SCOPED_TRACE(static_cast<int>(c));
    for (const bool doubles : {false, true}) {
      const hdf5::Scalar scalar = doubles ? hdf5::Scalar::float64 : hdf5::Scalar::int32;
      const char* data = doubles ? reinterpret_cast<const char*>(values.data())
                                 : reinterpret_cast<const char*>(indices.data());
      const Written w = write_appends({}, scalar, c, appends, 4096, data, {});
      EXPECT_EQ(w.dims, std::vector<hsize_t>{rows});
      EXPECT_EQ(w.maxdims, std::vector<hsize_t>{rows});  // not extendible
      EXPECT_EQ(w.filters, declared(c));
      EXPECT_EQ(std::memcmp(w.read.data(), data, w.read.size()), 0);
      if (c == Compression::none) continue;  // contiguous
      EXPECT_EQ(w.chunk, std::vector<hsize_t>{4096});
      const std::vector<Stored> expected =
          chunks_hdf5_stores(hdf5::native_type(scalar), data, rows, 4096, c);
      ASSERT_EQ(w.chunks.size(), expected.size());
      for (std::size_t k = 0; k < expected.size(); ++k)
        EXPECT_TRUE(w.chunks[k] == expected[k]) << "chunk at " << expected[k].offset[0];
    }
  }
}

// Flushed (a checkpoint) while whole chunks are held compressed, at the end of a frame inside a
// chunk, twice: every value comes back.
TEST(ChunkWriter, ContactRowsFlushedInsideAChunkReadBackBitForBit) {
  const std::vector<hsize_t> appends = contact_frames();
  hsize_t rows = 0, at_first_flush = 0;
  for (std::size_t k = 0; k < appends.size(); ++k) {
    rows += appends[k];
    if (k + 1 == 12) at_first_flush = rows;
  }
  ASSERT_GT(at_first_flush, 5 * 4096u);
  ASSERT_NE(at_first_flush % 4096, 0u);
  const std::vector<double> values = contact_values<double>(rows);
  for (const Compression c : compressions()) {
    SCOPED_TRACE(static_cast<int>(c));
    const Written w = write_appends({}, hdf5::Scalar::float64, c, appends, 4096,
                                    reinterpret_cast<const char*>(values.data()), {12, 25});
    EXPECT_EQ(w.dims, std::vector<hsize_t>{rows});
    EXPECT_EQ(w.maxdims, std::vector<hsize_t>{H5S_UNLIMITED});
    EXPECT_EQ(w.filters, declared(c));
    EXPECT_EQ(std::memcmp(w.read.data(), values.data(), w.read.size()), 0);
  }
}

// zlib's checksum of each length around the 32-byte blocks and the runs between reductions, of
// bytes all 0xff (the largest sums) and of random bytes, from the start and continued.
TEST(ZlibStream, Adler32IsZlibs) {
  std::mt19937 random(5);
  std::vector<char> random_bytes(20000);
  for (char& b : random_bytes) b = static_cast<char>(random());
  const std::vector<char> full(20000, static_cast<char>(0xff));
  for (const std::vector<char>* bytes : {&full, &std::as_const(random_bytes)})
    for (const std::size_t size : {0, 1, 31, 32, 33, 5551, 5552, 5553, 11104, 19999})
      for (const std::uint32_t start : {1u, 65000u << 16 | 65500u}) {
        SCOPED_TRACE(std::to_string(size) + " bytes from " + std::to_string(start));
        const auto* data = reinterpret_cast<const Bytef*>(bytes->data());
        EXPECT_EQ(hdf5::adler32(start, bytes->data(), size),
                  ::adler32_z(start, data, static_cast<z_size_t>(size)));
      }
}

// compress2's bytes, at HDF5's deflate level and others, for no input, one byte, bytes that do
// not shrink and bytes that shrink much.
TEST(ZlibStream, CompressedAsCompress2) {
  std::mt19937 random(9);
  std::vector<char> noise(70000), runs(70000);
  for (char& b : noise) b = static_cast<char>(random());
  for (std::size_t k = 0; k < runs.size(); ++k) runs[k] = static_cast<char>(k / 1000 % 3);
  for (const int level : {hdf5::deflate_level, 6, 9})
    for (const std::vector<char>* input : {&noise, &runs})
      for (const std::size_t size : {std::size_t{0}, std::size_t{1}, input->size()}) {
        SCOPED_TRACE(std::to_string(size) + " bytes at level " + std::to_string(level));
        std::vector<char> ours;
        ASSERT_TRUE(hdf5::compress_as_zlib(input->data(), size, level, ours));
        uLongf length = compressBound(static_cast<uLong>(size));
        std::vector<char> theirs(length);
        ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(theirs.data()), &length,
                            reinterpret_cast<const Bytef*>(input->data()), static_cast<uLong>(size),
                            level),
                  Z_OK);
        theirs.resize(length);
        EXPECT_TRUE(ours == theirs);
      }
}

}  // namespace
}  // namespace chaindem
