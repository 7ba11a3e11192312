#pragma once
// The chunks of a time series, and writing whole chunks compressed here, past HDF5's filter
// pipeline (internal header of the output layer; Growing in hdf5_util.hpp uses it).

#include <hdf5.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "chaindem/output/compression.hpp"

namespace chaindem::hdf5 {

/// The most bytes of rows that one chunk of a Growing dataset spans in its first dimension.
inline constexpr std::size_t chunk_rows_bytes = std::size_t{16} << 20;

/// The chunk of a dataset of `rows` rows of shape `row_shape`, about 256 KiB of doubles (chunks
/// half that size made a 10^5-bead run's file 10 % larger, by their index). A time
/// series of N x 3 per-particle rows is read two ways: one frame (every bead at one time) and
/// one bead's history (every frame). Reading either decompresses every chunk it touches whole:
/// a frame, N/B chunks of F frames; a history, rows/F chunks of B beads. A chunk of F x B x 3
/// with N F = rows B makes the two cost the same, each about sqrt(rows N) x 3 x 8 bytes
/// (10^5 beads, 500 frames: chunks of 6 x 1820 x 3, either read ~26 MB). F rows take at most
/// chunk_rows_bytes: a spill buffers them. Rows of one dimension (a value or a vector per frame)
/// keep whole rows, 4096 of them at most, as they always had.
std::vector<hsize_t> chunk_shape(const std::vector<hsize_t>& row_shape, hsize_t rows,
                                 std::size_t element_size);

/// What HDF5's shuffle filter does to part of a chunk: byte j of each of the `count` elements of
/// `size` bytes at `from` goes to `to[j * plane + e]`, e the element's index: the bytes of equal
/// significance together, where the compressor finds the runs they form.
void shuffle_bytes(const char* from, std::size_t count, std::size_t size, char* to,
                   std::size_t plane);

/// The deflate level of compressed datasets: fast; level 4 saves ~15 %.
inline constexpr int deflate_level = 1;

/// Writes whole rows of chunks of a compressed dataset with H5Dwrite_chunk (an extendible one,
/// or one made at its final size, for chunks kept compressed until then), each
/// chunk filtered here as the dataset's filters (shuffle, then deflate or LZF) would, by the
/// same library calls, to the same bytes: HDF5 neither copies the rows into its chunk cache nor
/// runs its filters, and every reader decodes the chunks as it decodes HDF5's own.
///
/// A chunk holds `F` rows of `B` items (beads) of `C` elements each: every dimension after the
/// second is whole (ChunkWriter::suits). A chunk whose F rows are the same as each other and as
/// the chunk before it at the same items (a bead at rest: its position, its zero velocity and
/// force) takes the bytes that chunk was compressed to, without compressing it again: a long
/// chain, mostly at rest, compresses little more than what moves.
class ChunkWriter {
 public:
  /// A chunk as the dataset stores it: its bytes and the filters it skipped (H5Dwrite_chunk's
  /// mask).
  struct Stored {
    const char* data;
    std::size_t size;
    unsigned skipped;
  };

  /// Whether a dataset of rows `row_shape` in chunks `chunk` (its first dimension the rows)
  /// with `compression` can be written here.
  static bool suits(const std::vector<hsize_t>& row_shape, const std::vector<hsize_t>& chunk,
                    Compression compression);

  ChunkWriter(const std::vector<hsize_t>& row_shape, const std::vector<hsize_t>& chunk,
              std::size_t element_size, Compression compression);

  /// Writes the `count` rows at `rows` as rows [first, first + count) of `dataset` (named `name`
  /// in errors), which already holds that many; `first` and `count` are whole rows of chunks.
  /// `lock`, if given, is held around each HDF5 call (several writers share the file).
  void write(hid_t dataset, const std::string& name, hsize_t first, hsize_t count, const char* rows,
             std::mutex* lock);

  /// Compresses the `count` rows at `rows`, whole rows of chunks, now, and keeps the chunks'
  /// bytes for write_kept: what a dataset receives at the end of the run is compressed while the
  /// run computes, and only its compressed bytes are held (`name` names it in errors).
  void keep(const std::string& name, const char* rows, hsize_t count);
  /// The rows kept and not yet written.
  hsize_t kept_rows() const { return kept_rows_; }
  /// Writes the kept chunks as rows [first, first + kept_rows()) of `dataset`, which already
  /// holds that many, and forgets them; `lock` as for write().
  void write_kept(hid_t dataset, const std::string& name, hsize_t first, std::mutex* lock);

 private:
  struct Kept {
    std::size_t at, size;  // in kept_bytes_
    unsigned skipped;
  };
  // The chunk before at the same items, when its rows were all the same: one row's part of it
  // (not kept when it is all zero bytes, as the velocities and forces of beads at rest are) and
  // its stored bytes.
  struct Previous {
    bool valid = false;
    bool zero = false;  // the row is all zero bytes: `row` holds none
    std::vector<char> row;
    std::vector<char> stored;
    unsigned skipped = 0;  // the filters the chunk skipped (H5Dwrite_chunk's mask)
  };

  bool same_as_previous(const Previous& previous, const char* rows, std::size_t present) const;
  bool rows_alike(const char* rows, std::size_t present) const;
  void gather(const char* rows, std::size_t present, std::vector<char>& input) const;
  /// The chunk of column `column` of chunks whose rows begin at `block`, compressed (or the
  /// bytes of the chunk before, when it is the same).
  Stored compress_chunk(std::size_t column, const char* block, const std::string& name);

  Compression compression_;
  std::size_t size_;                // bytes of an element
  std::size_t row_elements_;        // elements of a row
  std::size_t chunk_rows_;          // F
  std::size_t chunk_items_;         // B
  std::size_t item_elements_;       // C
  std::size_t items_;               // items of a row
  std::size_t rank_;                // of the dataset
  std::vector<Previous> previous_;  // per column of chunks
  // The chunks keep() compressed, row of chunks after row of chunks, each row's columns in order.
  std::vector<Kept> kept_;
  std::vector<char> kept_bytes_;
  hsize_t kept_rows_ = 0;
};

}  // namespace chaindem::hdf5
