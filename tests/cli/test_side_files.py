#!/usr/bin/python3
"""The files chaindem keeps beside an output (docs/output-format.md, "Files beside an output"):
nothing is written through a link, nothing the user did not name is overwritten or removed, and
a checkpoint is never discarded by a forgotten --restart.

Every writing command (run, collide, compare, fit -o, sweep) meets a symbolic link, a folder
and a stale file at each of its side files; links are also planted while a run writes, and a
second writer whose lock file was removed meanwhile meets the first. Signals: SIGHUP stops a run
as SIGTERM does (with a checkpoint), and fit and collide stop cleanly on each signal.

Run by ctest with Debian's /usr/bin/python3:
    test_side_files.py CHAINDEM_BINARY SOURCE_DIR
"""
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."

with open(os.path.join(SOURCE, "cases", "default.ini")) as f:
    CASE_TEXT = f.read() + "\n"
SHORT = ["--set", "simulation.duration=1e-4"]
SWEEP_TEXT = ("[sweep]\nbase = case.ini\n[set]\nsimulation.duration = 1e-4\n"
              "[axes]\ncontact.restitution = 0.5, 0.6\n")
# Restitution of 5 impacts at 1 to 5 m/s: hunt_crossley's constant one, measured.
IMPACTS = "velocity,restitution\n" + "".join(
    f"{v},{e}\n" for v, e in zip(range(1, 6), (0.81, 0.79, 0.80, 0.82, 0.78)))
FILES = {"case.ini": CASE_TEXT, "sweep.ini": SWEEP_TEXT, "impacts.csv": IMPACTS}

# Each writing command, writing out.h5 in its folder.
COMMANDS = {
    "run": ["run", "case.ini", *SHORT],
    "collide": ["collide", "--law", "hertz", "--mass", "1", "--wall", "--stiffness", "1e9",
                "--velocity", "1"],
    "compare": ["compare", "case.ini", "--laws", "hertz", "--reference", "edem_hertz_mindlin",
                *SHORT],
    "fit": ["fit", "--data", "impacts.csv", "--laws", "hunt_crossley", "--mass", "1", "--wall",
            "--set", "stiffness=1e9"],
    "sweep": ["sweep", "sweep.ini"],
}
# Every file chaindem may create beside out.h5 (and beside out.xdmf, a run's companion).
SIDE_FILES = [".partial", ".lock", ".partial.journal", ".partial.journal.new", ".checkpoint",
              ".checkpoint.partial", ".partial.previous"]
PRECIOUS = "precious data that no command was asked to write\n"


def chaindem(args, cwd, **kwargs):
    return subprocess.run([CHAINDEM, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, **kwargs)


def folder_with_inputs(tmp):
    for name, text in FILES.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    with open(os.path.join(tmp, "victim.txt"), "w") as f:
        f.write(PRECIOUS)


def read(path):
    with open(path) as f:
        return f.read()


def wait_for(path, proc, timeout=120):
    deadline = time.time() + timeout
    while not os.path.exists(path):
        if proc.poll() is not None or time.time() > deadline:
            raise AssertionError(f"{path} never appeared (exit status {proc.returncode})")
        time.sleep(0.01)


class Links(unittest.TestCase):
    def test_no_command_writes_through_a_link_beside_its_output(self):
        for command, args in COMMANDS.items():
            sides = [("out.h5", s) for s in SIDE_FILES]
            if command == "run":
                sides += [("out.xdmf", ".partial")]
            for output, suffix in sides:
                with self.subTest(command=command, side=output + suffix), \
                        tempfile.TemporaryDirectory() as tmp:
                    folder_with_inputs(tmp)
                    link = os.path.join(tmp, output + suffix)
                    os.symlink("victim.txt", link)
                    r = chaindem([*args, "-o", "out.h5"], tmp)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn(f"'{output + suffix}'", r.stderr)
                    self.assertIn("is a symbolic link", r.stderr)
                    self.assertEqual(read(os.path.join(tmp, "victim.txt")), PRECIOUS)
                    self.assertEqual(os.readlink(link), "victim.txt")
                    self.assertFalse(os.path.lexists(os.path.join(tmp, "out.h5")))
                    self.assertFalse(os.path.lexists(os.path.join(tmp, "out.h5.lock")) and
                                     suffix != ".lock" and output == "out.h5")

    def test_no_command_writes_through_a_hard_link_beside_its_output(self):
        # A hard link is another name of the victim: truncating or writing it (the lock's
        # holder line) would change the victim.
        for command, args in COMMANDS.items():
            for suffix in (".lock", ".partial", ".checkpoint.partial"):
                with self.subTest(command=command, side=suffix), \
                        tempfile.TemporaryDirectory() as tmp:
                    folder_with_inputs(tmp)
                    os.link(os.path.join(tmp, "victim.txt"), os.path.join(tmp, "out.h5" + suffix))
                    r = chaindem([*args, "-o", "out.h5"], tmp)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn(f"'out.h5{suffix}'", r.stderr)
                    self.assertIn("is a hard link", r.stderr)
                    self.assertEqual(read(os.path.join(tmp, "victim.txt")), PRECIOUS)
                    self.assertFalse(os.path.exists(os.path.join(tmp, "out.h5")))

    def test_xdmf_names_are_refused_as_outputs(self):
        # A run writing k.h5 writes k.xdmf beside it: an output named k.xdmf would be replaced.
        for command, args in COMMANDS.items():
            with self.subTest(command), tempfile.TemporaryDirectory() as tmp:
                folder_with_inputs(tmp)
                r = chaindem([*args, "-o", "k.xdmf"], tmp)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("a name ending in .xdmf", r.stderr)
                self.assertFalse(os.path.exists(os.path.join(tmp, "k.xdmf")))

    def test_a_folder_at_a_side_file_is_refused_before_the_run(self):
        # A checkpoint path that is a folder used to fail at the first checkpoint, losing the
        # run; an empty one was removed.
        for suffix in (".checkpoint", ".checkpoint.partial", ".partial.previous"):
            for content in ([], ["kept.txt"]):
                with self.subTest(suffix=suffix, content=content), \
                        tempfile.TemporaryDirectory() as tmp:
                    folder_with_inputs(tmp)
                    folder = os.path.join(tmp, "out.h5" + suffix)
                    os.mkdir(folder)
                    for name in content:
                        open(os.path.join(folder, name), "w").close()
                    r = chaindem(["run", "case.ini", "-o", "out.h5", *SHORT,
                                  "--set", "output.checkpoint_interval=0.01"], tmp)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn(f"'out.h5{suffix}'", r.stderr)
                    self.assertIn("is a directory", r.stderr)
                    self.assertEqual(sorted(os.listdir(folder)), content)
                    self.assertFalse(os.path.exists(os.path.join(tmp, "out.h5")))

    def test_outputs_named_as_side_files_are_refused(self):
        # A run writing X would delete an output named X.checkpoint when it completes.
        for command, args in COMMANDS.items():
            for name in ("x.h5.checkpoint", "x.h5.partial.previous", "x.h5.partial.journal"):
                with self.subTest(command=command, output=name), \
                        tempfile.TemporaryDirectory() as tmp:
                    folder_with_inputs(tmp)
                    r = chaindem([*args, "-o", name], tmp)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn("is what chaindem writes beside an output", r.stderr)
                    self.assertFalse(os.path.exists(os.path.join(tmp, name)))

    def test_stale_side_files_of_a_killed_command_are_replaced(self):
        for command, args in COMMANDS.items():
            with self.subTest(command), tempfile.TemporaryDirectory() as tmp:
                folder_with_inputs(tmp)
                # A sweep resumes from its .partial (docs/sweeps.md): not a stale file to it.
                stale = [".lock", ".partial.journal.new", ".checkpoint.partial"]
                for suffix in stale + ([".partial"] if command != "sweep" else []):
                    with open(os.path.join(tmp, "out.h5" + suffix), "w") as f:
                        f.write("left by a killed command\n")
                r = chaindem([*args, "-o", "out.h5"], tmp)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertTrue(os.path.isfile(os.path.join(tmp, "out.h5")))
                for suffix in (".partial", ".lock"):
                    self.assertFalse(os.path.exists(os.path.join(tmp, "out.h5" + suffix)))


# A run of a few seconds: 3000 beads for 60 ms, written every 40 us.
LONG = ["--set", "chain.count=3000", "--set", "wall_end.enabled=false", "--set",
        "simulation.duration=0.06", "--set", "output.interval=4e-5"]


def long_run(tmp, *extra):
    """A long run writing out.h5 in `tmp`, returned once its partial file is there."""
    proc = subprocess.Popen([CHAINDEM, "run", "case.ini", "-o", "out.h5", "-q", *LONG, *extra],
                            cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(os.path.join(tmp, "out.h5.partial"), proc)
    return proc


def stopped_run(tmp, stop=signal.SIGTERM):
    """A long run in `tmp` stopped by `stop` 0.1 s after it started writing; its stderr."""
    proc = long_run(tmp)
    time.sleep(0.1)
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 128 + stop, err
    return err


class Races(unittest.TestCase):
    """Links planted while a command writes are not followed either."""

    def test_link_planted_at_the_checkpoint_partial_during_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            proc = long_run(tmp, "--set", "output.checkpoint_interval=0.02")
            os.symlink("victim.txt", os.path.join(tmp, "out.h5.checkpoint.partial"))
            _, err = proc.communicate(timeout=300)
            self.assertEqual(proc.returncode, 1, err)
            self.assertIn("'out.h5.checkpoint.partial'", err)
            self.assertEqual(read(os.path.join(tmp, "victim.txt")), PRECIOUS)
            self.assertEqual(sorted(os.listdir(tmp)), sorted(
                [*FILES, "victim.txt", "out.h5.checkpoint.partial"]))

    def test_link_planted_at_the_xdmf_partial_during_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            proc = long_run(tmp)
            os.symlink("victim.txt", os.path.join(tmp, "out.xdmf.partial"))
            _, err = proc.communicate(timeout=300)
            self.assertEqual(proc.returncode, 1, err)
            self.assertIn("out.xdmf.partial", err)
            self.assertEqual(read(os.path.join(tmp, "victim.txt")), PRECIOUS)
            self.assertEqual(sorted(os.listdir(tmp)),
                             sorted([*FILES, "victim.txt", "out.xdmf.partial"]))

    def test_second_writer_after_the_lock_file_was_removed(self):
        # The first writer's partial file is marked in use: the second is refused and removes
        # nothing; the first completes.
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            first = long_run(tmp)
            os.remove(os.path.join(tmp, "out.h5.lock"))
            second = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG], tmp)
            self.assertEqual(second.returncode, 2, second.stderr)
            self.assertIn("'out.h5.partial'", second.stderr)
            self.assertIn("is being written by another process", second.stderr)
            self.assertTrue(os.path.exists(os.path.join(tmp, "out.h5.partial")))
            _, err = first.communicate(timeout=300)
            self.assertEqual(first.returncode, 0, err)
            self.assertTrue(os.path.isfile(os.path.join(tmp, "out.h5")))


class ResumableWork(unittest.TestCase):
    """What another command would resume is not removed as stale by a new one."""

    def test_a_stopped_run_is_kept_from_other_commands(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            stopped_run(tmp)
            left = {n: os.path.getsize(os.path.join(tmp, n)) for n in os.listdir(tmp)}
            for command, args in COMMANDS.items():
                if command in ("run", "sweep"):  # run: ForgottenRestart; sweep: its own resume
                    continue
                with self.subTest(command):
                    r = chaindem([*args, "-o", "out.h5"], tmp)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn("an interrupted `chaindem run`", r.stderr)
                    self.assertIn("--restart", r.stderr)
                    self.assertEqual({n: os.path.getsize(os.path.join(tmp, n))
                                      for n in os.listdir(tmp)}, left)

    def test_a_killed_sweep_is_kept_from_other_commands(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            for name in ("out.h5.partial", "out.h5.partial.journal"):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write("a killed sweep's finished cases\n")
            for command in ("run", "collide", "compare", "fit"):
                with self.subTest(command):
                    r = chaindem([*COMMANDS[command], "-o", "out.h5"], tmp)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertIn("an interrupted sweep", r.stderr)
                    self.assertEqual(read(os.path.join(tmp, "out.h5.partial")),
                                     "a killed sweep's finished cases\n")

    def test_a_refused_second_run_keeps_the_first_runs_checkpoint(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            first = long_run(tmp, "--set", "output.checkpoint_interval=0.02")
            wait_for(os.path.join(tmp, "out.h5.checkpoint"), first)
            os.remove(os.path.join(tmp, "out.h5.lock"))
            for extra in (["--discard-checkpoint"], ["--set", "contact.restitution=0.8"]):
                second = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG, *extra], tmp)
                self.assertEqual(second.returncode, 2, second.stderr)
                self.assertIn("is being written by another process", second.stderr)
                self.assertNotIn("deleted", second.stderr)
            _, err = first.communicate(timeout=300)
            self.assertEqual(first.returncode, 0, err)

    def test_a_partial_file_replaced_during_the_run_gives_no_checkpoint(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            proc = long_run(tmp)
            # Once the run is stepping: while HDF5 is still creating the file, it resolves the
            # file's real path, and a file removed then fails there instead.
            time.sleep(0.2)
            os.remove(os.path.join(tmp, "out.h5.partial"))
            with open(os.path.join(tmp, "out.h5.partial"), "w") as f:
                f.write("another file\n")
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=300)
            self.assertEqual(proc.returncode, 1, err)
            self.assertIn("was replaced by another file", err)
            self.assertFalse(os.path.exists(os.path.join(tmp, "out.h5.checkpoint")))
            self.assertEqual(read(os.path.join(tmp, "out.h5.partial")), "another file\n")


class Signals(unittest.TestCase):
    def test_sighup_stops_a_run_with_a_checkpoint(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            err = stopped_run(tmp, signal.SIGHUP)
            self.assertIn("--restart", err)
            self.assertEqual(sorted(os.listdir(tmp)), sorted(
                [*FILES, "victim.txt", "out.h5.checkpoint", "out.h5.partial"]))
            r = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG, "--restart"], tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)),
                             sorted([*FILES, "victim.txt", "out.h5", "out.xdmf"]))

    def test_fit_stops_cleanly_on_each_signal(self):
        # A fit of a chain's history with a bootstrap of 2000 refits: minutes, unless stopped.
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            import h5py
            r = chaindem(["run", "case.ini", "-o", "hc.h5", "-q", "--set",
                          "contact.law=hunt_crossley", "--set", "contact.restitution=0.8"], tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(os.path.join(tmp, "hc.h5")) as f:
                v = f["particles/chain/velocity/value"][()][::4, :, 0]
                t = f["particles/chain/velocity/time"][()][::4]
            with open(os.path.join(tmp, "record.csv"), "w") as f:
                f.write("time,b0,b10\n")
                for k in range(len(t)):
                    f.write(f"{t[k]!r},{v[k, 1]!r},{v[k, 11]!r}\n")
            for stop in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                with self.subTest(signal=stop.name):
                    proc = subprocess.Popen(
                        [CHAINDEM, "fit", "--case", "case.ini", "--data", "record.csv", "--laws",
                         "hunt_crossley", "--sigma", "0.01", "--bootstrap", "2000", "-o",
                         "fit.h5"], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
                    wait_for(os.path.join(tmp, "fit.h5.lock"), proc)
                    time.sleep(0.5)
                    proc.send_signal(stop)
                    _, err = proc.communicate(timeout=60)
                    self.assertEqual(proc.returncode, 128 + stop, err)
                    self.assertIn(f"interrupted by signal {int(stop)}", err)
                    left = [n for n in os.listdir(tmp) if n.startswith("fit.h5")]
                    self.assertEqual(left, [])


class ForgottenRestart(unittest.TestCase):
    def test_a_checkpoint_of_this_case_is_kept_without_restart(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            stopped_run(tmp)
            left = sorted(os.listdir(tmp))

            # The same command without --restart: refused, nothing touched.
            r = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG], tmp)
            self.assertEqual(r.returncode, 2, r.stderr)
            for words in ("'out.h5.checkpoint'", "this case's interrupted run", "--restart",
                          "--discard-checkpoint"):
                self.assertIn(words, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), left)

            r = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG, "--restart",
                          "--discard-checkpoint"], tmp)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), left)

            # Another case: not this run's to continue; deleted, saying so.
            r = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG, "--set",
                          "contact.restitution=0.8"], tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("deleted the checkpoint 'out.h5.checkpoint'", r.stderr)
            self.assertIn("contact.restitution is '0.9' in the checkpoint and '0.8' here", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)),
                             sorted([*FILES, "victim.txt", "out.h5", "out.xdmf"]))

    def test_discard_checkpoint_starts_over(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder_with_inputs(tmp)
            stopped_run(tmp)
            self.assertTrue(os.path.exists(os.path.join(tmp, "out.h5.checkpoint")))
            r = chaindem(["run", "case.ini", "-o", "out.h5", "-q", *LONG,
                          "--discard-checkpoint"], tmp)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("deleted the checkpoint 'out.h5.checkpoint' (stopped at t = ", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)),
                             sorted([*FILES, "victim.txt", "out.h5", "out.xdmf"]))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
