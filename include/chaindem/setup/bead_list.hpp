#pragma once
// A quantity given bead by bead along the chain (chain.materials, chain.radii, chain.velocity),
// written as a pattern repeated over the beads, compactly:
//
//   steel                  every bead
//   steel ptfe             a pattern of two, repeated (a dimer chain)
//   steel*10, ptfe*10      ITEM*N repeats an item: ten steel beads, then ten PTFE
//   (steel ptfe ptfe)*4    (ITEMS)*N repeats a group; groups may nest
//   steel 12=brass         K=ITEM sets bead K apart (an impurity); a negative K counts from the
//                          end, -1 being the last bead
//
// Items are separated by commas or blanks. The pattern is repeated along the chain and may end
// within it; the beads set apart take their value wherever the pattern would put another. The
// list is kept as written (a tree of repeated groups), never expanded: steel*50000000 takes a
// few bytes, and bead k is found in a few steps.

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace chaindem {

/// Most beads a written pattern may span: the largest chain (chain.count's range).
inline constexpr long long max_bead_list_entries = 50'000'000;

template <class T>
struct BeadList {
  /// An item, or a group of parts, repeated `times` times.
  struct Part {
    std::vector<Part> parts;  ///< empty: an item, `value`
    T value{};
    long long times = 1;
    long long span = 1;  ///< beads of one repetition
    bool operator==(const Part&) const = default;
  };
  Part pattern;                                    ///< a group, repeated along the chain
  std::vector<std::pair<long long, T>> set_apart;  ///< (bead, value); bead < 0 from the end

  /// Beads the pattern spans before it repeats.
  long long period() const { return pattern.span; }

  /// The list for a chain of `count` beads: the beads set apart numbered from 0, in order.
  /// Throws std::invalid_argument for a bead outside the chain or one set apart twice (12 and
  /// -8 of a chain of 20).
  BeadList resolved(long long count) const {
    BeadList out{pattern, {}};
    for (auto [bead, value] : set_apart) {
      const long long k = bead < 0 ? bead + count : bead;
      if (k < 0 || k >= count)
        throw std::invalid_argument("bead " + std::to_string(bead) + " is not in a chain of " +
                                    std::to_string(count) + " beads (0 to " +
                                    std::to_string(count - 1) + ", or -" + std::to_string(count) +
                                    " to -1 from the end)");
      out.set_apart.emplace_back(k, std::move(value));
    }
    std::stable_sort(out.set_apart.begin(), out.set_apart.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < out.set_apart.size(); ++i)
      if (out.set_apart[i].first == out.set_apart[i - 1].first)
        throw std::invalid_argument("bead " + std::to_string(out.set_apart[i].first) +
                                    " is set apart twice");
    return out;
  }

  /// The value of bead k >= 0 of a resolved() list.
  const T& at(long long k) const {
    const auto it =
        std::lower_bound(set_apart.begin(), set_apart.end(), k,
                         [](const auto& entry, long long b) { return entry.first < b; });
    if (it != set_apart.end() && it->first == k) return it->second;
    const Part* part = &pattern;
    k %= part->span;
    while (!part->parts.empty()) {
      for (const Part& p : part->parts) {
        const long long beads = p.times * p.span;
        if (k < beads) {
          part = &p;
          k %= p.span;
          break;
        }
        k -= beads;
      }
    }
    return part->value;
  }

  /// Every value the list holds, once per place it is written (not per bead).
  std::vector<T> values() const {
    std::vector<T> out;
    collect(pattern, out);
    for (const auto& [bead, value] : set_apart) out.push_back(value);
    return out;
  }

  /// The same list with every value v replaced by f(v).
  template <class F>
  auto map(F f) const -> BeadList<decltype(f(std::declval<const T&>()))> {
    using U = decltype(f(std::declval<const T&>()));
    BeadList<U> out;
    out.pattern = map_part<U>(pattern, f);
    for (const auto& [bead, value] : set_apart) out.set_apart.emplace_back(bead, f(value));
    return out;
  }

  bool operator==(const BeadList&) const = default;

 private:
  static void collect(const Part& p, std::vector<T>& out) {
    if (p.parts.empty()) out.push_back(p.value);
    for (const Part& q : p.parts) collect(q, out);
  }
  template <class U, class F>
  static typename BeadList<U>::Part map_part(const Part& p, F& f) {
    typename BeadList<U>::Part out;
    out.times = p.times;
    out.span = p.span;
    if (p.parts.empty()) out.value = f(p.value);
    for (const Part& q : p.parts) out.parts.push_back(map_part<U>(q, f));
    return out;
  }
};

/// The list `text` writes, its items as written. Throws std::invalid_argument saying what is
/// wrong with the text (the caller names the key): an unclosed group, a repeat count that is not
/// a whole number from 1 up, a pattern longer than max_bead_list_entries beads.
BeadList<std::string> parse_bead_list(const std::string& text);

/// The same list with every item read as a number; throws std::invalid_argument naming an item
/// that is not one.
BeadList<double> parse_bead_numbers(const std::string& text);

}  // namespace chaindem
