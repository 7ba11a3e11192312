#include "chaindem/output/h5md_units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace chaindem {
namespace {

// A derived unit in base units, as powers of kg, m and s.
struct Derived {
  std::string_view symbol;
  int kg, m, s;
};
constexpr std::array derived{Derived{"N", 1, 1, -2}, Derived{"J", 1, 2, -2},
                             Derived{"Pa", 1, -1, -2}, Derived{"W", 1, 2, -3}};

// The symbols of `readable` with their powers, in the order they come, bases combined.
std::vector<std::pair<std::string, int>> factors(std::string_view readable) {
  std::vector<std::pair<std::string, int>> out;
  auto add = [&out](std::string_view symbol, int power) {
    for (auto& [s, p] : out)
      if (s == symbol) {
        p += power;
        return;
      }
    out.emplace_back(symbol, power);
  };
  int sign = 1;
  std::size_t i = 0;
  while (i < readable.size()) {
    const char c = readable[i];
    if (c == ' ' || c == '*') {
      ++i;
      continue;
    }
    if (c == '/') {
      sign = -1;
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < readable.size() && std::isalpha(static_cast<unsigned char>(readable[end]))) ++end;
    if (end == i) throw std::invalid_argument("unit '" + std::string(readable) + "': no symbol");
    const std::string_view symbol = readable.substr(i, end - i);
    if (end < readable.size() && readable[end] == '^') ++end;
    int power = 1;
    if (end < readable.size() && (std::isdigit(static_cast<unsigned char>(readable[end])) ||
                                  readable[end] == '-' || readable[end] == '+')) {
      const char* first = readable.data() + end + (readable[end] == '+' ? 1 : 0);
      const auto [next, ec] = std::from_chars(first, readable.data() + readable.size(), power);
      if (ec != std::errc() || (next != readable.data() + readable.size() && *next != ' ' &&
                                *next != '/' && *next != '*'))
        throw std::invalid_argument("unit '" + std::string(readable) +
                                    "': not an integer power of " + std::string(symbol));
      end = static_cast<std::size_t>(next - readable.data());
    }
    bool expanded = false;
    for (const Derived& d : derived)
      if (d.symbol == symbol) {
        add("kg", sign * power * d.kg);
        add("m", sign * power * d.m);
        add("s", sign * power * d.s);
        expanded = true;
      }
    if (!expanded) add(symbol, sign * power);
    i = end;
  }
  return out;
}

}  // namespace

std::string h5md_unit(std::string_view readable) {
  if (readable == "%") return "0.01";  // a numeric factor: the values are hundredths
  std::vector<std::pair<std::string, int>> all = factors(readable);
  // Base units first, in the order people write them (kg m s), then the others as they came.
  std::vector<std::pair<std::string, int>> ordered;
  for (const char* base : {"kg", "m", "s"})
    for (const auto& f : all)
      if (f.first == base) ordered.push_back(f);
  for (const auto& f : all)
    if (f.first != "kg" && f.first != "m" && f.first != "s") ordered.push_back(f);
  std::string out;
  for (const auto& [symbol, power] : ordered) {
    if (power == 0) continue;
    if (!out.empty()) out += ' ';
    out += symbol;
    if (power == 1) continue;
    if (power > 0) out += '+';
    out += std::to_string(power);
  }
  return out;
}

}  // namespace chaindem
