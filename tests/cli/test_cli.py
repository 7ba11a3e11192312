#!/usr/bin/python3
"""The chaindem command line and its HDF5 output, exercised as a user would.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_cli.py CHAINDEM_BINARY SOURCE_DIR
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
DEFAULT_CASE = os.path.join(SOURCE, "cases", "default.ini")
LAWS = ["hooke", "hertz", "tsuji", "edem_hertz_mindlin", "hunt_crossley",
        "lankarani_nikravesh", "flores"]


def chaindem(*args, cwd=None):
    return subprocess.run([CHAINDEM, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


class CommandLine(unittest.TestCase):
    def test_help_and_version(self):
        r = chaindem("--help")
        self.assertEqual(r.returncode, 0)
        for command in ("run", "models", "case-format"):
            self.assertIn(command, r.stdout)
        self.assertRegex(chaindem("--version").stdout, r"chaindem \d+\.\d+\.\d+")
        r = chaindem("run", "--help")
        self.assertEqual(r.returncode, 0)
        for key in ("simulation.duration", "contact.law", "chain.radii", "striker.velocity"):
            self.assertIn(key, r.stdout)
        self.assertEqual(chaindem("frobnicate").returncode, 2)

    def test_every_listed_command_has_its_help_and_is_suggested(self):
        # `chaindem --help` lists the commands; each answers its own --help, and a name missing
        # its last letter is answered with the command's name.
        listed = re.findall(r"(?m)^  chaindem ([a-z][a-z-]*)\b", chaindem("--help").stdout)
        self.assertLessEqual({"run", "sweep", "compare", "collide", "fit", "models", "case-format"},
                             set(listed))
        for command in listed:
            with self.subTest(command):
                r = chaindem(command, "--help")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertTrue(r.stdout.startswith(f"usage: chaindem {command}"), r.stdout[:80])
                r = chaindem(command[:-1])
                self.assertEqual(r.returncode, 2)
                self.assertIn(f"unknown command '{command[:-1]}'; did you mean", r.stderr)
                self.assertIn(f"'{command}'", r.stderr.splitlines()[0])

    def test_models_lists_every_law_with_parameters(self):
        r = chaindem("models")
        self.assertEqual(r.returncode, 0)
        for law in LAWS:
            self.assertRegex(r.stdout, rf"(?m)^{law}  \[")
        self.assertIn("contact.restitution", r.stdout)
        self.assertIn("(0, 1]", r.stdout)  # flores refuses c_r = 0


class InvalidInput(unittest.TestCase):
    """Bad input: exit code 2, a message naming the key, and no output file at all."""

    CASES = [
        ("unknown key", ["--set", "chain.cont=3"], "chain.cont"),
        ("negative radius", ["--set", "chain.radii=-0.005"], "chain.radii"),
        ("restitution above 1", ["--set", "contact.restitution=1.2"], "contact.restitution"),
        ("restitution zero for flores", ["--set", "contact.law=flores", "--set",
                                          "contact.restitution=0"], "contact.restitution"),
        ("missing material", ["--set", "chain.materials=copper"], "chain.materials"),
        ("zero duration", ["--set", "simulation.duration=0"], "simulation.duration"),
        ("unknown law", ["--set", "contact.law=magic"], "contact.law"),
        ("overlap as large as a radius", ["--set", "chain.overlap=0.005"], "chain.overlap"),
        ("radii underflow", ["--set", "chain.taper=1e-200"], "chain.taper"),
        ("too many steps", ["--set", "simulation.time_step=1e-300"], "simulation.time_step"),
        ("empty output file", ["--set", "output.file="], "output.file"),
        ("extra sphere inside a bead", ["--set", "extra.particles=steel 0.005 0.015 0 0 0 0 0"],
         "extra.particles"),
        ("static overlap without a supporting wall",
         ["--set", "chain.end_force=5", "--set", "chain.static_overlap=true",
          "--set", "wall_end.enabled=false"], "chain.static_overlap"),
    ]

    def test_each_invalid_input(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.h5")
            for name, args, key in self.CASES:
                with self.subTest(name):
                    r = chaindem("run", DEFAULT_CASE, "-o", out, *args)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn(key, r.stderr)
                    self.assertIn("invalid input", r.stderr)
                    self.assertEqual(os.listdir(tmp), [])

    def test_chain_at_rest_pushed_by_a_wall(self):
        """Zero initial energy: the balance is measured against the energy that enters."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.h5")
            r = chaindem("run", DEFAULT_CASE, "-o", out, "--quiet",
                         "--set", "striker.enabled=false", "--set", "wall_start.enabled=true",
                         "--set", "wall_start.material=steel", "--set", "wall_start.velocity=0.5",
                         "--set", "wall_end.enabled=false")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                self.assertGreater(f["observables/wall_work/value"][-1], 0.0)
                # The integrator's O(dt^2) error, largest in the first frames, where little
                # energy has entered yet: 7.0e-3 at 50 steps per contact, 1.8e-3 at 100.
                self.assertLess(f["summary"].attrs["energy_balance_error_max"], 1e-2)

    def test_output_interval_longer_than_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.h5")
            r = chaindem("run", DEFAULT_CASE, "-o", out, "--quiet", "--set", "output.interval=1e30")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                self.assertLessEqual(len(f["particles/chain/velocity/step"]), 3)  # start, end

    def test_case_file_with_a_byte_order_mark_runs_as_without(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(DEFAULT_CASE, "rb") as f:
                text = f.read()
            with open(os.path.join(tmp, "bom.ini"), "wb") as f:
                f.write(b"\xef\xbb\xbf" + text)
            outs = []
            for case in ("bom.ini", DEFAULT_CASE):
                out = os.path.join(tmp, os.path.basename(case) + ".h5")
                r = chaindem("run", case, "-o", out, "--quiet", "--set", "simulation.duration=1e-4",
                             cwd=tmp)
                self.assertEqual(r.returncode, 0, r.stderr)
                with h5py.File(out, "r") as f:
                    outs.append(f["particles/chain/velocity/value"][()])
            np.testing.assert_array_equal(outs[0], outs[1])

    def test_memory_estimate_bounds_the_peak(self):
        """The estimate printed (and checked against the machine before building) is an upper
        bound of the run's peak memory, and not a loose one."""
        with tempfile.TemporaryDirectory() as tmp:
            # The peak of this run alone: a process of its own waits for it (a process's
            # RUSAGE_CHILDREN is the largest of all its children).
            measure = ("import resource, subprocess, sys\n"
                       "r = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
                       "sys.stdout.write(r.stdout)\nsys.stderr.write(r.stderr)\n"
                       "print('peak', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
                       "sys.exit(r.returncode)\n")
            r = subprocess.run([sys.executable, "-c", measure, CHAINDEM, "run", DEFAULT_CASE,
                                "-o", os.path.join(tmp, "big.h5"), "--set", "chain.count=1000000",
                                "--set", "simulation.duration=4e-6"],
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            peak = int(re.search(r"^peak (\d+)$", r.stdout, re.M).group(1)) * 1024
            estimate = float(re.search(r"memory\s+([0-9.e+]+) MB", r.stdout).group(1)) * 1e6
            self.assertLessEqual(peak, estimate)
            self.assertGreaterEqual(peak, 0.5 * estimate)

    def test_run_larger_than_memory_is_refused_before_allocating(self):
        # The longest chain of the default case (4.9e7 beads: 5e7 lie beyond 1e8 radii of the
        # origin) takes ~9 GB on the chain engine, ~42 GB on the general engine.
        with open("/proc/meminfo") as f:
            available = next(int(l.split()[1]) * 1024 for l in f if l.startswith("MemAvailable"))
        if available > 40e9:
            self.skipTest("the largest chain fits in this machine's memory")
        with tempfile.TemporaryDirectory() as tmp:
            r = chaindem("run", DEFAULT_CASE, "-o", os.path.join(tmp, "big.h5"),
                         "--set", "chain.count=4.9e7", "--set", "simulation.engine=general")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertRegex(r.stderr, r"chain.count: .* need about [0-9.]+ GB .* available")
            self.assertEqual(os.listdir(tmp), [])

    def test_missing_case_file(self):
        r = chaindem("run", "/nonexistent/case.ini")
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot read case file", r.stderr)

    def test_interrupted_run_leaves_nothing(self):
        # Ctrl-C stops a run and removes its partial file; SIGTERM leaves a checkpoint
        # (test_checkpoint.py).
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.h5")
            proc = subprocess.Popen([CHAINDEM, "run", DEFAULT_CASE, "-o", out, "--quiet",
                                     "--set", "simulation.duration=10",
                                     "--set", "output.interval=1e-4"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # Interrupted while it writes: the partial file is created after the run's signal
            # handlers are in place (a signal before them would kill it).
            deadline = time.time() + 120
            while not os.path.exists(out + ".partial"):
                self.assertIsNone(proc.poll(), "the run ended before it was interrupted")
                self.assertLess(time.time(), deadline, "the run never created its partial file")
                time.sleep(0.01)
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, 128 + signal.SIGINT, err)
            self.assertIn("interrupted", err)
            self.assertEqual(os.listdir(tmp), [])


class ConcurrentWriters(unittest.TestCase):
    """Two commands on one output: the second is refused and the first is unharmed, also with
    HDF5's own file locking off, as on many cluster file systems."""

    ENV = dict(os.environ, HDF5_USE_FILE_LOCKING="FALSE")

    def start_long_run(self, out):
        proc = subprocess.Popen([CHAINDEM, "run", DEFAULT_CASE, "-o", out, "--quiet",
                                 "--set", "simulation.duration=0.01", "--set", "chain.count=2000"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=self.ENV)
        deadline = time.time() + 60
        while not os.path.exists(out + ".partial") and time.time() < deadline:
            time.sleep(0.05)
        return proc

    def test_second_run_and_sweep_are_refused_and_the_first_completes(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "same.h5")
            first = self.start_long_run(out)
            sweep = os.path.join(tmp, "s.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {DEFAULT_CASE}\n[axes]\nstriker.velocity = 1, 2\n")
            for args in (["run", DEFAULT_CASE, "-o", out], ["sweep", sweep, "-o", out]):
                r = subprocess.run([CHAINDEM, *args, "--quiet"], capture_output=True, text=True,
                                   env=self.ENV, timeout=120)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(f"'{out}' is being written by chaindem process {first.pid}",
                              r.stderr)
            _, err = first.communicate(timeout=600)
            self.assertEqual(first.returncode, 0, err)
            with h5py.File(out, "r") as f:
                self.assertEqual(f["particles/chain/position/value"].shape[1], 2001)
            self.assertEqual(sorted(os.listdir(tmp)), ["s.ini", "same.h5", "same.xdmf"])

    def test_a_killed_writer_blocks_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "same.h5")
            first = self.start_long_run(out)
            first.kill()
            first.communicate(timeout=60)
            self.assertTrue(os.path.exists(out + ".lock"))  # left by the kill, but not locked
            r = subprocess.run([CHAINDEM, "run", DEFAULT_CASE, "-o", out, "--quiet"],
                               capture_output=True, text=True, env=self.ENV, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["same.h5", "same.xdmf"])


class Collide(unittest.TestCase):
    """`chaindem collide` against docs/validation.md."""

    def collide(self, *args):
        r = chaindem("collide", *args, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        import json
        return json.loads(r.stdout)

    def test_skrinjar_two_sphere_setup(self):
        # §3.1: two 9.2 kg spheres, K = 5.2e9, 0.3 m/s; Hunt-Crossley at c_r = 0.5:
        # e_N = 0.6630 (§2.3), F_max = 4684 N, delta_max = 8.538e-5 m, t_c = 1.058 x 9.792e-4 s.
        d = self.collide("--law", "hunt_crossley", "--restitution", "0.5", "--velocity", "0.3",
                         "--mass", "9.2", "--mass2", "9.2", "--stiffness", "5.2e9")
        self.assertAlmostEqual(d["restitution"], 0.6630, delta=5e-4)
        self.assertAlmostEqual(d["peak_force"], 4684, delta=1.0)
        self.assertAlmostEqual(d["max_overlap"], 8.538e-5, delta=1e-8)
        self.assertAlmostEqual(d["contact_duration"] / 9.792e-4, 1.058, delta=1e-3)
        self.assertAlmostEqual(d["impulse"], 4.6 * 0.3 * (1 + d["restitution"]), places=9)

    def test_impact_velocity_policies(self):
        # An impact from apart: onset, peak and energy all take v0 = the approach velocity.
        base = ["--law", "hunt_crossley", "--restitution", "0.5", "--velocity", "0.3",
                "--mass", "9.2", "--mass2", "9.2", "--stiffness", "5.2e9"]
        e = {p: self.collide(*base, "--impact-velocity", p)["restitution"]
             for p in ("energy", "peak", "onset", "reference")}
        self.assertEqual(len(set(e.values())), 1, e)
        # Hunt and Crossley's constant: F = K d^n (1 + alpha v / v_ref) with alpha = 3(1 - c_r)/2,
        # so v_ref = 2 v0 at c_r = 0.5 is the damping of alpha / 2, i.e. of c_r = 0.75 at v0.
        d = self.collide(*base, "--impact-velocity", "reference", "--reference-velocity", "0.6")
        self.assertEqual(d["impact_velocity_policy"], "reference")
        base[3] = "0.75"
        self.assertAlmostEqual(d["restitution"], self.collide(*base)["restitution"], places=12)
        self.assertEqual(self.collide("--law", "hertz", "--dimensionless")["impact_velocity_policy"],
                         "none")

    def test_dimensionless_frame(self):
        # Banerjee et al.'s (2017) frame: unit mass on a rigid wall, K = 1, v0 = 1; exact factor: e = c_r,
        # impulse 1 + c_r, dissipated energy (1 - c_r^2)/2 (Newton's law, §1.6).
        d = self.collide("--law", "gonthier_exact", "--restitution", "0.5", "--dimensionless")
        self.assertAlmostEqual(d["restitution"], 0.5, places=5)
        self.assertAlmostEqual(d["impulse"], 1.5, places=5)
        self.assertAlmostEqual(d["dissipated_energy"], 0.375, places=5)
        # Elastic Hertz: x_max 1.09336, F_max 1.14326, T 3.21807 (§1.2).
        d = self.collide("--law", "hertz", "--dimensionless")
        self.assertAlmostEqual(d["max_overlap"], 1.09336, places=4)
        self.assertAlmostEqual(d["peak_force"], 1.14326, places=4)
        self.assertAlmostEqual(d["contact_duration"], 3.21807, places=4)

    def test_materials_and_wall(self):
        # Steel sphere (R = 5 mm) on a steel wall at 1 m/s: R* = R, m* = m.
        d = self.collide("--law", "hertz", "--radius", "0.005", "--youngs-modulus", "200e9",
                         "--poisson-ratio", "0.3", "--density", "7800", "--velocity", "1", "--wall")
        m = 7800 * 4 / 3 * np.pi * 0.005 ** 3
        k = 4 / 3 * 200e9 / (2 * (1 - 0.09)) * np.sqrt(0.005)
        d_max = (5 * m / (4 * k)) ** 0.4
        self.assertAlmostEqual(d["max_overlap"] / d_max, 1.0, places=6)
        self.assertAlmostEqual(d["contact_duration"] / (2.943275 * d_max), 1.0, places=5)
        self.assertAlmostEqual(d["restitution"], 1.0, places=8)

    def test_loop_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "loop.h5")
            r = chaindem("collide", "--law", "lankarani_nikravesh_plastic", "--restitution", "0.6",
                         "--dimensionless", "-o", out)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("restitution achieved", r.stdout)
            with h5py.File(out, "r") as f:
                delta, force = f["overlap"][:], f["force"][:]
                self.assertEqual(f["force"].attrs["unit"], b"kg m s-2")  # N, in the H5MD form
                self.assertEqual(f.attrs["law"], "lankarani_nikravesh_plastic")
                loop = np.sum(0.5 * (force[1:] + force[:-1]) * np.diff(delta))
                self.assertAlmostEqual(loop, f.attrs["dissipated_energy"], delta=1e-4 * loop)
                self.assertAlmostEqual(f.attrs["restitution"], 0.6, places=5)

    def test_invalid_input(self):
        for args, key in ((["--law", "magic", "--velocity", "1"], "--law"),
                          (["--law", "flores", "--restitution", "0", "--dimensionless"], "restitution"),
                          (["--law", "hertz", "--mass", "1"], "--velocity"),
                          (["--law", "hunt_crossley", "--velocity", "1", "--mass", "1", "--stiffness", "1"],
                           "restitution"),
                          (["--law", "hertz", "--velocity", "1", "--mass", "1", "--wall"], "stiffness"),
                          (["--law", "hunt_crossley", "--restitution", "0.5", "--dimensionless",
                            "--impact-velocity", "largest"], "--impact-velocity"),
                          (["--law", "hunt_crossley", "--restitution", "0.5", "--dimensionless",
                            "--reference-velocity", "2"], "--reference-velocity")):
            r = chaindem("collide", *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(key, r.stderr)


class PrecompressedChain(unittest.TestCase):
    """The shipped pre-compressed chain: its initial stored energy is energy, not dissipation."""

    def test_books(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "p.h5")
            r = chaindem("run", os.path.join(SOURCE, "cases", "precompressed_chain.ini"), "-o", path)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(path, "r") as f:
                s = f["summary"].attrs
                check_energy_line(self, r.stdout, s, f["observables"])
                obs = f["observables"]
                dissipated = obs["dissipated_energy/value"][:]
                self.assertEqual(dissipated[0], 0.0)
                self.assertTrue(np.all(dissipated >= 0.0))
                self.assertTrue(np.all(np.diff(dissipated) >= -1e-12 * dissipated[-1]))
                # The initial energy holds the stored energy of the initial overlaps.
                self.assertGreater(obs["stored_energy/value"][0], 0.0)
                self.assertAlmostEqual(s["initial_energy"], obs["kinetic_energy/value"][0]
                                       + obs["stored_energy/value"][0], delta=1e-12)
                self.assertNotEqual(s["external_potential_energy"], 0.0)


def check_energy_line(test, stdout, summary, observables):
    """The printed energy line names every term of the balance, each as the file's last frame
    has it, and they add up to the initial energy (to the integration's error)."""
    line = next(l for l in stdout.splitlines() if l.strip().startswith("energy  "))
    m = re.search(r"kinetic (\S+) \+ stored (\S+) \+ dissipated (\S+) \+ external potential "
                  r"(\S+) - wall work (\S+) = (\S+) J \(initial (\S+) J\)", line)
    test.assertIsNotNone(m, line)
    k, st, d, p, w, total, initial = (float(x) for x in m.groups())
    # Each term, from the writer's last frame (printed to 6 digits).
    for value, name in ((k, "kinetic_energy"), (st, "stored_energy"), (d, "dissipated_energy"),
                        (p, "external_potential_energy"), (w, "wall_work")):
        frame = observables[name + "/value"][-1]
        test.assertAlmostEqual(value, frame, delta=1e-5 * abs(initial), msg=name)
    test.assertAlmostEqual(k + st + d + p - w, total, delta=1e-5 * abs(total))
    test.assertAlmostEqual(total, initial, delta=2e-3 * abs(initial))  # integrator error only
    test.assertAlmostEqual(initial, summary["initial_energy"], delta=1e-5 * abs(initial))
    test.assertGreaterEqual(d, 0.0)


class Output(unittest.TestCase):
    """The default case's file, read with h5py as an external tool would."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "default.h5")
        r = chaindem("run", DEFAULT_CASE, "-o", cls.path)
        assert r.returncode == 0, r.stderr
        cls.stdout = r.stdout
        cls.f = h5py.File(cls.path, "r")

    @classmethod
    def tearDownClass(cls):
        cls.f.close()
        cls.tmp.cleanup()

    def test_summary_on_stdout(self):
        for word in ("steps", "time step", "wall time", "first bead", "last bead",
                     "energy balance"):
            self.assertIn(word, self.stdout)

    def test_frames_fall_on_the_interval_asked(self):
        """The default case asks for a frame every 2e-6 s over 1 ms: its automatic step is
        shortened to a whole fraction of that, and the file has the 501 frames asked for, each
        on its time."""
        t = self.f["particles/chain/velocity/time"][()]
        self.assertEqual(len(t), 501)
        np.testing.assert_allclose(t, 2e-6 * np.arange(501), rtol=1e-12, atol=1e-18)
        dt = self.f["summary"].attrs["time_step"]
        steps_per_frame = 2e-6 / dt
        self.assertAlmostEqual(steps_per_frame, round(steps_per_frame), delta=1e-9)
        self.assertFalse([x for x in self.stdout.splitlines() if x.startswith("  output interval")])
        self.assertIn("so that the output interval (2e-06 s) is 5 steps", self.stdout)

    def test_summary_says_when_a_given_step_misses_the_interval(self):
        """A given step of 3e-7 s does not divide 2e-6 s: frames come every 7 steps, and the
        summary says so, as the file's times show."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.h5")
            r = chaindem("run", DEFAULT_CASE, "-o", path, "--set", "simulation.time_step=3e-7",
                         "--set", "simulation.duration=1e-4")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(path, "r") as f:
                t = f["particles/chain/velocity/time"][()]
        self.assertAlmostEqual(t[1] - t[0], 2.1e-6, delta=1e-15)
        line = next(x for x in r.stdout.splitlines() if x.startswith("  output interval"))
        self.assertIn("2.1e-06 s, every 7 steps (asked 2e-06 s", line)

    def test_summary_names_its_policies_and_the_striker_rebound(self):
        s = self.f["summary"].attrs
        self.assertEqual(s["impact_velocity"], "none")  # edem_hertz_mindlin has no v0
        self.assertEqual(s["integrator"], "second_order")
        v = self.f["particles/chain/velocity/value"]
        self.assertEqual(s["striker_rebound_ratio"], -v[-1, 0, 0] / v[0, 0, 0])
        self.assertIn(f"rebound ratio {s['striker_rebound_ratio']:.6g}", self.stdout)
        self.assertNotIn("first_contact_restitution", s)

    def test_per_bead_extremes_are_those_the_frames_sample(self):
        """The summary's largest velocity and contact force of each bead, tracked at every step,
        are at least what the frames (every 5th step) show of them, and within 2 % of the
        largest: sampled at every 5th of the 64 steps of a contact, a peak is missed by
        little."""
        f = self.f
        first = int(f["particles/chain"].attrs["chain_first"])
        count = int(f["particles/chain"].attrs["chain_count"])
        particles = f["particles/chain/velocity/value"].shape[1]
        framed_velocity = f["particles/chain/velocity/value"][:, first:first + count, 0].max(0)
        # Each contact row's force, on its first body and on its second (a particle, not a wall).
        body, other = f["contacts/first"][()], f["contacts/second"][()]
        force = f["contacts/normal_force"][()]
        framed_force = np.zeros(particles)
        np.maximum.at(framed_force, body, force)
        np.maximum.at(framed_force, other[other >= 0], force[other >= 0])
        framed_force = framed_force[first:first + count]
        for name, framed in (("peak_velocity", framed_velocity),
                             ("max_contact_force", framed_force)):
            tracked = f["summary"][name][()]
            self.assertEqual(tracked.shape, (count,), name)
            self.assertGreater(framed.min(), 0.0, name)  # the pulse crossed every bead
            self.assertTrue(np.all(tracked >= framed), name)
            self.assertLess(np.max(tracked - framed), 0.02 * tracked.max(), name)

    def test_energy_line_adds_up(self):
        check_energy_line(self, self.stdout, self.f["summary"].attrs, self.f["observables"])

    def test_h5md_metadata(self):
        f = self.f
        self.assertEqual(list(f["h5md"].attrs["version"]), [1, 1])
        self.assertEqual(f["h5md/creator"].attrs["name"], b"chaindem")
        self.assertIn("name", f["h5md/author"].attrs)
        box = f["particles/chain/box"]
        # A chain on the x axis: x alone, the box's dimension 1, and so every vector's last axis.
        self.assertEqual(int(box.attrs["dimension"]), 1)
        self.assertEqual(list(box.attrs["boundary"]), [b"none"])
        for name in ("position", "velocity", "force"):
            self.assertEqual(f[f"particles/chain/{name}/value"].shape[2], 1, name)
        # H5MD 1.1 requires fixed-length strings for these.
        for group, name in (("h5md/creator", "name"), ("h5md/creator", "version"),
                            ("h5md/author", "name"), ("particles/chain/box", "boundary")):
            self.assertFalse(f[group].attrs.get_id(name).get_type().is_variable_str(), name)
        self.assertEqual(f.attrs["chaindem_status"], "complete")

    def test_particle_time_series(self):
        f = self.f
        n = 21  # striker + 20 beads
        for name, unit in (("position", b"m"), ("velocity", b"m s-1"), ("force", b"kg m s-2")):
            g = f["particles/chain"][name]
            value, step, t = g["value"], g["step"][:], g["time"][:]
            self.assertEqual(value.shape[1:], (n, 1))  # x alone: a chain on the x axis
            self.assertEqual(value.shape[0], len(step))
            self.assertEqual(len(t), len(step))
            self.assertEqual(value.attrs["unit"], unit)
            self.assertTrue(np.all(np.diff(t) > 0))
            self.assertIsNotNone(value.compression)  # chunked and compressed
        dt = f["parameters/derived"].attrs["time_step"]
        every = int(f["parameters/derived"].attrs["output_every_steps"])
        steps = f["particles/chain/velocity/step"][:]
        self.assertTrue(np.all(np.diff(steps)[:-1] == every))
        np.testing.assert_allclose(f["particles/chain/velocity/time"][:], steps * dt, rtol=1e-12)
        # The striker starts at 1 m/s, everything else at rest.
        v0 = f["particles/chain/velocity/value"][0, :, 0]
        self.assertEqual(v0[0], 1.0)
        self.assertTrue(np.all(v0[1:] == 0.0))
        self.assertEqual(f["particles/chain/radius"].shape, (n,))
        self.assertEqual(list(f["particles/chain/species"].attrs["species_names"]), ["steel"])

    def test_time_series_share_one_step_and_time(self):
        f = self.f
        clock = f["particles/chain/position"]
        others = ["particles/chain/velocity", "particles/chain/force", "observables/momentum",
                  "observables/kinetic_energy", "observables/energy_balance", "walls/position",
                  "walls/force", "contacts"]
        for group in others:
            for name in ("step", "time"):
                # Hard links: the very same HDF5 object, not a copy.
                self.assertEqual(f[group][name].id, clock[name].id, f"{group}/{name}")
        self.assertEqual(len(clock["time"]), len(f["observables/kinetic_energy/value"]))
        self.assertEqual(clock["time"].attrs["unit"], b"s")

    def test_energy_and_momentum(self):
        obs = self.f["observables"]
        kinetic = obs["kinetic_energy/value"][:]
        balance = obs["energy_balance/value"][:]
        m = self.f["particles/chain/mass"][0]
        self.assertAlmostEqual(kinetic[0], 0.5 * m * 1.0, places=12)
        # A wall takes momentum, so only the balance is conserved: to integrator accuracy.
        self.assertLess(np.max(np.abs(balance - balance[0])) / balance[0], 2e-3)
        self.assertGreater(obs["dissipated_energy/value"][-1], 0.0)
        self.assertEqual(obs["momentum/value"].shape, (len(kinetic), 3))

    def test_contacts_ragged_layout(self):
        c = self.f["contacts"]
        offset = c["offset"][:]
        self.assertEqual(len(offset), len(c["step"]) + 1)
        self.assertEqual(offset[-1], len(c["first"]))
        self.assertTrue(np.all(np.diff(offset) >= 0))
        overlap, force = c["overlap"][:], c["normal_force"][:]
        self.assertTrue(np.all(overlap > 0))
        self.assertTrue(np.all(force >= 0))  # tension clamped in the default case
        self.assertGreater(force.max(), 10.0)
        # The wall contact shows up with second = -1 (wall 0) once the pulse arrives.
        self.assertIn(-1, set(c["second"][:]))

    def test_postprocess_reader_contact_forces_sum_to_bead_forces(self):
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import load_run
        run = load_run(self.path)
        chain = run.chain_force()  # frames x 20: striker-bead0, bead0-bead1, ...
        self.assertEqual(chain.shape, (len(run.time), 20))
        self.assertGreater(chain.max(), 100.0)
        # Newton's third law through the gather: the x force on an interior body is the push
        # from the left minus the push from the right.
        fx = run.force[:, :, 0]
        np.testing.assert_allclose(fx[:, 1:20], chain[:, :19] - chain[:, 1:20],
                                   atol=1e-9 * chain.max())

    def test_parameters_reproduce_the_run(self):
        params = self.f["parameters"]
        self.assertEqual(params.attrs["contact.law"], "edem_hertz_mindlin")
        with open(DEFAULT_CASE) as case:
            self.assertEqual(params["case_file"][()].decode(), case.read())
        self.assertEqual(self.f["parameters/law"].attrs["id"], "edem_hertz_mindlin")

    def test_resolved_parameters_alone_reproduce_a_run_bitwise(self):
        with tempfile.TemporaryDirectory() as tmp:
            first = os.path.join(tmp, "a.h5")
            r = chaindem("run", DEFAULT_CASE, "-o", first, "--quiet",
                         "--set", "chain.count=7", "--set", "contact.restitution=0.6")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(first, "r") as f:
                keys = {k: v for k, v in f["parameters"].attrs.items() if "." in k}
                expected = f["particles/chain/velocity/value"][:]
            # Write an INI from the stored parameters only.
            sections = {}
            for key, value in keys.items():
                section, name = key.rsplit(".", 1)
                sections.setdefault(section, []).append(f"{name} = {value}")
            ini = os.path.join(tmp, "from_file.ini")
            with open(ini, "w") as out:
                for section, lines in sections.items():
                    out.write(f"[{section}]\n" + "\n".join(lines) + "\n")
            second = os.path.join(tmp, "b.h5")
            r = chaindem("run", ini, "-o", second, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(second, "r") as f:
                np.testing.assert_array_equal(f["particles/chain/velocity/value"][:], expected)

    def test_every_case_in_cases_runs(self):
        cases_dir = os.path.join(SOURCE, "cases")
        with tempfile.TemporaryDirectory() as tmp:
            names = [n for n in sorted(os.listdir(cases_dir)) if n.endswith(".ini")]
            names += [os.path.join("edem_study", n)
                      for n in sorted(os.listdir(os.path.join(cases_dir, "edem_study")))]
            for name in names:
                with self.subTest(name):
                    out = os.path.join(tmp, name.replace("/", "_") + ".h5")
                    r = chaindem("run", os.path.join(cases_dir, name), "-o", out, "--quiet")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    with h5py.File(out, "r") as f:
                        s = f["summary"].attrs
                        self.assertLess(s["energy_balance_error_max"], 5e-3)
            # The example sweeps, through `chaindem sweep`.
            for name in sorted(os.listdir(os.path.join(cases_dir, "sweeps"))):
                with self.subTest(name):
                    out = os.path.join(tmp, name + ".h5")
                    r = chaindem("sweep", os.path.join(cases_dir, "sweeps", name), "-o", out,
                                 "--quiet")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    with h5py.File(out, "r") as f:
                        self.assertTrue(all(s == "ok" for s in f["summary/status"].asstr()[()]))
                        self.assertLess(np.max(f["summary/energy_balance_error_max"][()]), 5e-3)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
