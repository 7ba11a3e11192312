#pragma once
// How messages quote what the user gave: text made safe for a terminal, numbers as they read
// back; and how a number is read from text, one way for every file and option. Header-only;
// every layer may use it.

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

namespace chaindem {

/// How many bytes the character at `text[i]` takes when a terminal shows it as itself, or 0:
/// printable ASCII, or a well-formed UTF-8 sequence (so that 'µ.ini' reads as it is named) of
/// a character that is neither a control (U+0080 to U+009F, which some terminals obey as
/// escapes), nor a bidirectional override or isolate (U+202A to U+202E, U+2066 to U+2069, which
/// reorder the text around them), nor one that shows as nothing or as a plain blank (U+00A0,
/// U+200B to U+200F, U+2028, U+2029, U+2060, U+FEFF: a key that holds one would read as the key
/// it is not).
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
  if (code <= 0xA0 || (code >= 0x200B && code <= 0x200F) || (code >= 0x2028 && code <= 0x202E) ||
      code == 0x2060 || (code >= 0x2066 && code <= 0x2069) || code == 0xFEFF)
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

/// A size in bytes with three significant digits and the unit that keeps it readable: "512 B",
/// "277 kB", "56.1 GB" (decimal units, as disks are sold).
inline std::string bytes_text(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (u < 4 && bytes >= 999.5) {
    bytes /= 1000.0;
    ++u;
  }
  return rounded_text(bytes, 3) + " " + units[u];
}

/// What read_number found.
enum class NumberText { number, not_a_number, not_finite, too_large, too_small };

/// `text`, all of it, read as a decimal number: the one way chaindem reads a number, in case
/// files, sweep files, CSV data and options alike. An optional sign, digits with an optional
/// point, an optional exponent ("-1.5e-3", ".5", "+2", "5e7"); nothing else (no hexadecimal,
/// no blanks, no unit). "inf" and "nan" are read, as not_finite. A magnitude beyond the largest
/// double is too_large, a nonzero one below the smallest (4.9e-324, a subnormal, which is read)
/// too_small: neither is rounded to infinity or zero.
inline NumberText read_number(std::string_view text, double& x) {
  // from_chars reads no leading '+' (and no hexadecimal in its general format).
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  const char* end = text.data() + text.size();
  double read = 0.0;
  const auto [stop, ec] = std::from_chars(text.data(), end, read);
  if (text.empty() || stop != end) return NumberText::not_a_number;
  if (ec == std::errc::result_out_of_range) {
    // The text is a decimal number: strtod tells which way it left the range of a double.
    return std::abs(std::strtod(std::string(text).c_str(), nullptr)) > 1.0 ? NumberText::too_large
                                                                           : NumberText::too_small;
  }
  if (ec != std::errc()) return NumberText::not_a_number;
  x = read;
  return std::isfinite(read) ? NumberText::number : NumberText::not_finite;
}

/// `text` read as read_number reads it into x, and `below`, the part of its decimal value x cannot
/// hold, at the precision of a long double (64-bit significand): x + below is the text's value
/// to about 1e-19 of it. Positions given far from the origin keep their spacing to that
/// precision (Particles::position_carry).
inline NumberText read_number(std::string_view text, double& x, double& below) {
  const NumberText read = read_number(text, x);
  below = 0.0;
  if (read != NumberText::number) return read;
  if (text.size() > 1 && text[0] == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
  // from_chars, not strtold: it reads '.' as the decimal point whatever the locale.
  long double extended = 0.0L;
  const auto [stop, ec] = std::from_chars(text.data(), text.data() + text.size(), extended);
  if (ec != std::errc() || stop != text.data() + text.size()) return read;
  const double rest = static_cast<double>(extended - static_cast<long double>(x));
  // Below half an ulp of x, or the long double read something else: no carry.
  if (std::abs(rest) <= 0.5 * (std::nextafter(std::abs(x), INFINITY) - std::abs(x))) below = rest;
  return read;
}

/// What is wrong with `text`, which read_number found to be `what`, as a message says it
/// ("'0x14' is not a number"); "" for a number.
inline std::string number_problem(std::string_view text, NumberText what) {
  if (what == NumberText::number) return "";
  std::string out = "'";  // appended, not added: GCC 12 warns of a false overlap otherwise
  out += quoted_text(text);
  out += what == NumberText::not_finite ? "' is not finite"
         : what == NumberText::too_large
             ? "' is beyond the range of a double (magnitudes up to 1.8e308)"
         : what == NumberText::too_small
             ? "' is below the range of a double (magnitudes from 4.9e-324, or 0)"
             : "' is not a number";
  return out;
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
