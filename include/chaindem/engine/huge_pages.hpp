#pragma once
// Long chains' arrays on huge pages. A chain of 10^6 beads writes some 300 MB into arrays it has
// just allocated, and the kernel maps that memory 4 KiB at a time, a page fault each: half the
// set-up of a long chain. Where the kernel offers transparent huge pages on request (Debian's
// `madvise` setting), asking for them before the first write maps 2 MiB per fault.

#include <Eigen/Core>
#include <cstddef>
#include <iterator>

namespace chaindem {

/// Asks the kernel to back the whole 2 MiB pages within [data, data + bytes) with transparent
/// huge pages when they are first written. Advice only: where the kernel has none to give, it
/// changes nothing (not even the memory used: only whole huge pages inside the range are asked).
void advise_huge_pages(const void* data, std::size_t bytes);

/// Reserves room for n elements in `column` (a std::vector), new storage advised
/// (advise_huge_pages) before its elements are written.
template <class Vector>
void reserve_on_huge_pages(Vector& column, std::size_t n) {
  if (n <= column.capacity()) return;
  Vector fresh;
  fresh.reserve(n);
  advise_huge_pages(fresh.data(), n * sizeof(typename Vector::value_type));
  fresh.assign(std::make_move_iterator(column.begin()), std::make_move_iterator(column.end()));
  column.swap(fresh);
}

/// Resizes `column` (a std::vector) to n elements, new storage advised before it is written.
template <class Vector>
void resize_on_huge_pages(Vector& column, std::size_t n) {
  reserve_on_huge_pages(column, n);
  column.resize(n);
}

/// Zeros [data, data + bytes) of heap memory (anonymous and private, as malloc's is), leaving
/// its whole pages unwritten: the kernel hands them back as zero pages, which take no memory
/// until something nonzero is written there. A chain on the x axis never writes the y and z
/// columns of its particles' vectors (Particles::set writes only what differs): they cost nothing.
void zero_untouched(void* data, std::size_t bytes);

/// Resizes an Eigen array (Particles' columns, the look-ahead) to `rows` rows, keeping its values;
/// new rows are zero. Fresh storage is advised before it is written (advise_huge_pages) and
/// zeroed untouched (zero_untouched).
template <class Array>
void conservative_resize_zeroed(Array& a, Eigen::Index rows) {
  if (a.size() == 0 && rows > 0) {  // nothing to keep: fresh storage
    a.resize(rows, a.cols());
    const std::size_t bytes = static_cast<std::size_t>(a.size()) * sizeof(typename Array::Scalar);
    advise_huge_pages(a.data(), bytes);
    zero_untouched(a.data(), bytes);
  } else {
    const Eigen::Index had = a.rows();
    a.conservativeResize(rows, a.cols());
    if (rows > had) a.bottomRows(rows - had).setZero();
  }
}

}  // namespace chaindem
