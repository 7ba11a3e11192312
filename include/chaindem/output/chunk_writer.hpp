#pragma once
// Writing whole chunks of a time series compressed here, past HDF5's filter pipeline (internal
// header of the output layer; Growing in hdf5_util.hpp uses it).

#include <hdf5.h>

#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "chaindem/output/compression.hpp"

namespace chaindem::hdf5 {

/// What HDF5's shuffle filter does to part of a chunk: byte j of each of the `count` elements of
/// `size` bytes at `from` goes to `to[j * plane + e]`, e the element's index: the bytes of equal
/// significance together, where the compressor finds the runs they form.
void shuffle_bytes(const char* from, std::size_t count, std::size_t size, char* to,
                   std::size_t plane);

/// The deflate level of compressed datasets: fast; level 4 saves ~15 %.
inline constexpr int deflate_level = 1;

/// Writes whole rows of chunks of an extendible, compressed dataset with H5Dwrite_chunk, each
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

 private:
  // The chunk before at the same items, when its rows were all the same: one row's part of it
  // and its stored bytes.
  struct Previous {
    bool valid = false;
    std::vector<char> row;
    std::vector<char> stored;
    unsigned skipped = 0;  // the filters the chunk skipped (H5Dwrite_chunk's mask)
  };

  bool same_as_previous(const Previous& previous, const char* rows, std::size_t present) const;
  void gather(const char* rows, std::size_t present, std::vector<char>& input) const;

  Compression compression_;
  std::size_t size_;                // bytes of an element
  std::size_t row_elements_;        // elements of a row
  std::size_t chunk_rows_;          // F
  std::size_t chunk_items_;         // B
  std::size_t item_elements_;       // C
  std::size_t items_;               // items of a row
  std::size_t rank_;                // of the dataset
  std::vector<Previous> previous_;  // per column of chunks
};

}  // namespace chaindem::hdf5
