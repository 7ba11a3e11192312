#pragma once
// Long chains' arrays on huge pages. A chain of 10^6 beads writes some 300 MB into arrays it has
// just allocated, and the kernel maps that memory 4 KiB at a time, a page fault each: half the
// set-up of a long chain. Where the kernel offers transparent huge pages on request (Debian's
// `madvise` setting), asking for them before the first write maps 2 MiB per fault.

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>
#include <type_traits>
#include <utility>

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

/// Sets column[k] to `value` if it holds something else (in bits): a row of a ZeroedColumn, or
/// of any column whose zeros are left untouched, stays unmapped when it is set to zero.
template <class Column>
void set_if_differs(Column& column, std::size_t k, const typename Column::value_type& value) {
  if (std::memcmp(&column[k], &value, sizeof value) != 0) column[k] = value;
}

/// A long column of numbers that stay zero in most rows (the records of events few contacts
/// see): its new rows are zeros that the kernel maps to memory only where something else is
/// written (zero_untouched). Growing it reads and writes no row it never held, so that a row
/// never written costs nothing; write rows with set_if_differs where a zero may be written. A
/// std::vector otherwise, of trivially copyable values, for what the contact lists do with
/// their columns: resize, index, compare, copy.
template <class T>
class ZeroedColumn {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>,
                "zero bytes are the value-initialised value of trivial types only");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  ZeroedColumn() = default;
  ZeroedColumn(const ZeroedColumn& o) { *this = o; }
  ZeroedColumn(ZeroedColumn&& o) noexcept { swap(o); }
  ZeroedColumn& operator=(const ZeroedColumn& o) {
    if (this != &o) {
      ZeroedColumn copy;
      copy.resize(o.size_);
      if (o.size_ > 0) std::memcpy(copy.data_, o.data_, o.size_ * sizeof(T));
      swap(copy);
    }
    return *this;
  }
  ZeroedColumn& operator=(ZeroedColumn&& o) noexcept {
    ZeroedColumn(std::move(o)).swap(*this);
    return *this;
  }
  ~ZeroedColumn() { std::allocator<T>().deallocate(data_, capacity_); }
  void swap(ZeroedColumn& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(capacity_, o.capacity_);
    std::swap(held_, o.held_);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t k) { return data_[k]; }
  const T& operator[](std::size_t k) const { return data_[k]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  /// n rows: those kept keep their values, new ones are zero. Growing beyond the storage moves
  /// the rows kept to new storage, zeroed untouched; growing within it zeroes the rows it held
  /// before (set_if_differs), the others are zero still.
  void resize(std::size_t n) {
    if (n > capacity_) {
      ZeroedColumn grown;
      grown.data_ = std::allocator<T>().allocate(n);
      grown.capacity_ = n;
      zero_untouched(grown.data_, n * sizeof(T));
      if (size_ > 0) std::memcpy(grown.data_, data_, size_ * sizeof(T));
      grown.size_ = grown.held_ = size_;
      swap(grown);
    }
    for (std::size_t k = size_; k < std::min(n, held_); ++k) set_if_differs(*this, k, T{});
    size_ = n;
    held_ = std::max(held_, n);
  }

  friend bool operator==(const ZeroedColumn& a, const ZeroedColumn& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0, capacity_ = 0;
  std::size_t held_ = 0;  // rows held since the storage was zeroed: beyond, every row is zero
};

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
