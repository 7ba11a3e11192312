#include "chaindem/setup/bead_list.hpp"

#include <cctype>
#include <charconv>
#include <sstream>

#include "chaindem/text.hpp"

namespace chaindem {
namespace {

bool blank(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}
bool separator(char c) {
  return c == ',' || blank(c);
}
bool syntax(char c) {
  return c == '(' || c == ')' || c == '*' || c == '=';
}

// A recursive-descent reader of the grammar
//   list    := element*                     (elements separated by commas or blanks)
//   element := (item | '(' list ')') ['*' N] | K '=' item
// where a bead is set apart (K=item) only at the top level, outside any group.
class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}

  BeadList<std::string> read() {
    BeadList<std::string> list;
    list.pattern = group(sequence(0, list.set_apart), 1);
    if (!at_end())  // sequence stops at ')' only
      fail("')' at character " + std::to_string(pos_ + 1) + " closes no group");
    if (list.pattern.parts.empty() && list.set_apart.empty()) fail("empty list");
    if (list.pattern.parts.empty())
      fail(
          "only beads set apart: give the pattern the other beads take first (e.g. 'steel "
          "12=brass')");
    return list;
  }

 private:
  using Part = BeadList<std::string>::Part;

  // A group of `parts` repeated `times` times; refused beyond the longest chain.
  Part group(std::vector<Part> parts, long long times) const {
    Part g;
    g.parts = std::move(parts);
    g.times = times;
    g.span = 0;
    for (const Part& p : g.parts) g.span += p.times * p.span;  // each at most the longest chain
    if (g.span > max_bead_list_entries)
      fail("spans more than " + std::to_string(max_bead_list_entries) +
           " beads, the longest chain");
    return g;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("'" + quoted_excerpt(text_) + "': " + what);
  }
  bool at_end() {
    while (pos_ < text_.size() && separator(text_[pos_])) ++pos_;
    return pos_ >= text_.size();
  }
  void skip_blanks() {
    while (pos_ < text_.size() && blank(text_[pos_])) ++pos_;
  }
  bool next_is(char c) {
    skip_blanks();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  std::string word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !separator(text_[pos_]) && !syntax(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  // A whole number written at the current position: a repeat count or a bead index.
  long long whole_number(const std::string& what, long long low, long long high) {
    skip_blanks();
    const std::string w = word();
    long long n = 0;
    const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), n);
    if (w.empty() || error != std::errc() || end != w.data() + w.size() || n < low || n > high) {
      std::ostringstream m;  // not a chain of +: g++ 12 -Wrestrict misfires on it here
      m << "'" << quoted_excerpt(w) << "' is not " << what << ": a whole number from " << low
        << " to " << high;
      fail(m.str());
    }
    return n;
  }

  // Elements up to the end or a ')'; beads set apart go to `apart` (top level only).
  std::vector<Part> sequence(int depth, std::vector<std::pair<long long, std::string>>& apart) {
    std::vector<Part> out;
    while (!at_end() && text_[pos_] != ')') {
      Part element;
      if (text_[pos_] == '(') {
        if (depth >= max_depth)
          fail("groups nested deeper than " + std::to_string(max_depth) + " levels");
        const std::size_t open = pos_++;
        element = group(sequence(depth + 1, apart), 1);
        if (at_end() || text_[pos_] != ')')
          fail("the group opened at character " + std::to_string(open + 1) + " has no closing ')'");
        ++pos_;
        if (element.parts.empty()) fail("an empty group '()'");
      } else {
        const std::size_t start = pos_;
        std::string item = word();
        if (item.empty()) {
          std::ostringstream m;
          m << "'" << text_[pos_] << "' at character " << pos_ + 1 << " follows no item";
          fail(m.str());
        }
        if (next_is('=')) {
          if (depth > 0) fail("a bead is set apart (K=ITEM) outside groups only");
          pos_ = start;
          const long long bead =
              whole_number("a bead index", -max_bead_list_entries, max_bead_list_entries - 1);
          skip_blanks();
          ++pos_;  // '='
          skip_blanks();
          std::string value = word();
          if (value.empty()) fail("bead " + std::to_string(bead) + " is set apart to nothing");
          apart.emplace_back(bead, std::move(value));
          continue;
        }
        element.value = std::move(item);
      }
      if (next_is('*')) {
        ++pos_;
        element.times = whole_number("a repeat count", 1, max_bead_list_entries);
        if (element.times * element.span > max_bead_list_entries)  // both <= 5e7: no overflow
          fail("spans more than " + std::to_string(max_bead_list_entries) +
               " beads, the longest chain");
      }
      out.push_back(std::move(element));
    }
    return out;
  }

  static constexpr int max_depth = 64;  // far beyond any chain; keeps the reader's stack small
  const std::string& text_;
  std::size_t pos_ = 0;
};

}  // namespace

BeadList<std::string> parse_bead_list(const std::string& text) {
  return Reader(text).read();
}

BeadList<double> parse_bead_numbers(const std::string& text) {
  const BeadList<std::string> words = parse_bead_list(text);
  auto number = [&](const std::string& item) {
    double x = 0.0;
    if (const NumberText read = read_number(item, x); read != NumberText::number)
      throw std::invalid_argument(number_problem(item, read));
    return x;
  };
  return words.map(number);
}

}  // namespace chaindem
