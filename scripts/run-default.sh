#!/usr/bin/env bash
# Installs what is missing, builds, and runs the default case (cases/default.ini) into out/default.h5.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
mkdir -p out
build/chaindem run cases/default.ini -o out/default.h5
