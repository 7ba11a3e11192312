#!/usr/bin/python3
"""Chains of several media: a contact model per pair of materials ([contact.A.B]) and per wall,
against independent integrations of the same equations written here.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy, scipy):
    test_several_media.py CHAINDEM_BINARY SOURCE_DIR
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np
from scipy.integrate import solve_ivp

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."

STEEL = (200e9, 0.3, 7800.0)
PTFE = (1.46e9, 0.46, 2200.0)
R = 0.005
MATERIALS = """[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
[material.ptfe]
youngs_modulus = 1.46e9
poisson_ratio = 0.46
density = 2200
"""


def run(tmp, name, text, sets=()):
    """Runs a case written into `tmp`; returns times, positions and velocities along x."""
    case = os.path.join(tmp, name + ".ini")
    with open(case, "w") as f:
        f.write(text)
    out = os.path.join(tmp, name + ".h5")
    argv = [CHAINDEM, "run", case, "-q", "-o", out]
    for s in sets:
        argv += ["--set", s]
    r = subprocess.run(argv, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    with h5py.File(out, "r") as f:
        x = f["particles/chain/position/value"][:, :, 0]
        v = f["particles/chain/velocity/value"][:, :, 0]
        t = f["particles/chain/position/time"][:]
        walls = f["walls/position/value"][0, :, 0] if "walls/position" in f else np.array([])
    return t, x, v, walls


def mass(material):
    return material[2] * 4.0 / 3.0 * math.pi * R**3


def hertz_stiffness(a, b, plane=False):
    """(4/3) E* sqrt(R*) of two spheres of radius R, or of a sphere on a plane."""
    e_star = 1.0 / ((1 - a[1] ** 2) / a[0] + (1 - b[1] ** 2) / b[0])
    return 4.0 / 3.0 * e_star * math.sqrt(R if plane else R / 2)


def integrate(masses, x0, v0, contact_force, wall_force, times):
    """A 1D chain: bodies in order along x, each touching only its neighbours (and the first one a
    wall), integrated with DOP853 to a relative tolerance of 1e-12."""
    n = len(masses)
    m = np.asarray(masses)

    def rhs(_, y):
        x, v = y[:n], y[n:]
        f = np.zeros(n)
        for i in range(n - 1):
            delta = 2 * R - (x[i + 1] - x[i])
            if delta > 0:
                force = contact_force(i, delta, v[i] - v[i + 1])
                f[i] -= force
                f[i + 1] += force
        f[0] += wall_force(x[0], v[0])
        return np.concatenate([v, f / m])

    y0 = np.concatenate([x0, v0])
    sol = solve_ivp(rhs, (times[0], times[-1]), y0, method="DOP853", t_eval=times, rtol=1e-12,
                    atol=1e-16, max_step=2e-7)
    assert sol.success, sol.message
    return sol.y[:n].T, sol.y[n:].T


class WallOfItsOwn(unittest.TestCase):
    """A column of beads falling onto a wall whose contact is given apart ([contact.wall_start.steel]):
    every bead starts at chain.velocity, and the wall's stiffness is not the beads' sphere-on-plane
    value."""

    K_WALL = 2.0e9  # N/m^1.5, a fifth of the Hertz value of a steel sphere on a steel plane

    def case(self, dt):
        return f"""[simulation]
duration = 6e-4
time_step = {dt}
[contact]
law = hertz
[contact.wall_start.steel]
stiffness = {self.K_WALL}
{MATERIALS}
[chain]
count = 4
materials = steel
radii = {R}
velocity = -0.5
[wall_start]
enabled = true
material = steel
gap = 1e-4
[output]
interval = 1e-5
"""

    def test_column_agrees_with_an_independent_integration(self):
        k_beads = hertz_stiffness(STEEL, STEEL)
        errors = []
        with tempfile.TemporaryDirectory() as tmp:
            for dt in (1e-7, 5e-8):
                t, x, v, walls = run(tmp, f"column{dt}", self.case(dt))
                wall = walls[0]
                xs, vs = integrate(
                    [mass(STEEL)] * 4, x[0], v[0],
                    lambda i, d, rate: k_beads * d**1.5,
                    lambda x0, v0: self.K_WALL * max(wall - (x0 - R), 0.0) ** 1.5, t)
                errors.append(np.abs(v - vs).max())
                # The wall sends the column back: the beads leave it moving away.
                self.assertGreater(v[-1].max(), 0.4)
        # Within 1e-5 of the beads' speed, and converging at second order.
        self.assertLess(errors[1], 0.5e-5, errors)
        self.assertGreater(errors[0] / errors[1], 3.0, errors)
        self.assertLess(errors[0] / errors[1], 5.0, errors)

    def test_the_wall_stiffness_is_its_own(self):
        """The same column with the wall's Hertz value comes off the wall at another time."""
        with tempfile.TemporaryDirectory() as tmp:
            _, _, own, _ = run(tmp, "own", self.case(1e-7))
            _, _, hertz, _ = run(tmp, "hertz", self.case(1e-7).replace(
                f"[contact.wall_start.steel]\nstiffness = {self.K_WALL}\n", ""))
        self.assertGreater(np.abs(own - hertz).max(), 0.1)


class TwoLawChain(unittest.TestCase):
    """A striker and beads of steel and PTFE with gaps: steel-steel elastic Hertz, steel-PTFE
    Hunt-Crossley (damping at a reference velocity), PTFE-PTFE a power law of its own exponent,
    against the same equations integrated here."""

    K_PTFE = 2.0e11  # N/m^1.8
    N_PTFE = 1.8
    C_R = 0.6
    V_REF = 1.0

    def case(self, dt):
        return f"""[simulation]
duration = 1.2e-3
time_step = {dt}
[contact]
law = hertz
impact_velocity = reference
reference_velocity = {self.V_REF}
[contact.steel.ptfe]
law = hunt_crossley
restitution = {self.C_R}
[contact.ptfe.ptfe]
law = power_law
stiffness = {self.K_PTFE}
exponent = {self.N_PTFE}
{MATERIALS}
[chain]
count = 6
materials = steel*3 ptfe*3
radii = {R}
gap = 1e-5
[striker]
material = steel
velocity = 1.0
gap = 1e-5
[output]
interval = 1e-5
"""

    def test_chain_agrees_with_an_independent_integration(self):
        kinds = ["steel"] * 4 + ["ptfe"] * 3  # the striker, then the beads
        k_ss = hertz_stiffness(STEEL, STEEL)
        k_sp = hertz_stiffness(STEEL, PTFE)
        alpha = 1.5 * (1 - self.C_R)

        def force(i, d, rate):
            pair = {kinds[i], kinds[i + 1]}
            if pair == {"steel"}:
                return k_ss * d**1.5
            if pair == {"ptfe"}:
                return self.K_PTFE * d**self.N_PTFE
            return max(k_sp * d**1.5 * (1 + alpha * rate / self.V_REF), 0.0)

        masses = [mass(STEEL if k == "steel" else PTFE) for k in kinds]
        errors = []
        with tempfile.TemporaryDirectory() as tmp:
            for dt in (5e-8, 2.5e-8):
                t, x, v, _ = run(tmp, f"chain{dt}", self.case(dt))
                xs, vs = integrate(masses, x[0], v[0], force, lambda x0, v0: 0.0, t)
                errors.append(np.abs(v - vs).max())
                # The pulse has crossed into the PTFE: its last bead moves.
                self.assertGreater(v[-1, -1], 0.05)
        self.assertLess(errors[1], 1e-5, errors)
        self.assertGreater(errors[0] / errors[1], 3.0, errors)


class InterfaceChainSummary(unittest.TestCase):
    """The summary of cases/interface_chain.ini tells what each contact model did."""

    def test_models_account_for_the_dissipated_energy(self):
        case = os.path.join(SOURCE, "cases", "interface_chain.ini")
        tmp_dir = tempfile.TemporaryDirectory()
        self.addCleanup(tmp_dir.cleanup)
        tmp = tmp_dir.name
        r = subprocess.run([CHAINDEM, "run", case, "-o", os.path.join(tmp, "ic.h5")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        start = next(k for k, line in enumerate(lines) if "contact models" in line)
        self.assertIn("3", lines[start])
        models = {}
        for line in lines[start + 1:start + 4]:
            section, rest = line.split(None, 1)
            models[section] = float(rest.split(": ")[1].split(" J")[0])
        self.assertEqual(set(models), {"contact", "contact.steel.ptfe", "contact.ptfe.ptfe"})
        total = float(next(line for line in lines if line.strip().startswith("energy "))
                      .split("dissipated ")[1].split()[0])
        # The summary prints six digits.
        self.assertAlmostEqual(sum(models.values()), total, delta=1e-5 * total)
        self.assertTrue(all(d > 0 for d in models.values()), models)
        # chaindem table lists the same, a row per model and quantity.
        r = subprocess.run([CHAINDEM, "table", os.path.join(tmp, "ic.h5"), "--csv"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = dict(line.split(",", 1) for line in r.stdout.splitlines()[1:])
        for section, dissipated in models.items():
            self.assertAlmostEqual(float(rows[f"models.{section}.dissipated_energy"]), dissipated,
                                   delta=1e-5 * dissipated)


class OnePairsLaw(unittest.TestCase):
    """compare and fit --pair A.B take the law of one pair of materials, the others kept."""

    CASE = f"""[simulation]
duration = 6e-4
time_step = 4e-7
[contact]
law = hertz
[contact.steel.ptfe]
law = hunt_crossley
restitution = 0.9
{MATERIALS}
[chain]
count = 8
materials = steel*4 ptfe*4
radii = {R}
[striker]
material = steel
velocity = 1.0
[output]
interval = 4e-6
"""

    def setUp(self):
        self.tmp_dir = tempfile.TemporaryDirectory()
        self.tmp = self.tmp_dir.name
        self.case = os.path.join(self.tmp, "pairs.ini")
        with open(self.case, "w") as f:
            f.write(self.CASE)

    def tearDown(self):
        self.tmp_dir.cleanup()

    def test_compare_changes_only_the_pairs_law(self):
        out = os.path.join(self.tmp, "cmp.h5")
        r = subprocess.run([CHAINDEM, "compare", self.case, "--laws", "hunt_crossley,hertz",
                            "--reference", "hunt_crossley", "--pair", "steel.ptfe", "--json",
                            "-o", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            cmp = f["comparison"]
            self.assertEqual(cmp.attrs["law_key"], "contact.steel.ptfe.law")
            steel = [f"cases/{law}/particles/chain/velocity/value" for law in ("hertz",
                                                                             "hunt_crossley")]
            a, b = f[steel[0]][:, :, 0], f[steel[1]][:, :, 0]
        # The steel contacts are Hertz in both runs: the striker and the first bead, gone before
        # the pulse met the interface (bead 3 to bead 4), end alike; the undamped interface
        # hands the PTFE beads more kinetic energy.
        self.assertLess(np.abs(a[-1, :2] - b[-1, :2]).max(), 1e-9)
        self.assertGreater(np.abs(a[-1, 5:] - b[-1, 5:]).max(), 1e-3)
        self.assertGreater((a[-1, 5:] ** 2).sum(), (b[-1, 5:] ** 2).sum())
        # The pair named the other way round is the case's [contact.steel.ptfe].
        out2 = os.path.join(self.tmp, "cmp2.h5")
        r = subprocess.run([CHAINDEM, "compare", self.case, "--laws", "hunt_crossley,hertz",
                            "--reference", "hunt_crossley", "--pair", "ptfe.steel", "--json",
                            "-o", out2], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out2, "r") as f:
            self.assertEqual(f["comparison"].attrs["law_key"], "contact.steel.ptfe.law")
            self.assertTrue(np.array_equal(f[steel[0]][()][:, :, 0], a))

    def test_sweep_over_a_pairs_key(self):
        sweep = os.path.join(self.tmp, "sweep.ini")
        with open(sweep, "w") as f:
            f.write(f"[sweep]\nbase = {self.case}\n[axes]\ncontact.steel.ptfe.restitution = 0.3, 0.9\n")
        out = os.path.join(self.tmp, "sweep.h5")
        r = subprocess.run([CHAINDEM, "sweep", sweep, "-o", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            values = f["summary/contact.steel.ptfe.restitution"][()]
            dissipated = f["summary/dissipated_energy"][()]
        self.assertEqual(list(values), [0.3, 0.9])
        self.assertGreater(dissipated[0], dissipated[1])  # the lower restitution takes more

    def test_fit_finds_the_pairs_restitution(self):
        """A record of the chain with the steel-PTFE restitution 0.6 is fitted with the pair's
        restitution free (the case says 0.9): the fit finds 0.6."""
        run_out = os.path.join(self.tmp, "truth.h5")
        r = subprocess.run([CHAINDEM, "run", self.case, "-q", "-o", run_out, "--set",
                            "contact.steel.ptfe.restitution=0.6"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(run_out, "r") as f:
            v = f["particles/chain/velocity/value"][()][:, :, 0]
            t = f["particles/chain/velocity/time"][()]
        record = os.path.join(self.tmp, "record.csv")
        with open(record, "w") as f:
            f.write("time [s]," + ",".join(f"bead{b} [m/s]" for b in range(8)) + "\n")
            for k in range(len(t)):
                f.write(repr(t[k]) + "," + ",".join(repr(v[k, 1 + b]) for b in range(8)) + "\n")
        import json
        # [contact]'s keys are case keys like any other: --set contact.restitution is not the
        # pair's, which is fitted all the same.
        for held in ([], ["--set", "contact.restitution=0.8"]):
            r = subprocess.run([CHAINDEM, "fit", "--case", self.case, "--data", record, "--pair",
                                "steel.ptfe", "--laws", "hunt_crossley", "--free", "restitution",
                                "--starts", "2", "--json", *held], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            p = json.loads(r.stdout)["laws"][0]["parameters"][0]
            self.assertEqual(p["key"], "restitution")
            self.assertAlmostEqual(p["value"], 0.6, delta=1e-4)

    def test_a_pair_keeps_its_contact_values_when_contact_changes_law(self):
        """A section with a law of its own takes [contact]'s values for that law, whatever law
        [contact] is given on the command line."""
        case = os.path.join(self.tmp, "inherits.ini")
        with open(case, "w") as f:
            f.write(self.CASE.replace("law = hertz\n", "law = edem_hertz_mindlin\nrestitution = 0.7\n", 1)
                    .replace("law = hunt_crossley\nrestitution = 0.9\n", "law = tsuji\n"))
        out = os.path.join(self.tmp, "inherits.h5")
        r = subprocess.run([CHAINDEM, "run", case, "-q", "-o", out, "--set", "contact.law=hertz"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as f:
            models = f["parameters/contact_models"]
            pair = next(m for m in models.values() if m.attrs["section"] == "contact.steel.ptfe")
            self.assertEqual(pair.attrs["id"], "tsuji")
            self.assertEqual(pair.attrs["restitution"], 0.7)


class OneModelEverywhere(unittest.TestCase):
    """Sections that give every pair and wall the model [contact] gives change nothing, bitwise, on
    both engines."""

    def test_sections_equal_to_the_default_change_no_bit(self):
        case = os.path.join(SOURCE, "cases", "default.ini")
        same = ["contact.steel.steel.restitution=0.9", "contact.wall_end.steel.law=edem_hertz_mindlin"]
        with tempfile.TemporaryDirectory() as tmp:
            for engine in ("auto", "general"):
                outputs = []
                for sets in ([], same):
                    out = os.path.join(tmp, f"{engine}{len(sets)}.h5")
                    argv = [CHAINDEM, "run", case, "-q", "-o", out, "--set",
                            f"simulation.engine={engine}", "--set", "simulation.duration=3e-4"]
                    for s in sets:
                        argv += ["--set", s]
                    r = subprocess.run(argv, capture_output=True, text=True)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    outputs.append(out)
                with h5py.File(outputs[0], "r") as a, h5py.File(outputs[1], "r") as b:
                    for name in ("particles/chain/position/value", "particles/chain/velocity/value",
                                 "particles/chain/force/value", "observables/dissipated_energy/value",
                                 "contacts/normal_force"):
                        self.assertTrue(np.array_equal(a[name][()], b[name][()]), (engine, name))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
