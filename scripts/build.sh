#!/usr/bin/env bash
# Configures and builds chaindem in ./build (Release, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCHAINDEM_WERROR=ON -DCHAINDEM_MPI=ON >/dev/null
cmake --build build -j"$(nproc)"
