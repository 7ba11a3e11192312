#!/usr/bin/python3
"""How close a run's estimate of its time-discretisation error (simulation.error_estimate) comes
to its true error, on the shipped cases: each case at its automatic step with frames every 20
steps, its estimate (from the run at twice the step) against the largest difference, over the
frames and bodies, from the same case at an eighth of the step; at every frame and at the last.
All relative to the largest speed of any body. docs/engine.md, "Accuracy of a run".

    /usr/bin/python3 validation/error_estimate.py [build/chaindem] [CASE.ini ...]
"""
import glob
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHAINDEM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/chaindem")
CASES = sys.argv[2:] or sorted(glob.glob(os.path.join(ROOT, "cases", "*.ini")))


def run(case, out, *sets):
    argv = [CHAINDEM, "run", case, "-q", "--force", "-o", out, "--set", "output.contacts=false",
            "--set", "output.xdmf=false"]
    for s in sets:
        argv += ["--set", s]
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    with h5py.File(out, "r") as f:
        return f["particles/chain/velocity/value"][()], dict(f["summary"].attrs)


def main():
    print(f"{'case':28} {'dt':>9} {'estimate':>9} {'true':>9} {'ratio':>6} "
          f"{'final est':>9} {'final':>9} {'ratio':>6} {'s (run)':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.h5")
        for case in CASES:
            try:
                _, probe = run(case, out, "simulation.error_estimate=off")
                dt = probe["time_step"]
                v, s = run(case, out, f"simulation.time_step={dt!r}", "output.every=20",
                           "output.interval=0", "simulation.error_estimate=on")
                fine, _ = run(case, out, f"simulation.time_step={dt / 8!r}", "output.every=160",
                              "output.interval=0", "simulation.error_estimate=off")
            except RuntimeError as e:
                print(f"{os.path.basename(case):28} not run: {str(e).strip()[:80]}")
                continue
            n = min(len(v), len(fine))
            speed = np.linalg.norm(v[:n], axis=2).max()
            true = np.linalg.norm(v[:n] - fine[:n], axis=2).max() / speed
            final = np.linalg.norm(v[n - 1] - fine[n - 1], axis=1).max() / speed
            est, final_est = s.get("error_estimate", np.nan), s.get("final_error_estimate", np.nan)
            print(f"{os.path.basename(case):28} {dt:9.3g} {est:9.2e} {true:9.2e} "
                  f"{est / true:6.2f} {final_est:9.2e} {final:9.2e} {final_est / final:6.2f} "
                  f"{s['wall_time']:8.3f}", flush=True)


if __name__ == "__main__":
    main()
