// What enters a case apart from its file's lines, and how any input file is read as text: the
// checks of --set keys and values, line ends and byte-order marks, files that are not regular
// files, and numbers of options (declared in case_file.hpp).
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "chaindem/setup/case_file.hpp"
#include "chaindem/text.hpp"

namespace chaindem {

namespace {
// A character of a key or a value that check_setting refuses, as its message names it.
std::string named_character(char c) {
  if (c == '\n' || c == '\r') return "a line break (" + quoted_text(std::string(1, c)) + ")";
  if (c == ' ') return "a blank";
  if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
    return "a control character (" + quoted_text(std::string(1, c)) + ")";
  return std::string{'\'', c, '\''};
}
bool control_character(char c) {
  return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
}
}  // namespace

void check_setting(const std::string& option, std::string_view key,
                   std::optional<std::string_view> value) {
  // Built by appending: g++ 12 warns of a false overlap in "'" + (temporary string).
  std::string quoted_key(1, '\'');
  quoted_key += quoted_text(key);
  quoted_key += '\'';
  if (key.empty()) throw CaseError(option + ": an empty key (expected section.key)");
  for (const char c : key)
    if (control_character(c) || c == ' ' ||
        std::string_view("=#;[]").find(c) != std::string_view::npos)
      throw CaseError(option + " " + quoted_key + ": the key holds " + named_character(c) +
                      "; a key is section.name, without '=', '#', ';', '[', ']', blanks or control "
                      "characters");
  if (!value) return;
  for (const char c : *value) {
    if (control_character(c))
      throw CaseError(option + " " + quoted_key + ": the value '" + quoted_text(*value) +
                      "' is not text: it holds " + named_character(c) +
                      "; a value is one line, without control characters");
    if (c == '#')
      throw CaseError(option + " " + quoted_key + ": the value '" + quoted_text(*value) +
                      "' holds '#', which begins a comment in a case file: a value cannot hold it");
  }
}

std::pair<std::string, std::string> split_setting(const std::string& option,
                                                  const std::string& text,
                                                  const std::string& expected) {
  const auto eq = text.find('=');
  // Blanks around the key are how INI lines are written ("key = value"); only they go.
  const auto key_begin = text.find_first_not_of(" \t");
  const auto key_end = eq == std::string::npos ? eq : text.find_last_not_of(" \t", eq - 1);
  if (eq == std::string::npos || eq == 0 || key_begin >= eq || key_end == std::string::npos)
    throw CaseError(option + " '" + quoted_text(text) + "': expected " + expected);
  std::pair<std::string, std::string> setting{text.substr(key_begin, key_end + 1 - key_begin),
                                              text.substr(eq + 1)};
  check_setting(option, setting.first, setting.second);
  return setting;
}

std::string text_lines(std::string text) {
  const std::string_view bom = "\xEF\xBB\xBF";
  if (std::string_view(text).starts_with(bom)) text.erase(0, bom.size());
  if (text.find('\r') == std::string::npos) return text;
  std::string lines;
  lines.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      lines += text[i];
    } else if (i + 1 == text.size() || text[i + 1] != '\n') {
      lines += '\n';  // a lone CR ends a line; the CR of CR LF goes, its LF ends the line
    }
  }
  return lines;
}

std::string trimmed(const std::string& text) {
  const auto b = text.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return text.substr(b, text.find_last_not_of(" \t\r\n") - b + 1);
}

double option_number(const std::string& option, const std::string& text) {
  double x = 0.0;
  if (const NumberText read = read_number(text, x); read != NumberText::number)
    throw CaseError(option + ": " + number_problem(text, read));
  return x;
}

}  // namespace chaindem
