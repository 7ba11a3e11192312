#include "chaindem/output/chunk_writer.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "chaindem/output/hdf5_util.hpp"
#include "chaindem/output/zlib_stream.hpp"

namespace chaindem::hdf5 {

namespace {

// The position of the compressing filter in a compressed dataset's pipeline, after the shuffle
// (Growing::set_filters): the bit of H5Dwrite_chunk's mask that says a chunk skipped it.
constexpr unsigned compressor_skipped = 1u << 1;

// liblzf's compressor, the one Debian's LZF plugin calls, from the liblzf that
// load_filter_libraries() loads; null where there is none (a plugin with its own copy of LZF):
// LZF then goes through the plugin.
using LzfCompress = unsigned (*)(const void* in, unsigned in_len, void* out, unsigned out_len);
LzfCompress lzf_compressor() {
  static const LzfCompress compress = [] {
    load_filter_libraries();
    void* library = dlopen("liblzf.so.1", RTLD_NOW | RTLD_NOLOAD);
    return library ? reinterpret_cast<LzfCompress>(dlsym(library, "lzf_compress")) : nullptr;
  }();
  return compress;
}

// The buffers of a chunk being compressed, once per writing thread: a sweep's writers compress
// at once.
struct Scratch {
  std::vector<char> input, output;
};
Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

using Stored = ChunkWriter::Stored;

// The chunk `input` (already shuffled) through the compressing filter, into `s.output`.
Stored compress(Compression compression, const std::vector<char>& input, Scratch& s,
                const std::string& name) {
  if (compression == Compression::lzf) {
    // As the LZF filter does (Collette 2008): room for the input's size and no more; output
    // that would not fit leaves the chunk as it is, marked as not compressed by LZF, which is
    // what HDF5 does with a chunk that the filter (optional, Growing::set_filters) declines.
    s.output.resize(input.size());
    const unsigned size = lzf_compressor()(input.data(), static_cast<unsigned>(input.size()),
                                           s.output.data(), static_cast<unsigned>(s.output.size()));
    if (size == 0) return {input.data(), input.size(), compressor_skipped};
    return {s.output.data(), size, 0};
  }
  // What HDF5's deflate filter makes of it (compress2), so the chunk is byte for byte the one it
  // stores. Not libdeflate (Biggers 2016), faster on values that all change: it writes a run of
  // equal bytes as copies from one byte back, which zlib's inflate, every HDF5 reader's, copies
  // byte by byte; frames and bead histories of a chain mostly at rest read 4 to 6 times slower.
  // With the chunks of beads at rest reused, zlib compresses the others about as fast here.
  if (!compress_as_zlib(input.data(), input.size(), deflate_level, s.output))
    throw Error("compressing a chunk of " + name + " failed");
  return {s.output.data(), s.output.size(), 0};
}

// Whether the n bytes at p are all zero: the first is, and each equals the one before.
bool all_zero(const char* p, std::size_t n) {
  return n == 0 || (p[0] == 0 && std::memcmp(p, p + 1, n - 1) == 0);
}

template <std::size_t Size>
void shuffle_fixed(const char* from, std::size_t count, char* to, std::size_t plane) {
  for (std::size_t e = 0; e < count; ++e)
    for (std::size_t j = 0; j < Size; ++j) to[j * plane + e] = from[e * Size + j];
}

}  // namespace

std::vector<hsize_t> chunk_shape(const std::vector<hsize_t>& row_shape, hsize_t rows,
                                 std::size_t element_size) {
  constexpr hsize_t chunk_elements = 32768;
  hsize_t row_elements = 1;
  for (hsize_t s : row_shape) row_elements *= s;
  rows = std::max<hsize_t>(rows, 1);
  std::vector<hsize_t> chunk{1};
  chunk.insert(chunk.end(), row_shape.begin(), row_shape.end());
  if (row_shape.size() < 2) {
    chunk[0] = std::max<hsize_t>(
        1, std::min<hsize_t>({4096, 8192 / std::max<hsize_t>(row_elements, 1), rows}));
    return chunk;
  }
  const hsize_t n = std::max<hsize_t>(row_shape[0], 1);
  const hsize_t per_item = std::max<hsize_t>(row_elements / n, 1);        // 3 for N x 3
  const hsize_t items = std::max<hsize_t>(chunk_elements / per_item, 1);  // F x B
  const hsize_t most_rows = std::max<hsize_t>(
      1, std::min(rows, chunk_rows_bytes / std::max<hsize_t>(row_elements * element_size, 1)));
  const auto balanced = static_cast<hsize_t>(std::llround(
      std::sqrt(static_cast<double>(items) * static_cast<double>(rows) / static_cast<double>(n))));
  hsize_t frames = std::clamp<hsize_t>(balanced, 1, most_rows);
  hsize_t beads = std::clamp<hsize_t>(items / frames, 1, n);
  if (beads == n) frames = std::clamp<hsize_t>(items / n, 1, most_rows);  // whole rows fit
  // Chunks of equal parts: the last chunk of a dimension holds little beyond its end, which
  // a dataset without a filter stores as it is.
  const auto even = [](hsize_t size, hsize_t part) {
    const hsize_t parts = (size + part - 1) / part;
    return (size + parts - 1) / parts;
  };
  chunk[0] = even(rows, frames);
  chunk[1] = even(n, beads);
  return chunk;
}

void shuffle_bytes(const char* from, std::size_t count, std::size_t size, char* to,
                   std::size_t plane) {
  // The sizes of the numbers written, with the byte loop unrolled.
  if (size == 8) return shuffle_fixed<8>(from, count, to, plane);
  if (size == 4) return shuffle_fixed<4>(from, count, to, plane);
  for (std::size_t e = 0; e < count; ++e)
    for (std::size_t j = 0; j < size; ++j) to[j * plane + e] = from[e * size + j];
}

bool ChunkWriter::suits(const std::vector<hsize_t>& row_shape, const std::vector<hsize_t>& chunk,
                        Compression compression) {
  // Unfiltered chunks gain nothing: HDF5 writes them from the rows as they are.
  if (compression == Compression::none || chunk.size() != row_shape.size() + 1) return false;
  for (std::size_t d = 2; d < chunk.size(); ++d)
    if (chunk[d] != row_shape[d - 1]) return false;
  return compression != Compression::lzf || lzf_compressor() != nullptr;
}

ChunkWriter::ChunkWriter(const std::vector<hsize_t>& row_shape, const std::vector<hsize_t>& chunk,
                         std::size_t element_size, Compression compression)
    : compression_(compression),
      size_(element_size),
      chunk_rows_(chunk.at(0)),
      chunk_items_(chunk.size() > 1 ? chunk[1] : 1),
      items_(row_shape.empty() ? 1 : row_shape[0]),
      rank_(chunk.size()) {
  item_elements_ = 1;
  for (std::size_t d = 1; d < row_shape.size(); ++d) item_elements_ *= row_shape[d];
  row_elements_ = items_ * item_elements_;
  previous_.resize((items_ + chunk_items_ - 1) / chunk_items_);
}

// Whether the F rows of a chunk, `present` elements of each at `rows`, all equal the row the
// chunk before at the same items held in each of its rows.
bool ChunkWriter::same_as_previous(const Previous& previous, const char* rows,
                                   std::size_t present) const {
  if (!previous.valid) return false;
  const std::size_t bytes = present * size_;
  if (previous.zero ? !all_zero(rows, bytes) : std::memcmp(rows, previous.row.data(), bytes) != 0)
    return false;
  return rows_alike(rows, present);
}

// Whether the F rows of a chunk, `present` elements of each at `rows`, are all the same.
bool ChunkWriter::rows_alike(const char* rows, std::size_t present) const {
  const std::size_t row_bytes = row_elements_ * size_;
  // Whole rows, one after the other: each equals the one before. The last row is compared
  // first: a chunk of contacts that begins with a long run of equal values is rarely all alike.
  if (present == row_elements_)
    return std::memcmp(rows + (chunk_rows_ - 1) * row_bytes, rows, row_bytes) == 0 &&
           std::memcmp(rows + row_bytes, rows, (chunk_rows_ - 1) * row_bytes) == 0;
  for (std::size_t f = 1; f < chunk_rows_; ++f)
    if (std::memcmp(rows + f * row_bytes, rows, present * size_) != 0) return false;
  return true;
}

// The chunk whose rows begin at `rows`, `present` elements of each, into `input` as the
// compressor takes it: shuffled, and as large as a whole chunk, the items beyond the last zero,
// as HDF5 pads them.
void ChunkWriter::gather(const char* rows, std::size_t present, std::vector<char>& input) const {
  const std::size_t per_row = chunk_items_ * item_elements_;  // elements of a row of the chunk
  const std::size_t elements = chunk_rows_ * per_row;
  input.resize(elements * size_);
  if (present == row_elements_ && per_row == present)  // whole rows: the chunk is contiguous
    return shuffle_bytes(rows, elements, size_, input.data(), elements);
  for (std::size_t f = 0; f < chunk_rows_; ++f) {
    const char* from = rows + f * row_elements_ * size_;
    const std::size_t at = f * per_row;
    shuffle_bytes(from, present, size_, input.data() + at, elements);
    for (std::size_t j = 0; j < size_; ++j)
      std::memset(input.data() + j * elements + at + present, 0, per_row - present);
  }
}

ChunkWriter::Stored ChunkWriter::compress_chunk(std::size_t column, const char* block,
                                                const std::string& name) {
  const std::size_t begin = column * chunk_items_;
  const std::size_t present = (std::min(items_, begin + chunk_items_) - begin) * item_elements_;
  const char* from = block + begin * item_elements_ * size_;
  Previous& previous = previous_[column];
  if (same_as_previous(previous, from, present))
    return {previous.stored.data(), previous.stored.size(), previous.skipped};
  Scratch& s = scratch();
  gather(from, present, s.input);
  const Stored stored = compress(compression_, s.input, s, name);
  previous.valid = rows_alike(from, present);
  if (previous.valid) {
    // A long chain's beads at rest have zero velocities and forces: their rows cost no copy.
    previous.zero = all_zero(from, present * size_);
    if (previous.zero)
      std::vector<char>().swap(previous.row);
    else
      previous.row.assign(from, from + present * size_);
    previous.stored.assign(stored.data, stored.data + stored.size);
    previous.skipped = stored.skipped;
  }
  return stored;
}

void ChunkWriter::write(hid_t dataset, const std::string& name, hsize_t first, hsize_t count,
                        const char* rows, std::mutex* lock) {
  const std::size_t row_bytes = row_elements_ * size_;
  std::vector<hsize_t> offset(rank_, 0);
  for (hsize_t r = 0; r < count; r += chunk_rows_) {
    offset[0] = first + r;
    for (std::size_t column = 0; column < previous_.size(); ++column) {
      const Stored stored = compress_chunk(column, rows + r * row_bytes, name);
      if (rank_ > 1) offset[1] = column * chunk_items_;
      std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
      check_status(H5Dwrite_chunk(dataset, H5P_DEFAULT, stored.skipped, offset.data(), stored.size,
                                  stored.data),
                   "write " + name);
    }
  }
}

void ChunkWriter::keep(const std::string& name, const char* rows, hsize_t count) {
  const std::size_t row_bytes = row_elements_ * size_;
  for (hsize_t r = 0; r < count; r += chunk_rows_)
    for (std::size_t column = 0; column < previous_.size(); ++column) {
      const Stored stored = compress_chunk(column, rows + r * row_bytes, name);
      kept_.push_back({kept_bytes_.size(), stored.size, stored.skipped});
      kept_bytes_.insert(kept_bytes_.end(), stored.data, stored.data + stored.size);
    }
  kept_rows_ += count;
}

void ChunkWriter::write_kept(hid_t dataset, const std::string& name, hsize_t first,
                             std::mutex* lock) {
  std::vector<hsize_t> offset(rank_, 0);
  std::unique_lock guard = lock ? std::unique_lock(*lock) : std::unique_lock<std::mutex>();
  for (std::size_t k = 0; k < kept_.size(); ++k) {
    const std::size_t column = k % previous_.size();
    offset[0] = first + k / previous_.size() * chunk_rows_;
    if (rank_ > 1) offset[1] = column * chunk_items_;
    check_status(H5Dwrite_chunk(dataset, H5P_DEFAULT, kept_[k].skipped, offset.data(),
                                kept_[k].size, kept_bytes_.data() + kept_[k].at),
                 "write " + name);
  }
  kept_.clear();
  kept_bytes_.clear();
  kept_rows_ = 0;
}

}  // namespace chaindem::hdf5
