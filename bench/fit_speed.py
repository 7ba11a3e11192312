#!/usr/bin/python3
"""How long `chaindem fit` takes, the whole command (best of REPEATS, default 3):

- one law to 20 restitution points of a 5 mm steel sphere on a steel wall (0.1 to 3 m/s,
  made by the law itself with 2 % noise): hunt_crossley (hysteresis: two impacts per
  evaluation) and thornton_1997 (elastoplastic: one impact per point);
- one law, and five, to a record of every bead of cases/default.ini (20 beads, 131 times; made
  by hunt_crossley at c_r 0.8 with 0.01 m/s noise), on 2 threads.

    /usr/bin/python3 bench/fit_speed.py build/chaindem
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build/chaindem")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPEATS = int(os.environ.get("REPEATS", "3"))
WALL = ["--radius", "0.005", "--youngs-modulus", "2e11", "--poisson-ratio", "0.3",
        "--density", "7800", "--wall"]


def restitution_data(folder, law, key, value):
    random = np.random.default_rng(1)
    path = os.path.join(folder, law + ".csv")
    with open(path, "w") as f:
        f.write("velocity,restitution\n")
        for v in np.geomspace(0.1, 3.0, 20):
            r = json.loads(subprocess.run(
                [CHAINDEM, "collide", "--law", law, "--velocity", repr(float(v)), "--set",
                 f"{key}={value!r}", "--json", *WALL], capture_output=True, text=True,
                check=True).stdout)
            f.write(f"{v!r},{r['restitution'] * (1 + 0.02 * random.standard_normal())!r}\n")
    return path


def chain_record(folder):
    run = os.path.join(folder, "run.h5")
    subprocess.run([CHAINDEM, "run", os.path.join(ROOT, "cases", "default.ini"), "--set",
                    "contact.law=hunt_crossley", "--set", "contact.restitution=0.8", "-o", run],
                   check=True, capture_output=True)
    with h5py.File(run) as f:
        v = f["particles/chain/velocity/value"][()][::4, :, 0]
        t = f["particles/chain/velocity/time"][()][::4]
    random = np.random.default_rng(6)
    path = os.path.join(folder, "record.csv")
    with open(path, "w") as f:
        f.write("time [us]," + ",".join(f"bead{b} [m/s]" for b in range(20)) + "\n")
        for k in range(len(t)):
            f.write(repr(t[k] * 1e6) + "," + ",".join(
                repr(v[k, 1 + b] + 0.01 * random.standard_normal()) for b in range(20)) + "\n")
    return path


def best_time(args):
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run([CHAINDEM, "fit", *args], check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


with tempfile.TemporaryDirectory() as folder:
    hc = restitution_data(folder, "hunt_crossley", "restitution", 0.6)
    th = restitution_data(folder, "thornton_1997", "yield_stress", 4e8)
    record = chain_record(folder)
    case = os.path.join(ROOT, "cases", "default.ini")
    rows = [
        ("hunt_crossley, 20 restitution points",
         ["--data", hc, "--laws", "hunt_crossley", *WALL]),
        ("thornton_1997, 20 restitution points",
         ["--data", th, "--laws", "thornton_1997", "--start", "yield_stress=2e8", *WALL]),
        ("hunt_crossley, 20-bead record (2 threads)",
         ["--case", case, "--data", record, "--laws", "hunt_crossley", "--sigma", "0.01",
          "--threads", "2"]),
        ("five laws, 20-bead record (2 threads)",
         ["--case", case, "--data", record, "--laws",
          "hunt_crossley,tsuji,jankowski_piecewise,lankarani_nikravesh_plastic,gonthier",
          "--sigma", "0.01", "--threads", "2"]),
    ]
    print("| fit (8 starts per law) | whole command |\n|---|---|")
    for name, args in rows:
        print(f"| {name} | {best_time(args):.2f} s |", flush=True)
