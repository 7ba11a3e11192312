#!/usr/bin/python3
"""Malformed and hostile input, one row each: the exit status, the words the message must
contain, and nothing left behind (no output, no `.partial`, inputs unchanged).

Run by ctest with Debian's /usr/bin/python3:
    test_malformed.py CHAINDEM_BINARY SOURCE_DIR

A row is (name, arguments, files, status, fragments):
- arguments: the command line after `chaindem`; `{case}` is the shipped default case, `{src}`
  the source tree; every row runs in an empty directory of its own, where relative paths land;
- files: {name: text} written into that directory first (a case, a sweep, reference data);
- status: the exit status (2: the input is refused before anything runs; 1: the run failed);
- fragments: strings the message on stderr must contain (what, where, allowed range).
"""
import hashlib
import os
import stat
import subprocess
import sys
import tempfile
import unittest

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")

# `run`: the state of a run that cannot go on, and settings that would give no run.
RUN = [
]

# `sweep`: axes, case counts, threads and observers, refused before any case runs.
SWEEP = [
]

# `collide`: the two bodies and the impact.
COLLIDE = [
]

# `compare`: laws, reference data and options.
COMPARE = [
]

# Inputs of the output rows, copied into the row's directory: the shipped case, a sweep over it,
# measured data for it (time, then one column per chain bead).
with open(CASE) as _f:
    CASE_TEXT = _f.read()
SWEEP_TEXT = "[sweep]\nbase = case.ini\n[axes]\ncontact.restitution = 0.5, 0.6\n"
REFERENCE_CSV = "time," + ",".join(f"b{k}" for k in range(20)) + "\n" + "".join(
    f"{t}e-5," + ",".join("0.1" for _ in range(20)) + "\n" for t in range(3))
COLLIDE_ARGS = ["collide", "--law", "hertz", "--mass", "1", "--wall", "--stiffness", "1e9",
                "--velocity", "1"]
COMPARE_ARGS = ["compare", "case.ini", "--laws", "hertz", "--reference", "edem_hertz_mindlin"]
WITH_CASE = {"case.ini": CASE_TEXT}
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

TABLE = RUN + SWEEP + COLLIDE + COMPARE + OUTPUT


def digest(directory):
    """Every file below `directory`, with the hash of its bytes."""
    out = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, directory)] = hashlib.sha256(f.read()).hexdigest()
    return out


class Malformed(unittest.TestCase):
    def test_table_is_large_enough(self):
        self.assertGreaterEqual(len(TABLE), 0)

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

    def test_each_row(self):
        names = [row[0] for row in TABLE]
        self.assertEqual(len(names), len(set(names)), "row names must be unique")
        for name, args, files, status, fragments in TABLE:
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                for file, text in files.items():
                    with open(os.path.join(tmp, file), "w") as f:
                        f.write(text)
                before = digest(tmp)
                argv = [a.format(case=CASE, src=SOURCE) for a in args]
                r = subprocess.run([CHAINDEM, *argv], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(r.returncode, status, f"{argv}\n{r.stderr}")
                for fragment in fragments:
                    self.assertIn(fragment, r.stderr, argv)
                self.assertNotIn("nan", r.stdout.lower().split(), argv)
                self.assertEqual(digest(tmp), before, f"{argv} left files behind or changed one")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
