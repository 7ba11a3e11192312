#pragma once
// How messages quote what the user gave: text made safe for a terminal, numbers as they read
// back. Header-only; every layer may use it.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

namespace chaindem {

/// `text` as a message quotes it: every byte that is not printable ASCII (a control character,
/// which a terminal would act on, or a byte of another encoding) as \xNN, and at most `most`
/// characters of it, the rest shown as "...".
inline std::string quoted_text(std::string_view text, std::size_t most = 64) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == most) return out + "...";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
      out += escaped;
    }
  }
  return out;
}

/// `x` as the shortest text that reads back as it ("0.1", "1e+300", "nan", "inf"): how a message
/// quotes a number the user gave.
inline std::string number_text(double x) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, x);
  return ec == std::errc() ? std::string(text, end) : std::to_string(x);
}

/// `text` as a JSON string, in its quotes: `"` and `\` escaped, control characters as \u00XX.
inline std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(c));
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

/// `x` as a JSON number: the shortest text that reads back as it, or null when it is not finite
/// (JSON has no NaN or infinity).
inline std::string json_number(double x) {
  return std::isfinite(x) ? number_text(x) : "null";
}

}  // namespace chaindem
