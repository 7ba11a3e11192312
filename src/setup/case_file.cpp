#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/bead_list.hpp"
#include "chaindem/setup/case_spec.hpp"

#include <omp.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>

#include "chaindem/engine/simulation.hpp"
#include "chaindem/laws/contact_law.hpp"
#include "chaindem/output/output_file.hpp"  // input_file_problem
#include "chaindem/suggest.hpp"
#include "chaindem/text.hpp"

namespace po = boost::program_options;

namespace chaindem {
namespace {

// The items of a list value: separated by commas or blanks, any number of either (so no item
// is empty).
std::vector<std::string> list_items(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == ',' || std::isspace(static_cast<unsigned char>(ch))) {
      if (!cur.empty()) out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(ch);
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

// A value the case has validated as a number (check_value): read as it was read then.
double validated_number(const std::string& s) {
  double x = std::numeric_limits<double>::quiet_NaN();
  read_number(s, x);
  return x;
}

const char* kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::number:
      return "number";
    case ValueKind::integer:
      return "integer";
    case ValueKind::boolean:
      return "true/false";
    case ValueKind::word:
      return "word";
    case ValueKind::number_list:
      return "list of numbers";
    case ValueKind::word_list:
      return "list of words";
    case ValueKind::bead_numbers:
      return "numbers along the chain";
    case ValueKind::bead_words:
      return "words along the chain";
    case ValueKind::vector3:
      return "3 numbers";
    case ValueKind::text:
      return "text";
  }
  return "?";
}

// Checks a value against its declaration; returns an empty string or the problem.
std::string check_value(const KeySpec& k, const std::string& v) {
  const std::string unit = k.unit == "-" ? "" : " " + k.unit;
  auto number_ok = [&](const std::string& item) -> std::string {
    double x = 0;
    if (const NumberText read = read_number(item, x); read != NumberText::number)
      return number_problem(item, read) +
             (read == NumberText::not_finite ? "" : ": allowed " + k.range.text() + unit);
    if (!k.range.admits(x))
      return quoted_text(item) + " is out of range: allowed " + k.range.text() + unit;
    return "";
  };
  switch (k.kind) {
    case ValueKind::number:
      return number_ok(v);
    case ValueKind::integer: {
      double x = 0;
      if (read_number(v, x) == NumberText::number && x != std::floor(x))
        return "'" + quoted_text(v) + "' is not an integer";
      return number_ok(v);
    }
    case ValueKind::boolean: {
      static const std::set<std::string> ok{"true", "false", "yes", "no", "on", "off", "1", "0"};
      return ok.count(v) ? "" : "'" + quoted_text(v) + "' is not true or false";
    }
    case ValueKind::word:
      if (v.empty()) return "empty value";
      if (!k.choices.empty() &&
          std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end()) {
        if (is_law_key(k.key)) return unknown_law_text(v);  // not the whole list
        if (k.choices.size() > 8)
          return "'" + quoted_text(v) + "' is not one of its " + std::to_string(k.choices.size()) +
                 " values" + did_you_mean(v, k.choices);
        std::string allowed;
        for (const auto& c : k.choices) allowed += (allowed.empty() ? "" : ", ") + c;
        return "'" + quoted_text(v) + "' is not one of: " + allowed;
      }
      return "";
    case ValueKind::number_list: {
      const auto items = list_items(v);
      if (items.empty()) return "empty list";
      for (const auto& item : items)
        if (auto e = number_ok(item); !e.empty()) return e;
      return "";
    }
    case ValueKind::word_list:
      return list_items(v).empty() ? "empty list" : "";
    case ValueKind::bead_numbers:
      try {
        for (const double x : parse_bead_numbers(v).values())
          if (auto e = number_ok(number_text(x)); !e.empty()) return e;
        return "";
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
    case ValueKind::bead_words:
      try {
        parse_bead_list(v);
        return "";
      } catch (const std::invalid_argument& e) {
        return e.what();
      }
    case ValueKind::vector3: {
      const auto items = list_items(v);
      if (items.size() != 3) return "'" + quoted_text(v) + "' is not 3 numbers";
      for (const auto& item : items)
        if (auto e = number_ok(item); !e.empty()) return e;
      return "";
    }
    case ValueKind::text:
      return "";
  }
  return "";
}

}  // namespace

std::string check_key_value(std::string_view key, const std::string& value) {
  std::optional<KeySpec> found;
  const KeySpec* spec = find_section_key(key);
  if (!spec && (found = find_key(key))) spec = &*found;
  if (!spec) return "";
  const std::string problem = check_value(*spec, trimmed(value));
  return problem.empty() ? "" : problem + " (expected " + kind_name(spec->kind) + ")";
}

namespace {
// An error of Boost.Program_options whose message is made in one pass over its template. Boost
// replaces each placeholder "%name%" until none is left, so a value that holds its own
// placeholder is replaced forever; here the values are inserted once and never read again.
class OnePassOptionError : public po::error_with_option_name {
 public:
  explicit OnePassOptionError(const po::error_with_option_name& e)
      : po::error_with_option_name(e) {}

 protected:
  void substitute_placeholders(const std::string& error_template) const override {
    // Each value is what the user gave (an option, its argument, a line of a file): quoted as
    // messages quote, a line of a file (which may be any file) as an excerpt.
    std::map<std::string, std::string> values;
    for (const auto& [name, value] : m_substitutions)
      values[name] = name == "invalid_line" ? quoted_excerpt(value) : quoted_text(value);
    values["canonical_option"] = quoted_text(get_canonical_option_name());
    values["prefix"] = quoted_text(get_canonical_option_prefix());
    // As Boost does: a value missing or empty gives way to its default text (Boost's own).
    std::string text = error_template;
    for (const auto& [name, from_to] : m_substitution_defaults) {
      if (!values[name].empty() || from_to.first.empty()) continue;
      for (auto at = text.find(from_to.first); at != std::string::npos;
           at = text.find(from_to.first, at + from_to.second.size()))
        text.replace(at, from_to.first.size(), from_to.second);
    }
    m_message.clear();
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t open = text.find('%', at);
      const std::size_t close = open == std::string::npos ? open : text.find('%', open + 1);
      if (close == std::string::npos) {
        m_message += text.substr(at);
        break;
      }
      const auto value = values.find(text.substr(open + 1, close - open - 1));
      if (value == values.end()) {  // not a placeholder: the '%' is text
        m_message += text.substr(at, open + 1 - at);
        at = open + 1;
        continue;
      }
      m_message += text.substr(at, open - at) + value->second;
      at = close + 1;
    }
  }
};
}  // namespace

std::string option_error_message(const std::exception& e) {
  // An ambiguous option is a prefix of two declared names, which hold no '%': Boost's message,
  // which lists the names, is safe.
  if (dynamic_cast<const po::ambiguous_option*>(&e)) return e.what();
  if (const auto* named = dynamic_cast<const po::error_with_option_name*>(&e))
    return OnePassOptionError(*named).what();
  return e.what();
}

int default_threads() {
  const int threads = omp_get_max_threads();
  // Without OMP_NUM_THREADS it is the core count: a larger machine uses max_threads of its cores.
  if (threads > max_threads && std::getenv("OMP_NUM_THREADS"))
    throw CaseError("OMP_NUM_THREADS: " + std::to_string(threads) +
                    " threads is out of range: allowed 1 to " + std::to_string(max_threads) +
                    " (it sets the threads wherever none are given)");
  return std::min(threads, max_threads);
}

CaseConfig CaseConfig::load(const std::string& path, const std::vector<std::string>& overrides,
                            const std::vector<std::string>& unset,
                            const std::vector<std::string>& sources) {
  if (const std::string problem = input_file_problem(path); !problem.empty())
    throw CaseError("case file '" + quoted_path(path) + "' " + problem);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaseError("cannot read case file '" + quoted_path(path) + "'");
  // A case file is a page of text; anything far larger is not one (and is not read whole). Read
  // in blocks: a sweep loads its base case once per case, so the cost follows the file's size.
  constexpr std::size_t most = 64 << 20;
  std::string text;
  char block[1 << 16];
  while (in.read(block, sizeof block) || in.gcount() > 0) {
    text.append(block, static_cast<std::size_t>(in.gcount()));
    if (text.size() > most)
      throw CaseError("case file '" + quoted_path(path) +
                      "' is larger than 64 MiB, which no case file is");
  }
  if (in.bad()) throw CaseError("cannot read case file '" + quoted_path(path) + "'");
  return parse(text, path, overrides, unset, sources);
}

namespace {
// Where `text` stops being UTF-8 text (a NUL or control byte other than tab, CR, LF and form
// feed, or an invalid UTF-8 sequence), as "line L, byte 0xNN", or "" if it is all text.
std::string first_non_text(const std::string& text) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = c < 0x80           ? 1
                         : (c >> 5) == 0x6  ? 2
                         : (c >> 4) == 0xE  ? 3
                         : (c >> 3) == 0x1E ? 4
                                            : 0;
    bool ok = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; ok && k < length; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (length == 1 && c < 0x20 && c != '\t' && c != '\r' && c != '\n' && c != '\f') ok = false;
    if (c == 0x7F) ok = false;
    if (!ok) {
      char byte[8];
      std::snprintf(byte, sizeof byte, "0x%02X", c);
      return "line " + std::to_string(line) + ", byte " + byte;
    }
    if (c == '\n') ++line;
    i += length;
  }
  return "";
}
}  // namespace

namespace {

// The overrides as INI lines "section.key=value", one each, each checked as a setting.
std::vector<std::string> override_lines(const std::vector<std::string>& overrides,
                                        const std::function<std::string(std::size_t)>& source) {
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < overrides.size(); ++k) {
    const auto [key, value] = split_setting(source(k), overrides[k]);
    if (const std::string where = first_non_text(overrides[k]); !where.empty())
      throw CaseError(source(k) + " '" + quoted_text(overrides[k]) + "': not UTF-8 text (" +
                      where.substr(where.find("byte")) + ")");
    lines.push_back(key + "=" + value + "\n");
  }
  return lines;
}

// The names of the sections of a kind in the file and the overrides, sorted: the NAMEs of
// [material.NAME] (section_of = material_of), the "A.B"s of [contact.A.B] (contact_pair_of). A
// first pass over both, so that their keys can be declared.
std::vector<std::string> section_names(
    const std::string& text, const std::string& origin, const std::string& override_text,
    std::optional<std::string> (*section_of)(std::string_view key)) {
  std::set<std::string> names;
  for (const std::string* src : {&text, &override_text}) {
    std::istringstream s(*src);
    try {
      const auto parsed = po::parse_config_file(s, po::options_description(), true);
      for (const auto& opt : parsed.options) {
        const std::string& key = opt.string_key;
        if (const std::optional<std::string> name = section_of(key)) names.insert(*name);
      }
    } catch (const po::error& e) {
      throw CaseError((src == &text ? quoted_path(origin) : std::string("command line --set")) +
                      ": " + option_error_message(e));
    }
  }
  return {names.begin(), names.end()};
}

// Reads INI text against the declared keys into `vm`, where the values first stored win.
class KeyReader {
 public:
  KeyReader(const std::vector<KeySpec>& specs, const std::string& origin) : origin_(origin) {
    for (const auto& k : specs) {
      desc_.add_options()(k.key.c_str(), po::value<std::string>());
      declared_.push_back(k.key);
    }
    for (const auto& k : material_keys("NAME")) suggested_.push_back(k.key);
  }

  bool declares(const std::string& key) const {
    return std::find(declared_.begin(), declared_.end(), key) != declared_.end() ||
           std::find(suggested_.begin(), suggested_.end(), key) != suggested_.end();
  }

  CaseError unknown_key(const std::string& where, const std::string& key) const {
    std::vector<std::string> names = declared_;
    names.insert(names.end(), suggested_.begin(), suggested_.end());
    return CaseError(where + ": unknown key '" + quoted_text(key) + "'" + did_you_mean(key, names) +
                     " (`chaindem run --help` and docs/case-format.md list the keys)");
  }

  // Stores `text`; `where` names it in messages, `is_file` says it is the case file itself.
  po::parsed_options store(const std::string& text, const std::string& where, bool is_file) {
    std::istringstream s(text);
    try {
      po::parsed_options parsed = po::parse_config_file(s, desc_, false);
      po::store(parsed, vm);
      return parsed;
    } catch (const po::unknown_option& e) {
      if (is_file && e.get_option_name().starts_with("sweep."))
        throw CaseError(quoted_path(origin_) +
                        " is a sweep file (its [sweep] section names a base case), not a case "
                        "file: `chaindem sweep " +
                        quoted_path(origin_) + "` runs it (docs/sweeps.md)");
      throw unknown_key(where, e.get_option_name());
    } catch (const po::multiple_occurrences& e) {
      throw CaseError(where + ": key '" + quoted_text(e.get_option_name()) +
                      "' is given more than once");
    } catch (const po::error& e) {
      throw CaseError(where + ": " + option_error_message(e));
    }
  }

  po::variables_map vm;

 private:
  const std::string& origin_;
  po::options_description desc_;
  std::vector<std::string> declared_;
  std::vector<std::string> suggested_;  ///< keys of [material.NAME], for suggestions
};

}  // namespace

CaseConfig CaseConfig::parse(const std::string& text, const std::string& origin,
                             const std::vector<std::string>& overrides,
                             const std::vector<std::string>& unset,
                             const std::vector<std::string>& sources) {
  if (const std::string lines = text_lines(text); lines != text)
    return parse(lines, origin, overrides, unset, sources);
  if (const std::string where = first_non_text(text); !where.empty())
    throw CaseError(quoted_path(origin) + ": not a text file (" + where +
                    "); a case file is INI text (docs/case-format.md)");
  auto source = [&](std::size_t k) { return k < sources.size() ? sources[k] : "--set"; };
  const std::vector<std::string> lines = override_lines(overrides, source);
  for (const std::string& key : unset) check_setting("--unset", key);
  Read read;
  read.origin = origin;
  read.source_text = text;
  std::string override_text;
  for (const std::string& line : lines) override_text += line;
  read.materials = section_names(text, origin, override_text, material_of);
  read.contact_pairs = section_names(text, origin, override_text, contact_pair_of);

  std::vector<KeySpec> specs = case_keys();
  for (const auto& m : read.materials) {
    auto mk = material_keys(m);
    specs.insert(specs.end(), mk.begin(), mk.end());
  }
  for (const auto& pair : read.contact_pairs) {
    auto pk = contact_pair_keys(pair);
    specs.insert(specs.end(), pk.begin(), pk.end());
  }
  KeyReader reader(specs, origin);
  // Overrides are stored first, so they win over the file; each on its own, so that a problem
  // names where it comes from (a key given twice would otherwise keep its first value unseen).
  for (std::size_t k = 0; k < lines.size(); ++k)
    for (const auto& option : reader.store(lines[k], source(k), false).options)
      read.note_override(option.string_key, source(k));
  reader.store(text, quoted_path(origin), true);
  for (const std::string& key : unset) {
    if (!reader.declares(key)) throw reader.unknown_key("--unset", key);
    if (const auto it = read.override_source.find(key); it != read.override_source.end())
      throw CaseError("--unset " + quoted_text(key) + ": " +
                      (it->second == "--set" ? "the command line also sets it with --set"
                                             : it->second + " also sets it"));
    reader.vm.erase(key);
  }
  for (const auto& k : specs) read.resolve(k, reader.vm);
  CaseConfig cfg;
  cfg.read_ = std::make_shared<const Read>(std::move(read));
  return cfg;
}

CaseConfig CaseConfig::with_values(const std::vector<std::string>& settings,
                                   const std::vector<std::string>& sources) const {
  auto source = [&](std::size_t k) { return k < sources.size() ? sources[k] : "--set"; };
  const std::vector<std::string> lines = override_lines(settings, source);
  CaseConfig cfg = *this;  // what was read is shared, not copied
  for (std::size_t k = 0; k < settings.size(); ++k) {
    const std::string key = lines[k].substr(0, lines[k].find('='));
    const auto it = read_->override_source.find(key);
    if (it == read_->override_source.end() || it->second != source(k))
      throw std::logic_error("CaseConfig::with_values: " + source(k) + " did not set " + key);
    // As parse() reads the line: the value trimmed, then checked against its declaration.
    const std::string value = trimmed(lines[k].substr(key.size() + 1));
    if (const std::string problem = check_key_value(key, value); !problem.empty())
      cfg.fail(key, problem);
    cfg.changed_[key] = value;
  }
  return cfg;
}

void CaseConfig::Read::note_override(const std::string& key, const std::string& source) {
  if (const auto it = override_source.find(key); it != override_source.end())
    throw CaseError(it->second == source
                        ? source + ": key '" + quoted_text(key) + "' is given more than once"
                        : it->second + " and " + source + ": key '" + quoted_text(key) +
                              "' is given in both; give it once");
  override_source[key] = source;
}

void CaseConfig::Read::resolve(const KeySpec& k, const po::variables_map& vm) {
  const auto it = vm.find(k.key);
  if (it != vm.end()) {
    const std::string v = trimmed(it->second.as<std::string>());
    if (auto problem = check_value(k, v); !problem.empty())
      fail(k.key, problem + " (expected " + kind_name(k.kind) + ")");
    values[k.key] = v;
    given[k.key] = true;
  } else if (!k.default_value.empty()) {
    values[k.key] = k.default_value;
    given[k.key] = false;
  } else if (k.required) {
    fail(k.key, "is missing (" + k.description + ")");
  }
}

void CaseConfig::Read::fail(std::string_view key, const std::string& what) const {
  throw CaseError(where(key) + ": " + what);
}

std::string CaseConfig::Read::where(std::string_view key) const {
  const auto it = override_source.find(key);
  return it != override_source.end() ? it->second + " " + std::string(key)
                                     : quoted_path(origin) + ": " + std::string(key);
}

void CaseConfig::fail(std::string_view key, const std::string& what) const {
  read_->fail(key, what);
}

void CaseConfig::forget(const std::vector<std::string>& keys) {
  auto read = std::make_shared<Read>(*read_);  // shared with other cases: changed apart
  for (const std::string& key : keys) {
    read->values.erase(key);
    read->given.erase(key);
    read->override_source.erase(key);
    changed_.erase(key);
  }
  read_ = std::move(read);
}

std::map<std::string, std::string> CaseConfig::resolved() const {
  std::map<std::string, std::string> all(read_->values.begin(), read_->values.end());
  for (const auto& [key, value] : changed_) all[key] = value;
  return all;
}

bool CaseConfig::from_command_line(std::string_view key) const {
  return read_->override_source.count(key) > 0;
}

std::string CaseConfig::where(std::string_view key) const {
  return read_->where(key);
}

bool CaseConfig::has(std::string_view key) const {
  return read_->values.count(key) > 0;
}

bool CaseConfig::given(std::string_view key) const {
  const auto it = read_->given.find(key);
  return it != read_->given.end() && it->second;
}

const std::string& CaseConfig::text(std::string_view key) const {
  if (const auto it = changed_.find(key); it != changed_.end()) return it->second;
  const auto it = read_->values.find(key);
  if (it == read_->values.end()) fail(key, "is missing");
  return it->second;
}

double CaseConfig::number(std::string_view key) const {
  return validated_number(text(key));
}

long long CaseConfig::integer(std::string_view key) const {
  return static_cast<long long>(validated_number(text(key)));
}

bool CaseConfig::flag(std::string_view key) const {
  const std::string& v = text(key);
  return v == "true" || v == "yes" || v == "on" || v == "1";
}

std::vector<double> CaseConfig::numbers(std::string_view key) const {
  std::vector<double> out;
  for (const auto& item : list_items(text(key))) out.push_back(validated_number(item));
  return out;
}

std::vector<std::string> CaseConfig::words(std::string_view key) const {
  return list_items(text(key));
}

std::string case_format_markdown() {
  std::ostringstream md;
  md << "# Case file format\n\n"
        "<!-- Generated by `chaindem case-format`; a test checks this file against the code. "
        "-->\n\n"
        "A case is an INI file read with Boost.Program_options: `[section]` headers, `key = "
        "value`\n"
        "lines, `#` comments. SI units throughout. Any key can be overridden on the command line\n"
        "with `--set section.key=value`, which wins over the file. Unknown keys, values of the\n"
        "wrong type or outside their range, and missing required keys stop the run with a message\n"
        "naming the key and exit code 2, before any output file is created. Lists are separated "
        "by\n"
        "commas or spaces; the lists along the chain (`chain.materials`, `chain.radii`,\n"
        "`chain.velocity`) are written compactly: `ITEM*N` repeats an item, `(ITEMS)*N` a "
        "group,\n"
        "`K=ITEM` sets bead K apart (`steel*10 ptfe*10`, `(steel ptfe)*20`, `steel 12=brass`). "
        "Numbers are decimal (`0.005`, `1.5e-3`, `5e7`), read as every number\n"
        "of chaindem is (in sweep files, CSV data and `--set` values alike): no hexadecimal, no\n"
        "units; an integer key takes a whole number.\n\n"
        "The chain lies along +x: the striker (if any) at the origin, then the beads in order.\n"
        "A mistyped key, law or command is answered with the closest names (\"did you mean\n"
        "'contact.law'?\"). A problem with a value the command line set is blamed on\n"
        "`--set section.key` (or on the sweep file's `[set]` or `[axes]`), one in the file on\n"
        "the file.\n\n"
        "## Switching laws, removing keys\n\n"
        "A law parameter is accepted only when the chosen law declares it (`chaindem models LAW`\n"
        "lists each law's parameters, units and ranges), so that a typo or a law changed without\n"
        "its parameters is caught. One rule makes switching laws easy for every command: when the\n"
        "law is chosen apart from the case file (`run --set contact.law=...`, a sweep's `[set]` "
        "or\n"
        "axes, `compare --laws`), the file's parameters that the chosen law does not take are\n"
        "ignored, each with a note naming it (`note: case.ini: contact.restitution = 0.9 is not a\n"
        "parameter of law 'hertz': ignored`), and `run` records the case without them.\n"
        "Parameters given on the command line must belong to the law chosen there. `--unset\n"
        "section.key` (`run`, `compare`, `sweep`) removes a key the file gives, as if it were not\n"
        "there: its default applies, or a required key is reported missing.\n\n"
        "## Text\n\n"
        "A case file is UTF-8 text; a byte-order mark before it and lines ended by LF, CR LF or a\n"
        "lone CR (as old Mac OS saved them) are read alike. A key and value given apart from the\n"
        "file (`--set`, `--unset`, a sweep's `[set]` and `[axes]`, `fit --set`, Python's\n"
        "overrides) become one line of it: neither may hold a line break or another control\n"
        "character, the key no `=`, `#`, `;`, `[`, `]` or blank, the value no `#` (which begins a\n"
        "comment). Each is refused with exit code 2, naming the key. A case file, a sweep file, "
        "its\n"
        "base case and every data file must be a regular file: a FIFO, a device or a directory is\n"
        "refused before it is opened.\n\n"
     << plausibility_markdown();
  std::string section;
  auto row = [&](const KeySpec& k) {
    std::string def = k.default_value.empty() ? (k.required ? "**required**" : "(none)")
                                              : "`" + k.default_value + "`";
    std::string range;
    if (k.kind == ValueKind::number || k.kind == ValueKind::integer ||
        k.kind == ValueKind::number_list || k.kind == ValueKind::bead_numbers ||
        k.kind == ValueKind::vector3)
      range = k.law_parameter ? "per law" : k.range.text();
    if (!k.choices.empty() && !is_law_key(k.key)) {
      for (const auto& c : k.choices) range += (range.empty() ? "" : ", ") + c;
    }
    if (is_law_key(k.key)) range = "see `chaindem models`";
    md << "| `" << k.key.substr(k.key.find('.') + 1) << "` | " << kind_name(k.kind) << " | "
       << k.unit << " | " << range << " | " << def << " | " << k.description << " |\n";
  };
  for (const auto& k : case_keys()) {
    const std::string s = k.key.substr(0, k.key.find('.'));
    if (s != section) {
      section = s;
      md << "\n## [" << section
         << "]\n\n| key | type | unit | allowed | default | meaning |\n"
            "|---|---|---|---|---|---|\n";
    }
    row(k);
  }
  md << "\n## [material.NAME]\n\nOne section per material; NAME is used in `chain.materials`,\n"
        "`striker.material`, the wall sections and `extra.particles`.\n\n"
        "| key | type | unit | allowed | default | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& k : material_keys("NAME")) row(k);
  md << "\n## [contact.A.B]\n\n"
        "The contact model of a pair of materials A and B, or of a wall (wall_start, wall_end) "
        "and a\nmaterial, as EDEM's interaction table, LAMMPS' `pair_coeff i j` and LIGGGHTS' "
        "`peratomtypepair`\nset it ([contact.steel.ptfe], [contact.wall_end.steel]); the order "
        "of A and B does not matter.\nA pair without a section obeys [contact]. A section takes "
        "[contact]'s law unless it names\nits own, and those of [contact]'s parameters that its "
        "law takes; what it gives itself wins.\nThe impact-velocity policy, its reference and "
        "the hysteresis origin are [contact]'s for every\npair. docs/several-media.md.\n\n"
        "| key | type | unit | allowed | default | meaning |\n|---|---|---|---|---|---|\n";
  for (const auto& k : contact_pair_keys("A.B"))
    if (!k.law_parameter) row(k);
  md << "| any law parameter of [contact] | number | | per law | [contact]'s | the pair's value "
        "|\n";
  return md.str();
}

}  // namespace chaindem
