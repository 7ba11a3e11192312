#!/usr/bin/python3
"""Every dimensional dataset of every file chaindem writes carries its unit, in the form of the
H5MD units module: the files of run, sweep, collide -o, compare and fit -o are walked, and each
float dataset must have a `unit` attribute (fixed-length ASCII, the module's grammar: an optional
number first, then symbols with signed integer powers, each symbol once) or, for rows of several
units (a fit's parameters), a `units` attribute with one per row; or be one of the quantities
that have no unit (named below). Counts are integers. /h5md/modules/units says the system.

Run by ctest with Debian's /usr/bin/python3 (h5py):
    test_units.py CHAINDEM_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")

# Quantities without a unit: ratios, directions, strains and residuals of ratios.
DIMENSIONLESS = re.compile(r"(^|_)(normal|restitution|ratio|error|error_max|strain)$|restitution_|"
                           r"^residuals_restitution$|^strain_bound$")
# What counts something: int64 in every file.
COUNTS = {"steps", "isolated_contacts", "neighbor_rebuilds", "impact_velocity_floor_hits",
          "arrival_beads", "case"}
UNIT = re.compile(r"^(\d+(\.\d+)?)?( ?[A-Za-z]+([+-][1-9]\d*)?)*$")


def h5md_unit(text):
    """Whether `text` follows the units module's grammar, each symbol once."""
    text = text.strip()
    if not UNIT.match(text):
        return False
    symbols = [re.sub(r"[+-]\d+$", "", f) for f in text.split() if not f[0].isdigit()]
    return len(symbols) == len(set(symbols))


class Units(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        t = cls.tmp.name
        short = ["--set", "simulation.duration=2e-4"]
        sweep = os.path.join(t, "s.ini")
        with open(sweep, "w") as f:
            f.write(f"[sweep]\nbase = {CASE}\n[set]\nsimulation.duration = 2e-4\n"
                    "[axes]\nstriker.velocity = 1, 2\ncontact.law = hertz, hunt_crossley\n")
        data = os.path.join(t, "d.csv")
        with open(data, "w") as f:
            f.write("velocity,restitution\n0.5,0.9\n1,0.85\n2,0.8\n3,0.77\n")
        cls.files = {
            "run": ["run", CASE, "-q", *short],
            "sweep": ["sweep", sweep, "-q", "--threads", "1"],
            "collide": ["collide", "--law", "hunt_crossley", "--restitution", "0.8", "--velocity",
                        "1", "--mass", "1", "--stiffness", "1e9", "--wall"],
            "compare": ["compare", CASE, *short, "--laws", "hertz,tsuji", "--reference",
                        "hunt_crossley", "--threads", "1"],
            "fit": ["fit", "--data", data, "--laws", "hunt_crossley", "--radius", "0.005",
                    "--youngs-modulus", "2e11", "--poisson-ratio", "0.3", "--density", "7800",
                    "--wall"],
        }
        for name, args in cls.files.items():
            out = os.path.join(t, name + ".h5")
            r = subprocess.run([CHAINDEM, *args, "-o", out], capture_output=True, text=True,
                               cwd=t, timeout=600)
            assert r.returncode == 0, (name, r.stderr)
            cls.files[name] = out

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_float_dataset_has_its_unit(self):
        for command, path in self.files.items():
            with h5py.File(path, "r") as f:
                checked = []

                def visit(name, obj):
                    if not isinstance(obj, h5py.Dataset) or obj.dtype.kind != "f":
                        return
                    leaf = name.split("/")[-1]
                    if "unit" in obj.attrs:
                        unit = obj.attrs["unit"]
                        self.assertIsInstance(unit, bytes, (command, name))  # fixed ASCII
                        self.assertTrue(h5md_unit(unit.decode()), (command, name, unit))
                    elif "units" in obj.attrs:
                        self.assertEqual(len(obj.attrs["units"]), obj.shape[0], (command, name))
                    else:
                        self.assertRegex(leaf, DIMENSIONLESS, f"{command}: {name} has no unit")
                    self.assertNotIn(leaf, COUNTS, f"{command}: {name} counts, as a float")
                    checked.append(name)

                f.visititems(visit)
                self.assertGreater(len(checked), 3, command)

    def test_counts_are_integers(self):
        with h5py.File(self.files["run"], "r") as f:
            s = f["summary"]
            for name in ("steps", "isolated_contacts", "neighbor_rebuilds"):
                self.assertTrue(np.issubdtype(np.asarray(s.attrs[name]).dtype, np.integer), name)
            self.assertEqual(s["arrival_beads"].dtype, np.int64)
        with h5py.File(self.files["sweep"], "r") as f:
            for name in ("steps", "isolated_contacts", "arrival_beads", "case"):
                self.assertEqual(f["summary"][name].dtype, np.int64, name)
        with h5py.File(self.files["compare"], "r") as f:
            self.assertEqual(f["comparison/peak_velocity_beads_compared"].dtype, np.int64)

    def test_the_units_module_is_declared(self):
        for command, path in self.files.items():
            with h5py.File(path, "r") as f:
                units = f["h5md/modules/units"].attrs
                self.assertEqual(list(units["version"]), [1, 0], command)
                self.assertEqual(units["system"], b"SI", command)

    def test_known_units_in_their_form(self):
        with h5py.File(self.files["run"], "r") as f:
            c = f["particles/chain"]
            self.assertEqual(c["velocity/value"].attrs["unit"], b"m s-1")
            self.assertEqual(c["force/value"].attrs["unit"], b"kg m s-2")
            self.assertEqual(f["observables/kinetic_energy/value"].attrs["unit"], b"kg m+2 s-2")
            self.assertEqual(f["observables/momentum/value"].attrs["unit"], b"kg m s-1")
            self.assertEqual(c["position/time"].attrs["unit"], b"s")

    def test_author_from_the_environment(self):
        out = os.path.join(self.tmp.name, "author.h5")
        env = dict(os.environ, CHAINDEM_AUTHOR="Ada Lovelace",
                   CHAINDEM_AUTHOR_EMAIL="ada@example.org")
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", out, "--set",
                            "simulation.duration=1e-5"], capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            self.assertEqual(f["h5md/author"].attrs["name"], b"Ada Lovelace")
            self.assertEqual(f["h5md/author"].attrs["email"], b"ada@example.org")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
