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

/// How many bytes the character at `text[i]` takes when a terminal shows it as itself, or 0:
/// printable ASCII, or a well-formed UTF-8 sequence (so that 'µ.ini' reads as it is named) of
/// a character that is neither a control (U+0080 to U+009F, which some terminals obey as
/// escapes) nor a bidirectional override or isolate (U+202A to U+202E, U+2066 to U+2069, which
/// reorder the text around them).
inline std::size_t shown_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned c = byte(0);
  if (c < 0x80) return c >= 0x20 && c < 0x7F ? 1 : 0;
  const std::size_t length = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > text.size()) return 0;
  char32_t code = c & (0x7F >> length);
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(k) >> 6) != 0x2) return 0;
    code = (code << 6) | (byte(k) & 0x3F);
  }
  constexpr char32_t least[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter would be overlong
  if (code < least[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  if (code <= 0x9F || (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069))
    return 0;
  return length;
}

/// `text` as a message quotes it: every character a terminal shows as itself (shown_length)
/// kept, every other byte (a control character, which a terminal would act on, or a byte that
/// is not UTF-8) as \xNN; at most `most` characters of it, the rest shown as "...".
inline std::string quoted_text(std::string_view text, std::size_t most = 64) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++shown) {
    if (shown == most) return out + "...";
    if (const std::size_t length = shown_length(text, i); length > 0) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned char>(text[i]));
      out += escaped;
      ++i;
    }
  }
  return out;
}

/// A file name as a message quotes it: as quoted_text, long enough for any path one types.
inline std::string quoted_path(std::string_view path) {
  return quoted_text(path, 1024);
}

/// The first line of a file as a message quotes it: a short excerpt, since the file may be
/// anything (a password file named by mistake), and the message names the file itself.
inline std::string quoted_excerpt(std::string_view line) {
  return quoted_text(line, 32);
}

/// `message` as it reaches a terminal: every control character but newline, tab and carriage
/// return (which redraws the progress line) as \xNN. A last guard behind quoted_text: whatever
/// a message quotes without it still cannot act on the terminal.
inline std::string terminal_text(std::string_view message) {
  std::string out;
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t' && c != '\r') || u == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", u);
      out += escaped;
    } else {
      out += c;
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

/// `x` rounded to `digits` significant digits, in scientific form when large or small
/// ("2.092e+305", "0.005"): how a message shows a number it computed, which no one typed.
inline std::string rounded_text(double x, int digits = 4) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*g", digits, x);
  return text;
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
