#!/usr/bin/env bash
# Installs what is missing, builds, and runs the default case (cases/default.ini) into out/default.h5.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
# --force: each run of this script replaces the default case's result of the previous one.
build/chaindem run cases/default.ini --force
