#!/usr/bin/python3
"""A run's estimate of its own time-discretisation error (simulation.error_estimate; docs/engine.md,
"Accuracy of a run"): against the true error, the difference from a run at an eighth of the step,
on the shipped cases; stated in the summary, kept across a restart, taken by sweeps when asked.

Run by ctest with Debian's /usr/bin/python3:  test_error_estimate.py CHAINDEM SOURCE_DIR
"""
import glob
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
QUIET = ["--set", "output.contacts=false", "--set", "output.xdmf=false"]


def run(case, out, *sets):
    argv = [CHAINDEM, "run", os.path.join(SOURCE, "cases", case), "-q", "--force", "-o", out]
    for s in QUIET[1::2] + list(sets):
        argv += ["--set", s]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    with h5py.File(out, "r") as f:
        return f["particles/chain/velocity/value"][()], dict(f["summary"].attrs)


def largest(v):
    """The largest speed in velocities v (frames, bodies, components)."""
    return np.linalg.norm(v, axis=-1).max()


class ErrorEstimate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def estimate_and_truth(self, case, *sets):
        """The estimate of a run at the case's automatic step, frames every 20 steps, and its
        true error: the largest difference of any body's velocity, over the frames, from the run
        at an eighth of the step, and that at the last frame, relative to the largest speed."""
        out = os.path.join(self.tmp.name, "r.h5")
        _, probe = run(case, out, *sets, "simulation.error_estimate=off")
        dt = probe["time_step"]
        v, s = run(case, out, *sets, f"simulation.time_step={dt!r}", "output.every=20",
                   "output.interval=0")
        fine, _ = run(case, out, *sets, f"simulation.time_step={dt / 8!r}", "output.every=160",
                      "output.interval=0", "simulation.error_estimate=off")
        n = min(len(v), len(fine))  # the fine run may end one frame later, past the duration
        scale = largest(v[:n])
        true = largest(v[:n] - fine[:n]) / scale
        final = largest(v[n - 1] - fine[n - 1]) / scale
        return s["error_estimate"], true, s["final_error_estimate"], final

    def test_within_a_factor_two_of_the_true_error_on_every_shipped_case(self):
        # Among them a solitary wave, a dimer chain (clamped damping: kinks whose error depends
        # on where they fall in the step), a pre-compressed chain and a tapered one (a final
        # state whose error changes sign between dt and 2 dt): the difference from half the step
        # is mostly the run's own error whatever the contacts do. docs/engine.md has the ratios.
        cases = sorted(os.path.basename(c) for c in glob.glob(os.path.join(SOURCE, "cases",
                                                                           "*.ini")))
        for case in ("solitary_wave.ini", "dimer_chain.ini", "precompressed_chain.ini",
                     "tapered_chain.ini"):
            self.assertIn(case, cases)
        for case in cases:
            with self.subTest(case=case):
                est, true, final_est, final_true = self.estimate_and_truth(case)
                self.assertGreater(true, 0.0, case)
                self.assertLess(max(est / true, true / est), 2.0, (case, est, true))
                # Even where elastic collisions leave the bodies free with an error below 1e-9
                # of the largest speed (measured_state).
                self.assertGreater(final_true, 0.0, case)
                self.assertLess(max(final_est / final_true, final_true / final_est), 2.0,
                                (case, final_est, final_true))

    def test_stated_and_switchable(self):
        out = os.path.join(self.tmp.name, "s.h5")
        r = subprocess.run([CHAINDEM, "run", os.path.join(SOURCE, "cases", "default.ini"),
                            "-o", out, "--force"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("error estimate     velocities within", r.stdout)
        _, s = run("default.ini", out, "simulation.error_estimate=off")
        self.assertNotIn("error_estimate", s)
        # Halving the step quarters the error of a second-order scheme, and its estimate.
        dt = s["time_step"]
        _, coarse = run("default.ini", out, f"simulation.time_step={dt!r}", "output.every=20",
                        "output.interval=0")
        _, fine = run("default.ini", out, f"simulation.time_step={dt / 2!r}", "output.every=40",
                      "output.interval=0")
        self.assertAlmostEqual(coarse["error_estimate"] / fine["error_estimate"], 4.0, delta=0.8)

    def test_accuracy_chooses_the_step_that_reaches_it(self):
        out = os.path.join(self.tmp.name, "a.h5")
        _, default = run("default.ini", out)
        # Asked for eight times smaller an error than the automatic step gives: about three
        # times the steps (the error goes as dt^2), and the estimate within what was asked.
        wanted = default["error_estimate"] / 8
        v, s = run("default.ini", out, f"simulation.accuracy={wanted!r}")
        self.assertLessEqual(s["error_estimate"], wanted)
        self.assertGreater(s["error_estimate"], wanted / 4)
        self.assertGreater(default["time_step"] / s["time_step"], 2.5)
        # The error it states is the run's: against a run at a tenth of its step.
        fine, _ = run("default.ini", out, f"simulation.time_step={s['time_step'] / 10!r}",
                      "output.interval=0", f"output.every={10 * s['steps'] // (len(v) - 1)}",
                      "simulation.error_estimate=off")
        n = min(len(v), len(fine))
        true = largest(v[:n] - fine[:n]) / largest(v[:n])
        self.assertLess(true, 2 * wanted)
        # An accuracy the automatic step already reaches keeps it.
        _, easy = run("default.ini", out, "simulation.accuracy=0.01")
        self.assertEqual(easy["time_step"], default["time_step"])

    def test_sweep_cases_estimate_when_asked(self):
        sweep = os.path.join(self.tmp.name, "s.ini")
        with open(sweep, "w") as f:
            f.write(f"[sweep]\nbase = {os.path.join(SOURCE, 'cases', 'default.ini')}\n"
                    "[set]\nsimulation.error_estimate = on\noutput.contacts = false\n"
                    "[axes]\ncontact.restitution = 0.5, 0.9\n")
        out = os.path.join(self.tmp.name, "sweep.h5")
        r = subprocess.run([CHAINDEM, "sweep", sweep, "-o", out, "-q"], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            column = f["summary/error_estimate"][()]
        for k, c_r in enumerate((0.5, 0.9)):
            _, s = run("default.ini", os.path.join(self.tmp.name, "one.h5"),
                       f"contact.restitution={c_r}")
            self.assertEqual(column[k], s["error_estimate"], k)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
