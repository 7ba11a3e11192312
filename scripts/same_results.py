#!/usr/bin/python3
"""Whether two chaindem builds give the same results, bit for bit.

Runs every case in cases/ (`run`) and every sweep in cases/sweeps/ (`sweep`) with both builds,
and compares the files: every dataset and attribute, byte for byte, except those that measure
the machine (wall time, ns per bead-step) or name the run (which invocation of a sweep computed a
case). Also compares what the builds print for `models --markdown` and `case-format` with docs/contact-laws.md and
docs/case-format.md. A change meant to change no result (a restructuring, a speed-up) should
leave all of it identical.

    /usr/bin/python3 scripts/same_results.py REFERENCE/chaindem CANDIDATE/chaindem [--keep DIR]

A reference build of an earlier revision:
    git worktree add /tmp/reference REV && cmake -S /tmp/reference -B /tmp/reference/build \\
        -DCMAKE_BUILD_TYPE=Release -DCHAINDEM_BUILD_TESTS=OFF -DCHAINDEM_BUILD_BENCH=OFF \\
        && cmake --build /tmp/reference/build -j2

Exit status 0 when everything is identical, 1 when something differs (each difference is
listed), 2 when a build fails to run a case.
"""
import argparse
import glob
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Attributes that measure the machine or name the run, not the physics.
MACHINE = {"wall_time", "ns_per_bead_step", "sweep_invocation"}
# The sweep's own timing table (/summary) holds the same two measurements per case.
MACHINE_DATASETS = {"summary/wall_time", "summary/ns_per_bead_step"}


def comparable(value):
    """Bytes for numbers, text for strings (object arrays hold pointers, not values)."""
    a = np.asarray(value)
    if a.dtype.kind in "OSU":
        return repr(a.tolist())
    return (a.dtype.str, a.shape, a.tobytes())


def contents(path):
    """Every attribute and dataset of an HDF5 file, by path, as comparable values."""
    out = {}
    with h5py.File(path, "r") as f:
        def attributes(name, obj):
            for key, value in obj.attrs.items():
                if key not in MACHINE:
                    out[f"{name}@{key}"] = comparable(value)

        attributes("/", f)

        def visit(name, obj):
            attributes(name, obj)
            if isinstance(obj, h5py.Dataset) and name not in MACHINE_DATASETS:
                out[name] = comparable(obj[()])

        f.visititems(visit)
    return out


def differences(a, b):
    ca, cb = contents(a), contents(b)
    return [key for key in sorted(set(ca) | set(cb)) if ca.get(key) != cb.get(key)]


def run(exe, args, cwd, refusal_allowed=False):
    """The command's output; exits 2 when it fails. With `refusal_allowed`, None when it refuses
    its input (exit 2): a case the reference build cannot read (a capability added since)."""
    result = subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True)
    if refusal_allowed and result.returncode == 2:
        return None
    if result.returncode != 0:
        sys.stderr.write(f"{exe} {' '.join(args)} failed ({result.returncode}):\n"
                         f"{result.stderr}\n")
        sys.exit(2)
    return result.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reference")
    ap.add_argument("candidate")
    ap.add_argument("--keep", help="write the files into this directory and keep them")
    a = ap.parse_args()
    builds = {"reference": os.path.abspath(a.reference), "candidate": os.path.abspath(a.candidate)}
    cases = sorted(glob.glob(os.path.join(ROOT, "cases", "**", "*.ini"), recursive=True))
    sweeps = [c for c in cases if os.sep + "sweeps" + os.sep in c]
    runs = [c for c in cases if c not in sweeps]
    failed, new = [], []
    with tempfile.TemporaryDirectory() as tmp:
        work = os.path.abspath(a.keep) if a.keep else tmp
        for name in builds:
            os.makedirs(os.path.join(work, name), exist_ok=True)
        for case in runs + sweeps:
            rel = os.path.relpath(case, ROOT)
            out = rel.replace(os.sep, "_").replace(".ini", ".h5")
            command = "sweep" if case in sweeps else "run"
            refused = False
            for name, exe in builds.items():
                args = ([command, case, "-o", os.path.join(work, name, out), "--quiet"]
                        if command == "run" else
                        [command, case, "-o", os.path.join(work, name, out)])
                refused = refused or run(exe, args, work, name == "reference") is None
            if refused:  # the candidate ran it: a case of what the reference cannot do
                print(f"{'new':9s} {command} {rel} (the reference refuses it)")
                new.append(rel)
                continue
            diff = differences(os.path.join(work, "reference", out),
                               os.path.join(work, "candidate", out))
            print(f"{'same' if not diff else 'DIFFERENT':9s} {command} {rel}")
            for key in diff[:20]:
                print(f"            {key}")
            if len(diff) > 20:
                print(f"            ... and {len(diff) - 20} more")
            if diff:
                failed.append(rel)
        for doc, args in (("docs/contact-laws.md", ["models", "--markdown"]),
                          ("docs/case-format.md", ["case-format"])):
            with open(os.path.join(ROOT, doc)) as f:
                expected = f.read()
            for name, exe in builds.items():
                same = run(exe, args, work) == expected
                print(f"{'same' if same else 'DIFFERENT':9s} {name} {' '.join(args)} vs {doc}")
                if not same:
                    failed.append(f"{name}: {doc}")
    print(f"{len(runs) + len(sweeps) - len(new)} files and 2 documents compared: "
          f"{'all identical' if not failed else str(len(failed)) + ' differ'}"
          + (f"; {len(new)} new case(s) the reference refuses" if new else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
