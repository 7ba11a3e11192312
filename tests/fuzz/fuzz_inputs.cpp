// Fuzz target for what chaindem reads from users: case files, sweep files, the command line's
// --set and --unset, and the CSV files it reads (measured impacts for `fit --data`, a chain's
// record for `compare --reference-data` and `fit --case`, a state for initial.file), each
// parsed and validated as the commands do before running anything. Invalid input must be
// refused with CaseError (a message naming the key or the file); any other exception, a crash,
// or an AddressSanitizer or UndefinedBehaviorSanitizer report is a bug, and so is a --set that
// is accepted but changes another key than its own.
//
// The first byte of an input selects what reads the rest:
//   0x01  settings: the bytes between NUL bytes, each a --set (alone, and all together), each
//         an --unset, and all a sweep's --set, over the default case;
//   0x02  measured impacts (fit::read_impact_data);
//   0x03  a chain's record (read_chain_record), of velocities and of forces;
//   0x04  an initial state (read_initial_state), as CSV.
// Any other first byte (which no text file begins with) is case and sweep files: the bytes up to
// the first NUL byte are a sweep file whose base case is the bytes after it (the default case
// when there is no NUL byte), and the bytes after the first NUL byte (all of them when there is
// none) are also a case file on their own. So the shipped case and sweep files are seeds as they
// are, and a seed "SWEEP\0CASE" fuzzes a sweep together with its base case.
//
// The CSV readers read files: the input goes into a file of this process in the temporary
// folder first. libFuzzer (scripts/fuzz.sh) links this with its own main;
// tests/fuzz/replay_main.cpp replays a corpus with any compiler.

#include <cxxabi.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "chaindem/commands/sweep_definition.hpp"
#include "chaindem/fit/impact_data.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/setup/chain_record.hpp"
#include "chaindem/setup/initial_state.hpp"
#include "chaindem/setup/scene_builder.hpp"
#include "chaindem/text.hpp"

namespace {

using namespace chaindem;
namespace fs = std::filesystem;

// cases/default.ini without its comments: the base case of a sweep input that brings none.
const char* const default_case = R"([simulation]
duration = 1.0e-3
steps_per_contact = 64
[contact]
law = edem_hertz_mindlin
restitution = 0.9
tension = clamp
[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
[chain]
count = 20
materials = steel
radii = 0.005
[striker]
velocity = 1.0
[wall_end]
enabled = true
material = steel
[output]
interval = 2e-6
)";

// Longer chains are valid, and build_run refuses those larger than the machine's memory; but a
// build of 1e7 beads takes seconds and gigabytes, which would slow the fuzzer to a crawl and hit
// its memory limit without finding anything a 1e4-bead chain does not.
constexpr long long most_beads = 10000;

// The first cases of a sweep and its last are validated: the others differ only in their values,
// which parse_sweep has checked one by one.
constexpr std::size_t cases_checked = 3;

[[noreturn]] void finding(const char* what, const std::exception& e) {
  int status = 0;
  char* type = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status);
  std::fprintf(stderr, "fuzz_inputs: %s threw %s, not CaseError: %s\n", what,
               status == 0 ? type : typeid(e).name(), e.what());
  std::abort();
}

// As `chaindem run` validates: parse, then build the run (every key checked, the scene built),
// both as run and sweep do and with foreign law parameters ignored as compare does.
void check_case(const std::string& text, const std::string& origin,
                const std::vector<std::string>& overrides) {
  CaseConfig cfg;
  try {
    cfg = CaseConfig::parse(text, origin, overrides);
  } catch (const CaseError&) {
    return;
  } catch (const std::exception& e) {
    finding("CaseConfig::parse", e);
  }
  if (cfg.integer("chain.count") > most_beads) return;
  for (const bool ignore_foreign : {false, true}) {
    try {
      (void)build_run(cfg, {.ignore_foreign_law_params = ignore_foreign});
    } catch (const CaseError&) {
    } catch (const std::exception& e) {
      finding("build_run", e);
    }
  }
}

// As `chaindem sweep` validates: parse the sweep (with `sets` from its command line), then each
// case is the base case with the case's overrides (checked as a case file).
void check_sweep(const std::string& text, const std::string& base_text,
                 const std::vector<std::string>& sets = {}) {
  sweep::SweepDefinition d;
  try {
    d = sweep::parse_sweep(text, "fuzz/sweep.ini", sets);
  } catch (const CaseError&) {
    return;
  } catch (const std::exception& e) {
    finding("parse_sweep", e);
  }
  std::vector<std::size_t> checked;
  for (std::size_t k = 0; k < d.cases.size() && k < cases_checked; ++k) checked.push_back(k);
  if (d.cases.size() > cases_checked) checked.push_back(d.cases.size() - 1);
  for (const std::size_t k : checked) {
    try {
      (void)sweep::case_label(d, k);
      (void)sweep::case_name(k);
      check_case(base_text, d.base, sweep::case_overrides(d, k));
    } catch (const std::exception& e) {
      finding("a sweep case", e);
    }
  }
}

// `text` split at its NUL bytes.
std::vector<std::string> nul_separated(const std::string& text) {
  std::vector<std::string> parts;
  for (std::size_t from = 0;;) {
    const std::size_t nul = text.find('\0', from);
    parts.push_back(text.substr(from, nul == std::string::npos ? nul : nul - from));
    if (nul == std::string::npos) return parts;
    from = nul + 1;
  }
}

// As --set and --unset are read: each setting alone, where an accepted one must set its own key
// and no other (a line break or a '[' in it would set others); all of them together, as run
// builds them, as --unset keys and as a sweep's --set.
void check_settings(const std::vector<std::string>& settings) {
  CaseConfig plain;
  try {
    plain = CaseConfig::parse(default_case, "fuzz.ini");
  } catch (const std::exception& e) {
    finding("the default case", e);
  }
  for (const std::string& setting : settings) {
    std::string key;
    CaseConfig set;
    try {
      key = split_setting("--set", setting).first;
      set = CaseConfig::parse(default_case, "fuzz.ini", {setting});
    } catch (const CaseError&) {
      continue;
    } catch (const std::exception& e) {
      finding("one --set", e);
    }
    const std::map<std::string, std::string> plain_values = plain.resolved();
    for (const auto& [name, value] : set.resolved()) {
      const auto before = plain_values.find(name);
      if (name != key && (before == plain_values.end() || before->second != value)) {
        std::fprintf(stderr, "fuzz_inputs: --set '%s' set '%s' too\n", quoted_text(setting).c_str(),
                     quoted_text(name).c_str());
        std::abort();
      }
    }
  }
  check_case(default_case, "fuzz.ini", settings);
  try {
    (void)CaseConfig::parse(default_case, "fuzz.ini", {}, settings);
  } catch (const CaseError&) {
  } catch (const std::exception& e) {
    finding("--unset", e);
  }
  check_sweep("[sweep]\nbase = base.ini\n[axes]\nstriker.velocity = 0.5, 1\n", default_case,
              settings);
}

// The CSV readers read a file: the input's, in the temporary folder, one per process (libFuzzer
// may run several), removed at exit.
const std::string& csv_file() {
  static const std::string path = [] {
    std::error_code ec;
    fs::path folder = fs::temp_directory_path(ec);
    if (ec) folder = ".";
    return (folder / ("chaindem-fuzz-" + std::to_string(::getpid()) + ".csv")).string();
  }();
  static const bool removed_at_exit = std::atexit([] {
                                        std::error_code ec;
                                        fs::remove(csv_file(), ec);
                                      }) == 0;
  (void)removed_at_exit;
  return path;
}

void check_csv(char reader, const std::string& text) {
  {
    std::ofstream out(csv_file(), std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      std::fprintf(stderr, "fuzz_inputs: cannot write %s\n", csv_file().c_str());
      std::abort();
    }
  }
  try {
    switch (reader) {
      case 2:
        (void)fit::read_impact_data(csv_file());
        break;
      case 3:
        for (const RecordQuantity q : {RecordQuantity::velocity, RecordQuantity::force}) {
          try {
            (void)read_chain_record(csv_file(), q, 20, 1e-3, "--reference-data");
          } catch (const CaseError&) {
          }
        }
        break;
      case 4:
        // A file that begins with the HDF5 signature is read by the HDF5 library, whose own
        // parser this target does not fuzz (and which is built without the sanitizers).
        if (!text.starts_with("\x89HDF"))
          (void)read_initial_state(csv_file(), -1, {"steel", "glass"});
        break;
    }
  } catch (const CaseError&) {
  } catch (const std::exception& e) {
    finding("a CSV reader", e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  if (!input.empty() && input[0] >= 1 && input[0] <= 4) {
    if (input[0] == 1)
      check_settings(nul_separated(input.substr(1)));
    else
      check_csv(input[0], input.substr(1));
    return 0;
  }
  const std::size_t nul = input.find('\0');
  const std::string sweep_text = input.substr(0, nul);
  const std::string case_text = nul == std::string::npos ? input : input.substr(nul + 1);
  check_case(case_text, "fuzz.ini", {});
  check_sweep(sweep_text, nul == std::string::npos ? std::string(default_case) : case_text);
  return 0;
}
