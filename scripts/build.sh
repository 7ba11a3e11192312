#!/usr/bin/env bash
# Configures and builds chaindem in ./build (Release, warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCHAINDEM_WERROR=ON -DCHAINDEM_MPI=ON >/dev/null
cmake --build build -j"$(nproc)"
# Debian's python3 imports the module from this build (docs/python.md): a path file in its
# site folder, when this user may write there (root); else PYTHONPATH=build/python.
site=$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])')
if [ -d build/python/chaindem ] && mkdir -p "$site" 2>/dev/null && [ -w "$site" ]; then
  echo "$PWD/build/python" > "$site/chaindem.pth"
fi
