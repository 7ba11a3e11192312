#!/usr/bin/python3
"""Where each command's output goes and when it may replace one: the default output under out/,
named after the case and its changes; an output that exists refused unless --force, the file
left as it was; --force replacing it.

Run by ctest with Debian's /usr/bin/python3 (h5py):
    test_output_files.py CHAINDEM_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

import h5py

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")
SHORT = ["--set", "simulation.duration=1e-4"]


def chaindem(*args, cwd):
    return subprocess.run([CHAINDEM, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def striker_velocity(path):
    with h5py.File(path, "r") as f:
        return f["parameters"].attrs["striker.velocity"]


class DefaultOutput(unittest.TestCase):
    def test_run_writes_under_out_named_after_the_case_and_its_changes(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = chaindem("run", CASE, *SHORT, cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            named = os.path.join("out", "default_simulation.duration=1e-4.h5")
            self.assertIn("-> " + named, r.stdout)  # the summary says where it went
            self.assertTrue(os.path.isfile(os.path.join(tmp, named)))
            self.assertTrue(os.path.isfile(os.path.join(tmp, named[:-3] + ".xdmf")))
            # Another value of a key: another file, beside the first.
            r = chaindem("run", CASE, *SHORT, "--set", "striker.velocity=2", "--unset",
                         "chain.gap", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            other = os.path.join(
                tmp, "out", "default_simulation.duration=1e-4_striker.velocity=2_-chain.gap.h5")
            self.assertEqual(striker_velocity(other), "2")
            self.assertEqual(striker_velocity(os.path.join(tmp, named)), "1.0")

    def test_a_long_name_is_cut_and_kept_apart_by_a_hash(self):
        with tempfile.TemporaryDirectory() as tmp:
            for v in ("0.5", "0.6"):  # the names differ only past the cut
                sets = [*SHORT, "--set", "chain.gap=1e-6", "--set", "output.interval=2e-6",
                        "--set", "output.arrival_threshold=0.2", "--set", "striker.velocity=" + v]
                r = chaindem("run", CASE, *sets, "-q", cwd=tmp)
                self.assertEqual(r.returncode, 0, r.stderr)
            names = sorted(os.listdir(os.path.join(tmp, "out")))
            self.assertEqual(len(names), 4)  # two .h5, two .xdmf
            for name in names:
                self.assertLessEqual(len(name), 100 + len(".xdmf"))

    def test_sweep_and_compare_write_under_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = os.path.join(tmp, "s.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {CASE}\n[set]\nsimulation.duration = 1e-4\n"
                        "[axes]\nstriker.velocity = 1, 2\n")
            r = chaindem("sweep", sweep, "-q", "--threads", "1", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.isfile(os.path.join(tmp, "out", "s.h5")))
            r = chaindem("compare", CASE, *SHORT, "--laws", "hertz,hunt_crossley",
                         "--reference", "tsuji", "--threads", "1", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.isfile(
                os.path.join(tmp, "out", "default_simulation.duration=1e-4-compare.h5")))


class Xdmf(unittest.TestCase):
    def test_small_for_many_frames_and_left_out_on_request(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.h5")
            r = chaindem("run", CASE, "-q", "-o", out, "--set", "output.interval=4e-7", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                frames = len(f["particles/chain/position/time"])
            self.assertGreater(frames, 2000)
            # Position, velocity and force of each frame: a few hundred bytes, whatever the
            # number of beads, not kilobytes.
            self.assertLess(os.path.getsize(os.path.join(tmp, "x.xdmf")) / frames, 600)
            out = os.path.join(tmp, "y.h5")
            r = chaindem("run", CASE, *SHORT, "-q", "-o", out, "--set", "output.xdmf=false",
                         cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.isfile(out))
            self.assertFalse(os.path.exists(os.path.join(tmp, "y.xdmf")))


class Costs(unittest.TestCase):
    """What a run will write and hold, said before it starts; a run over its budget refused."""

    def test_costs_stated_before_the_run_bound_what_it_writes(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.h5")
            r = chaindem("run", CASE, "-o", out, "--set", "chain.count=200", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            line = next(x for x in r.stderr.splitlines() if " frames to " in x)
            self.assertEqual(r.stderr.splitlines()[0], line)  # first, before any progress
            m = re.search(r"(\d+) frames to .*: at most ([\d.]+) (k?M?G?B) \(HDF5, before "
                          r"compression\) \+ ([\d.]+) (k?M?G?B) \(XDMF\); memory about", line)
            self.assertIsNotNone(m, line)
            scale = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
            hdf5, xdmf = float(m[2]) * scale[m[3]], float(m[4]) * scale[m[5]]
            with h5py.File(out, "r") as f:
                self.assertEqual(int(m[1]), len(f["particles/chain/position/time"]))
            self.assertGreaterEqual(hdf5, os.path.getsize(out))  # an upper bound
            self.assertAlmostEqual(xdmf / os.path.getsize(os.path.join(tmp, "x.xdmf")), 1,
                                   delta=0.05)

    def test_a_run_over_its_budget_is_refused_before_it_starts(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.h5")
            r = chaindem("run", CASE, "-o", out, "--set", "chain.count=2000", "--set",
                         "output.max_file_size=1e6", cwd=tmp)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("--set output.max_file_size: is 1 MB, but the output would take up to",
                          r.stderr)
            self.assertIn("output.interval", r.stderr)
            self.assertNotIn("run: ", r.stderr)  # no step was taken
            self.assertEqual(os.listdir(tmp), [])

    def test_an_automatic_interval_keeps_the_file_within_the_budget(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "x.h5")
            r = chaindem("run", CASE, "-o", out, "--set", "chain.count=2000", "--set",
                         "output.max_file_size=1e6", "--set", "output.interval=0", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            line = next(x for x in r.stdout.splitlines() if x.startswith("  output interval"))
            self.assertIn("frames instead of 201, so that the output stays within "
                          "output.max_file_size = 1 MB", line)
            with h5py.File(out, "r") as f:
                frames = len(f["particles/chain/position/time"])
            self.assertLess(frames, 201)
            self.assertGreaterEqual(frames, 2)
            size = os.path.getsize(out) + os.path.getsize(os.path.join(tmp, "x.xdmf"))
            self.assertLessEqual(size, 1e6)


class Existing(unittest.TestCase):
    """Each command refuses, before it computes anything, an output that exists, and leaves it
    as it was; --force replaces it."""

    def check(self, command, make_args, extra=()):
        """`extra`: the inputs make_args writes beside the output, which stay."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o.h5")
            with open(out, "w") as f:
                f.write("an earlier result\n")
            r = chaindem(*make_args(out), cwd=tmp)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("exists", r.stderr)
            self.assertIn("--force", r.stderr)
            with open(out) as f:
                self.assertEqual(f.read(), "an earlier result\n")
            self.assertEqual(sorted(os.listdir(tmp)), sorted(["o.h5", *extra]))
            r = chaindem(*make_args(out), "--force", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(h5py.is_hdf5(out), command)

    def test_run(self):
        self.check("run", lambda out: ["run", CASE, *SHORT, "-q", "-o", out])

    def test_run_whose_xdmf_file_exists(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "o.h5")
            with open(os.path.join(tmp, "o.xdmf"), "w") as f:
                f.write("<Xdmf/>\n")
            r = chaindem("run", CASE, *SHORT, "-q", "-o", out, cwd=tmp)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("o.xdmf", r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_sweep(self):
        def args(out):
            sweep = os.path.join(os.path.dirname(out), "s.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {CASE}\n[set]\nsimulation.duration = 1e-4\n"
                        "[axes]\nstriker.velocity = 1, 2\n")
            return ["sweep", sweep, "-q", "--threads", "1", "-o", out]
        self.check("sweep", args, ["s.ini"])

    def test_compare(self):
        self.check("compare", lambda out: ["compare", CASE, *SHORT, "--laws", "hertz",
                                           "--reference", "tsuji", "--threads", "1", "-o", out])

    def test_fit(self):
        def args(out):
            data = os.path.join(os.path.dirname(out), "d.csv")
            with open(data, "w") as f:
                f.write("velocity,restitution\n0.5,0.9\n1,0.85\n2,0.8\n3,0.77\n")
            return ["fit", "--data", data, "--laws", "hunt_crossley", "--radius", "0.005",
                    "--youngs-modulus", "2e11", "--poisson-ratio", "0.3", "--density", "7800",
                    "--wall", "-o", out]
        self.check("fit", args, ["d.csv"])

    def test_collide(self):
        self.check("collide", lambda out: ["collide", "--law", "hertz", "--velocity", "1",
                                           "--mass", "1", "--stiffness", "1e9", "--wall",
                                           "-o", out])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
