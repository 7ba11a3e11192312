#!/usr/bin/python3
"""Plausibility notes (docs/case-format.md, "Plausibility"): a value that is likely a unit
mistake, or beyond what the law assumes, runs with a note naming the key, the value and what was
probably meant; values within the bounds, and the shipped cases, run without one. The refusals
of initial overlaps are rows of test_malformed_run.py.

Run by ctest with Debian's /usr/bin/python3:  test_plausibility.py CHAINDEM SOURCE_DIR
"""
import glob
import math
import os
import subprocess
import sys
import tempfile
import unittest

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
DEFAULT = os.path.join(SOURCE, "cases", "default.ini")
NOTE = "chaindem: note: "
SI = "? Case files are in SI units"

# Steel of the default case: E = 200 GPa, rho = 7800 kg/m^3; its elastic wave speed sqrt(E/rho).
WAVE_SPEED = math.sqrt(200e9 / 7800)
# A time step given, for a modulus with which the automatic one would not fit the run.
GIVEN_STEP = ["simulation.time_step=1e-6", "simulation.duration=1e-5"]


def run(case, *sets):
    """`chaindem run` of `case` with these --set values: its exit status and its notes."""
    with tempfile.TemporaryDirectory() as tmp:
        argv = [CHAINDEM, "run", case, "-q", "-o", os.path.join(tmp, "out.h5"),
                "--set", "output.xdmf=false"]
        for s in sets:
            argv += ["--set", s]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    notes = [line[len(NOTE):] for line in r.stderr.splitlines() if line.startswith(NOTE)]
    return r.returncode, notes, r.stderr


class Notes(unittest.TestCase):
    def assert_note(self, sets, expected, status=0):
        """The run of the default case with `sets` ends with `status` and notes `expected`."""
        code, notes, err = run(DEFAULT, *sets)
        self.assertEqual(code, status, err)
        self.assertTrue(any(expected in note for note in notes), (expected, notes))

    def test_radius_in_millimetres(self):
        self.assert_note(["chain.radii=5"],
                         "--set chain.radii = 5 m, a bead 10 m across: did you mean 5 mm = "
                         "0.005 m" + SI)
        self.assert_note(["striker.radius=2"],
                         "--set striker.radius = 2 m, a bead 4 m across: did you mean 2 mm = "
                         "0.002 m" + SI)

    def test_modulus_in_gigapascals_or_megapascals(self):
        self.assert_note(["material.steel.youngs_modulus=200", *GIVEN_STEP],
                         "--set material.steel.youngs_modulus = 200 Pa, softer than rubber "
                         "(about 1e6 Pa): did you mean 200 GPa = 2e+11 Pa, or 200 MPa = "
                         "2e+08 Pa" + SI)
        # Steel in MPa (N/mm^2, as finite-element codes take it): 210000 GPa is no solid's.
        self.assert_note(["material.steel.youngs_modulus=210000", *GIVEN_STEP],
                         "--set material.steel.youngs_modulus = 210000 Pa, softer than rubber "
                         "(about 1e6 Pa): did you mean 210000 MPa = 2.1e+11 Pa" + SI)

    def test_density_in_grams_per_cubic_centimetre(self):
        self.assert_note(["material.steel.density=7.8"],
                         "--set material.steel.density = 7.8 kg/m^3, lighter than every solid "
                         "but foams: did you mean 7.8 g/cm^3 = 7800 kg/m^3" + SI)

    def test_speed_beyond_the_wave_speed(self):
        # The note comes before the run, which then fails: no law holds at such a speed.
        code, notes, err = run(DEFAULT, "striker.velocity=6000")
        self.assertNotEqual(code, 2, err)
        self.assertIn(f"--set striker.velocity = 6000 m/s, the case's largest relative speed, "
                      f"beyond the elastic wave speed of steel, sqrt(E/rho) = "
                      f"{WAVE_SPEED:.4g} m/s", "\n".join(notes))
        self.assertTrue(err.startswith(NOTE), err)

    def test_speed_beyond_lankarani_nikravesh(self):
        bound = 1e-5 * WAVE_SPEED  # Skrinjar et al. (2018), Eq. 19
        self.assert_note(["contact.law=lankarani_nikravesh"],
                         f"default.ini: striker.velocity = 1 m/s, the case's largest relative "
                         f"speed, {1 / bound:.3g} times the impact speeds law "
                         f"'lankarani_nikravesh' is derived for: v0 <= 1e-05 sqrt(E/rho) = "
                         f"{bound:.4g} m/s for steel")

    def test_values_within_the_bounds_get_no_note(self):
        within = [
            ["chain.radii=0.49", "striker.radius=0.49"],
            ["material.steel.youngs_modulus=1e6", *GIVEN_STEP],
            ["material.steel.density=30"],
            ["contact.law=lankarani_nikravesh", "striker.velocity=0.05"],  # bound 0.0506 m/s
            ["chain.overlap=4.9e-5"],  # delta/R* = 0.0196 of R* = 2.5 mm
            ["chain.static_overlap=true", "chain.end_force=2500"],  # delta/R* = 0.0195
        ]
        for sets in within:
            with self.subTest(sets):
                code, notes, err = run(DEFAULT, *sets)
                self.assertEqual(code, 0, err)
                self.assertEqual(notes, [], err)


class ShippedCases(unittest.TestCase):
    def test_shipped_cases_run_without_a_note(self):
        """Every case of cases/, run for 20 us: none is refused, and none gets a note but
        tapered_chain.ini, which strikes lankarani_nikravesh beads at 1 m/s, 20 times the speeds
        the law is derived for: that note is true of it."""
        cases = sorted(glob.glob(os.path.join(SOURCE, "cases", "*.ini")) +
                       glob.glob(os.path.join(SOURCE, "cases", "edem_study", "*.ini")))
        self.assertGreaterEqual(len(cases), 12)
        for case in cases:
            with self.subTest(os.path.basename(case)):
                code, notes, err = run(case, "simulation.duration=2e-5")
                self.assertEqual(code, 0, err)
                if os.path.basename(case) == "tapered_chain.ini":
                    self.assertEqual(len(notes), 1, notes)
                    self.assertIn("law 'lankarani_nikravesh' is derived for", notes[0])
                else:
                    self.assertEqual(notes, [], err)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
