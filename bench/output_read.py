#!/usr/bin/python3
"""Output storage: file size, write time and the two ways people read a run's per-particle
series, for each output.compression.

The run: the default case with a chain of 10^5 beads, no end wall, no contact output, one
thread, 501 frames (three series of 501 x 100001 x 3 doubles, 1.2 GB each before compression).
For each compression (gzip, lzf, none; a reference build, given, writes its own default):
- the file's size;
- the run's wall time, the whole process and the engine's (the summary's wall_time), and its
  CPU time (user + system, both threads: the engine's and the writer's), which a shared
  machine's load disturbs least;
- with h5py, in a file opened afresh (its chunk cache empty; the page cache warm), one bead's
  whole history, value[:, 5000, 0], and one whole frame, value[250], of the velocity.
Best of REPEATS (default 3) runs, alternated between the choices, and of 5 reads each.

    /usr/bin/python3 bench/output_read.py [build/chaindem] [REFERENCE/chaindem]

The file of `none` takes 3.6 GB of /tmp while it is measured.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

import h5py

CHAINDEM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/chaindem")
REFERENCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE = os.path.join(ROOT, "cases", "default.ini")
REPEATS = int(os.environ.get("REPEATS", "3"))
KEYS = ["chain.count=100000", "wall_end.enabled=false", "output.contacts=false",
        "simulation.threads=1"]
SERIES = "particles/chain/velocity/value"


def timed_read(path, select, times=5):
    best = float("inf")
    for _ in range(times):
        with h5py.File(path, "r") as f:
            d = f[SERIES]
            start = time.perf_counter()
            select(d)
            best = min(best, time.perf_counter() - start)
    return best


def run_args(binary, compression, out):
    args = [binary, "run", BASE, "-o", out, "--quiet", "--force"]
    for kv in KEYS + ([f"output.compression={compression}"] if compression else []):
        args += ["--set", kv]
    return args


def main():
    configs = ([("reference", REFERENCE, None)] if REFERENCE else []) + [
        (c, CHAINDEM, c) for c in ("gzip", "lzf", "none")]
    total = {label: [] for label, _, _ in configs}
    engine = {label: [] for label, _, _ in configs}
    cpu = {label: [] for label, _, _ in configs}
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = {label: os.path.join(tmp, label + ".h5") for label, _, _ in configs}
        for _ in range(REPEATS):  # alternated: the machine's speed drifts
            for label, binary, compression in configs:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                subprocess.run(run_args(binary, compression, out[label]), check=True)
                total[label].append(time.perf_counter() - start)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu[label].append(after.ru_utime + after.ru_stime - before.ru_utime -
                                  before.ru_stime)
                with h5py.File(out[label], "r") as f:
                    engine[label].append(float(f["summary"].attrs["wall_time"]))
        for label, _, _ in configs:
            path = out[label]
            with h5py.File(path, "r") as f:
                d = f[SERIES]
                frames, chunks, name = d.shape[0], d.chunks, d.compression
            rows.append((label, dict(size=os.path.getsize(path), total=min(total[label]),
                                     engine=min(engine[label]), cpu=min(cpu[label]),
                                     history=timed_read(path, lambda d: d[:, 5000, 0]),
                                     frame=timed_read(path, lambda d: d[250]), frames=frames,
                                     chunks=chunks, filter=name)))
            os.remove(path)
    print(f"10^5 beads, {rows[0][1]['frames']} frames, one thread; best of {REPEATS} runs "
          "(alternated), of 5 reads")
    print("| build, output.compression | chunk | file | run (process) | run (engine) | run (CPU) | "
          "bead history `[:, 5000, 0]` | frame `[250]` |")
    print("|---|---|---|---|---|---|---|---|")
    for label, m in rows:
        chunk = " x ".join(str(c) for c in m["chunks"])
        print(f"| {label} ({m['filter']}) | {chunk} | {m['size'] / 1e6:.1f} MB | "
              f"{m['total']:.2f} s | {m['engine']:.2f} s | {m['cpu']:.2f} s | "
              f"{m['history'] * 1e3:.1f} ms | "
              f"{m['frame'] * 1e3:.1f} ms |")


if __name__ == "__main__":
    main()
