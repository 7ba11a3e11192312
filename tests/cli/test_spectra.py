#!/usr/bin/python3
"""The walls' force series and the spectra of postprocess/chaindem_post/spectra.py, against what
must be true: a wall holding a pre-compressed chain at rest pushes with the end force; the
impulse of a wall on a bouncing bead is the bead's change of momentum; the spectrum of a sum of
sinusoids shows their amplitudes and frequencies, and obeys Parseval's theorem; the response at
a drive frequency of a synthetic sweep is the amplitude put in; two beads pressed against a wall
ring at the normal-mode frequencies of the linearised Hertz contacts. And the figures of
`chaindem-plot spectrum` and `transmission`.

Run by ctest with Debian's /usr/bin/python3:  test_spectra.py CHAINDEM SOURCE_DIR
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
from chaindem_post import load_run, plots, spectra  # noqa: E402

PLOT = os.path.join(SOURCE, "postprocess", "chaindem-plot")
E, NU, RHO, R = 200e9, 0.3, 7800.0, 0.005  # steel beads of 5 mm
STEEL = (f"[material.steel]\nyoungs_modulus = {E}\npoisson_ratio = {NU}\ndensity = {RHO}\n")


def run(*args):
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r


def chaindem_run(folder, name, text, *sets):
    """Runs case `text` as NAME.ini into NAME.h5; returns its Run."""
    case, out = os.path.join(folder, name + ".ini"), os.path.join(folder, name + ".h5")
    with open(case, "w") as f:
        f.write(text)
    args = [CHAINDEM, "run", case, "-o", out, "--quiet", "--force"]
    for kv in sets:
        args += ["--set", kv]
    run(*args)
    return load_run(out)


def pressed_chain(count, walls, extra=""):
    """`count` steel beads pressed by a 10 N end load against `walls`, at the static overlap."""
    text = (f"[simulation]\nduration = 2e-4\n[contact]\nlaw = hertz\n{STEEL}"
            f"[chain]\ncount = {count}\nmaterials = steel\nradii = {R}\nend_force = 10\n"
            f"static_overlap = true\n{extra}\n")
    for wall in walls:
        text += f"[{wall}]\nenabled = true\nmaterial = steel\n"
    return text + "[output]\ninterval = 1e-5\ncontacts = false\n"


class WallForce(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_a_pressed_chain_at_rest_is_held_by_the_end_force(self):
        """The load pushes the last bead towards wall_start (+x on the chain from the wall), or
        with wall_end alone the first bead towards wall_end (-x): the wall balances it."""
        for wall, sign in (("wall_start", 1.0), ("wall_end", -1.0)):
            for engine in ("chain", "general"):
                with self.subTest(wall=wall, engine=engine):
                    r = chaindem_run(self.tmp.name, f"{wall}_{engine}",
                                     pressed_chain(5, [wall]), f"simulation.engine={engine}")
                    force = r.wall_series(wall)
                    self.assertEqual(force.shape, (len(r.energy_time), 3))
                    np.testing.assert_allclose(force[:, 0], sign * 10.0, rtol=1e-9)
                    np.testing.assert_array_equal(force[:, 1:], 0.0)

    def test_the_impulse_of_a_wall_is_the_change_of_momentum(self):
        """A bead at 1 m/s rebounds from wall_end (a damped law): the trapezoid sum of the wall's
        force over every step, the velocity-Verlet step's own quadrature, is m (v_out - v_in)."""
        case = (f"[simulation]\nduration = 1e-4\n[contact]\nlaw = hunt_crossley\n"
                f"restitution = 0.5\n{STEEL}[chain]\ncount = 2\nmaterials = steel\n"
                f"radii = {R}\ngap = 1e-3\nvelocity = 0, 1\n"
                "[wall_end]\nenabled = true\nmaterial = steel\ngap = 2e-5\n"
                "[output]\nevery = 1\ncontacts = false\n")
        for engine in ("chain", "general"):
            with self.subTest(engine=engine):
                r = chaindem_run(self.tmp.name, f"bounce_{engine}", case,
                                 f"simulation.engine={engine}")
                force = r.wall_series("end")[:, 0]
                v = r.vx[:, r.row(r.particle(1))]
                self.assertLess(v[-1], -0.3)  # it came back, slower
                self.assertLess(force.min(), -100.0)  # the wall pushed it back, along -x
                change = r.mass[r.row(r.particle(1))] * (v[-1] - v[0])
                impulse = np.sum(0.5 * (force[1:] + force[:-1]) * np.diff(r.energy_time))
                self.assertAlmostEqual(impulse / change, 1.0, delta=1e-12)


def sinusoids(n=4000, dt=1e-5):
    """A sum of sinusoids on frequencies of bins of an n-frame window, and an offset."""
    t = np.arange(n) * dt
    df = 1.0 / (n * dt)
    parts = [(1.5, 40 * df, 0.3), (0.25, 125 * df, -1.1), (0.04, 700 * df, 2.0)]
    x = 0.7 + sum(a * np.cos(2 * np.pi * f * t + p) for a, f, p in parts)
    return t, x, parts, df


class Spectra(unittest.TestCase):
    def test_sinusoids_show_their_amplitudes_and_frequencies(self):
        t, x, parts, df = sinusoids()
        for window in ("none", "hann"):
            f, a = spectra.amplitude_spectrum(t, x, window)
            self.assertAlmostEqual(f[1], df, delta=1e-9 * df)
            for amplitude, frequency, _ in parts:
                k = int(round(frequency / df))
                self.assertAlmostEqual(a[k], amplitude, delta=1e-9, msg=window)
            # Nothing else: the offset is removed, no other bin holds anything but rounding
            # (the Hann window spreads each line over its two neighbours, at half its height).
            lines = {int(round(fr / df)) for _, fr, _ in parts}
            if window == "hann":
                lines |= {k + d for k in lines for d in (-1, 1)}
            others = np.delete(a, sorted(lines))
            self.assertLess(others.max(), 1e-9, window)
            if window == "hann":
                k = int(round(parts[0][1] / df))
                self.assertAlmostEqual(a[k + 1], parts[0][0] / 2, delta=1e-9)

    def test_a_sinusoid_between_bins_loses_at_most_the_window_scalloping(self):
        """Half a bin from a bin, the amplitude falls to 2/pi (no window) or 8/(3 pi) (Hann), and
        the largest bin is one of the two on either side (Harris 1978)."""
        n, dt = 4000, 1e-5
        t = np.arange(n) * dt
        df = 1.0 / (n * dt)
        x = 2.0 * np.sin(2 * np.pi * 100.5 * df * t)
        for window, loss in (("none", 2 / np.pi), ("hann", 8 / (3 * np.pi))):
            f, a = spectra.amplitude_spectrum(t, x, window)
            k = int(np.argmax(a))
            self.assertIn(k, (100, 101))
            self.assertAlmostEqual(a[k] / 2.0, loss, delta=2e-3, msg=window)

    def test_parseval(self):
        """Without a window, the mean square of the series less its mean is the sum of the
        one-sided spectrum's squares: A_0^2 + sum A_k^2 / 2 + A_{N/2}^2 (N even)."""
        rng = np.random.default_rng(7)
        for n in (1000, 1001):
            t = np.arange(n) * 2e-6
            x = rng.normal(3.0, 1.0, n) + np.sin(2 * np.pi * 1234.5 * t)
            f, a = spectra.amplitude_spectrum(t, x, "none")
            power = a[0] ** 2 + np.sum(a[1:] ** 2) / 2
            if n % 2 == 0:
                power += a[-1] ** 2 / 2
            self.assertAlmostEqual(power / np.mean((x - x.mean()) ** 2), 1.0, delta=1e-12)

    def test_the_time_window_chooses_the_frames(self):
        t, x, parts, df = sinusoids()
        late = np.where(t < 0.024, 5.0 * np.sin(2 * np.pi * 3e3 * t), x)  # a transient first
        f, a = spectra.amplitude_spectrum(t, late, "hann", 0.024)
        self.assertAlmostEqual(f[1], 1 / (1600 * 1e-5), delta=1e-9)  # frames 2400 to 3999
        for amplitude, frequency, _ in parts:  # every line on a bin of the 1600 frames
            self.assertAlmostEqual(a[int(round(frequency / f[1]))], amplitude, delta=1e-9)

    def test_the_response_at_a_frequency_needs_no_whole_periods(self):
        t = np.linspace(0.0, 3.3e-3, 700)  # 7.26 periods of 2.2 kHz
        x = 0.1 + 0.8 * np.cos(2 * np.pi * 2200.0 * t - 0.9)
        amplitude, phase = spectra.response_at(t, x, 2200.0)
        self.assertAlmostEqual(amplitude, 0.8, delta=1e-12)
        self.assertAlmostEqual(phase, 0.9, delta=1e-10)
        amplitude, _ = spectra.response_at(t, x, 2200.0, 1.1e-3, 2.9e-3)
        self.assertAlmostEqual(amplitude, 0.8, delta=1e-12)

    def test_bad_series_are_refused(self):
        t = np.arange(100) * 1e-5
        x = np.sin(2 * np.pi * 5e3 * t)
        uneven = t.copy()
        uneven[-1] -= 0.5e-5
        with self.assertRaisesRegex(ValueError, r"not evenly spaced: frame 99 .* \(--to 0.00098\)"):
            spectra.amplitude_spectrum(uneven, x)
        for t0, t1, message in ((2e-3, None, "outside the run"), (None, -1.0, "outside the run"),
                                (5e-4, 4e-4, "is empty"), (1e-4, 1.2e-4, "holds 3 frames")):
            with self.assertRaisesRegex(ValueError, message):
                spectra.amplitude_spectrum(t, x, "hann", t0, t1)
        with self.assertRaisesRegex(ValueError, "window 'hamming'"):
            spectra.amplitude_spectrum(t, x, "hamming")
        with self.assertRaisesRegex(ValueError, "less than one period"):
            spectra.response_at(t, x, 500.0)
        with self.assertRaisesRegex(ValueError, "Nyquist frequency is 50000 Hz"):
            spectra.response_at(t, x, 6e4)


def modes(force=10.0):
    """The normal modes of two steel beads pressed by `force` against a steel wall, the load
    on the second: frequencies [Hz] (increasing) and mode shapes (columns), from the Hertz
    contacts F = A delta^(3/2) linearised at F0, K = dF/d delta = (3/2) A^(2/3) F0^(1/3), with
    A = (4/3) E* sqrt(R*), E* = E / (2 (1 - nu^2)) (steel on steel), R* = R/2 between the beads
    and R against the wall."""
    e_star = E / (2 * (1 - NU ** 2))
    stiffness = [1.5 * ((4 / 3) * e_star * np.sqrt(r)) ** (2 / 3) * force ** (1 / 3)
                 for r in (R, R / 2)]
    k_wall, k_beads = stiffness
    m = RHO * 4 / 3 * np.pi * R ** 3
    omega2, shapes = np.linalg.eigh(np.array([[k_wall + k_beads, -k_beads],
                                              [-k_beads, k_beads]]) / m)
    return np.sqrt(omega2) / (2 * np.pi), shapes, k_wall


RINGING = (f"[simulation]\nduration = 0.04\ntime_step = 1e-7\n[contact]\nlaw = hertz\n{STEEL}"
           f"[chain]\ncount = 2\nmaterials = steel\nradii = {R}\nend_force = 10\n"
           "static_overlap = true\nvelocity = 0, 1e-4\n"
           "[wall_start]\nenabled = true\nmaterial = steel\n"
           "[output]\ninterval = 2e-6\ncontacts = false\n")


class RingingChain(unittest.TestCase):
    """Two beads pressed against wall_start by 10 N, the second started at 0.1 mm/s: a small
    motion about the static state, the sum of the two normal modes."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.ringing = chaindem_run(cls.tmp.name, "ringing", RINGING)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def tearDown(self):
        plots.plt.close("all")

    def peaks(self, **series):
        s = spectra.spectrum(self.ringing, **series)
        split = np.sqrt(np.prod(modes()[0]))  # between the two modes
        return s, [s.peak(0.0, split), s.peak(split, 0.5 / s.sample_interval)]

    def test_the_spectrum_peaks_at_the_normal_modes(self):
        expected, shapes, k_wall = modes()
        velocity = {}
        for bead in (0, 1):
            s, found = self.peaks(bead=bead)
            self.assertLess(s.frequency[1] / expected[0], 0.005)  # resolution: 25 Hz
            for (f, _), f_mode in zip(found, expected):
                self.assertAlmostEqual(f / f_mode, 1.0, delta=0.01, msg=f"bead {bead}")
            velocity[bead] = [a for _, a in found]
        # Each mode moves the beads as its shape says: their amplitudes (same bin, same window)
        # are in the ratio of the shape's components.
        for j in (0, 1):
            self.assertAlmostEqual(velocity[0][j] / velocity[1][j],
                                   abs(shapes[0, j] / shapes[1, j]), delta=0.02 * abs(
                                       shapes[0, j] / shapes[1, j]))
        # The wall's force follows the first bead's displacement: K_wall v / omega per mode.
        _, found = self.peaks(wall="start")
        for j, (f, amplitude) in enumerate(found):
            self.assertAlmostEqual(f / expected[j], 1.0, delta=0.01)
            self.assertAlmostEqual(amplitude / (k_wall * velocity[0][j] / (2 * np.pi * f)), 1.0,
                                   delta=0.02)

    def test_the_figure_draws_the_spectrum(self):
        fig = plots.spectrum(self.ringing, bead=1, max_frequency=2e4)
        ax = fig.axes[0]
        s = spectra.spectrum(self.ringing, bead=1)
        line = ax.get_lines()[0]
        shown = s.frequency <= 2e4
        np.testing.assert_allclose(line.get_xdata(), s.frequency[shown] * 1e-3)
        np.testing.assert_allclose(line.get_ydata(), s.amplitude[shown])
        self.assertEqual(ax.get_xlabel(), "frequency [kHz]")
        self.assertEqual(ax.get_ylabel(), "amplitude of the velocity $v_x$ of bead 1 [m/s]")
        self.assertEqual(ax.get_title(), "ringing: spectrum of the velocity $v_x$ of bead 1")
        marker = ax.get_lines()[1]
        self.assertAlmostEqual(marker.get_xdata()[0] / (modes()[0][0] * 1e-3), 1.0, delta=0.01)
        fig = plots.spectrum(self.ringing, wall="start", log=True)
        self.assertEqual(fig.axes[0].get_yscale(), "log")
        self.assertEqual(fig.axes[0].get_ylabel(),
                         "amplitude of the force $F_x$ of wall_start on the chain [N]")

    def test_command_line(self):
        for args, out in ((["--bead", "1"], "s.png"), (["--bead", "-1", "--window", "none"], "s.pdf"),
                          (["--wall", "start", "--log", "--from", "0.01", "--to", "0.03"], "w.png"),
                          (["--wall", "wall_start", "--max-frequency", "3e4"], "w2.png")):
            path = os.path.join(self.tmp.name, out)
            run(sys.executable, PLOT, "spectrum", os.path.join(self.tmp.name, "ringing.h5"),
                *args, "-o", path)
            with open(path, "rb") as f:
                head = f.read(8)
            self.assertTrue(head.startswith(b"\x89PNG" if out.endswith(".png") else b"%PDF"))
            self.assertGreater(os.path.getsize(path), 10000)


def synthetic_sweep(folder, keep):
    """A sweep over material.steel.density (7000, 7800 and 8600, read as drive frequencies in
    Hz) whose wall_start forces are then replaced by 0.3 + A cos(2 pi f t - 1) with A = f / 1000
    N: the transmission must find A at each case's f."""
    base = os.path.join(folder, "base.ini")
    with open(base, "w") as f:
        f.write(pressed_chain(2, ["wall_start"]).replace("duration = 2e-4", "duration = 1e-3"))
    sweep = os.path.join(folder, f"{keep}.ini")
    with open(sweep, "w") as f:
        f.write(f"[sweep]\nbase = {base}\nkeep = {keep}\n"
                "[axes]\nmaterial.steel.density = 7000, 7800, 8600\n")
    out = os.path.join(folder, f"{keep}.h5")
    run(CHAINDEM, "sweep", sweep, "-o", out, "--quiet")
    with h5py.File(out, "r+") as f:
        for case, frequency in enumerate((7000.0, 7800.0, 8600.0)):
            if keep == "stacked":
                force, t = f["stacked/walls/force/value"], f["stacked/walls/force/time"][case]
                force[case, :, 0, 0] = 0.3 + frequency / 1000 * np.cos(2 * np.pi * frequency * t - 1)
            else:
                g = f[f"cases/case-{case:06d}/walls/force"]
                g["value"][:, 0, 0] = 0.3 + frequency / 1000 * np.cos(
                    2 * np.pi * frequency * g["time"][()] - 1)
    return out


class Transmission(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = {keep: synthetic_sweep(cls.tmp.name, keep) for keep in ("cases", "stacked")}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def tearDown(self):
        plots.plt.close("all")

    def test_the_response_at_each_drive_frequency(self):
        for keep, path in self.files.items():
            with self.subTest(keep=keep):
                t = spectra.transmission(path, "material.steel.density", wall="start", t0=1e-4)
                np.testing.assert_array_equal(t.frequency, [7000.0, 7800.0, 8600.0])
                np.testing.assert_allclose(t.amplitude, t.frequency / 1000, rtol=1e-9)
                np.testing.assert_allclose(t.phase, 1.0, atol=1e-9)
                self.assertEqual(list(t.cases), [0, 1, 2])
                self.assertEqual(t.unit, "N")
                # Divided by the drive amplitude: a number, or a case key (here the axis).
                per = spectra.transmission(path, "material.steel.density", wall="start", drive=2.0)
                np.testing.assert_allclose(per.amplitude, t.frequency / 2000, rtol=1e-9)
                per = spectra.transmission(path, "material.steel.density", wall="start",
                                           drive="material.steel.density")
                np.testing.assert_allclose(per.amplitude, 1e-3, rtol=1e-9)

    def test_bad_requests_are_refused(self):
        path = self.files["cases"]
        with self.assertRaisesRegex(ValueError, "'wall_start.frequency' is not an axis of the "
                                                "sweep; its axes are material.steel.density"):
            spectra.transmission(path, "wall_start.frequency", wall="end")
        with self.assertRaisesRegex(ValueError, "no wall 'end'; the run's walls are wall_start"):
            spectra.transmission(path, "material.steel.density", wall="end")
        with self.assertRaisesRegex(ValueError, "no key 'wall_start.amplitude'"):
            spectra.transmission(path, "material.steel.density", wall="start",
                                 drive="wall_start.amplitude")

    def test_the_figure_and_the_command_line(self):
        fig = plots.transmission(self.files["stacked"], "material.steel.density", wall="start")
        ax = fig.axes[0]
        line = ax.get_lines()[0]
        np.testing.assert_allclose(line.get_xdata(), [7.0, 7.8, 8.6])
        np.testing.assert_allclose(line.get_ydata(), [7.0, 7.8, 8.6], rtol=1e-9)
        self.assertEqual(ax.get_xlabel(), "drive frequency, material.steel.density [kHz]")
        self.assertRegex(ax.get_ylabel(), re.escape("of wall_start on the chain [N]"))
        self.assertEqual(ax.get_title(), "stacked: transmission to the force $F_x$ of wall_start "
                                         "on the chain")
        fig = plots.transmission(self.files["cases"], "material.steel.density", wall="start",
                                 drive="material.steel.density")
        self.assertEqual(fig.axes[0].get_ylabel(),
                         "amplitude / material.steel.density [N per unit of drive]")
        np.testing.assert_allclose(fig.axes[0].get_lines()[0].get_ydata(), 1e-3, rtol=1e-9)
        for keep, out in (("cases", "t.png"), ("stacked", "t.pdf")):
            path = os.path.join(self.tmp.name, out)
            run(sys.executable, PLOT, "transmission", self.files[keep], "--axis",
                "material.steel.density", "--wall", "start", "--from", "1e-4", "--log", "-o",
                path)
            self.assertGreater(os.path.getsize(path), 10000)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
