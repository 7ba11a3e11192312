#!/usr/bin/env bash
# Builds chaindem with sanitizers, in a build folder of its own, and tests that build
# (docs/development.md):
#   scripts/sanitize.sh address   AddressSanitizer and UndefinedBehaviorSanitizer, in build-asan:
#                                 the whole test suite (ctest), where any invalid memory access,
#                                 leak or undefined behaviour fails the test that meets it
#   scripts/sanitize.sh thread    ThreadSanitizer, in build-tsan: the threaded paths of the
#                                 program (the writer thread of a run, the chain engine's regions
#                                 and the general engine's loops on 2 threads, a sweep on 2
#                                 threads), where a data race fails the check
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-address}
case "$kind" in
  address) dir=build-asan ;;
  thread) dir=build-tsan ;;
  *)
    echo "usage: scripts/sanitize.sh [address|thread]" >&2
    exit 2
    ;;
esac
bash scripts/setup.sh
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCHAINDEM_SANITIZE="$kind" \
  -DCHAINDEM_WERROR=ON -DCHAINDEM_MPI=ON -DCHAINDEM_BUILD_BENCH=OFF >/dev/null
if [ "$kind" = address ]; then
  cmake --build "$dir" -j"$(nproc)"
else
  cmake --build "$dir" -j"$(nproc)" --target chaindem
fi

if [ "$kind" = address ]; then
  export ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  cd "$dir"
  ctest --output-on-failure -j"$(nproc)"
  exit
fi

# ThreadSanitizer: every report is an error (exit status 66). libgomp is not built with TSan, so
# OpenMP's barriers are invisible to it: scripts/tsan.supp leaves out the reports that involve
# an OpenMP thread, which it recognises by libgomp in their stacks. The longest history and
# short runs keep those stacks: once an access is older than the history, its report has no
# stack to recognise. The chains on 2 threads are long enough for the parallel loops (above
# 4096 pairs or particles) and run a few tens of steps.
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan.supp:history_size=7:halt_on_error=1:exitcode=66"
out="$dir/smoke"
rm -rf "$out"
mkdir -p "$out"
check() {
  echo "== chaindem $*"
  "$dir/chaindem" "$@" >"$out/last.log" 2>&1 || {
    cat "$out/last.log"
    echo "sanitize: FAILED: chaindem $*" >&2
    exit 1
  }
}
check run cases/default.ini -o "$out/default.h5"
check run cases/default.ini -o "$out/regions.h5" --set chain.count=20000 \
  --set simulation.threads=2 --set simulation.duration=2e-5 --set output.interval=2e-6
check run cases/default.ini -o "$out/general.h5" --set chain.count=5000 \
  --set simulation.engine=general --set simulation.threads=2 --set simulation.duration=4e-6 \
  --set output.interval=1e-6
check sweep cases/sweeps/restitution.ini -o "$out/restitution.h5" --threads 2
echo "sanitize: thread: no data race reported"
