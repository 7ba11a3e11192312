#include "chaindem/output/zlib_stream.hpp"

#include <immintrin.h>
#include <zlib.h>

#include <algorithm>

namespace chaindem::hdf5 {

namespace {

constexpr std::uint32_t adler_base = 65521;  // the largest prime below 2^16 (RFC 1950)
// The most bytes whose sums fit 32 bits before they are reduced modulo adler_base (zlib's NMAX).
constexpr std::size_t adler_run = 5552;

// The sum of the eight lanes, modulo adler_base.
__attribute__((target("avx2"))) std::uint32_t total(__m256i v) {
  alignas(32) std::uint32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), v);
  std::uint64_t sum = 0;
  for (const std::uint32_t lane : lanes) sum += lane;
  return static_cast<std::uint32_t>(sum % adler_base);
}

// Both sums of 32 bytes at a time: the bytes' sum (a) in four lanes, and b's share of the
// block, each byte weighted by the sums it enters (32 for the first, 1 for the last), plus 32
// times a as the block began. The lanes hold at most the scalar sums over adler_run bytes.
__attribute__((target("avx2"))) std::uint32_t adler32_avx2(std::uint32_t adler,
                                                           const unsigned char* p,
                                                           std::size_t size) {
  std::uint32_t a = adler & 0xffff, b = adler >> 16;
  const __m256i weights =
      _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                       13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  const __m256i ones = _mm256_set1_epi16(1);
  const __m256i zero = _mm256_setzero_si256();
  while (size >= 32) {
    std::size_t run = std::min(size, adler_run) & ~std::size_t{31};
    size -= run;
    __m256i va = _mm256_setr_epi32(static_cast<int>(a), 0, 0, 0, 0, 0, 0, 0);
    __m256i vb = _mm256_setr_epi32(static_cast<int>(b), 0, 0, 0, 0, 0, 0, 0);
    __m256i va_before = zero;  // the sum of a at the start of each block
    for (; run > 0; run -= 32, p += 32) {
      const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
      va_before = _mm256_add_epi32(va_before, va);
      va = _mm256_add_epi32(va, _mm256_sad_epu8(bytes, zero));
      vb = _mm256_add_epi32(vb, _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, weights), ones));
    }
    vb = _mm256_add_epi32(vb, _mm256_slli_epi32(va_before, 5));
    a = total(va);
    b = total(vb);
  }
  for (; size > 0; --size) {  // fewer than 32: a and b stay far below 2^32
    a += *p++;
    b += a;
  }
  return (b % adler_base) << 16 | (a % adler_base);
}

// The two bytes that open compress2's output (RFC 1950): deflate with a 32 KiB window, the
// level's flag and the check bits, as zlib's deflate writes them.
void zlib_header(int level, char* out) {
  unsigned header = (Z_DEFLATED + ((MAX_WBITS - 8) << 4)) << 8;
  const unsigned level_flags = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  header |= level_flags << 6;
  header += 31 - header % 31;
  out[0] = static_cast<char>(header >> 8);
  out[1] = static_cast<char>(header & 0xff);
}

}  // namespace

std::uint32_t adler32(std::uint32_t adler, const char* data, std::size_t size) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  const auto* bytes = reinterpret_cast<const unsigned char*>(data);
  if (avx2) return adler32_avx2(adler, bytes, size);
  return static_cast<std::uint32_t>(::adler32_z(adler, bytes, size));
}

bool compress_as_zlib(const char* input, std::size_t size, int level, std::vector<char>& output) {
  // compress2 is deflateInit (a 32 KiB window, zlib's default memory level and strategy) and one
  // deflate to the end; raw deflate (negative window bits) writes the same stream without the
  // header and the checksum.
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  output.resize(compressBound(static_cast<uLong>(size)));
  zlib_header(level, output.data());
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input));  // read only
  z.avail_in = static_cast<uInt>(size);
  z.next_out = reinterpret_cast<Bytef*>(output.data() + 2);
  z.avail_out = static_cast<uInt>(output.size() - 6);
  const bool done = deflate(&z, Z_FINISH) == Z_STREAM_END;
  const std::size_t stream = z.total_out;
  deflateEnd(&z);
  if (!done) return false;
  const std::uint32_t check = adler32(1, input, size);
  char* end = output.data() + 2 + stream;
  for (int k = 0; k < 4; ++k) end[k] = static_cast<char>(check >> (24 - 8 * k));  // big-endian
  output.resize(2 + stream + 4);
  return true;
}

}  // namespace chaindem::hdf5
