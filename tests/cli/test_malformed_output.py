#!/usr/bin/python3
"""Malformed output paths of every command: never replace what is not a regular file, nor an
input.

    test_malformed_output.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import os
import stat
import subprocess
import tempfile
import unittest

from malformed_harness import (CASE_TEXT, CHAINDEM, COLLIDE_ARGS, REFERENCE_CSV, WITH_CASE,
                               check_rows, main)

# Inputs of the output rows, copied into the row's directory: the shipped case (WITH_CASE), a
# sweep over it, measured data for it (REFERENCE_CSV).
SWEEP_TEXT = "[sweep]\nbase = case.ini\n[axes]\ncontact.restitution = 0.5, 0.6\n"
COMPARE_ARGS = ["compare", "case.ini", "--laws", "hertz", "--reference", "edem_hertz_mindlin"]
WITH_SWEEP = {"case.ini": CASE_TEXT, "sweep.ini": SWEEP_TEXT}

# Output paths: never replace what is not a regular file, nor an input.
OUTPUT = [
    ("run -o a directory", ["run", "case.ini", "-o", "."], WITH_CASE, 2,
     ["output '.' is a directory"]),
    ("run -o a device", ["run", "case.ini", "-o", "/dev/null"], WITH_CASE, 2,
     ["output '/dev/null' is a character device"]),
    ("run -o the case file", ["run", "case.ini", "-o", "case.ini"], WITH_CASE, 2,
     ["output 'case.ini' is the input 'case.ini'"]),
    ("run -o the case file, spelled otherwise", ["run", "case.ini", "-o", "./case.ini"],
     WITH_CASE, 2, ["output './case.ini' is the input 'case.ini'"]),
    ("run -o in a missing directory", ["run", "case.ini", "-o", "missing/out.h5"], WITH_CASE, 2,
     ["output 'missing/out.h5'", "'missing' does not exist"]),
    ("run -o NAME.xdmf: the XDMF file beside it has its name", ["run", "case.ini", "-o", "a.xdmf"],
     WITH_CASE, 2, ["output 'a.xdmf'", "XDMF file"]),
    ("run: the XDMF file beside the output is the case file", ["run", "run.xdmf", "-o", "run.h5"],
     {"run.xdmf": CASE_TEXT}, 2, ["output 'run.xdmf' is the input 'run.xdmf'"]),
    ("collide -o a directory", COLLIDE_ARGS + ["-o", "."], {}, 2,
     ["chaindem collide: invalid output: output '.' is a directory"]),
    ("collide -o a device", COLLIDE_ARGS + ["-o", "/dev/null"], {}, 2,
     ["output '/dev/null' is a character device"]),
    ("collide -o in a missing directory", COLLIDE_ARGS + ["-o", "missing/c.h5"], {}, 2,
     ["'missing' does not exist"]),
    ("compare -o the case file", COMPARE_ARGS + ["-o", "case.ini"], WITH_CASE, 2,
     ["chaindem compare: invalid output: output 'case.ini' is the input 'case.ini'"]),
    ("compare -o the reference data",
     ["compare", "case.ini", "--laws", "hertz", "--reference-data", "ref.csv", "-o", "ref.csv"],
     {"case.ini": CASE_TEXT, "ref.csv": REFERENCE_CSV}, 2,
     ["output 'ref.csv' is the input 'ref.csv'"]),
    ("compare -o a directory", COMPARE_ARGS + ["-o", "."], WITH_CASE, 2,
     ["output '.' is a directory"]),
    ("compare -o a device", COMPARE_ARGS + ["-o", "/dev/null"], WITH_CASE, 2,
     ["output '/dev/null' is a character device"]),
    ("sweep -o a directory", ["sweep", "sweep.ini", "-o", "."], WITH_SWEEP, 2,
     ["chaindem sweep: invalid output: output '.' is a directory"]),
    ("sweep -o the sweep file", ["sweep", "sweep.ini", "-o", "sweep.ini"], WITH_SWEEP, 2,
     ["output 'sweep.ini' is the input 'sweep.ini'"]),
    ("sweep -o its base case", ["sweep", "sweep.ini", "-o", "case.ini"], WITH_SWEEP, 2,
     ["output 'case.ini' is the input"]),
    ("sweep -o in a missing directory", ["sweep", "sweep.ini", "-o", "missing/s.h5"], WITH_SWEEP,
     2, ["'missing' does not exist"]),
]

TABLE = OUTPUT


class MalformedOutput(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_output_rows(self):
        self.assertGreaterEqual(len(OUTPUT), 10)

    def test_device_output_is_not_replaced(self):
        """The table sees only its own directory: here, that /dev/null is still a device."""
        commands = {
            "run": ["run", "case.ini"],
            "collide": COLLIDE_ARGS,
            "compare": COMPARE_ARGS,
            "sweep": ["sweep", "sweep.ini"],
        }
        for name, args in commands.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                for file, text in WITH_SWEEP.items():
                    with open(os.path.join(tmp, file), "w") as f:
                        f.write(text)
                r = subprocess.run([CHAINDEM, *args, "-o", "/dev/null"], cwd=tmp,
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("'/dev/null' is a character device", r.stderr)
                self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))
                for leftover in ("/dev/null.partial", "/dev/null.xdmf", "/dev/null.xdmf.partial"):
                    self.assertFalse(os.path.lexists(leftover), leftover)

    def test_partial_path_that_is_not_a_file(self):
        """OUT.partial, which is written first, is checked as OUT is."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "case.ini"), "w") as f:
                f.write(CASE_TEXT)
            os.mkdir(os.path.join(tmp, "out.h5.partial"))
            r = subprocess.run([CHAINDEM, "run", "case.ini", "-o", "out.h5"], cwd=tmp,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("'out.h5.partial', written first, is a directory", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["case.ini", "out.h5.partial"])


if __name__ == "__main__":
    main()
