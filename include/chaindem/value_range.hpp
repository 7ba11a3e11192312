#pragma once
// The range a number may take, for case keys and law parameters alike: one way to declare it,
// test it and print it.

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

namespace chaindem {

/// An interval of the real line, each end open or closed; an infinite end is always open.
struct ValueRange {
  static constexpr double inf = std::numeric_limits<double>::infinity();
  double min = -inf;
  double max = inf;
  bool min_inclusive = true;
  bool max_inclusive = true;

  /// (-inf, inf): any finite number.
  static constexpr ValueRange any() { return {}; }
  /// [a, b]
  static constexpr ValueRange closed(double a, double b) { return {a, b, true, true}; }
  /// (a, b)
  static constexpr ValueRange open(double a, double b) { return {a, b, false, false}; }
  /// (a, b]
  static constexpr ValueRange above_to(double a, double b) { return {a, b, false, true}; }
  /// [a, b)
  static constexpr ValueRange from_below(double a, double b) { return {a, b, true, false}; }
  /// [a, inf)
  static constexpr ValueRange at_least(double a) { return {a, inf, true, true}; }
  /// (a, inf)
  static constexpr ValueRange above(double a) { return {a, inf, false, true}; }

  /// `x` is finite and inside.
  bool admits(double x) const {
    const bool lo = min_inclusive ? x >= min : x > min;
    const bool hi = max_inclusive ? x <= max : x < max;
    return std::isfinite(x) && lo && hi;
  }
  /// Both ends infinite: no range of its own (a law parameter's range is the law's).
  bool unbounded() const { return std::isinf(min) && std::isinf(max); }

  /// "[0, 1)", "(0, inf)", "(-inf, inf)".
  std::string text() const {
    auto end = [](double x) {
      if (std::isinf(x)) return std::string(x < 0 ? "-inf" : "inf");
      std::ostringstream s;
      s << x;
      return s.str();
    };
    // Built by appending: g++ 12 warns (-Wrestrict, an error with CHAINDEM_WERROR) on a chain of
    // + over these temporaries where a caller inlines it (tests/test_laws.cpp did).
    std::string text = min_inclusive && !std::isinf(min) ? "[" : "(";
    text.append(end(min)).append(", ").append(end(max));
    text.append(max_inclusive && !std::isinf(max) ? "]" : ")");
    return text;
  }
};

}  // namespace chaindem
