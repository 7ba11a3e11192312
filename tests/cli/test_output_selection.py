#!/usr/bin/python3
"""output.quantities: a run writes the time series it names, each equal to the same run's with
every quantity, and nothing else; position is always written; a sweep's cases do the same.
output.beads: the series hold the particles named, each row equal to the full run's, with their
indices in /particles/chain/id; readers find a bead's row by it.
output.particles_interval, ...: each group's series hold the full run's rows at its frames (and the
last), with its own step and time; readers take each group's times.
output.quantities = none writes the summary alone, equal to the full run's, and no frame.
output.dimension: a chain on the x axis writes x alone, the x of the same run written with x, y
and z, whose y and z are zero; the general engine writes x, y and z.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_output_selection.py CHAINDEM_BINARY SOURCE_DIR
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
CASE = os.path.join(SOURCE, "cases", "default.ini")
SHORT = ["--set", "simulation.duration=3e-4"]


def series(f, root=""):
    """Every time-dependent dataset of a run's group: path -> values."""
    out = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and (name.endswith("/value") or
                                              name.startswith("contacts/")):
            out[name] = obj[()]
    (f[root] if root else f).visititems(visit)
    return out


class Selection(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.full = cls.run_with("full", "all")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def run_with(cls, name, quantities, *sets):
        out = os.path.join(cls.tmp.name, name + ".h5")
        args = [CHAINDEM, "run", CASE, "-q", "-o", out, *SHORT, "--set",
                "output.quantities=" + quantities]
        for kv in sets:
            args += ["--set", kv]
        r = subprocess.run(args, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        with h5py.File(out, "r") as f:
            return series(f)

    def check(self, quantities, expected):
        written = self.run_with(quantities.replace(" ", "_"), quantities)
        self.assertEqual(sorted(written), sorted(expected), quantities)
        for name, values in written.items():
            np.testing.assert_array_equal(values, self.full[name], err_msg=name)

    def test_each_quantity_alone_equals_the_full_run(self):
        for name in ("velocity", "force", "kinetic_energy", "momentum", "wall_position",
                     "wall_force", "overlap", "impact_velocity"):
            group = {"wall_position": "walls/position/value", "wall_force": "walls/force/value",
                     "overlap": "contacts/overlap",
                     "impact_velocity": "contacts/impact_velocity", "momentum":
                     "observables/momentum/value", "kinetic_energy":
                     "observables/kinetic_energy/value"}.get(name,
                                                              f"particles/chain/{name}/value")
            expected = {"particles/chain/position/value", group}
            if group.startswith("contacts/"):
                expected |= {"contacts/" + n for n in ("first", "second", "offset", "step",
                                                      "time")}
            self.check(name, expected)

    def test_groups(self):
        energies = {f"observables/{n}/value" for n in (
            "kinetic_energy", "stored_energy", "dissipated_energy", "external_potential_energy",
            "wall_work", "energy_balance")}
        self.check("energies", energies | {"particles/chain/position/value"})
        contacts = {n for n in self.full if n.startswith("contacts/")}
        self.check("velocity contacts", contacts | {"particles/chain/position/value",
                                                    "particles/chain/velocity/value"})
        self.assertEqual(sorted(self.run_with("all_again", "all")), sorted(self.full))

    def test_x_alone_is_the_x_of_every_component(self):
        xyz = self.run_with("xyz", "all", "output.dimension=3")
        self.assertEqual(sorted(xyz), sorted(self.full))
        for name in ("position", "velocity", "force"):
            path = f"particles/chain/{name}/value"
            x, full = self.full[path], xyz[path]
            self.assertEqual((x.shape[2], full.shape[2]), (1, 3), name)
            np.testing.assert_array_equal(x, full[:, :, :1], err_msg=name)
            np.testing.assert_array_equal(full[:, :, 1:], 0.0, err_msg=name)
        for name, values in xyz.items():  # the rest, whatever the layout
            if not name.startswith("particles/"):
                np.testing.assert_array_equal(values, self.full[name], err_msg=name)
        # The general engine steps in 3D: x, y and z, whatever output.dimension says.
        general = self.run_with("general", "position", "simulation.engine=general")
        self.assertEqual(general["particles/chain/position/value"].shape[2], 3)

    def test_beads_are_the_rows_of_the_full_run(self):
        full = os.path.join(self.tmp.name, "full.h5")
        # The default case: the striker is particle 0, chain beads 0..19 particles 1..20.
        for words, ids in (("striker 0:-1:5 -1", [0, 1, 6, 11, 16, 20]),
                           ("-3", [18]), ("0:19", list(range(1, 21))),
                           ("4:6 5 striker 5:5", [0, 5, 6, 7])):
            out = os.path.join(self.tmp.name, "beads.h5")
            r = subprocess.run([CHAINDEM, "run", CASE, "-q", "--force", "-o", out, *SHORT,
                                "--set", "output.beads=" + words], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f, h5py.File(full, "r") as g:
                chain, whole = f["particles/chain"], g["particles/chain"]
                self.assertEqual(list(chain["id"][()]), ids, words)
                for name in ("position", "velocity", "force"):
                    np.testing.assert_array_equal(chain[name]["value"][()],
                                                  whole[name]["value"][()][:, ids], err_msg=name)
                for name in ("radius", "mass", "species"):
                    np.testing.assert_array_equal(chain[name][()], whole[name][()][ids])
                for attr in ("striker", "chain_first", "chain_count"):  # the run's indices
                    self.assertEqual(chain.attrs[attr], whole.attrs[attr])
                for name in ("observables/kinetic_energy/value", "contacts/normal_force"):
                    np.testing.assert_array_equal(f[name][()], g[name][()], err_msg=name)
            with open(out[:-3] + ".xdmf") as x:  # ParaView's points: the particles written
                self.assertIn(f'NumberOfElements="{len(ids)}"', x.read())
        # Every particle named is every particle: the file of all, without ids.
        out = os.path.join(self.tmp.name, "every_particle.h5")
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out, *SHORT,
                            "--set", "output.beads=0:-1 striker"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            self.assertNotIn("id", f["particles/chain"])

    def test_readers_find_a_bead_by_its_id(self):
        out = os.path.join(self.tmp.name, "some.h5")
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out, *SHORT,
                            "--set", "output.beads=striker 10 -1"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_run
        some, full = load_run(out), load_run(os.path.join(self.tmp.name, "full.h5"))
        for bead in ("striker", 10, -1):
            np.testing.assert_array_equal(some.vx[:, some.row(some.particle(bead))],
                                          full.vx[:, full.row(full.particle(bead))])
        with self.assertRaisesRegex(ValueError, "bead 3 was not written"):
            some.row(some.particle(3))
        # A run starts from a frame of every particle: such a file is refused, saying why.
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out + "2", *SHORT,
                            "--set", f"initial.file={out}"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("holds the frames of 3 of its run's particles (written with output.beads",
                      r.stderr)

    def test_groups_at_frames_of_their_own(self):
        out = os.path.join(self.tmp.name, "groups.h5")
        # Frames every 2e-6 s over 3e-4 s: 151 frames; the particles every 10th (16 rows, the
        # last frame being the 150th), the contacts every 4th and the last (39 rows).
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out, *SHORT,
                            "--set", "output.particles_interval=2e-5",
                            "--set", "output.contacts_interval=8e-6"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f, h5py.File(os.path.join(self.tmp.name, "full.h5")) as g:
            frames = len(g["particles/chain/position/step"])
            self.assertEqual(frames, 151)
            particles = list(range(0, frames, 10))
            contacts = list(range(0, frames, 4)) + [frames - 1]
            for name in ("position", "velocity", "force"):
                element = f[f"particles/chain/{name}"]
                np.testing.assert_array_equal(element["value"][()],
                                              g[f"particles/chain/{name}/value"][()][particles])
                np.testing.assert_array_equal(element["step"][()],
                                              g["particles/chain/position/step"][()][particles])
            np.testing.assert_array_equal(f["observables/kinetic_energy/value"][()],
                                          g["observables/kinetic_energy/value"][()])
            np.testing.assert_array_equal(f["observables/kinetic_energy/time"][()],
                                          g["particles/chain/position/time"][()])
            np.testing.assert_array_equal(f["contacts/step"][()],
                                          g["contacts/step"][()][contacts])
            offset, whole = f["contacts/offset"][()], g["contacts/offset"][()]
            for k, frame in enumerate(contacts):  # each contact frame's rows, as the full run's
                mine, theirs = (slice(offset[k], offset[k + 1]),
                                slice(whole[frame], whole[frame + 1]))
                for name in ("first", "second", "normal_force"):
                    np.testing.assert_array_equal(f["contacts"][name][mine],
                                                  g["contacts"][name][theirs], err_msg=name)
        with open(out[:-3] + ".xdmf") as x:  # ParaView's frames: the particles'
            self.assertEqual(x.read().count("<Time Value="), len(particles))
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_run
        run = load_run(out)
        self.assertEqual((len(run.time), len(run.energy_time), len(run.chain_force())),
                         (len(particles), frames, len(contacts)))

    def test_none_writes_the_summary_of_the_full_run_and_no_frame(self):
        out = os.path.join(self.tmp.name, "none.h5")
        r = subprocess.run([CHAINDEM, "run", CASE, "-o", out, *SHORT, "--set",
                            "output.quantities=none"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" 0 frames to ", r.stderr)  # the costs, stated first
        self.assertFalse(os.path.exists(out[:-3] + ".xdmf"))  # nothing to show
        full = os.path.join(self.tmp.name, "full.h5")
        machine = {"wall_time", "ns_per_bead_step"}
        with h5py.File(out, "r") as f, h5py.File(full, "r") as g:
            self.assertEqual(series(f), {})
            self.assertNotIn("contacts", f)
            self.assertEqual(f.attrs["chaindem_status"], "complete")
            for name, value in g["summary"].attrs.items():
                if name not in machine:
                    np.testing.assert_array_equal(f["summary"].attrs[name], value, err_msg=name)
            def datasets(group):  # every dataset under it (the per-bead arrays, the tables)
                found = {}
                group.visititems(lambda name, obj: found.setdefault(name, obj[()])
                                 if isinstance(obj, h5py.Dataset) else None)
                return found
            written, full_summary = datasets(f["summary"]), datasets(g["summary"])
            self.assertEqual(sorted(written), sorted(full_summary))
            for name, value in full_summary.items():
                np.testing.assert_array_equal(written[name], value, err_msg=name)
            np.testing.assert_array_equal(f["particles/chain/radius"][()],
                                          g["particles/chain/radius"][()])
        # The project's reader loads it: no frame, the summary.
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_run
        run = load_run(out)
        self.assertEqual((len(run.time), run.velocity), (0, None))
        with self.assertRaisesRegex(ValueError, "written without velocity"):
            run.vx
        self.assertEqual(run.summary["steps"], load_run(full).summary["steps"])

    def test_frames_every_so_many_steps(self):
        out = os.path.join(self.tmp.name, "every.h5")
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out, *SHORT, "--set",
                            "output.interval=0", "--set", "output.every=7"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            step = f["particles/chain/position/step"][()]
            steps = int(f["summary"].attrs["steps"])
        expected = list(range(0, steps, 7)) + ([steps] if steps % 7 else [])
        self.assertEqual(list(step), expected)  # and the last step, when it falls between
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out + "2", *SHORT, "--set",
                            "output.every=7"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--set output.every: is 7 and output.interval is 2e-06: frames come by one "
                      "of them; set the other to 0", r.stderr)

    def test_sweep_cases_write_what_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = os.path.join(tmp, "s.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {CASE}\n[set]\nsimulation.duration = 3e-4\n"
                        "output.quantities = velocity\n[axes]\nstriker.velocity = 1, 2\n")
            out = os.path.join(tmp, "s.h5")
            r = subprocess.run([CHAINDEM, "sweep", sweep, "-q", "--threads", "1", "-o", out],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                written = series(f, "cases/case-000000")
        self.assertEqual(sorted(written), ["particles/chain/position/value",
                                           "particles/chain/velocity/value"])
        np.testing.assert_array_equal(written["particles/chain/velocity/value"],
                                      self.full["particles/chain/velocity/value"])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
