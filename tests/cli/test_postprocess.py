#!/usr/bin/python3
"""postprocess/: the readers and figures on small real outputs; the figures must contain the
expected series (checked on the matplotlib artists), not just exist, with axes labelled with
units, titles naming the case, colour ranges that show the wave, and one bead numbering (chain
beads from 0, the striker named "striker") in every figure.

Run by ctest with Debian's /usr/bin/python3:  test_postprocess.py CHAINDEM SOURCE_DIR
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
sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
import matplotlib.colors  # noqa: E402
from chaindem_post import load_loop, load_run, load_sweep, plots  # noqa: E402

PLOT = os.path.join(SOURCE, "postprocess", "chaindem-plot")


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r


UNIT = re.compile(r"\[[^\]]+\]")  # a unit in brackets: [m/s], [ms], [-], [%]


def units(test, fig):
    """Every axis of the figure that has ticks has a label with a unit in brackets."""
    for ax in fig.axes:
        for name, label, ticks in (("x", ax.get_xlabel(), ax.get_xticks()),
                                   ("y", ax.get_ylabel(), ax.get_yticks())):
            if len(ticks) and not (name == "x" and "bead" in label):  # beads are counted
                test.assertRegex(label, UNIT, f"{name} axis of {ax.get_title()!r}: {label!r}")


def tick_labels(ax):
    """x position -> text of the tick labels that are shown."""
    return {round(float(t), 3): label.get_text() for t, label in
            zip(ax.get_xticks(), ax.get_xticklabels())}


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
        # A case of several contact models: 20 steel beads, then 20 PTFE.
        cls.interface_file = os.path.join(t, "interface.h5")
        run(CHAINDEM, "run", os.path.join(SOURCE, "cases", "interface_chain.ini"), "-o",
            cls.interface_file, "--quiet")
        cls.interface = load_run(cls.interface_file)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def tearDown(self):
        plots.plt.close("all")

    def test_spacetime_holds_the_velocity_field(self):
        fig = plots.spacetime(self.result, "velocity")
        ax = fig.axes[0]
        mesh = ax.collections[0]
        np.testing.assert_array_equal(np.asarray(mesh.get_array()).reshape(len(self.result.time), 9),
                                      self.result.vx[:, 0:9])
        self.assertIn("[ms]", ax.get_ylabel())
        self.assertIn("[m/s]", fig.axes[1].get_ylabel())  # the colour bar
        units(self, fig)
        self.assertIn("default", ax.get_title())  # the case's name

    def test_spacetime_counts_chain_beads_from_0(self):
        # The striker's column is at x = -1, named "striker"; chain bead k at x = k, so that
        # tick "0" is the first bead after the striker, as in the run summary.
        for quantity in ("velocity", "force"):
            fig = plots.spacetime(self.result, quantity)
            ax = fig.axes[0]
            labels = tick_labels(ax)
            self.assertEqual(labels[-1.0], "striker", quantity)
            self.assertEqual(labels[0.0], "0", quantity)
            self.assertNotIn("body", ax.get_xlabel())
            self.assertIn("chain bead (0 = first bead after the striker)", ax.get_xlabel())
        fig = plots.spacetime(self.result, "velocity")
        x = fig.axes[0].collections[0].get_coordinates()[0, :, 0]  # cell corners
        centres = (x[:-1] + x[1:]) / 2
        np.testing.assert_allclose(centres, np.arange(-1, 8))
        # The column at x = 3 is chain bead 3 (particle chain_first + 3).
        data = np.asarray(fig.axes[0].collections[0].get_array()).reshape(-1, 9)
        np.testing.assert_array_equal(data[:, 4], self.result.vx[:, self.result.chain_first + 3])
        # Forces: the contact between beads k and k + 1 at k + 1/2, the end wall after bead 7.
        fig = plots.spacetime(self.result, "force")
        labels = tick_labels(fig.axes[0])
        self.assertEqual(labels[8.0], "wall")
        x = fig.axes[0].collections[0].get_coordinates()[0, :, 0]
        np.testing.assert_allclose((x[:-1] + x[1:]) / 2, np.arange(-0.5, 8.0))

    def test_spacetime_of_forces(self):
        fig = plots.spacetime(self.result, "force")
        data = np.asarray(fig.axes[0].collections[0].get_array())
        x, names, forces = self.result.contact_forces()
        np.testing.assert_array_equal(data.reshape(forces.shape), forces)
        self.assertEqual(names[0], "striker-bead 0")
        self.assertEqual(names[-1], "bead 7-wall")
        # Between neighbours, the same forces as chain_force; the wall's is the last column.
        np.testing.assert_array_equal(forces[:, :-1], self.result.chain_force())
        self.assertGreater(forces[:, -1].max(), 50.0)  # the pulse reaches the wall
        self.assertGreater(data.max(), 50.0)  # the pulse is there
        self.assertIn("[N]", fig.axes[1].get_ylabel())
        units(self, fig)

    def test_spacetime_color_range_option(self):
        vmax = np.abs(self.result.vx).max()
        for spec, lo, hi in (("0.2", -0.2, 0.2), ("-0.1:0.4", -0.1, 0.4), ("p100", -vmax, vmax)):
            norm = plots.spacetime(self.result, "velocity", spec).axes[0].collections[0].norm
            self.assertAlmostEqual(norm.vmin, lo, msg=spec)
            self.assertAlmostEqual(norm.vmax, hi, msg=spec)
        norm = plots.spacetime(self.result, "force", "10:150").axes[0].collections[0].norm
        self.assertEqual((norm.vmin, norm.vmax), (10.0, 150.0))
        # Per-bead normalisation: every column's peak is 1.
        fig = plots.spacetime(self.result, "velocity", "bead")
        data = np.asarray(fig.axes[0].collections[0].get_array()).reshape(-1, 9)
        np.testing.assert_allclose(np.abs(data).max(axis=0), 1.0)
        self.assertIn("[-]", fig.axes[1].get_ylabel())
        # Logarithmic: three decades below the largest value.
        norm = plots.spacetime(self.result, "velocity", "log").axes[0].collections[0].norm
        self.assertIsInstance(norm, matplotlib.colors.SymLogNorm)
        self.assertAlmostEqual(norm.vmax, vmax)
        norm = plots.spacetime(self.result, "force", "log").axes[0].collections[0].norm
        self.assertIsInstance(norm, matplotlib.colors.LogNorm)
        for bad in ("p0", "p101", "1:1", "wide", "1:2:3", "nan"):
            with self.assertRaises(ValueError, msg=bad):
                plots.spacetime(self.result, "velocity", bad)
        # From the command line, in --help and honoured.
        r = run(sys.executable, PLOT, "spacetime", "--help")
        self.assertIn("--color-range", r.stdout)
        out = os.path.join(self.tmp.name, "range.png")
        run(sys.executable, PLOT, "spacetime", self.run_file, "--color-range=-0.3:0.6", "-o", out)
        r = subprocess.run([sys.executable, PLOT, "spacetime", self.run_file, "--color-range",
                            "wide", "-o", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("color range", r.stderr)

    def test_spacetime_default_range_shows_a_decaying_pulse(self):
        # Beads 50 um apart and c_r = 0.5: each binary impact passes on 3/4 of the speed, so
        # the pulse decays from 1 m/s to ~0.08 m/s over the chain. Colours at +-v0 would leave
        # the far beads white; the default range is the median of the beads' peaks.
        path = os.path.join(self.tmp.name, "decay.h5")
        run(CHAINDEM, "run", os.path.join(SOURCE, "cases", "default.ini"), "-o", path, "--quiet",
            "--set", "chain.count=10", "--set", "chain.gap=5e-5", "--set", "striker.gap=5e-5",
            "--set", "contact.restitution=0.5", "--set", "wall_end.enabled=false",
            "--set", "simulation.duration=3e-3")
        decay = load_run(path)
        peaks = np.abs(decay.vx).max(axis=0)
        self.assertLess(peaks[-1], 0.2 * peaks[0])  # it does decay
        fig = plots.spacetime(decay, "velocity")
        norm = fig.axes[0].collections[0].norm
        v0 = abs(decay.vx[0, decay.striker])
        self.assertLess(norm.vmax, 0.6 * v0)  # not +-v0
        self.assertGreater(norm.vmax, peaks[-1])  # within the data's range
        self.assertAlmostEqual(norm.vmin, -norm.vmax)
        self.assertAlmostEqual(norm.vmax, np.median(peaks))
        # The last bead's pulse, under a tenth of +-v0 (nearly white there), is at more than a
        # quarter of the default scale.
        self.assertLess(peaks[-1] / v0, 0.1)
        self.assertGreater(peaks[-1] / norm.vmax, 0.25)
        self.assertTrue(fig.axes[0].get_title().startswith("default: "))  # the case, not the file
        # Forces: the striker's contact does not set the scale either.
        fig = plots.spacetime(decay, "force")
        norm = fig.axes[0].collections[0].norm
        self.assertLess(norm.vmax, decay.contact_forces()[2].max())

    def interfaces_from_species(self):
        """Where the material changes along the chain, from /particles/chain/species: the x of
        the axis between the two beads, and each stretch's material."""
        with h5py.File(self.interface_file) as f:
            chain = f["particles/chain"]
            first, count = chain.attrs["chain_first"], chain.attrs["chain_count"]
            species = chain["species"][first:first + count]
            names = [str(n) for n in chain["species"].attrs["species_names"]]
        changes = np.flatnonzero(np.diff(species)) + 1
        materials = [names[species[b]] for b in np.r_[0, changes]]
        return list(changes - 0.5), materials

    def test_spacetime_marks_the_interfaces_of_several_media(self):
        interfaces, materials = self.interfaces_from_species()
        self.assertEqual(interfaces, [19.5])  # steel*20 ptfe*20
        for quantity in ("velocity", "force"):
            ax = plots.spacetime(self.interface, quantity).axes[0]
            lines = [l for l in ax.get_lines() if l.get_gid() == "interface"]
            self.assertEqual([l.get_xdata()[0] for l in lines], interfaces, quantity)
            self.assertEqual([t.get_text() for t in ax.texts if t.get_gid() == "section"],
                             materials, quantity)
            # The data are drawn as before: the line only marks the place.
            self.assertEqual(len(ax.collections), 1)
        # A case of one contact model has none.
        ax = plots.spacetime(self.result, "velocity").axes[0]
        self.assertFalse([l for l in ax.get_lines() if l.get_gid() == "interface"])
        self.assertFalse(ax.texts)

    def test_energy_draws_each_section(self):
        fig = plots.energy(self.interface)
        lines = {l.get_label(): l for l in fig.axes[0].get_lines()}
        sections = [label for label in lines if label.startswith("section: ")]
        self.assertEqual(sections, ["section: steel, beads 0–19", "section: ptfe, beads 20–39"])
        with h5py.File(self.interface_file) as f:
            energy = f["observables/section_energy/value"][()]
        for k, label in enumerate(sections):
            np.testing.assert_array_equal(lines[label].get_ydata(), energy[:, k] * 1e3)
        # The pulse crosses the interface: the PTFE section holds energy only after the steel
        # one has.
        steel, ptfe = energy[:, 0], energy[:, 1]
        self.assertLess(ptfe[0], 1e-12 * steel.max())
        self.assertGreater(ptfe.max(), 0.1 * steel.max())
        self.assertLess(np.argmax(steel), np.argmax(ptfe))
        # The legend names them; a case of one model has no section.
        texts = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        self.assertIn("section: ptfe, beads 20–39", texts)
        labels = [l.get_label() for l in plots.energy(self.result).axes[0].get_lines()]
        self.assertFalse([label for label in labels if label.startswith("section")])
        units(self, fig)

    def test_histories(self):
        fig = plots.histories(self.result, [0, -1])
        ax = fig.axes[0]
        lines = [l for l in ax.get_lines() if not l.get_label().startswith("_")]
        self.assertEqual([l.get_label() for l in lines], ["bead 0", "bead 7"])
        np.testing.assert_allclose(lines[1].get_ydata(), self.result.vx[:, 8])
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()], ["bead 0", "bead 7"])
        self.assertIn("from 0", ax.get_legend().get_title().get_text())
        self.assertIn("[m/s]", ax.get_ylabel())
        units(self, fig)
        self.assertIn("default", ax.get_title())
        # The striker by name; bead 0 is the first bead after it, as in the run summary.
        fig = plots.histories(self.result, ["striker", 0])
        lines = {l.get_label(): l for l in fig.axes[0].get_lines()}
        np.testing.assert_array_equal(lines["striker"].get_ydata(),
                                      self.result.vx[:, self.result.striker])
        np.testing.assert_array_equal(lines["bead 0"].get_ydata(),
                                      self.result.vx[:, self.result.chain_first])
        self.assertEqual(self.result.chain_first, self.result.striker + 1)

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
        units(self, fig)
        # One contact of a run, from the ragged /contacts group, in chain-bead numbering.
        c = self.result.contacts
        f0 = self.result.chain_first
        fig = plots.force_overlap(self.result, (1, 2))
        line = fig.axes[0].get_lines()[0]
        rows = (c["first"] == f0 + 1) & (c["second"] == f0 + 2)
        np.testing.assert_array_equal(line.get_ydata(), c["normal_force"][rows])
        self.assertGreater(len(line.get_xdata()), 5)
        self.assertEqual(line.get_label(), "bead 1–bead 2")
        self.assertIn("default", fig.axes[0].get_title())
        units(self, fig)
        fig = plots.force_overlap(self.result, ("striker", 0))
        self.assertEqual(fig.axes[0].get_lines()[0].get_label(), "striker–bead 0")
        fig = plots.force_overlap(self.result, (7, "wall"))
        self.assertEqual(fig.axes[0].get_lines()[0].get_label(), "bead 7–wall")
        self.assertGreater(max(fig.axes[0].get_lines()[0].get_ydata()), 50.0)

    def test_energy(self):
        fig = plots.energy(self.result)
        lines = {l.get_label(): l for l in fig.axes[0].get_lines()}
        for label in ("kinetic", "stored (contacts)", "dissipated", "balance (constant if exact)"):
            self.assertIn(label, lines)
        np.testing.assert_allclose(lines["kinetic"].get_ydata(),
                                   self.result.energies["kinetic_energy"] * 1e3)
        balance = lines["balance (constant if exact)"].get_ydata()
        self.assertLess(np.ptp(balance) / balance[0], 5e-3)
        units(self, fig)
        self.assertIn("default", fig.axes[0].get_title())

    def test_restitution_curve_from_a_sweep(self):
        sweep = load_sweep(self.sweep_file)
        self.assertEqual(sweep.axes, ["contact.law", "contact.restitution"])
        fig = plots.restitution_curve(sweep)
        lines = curves(fig)
        hc, exact = plots.law_name("hunt_crossley"), plots.law_name("gonthier_exact")
        self.assertEqual(set(lines), {hc, exact, "$e_{out} = c_r$"})
        units(self, fig)
        self.assertIn("sweep", fig.axes[0].get_title())
        # Through the whole pipeline (sweep -> engine -> isolated contacts -> summary -> figure):
        # the exact factor returns the input restitution; Hunt-Crossley under-dissipates
        # (Hunt and Crossley 1975 against the exact identity, Gonthier et al. 2004).
        x, y = lines[exact].get_xdata(), lines[exact].get_ydata()
        np.testing.assert_allclose(y, x, atol=5e-3)
        hc = lines[hc].get_ydata()
        np.testing.assert_allclose(hc, [0.5469, 0.6197, 0.7120, 0.8329, 1.0], atol=5e-3)

    def test_restitution_curve_draws_a_line_per_value_of_other_axes(self):
        sweep = load_sweep(self.sweep_file)
        sweep.axes.append("striker.velocity")  # pretend a third axis varies
        sweep.columns["striker.velocity"] = np.resize([0.5, 1.0], len(sweep))
        fig = plots.restitution_curve(sweep)
        labels = list(curves(fig))
        self.assertIn("Hunt–Crossley, striker.velocity = 0.5", labels)
        self.assertEqual(len(labels), 5)  # 2 laws x 2 speeds + the diagonal
        fig = plots.restitution_curve(sweep, where={"striker.velocity": 1.0})
        law = sweep.columns["contact.law"]
        expected = np.sum((law == law[0]) & (sweep.columns["striker.velocity"] == 1.0))
        self.assertEqual(len(curves(fig)[plots.law_name(law[0])].get_xdata()), expected)

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
        # The legend beside the axes, not over the bars.
        legend = fig.axes[0].get_legend()
        fig.canvas.draw()
        box = legend.get_window_extent()
        self.assertGreaterEqual(box.x0, fig.axes[0].get_window_extent().x1)

    def test_command_line_png_and_pdf(self):
        t = self.tmp.name
        for args, out in ((["spacetime", self.run_file], "st.png"),
                          (["spacetime", self.run_file, "--quantity", "force"], "stf.pdf"),
                          (["history", self.run_file, "--beads", "0,3,-1"], "h.png"),
                          (["loop", self.loop_file], "loop.pdf"),
                          (["loop", self.run_file, "--pair", "1,2"], "pair.png"),
                          (["loop", self.run_file, "--pair", "striker,0"], "pair_s.png"),
                          (["loop", self.run_file, "--pair", "7,wall"], "pair_w.png"),
                          (["history", self.run_file, "--beads", "striker,0,-1"], "hs.png"),
                          (["spacetime", self.run_file, "--color-range", "log"], "log.png"),
                          (["spacetime", self.run_file, "--color-range", "bead"], "bead.png"),
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
        ax = fig.axes[0]
        heights = [p.get_height() for p in ax.patches]
        np.testing.assert_allclose(heights, np.concatenate([cmp.errors["peak_velocity"][0, [0, 3, 7]],
                                                            cmp.errors["peak_velocity"][1, [0, 3, 7]]]))
        # Words and units, the case's name, chain beads from 0 on the x axis.
        self.assertEqual(ax.get_title(), "default: peak velocity error against the reference, "
                                         "EDEM Hertz–Mindlin")
        self.assertEqual(ax.get_ylabel(), "error of the peak velocity [%]")
        self.assertEqual(ax.get_xlabel(), "chain bead (0 = first bead after the striker)")
        self.assertEqual([t.get_text() for t in ax.get_xticklabels()], ["0", "3", "7"])
        self.assertNotIn("_", ax.get_title())
        self.assertEqual([t.get_text().split(" (mean")[0] for t in ax.get_legend().get_texts()],
                         ["Hertz", "Hunt–Crossley"])
        units(self, fig)
        # Two cases, two titles: the case's name comes from the compare file.
        fig = plots.comparison(cmp, "arrival_time")
        self.assertTrue(fig.axes[0].get_title().startswith("default: pulse arrival time error"))
        dimer_cmp = os.path.join(t, "dimer_cmp.h5")
        run(CHAINDEM, "compare", os.path.join(SOURCE, "cases", "dimer_chain.ini"), "--laws",
            "hertz", "--reference", "edem_hertz_mindlin", "-o", dimer_cmp,
            "--set", "chain.count=6", "--set", "simulation.duration=3e-4")
        fig = plots.comparison(load_comparison(dimer_cmp), "peak_velocity")
        self.assertTrue(fig.axes[0].get_title().startswith("dimer_chain: "))
        # One law's run of a compare file: the case's name, the law in words.
        title = plots.spacetime(load_run(cmp_file, law="hertz")).axes[0].get_title()
        self.assertEqual(title, "default: velocity of the beads (Hertz)")
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
        r = subprocess.run([sys.executable, PLOT, "loop", self.run_file, "--pair", "0,bead",
                            "-o", os.path.join(t, "x.png")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("striker or wall", r.stderr)
        # --title replaces the title.
        path = os.path.join(t, "titled.png")
        run(sys.executable, PLOT, "energy", self.run_file, "--title", "Energy of the chain",
            "-o", path)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
