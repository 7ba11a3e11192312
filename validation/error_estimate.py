#!/usr/bin/python3
"""How close a run's estimate of its time-discretisation error (simulation.error_estimate) comes
to its true error, on the shipped cases: each case at its automatic step with frames every 20
steps, its estimate (from the run at half the step) against the largest difference, over the
frames and bodies, from the same case at an eighth of the step; at every frame and at the last.
All relative to the largest speed of any body. docs/engine.md, "Accuracy of a run".

    /usr/bin/python3 validation/error_estimate.py [build/chaindem] [--scales K,...] [CASE.ini ...]

--scales runs each case at about these multiples of its automatic step instead (one row each),
frames every 20 automatic steps: how far the estimate holds off the step the table was measured
at. The multiple is 20/m for a whole m steps per frame, so that the run, its shadow and the
reference all end at the case's duration.
"""
import argparse
import glob
import os
import subprocess
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(chaindem, case, out, *sets):
    argv = [chaindem, "run", case, "-q", "--force", "-o", out, "--set", "output.contacts=false",
            "--set", "output.xdmf=false"]
    for s in sets:
        argv += ["--set", s]
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    with h5py.File(out, "r") as f:
        return f["particles/chain/velocity/value"][()], dict(f["summary"].attrs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("chaindem", nargs="?", default="build/chaindem")
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--scales", default="1", help="multiples of the automatic step")
    args = parser.parse_args()
    chaindem = os.path.abspath(args.chaindem)
    cases = args.cases or sorted(glob.glob(os.path.join(ROOT, "cases", "*.ini")))
    scales = [float(k) for k in args.scales.split(",")]
    print(f"{'case':30} {'dt':>9} {'estimate':>9} {'true':>9} {'ratio':>6} "
          f"{'final est':>9} {'final':>9} {'ratio':>6} {'s (run)':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.h5")
        for case in cases:
            name = os.path.basename(case)
            for k in scales:
                every = max(1, round(20 / k))  # steps per frame
                label = name if scales == [1.0] else f"{name} x{20 / every:.3g}"
                try:
                    _, probe = run(chaindem, case, out, "simulation.error_estimate=off")
                    dt = probe["time_step"] * 20 / every
                    v, s = run(chaindem, case, out, f"simulation.time_step={dt!r}",
                               f"output.every={every}", "output.interval=0",
                               "simulation.error_estimate=on")
                    fine, _ = run(chaindem, case, out, f"simulation.time_step={dt / 8!r}",
                                  f"output.every={8 * every}", "output.interval=0",
                                  "simulation.error_estimate=off")
                except RuntimeError as e:
                    print(f"{label:30} not run: {str(e).strip()[:80]}")
                    continue
                n = min(len(v), len(fine))
                speed = np.linalg.norm(v[:n], axis=2).max()
                true = np.linalg.norm(v[:n] - fine[:n], axis=2).max() / speed
                final = np.linalg.norm(v[n - 1] - fine[n - 1], axis=1).max() / speed
                est = s.get("error_estimate", np.nan)
                final_est = s.get("final_error_estimate", np.nan)
                print(f"{label:30} {dt:9.3g} {est:9.2e} {true:9.2e} {est / true:6.2f} "
                      f"{final_est:9.2e} {final:9.2e} {final_est / final:6.2f} "
                      f"{s['wall_time']:8.3f}", flush=True)


if __name__ == "__main__":
    main()
