#!/usr/bin/python3
"""`chaindem fit` on impact data: synthetic restitution data made by a known law with 2 % noise
(through `chaindem collide`): the fit ranks the generating law first and its interval holds the
true value; bad input stops with exit status 2 and a message naming what is wrong.

Run by ctest with Debian's /usr/bin/python3:  test_fit.py CHAINDEM_BINARY SOURCE_DIR
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
STEEL_ON_WALL = ["--radius", "0.005", "--youngs-modulus", "2e11", "--poisson-ratio", "0.3",
                 "--density", "7800", "--wall"]


def collide(law, sets, velocity):
    args = [CHAINDEM, "collide", "--law", law, "--velocity", repr(velocity), "--json",
            *STEEL_ON_WALL]
    for key, value in sets.items():
        args += ["--set", f"{key}={value!r}"]
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def synthetic(folder, law, sets, seed, noise=0.02, name="data.csv"):
    """Restitution of `law` at 20 velocities from 0.1 to 3 m/s, each times 1 + 2 % noise."""
    random = np.random.default_rng(seed)
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("velocity,restitution\n")
        for v in np.geomspace(0.1, 3.0, 20):
            e = collide(law, sets, float(v))["restitution"]
            f.write(f"{v!r},{e * (1 + noise * random.standard_normal())!r}\n")
    return path


def fit(*args):
    return subprocess.run([CHAINDEM, "fit", *args], capture_output=True, text=True, timeout=600)


class Fit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="chaindem-fit-")

    def test_elastoplastic_data_ranks_its_law_first(self):
        data = synthetic(self.tmp, "thornton_1997", {"yield_stress": 4e8}, seed=1,
                         name="thornton.csv")
        r = fit("--data", data, "--laws", "hunt_crossley,tsuji,thornton_1997",
                "--start", "yield_stress=2e8", "--json", *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        result = json.loads(r.stdout)
        self.assertEqual(result["points"], 20)
        first = result["laws"][0]
        self.assertEqual(first["law"], "thornton_1997")
        self.assertGreater(result["laws"][1]["delta_aicc"], 10)
        p = first["parameters"][0]
        self.assertEqual(p["key"], "yield_stress")
        self.assertLess(p["low"], 4e8)
        self.assertGreater(p["high"], 4e8)
        self.assertAlmostEqual(sum(law["weight"] for law in result["laws"]), 1.0, places=12)

    def test_a_whole_family(self):
        # Every hysteresis law on restitution data: those that need a start nobody gave are
        # listed as not fitted, after the others, which are ranked.
        data = synthetic(self.tmp, "hunt_crossley", {"restitution": 0.7}, seed=7,
                         name="family.csv")
        r = fit("--data", data, "--family", "hysteresis", "--json", *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        laws = json.loads(r.stdout)["laws"]
        fitted = [law for law in laws if law["rank"] is not None]
        skipped = [law for law in laws if law["rank"] is None]
        self.assertGreater(len(fitted), 15)
        self.assertEqual(laws[:len(fitted)], fitted)
        self.assertIn("khulief_shabana", [law["law"] for law in skipped])
        for law in skipped:
            self.assertIn("failure", law)
        table = fit("--data", data, "--family", "hysteresis", *STEEL_ON_WALL)
        self.assertIn("-. khulief_shabana  not fitted: parameter 'stiffness' has an unbounded "
                      "range and no default: give it a start (--start key=value)", table.stdout)

    def test_hysteresis_restitution_is_recovered(self):
        data = synthetic(self.tmp, "hunt_crossley", {"restitution": 0.7}, seed=2, name="hc.csv")
        r = fit("--data", data, "--laws", "hunt_crossley", "--json", *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        p = json.loads(r.stdout)["laws"][0]["parameters"][0]
        self.assertLess(p["low"], 0.7)
        self.assertGreater(p["high"], 0.7)
        self.assertEqual(p["interval"], "covariance")
        table = fit("--data", data, "--laws", "hunt_crossley", *STEEL_ON_WALL)
        self.assertIn("1. hunt_crossley", table.stdout)
        self.assertRegex(table.stdout, r"restitution = 0\.69\d+ \+- 0\.005")

    def test_file_and_figure(self):
        data = synthetic(self.tmp, "hunt_crossley", {"restitution": 0.7}, seed=3, name="f.csv")
        out = os.path.join(self.tmp, "fit.h5")
        r = fit("--data", data, "--laws", "hunt_crossley,tsuji", "-o", out, *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_fit
        result = load_fit(out)
        self.assertEqual(result.quantities, ["restitution"])
        self.assertEqual(result.kind, "impacts")
        self.assertEqual(len(result.x), 20)
        best = result.laws[0]
        self.assertEqual(best.rank, 1)
        self.assertEqual(len(best.curve_x), 100)
        # The file's residuals are the data minus the curve at the data's velocities.
        curve_at_data = np.interp(result.x, best.curve_x, best.curve["restitution"])
        self.assertTrue(np.allclose(result.value["restitution"] - curve_at_data,
                                    best.residuals["restitution"], atol=1e-6))
        image = os.path.join(self.tmp, "fit.png")
        r = subprocess.run([sys.executable, os.path.join(SOURCE, "postprocess", "chaindem-plot"),
                            "fit", out, "-o", image], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(os.path.getsize(image), 20000)

    def test_several_quantities_rank_laws_of_constant_restitution(self):
        # Restitution alone cannot tell hunt_crossley from tsuji (both give the same value at
        # every velocity); with the peak force and the contact duration the fit can.
        random = np.random.default_rng(5)
        path = os.path.join(self.tmp, "three.csv")
        with open(path, "w") as f:
            f.write("velocity,restitution,restitution_sigma,peak_force,peak_force_sigma,"
                    "contact_duration,contact_duration_sigma\n")
            for i, v in enumerate(np.geomspace(0.05, 3.0, 10)):
                r = collide("hunt_crossley", {"restitution": 0.6}, float(v))
                cells = [repr(float(v))]
                for q in ("restitution", "peak_force", "contact_duration"):
                    x = r[q]
                    # Not every row measures all (empty cells, some at the end of the row).
                    measured = (q != "peak_force" or i % 2 == 0) and (
                        q != "contact_duration" or i != 4)
                    cells += [repr(x * (1 + 0.02 * random.standard_normal())) if measured
                              else "", repr(0.02 * x) if measured else ""]
                f.write(",".join(cells) + "\n")
        r = fit("--data", path, "--laws", "tsuji,hunt_crossley", "--json", "--threads", "2",
                *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        # The laws are fitted in parallel; each fit on its own: the same numbers on one thread.
        alone = fit("--data", path, "--laws", "tsuji,hunt_crossley", "--json", "--threads", "1",
                    *STEEL_ON_WALL)
        self.assertEqual(alone.stdout, r.stdout)
        result = json.loads(r.stdout)
        self.assertEqual(result["quantities"], ["restitution", "peak_force", "contact_duration"])
        self.assertEqual(result["points"], 24)
        self.assertTrue(result["weighted"])
        self.assertEqual(result["laws"][0]["law"], "hunt_crossley")
        self.assertGreater(result["laws"][1]["delta_aicc"], 10)
        peak = result["laws"][0]["residuals"]["peak_force"]
        self.assertEqual([x is None for x in peak], [i % 2 == 1 for i in range(10)])
        p = result["laws"][0]["parameters"][0]
        self.assertLess(p["low"], 0.6)
        self.assertGreater(p["high"], 0.6)
        # --bounds narrows the search; bounds that exclude what the data call for are refused.
        r = fit("--data", path, "--laws", "hunt_crossley", "--bounds", "restitution=0.5:0.65",
                "--json", *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        p = json.loads(r.stdout)["laws"][0]["parameters"][0]
        self.assertGreaterEqual(p["low"], 0.5)
        self.assertLessEqual(p["high"], 0.65)
        r = fit("--data", path, "--laws", "hunt_crossley", "--bounds", "restitution=0.3:0.55",
                *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("no law was fitted: hunt_crossley: its best fit, restitution = 0.55, lies "
                      "at the high end of --bounds (0.55): the data call for a value the bounds "
                      "exclude", r.stderr)
        out = os.path.join(self.tmp, "three.h5")
        r = fit("--data", path, "--laws", "tsuji,hunt_crossley", "-o", out, *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_fit
        result = load_fit(out)
        self.assertEqual(sorted(result.sigma), sorted(result.quantities))
        self.assertTrue(np.isnan(result.value["peak_force"][1]))
        image = os.path.join(self.tmp, "three.png")
        r = subprocess.run([sys.executable, os.path.join(SOURCE, "postprocess", "chaindem-plot"),
                            "fit", out, "-o", image], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def chain_record(self, name, beads, noise=0.01, seed=6, phi=0.0):
        """Bead velocities of cases/default.ini run under hunt_crossley (c_r 0.8), every fourth
        output frame (8 us), with `noise` m/s of Gaussian noise, correlated from one time to
        the next as an AR(1) sequence of coefficient `phi` (0: independent)."""
        import h5py
        run = os.path.join(self.tmp, name + ".h5")
        subprocess.run([CHAINDEM, "run", os.path.join(SOURCE, "cases", "default.ini"), "--set",
                        "contact.law=hunt_crossley", "--set", "contact.restitution=0.8", "-o", run],
                       check=True, capture_output=True)
        with h5py.File(run) as f:
            v = f["particles/chain/velocity/value"][()][::4, :, 0]
            t = f["particles/chain/velocity/time"][()][::4]
        random = np.random.default_rng(seed)
        e = noise * random.standard_normal((len(t), len(beads)))
        for k in range(1, len(t)):
            e[k] = phi * e[k - 1] + np.sqrt(1 - phi ** 2) * e[k]
        path = os.path.join(self.tmp, name + ".csv")
        with open(path, "w") as f:
            f.write("time [us]," + ",".join(f"bead{b} [mm/s]" for b in beads) + "\n")
            for k in range(len(t)):
                f.write(repr(t[k] * 1e6) + "," + ",".join(
                    repr(1e3 * (v[k, 1 + b] + e[k, i])) for i, b in enumerate(beads)) + "\n")
        return path

    def test_chain_bootstrap_with_correlated_noise(self):
        # Noise that lasts several samples (AR(1), 0.9): the covariance interval, which takes
        # every sample as independent, is too narrow; the block bootstrap's is wider and holds
        # the generating restitution.
        record = self.chain_record("correlated", [0, 7, 19], noise=0.02, seed=8, phi=0.9)
        case = os.path.join(SOURCE, "cases", "default.ini")
        args = ["--case", case, "--data", record, "--laws", "hunt_crossley", "--sigma", "0.02",
                "--starts", "1", "--json"]
        plain = json.loads(fit(*args).stdout)["laws"][0]
        r = fit(*args, "--bootstrap", "100")
        self.assertEqual(r.returncode, 0, r.stderr)
        booted = json.loads(r.stdout)["laws"][0]
        self.assertEqual(booted["bootstrap"]["refits"], 100)
        self.assertGreater(booted["bootstrap"]["block"], 5)  # from the residuals' correlation
        p, q = plain["parameters"][0], booted["parameters"][0]
        self.assertEqual(q["interval"], "bootstrap")
        self.assertEqual(p["value"], q["value"])
        self.assertGreater(q["high"] - q["low"], 1.5 * (p["high"] - p["low"]))
        self.assertLess(q["low"], 0.8)
        self.assertGreater(q["high"], 0.8)

    def test_chain_history(self):
        # A 20-bead record of every bead: the generating law first, its restitution within its
        # interval; the figure draws each bead.
        record = self.chain_record("chain", range(20))
        case = os.path.join(SOURCE, "cases", "default.ini")
        out = os.path.join(self.tmp, "chain_fit.h5")
        r = fit("--case", case, "--data", record, "--laws", "hunt_crossley,tsuji", "--sigma",
                "0.01", "--json", "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("hunt_crossley fitted", r.stderr)  # progress, one line per law
        result = json.loads(r.stdout)
        self.assertEqual(result["kind"], "chain")
        self.assertEqual(result["beads"], list(range(20)))
        self.assertEqual(result["points"], 20 * len(range(0, 501, 4)))  # 1 ms, 2 us frames
        first = result["laws"][0]
        self.assertEqual(first["law"], "hunt_crossley")
        self.assertGreater(result["laws"][1]["delta_aicc"], 100)
        p = first["parameters"][0]
        self.assertEqual(p["key"], "restitution")
        self.assertLess(p["low"], 0.8)
        self.assertGreater(p["high"], 0.8)
        self.assertEqual(len(first["residuals"]["bead19"]), len(range(0, 501, 4)))
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_fit
        saved = load_fit(out)
        self.assertEqual((saved.kind, saved.quantity, len(saved.series)), ("chain", "velocity", 20))
        # The file's prediction is the record less the residuals (times sigma), in m/s.
        best = saved.laws[0]
        self.assertTrue(np.allclose(saved.value["bead7"] - 0.01 * best.residuals["bead7"],
                                    best.curve["bead7"], atol=1e-12))
        image = os.path.join(self.tmp, "chain_fit.png")
        r = subprocess.run([sys.executable, os.path.join(SOURCE, "postprocess", "chaindem-plot"),
                            "fit", out, "-o", image], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_chain_history_bad_input(self):
        record = self.chain_record("few", [0, 7])
        case = os.path.join(SOURCE, "cases", "default.ini")
        for args, text in [
            (["--radius", "0.005"], "--radius: the bodies of a chain come from its case"),
            (["--quantity", "speed"], "--quantity: 'speed' is not velocity or force"),
            (["--sigma", "-1"], "--sigma: -1 is out of range: allowed [1e-30, 1e+30]"),
            (["--laws", "thornton_1997"], "give it a start"),
            (["--set", "chain.count=5"], "names bead 7: allowed 0 to 4"),
            (["--free", "eta1"], "'eta1' is a parameter of none of the laws"),
            (["--set", "contact.restitution=0.5"], "law 'hunt_crossley': it has no parameter"),
            (["--set", "contact.law=tsuji"], "the laws to fit are chosen by --laws or --family"),
        ]:
            with self.subTest(text):
                command = ["--case", case, "--data", record] + args
                if "--laws" not in args:
                    command += ["--laws", "hunt_crossley"]
                r = fit(*command)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertIn(text, r.stderr)
        negative = os.path.join(self.tmp, "negative.csv")  # compression counted negative
        with open(negative, "w") as f:
            f.write("time [us],bead0 [N]\n0,0\n10,-5\n20,-30\n30,-4\n")
        r = fit("--case", case, "--data", negative, "--quantity", "force", "--laws",
                "hunt_crossley")
        self.assertEqual(r.returncode, 2)
        self.assertIn("line 3, column 2 ('bead0 [N]'): -5 N is out of range: allowed [0, 1e+30] N",
                      r.stderr)
        early = os.path.join(self.tmp, "early.csv")
        with open(early, "w") as f:
            f.write("time [us],bead0 [m/s]\n-30,0\n-20,0\n10,0.1\n20,0.5\n")
        r = fit("--case", case, "--data", early, "--laws", "hunt_crossley")
        self.assertEqual(r.returncode, 2)
        self.assertRegex(r.stderr,
                         r"its first time, -(3e-05|2\.99+7e-05) s, is before the run starts")
        r = fit("--data", record, "--laws", "hunt_crossley", "--quantity", "velocity",
                *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--quantity is for a chain's history (--case)", r.stderr)

    def test_stiffness_and_exponent(self):
        # Peak forces and durations of Hertz impacts (steel on steel: K = (4/3) E* sqrt(R) =
        # 1.036e10 N/m^1.5), fitted by the generic power law K delta^n, both free.
        random = np.random.default_rng(3)
        path = os.path.join(self.tmp, "hertz.csv")
        with open(path, "w") as f:
            f.write("velocity,peak_force,peak_force_sigma,contact_duration,"
                    "contact_duration_sigma\n")
            for v in np.geomspace(0.05, 3.0, 10):
                r = collide("hertz", {}, float(v))
                f.write(",".join(repr(float(x)) for x in (
                    v, r["peak_force"] * (1 + 0.02 * random.standard_normal()),
                    0.02 * r["peak_force"],
                    r["contact_duration"] * (1 + 0.02 * random.standard_normal()),
                    0.02 * r["contact_duration"])) + "\n")
        r = fit("--data", path, "--laws", "power_law", "--start", "stiffness=1e9", "--start",
                "exponent=1.2", "--json", *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        stiffness, exponent = json.loads(r.stdout)["laws"][0]["parameters"]
        hertz = 4 / 3 * 2e11 / (2 * (1 - 0.3 ** 2)) * 0.005 ** 0.5
        self.assertLess(stiffness["low"], hertz)
        self.assertGreater(stiffness["high"], hertz)
        self.assertLess(exponent["low"], 1.5)
        self.assertGreater(exponent["high"], 1.5)
        self.assertLess(exponent["high"] - exponent["low"], 0.1)

    def test_bad_input(self):
        good = os.path.join(self.tmp, "good.csv")
        with open(good, "w") as f:
            f.write("velocity,restitution\n1,0.8\n2,0.7\n3,0.65\n")
        unknown = os.path.join(self.tmp, "unknown.csv")
        with open(unknown, "w") as f:
            f.write("velocity,restitutoin\n1,0.8\n")
        two = os.path.join(self.tmp, "two.csv")
        with open(two, "w") as f:
            f.write("velocity,restitution\n1,0.8\n2,0.7\n")
        def written(name, text):
            path = os.path.join(self.tmp, name)
            with open(path, "w") as f:
                f.write(text)
            return path
        # Bounds are intersected with each law's range: an end at the law's own (here 1, or an
        # empty high end) is the law's, and a best fit there is a fit.
        elastic = written("elastic.csv", "velocity,restitution,sigma\n0.1,1,0.01\n0.5,1,0.01\n"
                          "1,1,0.01\n2,1,0.01\n")
        for bounds in ("restitution=0.5:1", "restitution=0.5:", "restitution=0:1"):
            r = fit("--data", elastic, "--laws", "hunt_crossley,gonthier", "--bounds", bounds,
                    "--json", *STEEL_ON_WALL)
            self.assertEqual(r.returncode, 0, bounds + r.stderr)
            self.assertEqual([law["rank"] for law in json.loads(r.stdout)["laws"]], [1, 2])
        # AICc needs two points more than parameters with uncertainties, three without.
        three = written("three.csv", "velocity,restitution,sigma\n1,0.8,0.01\n2,0.79,0.01\n"
                        "3,0.81,0.01\n")
        r = fit("--data", three, "--laws", "hunt_crossley", "--json", *STEEL_ON_WALL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["points"], 3)
        one = written("one.csv", "velocity,restitution,sigma\n1,0.8,0.01\n")
        # A header with a byte-order mark, semicolons, SI units and CRLF line ends.
        spreadsheet = written("sheet.csv", "\ufeffvelocity [m/s];restitution [-];sigma\r\n"
                              "1;0.8;0.01\r\n2;0.79;0.01\r\n3;0.81;0.01\r\n")
        sheet = fit("--data", spreadsheet, "--laws", "hunt_crossley", "--json", *STEEL_ON_WALL)
        self.assertEqual(sheet.returncode, 0, sheet.stderr)
        self.assertEqual(json.loads(sheet.stdout)["laws"], json.loads(r.stdout)["laws"])
        millimetres = written("mm.csv", "velocity [mm/s],restitution\n1,0.8\n")
        empty = written("empty.csv", "velocity,restitution\n")
        above = written("above.csv", "velocity,restitution\n1,0.8\n2,1.3\n3,0.65\n")
        unweighted = written("unweighted.csv", "velocity,restitution,peak_force\n1,0.8,300\n")
        orphan = written("orphan.csv", "velocity,restitution,peak_force_sigma\n1,0.8,3\n")
        for args, text in [
            (["--data", empty, "--laws", "hunt_crossley"], "column 'restitution' has no values"),
            (["--data", one, "--laws", "tsuji"],
             "1 point is too few to fit 1 parameter(s) of law 'tsuji' and rank it by AICc; "
             "at least 3"),
            (["--data", three, "--laws", "tsuji,anagnostopoulos", "--start", "stiffness=1e7"],
             "3 points are too few to fit 2 parameter(s) of law 'anagnostopoulos' and rank it"),
            (["--data", millimetres, "--laws", "tsuji"],
             "column 'velocity [mm/s]': impact data are in SI units, [m/s] for velocity"),
            (["--data", self.tmp, "--laws", "tsuji"], "is a directory, not a regular file"),
            (["--data", three, "--laws", "tsuji", "--bootstrap", "10"],
             "--bootstrap: 10 is out of range: allowed 100 to 100000 refits (0: none)"),
            (["--data", three, "--laws", "tsuji", "--block", "3"],
             "--block is the block length of --bootstrap, which is not given"),
            (["--data", three, "--laws", "tsuji", "--bootstrap", "100", "--block", "4"],
             "--block 4: allowed at most half the shortest series of the data (3 points)"),
            (["--data", three, "--laws", "tsuji", "--set", "stiffness=-5"],
             "law 'tsuji': --set stiffness: -5 is out of range for law 'tsuji'"),
            (["--data", three, "--laws", "tsuji", "--start", "restitutoin=0.5"],
             "--start: 'restitutoin' is a parameter of none of the laws; did you mean "
             "'restitution'?"),
            (["--data", three, "--laws", "tsuji,tsuji"], "--laws: 'tsuji' is named twice"),
            (["--data", three, "--laws", "tsuji", "--free", "restitution,restitution"],
             "--free: 'restitution' is named twice"),
            (["--data", three, "--laws", "tsuji", "--start", "restitution=0.5", "--start",
              "restitution=0.7"], "--start restitution: given twice"),
            (["--data", three, "--laws", "tsuji,thornton_1997", "--free", "yield_stress",
              "--start", "yield_stress=2e8"],
             "law 'tsuji': it has none of the parameters of --free yield_stress"),
            (["--data", above, "--laws", "hunt_crossley"],
             "above.csv:3: restitution: a restitution of 1.3 is above 1"),
            (["--data", unweighted, "--laws", "hunt_crossley"],
             "needs each one's uncertainty"),
            (["--data", orphan, "--laws", "hunt_crossley"],
             "the uncertainty of 'peak_force', which is not measured here"),
            (["--data", good, "--laws", "hunt_crossley", "--bounds", "restitution=1.5:2"],
             "--bounds restitution=1.5:2 leaves nothing of the range of law 'hunt_crossley': "
             "allowed [0, 1]"),
            (["--data", good, "--laws", "hunt_crossley", "--bounds", "restitution=0.9:0.5"],
             "the low end must be below the high end"),
            (["--data", good, "--laws", "hunt_crossley", "--bounds", "stiffness=1:2"],
             "'stiffness' is fitted in none of the laws"),
            (["--data", good, "--laws", "hunt_crossley", "--bounds", "restitution=0.1:0.3",
              "--start", "restitution=0.5"], "outside --bounds 0.1:0.3"),
            (["--data", unknown, "--laws", "hunt_crossley"],
             "unknown column 'restitutoin'; did you mean 'restitution'?"),
            (["--data", two, "--laws", "hunt_crossley"], "2 points are too few"),
            (["--data", good, "--laws", "hunt_crossley", "--free", "yield_stress"],
             "'yield_stress' is a parameter of none of the laws"),
            (["--data", good, "--laws", "hunt_crosley"], "did you mean 'hunt_crossley'"),
            (["--data", good, "--laws", "thornton_1997"], "give it a start"),
            (["--data", good, "--laws", "hunt_crossley", "--start", "restitution=1.5"],
             "out of the range of law 'hunt_crossley'"),
            (["--data", good, "--laws", "hunt_crossley", "--free", "restitution",
              "--set", "restitution=0.5"], "fitted or held fixed, not both"),
            (["--data", os.path.join(self.tmp, "none.csv"), "--laws", "hertz"], "cannot read"),
            (["--laws", "hertz"], "--data is missing"),
        ]:
            with self.subTest(text):
                r = fit(*args, *STEEL_ON_WALL)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertIn(text, r.stderr)
                self.assertNotIn("WARNING", r.stderr)  # no logging of the solver's


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
