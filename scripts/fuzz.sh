#!/usr/bin/env bash
# Fuzzes what chaindem reads from users, case and sweep files, --set and --unset, and its CSV
# readers (tests/fuzz/fuzz_inputs.cpp), for SECONDS seconds (default 300) on one core: builds the
# libFuzzer target with clang, AddressSanitizer and UndefinedBehaviorSanitizer in ./build-fuzz,
# then mutates the seeds of tests/fuzz/corpus.
#   scripts/fuzz.sh [SECONDS]
# Inputs that reach new code are kept in build-fuzz/corpus (and read again by the next run); a
# crash, a sanitizer report or an exception other than CaseError stops the run and is saved as
# build-fuzz/findings/crash-*, and a hang as build-fuzz/findings/timeout-*. Neither folder is
# tracked: minimize a finding, fix it and add the input to tests/fuzz/corpus, whose replay
# (ctest fuzz_corpus_replay) every build runs. docs/development.md.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: scripts/fuzz.sh [SECONDS]   (a whole number of seconds, default 300)" >&2
  exit 2
fi
bash scripts/setup.sh --fuzz

# The libraries with coverage feedback and the sanitizers (CHAINDEM_FUZZ), the target and the
# program (which lists the keys and laws for the dictionary).
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHAINDEM_FUZZ=ON -DCHAINDEM_BUILD_TESTS=OFF \
  -DCHAINDEM_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_inputs chaindem

# A dictionary of the words of the file formats, so that mutations make keys, laws and columns
# that exist.
export ASAN_OPTIONS=detect_leaks=0
{
  build-fuzz/chaindem case-format | sed -n 's/^## \(\[[a-z_]*\]\).*/\1/p'
  build-fuzz/chaindem case-format | sed -n 's/^| `\([a-z_0-9]*\)` |.*/\1/p'
  build-fuzz/chaindem models --list | cut -f1
  build-fuzz/chaindem models | sed -n 's/^ *contact\.\([a-z_0-9]*\) .*/\1/p'
  printf '%s\n' '[material.' '[sweep]' '[set]' '[axes]' base combine output grid zip \
    true false yes no on off nan inf -inf e308 e-308 0x1p 1e-320 ':' ',' ';' '=' \
    velocity restitution peak_force contact_duration max_overlap sigma _sigma time bead \
    x y z vx vy vz radius material '[m/s]' '[mm/s]' '[ms]' '[kN]' '[mm]' '\xEF\xBB\xBF' '\x0D'
} | sort -u | sed 's/.*/"&"/' >build-fuzz/inputs.dict

mkdir -p build-fuzz/corpus build-fuzz/findings
unset ASAN_OPTIONS
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
set -x
build-fuzz/tests/fuzz/fuzz_inputs build-fuzz/corpus tests/fuzz/corpus \
  -dict=build-fuzz/inputs.dict -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 \
  -max_len=8192 -artifact_prefix=build-fuzz/findings/ -print_final_stats=1
