#!/usr/bin/python3
"""Memory and set-up of long chains: the peak resident memory of `chaindem run` per bead, above
that of a run of 20 beads (the program itself), and the time the set-up takes before the first
step, for the chains of docs/engine.md ("Memory and set-up of long chains").

The case is cases/default.ini (steel beads, R = 5 mm, struck at 1 m/s, EDEM Hertz-Mindlin) without
its wall and contact output, one thread, two frames (the first and the last), 10 us simulated
(21 steps: the stepping adds nothing to the peak, and little time).

    /usr/bin/python3 bench/long_chain.py [build/chaindem] [BEADS ...]

BEADS defaults to 1e6, 4e6 and 4.9e7, about the longest chain of the default case (its line
within 1e8 radii of the origin; docs/engine.md: about 11 GB). The set-up
is timed by build/bench/long_chain_setup (reading and building the case, constructing the
simulation, creating the output file), best of REPEATS=3 runs; the memory by the kernel (the
child's ru_maxrss).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

CHAINDEM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/chaindem")
SETUP = os.path.join(os.path.dirname(CHAINDEM), "bench", "long_chain_setup")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE = os.path.join(ROOT, "cases", "default.ini")
BEADS = [int(float(b)) for b in sys.argv[2:]] or [1_000_000, 4_000_000, 49_000_000]
REPEATS = int(os.environ.get("REPEATS", "3"))
SETS = ["wall_end.enabled=false", "output.contacts=false", "output.interval=1",
        "simulation.duration=1e-5", "simulation.threads=1"]


def peak_of_run(beads, directory):
    """Peak resident memory [bytes] and wall time [s] of `chaindem run` on `beads` beads."""
    argv = [CHAINDEM, "run", CASE, "-q", "--force", "-o", os.path.join(directory, "out.h5")]
    for s in SETS + [f"chain.count={beads}"]:
        argv += ["--set", s]
    start = time.monotonic()
    process = subprocess.Popen(argv, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({process.returncode})")
    return usage.ru_maxrss * 1024, time.monotonic() - start


def setup_of(beads, directory):
    """long_chain_setup's phases [s] and the run's estimated peak memory, best of REPEATS."""
    best = None
    for _ in range(REPEATS):
        r = subprocess.run([SETUP, CASE, os.path.join(directory, "setup.h5"),
                            *SETS, f"chain.count={beads}"], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(r.stderr)
        phases = json.loads(r.stdout)
        if best is None or phases["total"] < best["total"]:
            best = phases
    return best


def main():
    with tempfile.TemporaryDirectory() as tmp:
        empty, _ = peak_of_run(20, tmp)
        print(f"program (20 beads): {empty / 2**20:.1f} MiB resident")
        print(f"{'beads':>10} {'peak MiB':>9} {'B/bead':>7} {'estimate':>9} "
              f"{'set-up s':>9} {'us/bead':>8} {'build':>6} {'engine':>6} {'file':>6} "
              f"{'run s':>6}")
        for beads in BEADS:
            s = setup_of(beads, tmp)
            peak, wall = peak_of_run(beads, tmp)
            per_bead = (peak - empty) / beads
            print(f"{beads:>10.3g} {peak / 2**20:>9.0f} {per_bead:>7.0f} "
                  f"{s['estimated_peak_memory'] / peak:>8.2f}x {s['total']:>9.3f} "
                  f"{1e6 * s['total'] / beads:>8.3f} {s['build']:>6.2f} {s['simulation']:>6.2f} "
                  f"{s['writer']:>6.2f} {wall:>6.1f}", flush=True)


if __name__ == "__main__":
    main()
