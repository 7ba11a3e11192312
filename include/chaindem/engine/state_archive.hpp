#pragma once
// A run's state as named byte records: what a checkpoint holds (io/checkpoint_file.hpp writes it
// to HDF5). Each part of a run (the engine state, an engine's own structures, the observers of
// the run) saves what it needs to continue bit for bit, under names it chooses, and reads it back
// the same way. Records are plain copies of trivially copyable values: a checkpoint is read by
// the build of chaindem that wrote it (the file carries its version and layout).

#include <Eigen/Core>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace chaindem {

/// A checkpoint that cannot be read back into this run: a record missing or of another size.
struct StateArchiveError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class StateArchive {
 public:
  using Bytes = std::vector<unsigned char>;

  /// A column of trivially copyable values: a std::vector, a ZeroedColumn.
  template <class Column>
  void put(const std::string& name, const Column& values) {
    using T = typename Column::value_type;
    static_assert(std::is_trivially_copyable_v<T>);
    put_bytes(name, values.data(), values.size() * sizeof(T));
  }
  /// One trivially copyable value.
  template <class T>
  void put_value(const std::string& name, const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    put_bytes(name, &value, sizeof(T));
  }
  /// An Eigen array or matrix of doubles, its coefficients in storage order.
  template <class Derived>
  void put_array(const std::string& name, const Eigen::DenseBase<Derived>& a) {
    const auto& plain = a.derived();
    put_bytes(name, plain.data(), static_cast<std::size_t>(plain.size()) * sizeof(double));
  }

  template <class Column>
  void get(const std::string& name, Column& values) const {
    using T = typename Column::value_type;
    static_assert(std::is_trivially_copyable_v<T>);
    const Bytes& b = record(name);
    if (b.size() % sizeof(T) != 0)
      throw StateArchiveError("checkpoint record '" + name + "' has " + std::to_string(b.size()) +
                              " bytes, not a whole number of " + std::to_string(sizeof(T)) +
                              "-byte values");
    values.resize(b.size() / sizeof(T));
    if (!b.empty()) std::memcpy(values.data(), b.data(), b.size());
  }
  template <class T>
  T get_value(const std::string& name) const {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    copy_exact(name, &value, sizeof(T));
    return value;
  }
  /// Into an array already sized as the one saved (the run rebuilt from its case has the sizes).
  template <class Derived>
  void get_array(const std::string& name, Eigen::DenseBase<Derived>& a) const {
    auto& plain = a.derived();
    copy_exact(name, plain.data(), static_cast<std::size_t>(plain.size()) * sizeof(double));
  }

  bool contains(const std::string& name) const { return records_.count(name) > 0; }
  const std::map<std::string, Bytes>& records() const { return records_; }
  void set_record(const std::string& name, Bytes bytes) { records_[name] = std::move(bytes); }

 private:
  void put_bytes(const std::string& name, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    records_[name] = Bytes(p, p + n);
  }
  const Bytes& record(const std::string& name) const {
    const auto it = records_.find(name);
    if (it == records_.end())
      throw StateArchiveError("checkpoint record '" + name + "' is missing");
    return it->second;
  }
  void copy_exact(const std::string& name, void* target, std::size_t n) const {
    const Bytes& b = record(name);
    if (b.size() != n)
      throw StateArchiveError("checkpoint record '" + name + "' has " + std::to_string(b.size()) +
                              " bytes; this run needs " + std::to_string(n) +
                              " (a different case or build)");
    if (n) std::memcpy(target, b.data(), n);
  }

  std::map<std::string, Bytes> records_;
};

}  // namespace chaindem
