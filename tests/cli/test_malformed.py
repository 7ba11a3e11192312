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

# Output paths: never replace what is not a regular file, nor an input.
OUTPUT = [
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
