#!/usr/bin/python3
"""postprocess/: the readers and figures on small real outputs; the figures must contain the
expected series (checked on the matplotlib artists), not just exist.

Run by ctest with Debian's /usr/bin/python3:  test_postprocess.py CHAINDEM SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
from chaindem_post import load_loop, load_run, load_sweep, plots  # noqa: E402

PLOT = os.path.join(SOURCE, "postprocess", "chaindem-plot")


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r


def curves(fig):
    """The labelled data lines of a figure's first axes (an error-bar plot labels its container)."""
    ax = fig.axes[0]
    out = {c.get_label(): c.lines[0] for c in ax.containers}
    out.update({l.get_label(): l for l in ax.get_lines() if not l.get_label().startswith("_")})
    return out


class Figures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        t = cls.tmp.name
        cls.run_file = os.path.join(t, "run.h5")
        run(CHAINDEM, "run", os.path.join(SOURCE, "cases", "default.ini"), "-o", cls.run_file,
            "--quiet", "--set", "chain.count=8", "--set", "simulation.duration=4e-4")
        cls.loop_file = os.path.join(t, "loop.h5")
        run(CHAINDEM, "collide", "--law", "hunt_crossley", "--restitution", "0.5",
            "--dimensionless", "-o", cls.loop_file)
        # Binary impacts (one bead, the striker 1 mm away): achieved restitution vs input.
        cls.sweep_file = os.path.join(t, "sweep.h5")
        sweep_ini = os.path.join(t, "sweep.ini")
        with open(sweep_ini, "w") as f:
            f.write(f"[sweep]\nbase = {os.path.join(SOURCE, 'cases', 'default.ini')}\n"
                    "[set]\nchain.count = 1\nstriker.gap = 1e-3\nwall_end.enabled = false\n"
                    "simulation.duration = 1.2e-3\nsimulation.steps_per_contact = 400\n"
                    "output.contacts = false\n"
                    "[axes]\ncontact.law = hunt_crossley, gonthier_exact\n"
                    "contact.restitution = 0.2:1.0:0.2\n")
        run(CHAINDEM, "sweep", sweep_ini, "-o", cls.sweep_file, "--quiet")
        cls.result = load_run(cls.run_file)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_spacetime_holds_the_velocity_field(self):
        fig = plots.spacetime(self.result, "velocity")
        ax = fig.axes[0]
        mesh = ax.collections[0]
        np.testing.assert_array_equal(np.asarray(mesh.get_array()).reshape(len(self.result.time), 9),
                                      self.result.vx[:, 0:9])
        self.assertIn("[ms]", ax.get_ylabel())
        self.assertIn("[m/s]", fig.axes[1].get_ylabel())  # the colour bar

    def test_spacetime_of_forces(self):
        fig = plots.spacetime(self.result, "force")
        data = np.asarray(fig.axes[0].collections[0].get_array())
        np.testing.assert_array_equal(data.reshape(self.result.chain_force().shape),
                                      self.result.chain_force())
        self.assertGreater(data.max(), 50.0)  # the pulse is there
        self.assertIn("[N]", fig.axes[1].get_ylabel())

    def test_histories(self):
        fig = plots.histories(self.result, [0, -1])
        ax = fig.axes[0]
        self.assertEqual([l.get_label() for l in ax.get_lines()], ["bead 0", "bead 7"])
        np.testing.assert_allclose(ax.get_lines()[1].get_ydata(), self.result.vx[:, 8])
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()], ["bead 0", "bead 7"])
        self.assertIn("[m/s]", ax.get_ylabel())

    def test_force_overlap_loop(self):
        loop = load_loop(self.loop_file)
        self.assertAlmostEqual(loop.results["restitution"], 0.6630, places=3)  # §2.3
        fig = plots.force_overlap(loop)
        line = fig.axes[0].get_lines()[0]
        np.testing.assert_allclose(line.get_xdata(), loop.overlap * 1e6)
        np.testing.assert_allclose(line.get_ydata(), loop.force)
        # The loop is open: more force going in than coming out at the same overlap.
        self.assertGreater(loop.force.max(), 0.0)
        self.assertIn("[µm]", fig.axes[0].get_xlabel())
        # One contact of a run, from the ragged /contacts group.
        fig = plots.force_overlap(self.result, (1, 2))
        self.assertGreater(len(fig.axes[0].get_lines()[0].get_xdata()), 5)

    def test_energy(self):
        fig = plots.energy(self.result)
        lines = {l.get_label(): l for l in fig.axes[0].get_lines()}
        for label in ("kinetic", "stored (contacts)", "dissipated", "balance (constant if exact)"):
            self.assertIn(label, lines)
        np.testing.assert_allclose(lines["kinetic"].get_ydata(),
                                   self.result.energies["kinetic_energy"] * 1e3)
        balance = lines["balance (constant if exact)"].get_ydata()
        self.assertLess(np.ptp(balance) / balance[0], 5e-3)

    def test_restitution_curve_from_a_sweep(self):
        sweep = load_sweep(self.sweep_file)
        self.assertEqual(sweep.axes, ["contact.law", "contact.restitution"])
        fig = plots.restitution_curve(sweep)
        lines = curves(fig)
        self.assertEqual(set(lines), {"hunt_crossley", "gonthier_exact", "$e_{out} = c_r$"})
        # Through the whole pipeline (sweep -> engine -> isolated contacts -> summary -> figure):
        # the exact factor returns the input restitution; Hunt-Crossley under-dissipates
        # (Hunt and Crossley 1975 against the exact identity, Gonthier et al. 2004).
        x, y = lines["gonthier_exact"].get_xdata(), lines["gonthier_exact"].get_ydata()
        np.testing.assert_allclose(y, x, atol=5e-3)
        hc = lines["hunt_crossley"].get_ydata()
        np.testing.assert_allclose(hc, [0.5469, 0.6197, 0.7120, 0.8329, 1.0], atol=5e-3)

    def test_restitution_curve_draws_a_line_per_value_of_other_axes(self):
        sweep = load_sweep(self.sweep_file)
        sweep.axes.append("striker.velocity")  # pretend a third axis varies
        sweep.columns["striker.velocity"] = np.resize([0.5, 1.0], len(sweep))
        fig = plots.restitution_curve(sweep)
        labels = list(curves(fig))
        self.assertIn("hunt_crossley, striker.velocity=0.5", labels)
        self.assertEqual(len(labels), 5)  # 2 laws x 2 speeds + the diagonal
        fig = plots.restitution_curve(sweep, where={"striker.velocity": 1.0})
        law = sweep.columns["contact.law"]
        expected = np.sum((law == law[0]) & (sweep.columns["striker.velocity"] == 1.0))
        self.assertEqual(len(curves(fig)[f"{law[0]}"].get_xdata()), expected)

    def test_restitution_curve_needs_isolated_contacts(self):
        sweep = load_sweep(self.sweep_file)
        sweep.columns["isolated_restitution_mean"] = np.full(len(sweep), np.nan)
        with self.assertRaisesRegex(ValueError, "chain.gap"):
            plots.restitution_curve(sweep)

    def test_comparison_bars(self):
        fig = plots.comparison_bars({"a": np.array([1.0, 2.0]), "b": np.array([3.0, 4.0])},
                                    ["bead 1", "bead 2"], "error [%]")
        heights = [p.get_height() for p in fig.axes[0].patches]
        self.assertEqual(heights, [1.0, 2.0, 3.0, 4.0])
        self.assertEqual(fig.axes[0].get_ylabel(), "error [%]")

    def test_command_line_png_and_pdf(self):
        t = self.tmp.name
        for args, out in ((["spacetime", self.run_file], "st.png"),
                          (["spacetime", self.run_file, "--quantity", "force"], "stf.pdf"),
                          (["history", self.run_file, "--beads", "0,3,-1"], "h.png"),
                          (["loop", self.loop_file], "loop.pdf"),
                          (["loop", self.run_file, "--pair", "1,2"], "pair.png"),
                          (["energy", self.run_file], "e.png"),
                          (["restitution", self.sweep_file], "r.pdf"),
                          (["spacetime", self.sweep_file, "--case", "3"], "case.png")):
            path = os.path.join(t, out)
            run(sys.executable, PLOT, *args, "-o", path)
            with open(path, "rb") as f:
                head = f.read(8)
            self.assertTrue(head.startswith(b"\x89PNG") if out.endswith(".png")
                            else head.startswith(b"%PDF"), out)
            self.assertGreater(os.path.getsize(path), 10000, out)
        # A compare file: bar chart of the errors, and one law's run.
        cmp_file = os.path.join(t, "cmp.h5")
        run(CHAINDEM, "compare", os.path.join(SOURCE, "cases", "default.ini"), "--laws",
            "hertz,hunt_crossley", "--reference", "edem_hertz_mindlin", "-o", cmp_file,
            "--set", "chain.count=8", "--set", "simulation.duration=4e-4")
        from chaindem_post import load_comparison
        cmp = load_comparison(cmp_file)
        fig = plots.comparison(cmp, "peak_velocity", [0, 3, 7])
        heights = [p.get_height() for p in fig.axes[0].patches]
        np.testing.assert_allclose(heights, np.concatenate([cmp.errors["peak_velocity"][0, [0, 3, 7]],
                                                            cmp.errors["peak_velocity"][1, [0, 3, 7]]]))
        for args, out in ((["compare", cmp_file, "--metric", "peak_force"], "cmp.png"),
                          (["spacetime", cmp_file, "--law", "hertz"], "cmp_st.png")):
            path = os.path.join(t, out)
            run(sys.executable, PLOT, *args, "-o", path)
            self.assertGreater(os.path.getsize(path), 10000, out)
        r = subprocess.run([sys.executable, PLOT, "energy", "/nonexistent.h5", "-o",
                            os.path.join(t, "x.png")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        r = subprocess.run([sys.executable, PLOT, "history", self.run_file, "--beads", "0,50",
                            "-o", os.path.join(t, "x.png")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("not in the chain", r.stderr)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
