#!/usr/bin/env bash
# Regenerates validation/edem-comparison.md's tables and figures: the CJTAM review's chain study
# (steel and aluminium chains of 64 beads), the commercial-DEM law and chaindem's
# equivalent-oscillator law against the exact-restitution hysteresis law.
#   bash validation/edem_comparison.sh [build/chaindem]
set -euo pipefail
cd "$(dirname "$0")/.."
chaindem=${1:-build/chaindem}
out=out/edem_study
mkdir -p "$out" validation/figures
laws=edem_hertz_mindlin,equivalent_oscillator_viscous,hunt_crossley,carvalho_martins
for material in steel aluminium; do
  "$chaindem" compare cases/edem_study/$material.ini --laws "$laws" --reference gonthier_exact \
    --beads 9,16,24,31,40,50,56,63 -o "$out/$material.h5" | tee "$out/$material.txt"
  /usr/bin/python3 postprocess/chaindem-plot compare "$out/$material.h5" --metric peak_velocity \
    --beads 9,16,24,31,40,50,56,63 -o validation/figures/edem_$material.png
  /usr/bin/python3 postprocess/chaindem-plot spacetime "$out/$material.h5" \
    --law edem_hertz_mindlin -o validation/figures/edem_${material}_spacetime.png
done
