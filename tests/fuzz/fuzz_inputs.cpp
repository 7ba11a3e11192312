// Fuzz target for what chaindem reads from users: case files and sweep files, parsed and then
// validated as `chaindem run` and `chaindem sweep` validate them before running anything.
// Invalid input must be refused with CaseError (a message naming the key); any other exception,
// a crash, or an AddressSanitizer or UndefinedBehaviorSanitizer report is a bug.
//
// One input is read in two ways. The bytes up to the first NUL byte are a sweep file whose base
// case is the bytes after it (the default case when there is no NUL byte), and the bytes after
// the first NUL byte (all of them when there is none) are also a case file on their own. So the
// shipped case and sweep files are seeds as they are, and a seed "SWEEP\0CASE" fuzzes a sweep
// together with its base case.
//
// libFuzzer (scripts/fuzz.sh) links this with its own main; tests/fuzz/replay_main.cpp replays a
// corpus with any compiler.

#include <cxxabi.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>
#include <vector>

#include "chaindem/commands/sweep_definition.hpp"
#include "chaindem/io/case_file.hpp"
#include "chaindem/io/scene_builder.hpp"

namespace {

using namespace chaindem;

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

// As `chaindem sweep` validates: parse the sweep, then each case is the base case with the case's
// overrides (checked as a case file).
void check_sweep(const std::string& text, const std::string& base_text) {
  sweep::SweepDefinition d;
  try {
    d = sweep::parse_sweep(text, "fuzz/sweep.ini", {});
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  const std::string sweep_text = input.substr(0, nul);
  const std::string case_text = nul == std::string::npos ? input : input.substr(nul + 1);
  check_case(case_text, "fuzz.ini", {});
  check_sweep(sweep_text, nul == std::string::npos ? std::string(default_case) : case_text);
  return 0;
}
