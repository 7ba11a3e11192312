"""The harness of the malformed-input tests: it runs their rows, and holds the inputs and row
builders that several of their tables share.

Each tests/cli/test_malformed_AREA.py holds the rows of one area (a command, or a kind of input)
and is run by ctest as malformed_AREA (`ctest -R malformed` runs them all), with Debian's
/usr/bin/python3:
    test_malformed_AREA.py CHAINDEM_BINARY SOURCE_DIR

A row is (name, arguments, files, status, fragments):
- arguments: the command line after `chaindem`; `{case}` is the shipped default case, `{src}`
  the source tree; every row runs in an empty directory of its own, where relative paths land;
- files: {name: text or bytes} written into that directory first (a case, a sweep,
  reference data);
- status: the exit status (2: the input is refused before anything runs; 1: the run failed);
- fragments: strings the message on stderr must contain (what, where, allowed range).
check_rows runs them, and checks besides that nothing is left behind (no output, no `.partial`,
inputs unchanged) and that stderr holds no control character. A new area is a new
test_malformed_AREA.py whose TABLE lists its rows; test_malformed_tables.py checks them all
together (names unique, enough of them).
"""
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import unittest

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")
with open(CASE) as _f:
    CASE_TEXT = _f.read()


def digest(directory):
    """Every file below `directory`, with the hash of its bytes."""
    out = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, directory)] = hashlib.sha256(f.read()).hexdigest()
    return out


def check_rows(test, table, program=None):
    """Runs each row of `table` as a subtest of the unittest.TestCase `test`: its arguments
    after `chaindem`, or after `program` (a command line, e.g. [python, chaindem-plot])."""
    test.assertTrue(table, "a table without rows checks nothing")
    names = [row[0] for row in table]
    test.assertEqual(len(names), len(set(names)), "row names must be unique")
    for name, args, files, status, fragments in table:
        with test.subTest(name), tempfile.TemporaryDirectory() as tmp:
            for file, content in files.items():
                mode = "wb" if isinstance(content, bytes) else "w"
                with open(os.path.join(tmp, file), mode) as f:
                    f.write(content)
            before = digest(tmp)
            argv = [a.format(case=CASE, src=SOURCE) for a in args]
            r = subprocess.run([*(program or [CHAINDEM]), *argv], cwd=tmp, capture_output=True,
                               text=True, timeout=300)
            test.assertEqual(r.returncode, status, f"{argv}\n{r.stderr}")
            for fragment in fragments:
                test.assertIn(fragment, r.stderr, argv)
            # Nothing from the input is echoed raw: no control character reaches the terminal.
            test.assertFalse([c for c in r.stderr if ord(c) < 32 and c not in "\n\t"],
                             repr(r.stderr))
            # Numbers in short form: no run of digits longer than a double's exact text.
            test.assertIsNone(re.search(r"[0-9]{21,}", r.stderr), r.stderr)
            test.assertNotIn("nan", r.stdout.lower().split(), argv)
            test.assertEqual(digest(tmp), before, f"{argv} left files behind or changed one")


def main():
    unittest.main(argv=sys.argv[:1], verbosity=2)


# Rows and inputs that several tables share.
def run_row(name, sets, status, fragments):
    """A row of `run` on the default case with `--set` overrides."""
    args = ["run", "{case}", "-o", "out.h5"]
    for kv in sets:
        args += ["--set", kv]
    return (name, args, {}, status, fragments)


def sweep_file(axes, keys="", combine="grid"):
    """A sweep of the shipped default case, shortened, with these [set] keys and [axes]."""
    return (f"[sweep]\nbase = {CASE}\ncombine = {combine}\n\n"
            f"[set]\nsimulation.duration = 1e-5\n{keys}\n\n[axes]\n{axes}\n")


SPEEDS = {"s.ini": sweep_file("striker.velocity = 0.5, 1")}


def collide_row(name, options, fragments, law="hertz"):
    """A row of `collide` writing c.h5: steel spheres of 5 mm at 1 m/s, `options` changing them
    ({option: value}; None drops the option, True gives a switch)."""
    given = {"law": law, "radius": "0.005", "youngs-modulus": "200e9", "poisson-ratio": "0.3",
             "density": "7800", "velocity": "1"}
    given.update(options)
    args = ["collide"]
    for option, value in given.items():
        if value is True:
            args.append("--" + option)
        elif value is not None:
            args += ["--" + option, value]
    return (name, args + ["-o", "c.h5"], {}, 2, fragments)


MASSES = {"radius": None, "youngs-modulus": None, "poisson-ratio": None, "density": None,
          "mass": "1", "stiffness": "1e9"}  # a mass on a spring instead of steel spheres


# `compare` of the default case, and reference data of it, which COMPARE's rows spoil.
COMPARE_HERTZ = ["compare", "{case}", "--laws", "hertz", "--reference", "hertz"]
HEADER = "time," + ",".join(f"b{k}" for k in range(20)) + "\n"  # the default case: 20 beads


def csv_row(time, changed=None):
    """A data row of the default case: 0.1 m/s for every bead but those in `changed`."""
    cells = ["0.1"] * 20
    for bead, text in (changed or {}).items():
        cells[bead] = text
    return f"{time}," + ",".join(cells) + "\n"


def data_row(name, csv, fragments, beads=None):
    """A row of `compare` against reference data `csv` (text or bytes) as ref.csv; the message
    names the file, unless the row is about `--beads BEADS`."""
    extra = ["--beads", beads] if beads is not None else []
    return (name, ["compare", "{case}", "--laws", "hertz", "--reference-data", "ref.csv",
                   "-o", "cmp.h5", *extra], {"ref.csv": csv}, 2,
            [*([] if extra else ["'ref.csv'"]), *fragments])


GOOD_CSV = HEADER + csv_row(0) + csv_row("1e-5")


def initial_row(name, state, fragments, sets=(), file="s.csv"):
    """A row of `run` of the default case (copied, so that initial.file is read beside it)
    starting from `state` (text or bytes) as `file`."""
    args = ["run", "case.ini", "-o", "out.h5", "--set", f"initial.file={file}"]
    for kv in sets:
        args += ["--set", kv]
    files = {"case.ini": CASE_TEXT}
    if state is not None:
        files[file] = state
    return (name, args, files, 2, fragments)


# Steel spheres on a steel wall (`collide`, `fit`); measured data of the default case (time, then
# one column per chain bead); `collide` of a mass on a spring; the shipped case as case.ini.
BODIES = ["--radius", "0.005", "--youngs-modulus", "2e11", "--poisson-ratio", "0.3",
          "--density", "7800", "--wall"]
REFERENCE_CSV = "time," + ",".join(f"b{k}" for k in range(20)) + "\n" + "".join(
    f"{t}e-5," + ",".join("0.1" for _ in range(20)) + "\n" for t in range(3))
COLLIDE_ARGS = ["collide", "--law", "hertz", "--mass", "1", "--wall", "--stiffness", "1e9",
                "--velocity", "1"]
WITH_CASE = {"case.ini": CASE_TEXT}
