#!/usr/bin/python3
"""`chaindem compare`: per-bead errors against a reference law or reference data.

Run by ctest with Debian's /usr/bin/python3:  test_compare.py CHAINDEM SOURCE_DIR
"""
import json
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
COMMON = ["--set", "chain.count=10", "--set", "simulation.duration=6e-4"]


def compare(*args):
    return subprocess.run([CHAINDEM, "compare", CASE, *COMMON, *args], capture_output=True,
                          text=True, timeout=600)


class Compare(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.out = os.path.join(cls.tmp.name, "cmp.h5")
        r = compare("--laws", "tsuji,hertz,hunt_crossley", "--reference", "edem_hertz_mindlin",
                    "-o", cls.out, "--json")
        assert r.returncode == 0, r.stderr
        cls.errors = json.loads(r.stdout)["errors"]
        cls.impact_velocity = json.loads(r.stdout)["impact_velocity"]
        cls.stderr = r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_identical_law_has_no_error(self):
        # tsuji is the commercial-DEM law written differently (docs/validation.md#edem-damping).
        for metric, values in self.errors["tsuji"].items():
            self.assertLess(max(values), 1e-6, metric)

    def test_elastic_law_differs(self):
        # Hertz without damping keeps the pulse's energy: higher peak velocities everywhere.
        self.assertGreater(min(self.errors["hertz"]["peak_velocity"]), 5.0)
        self.assertTrue(all(e > 0 for e in self.errors["hunt_crossley"]["peak_force"]))

    def test_hdf5_layout(self):
        with h5py.File(self.out, "r") as f:
            self.assertEqual(f.attrs["chaindem_status"], "complete")
            c = f["comparison"]
            self.assertEqual(list(c.attrs["laws"]), ["tsuji", "hertz", "hunt_crossley"])
            self.assertEqual(c.attrs["reference"], "edem_hertz_mindlin")
            self.assertEqual(c["peak_velocity_error_percent"].shape, (3, 10))
            self.assertEqual(c["peak_velocity"].attrs["unit"], b"m s-1")
            np.testing.assert_allclose(c["peak_velocity_error_percent"][1],
                                       self.errors["hertz"]["peak_velocity"])
            for law in ("tsuji", "hertz", "hunt_crossley", "edem_hertz_mindlin"):
                self.assertIn(f"cases/{law}/particles/chain/velocity/value", f)
            # The reference metrics are the reference run's own data: the peak tracked every step
            # (never below the peak of the output frames), the final velocity of the last frame.
            v = f["cases/edem_hertz_mindlin/particles/chain/velocity/value"][:, 1:, 0]
            peak = c["reference_peak_velocity"][()]
            np.testing.assert_array_equal(
                peak, f["cases/edem_hertz_mindlin/summary/peak_velocity"][()])
            self.assertTrue(np.all(peak >= v.max(axis=0)))
            np.testing.assert_array_equal(c["reference_final_velocity"][()], v[-1])
            self.assertEqual(list(c["peak_velocity_beads_compared"][()]), [10, 10, 10])

    def test_reference_data_from_csv(self):
        # Measured data stand-in: the reference run's bead velocities as CSV; the velocity
        # errors must be those against the reference law.
        with h5py.File(self.out, "r") as f:
            t = f["cases/edem_hertz_mindlin/particles/chain/velocity/time"][()]
            v = f["cases/edem_hertz_mindlin/particles/chain/velocity/value"][:, 1:, 0]
        csv = os.path.join(self.tmp.name, "measured.csv")
        with open(csv, "w") as out:
            out.write("time," + ",".join(f"bead{b}" for b in range(10)) + "\n")
            for k in range(len(t)):
                out.write(f"{t[k]:.17g}," + ",".join(f"{x:.17g}" for x in v[k]) + "\n")
        r = compare("--laws", "hertz,hunt_crossley", "--reference-data", csv, "--json",
                    "-o", os.path.join(self.tmp.name, "data.h5"))
        self.assertEqual(r.returncode, 0, r.stderr)
        errors = json.loads(r.stdout)["errors"]
        for law in ("hertz", "hunt_crossley"):
            np.testing.assert_allclose(errors[law]["final_velocity"],
                                       self.errors[law]["final_velocity"], rtol=1e-12,
                                       err_msg=law)
            # Both sides are read at the output frames, where the law reference tracks the
            # peaks every step: near, not equal.
            np.testing.assert_allclose(errors[law]["peak_velocity"],
                                       self.errors[law]["peak_velocity"], rtol=0.05, atol=0.5,
                                       err_msg=law)
            self.assertIsNone(errors[law]["peak_force"][0])  # velocity data: no force reference

    def test_each_law_read_at_the_datas_times(self):
        """The default case's own run, written every 10 us and every 20 us and given back as
        data: the law that made it matches its peaks and arrivals to 0.5 % and ranks first, which
        it did not when the runs' peaks and arrivals were taken every step and the data's from
        their samples (3.2 % and up to 28.6 % errors; another law ranked first at 9.6 us)."""
        run = os.path.join(self.tmp.name, "generating.h5")
        r = subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", run, "--set", "output.interval=1e-5",
                            "--set", "output.contacts=false"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(run, "r") as f:
            chain = f["particles/chain"]
            first, beads = chain.attrs["chain_first"], chain.attrs["chain_count"]
            t = chain["velocity/time"][()]
            v = chain["velocity/value"][:, first:first + beads, 0]
        laws = ["hunt_crossley", "edem_hertz_mindlin", "lankarani_nikravesh"]
        for every in (1, 2):  # 10 us, 20 us
            csv = os.path.join(self.tmp.name, f"every{every}.csv")
            with open(csv, "w") as out:
                out.write("time," + ",".join(str(b) for b in range(beads)) + "\n")
                for k in range(0, len(t), every):
                    out.write(f"{t[k]!r}," + ",".join(repr(x) for x in v[k]) + "\n")
            out_h5 = os.path.join(self.tmp.name, f"every{every}.h5")
            r = subprocess.run([CHAINDEM, "compare", CASE, "--laws", ",".join(laws),
                                "--reference-data", csv, "--json", "-o", out_h5],
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            result = json.loads(r.stdout)
            for metric in ("peak_velocity", "arrival_time"):
                mean = {law: np.mean(result["errors"][law][metric]) for law in laws}
                self.assertLessEqual(mean["edem_hertz_mindlin"], 0.5, (every, metric, mean))
                self.assertEqual(min(mean.values()), mean["edem_hertz_mindlin"],
                                 (every, metric, mean))
            # The hunt_crossley run's pulses are not the data's: its errors are not nil.
            self.assertGreater(np.mean(result["errors"]["hunt_crossley"]["peak_velocity"]), 3)
            # How finely the data resolve each metric: reported, and stored.
            sampling = result["sampling"]
            self.assertAlmostEqual(sampling["interval"], 1e-5 * every, delta=1e-12)
            bound = sampling["bound_percent"]
            # Coarser data resolve peaks and arrivals less well: sampled at 20 us, the pulse of
            # ~20 us spans one or two samples.
            self.assertTrue(all(b > 0 for b in bound["peak_velocity"]))
            self.assertTrue(all(b == 0 for b in bound["final_velocity"]))
            self.assertIsNone(bound["peak_force"][0])
            with h5py.File(out_h5, "r") as f:
                c = f["comparison"]
                self.assertAlmostEqual(float(c.attrs["sample_interval"]), 1e-5 * every,
                                       delta=1e-12)
                np.testing.assert_array_equal(c["peak_velocity_sampling_bound_percent"][()],
                                              np.array(bound["peak_velocity"], dtype=float))
                self.assertEqual(c["samples_per_pulse"].shape, (beads,))
            if every == 2:
                # At 20 us the sampling moves a peak by more than what tells the other two laws
                # apart: said.
                self.assertIn("cannot separate", r.stderr)
                self.assertGreater(np.mean(bound["peak_velocity"]), 10)
                # The readers and the plot carry the bound.
                sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
                import matplotlib
                matplotlib.use("Agg")
                from chaindem_post import io, plots
                cmp = io.load_comparison(out_h5)
                self.assertAlmostEqual(cmp.sample_interval, 2e-5, delta=1e-12)
                np.testing.assert_array_equal(cmp.sampling_bound["peak_velocity"],
                                              np.array(bound["peak_velocity"], dtype=float))
                labels = plots.comparison(cmp).axes[0].get_legend_handles_labels()[1]
                self.assertIn("data sampled every 20 µs: what it resolves", labels)

    def test_newton_reference_for_binary_collisions(self):
        # Beads 5 mm apart: every impact is binary and short, so the event-driven Newton solution
        # is the exact limit of a law whose binary restitution is exact (gonthier_exact, and the
        # equivalent-oscillator law, exact without tension); the commercial-DEM law returns more
        # than c_r once tension is clamped (docs/validation.md#edem-damping), Hunt-Crossley much more.
        r = subprocess.run([CHAINDEM, "compare", CASE, "--laws",
                            "gonthier_exact,equivalent_oscillator_viscous,edem_hertz_mindlin,hunt_crossley",
                            "--reference", "newton", "--json", "-o",
                            os.path.join(self.tmp.name, "newton.h5"),
                            "--set", "chain.count=6", "--set", "chain.gap=5e-3",
                            "--set", "striker.gap=5e-3", "--set", "wall_end.enabled=false",
                            "--set", "simulation.duration=0.1", "--set", "output.interval=1e-4"],
                           capture_output=True, text=True, timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        e = json.loads(r.stdout)["errors"]
        mean = {law: np.mean(e[law]["final_velocity"]) for law in e}
        self.assertLess(mean["gonthier_exact"], 0.01)
        self.assertLess(mean["equivalent_oscillator_viscous"], 0.5)
        self.assertGreater(mean["edem_hertz_mindlin"], 1.0)
        self.assertGreater(mean["hunt_crossley"], mean["edem_hertz_mindlin"])
        self.assertIsNone(e["gonthier_exact"]["peak_force"][0])  # impulsive: no force
        # Touching beads: simultaneous contacts, no unique Newton outcome: refused.
        r = compare("--laws", "hertz", "--reference", "newton",
                    "-o", os.path.join(self.tmp.name, "n2.h5"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("no unique outcome", r.stderr)

    def test_policy_and_floor_hits_per_law(self):
        # The touching chain under the default (energy) policy: no contact needs a floor.
        self.assertEqual(self.impact_velocity["hunt_crossley"], {"policy": "energy", "floor_hits": 0})
        self.assertEqual(self.impact_velocity["tsuji"]["policy"], "none")
        self.assertNotIn("warning", self.stderr)
        with h5py.File(self.out, "r") as f:
            c = f["comparison"]
            self.assertEqual(list(c.attrs["impact_velocity"]), ["none", "none", "energy"])
            self.assertEqual(list(c["impact_velocity_floor_hits"][()]), [0, 0, 0])
        # Under the onset policy the beads that start touching begin at the floor: counted,
        # written and warned about.
        out = os.path.join(self.tmp.name, "onset.h5")
        r = compare("--laws", "hunt_crossley", "--reference", "tsuji", "-o", out,
                    "--set", "contact.impact_velocity=onset")
        self.assertEqual(r.returncode, 0, r.stderr)
        # At least the 9 pairs of the chain and the last bead on the wall, which all start
        # touching at rest (later touches of slow beads add more).
        warned = re.search(r"warning: law hunt_crossley: (\d+) contact\(s\) began slower than "
                           r"the impact-velocity floor", r.stderr)
        self.assertIsNotNone(warned, r.stderr)
        hits = int(warned.group(1))
        self.assertGreaterEqual(hits, 10)
        self.assertIn(f"impact velocity v0: hunt_crossley onset ({hits} at the floor)", r.stdout)
        with h5py.File(out, "r") as f:
            self.assertEqual(list(f["comparison/impact_velocity_floor_hits"][()]), [hits])

    def test_table(self):
        r = compare("--laws", "tsuji,hertz", "--reference", "edem_hertz_mindlin", "--beads",
                    "0,9", "-o", os.path.join(self.tmp.name, "t.h5"))
        self.assertEqual(r.returncode, 0, r.stderr)
        for word in ("peak_velocity", "peak_force", "arrival_time", "final_velocity", "#0", "#9"):
            self.assertIn(word, r.stdout)

    def test_invalid_input(self):
        bad_csv = os.path.join(self.tmp.name, "bad.csv")
        with open(bad_csv, "w") as f:
            f.write("time,a,b\n0,1,2\n")
        for args, key in ((["--laws", "hertz"], "--reference"),
                          (["--laws", "magic", "--reference", "hertz"], "magic"),
                          (["--laws", "hertz", "--reference-data", bad_csv], "columns"),
                          (["--laws", "hertz", "--reference", "tsuji", "--reference-quantity",
                            "mass"], "--reference-quantity"),
                          # The step of a run of its own only: compare runs at the case's.
                          (["--laws", "hertz", "--reference", "tsuji", "--set",
                            "simulation.accuracy=1e-3"], "simulation.accuracy")):
            r = compare(*args, "-o", os.path.join(self.tmp.name, "bad.h5"))
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(key, r.stderr)
            self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "bad.h5")))


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
