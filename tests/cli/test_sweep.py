#!/usr/bin/python3
"""`chaindem sweep`: equal to single runs, deterministic across threads and MPI ranks, resumable.

Run by ctest with Debian's /usr/bin/python3:  test_sweep.py CHAINDEM SOURCE_DIR [MPIRUN]
"""
import concurrent.futures
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
MPIRUN = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
BASE = os.path.join(SOURCE, "cases", "default.ini")
# Columns that measure the machine, not the physics.
TIMING = {"wall_time", "ns_per_bead_step"}


def laws_with_only_restitution():
    """Every hysteresis and viscous law whose only required parameter is the restitution.

    Except jankowski_skrinjar, Skrinjar et al. (2018), Table 1's Jankowski row as printed: dimensionally inconsistent,
    kept only to document that the row cannot be reproduced. Its damping K delta^(1/2)/v0 is so
    stiff that a stable explicit step is ~1e-11 s (a 0.3 ms chain takes minutes).
    """
    out = subprocess.run([CHAINDEM, "models", "--list"], capture_output=True, text=True,
                         check=True).stdout
    laws = {}
    for line in out.splitlines():
        law, family, required = line.split("\t")
        if family in ("hysteresis", "viscous") and required == "restitution" \
                and law != "jankowski_skrinjar":
            laws[law] = family
    return laws


def write_sweep(folder, laws, restitution, velocities, extra="", duration="3e-4"):
    path = os.path.join(folder, "sweep.ini")
    with open(path, "w") as f:
        f.write(f"[sweep]\nbase = {BASE}\n[set]\nchain.count = 10\nsimulation.duration = {duration}\n"
                f"output.interval = 5e-5\noutput.contacts = false\n{extra}"
                f"[axes]\ncontact.law = {', '.join(laws)}\ncontact.restitution = {restitution}\n"
                f"striker.velocity = {velocities}\n")
    return path


def run_sweep(sweep, out, *extra, mpirun=None):
    cmd = [CHAINDEM, "sweep", sweep, "-o", out, "--quiet", *extra]
    if mpirun:
        cmd = mpirun + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    return r


def summary(path):
    with h5py.File(path, "r") as f:
        s = f["summary"]
        return {name: s[name][()] for name in s if name not in TIMING}


def assert_same_summary(test, a, b):
    test.assertEqual(sorted(a), sorted(b))
    for name in a:
        x, y = a[name], b[name]
        if x.dtype.kind in "fc":
            test.assertTrue(np.array_equal(x, y, equal_nan=True), name)  # bitwise, NaN in place
        else:
            test.assertTrue(np.array_equal(x, y), name)


class Sweep(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.family = laws_with_only_restitution()
        cls.laws = list(cls.family)
        cls.sweep = write_sweep(cls.tmp.name, cls.laws, "0.1:1.0:0.1", "0.5, 1, 2")
        cls.out1 = os.path.join(cls.tmp.name, "one.h5")
        start = time.time()
        r = run_sweep(cls.sweep, cls.out1, "--threads", "1")
        cls.seconds_one_thread = time.time() - start
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_cases_and_layout(self):
        n = len(self.laws) * 10 * 3
        self.assertGreaterEqual(len(self.laws), 25)
        with h5py.File(self.out1, "r") as f:
            self.assertEqual(f.attrs["chaindem_status"], "complete")
            self.assertEqual(len(f["cases"]), n)
            self.assertEqual(f["summary/case"].shape, (n,))
            self.assertEqual(list(f["summary/status"].asstr()[()]), ["ok"] * n)
            # The first axis varies slowest.
            laws = f["summary/contact.law"].asstr()[()]
            self.assertEqual(list(laws[:30]), [self.laws[0]] * 30)
            np.testing.assert_allclose(f["summary/contact.restitution"][:3], [0.1, 0.1, 0.1])
            np.testing.assert_allclose(f["summary/striker.velocity"][:3], [0.5, 1, 2])
            case = f["cases/case-000000"]
            for item in ("particles/chain/velocity/value", "observables/kinetic_energy/value",
                         "parameters", "summary"):
                self.assertIn(item, case)
            self.assertEqual(case["parameters"].attrs["contact.law"], self.laws[0])
            self.assertEqual(f["summary/max_contact_force"].shape, (n, 10))
            # What each row depends on, in words: the v0 policy (none for laws without v0).
            # (The hysteresis family is the one that divides by v0.)
            policies = f["summary/impact_velocity"].asstr()[()]
            for law, policy in zip(laws, policies):
                self.assertEqual(policy, "energy" if self.family[law] == "hysteresis" else "none",
                                 law)
            self.assertEqual(set(f["summary/integrator"].asstr()[()]), {"second_order"})
        self.assertFalse(os.path.exists(self.out1 + ".partial"))

    def test_each_case_equals_a_single_run(self):
        with h5py.File(self.out1, "r") as f:
            laws = f["summary/contact.law"].asstr()[()]
            rest = f["summary/contact.restitution"][()]
            vel = f["summary/striker.velocity"][()]
            table = summary(self.out1)

        def single(k):
            out = os.path.join(self.tmp.name, f"single-{k}.h5")
            r = subprocess.run(
                [CHAINDEM, "run", BASE, "-o", out, "--quiet", "--set", "chain.count=10",
                 "--set", "simulation.duration=3e-4", "--set", "output.interval=5e-5",
                 "--set", "output.contacts=false", "--set", f"contact.law={laws[k]}",
                 "--set", f"contact.restitution={rest[k]:.12g}",
                 "--set", f"striker.velocity={vel[k]:.12g}",
                 # A run of its own estimates its error (simulation.error_estimate = auto), a
                 # sweep's case does not.
                 "--set", "simulation.error_estimate=off"],
                capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as g:
                s = g["summary"]
                values = {name: s.attrs[name] for name in s.attrs}
                values["max_contact_force"] = s["max_contact_force"][()]
                values["arrival_time"] = s["arrival_time"][()]
                velocity = g["particles/chain/velocity/value"][()]
            os.remove(out)
            return k, values, velocity

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            for k, values, velocity in pool.map(single, range(len(laws))):
                for name, value in values.items():
                    if name in TIMING:
                        continue
                    if isinstance(value, str):  # the policy and integrator, as words
                        text = table[name][k]
                        text = text.decode() if isinstance(text, bytes) else str(text)
                        self.assertEqual(text, value, f"case {k} {name}")
                        continue
                    self.assertTrue(np.array_equal(table[name][k], value, equal_nan=True),
                                    f"case {k} {name}: {table[name][k]} != {value}")
                with h5py.File(self.out1, "r") as f:
                    self.assertTrue(np.array_equal(
                        f[f"cases/case-{k:06d}/particles/chain/velocity/value"][()], velocity))

    def test_case_group_has_the_layout_of_a_run(self):
        """Every object and attribute of a run's file, but /h5md: the sweep file has it once."""
        def layout(group):
            items = {"/": set(group.attrs)}
            group.visititems(lambda name, obj: items.__setitem__(name, set(obj.attrs)))
            return items

        out = os.path.join(self.tmp.name, "layout-single.h5")
        with h5py.File(self.out1, "r") as f:
            law = f["summary/contact.law"].asstr()[0]
            case = layout(f["cases/case-000000"])
            self.assertEqual(list(f["h5md"].attrs["version"]), [1, 1])
        r = subprocess.run(
            [CHAINDEM, "run", BASE, "-o", out, "--quiet", "--set", "chain.count=10",
             "--set", "simulation.duration=3e-4", "--set", "output.interval=5e-5",
             "--set", "output.contacts=false", "--set", f"contact.law={law}",
             "--set", "contact.restitution=0.1", "--set", "striker.velocity=0.5",
             "--set", "simulation.error_estimate=off"],
            capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r") as g:
            run = layout(g)
        os.remove(out)
        run = {name: attrs for name, attrs in run.items() if not name.startswith("h5md")}
        self.assertEqual(case.pop("/") - {"sweep_invocation"}, run.pop("/"))
        self.assertEqual(case, run)

    def test_bitwise_identical_with_two_threads(self):
        out2 = os.path.join(self.tmp.name, "two.h5")
        start = time.time()
        r = run_sweep(self.sweep, out2, "--threads", "2")
        seconds = time.time() - start
        self.assertEqual(r.returncode, 0, r.stderr)
        assert_same_summary(self, summary(self.out1), summary(out2))
        print(f"\nsweep of {len(self.laws) * 30} cases: {self.seconds_one_thread:.1f} s on 1 thread, "
              f"{seconds:.1f} s on 2 threads", file=sys.stderr)

    @unittest.skipUnless(MPIRUN, "chaindem built without MPI")
    def test_mpi_started_without_a_launcher_when_asked(self):
        """A plain sweep skips MPI_Init; CHAINDEM_MPI=1 forces it (a one-rank MPI world)."""
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, self.laws[:2], "0.5", "1")
            plain, forced = os.path.join(tmp, "plain.h5"), os.path.join(tmp, "forced.h5")
            r = subprocess.run([CHAINDEM, "sweep", sweep, "-o", plain], capture_output=True,
                               text=True, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("on 1 rank(s)", r.stderr)  # MPI_Init was skipped
            r = subprocess.run([CHAINDEM, "sweep", sweep, "-o", forced], capture_output=True,
                               text=True, timeout=600, env=dict(os.environ, CHAINDEM_MPI="1"))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("on 1 MPI rank(s)", r.stderr)
            assert_same_summary(self, summary(plain), summary(forced))

    @unittest.skipUnless(MPIRUN, "chaindem built without MPI")
    def test_bitwise_identical_with_two_mpi_ranks(self):
        out = os.path.join(self.tmp.name, "mpi.h5")
        r = run_sweep(self.sweep, out, "--threads", "1", mpirun=MPIRUN.split() + ["-np", "2"])
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        assert_same_summary(self, summary(self.out1), summary(out))


class SetOverride(unittest.TestCase):
    def test_set_overrides_the_sweep_files_set_as_run_set_overrides_a_case(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, ["tsuji"], "0.9", "0.5, 1")  # [set] chain.count = 10
            out = os.path.join(tmp, "o.h5")
            r = run_sweep(sweep, out, "--set", "chain.count=7", "--set", "output.interval=1e-4")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f:
                for k in range(2):
                    case = f[f"cases/case-{k:06d}"]
                    self.assertEqual(case["particles/chain/position/value"].shape[1], 8)  # 7 + striker
                    self.assertEqual(case["particles/chain/position/value"].shape[0], 4)  # 3e-4 / 1e-4 + 1


class LongCases(unittest.TestCase):
    def test_case_larger_than_the_write_buffer_equals_a_single_run(self):
        """Cases whose frames pass the 4 MiB buffer get their group while running and stream."""
        with tempfile.TemporaryDirectory() as tmp:
            sweep = os.path.join(tmp, "long.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {BASE}\n[set]\nchain.count = 4500\n"
                        "simulation.duration = 4e-4\noutput.interval = 1e-6\n"
                        "[axes]\ncontact.restitution = 0.5, 0.9\n")
            out = os.path.join(tmp, "long.h5")
            r = run_sweep(sweep, out, "--threads", "2")
            self.assertEqual(r.returncode, 0, r.stderr)
            single = os.path.join(tmp, "single.h5")
            r = subprocess.run(
                [CHAINDEM, "run", BASE, "-o", single, "--quiet", "--set", "chain.count=4500",
                 "--set", "simulation.duration=4e-4", "--set", "output.interval=1e-6",
                 "--set", "contact.restitution=0.9"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f, h5py.File(single, "r") as g:
                case = f["cases/case-000001"]
                value = case["particles/chain/position/value"]
                self.assertGreater(value.size * 8, 2 * (4 << 20))  # spilled more than once
                self.assertIsNotNone(value.chunks)
                for path in ("particles/chain/position/value", "particles/chain/force/value",
                             "particles/chain/velocity/step", "contacts/normal_force",
                             "contacts/offset", "observables/energy_balance/value"):
                    self.assertTrue(np.array_equal(case[path][()], g[path][()]), path)
                self.assertEqual(case.attrs["chaindem_status"], "complete")


def checkpointed_size(partial):
    """The size `partial` had at its last checkpoint, read from the header of its undo journal
    (src/output/journaled_file.cpp: "CDJRNL02", then that size as a little-endian u64); None
    while there is none. A journal is renamed into place whole: what is read is one checkpoint's."""
    try:
        with open(partial + ".journal", "rb") as f:
            header = f.read(16)
    except FileNotFoundError:
        return None
    if len(header) < 16 or header[:8] != b"CDJRNL02":
        return None
    return struct.unpack("<Q", header[8:])[0]


def already_finished(stderr):
    """How many cases a sweep found finished when it started (its first line on stderr)."""
    for line in stderr.splitlines():
        if " already finished" in line:
            return int(line.split(" cases, ")[1].split()[0])
    raise AssertionError("no 'already finished' in: " + stderr)


class Resume(unittest.TestCase):
    def test_killed_sweep_resumes_without_recomputing(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, ["hunt_crossley", "tsuji", "flores"], "0.2:1.0:0.2",
                                "0.5, 1, 1.5, 2", duration="1.2e-2")
            reference = os.path.join(tmp, "reference.h5")
            self.assertEqual(run_sweep(sweep, reference, "--threads", "2").returncode, 0)
            full_size = os.path.getsize(reference)

            # Kill the sweep (SIGTERM) once its file holds about a third of the cases.
            out = os.path.join(tmp, "resumed.h5")
            partial = out + ".partial"
            proc = subprocess.Popen([CHAINDEM, "sweep", sweep, "-o", out, "--quiet",
                                     "--threads", "2"], stderr=subprocess.PIPE, text=True)
            deadline = time.time() + 120
            while time.time() < deadline and proc.poll() is None:
                if os.path.exists(partial) and os.path.getsize(partial) > full_size / 3:
                    break
                time.sleep(0.01)
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=120)
            self.assertEqual(proc.returncode, 128 + signal.SIGTERM, err)
            self.assertIn("run the same command to resume", err)
            self.assertFalse(os.path.exists(out))  # nothing that looks complete
            with h5py.File(partial, "r") as f:
                before = {name: g.attrs["sweep_invocation"] for name, g in f["cases"].items()
                          if g.attrs.get("chaindem_status") == "complete"}
            self.assertTrue(0 < len(before) < 60, len(before))

            r = subprocess.run([CHAINDEM, "sweep", sweep, "-o", out, "--threads", "2"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn(f"{len(before)} already finished", r.stderr)
            with h5py.File(out, "r") as f:
                for name, invocation in before.items():  # finished cases were not recomputed
                    self.assertEqual(f["cases"][name].attrs["sweep_invocation"], invocation, name)
                invocations = {g.attrs["sweep_invocation"] for g in f["cases"].values()}
                self.assertEqual(len(invocations), 2)
            # The resumed sweep's file equals an uninterrupted run's.
            assert_same_summary(self, summary(reference), summary(out))
            with h5py.File(reference, "r") as a, h5py.File(out, "r") as b:
                self.assertEqual(sorted(a["cases"]), sorted(b["cases"]))
                for k in range(60):
                    for item in ("particles/chain/velocity/value", "particles/chain/force/value",
                                 "observables/dissipated_energy/value"):
                        name = f"cases/case-{k:06d}/{item}"
                        self.assertTrue(np.array_equal(a[name][()], b[name][()]), name)

    def test_hard_killed_sweep_resumes_to_the_same_file(self):
        """kill -9 runs no handler and closes nothing: a sweep killed that way, three times in a
        row (its resumes too), keeps what it wrote up to its last checkpoint each time and ends
        with the file an uninterrupted sweep writes (scripts/kill_sweeps.py kills at random)."""
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, ["hunt_crossley", "tsuji", "flores", "gonthier"],
                                "0.2:1.0:0.2", "0.5, 1, 1.5, 2", duration="0.05")
            reference = os.path.join(tmp, "reference.h5")
            self.assertEqual(run_sweep(sweep, reference, "--threads", "2").returncode, 0)
            case_size = os.path.getsize(reference) / 80
            out = os.path.join(tmp, "resumed.h5")
            partial = out + ".partial"
            command = [CHAINDEM, "sweep", sweep, "-o", out, "--threads", "2",
                       "--checkpoint-interval", "0.1"]
            finished = []
            for _ in range(3):
                # Each attempt is killed once a checkpoint of its own holds about 3 cases more
                # than the file it started from (the killed attempt's last checkpoint, or the
                # sweep's definition): the kill returns the file to that checkpoint or a later
                # one, however late it comes. A checkpoint follows the writing of a case, and the
                # journal it starts records the file's size then.
                proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
                start_size = None
                deadline = time.time() + 300
                while True:
                    size = checkpointed_size(partial)  # 0: the new file, before its definition
                    if size and start_size is None:
                        start_size = size
                    elif size and size > start_size + 3 * case_size:
                        break
                    self.assertIsNone(proc.poll(), "the sweep ended before it was killed")
                    self.assertLess(time.time(), deadline, "no checkpoint with new cases")
                    time.sleep(0.005)
                proc.kill()
                _, err = proc.communicate(timeout=120)
                self.assertEqual(proc.returncode, -signal.SIGKILL, err)
                self.assertFalse(os.path.exists(out))
                self.assertTrue(os.path.exists(partial + ".journal"))  # not closed
                finished.append(already_finished(err))

            r = subprocess.run(command, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            finished.append(already_finished(r.stderr))
            # Each attempt reopened the killed file with more cases than the one before.
            self.assertEqual(finished[0], 0)
            self.assertTrue(all(a < b for a, b in zip(finished, finished[1:])), finished)
            self.assertFalse(os.path.exists(partial + ".journal"))
            with h5py.File(out, "r") as f:
                invocations = {g.attrs["sweep_invocation"] for g in f["cases"].values()}
            self.assertEqual(len(invocations), 4, "cases of every attempt are kept")
            sys.path.insert(0, os.path.join(SOURCE, "scripts"))
            from same_results import contents  # every dataset and attribute but timings
            self.assertEqual(contents(reference), contents(out))

    def test_cases_finished_during_a_long_one_reach_a_checkpoint(self):
        """Checkpoints do not wait for the next case to end: two short cases finished while a
        long one computes are in the file a kill -9 leaves, a checkpoint interval later."""
        with tempfile.TemporaryDirectory() as tmp:
            sweep = os.path.join(tmp, "gap.ini")
            with open(sweep, "w") as f:
                f.write(f"[sweep]\nbase = {BASE}\n[set]\nchain.count = 2000\n"
                        "output.interval = 1e-4\noutput.contacts = false\n"
                        "[axes]\nsimulation.duration = 1.0, 1e-3, 1.1e-3\n")
            out = os.path.join(tmp, "gap.h5")
            command = [CHAINDEM, "sweep", sweep, "-o", out, "--threads", "2",
                       "--checkpoint-interval", "0.2"]
            proc = subprocess.Popen(command + ["--quiet"])
            start = time.monotonic()
            time.sleep(2.5)  # the short cases take well under a second, the long one many
            # Waiting for the long case, the checkpoint thread sleeps: about one core busy
            # (two at the start), not two (a checkpoint thread that spun used a core).
            with open(f"/proc/{proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            wall = time.monotonic() - start
            proc.kill()
            self.assertLess(cpu, 1.5 * wall, f"{cpu:.2f} s of CPU in {wall:.2f} s")
            proc.communicate(timeout=60)
            self.assertEqual(proc.returncode, -signal.SIGKILL)
            resume = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
            first = resume.stderr.readline()
            resume.kill()
            resume.communicate(timeout=60)
            self.assertIn("3 cases, 2 already finished", first)

    def test_changed_sweep_is_not_mixed_with_old_cases(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, ["hunt_crossley"], "0.5", "1")
            out = os.path.join(tmp, "s.h5")
            # An interrupted sweep leaves OUT.h5.partial; a different sweep must not reuse it.
            proc = subprocess.Popen([CHAINDEM, "sweep", sweep, "-o", out, "--quiet"])
            proc.wait(timeout=120)
            self.assertEqual(proc.returncode, 0)
            os.rename(out, out + ".partial")  # as if it had been interrupted before the end
            write_sweep(tmp, ["hunt_crossley"], "0.6", "1")
            r = run_sweep(sweep, out)
            self.assertEqual(r.returncode, 2)
            self.assertIn("different sweep", r.stderr)

    def test_failed_case_gets_a_status_row(self):
        with tempfile.TemporaryDirectory() as tmp:
            # A time step of a third of the contact (at most a half is accepted) diverges: that
            # case fails, the others complete.
            sweep = write_sweep(tmp, ["hunt_crossley"], "0.5", "1",
                                extra="", duration="3e-4").replace("sweep.ini", "sweep.ini")
            with open(sweep, "a") as f:
                f.write("simulation.time_step = 0, 1e-5\n")
            out = os.path.join(tmp, "s.h5")
            r = run_sweep(sweep, out)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("diverged", r.stderr)
            with h5py.File(out, "r") as f:
                status = list(f["summary/status"].asstr()[()])
                self.assertEqual(status[0], "ok")
                self.assertTrue(status[1].startswith("failed: the integration diverged"))
                self.assertTrue(np.isnan(f["summary/last_bead_final_velocity"][1]))
                self.assertEqual(list(f["cases"]), ["case-000000"])

    def test_resume_accepts_an_equivalent_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, ["hunt_crossley"], "0.5, 0.6", "1")
            out = os.path.join(tmp, "s.h5")
            self.assertEqual(run_sweep(sweep, out).returncode, 0)
            os.rename(out, out + ".partial")  # as if interrupted before the end
            r = subprocess.run([CHAINDEM, "sweep", os.path.relpath(sweep), "-o", out],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("2 already finished", r.stderr)

    def test_invalid_sweep_names_the_case_and_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            sweep = write_sweep(tmp, ["hunt_crossley", "flores"], "0, 0.5", "1")
            r = run_sweep(sweep, os.path.join(tmp, "s.h5"))
            self.assertEqual(r.returncode, 2)
            self.assertIn("contact.law=flores", r.stderr)
            self.assertIn("contact.restitution", r.stderr)
            self.assertEqual([n for n in os.listdir(tmp) if n != "sweep.ini"], [])


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
