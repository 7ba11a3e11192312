#pragma once
// Case files: human-readable INI read with Boost.Program_options, overridable from the command
// line. Every key is declared once in a table (case_keys()) with its type, unit, range, default
// and description; parsing, validation, `--help` and docs/case-format.md all derive from it.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "chaindem/value_range.hpp"

namespace boost::program_options {
class variables_map;
}

namespace chaindem {

/// Sizes and speeds a case may hold. Radii from a nanometre to a kilometre cover every body a
/// contact law of the library describes and keep masses and energies far from overflow. Speeds
/// of at most 10 km/s: beyond the elastic wave speed of any solid (about 6 km/s) no quasi-static
/// contact law applies.
inline constexpr double min_radius = 1e-9, max_radius = 1e3;  // [m]
inline constexpr double max_speed = 1e4;                      // [m/s]
/// How far from the origin a body may start, in smallest radii: there a double's spacing is
/// 2e-8 radii, well below the overlaps of an impact (1e-4 to 1e-2 radii); further out the
/// positions stop resolving the contacts.
inline constexpr double max_extent_in_radii = 1e8;

/// Invalid input: an unknown key, a value out of range, a missing key. The message names the key
/// and what is allowed. The command line maps it to exit code 2.
struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// What a key's value is. The bead lists are lists along the chain, written compactly
/// (bead_list.hpp): items repeated, groups repeated, beads set apart.
enum class ValueKind {
  number,
  integer,
  boolean,
  word,
  number_list,
  word_list,
  bead_numbers,
  bead_words,
  vector3,
  text
};

/// What a case key is, as reading, checking and documenting it need: the key declarations
/// (src/setup/case_keys.cpp) make one for each key.
struct KeySpec {
  std::string key;  ///< section.name
  ValueKind kind;
  std::string unit;
  std::string description;
  ValueRange range;           ///< of a number, or of each number of a list
  std::string default_value;  ///< as text; empty: no default
  bool required = false;
  std::vector<std::string> choices;  ///< for words: the allowed values (empty: any)
  /// A parameter of some law in [contact]: its range is the law's, checked when the law is known.
  bool law_parameter = false;
  /// Says how a run is carried out, not what it computes (its threads, where it writes, when it
  /// checkpoints): it may differ between a run and its --restart.
  bool changes_no_result = false;
};

/// The fixed keys (all sections but [material.NAME]), in documentation order.
const std::vector<KeySpec>& case_keys();
/// The keys of one [material.NAME] section.
std::vector<KeySpec> material_keys(const std::string& name);
/// The NAME of a key of a [material.NAME] section ("material.steel.density" gives "steel");
/// nullopt for a key of another section.
std::optional<std::string> material_of(std::string_view key);
/// The keys of one [contact.A.B] section, `pair` being "A.B".
std::vector<KeySpec> contact_pair_keys(const std::string& pair);
/// The "A.B" of a key of a [contact.A.B] section ("contact.steel.ptfe.law" gives "steel.ptfe");
/// nullopt for a key of another section.
std::optional<std::string> contact_pair_of(std::string_view key);
/// True when `key` names a contact law ([contact] or a [contact.A.B] section), whose values are
/// the registry's laws.
bool is_law_key(std::string_view key);

/// Checks one value of a declared key as reading a case does (type, finite, range): the problem,
/// or empty when the value is fine or `key` is not declared (reading the case then says so).
std::string check_key_value(std::string_view key, const std::string& value);

/// The OpenMP default thread count: OMP_NUM_THREADS, else all cores (at most max_threads of
/// them). Throws CaseError when OMP_NUM_THREADS asks for more than max_threads.
int default_threads();

/// A parsed and validated case: every declared key that has a value (given or default).
class CaseConfig {
 public:
  /// Reads `path`, applies `overrides` ("section.key=value", these win over the file; each key
  /// once) and removes the keys `unset` names (as if the file did not give them: a default
  /// applies), validates. A problem with a key an override set is blamed on where it came from:
  /// `sources`, one per override ("--set", "SWEEP.ini [set]", ...; "--set" where not given).
  static CaseConfig load(const std::string& path, const std::vector<std::string>& overrides = {},
                         const std::vector<std::string>& unset = {},
                         const std::vector<std::string>& sources = {});
  /// Same, from INI text (`origin` names it in messages).
  static CaseConfig parse(const std::string& text, const std::string& origin,
                          const std::vector<std::string>& overrides = {},
                          const std::vector<std::string>& unset = {},
                          const std::vector<std::string>& sources = {});

  /// This case with other values for keys an override set (`settings`, "section.key=value",
  /// each from the same source as then, `sources` as parse() takes them): what parse() would
  /// give for the same text with the overrides changed so, without reading the text again (the
  /// cases of a sweep differ only in their axes' values). Each value is checked as parse()
  /// checks it; a key that no override of the same source set is a std::logic_error.
  CaseConfig with_values(const std::vector<std::string>& settings,
                         const std::vector<std::string>& sources) const;

  bool has(std::string_view key) const;
  /// True when the user gave the key (file or command line), false when it is a default.
  bool given(std::string_view key) const;
  /// True when the command line gave the key (--set, or a sweep's [set] and axes).
  bool from_command_line(std::string_view key) const;
  /// Where the key's value comes from, for messages: "--set KEY" (or the override's source
  /// and KEY) or "FILE: KEY".
  std::string where(std::string_view key) const;
  double number(std::string_view key) const;
  long long integer(std::string_view key) const;
  bool flag(std::string_view key) const;
  const std::string& text(std::string_view key) const;
  std::vector<double> numbers(std::string_view key) const;
  std::vector<std::string> words(std::string_view key) const;

  /// Material names defined by [material.NAME] sections, sorted.
  const std::vector<std::string>& materials() const { return read_->materials; }
  /// The "A.B" of the [contact.A.B] sections of the file and the overrides, sorted.
  const std::vector<std::string>& contact_pairs() const { return read_->contact_pairs; }
  /// Every resolved key and its value as text, sorted by key: what reproduces the run.
  std::map<std::string, std::string> resolved() const;
  const std::string& origin() const { return read_->origin; }
  const std::string& source_text() const { return read_->source_text; }
  /// Removes keys the run did not use (RunSetup::ignored_keys), so that resolved() holds only
  /// what reproduces it.
  void forget(const std::vector<std::string>& keys);
  /// Throws CaseError naming `key`.
  [[noreturn]] void fail(std::string_view key, const std::string& what) const;

 private:
  /// Keys looked up as they are given (a string_view), without a string made for each.
  struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const {
      return std::hash<std::string_view>{}(key);
    }
  };
  template <class T>
  using ByKey = std::unordered_map<std::string, T, KeyHash, std::equal_to<>>;
  /// What parse() read, shared by the cases with_values() makes of it: a sweep holds thousands,
  /// which differ in a few values. Hashed: the set-up looks up every key of a case, some twice.
  struct Read {
    ByKey<std::string> values;
    ByKey<bool> given;
    ByKey<std::string> override_source;  ///< key: its override's source
    std::vector<std::string> materials;
    std::vector<std::string> contact_pairs;
    std::string origin;
    std::string source_text;

    /// Records that `source` (an override) sets `key`; throws when another override set it.
    void note_override(const std::string& key, const std::string& source);
    /// The value of `k` from what was read, its default, or an error when it is required and
    /// missing.
    void resolve(const KeySpec& k, const boost::program_options::variables_map& vm);
    /// Throws CaseError naming `key` (CaseConfig::fail).
    [[noreturn]] void fail(std::string_view key, const std::string& what) const;
    std::string where(std::string_view key) const;
  };

  std::shared_ptr<const Read> read_ = std::make_shared<const Read>();
  /// The values with_values() gave keys of read_.
  std::map<std::string, std::string, std::less<>> changed_;
};

/// The message of an error of Boost.Program_options, which reads case files, sweep files and
/// command lines. Its own what() never returns when the text it quotes (a line of a file, an
/// option) holds the placeholder it replaces, as in a line "x %invalid_line%": here each
/// placeholder is replaced once. Other exceptions: their what().
std::string option_error_message(const std::exception& e);

/// Markdown reference of every key (docs/case-format.md is this text).
std::string case_format_markdown();
/// Its "Plausibility" section: the initial overlaps refused and the values noted as a likely
/// unit mistake, from the set-up's own rules (src/setup/plausibility.cpp).
std::string plausibility_markdown();

/// Checks a case key, and its value, that enter a case apart from the lines of its file: the
/// command line's --set and --unset, a sweep file's [set] and [axes], fit's --set, Python's
/// overrides. Each is read as an INI line `key=value`, so a line break or another control
/// character in either would begin a line of its own (a section, another key); in the key '=',
/// '#', ';', '[', ']' or a blank would end it early or make it a comment or a section; and '#' in
/// the value would cut it short. `option` says where they came from ("--set", "s.ini: [axes]");
/// `value` is nullopt for a key alone (--unset). Throws CaseError naming the key (quoted_text).
void check_setting(const std::string& option, std::string_view key,
                   std::optional<std::string_view> value = std::nullopt);

/// `text` as --set gives it, "KEY=VALUE": split at its first '=' into the key, without the
/// blanks around it, and the value; both checked by check_setting. Throws CaseError
/// "OPTION 'TEXT': expected EXPECTED" when it has no '=' or no key.
std::pair<std::string, std::string> split_setting(
    const std::string& option, const std::string& text,
    const std::string& expected = "section.key=value");

/// The text of a case or sweep file as it is read: without a UTF-8 byte-order mark (with which
/// some editors begin a file), its line ends, LF, CR LF or a lone CR (as old Mac OS ended lines),
/// all LF.
std::string text_lines(std::string text);

/// `text` without the blanks (spaces, tabs) and line ends (CR, LF) at either end.
std::string trimmed(const std::string& text);

/// `text`, which the option `option` (or a file's line and column) gave, as one finite number,
/// read as read_number reads it (text.hpp). Throws CaseError naming `option` and the text: not a
/// number, outside the range of a double, or not finite.
double option_number(const std::string& option, const std::string& text);

}  // namespace chaindem
