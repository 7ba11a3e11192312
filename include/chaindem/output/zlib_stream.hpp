#pragma once
// A chunk compressed as HDF5's deflate filter compresses it, faster (internal header of the
// output layer; ChunkWriter uses it).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace chaindem::hdf5 {

/// The Adler-32 checksum (Deutsch and Gailly 1996, RFC 1950) of the `size` bytes at `data`,
/// continuing from `adler` (1 for none before): what zlib's adler32 gives, with AVX2 where the
/// processor has it.
std::uint32_t adler32(std::uint32_t adler, const char* data, std::size_t size);

/// The `size` bytes at `input` compressed at deflate `level` into `output` (resized to hold
/// them), byte for byte what zlib's compress2, which HDF5's deflate filter calls, makes of them:
/// the zlib header, the deflate stream and the Adler-32 of the input. zlib computes that checksum
/// byte after byte, a third of the time compress2 takes on a chunk of contacts; here it is
/// adler32() above, the stream zlib's raw deflate. False when zlib fails.
bool compress_as_zlib(const char* input, std::size_t size, int level, std::vector<char>& output);

}  // namespace chaindem::hdf5
