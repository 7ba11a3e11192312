#!/usr/bin/python3
"""A full disk: run, sweep, collide and compare exit with status 1, name the file they could not
write, and leave neither it nor its partial file (nor a run's XDMF file) behind. The same for an
output directory they may not write: a read-only file system, a directory without write
permission.

Run by ctest with Debian's /usr/bin/python3, as root (it mounts a small tmpfs as the disk):
    test_full_disk.py CHAINDEM_BINARY SOURCE_DIR
Where mounting is not permitted, the tests are skipped and say why.

Each command writes to the tmpfs, which a filler file leaves with a chosen number of free
bytes: none (creating the file fails), a little (the file is created, a later write or its
close fails), and, for a run, room for its HDF5 file but not for the XDMF file beside it.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")

DISK_SIZE = 4 << 20  # the tmpfs: room for every output of these commands when it is empty
PAGE = 4096
SWEEP_TEXT = ("[sweep]\nbase = case.ini\n[set]\nsimulation.duration = 2e-4\n"
              "[axes]\ncontact.restitution = 0.5, 0.6\n")
COLLIDE_ARGS = ["collide", "--law", "hertz", "--mass", "1", "--wall", "--stiffness", "1e9",
                "--velocity", "1"]
COMPARE_ARGS = ["compare", "case.ini", "--laws", "hertz", "--reference", "edem_hertz_mindlin",
                "--set", "simulation.duration=2e-4"]


class FullDisk(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="chaindem-full-disk-")
        cls.disk = os.path.join(cls.work, "disk")
        os.mkdir(cls.disk)
        try:
            r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_SIZE}", "tmpfs",
                                cls.disk], capture_output=True, text=True)
            problem = (r.stderr or r.stdout).strip() if r.returncode else ""
        except OSError as e:
            problem = str(e)
        if problem:
            shutil.rmtree(cls.work)
            reason = f"cannot mount a tmpfs to fill ({problem}); these tests need root"
            print(f"skipped: {reason}", flush=True)
            raise unittest.SkipTest(reason)
        shutil.copy(CASE, os.path.join(cls.work, "case.ini"))
        with open(os.path.join(cls.work, "sweep.ini"), "w") as f:
            f.write(SWEEP_TEXT)
        # A run's HDF5 file as it takes room on a disk, its XDMF file aside.
        r = cls.chaindem(["run", "case.ini", "-o", "sized.h5", "-q"])
        assert r.returncode == 0, r.stderr
        cls.run_h5_bytes = os.stat(os.path.join(cls.work, "sized.h5")).st_blocks * 512
        cls.run_xdmf_bytes = os.path.getsize(os.path.join(cls.work, "sized.xdmf"))

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["umount", cls.disk], check=False)
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def chaindem(cls, args):
        r = subprocess.run([CHAINDEM, *args], cwd=cls.work, capture_output=True, text=True,
                           timeout=300)
        # chaindem says what failed, once: never HDF5's own stack of errors, from any thread.
        assert "HDF5-DIAG" not in r.stderr, f"{args}\n{r.stderr}"
        return r

    def setUp(self):
        for name in os.listdir(self.disk):
            os.remove(os.path.join(self.disk, name))

    def leave_free(self, free):
        """Fills the disk but for `free` bytes (whole pages)."""
        self.setUp()
        st = os.statvfs(self.disk)
        fill = st.f_bavail * st.f_frsize - free
        self.assertGreaterEqual(fill, 0)
        with open(os.path.join(self.disk, "filler"), "wb") as f:
            f.write(b"\0" * fill)
        st = os.statvfs(self.disk)
        self.assertEqual(st.f_bavail * st.f_frsize, free)

    def assert_fails_cleanly(self, args, output, free, because=""):
        """`args` writing `output` on a disk with `free` bytes: status 1, the message names the
        output (and `because`), and the disk holds what it held before."""
        self.leave_free(free)
        before = sorted(os.listdir(self.disk))
        r = self.chaindem([*args, "-o", output])
        self.assertEqual(r.returncode, 1, f"{args} with {free} bytes free\n{r.stderr}")
        self.assertEqual(sorted(os.listdir(self.disk)), before,
                         f"{args} with {free} bytes free left files behind")
        self.assertNotIn("written", r.stdout)
        self.assertIn(f"cannot write '{output}'", r.stderr)
        self.assertIn("No space left on device", r.stderr)
        if because:
            self.assertIn(because, r.stderr)

    def out(self, name):
        return os.path.join(self.disk, name)

    def test_with_room_every_command_writes(self):
        """The control: on the empty disk each command succeeds."""
        for args, name in [(["run", "case.ini", "-q"], "run.h5"), (COLLIDE_ARGS, "c.h5"),
                           (COMPARE_ARGS, "cmp.h5"), (["sweep", "sweep.ini", "-q"], "s.h5")]:
            with self.subTest(args[0]):
                self.setUp()
                r = self.chaindem([*args, "-o", self.out(name)])
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertTrue(os.path.exists(self.out(name)))
                self.assertFalse([f for f in os.listdir(self.disk) if f.endswith(".partial")])

    def test_run(self):
        self.assert_fails_cleanly(["run", "case.ini", "-q"], self.out("run.h5"), 0,
                                  "creating")
        self.assert_fails_cleanly(["run", "case.ini", "-q"], self.out("run.h5"), 16 * PAGE)

    def test_run_whose_xdmf_file_does_not_fit(self):
        """The HDF5 file fits, its XDMF file does not: neither is left."""
        self.assertGreater(self.run_xdmf_bytes, 32 * PAGE)
        self.assert_fails_cleanly(["run", "case.ini", "-q"], self.out("run.h5"),
                                  self.run_h5_bytes + 16 * PAGE, "run.xdmf.partial")

    def test_sweep(self):
        self.assert_fails_cleanly(["sweep", "sweep.ini", "-q"], self.out("s.h5"), 0, "creating")
        self.assert_fails_cleanly(["sweep", "sweep.ini", "-q"], self.out("s.h5"), 16 * PAGE,
                                  "(contact.restitution=")  # the case whose write failed

    def test_sweep_whose_checkpoint_finds_the_disk_full(self):
        """Checkpoints every 0.01 s, which a thread of their own takes: whichever write finds
        the disk full (a case's, a checkpoint's), the sweep says so once (chaindem() checks
        that no HDF5 error stack is printed) and keeps its partial file only if a checkpoint
        holds finished cases, saying so."""
        with open(os.path.join(self.work, "many.ini"), "w") as f:
            f.write(SWEEP_TEXT.replace("0.5, 0.6", "0.1:0.9:0.05"))
        out = self.out("s.h5")
        for pages in (50, 100, 150, 200):
            with self.subTest(pages=pages):
                self.leave_free(pages * PAGE)
                r = self.chaindem(["sweep", "many.ini", "-q", "--checkpoint-interval", "0.01",
                                   "-o", out])
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(f"cannot write '{out}'", r.stderr)
                self.assertIn("No space left on device", r.stderr)
                self.assertFalse(os.path.exists(out))
                kept = "finished case(s) of its last checkpoint are kept" in r.stderr
                self.assertEqual(os.path.exists(out + ".partial"), kept, r.stderr)

    def test_resumed_sweep_keeps_its_cases_on_a_full_disk(self):
        """A sweep that resumes with finished cases and then finds the disk full keeps them (its
        file and journal, for the next resume) and says so; with room again, it completes."""
        import h5py
        self.setUp()
        out = self.out("s.h5")
        r = self.chaindem(["sweep", "sweep.ini", "-q", "-o", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        with h5py.File(out, "r+") as f:  # as if killed after the first case
            kept = f["cases/case-000000"].attrs["sweep_invocation"]
            del f["cases/case-000001"], f["summary"]
        os.rename(out, out + ".partial")
        st = os.statvfs(self.disk)
        with open(os.path.join(self.disk, "filler"), "wb") as f:
            f.write(b"\0" * (st.f_bavail * st.f_frsize - 16 * PAGE))
        r = self.chaindem(["sweep", "sweep.ini", "-o", out])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("No space left on device", r.stderr)
        self.assertIn(f"the 1 finished case(s) of its last checkpoint are kept in {out}.partial",
                      r.stderr)
        self.assertTrue(os.path.exists(out + ".partial"))
        self.assertFalse(os.path.exists(out))
        os.remove(os.path.join(self.disk, "filler"))
        r = self.chaindem(["sweep", "sweep.ini", "-o", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 already finished", r.stderr)
        with h5py.File(out, "r") as f:
            self.assertEqual(f["cases/case-000000"].attrs["sweep_invocation"], kept)
            self.assertEqual(sorted(f["cases"]), ["case-000000", "case-000001"])

    def test_collide(self):
        self.assert_fails_cleanly(COLLIDE_ARGS, self.out("c.h5"), 0, "creating")
        self.assert_fails_cleanly(COLLIDE_ARGS, self.out("c.h5"), 2 * PAGE)

    def test_compare(self):
        self.assert_fails_cleanly(COMPARE_ARGS, self.out("cmp.h5"), 0, "creating")
        self.assert_fails_cleanly(COMPARE_ARGS, self.out("cmp.h5"), 16 * PAGE)


COMMANDS = [(["run", "case.ini", "-q"], "run.h5"), (["sweep", "sweep.ini", "-q"], "s.h5"),
            (COLLIDE_ARGS, "c.h5"), (COMPARE_ARGS, "cmp.h5")]


class ReadOnlyOutput(unittest.TestCase):
    """An output directory the commands may not write: each exits with status 1 when it creates
    its file, the message names the file and the system's reason, and the directory is left as
    it was."""

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="chaindem-read-only-")
        self.addCleanup(shutil.rmtree, self.work, ignore_errors=True)
        os.chmod(self.work, 0o755)  # readable by the user nobody (test_without_write_permission)
        shutil.copy(CASE, os.path.join(self.work, "case.ini"))
        with open(os.path.join(self.work, "sweep.ini"), "w") as f:
            f.write(SWEEP_TEXT)
        for name in ("case.ini", "sweep.ini"):
            os.chmod(os.path.join(self.work, name), 0o644)
        self.out = os.path.join(self.work, "out")
        os.mkdir(self.out)

    def assert_refused(self, prefix, reason):
        """Every command, run through `prefix`, writing into out/: status 1, naming the file and
        `reason`; out/ still empty."""
        for args, name in COMMANDS:
            with self.subTest(args[0]):
                output = os.path.join("out", name)
                r = subprocess.run([*prefix, CHAINDEM, *args, "-o", output], cwd=self.work,
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 1, f"{args}\n{r.stderr}")
                self.assertIn(f"cannot write '{output}'", r.stderr)
                self.assertIn(f"creating {output}.partial: {reason}", r.stderr)
                self.assertNotIn("cannot remove", r.stderr)  # the failed create is what is told
                self.assertNotIn("HDF5-DIAG", r.stderr)
                self.assertNotIn("written", r.stdout)
                self.assertEqual(os.listdir(self.out), [], args)

    def test_read_only_file_system(self):
        r = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", self.out],
                           capture_output=True, text=True)
        if r.returncode:
            reason = (f"cannot mount a read-only tmpfs ({(r.stderr or r.stdout).strip()}); "
                      "this test needs root")
            print(f"skipped: {reason}", flush=True)
            self.skipTest(reason)
        self.addCleanup(subprocess.run, ["umount", self.out], check=False)
        self.assert_refused([], "Read-only file system")

    def test_without_write_permission(self):
        os.chmod(self.out, 0o555)
        prefix = []
        if os.geteuid() == 0:
            # Root writes wherever permissions say it may not: the commands run as nobody.
            setpriv = shutil.which("setpriv")
            probe = None
            if setpriv:
                prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
                probe = subprocess.run([*prefix, "sh", "-c", '"$0" --help >/dev/null && '
                                        "test -r case.ini", CHAINDEM], cwd=self.work,
                                       capture_output=True, text=True)
            if probe is None or probe.returncode:
                reason = ("running as root, and the user nobody cannot run chaindem on the "
                          "inputs (setpriv " + ("missing" if probe is None else
                                                "failed: " + probe.stderr.strip()) + ")")
                print(f"skipped: {reason}", flush=True)
                self.skipTest(reason)
        self.assert_refused(prefix, "Permission denied")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
