#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (unit, physics, CLI, validation).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)"
