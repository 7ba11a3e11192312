#!/usr/bin/python3
"""Sweep throughput: cases per second of cases/sweeps/restitution.ini (120 cases of a 10-bead
chain, ~1000 steps each), keeping its cases (`keep = cases`, the default: a group per case), only
its summary table (`keep = table`) or its cases' series stacked (`keep = stacked`: a row per case
of one dataset per series), on 1 and 2 threads.

    /usr/bin/python3 bench/sweep_throughput.py [build/chaindem [OTHER/chaindem ...]]

Each sweep is the shipped file with its base case made absolute and `keep` set; the same sweep
with ten chain gaps (5e-5 ... 5.9e-5 m, 1200 cases of the same cost) gives the rate per added
case, which leaves out what a sweep costs once (starting the process, creating and closing the
file, the summary table). Several builds (an earlier revision first, say) are run alternately,
so that a slow spell of the shared machine hits them alike; a build that refuses a `keep` (exit
2) is reported as such. KEEP=stacked,cases (say) runs those alone. Printed: each command, the best wall time of REPEATS runs
(default 3) with its cases/s and CPU seconds (user + system), and the rate per added case.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

source = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
builds = [os.path.abspath(b) for b in (sys.argv[1:] or ["build/chaindem"])]
repeats = int(os.environ.get("REPEATS", "3"))
shipped = os.path.join(source, "cases", "sweeps", "restitution.ini")
CASES = 120
KEEPS = os.environ.get("KEEP", "table,stacked,cases").split(",")


def sweep_text(keep, gaps):
    """restitution.ini with its base case absolute, `keep` and, with `gaps`, a chain.gap axis of
    ten values instead of its one gap."""
    lines = []
    for line in open(shipped).read().splitlines():
        if line.startswith("base = "):
            line = "base = " + os.path.join(source, "cases", "default.ini")
        if line.startswith("combine = ") and keep != "cases":  # the default, which any build runs
            line += f"\nkeep = {keep}"
        if gaps and line.startswith("chain.gap = "):
            continue
        lines.append(line)
    if gaps:
        lines.append("chain.gap = 5e-5:5.9e-5:1e-6")
    return "\n".join(lines) + "\n"


def timed(cmd):
    """Wall and CPU (user + system) seconds of `cmd`, or None when it refuses its input."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode == 2:
        return None
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


with tempfile.TemporaryDirectory() as tmp:
    sweeps = {}
    for keep in KEEPS:
        for gaps in (False, True):
            path = os.path.join(tmp, f"{keep}{'-gaps' if gaps else ''}.ini")
            with open(path, "w") as f:
                f.write(sweep_text(keep, gaps))
            sweeps[keep, gaps] = path
    out = os.path.join(tmp, "out.h5")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start")
    for keep in KEEPS:
        for threads in (1, 2):
            best = {}  # (build, gaps): (wall, cpu)
            for _ in range(repeats):
                for build in builds:
                    for gaps in (False, True):
                        cmd = [build, "sweep", sweeps[keep, gaps], "-o", out, "--quiet",
                               "--threads", str(threads)]
                        t = timed(cmd)
                        if os.path.exists(out):
                            os.remove(out)
                        if t is None:
                            best[build, gaps] = None
                        elif best.get((build, gaps), (float("inf"),))[0] > t[0]:
                            best[build, gaps] = t
            for build in builds:
                print(f"\n{build} sweep {os.path.basename(sweeps[keep, False])} -o OUT.h5 "
                      f"--quiet --threads {threads}   (restitution.ini, keep = {keep})")
                if best[build, False] is None:
                    print(f"  refused: this build has no keep = {keep}")
                    continue
                (wall, cpu), (wall10, cpu10) = best[build, False], best[build, True]
                print(f"  {CASES} cases, best of {repeats}: {wall:.3f} s = {CASES / wall:.0f} "
                      f"cases/s (CPU {cpu:.3f} s)")
                print(f"  {10 * CASES} cases (ten chain gaps): {wall10:.3f} s = "
                      f"{10 * CASES / wall10:.0f} cases/s (CPU {cpu10:.3f} s); per added case: "
                      f"{9 * CASES / (wall10 - wall):.0f} cases/s")
