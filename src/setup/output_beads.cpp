#include "chaindem/setup/output_beads.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string_view>

namespace chaindem {
namespace {

// A whole number, all of `text`, or nothing.
bool whole_number(std::string_view text, std::int64_t& out) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::vector<std::int64_t> output_particles(const std::vector<std::string>& words,
                                           std::int64_t striker, std::int64_t chain_first,
                                           std::int64_t chain_count, std::int64_t particles) {
  const std::string allowed =
      " (allowed: all, striker, a chain bead K from 0 (negative from the end), or beads A:B or "
      "A:B:S, A to B inclusive, every S-th)";
  const std::string range = "0 to " + std::to_string(chain_count - 1) + ", or -1 to -" +
                            std::to_string(chain_count) + " from the end";
  // Chain bead `k` of `word` as a chain bead from 0.
  auto bead = [&](std::int64_t k, const std::string& word) {
    if (k < -chain_count || k >= chain_count)
      throw std::invalid_argument("'" + word + "': bead " + std::to_string(k) +
                                  " is not in the chain (" + range + ")");
    return k < 0 ? chain_count + k : k;
  };
  std::vector<std::int64_t> out;
  for (const std::string& word : words) {
    if (word == "all") return {};
    if (word == "striker") {
      if (striker < 0) throw std::invalid_argument("'striker': the run has no striker");
      out.push_back(striker);
      continue;
    }
    std::vector<std::string_view> parts;
    for (std::string_view rest = word;;) {
      const std::size_t colon = rest.find(':');
      parts.push_back(rest.substr(0, colon));
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
    std::int64_t numbers[3] = {0, 0, 1};
    bool read = parts.size() <= 3;
    for (std::size_t k = 0; read && k < parts.size(); ++k)
      read = whole_number(parts[k], numbers[k]);
    if (!read) throw std::invalid_argument("'" + word + "' names no bead" + allowed);
    if (parts.size() == 1) {
      out.push_back(chain_first + bead(numbers[0], word));
      continue;
    }
    const std::int64_t first = bead(numbers[0], word), last = bead(numbers[1], word);
    const std::int64_t step = numbers[2];
    if (step < 1)
      throw std::invalid_argument("'" + word + "': the step " + std::to_string(step) +
                                  " must be 1 or more");
    if (last < first)
      throw std::invalid_argument("'" + word + "': bead " + std::to_string(last) +
                                  " comes before bead " + std::to_string(first) +
                                  " (a range runs from its first bead to its last)");
    for (std::int64_t k = first;; k += step) {  // no overflow, whatever the step
      out.push_back(chain_first + k);
      if (last - k < step) break;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (static_cast<std::int64_t>(out.size()) == particles) return {};  // every particle
  return out;
}

}  // namespace chaindem
