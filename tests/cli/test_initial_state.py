#!/usr/bin/python3
"""Starting a run from data (initial.file, initial.frame): a CSV file or a frame of an output.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_initial_state.py CHAINDEM_BINARY SOURCE_DIR
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

# Elastic Hertz contacts without damping, a striker and 10 touching beads, no walls: nothing
# but the positions and velocities carries over from one step to the next. A fixed time step,
# so that a run and its continuation step alike.
ELASTIC = """[simulation]
duration = 1e-4
time_step = 1e-7
[contact]
law = hertz
[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
[material.brass]
youngs_modulus = 100e9
poisson_ratio = 0.34
density = 8500
[chain]
count = 10
materials = steel
radii = 0.005
[striker]
velocity = 1.0
[output]
interval = 1e-5
"""


def chaindem(*args, cwd=None):
    return subprocess.run([CHAINDEM, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def frame(path, quantity, k):
    with h5py.File(path, "r") as f:
        return f[f"particles/chain/{quantity}/value"][k]


class Continuation(unittest.TestCase):
    """A run of 2T equals a run of T continued from its last frame for T: the state of an
    elastic, undamped chain is its positions and velocities, which the output stores as the
    engine holds them (float64), less the carry of each position (the part below its last
    digit, Particles::position_carry): the continuation starts within half an ulp of each
    position and ends within a few ulps of the uninterrupted run."""

    def check_engine(self, engine):
        with tempfile.TemporaryDirectory() as tmp:
            case = os.path.join(tmp, "c.ini")
            with open(case, "w") as f:
                f.write(ELASTIC)
            engine_set = ["--set", f"simulation.engine={engine}"]
            r = chaindem("run", case, "-o", "long.h5", "--quiet", *engine_set,
                         "--set", "simulation.duration=2e-4", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            r = chaindem("run", case, "-o", "first.h5", "--quiet", *engine_set, cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            # initial.file is read from the case file's directory.
            r = chaindem("run", case, "-o", "second.h5", "--quiet", *engine_set,
                         "--set", "initial.file=first.h5", cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            long, first, second = (os.path.join(tmp, n) for n in
                                   ("long.h5", "first.h5", "second.h5"))
            with h5py.File(second, "r") as f:
                self.assertEqual(f["parameters"].attrs["initial.file"], "first.h5")
                self.assertEqual(f["parameters"].attrs["initial.frame"], "-1")
                self.assertEqual(f["parameters/derived"].attrs["steps"], 1000)
            for quantity in ("position", "velocity"):
                # The pulse is inside the chain at T: contacts are loaded where it restarts.
                np.testing.assert_array_equal(frame(second, quantity, 0),
                                              frame(first, quantity, -1))
                # An ulp of the positions (~0.1 m) is 1.4e-17 m.
                np.testing.assert_allclose(frame(second, quantity, -1),
                                           frame(long, quantity, -1), rtol=0,
                                           atol=1e-16 if quantity == "position" else 1e-12)
            self.assertGreater(np.max(np.abs(frame(first, "velocity", -1)[1:, 0])), 0.1)

    def test_chain_engine(self):
        self.check_engine("chain")

    def test_general_engine(self):
        self.check_engine("general")


class FromOutput(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.case = os.path.join(cls.tmp.name, "c.ini")
        with open(cls.case, "w") as f:
            f.write(ELASTIC)
        # A dimer chain of another material and radius, written by a run: its frames carry the
        # radii and materials too.
        cls.source = os.path.join(cls.tmp.name, "source.h5")
        r = chaindem("run", cls.case, "-o", cls.source, "--quiet",
                     "--set", "chain.materials=steel brass", "--set", "chain.radii=0.005 0.004")
        assert r.returncode == 0, r.stderr
        with h5py.File(cls.source, "r") as f:
            cls.frames = f["particles/chain/position/value"].shape[0]

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def start(self, *sets, source=None):
        out = os.path.join(self.tmp.name, "out.h5")
        if os.path.exists(out):
            os.remove(out)
            os.remove(out[:-3] + ".xdmf")
        args = ["run", self.case, "-o", out, "--quiet", "--set", "simulation.duration=1e-6",
                "--set", f"initial.file={source or self.source}"]
        for s in sets:
            args += ["--set", s]
        r = chaindem(*args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return out

    def check_starts_at(self, out, k):
        for quantity in ("position", "velocity"):
            np.testing.assert_array_equal(frame(out, quantity, 0), frame(self.source, quantity, k))
        with h5py.File(out, "r") as f, h5py.File(self.source, "r") as s:
            chain, source = f["particles/chain"], s["particles/chain"]
            np.testing.assert_array_equal(chain["radius"][:], source["radius"][:])
            names = list(chain["species"].attrs["species_names"])
            source_names = list(source["species"].attrs["species_names"])
            self.assertEqual([names[k] for k in chain["species"][:]],
                             [source_names[k] for k in source["species"][:]])
            # The masses follow from the radii and the densities.
            np.testing.assert_allclose(chain["mass"][:], source["mass"][:], rtol=1e-15)

    def test_last_frame_by_default(self):
        self.check_starts_at(self.start(), self.frames - 1)

    def test_given_frame(self):
        self.check_starts_at(self.start("initial.frame=3"), 3)

    def test_frame_from_the_end(self):
        self.check_starts_at(self.start("initial.frame=-4"), self.frames - 4)
        self.check_starts_at(self.start(f"initial.frame={-self.frames}"), 0)

    def test_a_file_of_x_y_and_z_starts_the_same_run(self):
        """A chain on the x axis writes x alone; the same run written with x, y and z
        (output.dimension = 3), whose y and z are zero, starts the same run."""
        full = os.path.join(self.tmp.name, "source-xyz.h5")
        r = chaindem("run", self.case, "-o", full, "--quiet", "--force",
                     "--set", "chain.materials=steel brass", "--set", "chain.radii=0.005 0.004",
                     "--set", "output.dimension=3")
        self.assertEqual(r.returncode, 0, r.stderr)
        for quantity in ("position", "velocity"):
            xyz, x = frame(full, quantity, -1), frame(self.source, quantity, -1)
            self.assertEqual((xyz.shape[1], x.shape[1]), (3, 1))
            np.testing.assert_array_equal(xyz[:, :1], x)
            np.testing.assert_array_equal(xyz[:, 1:], 0.0)
        starts = []
        for source in (self.source, full):
            out = self.start(source=source)
            starts.append([frame(out, q, -1) for q in ("position", "velocity")])
        for a, b in zip(*starts):
            np.testing.assert_array_equal(a, b)

    def test_output_may_not_replace_the_file_it_starts_from(self):
        r = chaindem("run", self.case, "-o", self.source, "--set", f"initial.file={self.source}")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(f"is the input '{self.source}'", r.stderr)
        with h5py.File(self.source, "r") as f:  # untouched
            self.assertEqual(f["particles/chain/position/value"].shape[0], self.frames)

    def test_frame_out_of_range(self):
        r = chaindem("run", self.case, "-o", os.path.join(self.tmp.name, "x.h5"),
                     "--set", f"initial.file={self.source}",
                     "--set", f"initial.frame={self.frames}")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn(f"has {self.frames} frames", r.stderr)
        self.assertIn(f"allowed 0 to {self.frames - 1}, or -1 to -{self.frames} from the end",
                      r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "x.h5")))


def bead_rows(gaps=0.0):
    """The striker at 1 m/s and 10 beads of radius 5 mm at rest, `gaps` apart."""
    x = 0.005 + np.arange(11) * (0.01 + gaps)
    v = np.zeros(11)
    v[0] = 1.0
    return x, v


class FromCsv(unittest.TestCase):
    def run_csv(self, text, *sets):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "c.ini"), "w") as f:
                f.write(ELASTIC)
            with open(os.path.join(tmp, "state.csv"), "w") as f:
                f.write(text)
            args = ["run", "c.ini", "-o", "out.h5", "--set", "simulation.duration=2e-6",
                    "--set", "initial.file=state.csv"]
            for s in sets:
                args += ["--set", s]
            r = chaindem(*args, cwd=tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(os.path.join(tmp, "out.h5"), "r") as f:
                chain = f["particles/chain"]
                return ({k: chain[f"{k}/value"][0] for k in ("position", "velocity")},
                        chain["radius"][:], chain["mass"][:],
                        [list(chain["species"].attrs["species_names"])[k] for k in chain["species"][:]],
                        r.stdout)

    def test_required_columns_only(self):
        """A measured state: the striker given its velocity, beads at given positions with
        gaps; the output's first frame is the CSV."""
        x, v = bead_rows(gaps=1e-4)
        text = "x,vx\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(x, v))
        first, radius, mass, materials, stdout = self.run_csv(text)
        # A chain on the x axis: its output holds x alone.
        np.testing.assert_array_equal(first["position"], np.reshape(x, (11, 1)))
        np.testing.assert_array_equal(first["velocity"], np.reshape(v, (11, 1)))
        # The case's radii and materials.
        np.testing.assert_array_equal(radius, np.full(11, 0.005))
        self.assertEqual(materials, ["steel"] * 11)
        self.assertIn("11 (10 chain beads + striker)", stdout)

    def test_every_column_with_units(self):
        """Optional columns in any order, units in the header, comments and blank lines: the
        beads off the axis, of other radii and materials (the general engine runs them)."""
        rng = np.random.default_rng(7)
        x, v = bead_rows(gaps=1e-3)
        y = rng.uniform(-1e-4, 1e-4, 11)
        z = rng.uniform(-1e-4, 1e-4, 11)
        vy = rng.uniform(-0.01, 0.01, 11)
        vz = rng.uniform(-0.01, 0.01, 11)
        r = np.where(np.arange(11) % 2 == 0, 0.005, 0.0045)
        m = ["brass" if k % 2 else "steel" for k in range(11)]
        lines = ["# a measured state", "material, vz [m/s], radius [m], x [m], y, z [m], VX, vy"]
        for k in range(11):
            lines.append(f"{m[k]},{vz[k]!r},{r[k]!r},{x[k]!r},{y[k]!r},{z[k]!r},{v[k]!r},"
                         f"{vy[k]!r}")
        first, radius, mass, materials, stdout = self.run_csv("\n".join(lines) + "\n\n")
        np.testing.assert_array_equal(first["position"], np.stack([x, y, z], axis=1))
        np.testing.assert_array_equal(first["velocity"], np.stack([v, vy, vz], axis=1))
        np.testing.assert_array_equal(radius, r)
        self.assertEqual(materials, m)
        density = np.where(np.arange(11) % 2 == 0, 7800.0, 8500.0)
        np.testing.assert_allclose(mass, density * 4 / 3 * np.pi * r**3, rtol=1e-15)

    def test_striker_speed_sets_the_time_step(self):
        """The automatic time step follows the data's speeds, not the case's striker.velocity."""
        x, v = bead_rows()
        v[0] = 4.0
        text = "x,vx\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(x, v))
        out = self.run_csv(text, "simulation.time_step=0")[4]
        self.assertIn("at relative speed 4 m/s", out)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
