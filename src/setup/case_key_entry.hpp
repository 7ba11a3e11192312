#pragma once
// How a case key is declared (case_keys.cpp, output_keys.cpp): its text (KeyText), and the entry
// that reads it into its field of CaseSpec and names that field back (KeyEntry). Private to
// src/setup/.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chaindem/laws/law.hpp"
#include "chaindem/setup/case_spec.hpp"

namespace chaindem::case_key_detail {

constexpr double inf = ValueRange::inf;
using Range = ValueRange;
using Settings = SimulationSettings;

/// What a declaration says of a key besides its name, its field and its type.
struct KeyText {
  std::string unit = "-";
  std::string description;
  ValueRange range = {};
  std::string default_value = {};  ///< as text; empty: no default
  bool required = false;
  std::vector<std::string> choices = {};  ///< a word's allowed values (empty: any)
  bool changes_no_result = false;         ///< KeySpec::changes_no_result
};

/// One declared key: what reading and documenting it need, how its value fills its field, and
/// where that field is in a CaseSpec (for messages that name the key of a field).
struct KeyEntry {
  KeySpec spec;
  std::function<void(const CaseConfig&, CaseSpec&)> read;
  std::function<const void*(const CaseSpec&)> field;
};

/// The same for a key of every section of a kind ([material.NAME], [contact.A.B]): its key is
/// the section's prefix + `name`, and it fills a field of the section's Spec.
template <class Spec>
struct SectionKeyEntry {
  std::string name;
  KeySpec spec;  ///< its key without the section
  std::function<void(const CaseConfig&, const std::string& key, Spec&)> read;
  std::function<const void*(const Spec&)> field;
};
using MaterialKeyEntry = SectionKeyEntry<MaterialSpec>;
using PairKeyEntry = SectionKeyEntry<PairContactSpec>;

// How a field of each type is read from a validated value.
template <class T>
struct Field;
template <>
struct Field<double> {
  static constexpr ValueKind kind = ValueKind::number;
  static double read(const CaseConfig& c, const std::string& k) { return c.number(k); }
};
template <>
struct Field<long long> {
  static constexpr ValueKind kind = ValueKind::integer;
  static long long read(const CaseConfig& c, const std::string& k) { return c.integer(k); }
};
template <>
struct Field<int> {
  static constexpr ValueKind kind = ValueKind::integer;
  static int read(const CaseConfig& c, const std::string& k) {
    return static_cast<int>(c.integer(k));
  }
};
template <>
struct Field<bool> {
  static constexpr ValueKind kind = ValueKind::boolean;
  static bool read(const CaseConfig& c, const std::string& k) { return c.flag(k); }
};
template <>
struct Field<std::string> {
  static constexpr ValueKind kind = ValueKind::word;  // a declaration may say text
  static std::string read(const CaseConfig& c, const std::string& k) { return c.text(k); }
};
template <>
struct Field<std::vector<double>> {
  static constexpr ValueKind kind = ValueKind::number_list;
  static std::vector<double> read(const CaseConfig& c, const std::string& k) {
    return c.numbers(k);
  }
};
template <>
struct Field<std::vector<std::string>> {
  static constexpr ValueKind kind = ValueKind::word_list;
  static std::vector<std::string> read(const CaseConfig& c, const std::string& k) {
    return c.words(k);
  }
};
template <>
struct Field<BeadList<double>> {
  static constexpr ValueKind kind = ValueKind::bead_numbers;
  static BeadList<double> read(const CaseConfig& c, const std::string& k) {
    return parse_bead_numbers(c.text(k));  // validated
  }
};
template <>
struct Field<BeadList<std::string>> {
  static constexpr ValueKind kind = ValueKind::bead_words;
  static BeadList<std::string> read(const CaseConfig& c, const std::string& k) {
    return parse_bead_list(c.text(k));  // validated
  }
};
template <>
struct Field<std::array<double, 3>> {
  static constexpr ValueKind kind = ValueKind::vector3;
  static std::array<double, 3> read(const CaseConfig& c, const std::string& k) {
    const auto v = c.numbers(k);  // validated: three numbers
    return {v[0], v[1], v[2]};
  }
};
// An optional field: a key without a default, empty when the case does not give it.
template <class T>
struct Field<std::optional<T>> {
  static constexpr ValueKind kind = Field<T>::kind;
  static std::optional<T> read(const CaseConfig& c, const std::string& k) {
    return Field<T>::read(c, k);
  }
};

inline KeySpec spec_of(std::string name, ValueKind kind, KeyText text) {
  return {.key = std::move(name),
          .kind = kind,
          .unit = std::move(text.unit),
          .description = std::move(text.description),
          .range = text.range,
          .default_value = std::move(text.default_value),
          .required = text.required,
          .choices = std::move(text.choices),
          .changes_no_result = text.changes_no_result};
}

/// Key `name` fills `field` of `section`.
template <class S, class T>
KeyEntry key(S CaseSpec::*section, T S::*field, std::string name, KeyText text,
             ValueKind kind = Field<T>::kind) {
  KeyEntry e{spec_of(name, kind, std::move(text)), {}, {}};
  e.read = [=](const CaseConfig& c, CaseSpec& spec) {
    if (c.has(name)) spec.*section.*field = Field<T>::read(c, name);
  };
  e.field = [=](const CaseSpec& spec) -> const void* { return &(spec.*section.*field); };
  return e;
}

/// A word key whose words stand for values of `field`: its choices are the words.
template <class S, class V>
KeyEntry word_key(S CaseSpec::*section, V S::*field, std::string name,
                  std::vector<std::pair<std::string, V>> words, KeyText text) {
  for (const auto& [word, value] : words) text.choices.push_back(word);
  KeyEntry e{spec_of(name, ValueKind::word, std::move(text)), {}, {}};
  e.read = [=](const CaseConfig& c, CaseSpec& spec) {
    const std::string& given = c.text(name);  // validated: one of the words
    for (const auto& [word, value] : words)
      if (word == given) spec.*section.*field = value;
  };
  e.field = [=](const CaseSpec& spec) -> const void* { return &(spec.*section.*field); };
  return e;
}

/// A key of a section of a kind that fills `field` of its Spec.
template <class Spec, class T>
SectionKeyEntry<Spec> section_key(T Spec::*field, std::string name, KeyText text) {
  SectionKeyEntry<Spec> e{name, spec_of(name, Field<T>::kind, std::move(text)), {}, {}};
  e.read = [=](const CaseConfig& c, const std::string& key, Spec& m) {
    if (c.has(key)) m.*field = Field<T>::read(c, key);
  };
  e.field = [=](const Spec& m) -> const void* { return &(m.*field); };
  return e;
}

/// The keys of [output] (output_keys.cpp).
void output_keys(std::vector<KeyEntry>& k);

}  // namespace chaindem::case_key_detail
