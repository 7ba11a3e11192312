#pragma once
// "Did you mean ...?": the names closest to a mistyped one (a command, an option, a case key, a
// law), as git and cargo suggest them. Header-only; every layer may use it.

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chaindem {

/// Edit distance of `a` and `b` counting insertions, deletions, substitutions and swaps of two
/// neighbouring characters as one each (optimal string alignment).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

/// The candidates a user most likely meant by `word`, at most `most`: those at the smallest edit
/// distance from it, if that is within a third of the word's length (at least 1, at most 3);
/// else those that begin with it (three characters or more).
inline std::vector<std::string> closest_names(std::string_view word,
                                              const std::vector<std::string>& candidates,
                                              std::size_t most = 3) {
  const std::size_t limit = std::clamp<std::size_t>(word.size() / 3, 1, 3);
  std::vector<std::pair<std::size_t, std::string>> near;
  for (const std::string& c : candidates) {
    if (c == word) continue;
    const std::size_t d = edit_distance(word, c);
    if (d <= limit)
      near.emplace_back(d, c);
    else if (word.size() >= 3 && c.starts_with(word))
      near.emplace_back(limit + 1, c);
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : near) {
    if (out.size() == most || d > near.front().first) break;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

/// "; did you mean 'run'?" (or "'a' or 'b'"), or "" when nothing is close.
inline std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::vector<std::string> near = closest_names(word, candidates);
  if (near.empty()) return "";
  std::string s = "; did you mean ";
  for (std::size_t k = 0; k < near.size(); ++k)
    s += (k == 0 ? "" : k + 1 == near.size() ? " or " : ", ") + ("'" + near[k] + "'");
  return s + "?";
}

}  // namespace chaindem
