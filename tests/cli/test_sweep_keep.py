#!/usr/bin/python3
"""`chaindem sweep` with `[sweep] keep = table`: the summary table alone, equal to the table of
the same sweep that keeps its cases; and with `keep = stacked`: every case's series and
constants as a row of one dataset each, equal to the same sweep's case groups.

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


def write_sweep(folder, name, keep=None, axes=AXES, keys="", base=BASE):
    """By default two laws (one with a v0 policy, one without) x three restitutions x two
    speeds, on a 10-bead chain whose beads start apart (so that the isolated-restitution columns
    hold numbers). `keys`: more [set] lines."""
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(f"[sweep]\nbase = {base}\n" + (f"keep = {keep}\n" if keep else "") +
                "[set]\nchain.count = 10\nchain.gap = 5e-5\nsimulation.duration = 3e-4\n"
                f"output.interval = 2e-5\noutput.contacts = false\n{keys}[axes]\n{axes}")
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

def stacked_rows(stacked_path, cases_path, test):
    """Checks every dataset of the stacked file's /stacked against the same sweep's case groups:
    row k is case k's dataset, bitwise, of the same shape; the species names are the case's
    attribute. Returns how many rows were compared."""
    compared = 0
    with h5py.File(stacked_path, "r") as s, h5py.File(cases_path, "r") as c:
        stacked = s["stacked"]
        written = stacked["written"][()]
        cases = len(s["summary/case"])
        test.assertEqual(written.shape, (cases,))

        def check(name, node):
            nonlocal compared
            if not isinstance(node, h5py.Dataset) or name == "written":
                return
            if name == "particles/chain/id":  # output.beads: the same particles in every case
                for k in np.flatnonzero(written):
                    test.assertTrue(np.array_equal(node[()], c[f"cases/case-{k:06d}/{name}"][()]))
                return
            test.assertEqual(node.shape[0], cases, name)
            for k in range(cases):
                group = c[f"cases/case-{k:06d}"]
                if not written[k]:
                    test.assertNotIn(f"cases/case-{k:06d}", c)
                    continue
                if name == "particles/chain/species_names":
                    expected = list(group["particles/chain/species"].attrs["species_names"])
                    test.assertEqual([str(x) for x in node.asstr()[k]],
                                     [x.decode() if isinstance(x, bytes) else x for x in expected])
                else:
                    expected = group[name][()]
                    test.assertEqual(node.shape[1:], expected.shape, name)
                    test.assertTrue(np.array_equal(node[k], expected), f"{name} case {k}")
                    test.assertEqual(node.attrs.get("unit"), group[name].attrs.get("unit"), name)
                compared += 1

        stacked.visititems(check)
        # The chain's attributes and the walls' names are those of every case.
        for k in np.flatnonzero(written):
            group = c[f"cases/case-{k:06d}"]
            test.assertEqual(dict(stacked["particles/chain"].attrs),
                             {n: v for n, v in group["particles/chain"].attrs.items()
                              if n in stacked["particles/chain"].attrs})
    return compared


class KeepStacked(unittest.TestCase):
    """The same 12 cases kept as groups and stacked; the observables every third frame, on a
    clock of their own."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        keys = "output.observables_interval = 6e-5\n"
        cls.cases_out = os.path.join(cls.tmp.name, "cases.h5")
        cls.stacked_out = os.path.join(cls.tmp.name, "stacked.h5")
        cls.stacked_sweep = write_sweep(cls.tmp.name, "stacked.ini", keep="stacked", keys=keys)
        r = run_sweep(write_sweep(cls.tmp.name, "cases.ini", keys=keys), cls.cases_out,
                      "--threads", "1")
        assert r.returncode == 0, r.stderr
        r = run_sweep(cls.stacked_sweep, cls.stacked_out, "--threads", "1")
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_rows_are_the_datasets_of_the_case_groups(self):
        compared = stacked_rows(self.stacked_out, self.cases_out, self)
        # 12 cases x (3 particle series, their step and time, radius, mass, species and their
        # names; 7 observables with a step and time of their own; the walls' positions, forces
        # and normals).
        self.assertEqual(compared, 12 * 21)
        with h5py.File(self.stacked_out, "r") as f:
            self.assertEqual(f["stacked/particles/chain/velocity/value"].shape, (12, 16, 11, 1))
            self.assertEqual(f["stacked/observables/kinetic_energy/value"].shape, (12, 6))
            self.assertEqual(sorted(f), ["h5md", "stacked", "summary", "sweep"])
            self.assertTrue(np.all(f["stacked/written"][()] == 1))
            # The striker rebounds as each case has it: the rows are not all alike.
            v = f["stacked/particles/chain/velocity/value"][:, -1, 0, 0]  # the striker
            self.assertGreater(len(set(v.tolist())), 6)

    def test_summary_equals_that_of_the_sweep_keeping_its_cases(self):
        KeepTable.assert_same_summary(self, summary(self.stacked_out), summary(self.cases_out))

    def test_readers_read_a_stacked_case_as_its_group(self):
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import io
        for k in (0, 7, 11):
            a, b = io.load_run(self.stacked_out, case=k), io.load_run(self.cases_out, case=k)
            for name in ("time", "position", "velocity", "force", "radius", "mass", "energy_time"):
                self.assertTrue(np.array_equal(getattr(a, name), getattr(b, name)), name)
            self.assertEqual(sorted(a.energies), sorted(b.energies))
            for name, values in b.energies.items():
                self.assertTrue(np.array_equal(a.energies[name], values), name)
            for name, values in b.per_bead.items():
                self.assertTrue(np.array_equal(a.per_bead[name], values, equal_nan=True), name)
            self.assertEqual((a.striker, a.chain_first, a.chain_count, a.walls),
                             (b.striker, b.chain_first, b.chain_count, b.walls))
            for key in ("contact.law", "chain.count"):
                self.assertEqual(a.parameters[key], b.parameters[key], key)
            self.assertEqual(a.law["id"], b.law["id"])
            self.assertEqual(float(a.parameters["contact.restitution"]),
                             float(b.parameters["contact.restitution"]))
            timing = {"wall_time", "ns_per_bead_step"}
            self.assertEqual({n: v for n, v in a.summary.items() if n not in timing},
                             {n: v for n, v in b.summary.items() if n not in timing
                              and n in a.summary})
        with self.assertRaisesRegex(ValueError, "case 12 does not exist"):
            io.load_run(self.stacked_out, case=12)

    def test_two_threads_write_the_same_rows(self):
        out = os.path.join(self.tmp.name, "two-threads.h5")
        r = run_sweep(self.stacked_sweep, out, "--threads", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(stacked_rows(out, self.cases_out, self), 12 * 21)
        os.remove(out)

    @unittest.skipUnless(MPIRUN, "chaindem built without MPI")
    def test_two_mpi_ranks_write_the_same_rows(self):
        """Rank 0 copies the other rank's rows into its file."""
        out = os.path.join(self.tmp.name, "mpi.h5")
        r = run_sweep(self.stacked_sweep, out, "--threads", "1",
                      mpirun=MPIRUN.split() + ["-np", "2"])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(stacked_rows(out, self.cases_out, self), 12 * 21)
        KeepTable.assert_same_summary(self, summary(out), summary(self.cases_out))
        os.remove(out)
        self.assertFalse([n for n in os.listdir(self.tmp.name) if "rank" in n])

    def test_selected_beads_and_quantities_of_several_media(self):
        """A chain of two media (its sections' energies), three beads and two quantities."""
        base = os.path.join(SOURCE, "cases", "interface_chain.ini")
        keys = ("output.beads = 0 20 -1\noutput.quantities = velocity kinetic_energy\n"
                "simulation.duration = 1e-4\n")
        axes = "contact.restitution = 0.5, 0.8\n"
        files = []
        for keep in ("cases", "stacked"):
            sweep = write_sweep(self.tmp.name, f"media-{keep}.ini", keep=keep, axes=axes,
                                keys=keys, base=base).replace(".ini", "")
            files.append(os.path.join(self.tmp.name, f"media-{keep}.h5"))
            with open(sweep + ".ini") as f:  # 40 beads: no chain.count of 10 here
                text = f.read().replace("chain.count = 10\n", "").replace(
                    "simulation.duration = 3e-4\n", "")
            with open(sweep + ".ini", "w") as f:
                f.write(text)
            r = run_sweep(sweep + ".ini", files[-1], "--threads", "1")
            self.assertEqual(r.returncode, 0, r.stderr)
        # 2 cases x (position (always written: its step and time are the frames'), velocity,
        # step, time, radius, mass, species, names; the kinetic and the sections' energies on
        # the particles' clock; the chain has no wall).
        self.assertEqual(stacked_rows(files[1], files[0], self), 2 * 10)
        with h5py.File(files[1], "r") as f:
            self.assertEqual(f["stacked/particles/chain/velocity/value"].shape[2], 3)
            self.assertEqual(list(f["stacked/particles/chain/id"][()]), [1, 21, 40])
            self.assertEqual(f["stacked/observables/section_energy/value"].shape[2], 2)

    def test_failed_case_has_no_row(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, "s.ini", keep="stacked",
                                axes="contact.law = hunt_crossley\ncontact.restitution = 0.5\n"
                                     "striker.velocity = 1\nsimulation.time_step = 0, 1e-5\n")
            out = os.path.join(tmp, "s.h5")
            r = run_sweep(sweep, out)
            self.assertEqual(r.returncode, 1, r.stderr)
            with h5py.File(out, "r") as f:
                self.assertEqual(list(f["stacked/written"][()]), [1, 0])
                v = f["stacked/particles/chain/velocity/value"]
                self.assertTrue(np.all(np.isfinite(v[0])))
                self.assertTrue(np.all(np.isnan(v[1])))
                self.assertEqual(list(f["stacked/particles/chain/position/step"][1]), [-1] * 16)
                self.assertTrue(f["summary/status"].asstr()[1].startswith("failed"))
            sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
            from chaindem_post import io
            with self.assertRaisesRegex(ValueError, "case 1 has no run: failed"):
                io.load_run(out, case=1)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
