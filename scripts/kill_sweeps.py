#!/usr/bin/python3
"""Whether a sweep killed with SIGKILL at any moment resumes to the result of an uninterrupted one.

Runs a sweep of a few hundred short cases once without interruption (the reference), then, in
each trial, runs it again, kills it with SIGKILL (kill -9: no handler runs, HDF5 closes nothing)
at a random moment, and runs the same command again to resume. A trial passes when the resume
exits 0 and its file equals the reference: every dataset and attribute, byte for byte, except
those that measure the machine or name the invocation (as scripts/same_results.py compares).

The kill time is drawn uniformly (fixed seed) over the span in which the uninterrupted sweep
had its partial file on disk: from the moment the file appeared to the moment the command
ended (validating the cases, before that, touches no file). `--kills N` kills each trial N
times in a row (the resumes too) before the last, uninterrupted resume.

    /usr/bin/python3 scripts/kill_sweeps.py build/chaindem [--trials 50] [--seed 1]
        [--threads 2] [--duration 1e-3] [--kills 1] [--checkpoint-interval S] [--keep DIR]

Prints one line per trial and a tally of the failures by kind: "unopenable" (the resume says
it cannot open the partial file), "resume error" (any other failure of the resume, with its
message), "different result" (the resume exits 0 with a file unlike the reference, with the
first differing paths). Exit status 0 when every trial passed, 1 otherwise.
"""
import argparse
import collections
import os
import pickle
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from same_results import contents  # noqa: E402  (every dataset and attribute, comparable)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAWS = ["hunt_crossley", "tsuji", "flores", "gonthier", "lankarani_nikravesh"]


def write_sweep(folder, duration):
    """5 laws x 10 restitution values x 6 speeds = 300 cases of a 5-bead chain."""
    path = os.path.join(folder, "sweep.ini")
    with open(path, "w") as f:
        f.write(f"[sweep]\nbase = {os.path.join(ROOT, 'cases', 'default.ini')}\n"
                f"[set]\nchain.count = 5\nsimulation.duration = {duration}\n"
                "output.interval = 2e-5\noutput.contacts = false\n"
                f"[axes]\ncontact.law = {', '.join(LAWS)}\n"
                "contact.restitution = 0.1:1.0:0.1\nstriker.velocity = 0.5, 1, 1.5, 2, 2.5, 3\n")
    return path


def command(chaindem, sweep, out, threads, interval):
    return [chaindem, "sweep", sweep, "-o", out, "--quiet", "--threads", str(threads),
            "--checkpoint-interval", interval]


def wait_for(path, proc):
    """Polls until `path` exists or `proc` ends; the time it appeared (None if it did not)."""
    while proc.poll() is None:
        if os.path.exists(path):
            return time.monotonic()
        time.sleep(0.0005)
    return None


def partial_state(path):
    """What h5py makes of the partial file a kill left: its complete cases, or why not.

    Read in a child process: HDF5 can crash reading a damaged file.
    """
    if not os.path.exists(path):
        return "no partial file"
    script = ("import sys, h5py\n"
              "with h5py.File(sys.argv[1], 'r', locking=False) as f:\n"
              "    print(sum(1 for g in f['cases'].values()\n"
              "              if g.attrs.get('chaindem_status') == 'complete'))\n")
    r = subprocess.run([sys.executable, "-c", script, path], capture_output=True, text=True)
    if r.returncode == 0:
        return f"{r.stdout.strip()} complete cases"
    why = r.stderr.strip().splitlines()[-1][:100] if r.stderr.strip() else f"exit {r.returncode}"
    return f"h5py cannot read it: {why}"


def same_as(expected, path):
    """The paths in which file `path` differs from `expected` (contents()), read in a child
    process; None if reading it crashed."""
    script = ("import sys, pickle\n"
              f"sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"
              "from same_results import contents\n"
              "sys.stdout.buffer.write(pickle.dumps(contents(sys.argv[1])))\n")
    r = subprocess.run([sys.executable, "-c", script, path], capture_output=True)
    if r.returncode != 0:
        return None
    got = pickle.loads(r.stdout)
    return [k for k in sorted(set(got) | set(expected)) if got.get(k) != expected.get(k)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("chaindem")
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--duration", default="1e-3", help="simulation.duration of each case [s]")
    ap.add_argument("--kills", type=int, default=1, help="kills per trial before the resume")
    ap.add_argument("--checkpoint-interval", default="5",
                    help="the sweeps' --checkpoint-interval [s]: a shorter one has kills find "
                    "cases written at a checkpoint")
    ap.add_argument("--keep", help="keep the files of failed trials in this directory")
    a = ap.parse_args()
    chaindem = os.path.abspath(a.chaindem)
    rng = random.Random(a.seed)
    failures = collections.Counter()
    with tempfile.TemporaryDirectory() as tmp:
        sweep = write_sweep(tmp, a.duration)
        reference = os.path.join(tmp, "reference.h5")
        start = time.monotonic()
        proc = subprocess.Popen(command(chaindem, sweep, reference, a.threads, a.checkpoint_interval),
                                stderr=subprocess.PIPE, text=True)
        appeared = wait_for(reference + ".partial", proc)
        _, err = proc.communicate()
        end = time.monotonic()
        if proc.returncode != 0 or appeared is None:
            sys.exit(f"the uninterrupted sweep failed ({proc.returncode}): {err}")
        span = end - appeared
        expected = contents(reference)
        print(f"reference: {len(expected)} datasets and attributes; {end - start:.2f} s, of which "
              f"{span:.2f} s with the partial file on disk; kills uniform over that span",
              flush=True)
        out = os.path.join(tmp, "out.h5")
        for trial in range(a.trials):
            for name in os.listdir(tmp):
                if name.startswith("out.h5"):
                    os.remove(os.path.join(tmp, name))
            notes = []
            for _ in range(a.kills):
                delay = rng.uniform(0.0, span)
                proc = subprocess.Popen(command(chaindem, sweep, out, a.threads, a.checkpoint_interval),
                                        stderr=subprocess.PIPE, text=True)
                if wait_for(out + ".partial", proc) is not None:
                    time.sleep(delay)
                    proc.send_signal(signal.SIGKILL)
                _, err = proc.communicate()
                if proc.returncode == -signal.SIGKILL:
                    notes.append(f"killed at {delay:.3f} s: {partial_state(out + '.partial')}")
                else:
                    notes.append(f"ended ({proc.returncode}) before the kill at {delay:.3f} s")
            resume = [arg for arg in command(chaindem, sweep, out, a.threads,
                                             a.checkpoint_interval) if arg != "--quiet"]
            r = subprocess.run(resume, capture_output=True, text=True)
            message = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
            kept = [line.split(" cases, ")[1] for line in r.stderr.splitlines()
                    if "already finished" in line]
            notes += [f"resumed with {kept[0]}"] if kept else []
            if r.returncode != 0:
                kind = ("unopenable" if "cannot be read" in message or
                        "cannot be reopened" in message else "resume error")
                verdict = f"FAILED, {kind}: exit {r.returncode}: {message}"
            else:
                diff = same_as(expected, out)
                kind = "different result" if diff or diff is None else None
                verdict = ("FAILED, different result: reading it crashed" if diff is None else
                           f"FAILED, different result: {len(diff)} paths differ, e.g. "
                           f"{', '.join(diff[:3])}" if diff else "ok")
            if kind:
                failures[kind] += 1
                if a.keep:
                    kept = os.path.join(a.keep, f"trial-{trial:03d}")
                    os.makedirs(kept, exist_ok=True)
                    for name in os.listdir(tmp):
                        if name.startswith("out.h5"):
                            shutil.copy(os.path.join(tmp, name), kept)
            print(f"trial {trial:3d}: {'; '.join(notes)}; resume: {verdict}", flush=True)
    failed = sum(failures.values())
    print(f"{a.trials} trials, {failed} failed" +
          (": " + ", ".join(f"{n} {kind}" for kind, n in failures.items()) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
