#!/usr/bin/env bash
# Installs exactly the Debian packages chaindem needs (idempotent: installs only what is missing).
#   scripts/setup.sh          what building and testing need (scripts/test.sh; g++ also brings
#                             the address, undefined and thread sanitizers of scripts/sanitize.sh;
#                             clang-format and ctags serve the checks scripts/check_format.sh and
#                             scripts/check_sizes.py)
#   scripts/setup.sh --fuzz   and clang with libFuzzer and OpenMP, for scripts/fuzz.sh
set -euo pipefail
packages=(
  build-essential cmake pkg-config clang-format universal-ctags
  libeigen3-dev libhdf5-dev libboost-dev libboost-program-options-dev
  hdf5-plugin-lzf liblzf1 zlib1g-dev
  libgtest-dev libbenchmark-dev libopenmpi-dev openmpi-bin libceres-dev
  python3 python3-numpy python3-h5py python3-matplotlib
  python3-dev pybind11-dev python3-pytest python3-setuptools python3-wheel python3-pip python3-venv
  liggghts
  paraview python3-paraview
)
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang libclang-rt-14-dev libomp-dev)
elif [ -n "${1:-}" ]; then
  echo "usage: scripts/setup.sh [--fuzz]" >&2
  exit 2
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
