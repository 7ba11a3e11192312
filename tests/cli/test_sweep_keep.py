#!/usr/bin/python3
"""`chaindem sweep` with `[sweep] keep = table`: the summary table alone, equal to the table of
the same sweep that keeps its cases.

Run by ctest with Debian's /usr/bin/python3:  test_sweep_keep.py CHAINDEM SOURCE_DIR [MPIRUN]
"""
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
MPIRUN = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
BASE = os.path.join(SOURCE, "cases", "default.ini")
# Columns that measure the machine, not the physics.
TIMING = {"wall_time", "ns_per_bead_step"}


AXES = ("contact.law = hunt_crossley, tsuji\ncontact.restitution = 0.3, 0.6, 0.9\n"
        "striker.velocity = 0.5, 2\n")


def write_sweep(folder, name, keep=None, axes=AXES):
    """By default two laws (one with a v0 policy, one without) x three restitutions x two
    speeds, on a 10-bead chain whose beads start apart (so that the isolated-restitution columns
    hold numbers)."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(f"[sweep]\nbase = {BASE}\n" + (f"keep = {keep}\n" if keep else "") +
                "[set]\nchain.count = 10\nchain.gap = 5e-5\nsimulation.duration = 3e-4\n"
                f"output.interval = 2e-5\noutput.contacts = false\n[axes]\n{axes}")
    return path


def run_sweep(sweep, out, *extra, mpirun=None):
    cmd = [CHAINDEM, "sweep", sweep, "-o", out, "--quiet", *extra]
    return subprocess.run((mpirun or []) + cmd, capture_output=True, text=True, timeout=600)


def summary(path):
    """/summary's columns but the timing ones, each with its attributes."""
    with h5py.File(path, "r") as f:
        s = f["summary"]
        return {name: (s[name][()], dict(s[name].attrs)) for name in s if name not in TIMING}


class KeepTable(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.cases_out = os.path.join(cls.tmp.name, "cases.h5")
        cls.table_out = os.path.join(cls.tmp.name, "table.h5")
        cls.table_sweep = write_sweep(cls.tmp.name, "table.ini", keep="table")
        r = run_sweep(write_sweep(cls.tmp.name, "cases.ini"), cls.cases_out, "--threads", "1")
        assert r.returncode == 0, r.stderr
        r = run_sweep(cls.table_sweep, cls.table_out, "--threads", "1")
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assert_same_summary(self, a, b):
        self.assertEqual(sorted(a), sorted(b))
        for name, (x, attrs) in a.items():
            y, other_attrs = b[name]
            self.assertEqual(x.dtype, y.dtype, name)
            if x.dtype.kind == "f":
                self.assertTrue(np.array_equal(x, y, equal_nan=True), name)  # NaN in place too
            else:
                self.assertTrue(np.array_equal(x, y), name)
            self.assertEqual(attrs, other_attrs, name)

    def test_summary_equals_that_of_the_sweep_keeping_its_cases(self):
        table, cases = summary(self.table_out), summary(self.cases_out)
        self.assert_same_summary(table, cases)
        # The comparison is not of empty tables: 12 cases, every one run, restitutions measured.
        self.assertEqual(list(table["status"][0].astype(str)), ["ok"] * 12)
        self.assertEqual(table["max_contact_force"][0].shape, (12, 10))
        self.assertTrue(np.all(table["largest_contact_force"][0] > 0))
        self.assertTrue(np.any(np.isfinite(table["isolated_restitution_mean"][0])))

    def test_file_holds_no_case_group(self):
        with h5py.File(self.table_out, "r") as f:
            self.assertEqual(sorted(f), ["h5md", "summary", "sweep"])
            self.assertEqual(f.attrs["chaindem_status"], "complete")
            self.assertIn("keep = table", f["sweep/sweep_file"].asstr()[()])
        with h5py.File(self.cases_out, "r") as f:  # the default keeps a group per case
            self.assertEqual(len(f["cases"]), 12)
        self.assertEqual(sorted(os.listdir(self.tmp.name)),
                         ["cases.h5", "cases.ini", "table.h5", "table.ini"])

    def test_two_threads_give_the_same_table(self):
        out = os.path.join(self.tmp.name, "two-threads.h5")
        r = run_sweep(self.table_sweep, out, "--threads", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assert_same_summary(summary(out), summary(self.table_out))
        os.remove(out)

    @unittest.skipUnless(MPIRUN, "chaindem built without MPI")
    def test_two_mpi_ranks_give_the_same_table(self):
        """The other rank's rows reach rank 0 without any case group to copy."""
        out = os.path.join(self.tmp.name, "mpi.h5")
        r = run_sweep(self.table_sweep, out, "--threads", "1",
                      mpirun=MPIRUN.split() + ["-np", "2"])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assert_same_summary(summary(out), summary(self.table_out))
        with h5py.File(out, "r") as f:
            self.assertNotIn("cases", f)
        os.remove(out)
        self.assertFalse([n for n in os.listdir(self.tmp.name) if "rank" in n])

    def test_failed_case_gets_a_status_row(self):
        with tempfile.TemporaryDirectory() as tmp:
            # A time step of a third of the contact (at most a half is accepted) diverges: that
            # case fails, the other completes.
            sweep = write_sweep(tmp, "s.ini", keep="table",
                                axes="contact.law = hunt_crossley\ncontact.restitution = 0.5\n"
                                     "striker.velocity = 1\nsimulation.time_step = 0, 1e-5\n")
            out = os.path.join(tmp, "s.h5")
            r = run_sweep(sweep, out)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("diverged", r.stderr)
            with h5py.File(out, "r") as f:
                status = list(f["summary/status"].asstr()[()])
                self.assertEqual(status[0], "ok")
                self.assertTrue(status[1].startswith("failed: the integration diverged"))
                self.assertTrue(np.isfinite(f["summary/last_bead_final_velocity"][0]))
                self.assertTrue(np.isnan(f["summary/last_bead_final_velocity"][1]))
                self.assertNotIn("cases", f)

if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
