#!/usr/bin/python3
"""What running from Python costs over the command line: a run and a sweep, timed both ways.

- A run: a chain of 10^5 beads (the default case) for 2000 steps, 5 output frames, one thread.
  The command line: `chaindem run ... -o FILE`, its engine time (the summary's wall_time) and
  the whole process. Python: chaindem.run(...) with the results in memory, its engine time and
  the whole call (building the case, running, handing the arrays to numpy).
- A sweep: 1000 cases (restitution 0.01..1 x striker speed 0.1..1 m/s of a 10-bead chain,
  1 ms, a frame every 10 us), on 2 threads: `chaindem sweep` against chaindem.sweep(...), which
  writes the same file and returns the summary table.

Best of REPEATS (default 5) runs each, alternated.

    PYTHONPATH=build/python /usr/bin/python3 bench/python_overhead.py [build/chaindem]
"""
import os
import subprocess
import sys
import tempfile
import time

import h5py

import chaindem

CHAINDEM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/chaindem")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "cases", "default.ini")
REPEATS = int(os.environ.get("REPEATS", "5"))


def run_keys(steps=2000):
    dt = chaindem.run(BASE, simulation={"duration": 1e-6}).summary["time_step"]
    duration = steps * dt
    return {"chain.count": 100000, "simulation.duration": repr(duration),
            "output.interval": repr(duration / 4), "simulation.threads": 1}


def best(times):
    return min(times), sorted(times)[len(times) // 2]


def main():
    keys = run_keys()
    cli_engine, cli_total, py_engine, py_total = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.h5")
        args = [CHAINDEM, "run", BASE, "-o", out, "--quiet", "--force"]
        for k, v in keys.items():
            args += ["--set", f"{k}={v}"]
        for _ in range(REPEATS):
            start = time.perf_counter()
            subprocess.run(args, check=True)
            cli_total.append(time.perf_counter() - start)
            with h5py.File(out, "r") as f:
                cli_engine.append(float(f["summary"].attrs["wall_time"]))
            start = time.perf_counter()
            r = chaindem.run(BASE, overrides=keys)
            py_total.append(time.perf_counter() - start)
            py_engine.append(r.summary["wall_time"])
            del r
        steps = int(r_steps(out))
        print(f"run, 10^5 beads, {steps} steps, 1 thread (best, median of {REPEATS}):")
        for label, times in (("command line, engine", cli_engine), ("chaindem.run, engine", py_engine),
                             ("command line, whole process", cli_total),
                             ("chaindem.run, whole call", py_total)):
            print(f"  {label:30s} {best(times)[0]:7.3f} s  {best(times)[1]:7.3f} s")
        print(f"  chaindem.run whole call / command line engine: "
              f"{best(py_total)[0] / best(cli_engine)[0]:.3f}")

        sweep = os.path.join(tmp, "sweep.ini")
        with open(sweep, "w") as f:
            f.write(f"[sweep]\nbase = {BASE}\n[set]\nchain.count = 10\noutput.interval = 1e-5\n"
                    "output.contacts = false\n[axes]\ncontact.restitution = 0.01:1:0.01\n"
                    "striker.velocity = 0.1:1:0.1\n")
        cli, py = [], []
        for _ in range(REPEATS):
            for name in os.listdir(tmp):
                if name.startswith("s.h5") or name.startswith("p.h5"):
                    os.remove(os.path.join(tmp, name))
            start = time.perf_counter()
            subprocess.run([CHAINDEM, "sweep", sweep, "-o", os.path.join(tmp, "s.h5"), "--quiet",
                            "--threads", "2"], check=True)
            cli.append(time.perf_counter() - start)
            start = time.perf_counter()
            table = chaindem.sweep(sweep, output_file=os.path.join(tmp, "p.h5"), threads=2)
            py.append(time.perf_counter() - start)
        print(f"sweep, {len(table)} cases, 2 threads (best, median of {REPEATS}):")
        print(f"  {'command line':30s} {best(cli)[0]:7.3f} s  {best(cli)[1]:7.3f} s")
        print(f"  {'chaindem.sweep':30s} {best(py)[0]:7.3f} s  {best(py)[1]:7.3f} s")
        print(f"  chaindem.sweep / command line: {best(py)[0] / best(cli)[0]:.3f}")


def r_steps(path):
    with h5py.File(path, "r") as f:
        return f["summary"].attrs["steps"]


if __name__ == "__main__":
    main()
