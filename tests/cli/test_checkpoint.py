#!/usr/bin/python3
"""Checkpoints and `chaindem run --restart`: a run stopped by SIGTERM, or killed (SIGKILL) after
a periodic checkpoint, continues to a file bitwise identical to an uninterrupted run's, for an
elastic, a hysteresis and an elastoplastic law, on the chain engine and the general engine.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_checkpoint.py CHAINDEM_BINARY SOURCE_DIR
"""
import io
import os
import pty
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import h5py

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
sys.path.insert(0, os.path.join(SOURCE, "scripts"))
import same_results  # noqa: E402  (the comparison of two outputs, bit for bit)

# A 3000-bead steel chain against a wall, struck at 2 m/s; long enough (a few seconds) to be
# stopped in the middle.
CASE = """[simulation]
duration = 0.06
[contact]
{contact}
[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
yield_stress = 4e8
[chain]
count = 3000
materials = steel
radii = 0.005
[striker]
velocity = 2.0
[wall_end]
enabled = true
material = steel
[output]
interval = 5e-5
"""

LAWS = {
    "elastic": "law = hertz",
    "hysteresis": "law = lankarani_nikravesh\nrestitution = 0.7",
    "elastoplastic": "law = thornton_1997",
}


def run(*args, **kwargs):
    return subprocess.run([CHAINDEM, "run", *args], capture_output=True, text=True, timeout=600,
                          **kwargs)


def wait_for(path, proc, timeout=120):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if proc.poll() is not None or time.time() > deadline:
            raise AssertionError(f"{path} never appeared (exit status {proc.returncode})")
        time.sleep(0.02)


def stepping(args):
    """Starts chaindem `args` with its standard error on a terminal (a pseudo-terminal, where its
    progress line comes every 0.25 s) and returns it once that line counts steps done: a signal
    sent then stops it in the middle of the run, however loaded the machine. Returns the process
    and a function that reads the rest of its standard error, until it ends."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([CHAINDEM, *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    seen = b""

    def read():
        try:
            return os.read(leader, 4096)
        except OSError:  # EIO: the process ended, closing the terminal
            return b""

    while not re.search(rb"\([1-9][0-9]*/[0-9]+ steps", seen):
        chunk = read()
        if not chunk:
            os.close(leader)
            proc.wait(timeout=120)
            raise AssertionError(f"no steps done (exit status {proc.returncode}): {seen!r}")
        seen += chunk

    def rest():
        nonlocal seen
        while chunk := read():
            seen += chunk
        os.close(leader)
        proc.wait(timeout=120)
        return seen.decode()

    return proc, rest


def stop_while_stepping(case, out):
    """Runs `case` to `out` and sends SIGTERM once it has done steps (a checkpoint at t > 0)."""
    proc, rest = stepping(["run", case, "-o", out])
    proc.send_signal(signal.SIGTERM)
    err = rest()
    assert proc.returncode == 128 + signal.SIGTERM, err


class Restart(unittest.TestCase):
    def case(self, tmp, contact):
        path = os.path.join(tmp, "case.ini")
        with open(path, "w") as f:
            f.write(CASE.format(contact=contact))
        return path

    def stop_and_restart(self, contact, sets, stop, restart_sets=(), particles_every=1,
                         inspect=None):
        """Runs the case uninterrupted and again stopped by `stop`, then restarts the stopped
        run; returns the checkpoint's step, the run's total steps and the contact rows the
        checkpoint continues from. `particles_every`: the frames between two of the particles'
        rows (output.particles_interval). `inspect(ref, out)`, if given, is called with the two
        files before they are removed."""
        with tempfile.TemporaryDirectory() as tmp:
            case = self.case(tmp, contact)
            sets = [a for kv in sets for a in ("--set", kv)]
            ref = os.path.join(tmp, "ref.h5")
            r = run(case, "-o", ref, "-q", *sets)
            self.assertEqual(r.returncode, 0, r.stderr)

            out = os.path.join(tmp, "cut.h5")
            checkpoint = out + ".checkpoint"
            if stop == signal.SIGKILL:  # after a periodic checkpoint, without warning
                proc = subprocess.Popen([CHAINDEM, "run", case, "-o", out, "-q", *sets],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                wait_for(checkpoint, proc)
                time.sleep(0.2)
                proc.send_signal(stop)
                _, err = proc.communicate(timeout=120)
            else:  # in the middle of the run
                proc, rest = stepping(["run", case, "-o", out, *sets])
                proc.send_signal(stop)
                err = rest()
            if stop == signal.SIGKILL:
                self.assertEqual(proc.returncode, -signal.SIGKILL, err)
            else:
                self.assertEqual(proc.returncode, 128 + stop, err)
                self.assertIn("checkpoint written to " + checkpoint, err)
                self.assertIn("--restart", err)
            self.assertTrue(os.path.exists(out + ".partial"))
            self.assertFalse(os.path.exists(out))
            with h5py.File(checkpoint, "r") as f:
                step, frames = int(f.attrs["step"]), int(f.attrs["frames"])
                contact_rows = int(f.attrs["contact_rows"])
            # The frames up to the checkpoint can be read in the partial file (a killed run's
            # file is read in SWMR mode, as HDF5 requires of a file its writer did not close).
            with h5py.File(out + ".partial", "r", swmr=True) as f:
                self.assertGreaterEqual(f["particles/chain/position/value"].shape[0],
                                        (frames - 1) // particles_every + 1)

            restart_args = [a for kv in restart_sets for a in ("--set", kv)]
            r = run(case, "-o", out, "-q", "--restart", *sets, *restart_args)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)),
                             ["case.ini", "cut.h5", "cut.xdmf", "ref.h5", "ref.xdmf"])
            differences = [d for d in same_results.differences(ref, out)
                           if not d.startswith("parameters@simulation.threads")]
            self.assertEqual(differences, [])
            with h5py.File(ref, "r") as f:
                steps = int(f["summary"].attrs["steps"])
                self.assertEqual(f["particles/chain/position/value"].shape[0],
                                 h5py.File(out, "r")["particles/chain/position/value"].shape[0])
            if inspect:
                inspect(ref, out)
            return step, steps, contact_rows

    def test_sigterm_leaves_a_checkpoint_that_restarts_bitwise(self):
        for family, contact in LAWS.items():
            with self.subTest(family):
                step, steps, _ = self.stop_and_restart(contact, [], signal.SIGTERM)
                self.assertTrue(0 < step < steps, (step, steps))

    def test_restart_reports_the_largest_values_of_the_whole_run(self):
        # At 20 m/s the striker's first impact strains its pair most, long before the stop (a
        # pass of the progress line): the restarted run has the checkpoint's maxima, and reports
        # what the uninterrupted run does (same_results compares /summary/validity too).
        def inspect(ref, out):
            with h5py.File(ref, "r") as a, h5py.File(out, "r") as b:
                for name in ("largest_strain", "largest_impact_speed", "left", "exceeded"):
                    self.assertEqual(list(a["summary/validity"][name][()]),
                                     list(b["summary/validity"][name][()]), name)
                self.assertGreater(max(b["summary/validity/largest_strain"][()]), 0.02)
                self.assertEqual(max(b["summary/validity/largest_impact_speed"][()]), 20.0)
                self.assertGreaterEqual(b["summary"].attrs["left_validity"], 1)

        step, steps, _ = self.stop_and_restart(LAWS["hysteresis"], ["striker.velocity=20"],
                                               signal.SIGTERM, inspect=inspect)
        self.assertTrue(0 < step < steps, (step, steps))

    def test_groups_written_at_frames_of_their_own_restart_bitwise(self):
        # The particles every 7th frame, the contacts every 3rd: each group continues its rows.
        step, steps, _ = self.stop_and_restart(
            LAWS["hysteresis"], ["output.particles_interval=3.5e-4",
                                 "output.contacts_interval=1.5e-4"], signal.SIGTERM,
            particles_every=7)
        self.assertTrue(0 < step < steps, (step, steps))

    def test_kill9_after_a_periodic_checkpoint_loses_only_what_followed_it(self):
        # The general engine (neighbor search, its structure and dormant histories saved), and
        # the restart on two threads: results do not depend on the thread count.
        step, steps, _ = self.stop_and_restart(
            "law = hunt_crossley\nrestitution = 0.7",
            ["simulation.engine=general", "simulation.duration=0.01",
             "output.checkpoint_interval=0.1"],
            signal.SIGKILL, restart_sets=["simulation.threads=2"])
        self.assertTrue(0 < step < steps, (step, steps))

    def test_contact_rows_of_many_chunks_continue_bitwise(self):
        # Periodic checkpoints write the contacts' rows up to a frame's end, inside a chunk of
        # 4096 rows; the whole chunks compressed while the run computes continue from there, and
        # the restart continues the rows the partial file holds.
        step, steps, rows = self.stop_and_restart(
            LAWS["elastic"], ["output.checkpoint_interval=0.3"], signal.SIGKILL)
        self.assertTrue(0 < step < steps, (step, steps))
        self.assertGreater(rows, 4 * 4096)

    def test_a_stopped_or_killed_restart_restarts_again(self):
        # The restart writes in SWMR mode even without periodic checkpoints, since its checkpoint
        # counts frames of the file it writes; Ctrl-C of a restart keeps what earlier runs made.
        with tempfile.TemporaryDirectory() as tmp:
            case = self.case(tmp, LAWS["hysteresis"])
            ref = os.path.join(tmp, "ref.h5")
            self.assertEqual(run(case, "-o", ref, "-q").returncode, 0)
            out = os.path.join(tmp, "cut.h5")
            stop_while_stepping(case, out)
            for stop in (signal.SIGKILL, signal.SIGINT):
                proc = subprocess.Popen([CHAINDEM, "run", case, "-o", out, "-q", "--restart"],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                wait_for(out + ".partial", proc)
                deadline = time.time() + 60
                while os.path.exists(out + ".partial.previous") and time.time() < deadline:
                    time.sleep(0.02)
                time.sleep(0.3)  # frames written after the checkpoint's
                proc.send_signal(stop)
                _, err = proc.communicate(timeout=120)
                self.assertNotEqual(proc.returncode, 0, "the restart ended before the signal")
                self.assertTrue(os.path.exists(out + ".checkpoint"), (stop, err))
                self.assertTrue(os.path.exists(out + ".partial"), (stop, err))
            r = run(case, "-o", out, "-q", "--restart")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(same_results.differences(ref, out), [])

    def test_a_damaged_checkpoint_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = self.case(tmp, LAWS["elastic"])
            out = os.path.join(tmp, "out.h5")
            stop_while_stepping(case, out)
            with h5py.File(out + ".checkpoint", "r") as f:
                d = f["simulation/position"]
                offset = d.id.get_chunk_info(0).byte_offset + 100
            with open(out + ".checkpoint", "r+b") as f:  # one bit of one position
                f.seek(offset)
                byte = f.read(1)[0]
                f.seek(offset)
                f.write(bytes([byte ^ 1]))
            r = run(case, "-o", out, "-q", "--restart")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(f"cannot restart: cannot read the checkpoint '{out}.checkpoint'",
                          r.stderr)

    def test_a_damaged_or_foreign_partial_output_is_refused(self):
        """The partial output a checkpoint continues is input of the restart: cut short, not
        HDF5, or a file of another layout, it is refused (exit 2) before anything is written,
        and every file stays as it was."""
        with tempfile.TemporaryDirectory() as tmp:
            case = self.case(tmp, LAWS["elastic"])
            out = os.path.join(tmp, "out.h5")
            stop_while_stepping(case, out)
            with open(out + ".partial", "rb") as f:
                written = f.read()
            foreign = io.BytesIO()
            with h5py.File(foreign, "w") as f:
                f["particles/chain/position/value"] = [[[0.0, 0.0, 0.0]]]
            for name, content, fragment in [
                    ("cut short", written[:5000], "cannot be read"),
                    ("not HDF5", b"not an HDF5 file\n", "cannot be read"),
                    ("another layout", foreign.getvalue(),
                     "has no dataset particles/chain/position/step")]:
                with self.subTest(name):
                    with open(out + ".partial", "wb") as f:
                        f.write(content)
                    before = {}
                    for file in os.listdir(tmp):
                        with open(os.path.join(tmp, file), "rb") as f:
                            before[file] = f.read()
                    r = run(case, "-o", out, "-q", "--restart")
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn(f"cannot restart: the partial output '{out}.partial' that the "
                                  "checkpoint continues", r.stderr)
                    self.assertIn(fragment, r.stderr)
                    after = {}
                    for file in os.listdir(tmp):
                        with open(os.path.join(tmp, file), "rb") as f:
                            after[file] = f.read()
                    self.assertEqual(sorted(after), sorted(before))
                    self.assertTrue(after == before, "a file changed")

    def test_restart_refusals(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = self.case(tmp, LAWS["hysteresis"])
            out = os.path.join(tmp, "out.h5")
            r = run(case, "-o", out, "--restart")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn(f"cannot restart: there is no checkpoint '{out}.checkpoint'", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["case.ini"])

            stop_while_stepping(case, out)
            left = sorted(os.listdir(tmp))
            self.assertEqual(left, ["case.ini", "out.h5.checkpoint", "out.h5.partial"])

            # Another case: refused, naming the key; what the interruption left is untouched.
            r = run(case, "-o", out, "--restart", "--set", "contact.restitution=0.8")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("contact.restitution is '0.7' in the checkpoint and '0.8' here",
                          r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), left)

            # A new run of the same output (no --restart) starts over and leaves no checkpoint.
            r = run(case, "-o", out, "-q", "--set", "simulation.duration=1e-4")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["case.ini", "out.h5", "out.xdmf"])

    def test_ctrl_c_stops_and_leaves_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = self.case(tmp, LAWS["elastic"])
            out = os.path.join(tmp, "out.h5")
            proc = subprocess.Popen([CHAINDEM, "run", case, "-o", out, "-q",
                                     "--set", "output.checkpoint_interval=0.05"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            wait_for(out + ".checkpoint", proc)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=120)
            self.assertEqual(proc.returncode, 128 + signal.SIGINT, err)
            self.assertIn("no output written", err)
            self.assertEqual(sorted(os.listdir(tmp)), ["case.ini"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
