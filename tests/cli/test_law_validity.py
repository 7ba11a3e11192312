#!/usr/bin/python3
"""The watch of the contact laws' validity (docs/engine.md, "Validity of the laws"): a run whose
contacts leave the range where their law's sources state it holds says so, on standard error
and in /summary/validity, and a run that stays within it says nothing; a sweep has the count
as a column of its summary table.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_law_validity.py CHAINDEM SOURCE_DIR
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest

import h5py

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
DEFAULT = os.path.join(SOURCE, "cases", "default.ini")
WARNING = "chaindem: warning: "

# The steel of the default case: E = 200 GPa, nu = 0.3, rho = 7800 kg/m^3.
E, NU, RHO = 200e9, 0.3, 7800.0
E_STAR = E / (2 * (1 - NU * NU))  # two steel bodies
WAVE_SPEED = math.sqrt(E / RHO)


def run(*sets, quiet=False, unset=()):
    """`chaindem run` of the default case with these --set values (and --unset keys): exit
    status, its warnings, its standard error, and /summary (its attributes, and
    /summary/validity by column)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.h5")
        argv = [CHAINDEM, "run", DEFAULT, "-o", out, "--set", "output.xdmf=false",
                "--set", "output.interval=1e-4"]
        if quiet:
            argv.append("-q")
        for s in sets:
            argv += ["--set", s]
        for key in unset:
            argv += ["--unset", key]
        r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
        warnings = [line[len(WARNING):] for line in r.stderr.splitlines()
                    if line.startswith(WARNING)]
        attrs, rows = {}, {}
        if r.returncode == 0:
            with h5py.File(out, "r") as f:
                attrs = dict(f["summary"].attrs)
                g = f["summary/validity"]
                for name in g:
                    values = g[name][()]
                    rows[name] = [v.decode() if isinstance(v, bytes) else v for v in values]
    return r.returncode, warnings, r.stderr, attrs, rows


def row_of(rows, contacts):
    """The values of /summary/validity's row for `contacts` ("steel-steel"), by column."""
    k = rows["contacts"].index(contacts)
    return {name: column[k] for name, column in rows.items()}


class Validity(unittest.TestCase):
    def test_default_case_stays_within_every_range(self):
        # 1 m/s on steel: delta/R* = 0.004 of Hertz's 0.02; no yield stress given.
        code, warnings, err, attrs, rows = run()
        self.assertEqual(code, 0, err)
        self.assertEqual(warnings, [])
        self.assertNotIn("warning", err)
        self.assertEqual(attrs["left_validity"], 0)
        self.assertEqual(sorted(rows["contacts"]), ["steel-steel", "steel-wall_end"])
        self.assertEqual(rows["left"], [0, 0])
        self.assertEqual(rows["exceeded"], ["", ""])
        pair = row_of(rows, "steel-steel")
        self.assertEqual(pair["strain_bound"], 0.02)
        self.assertTrue(0.001 < pair["largest_strain"] < 0.02, pair)
        self.assertEqual(pair["largest_impact_speed"], 1.0)  # the striker's, at first touch
        # No yield stress, and a law (edem_hertz_mindlin) that states no speed: no bound.
        self.assertTrue(math.isnan(pair["pressure_bound"]))
        self.assertTrue(math.isnan(pair["impact_speed_bound"]))

    def test_fast_striker_leaves_hertz_small_strain(self):
        # 20 m/s: the striker's impact reaches delta/R* near (15 m* v^2/(16 E* sqrt(R*)))^(2/5)
        # / R* = 0.045 for two beads of 5 mm (the chain behind the first bead adds to it).
        r_star = 0.0025
        m_star = RHO * 4 / 3 * math.pi * 0.005 ** 3 / 2
        analytic = (15 * m_star * 20 ** 2 / (16 * E_STAR * math.sqrt(r_star))) ** 0.4 / r_star
        for quiet in (False, True):
            with self.subTest(quiet=quiet):
                code, warnings, err, attrs, rows = run("contact.law=hertz",
                                                       "striker.velocity=20", quiet=quiet)
                self.assertEqual(code, 0, err)
                pair = row_of(rows, "steel-steel")
                self.assertEqual(pair["law"], "hertz")
                self.assertEqual(pair["left"], 1)
                self.assertGreater(pair["largest_strain"], 0.02)
                self.assertGreater(pair["largest_strain"], 0.9 * analytic)
                self.assertGreaterEqual(attrs["left_validity"], 1)
                ours = [w for w in warnings if "the steel-steel contacts" in w]
                self.assertEqual(len(ours), 1, warnings)
                for fragment in ("law 'hertz'", "strain delta/R* reached",
                                 f"{pair['largest_strain']:.4g}",
                                 f"{pair['largest_strain'] / 0.02:.3g} times the bound 0.02",
                                 "Hertz (1881), Johnson (1985)"):
                    self.assertIn(fragment, ours[0])
                self.assertEqual(pair["exceeded"], ours[0].split("left the range its sources "
                                                                 "state: ")[1])

    def test_lankarani_nikravesh_beyond_its_impact_speed(self):
        # 1 m/s, 20 times 1e-5 sqrt(E/rho) = 0.0506 m/s (Lankarani and Nikravesh 1990).
        bound = 1e-5 * WAVE_SPEED
        code, warnings, err, attrs, rows = run("contact.law=lankarani_nikravesh")
        self.assertEqual(code, 0, err)
        pair = row_of(rows, "steel-steel")
        self.assertAlmostEqual(pair["impact_speed_bound"], bound, delta=1e-12 * bound)
        self.assertEqual(pair["largest_impact_speed"], 1.0)
        self.assertEqual(pair["left"], 1)
        speed = [w for w in warnings if "impact speed reached" in w]
        self.assertEqual(len(speed), 1, warnings)
        for fragment in ("the steel-steel contacts of law 'lankarani_nikravesh'",
                         "impact speed reached 1 m/s", f"{1 / bound:.3g} times the bound 1e-05 "
                         f"sqrt(E/rho) = {bound:.4g} m/s of steel",
                         "Lankarani and Nikravesh (1990)"):
            self.assertIn(fragment, speed[0])
        # Within it, and at a restitution near 1: nothing to say.
        code, warnings, err, attrs, rows = run("contact.law=lankarani_nikravesh",
                                               "striker.velocity=0.05")
        self.assertEqual(code, 0, err)
        self.assertEqual(warnings, [])
        self.assertEqual(attrs["left_validity"], 0)

    def test_lankarani_nikravesh_far_from_restitution_one(self):
        code, warnings, err, attrs, rows = run("contact.law=lankarani_nikravesh",
                                               "contact.restitution=0.5", "striker.velocity=0.05")
        self.assertEqual(code, 0, err)
        self.assertTrue(warnings)
        for w in warnings:
            self.assertIn("restitution c_r = 0.5 is outside [0.8, 1]", w)

    def test_elastic_law_beyond_yield(self):
        # sigma_y = 1 GPa: first yield at p0 = 1.6 GPa (Johnson 1985), reached at delta/R* =
        # (pi p0/(2 E*))^2 = 5.2e-4, far below the 0.004 of 1 m/s.
        code, warnings, err, attrs, rows = run("material.steel.yield_stress=1e9")
        self.assertEqual(code, 0, err)
        pair = row_of(rows, "steel-steel")
        self.assertEqual(pair["pressure_bound"], 1.6e9)
        p0 = 2 * E_STAR / math.pi * math.sqrt(pair["largest_strain"])
        self.assertAlmostEqual(pair["largest_pressure"], p0, delta=1e-12 * p0)
        self.assertEqual(pair["left"], 1)
        yielded = [w for w in warnings if "the steel-steel contacts" in w]
        self.assertEqual(len(yielded), 1, warnings)
        for fragment in ("law 'edem_hertz_mindlin'", "peak Hertz pressure reached",
                         f"{p0 / 1.6e9:.3g} times the bound 1.6 sigma_y = 1.6e+09 Pa",
                         "Johnson (1985)"):
            self.assertIn(fragment, yielded[0])
        # A plastic law holds beyond yield: no pressure bound.
        code, warnings, err, attrs, rows = run("material.steel.yield_stress=1e9",
                                               "contact.law=thornton_1997",
                                               unset=["contact.restitution"])
        self.assertEqual(code, 0, err)
        self.assertTrue(math.isnan(row_of(rows, "steel-steel")["pressure_bound"]))
        self.assertEqual(warnings, [])


class Sweep(unittest.TestCase):
    def test_summary_table_has_a_column_to_filter_by(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = os.path.join(tmp, "sweep.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {DEFAULT}\n[set]\ncontact.law = hertz\n"
                        "simulation.duration = 2e-4\noutput.interval = 1e-4\n"
                        "[axes]\nstriker.velocity = 1, 20\n")
            out = os.path.join(tmp, "sweep.h5")
            r = subprocess.run([CHAINDEM, "sweep", sweep, "-o", out, "--quiet"],
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                velocity = list(f["summary/striker.velocity"][()])
                left = list(f["summary/left_validity"][()])
        self.assertEqual(velocity, [1.0, 20.0])
        self.assertEqual(left[0], 0)
        self.assertGreaterEqual(left[1], 1)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
