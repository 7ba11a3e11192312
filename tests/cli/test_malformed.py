#!/usr/bin/python3
"""Malformed and hostile input, one row each: the exit status, the words the message must
contain, and nothing left behind (no output, no `.partial`, inputs unchanged).

Run by ctest with Debian's /usr/bin/python3:
    test_malformed.py CHAINDEM_BINARY SOURCE_DIR

A row is (name, arguments, files, status, fragments):
- arguments: the command line after `chaindem`; `{case}` is the shipped default case, `{src}`
  the source tree; every row runs in an empty directory of its own, where relative paths land;
- files: {name: text or bytes} written into that directory first (a case, a sweep,
  reference data);
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
def run_row(name, sets, status, fragments):
    """A row of `run` on the default case with `--set` overrides."""
    args = ["run", "{case}", "-o", "out.h5"]
    for kv in sets:
        args += ["--set", kv]
    return (name, args, {}, status, fragments)


RUN = [
    run_row("time step longer than the run", ["striker.enabled=false", "simulation.time_step=1"],
            2, ["simulation.time_step", "simulation.duration"]),
    run_row("run shorter than one automatic step", ["simulation.duration=1e-8"], 2,
            ["simulation.duration", "automatic"]),
    run_row("time step of 1e300 s", ["simulation.time_step=1e300"], 2,
            ["simulation.time_step", "contact duration"]),
    run_row("time step far beyond the contact duration", ["simulation.time_step=1e-3"], 2,
            ["simulation.time_step", "contact duration", "at most"]),
    run_row("infinite time step", ["simulation.time_step=inf"], 2,
            ["simulation.time_step", "not finite"]),
    run_row("NaN duration", ["simulation.duration=nan"], 2, ["simulation.duration", "not finite"]),
    run_row("striker a petametre away", ["striker.gap=1e15"], 2, ["striker.gap", "origin"]),
    run_row("chain gaps that spread it over 1e8 m", ["chain.gap=1e7"], 2, ["chain.gap", "origin"]),
    run_row("taper that makes the radii explode", ["chain.taper=9500"], 2,
            ["chain.taper", "radius", "[1e-09, 1000] m"]),
    run_row("taper that makes the radii vanish", ["chain.taper=1e-30"], 2,
            ["chain.taper", "radius"]),
    run_row("radius of 1e-300 m", ["chain.radii=1e-300"], 2, ["chain.radii", "[1e-09, 1000] m"]),
    run_row("striker radius of a light year", ["striker.radius=1e16"], 2, ["striker.radius"]),
    run_row("striker at 1e300 m/s", ["striker.velocity=1e300"], 2,
            ["striker.velocity", "10000"]),
    run_row("wall moving at 1e300 m/s", ["wall_end.velocity=1e300"], 2,
            ["wall_end.velocity", "10000"]),
    run_row("extra particle behind the end wall", ["extra.particles=steel 0.005 1 0 0 0 0 0"], 2,
            ["extra.particles", "behind wall_end"]),
    run_row("extra particle pressed into the end wall",
            ["extra.particles=steel 0.005 0.209 0.05 0 0 0 0"], 2,
            ["extra.particles", "wall_end"]),
    run_row("extra particle of radius 1e-300 m", ["extra.particles=steel 1e-300 0 1 0 0 0 0"], 2,
            ["extra.particles", "radius"]),
    run_row("extra particle at 1e5 m/s", ["extra.particles=steel 0.005 0 1 0 1e5 0 0"], 2,
            ["extra.particles", "speed"]),
    ("case file that is a directory", ["run", ".", "-o", "out.h5"], {}, 2,
     ["'.' is a directory"]),
    ("case file of binary garbage", ["run", "g.ini", "-o", "out.h5"],
     {"g.ini": b"\x00\x01\x02\x1b[31m\xff\xfe garbage"}, 2, ["g.ini", "not a text file"]),
    ("case file that is not UTF-8", ["run", "latin1.ini", "-o", "out.h5"],
     {"latin1.ini": "[simulation]\nduration = 1e-3 # \xb5s\n".encode("latin-1")}, 2,
     ["latin1.ini", "line 2", "not a text file"]),
    run_row("a --set value with a control character", ["contact.law=hertz\x1b[2J"], 2,
            ["--set", "not text"]),
    run_row("extra particle 1e12 m away", ["extra.particles=steel 0.005 0 1e12 0 0 0 0"], 2,
            ["extra.particles", "origin"]),
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
                for file, content in files.items():
                    mode = "wb" if isinstance(content, bytes) else "w"
                    with open(os.path.join(tmp, file), mode) as f:
                        f.write(content)
                before = digest(tmp)
                argv = [a.format(case=CASE, src=SOURCE) for a in args]
                r = subprocess.run([CHAINDEM, *argv], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(r.returncode, status, f"{argv}\n{r.stderr}")
                for fragment in fragments:
                    self.assertIn(fragment, r.stderr, argv)
                # Nothing from the input is echoed raw: no control character reaches the terminal.
                self.assertFalse([c for c in r.stderr if ord(c) < 32 and c not in "\n\t"],
                                 repr(r.stderr))
                self.assertNotIn("nan", r.stdout.lower().split(), argv)
                self.assertEqual(digest(tmp), before, f"{argv} left files behind or changed one")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
