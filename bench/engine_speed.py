#!/usr/bin/python3
"""Engine speed: ns per bead-step of `chaindem run` for the performance targets.

The case is the peer benchmark's (bench/peers/peer_benchmark.py): N touching steel beads
(R = 5 mm) struck at 1 m/s, dt = 3e-7 s, tension allowed, no wall. Each line is the best of
REPEATS runs (the machine is shared) of the step loop's own timer (/summary/ns_per_bead_step).

    /usr/bin/python3 bench/engine_speed.py [build/chaindem]      REPEATS=3 by default

Reports:
  laws     N = 1e5, one thread: Hertz, EDEM's Hertz-Mindlin (restitution 0.9), the hysteresis
           law of Hunt-Crossley, Lankarani-Nikravesh's plastic law, Thornton's elastoplastic
           law and two line contacts (Johnson's implicit law, Pereira's power law), each also
           relative to plain Hertz;
  output   N = 1e5, one thread, EDEM damping: no output vs positions, velocities and forces every
           100 steps (contacts off), and the overhead;
  threads  N = 1e6, 2000 steps, EDEM damping: 1 and 2 threads and the speed-up, for the step
           loop of `chaindem run` (whose timer also covers the first and last frame, written by
           a background thread that competes with the second compute thread), for the whole
           process (set-up and the final file included: serial work, mostly the kernel zeroing
           the ~0.7 GB the run touches first) and for the engine alone
           (build/bench/bench_engine: Simulation::advance in the process, no output);
  engines  N = 1e5, one thread, EDEM damping: the chain engine vs the general 3D engine.
"""
import os
import subprocess
import sys
import tempfile
import time

import json

import h5py

CHAINDEM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/chaindem")
BENCH_ENGINE = os.path.join(os.path.dirname(CHAINDEM), "bench", "bench_engine")
REPEATS = int(os.environ.get("REPEATS", "3"))
# Lines added to the case's [chain] section (bench/ab_engine.py --loaded).
CHAIN_EXTRA = ""
# The chain pre-compressed against a wall by a 50 N end load: every pair carries load from the
# start (a chain struck at rest has most of its pairs apart or touching by rounding only).
LOADED = """end_force = 50
static_overlap = true
[wall_end]
enabled = true
material = steel
"""
CASE = """[simulation]
duration = {duration}
time_step = 3e-07
threads = {threads}
engine = {engine}
[contact]
law = {law}
tension = allow
{law_params}
[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
yield_stress = 1.5e9
[chain]
count = {n}
materials = steel
radii = 0.005
{chain_extra}[striker]
velocity = 1.0
[output]
interval = {interval}
contacts = false
"""


def ns_per_bead_step(tmp, n, steps, law="edem_hertz_mindlin", law_params="restitution = 0.9",
                     threads=1, every=None, engine="auto", with_process=False):
    duration = steps * 3e-7
    case = os.path.join(tmp, "case.ini")
    with open(case, "w") as f:
        f.write(CASE.format(duration=duration, threads=threads, engine=engine, law=law,
                            law_params=law_params, n=n,
                            interval=duration if every is None else every * 3e-7,
                            chain_extra=CHAIN_EXTRA))
    out = os.path.join(tmp, "out.h5")
    best = float("inf")
    best_process = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run([CHAINDEM, "run", case, "-o", out, "--quiet", "--force"], check=True)
        process = time.perf_counter() - start
        with h5py.File(out, "r") as f:
            best = min(best, float(f["summary"].attrs["ns_per_bead_step"]))
        best_process = min(best_process, 1e9 * process / ((n + 1) * steps))
        os.remove(out)
    return (best, best_process) if every is not None or with_process else best


def engine_alone(threads, beads=1000000):
    """Best of REPEATS bench_engine runs: ns per bead-step of Simulation::advance, EDEM damping."""
    best = float("inf")
    for _ in range(REPEATS):
        out = subprocess.run(
            [BENCH_ENGINE, f"--benchmark_filter=chain/beads:{beads}/threads:{threads}/edem:1/",
             "--benchmark_min_time=1", "--benchmark_format=json"],
            check=True, capture_output=True, text=True).stdout
        for b in json.loads(out)["benchmarks"]:
            best = min(best, 1e9 / b["items_per_second"])
    return best


def main():
    with tempfile.TemporaryDirectory() as tmp:
        print(f"best of {REPEATS} runs, ns per bead-step")
        print("laws (N = 1e5, 2000 steps, 1 thread):")
        hertz = ns_per_bead_step(tmp, 100000, 2000, "hertz", "")
        print(f"  {'hertz':32s} {hertz:7.2f}")
        for law, params in (("edem_hertz_mindlin", "restitution = 0.9"),
                            ("hunt_crossley", "restitution = 0.9"),
                            ("lankarani_nikravesh_plastic", "restitution = 0.9"),
                            ("thornton_1997", ""),
                            # line contacts (spheres' masses; the law takes L = 20 mm)
                            ("johnson_cylindrical", "restitution = 0.9\nlength = 0.02"),
                            ("pereira_2015_external", "restitution = 0.9\nlength = 0.02")):
            t = ns_per_bead_step(tmp, 100000, 2000, law, params)
            print(f"  {law:32s} {t:7.2f}   {t / hertz:4.2f} x hertz")

        print("output (N = 1e5, 2000 steps, 1 thread, edem_hertz_mindlin):")
        # The loop timer, and the whole process (which includes writing what is still queued
        # when the loop ends, set-up and the final file).
        quiet, quiet_process = ns_per_bead_step(tmp, 100000, 2000, with_process=True)
        every, every_process = ns_per_bead_step(tmp, 100000, 2000, every=100)
        print(f"  step loop: no output {quiet:.2f}, every 100 steps {every:.2f}: overhead "
              f"{100 * (every / quiet - 1):.0f} %")
        print(f"  process:   no output {quiet_process:.2f}, every 100 steps {every_process:.2f}: "
              f"overhead {100 * (every_process / quiet_process - 1):.0f} %")

        print("threads (N = 1e6, 2000 steps, edem_hertz_mindlin):")
        one, one_process = ns_per_bead_step(tmp, 1000000, 2000, threads=1, with_process=True)
        two, two_process = ns_per_bead_step(tmp, 1000000, 2000, threads=2, with_process=True)
        print(f"  step loop: 1 thread {one:.2f}, 2 threads {two:.2f}: speed-up {one / two:.2f}")
        print(f"  process:   1 thread {one_process:.2f}, 2 threads {two_process:.2f}: "
              f"speed-up {one_process / two_process:.2f}")
        if os.path.exists(BENCH_ENGINE):
            one, two = engine_alone(1), engine_alone(2)
            print(f"  engine alone: 1 thread {one:.2f}, 2 threads {two:.2f}: "
                  f"speed-up {one / two:.2f}")

        print("engines (N = 1e5, 2000 steps, 1 thread, edem_hertz_mindlin):")
        general = ns_per_bead_step(tmp, 100000, 2000, engine="general")
        print(f"  chain {quiet:.2f}, general {general:.2f}: {general / quiet:.1f} x")


if __name__ == "__main__":
    main()
