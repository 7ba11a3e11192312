#!/usr/bin/python3
"""Malformed initial states (initial.file and initial.frame): the file, its columns or
datasets, each value.

    test_malformed_initial_state.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import io
import os
import subprocess
import tempfile
import unittest

import h5py
import numpy as np

from malformed_harness import CASE_TEXT, CHAINDEM, check_rows, initial_row, main


def state_csv(header="x,vx", rows=21, cells=None):
    """A state of the default case's 21 bodies (the striker at 1 m/s, 20 touching beads) as
    CSV: `cells` replaces {(body, column): text}."""
    lines = [header]
    for k in range(rows):
        row = [repr(0.005 + 0.01 * k), "1.0" if k == 0 else "0.0"]
        row += [""] * (header.count(",") + 1 - len(row))
        for (body, column), text in (cells or {}).items():
            if body == k:
                row[column] = text
        lines.append(",".join(row))
    return "\n".join(lines) + "\n"


def state_h5(frames=2, drop=None):
    """A chaindem output of the default case's 21 bodies, without the dataset `drop`."""
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        chain = f.create_group("particles/chain")
        x = np.zeros((frames, 21, 3))
        x[:, :, 0] = 0.005 + 0.01 * np.arange(21)
        v = np.zeros((frames, 21, 3))
        v[:, 0, 0] = 1.0
        for name, value in (("position", x), ("velocity", v)):
            if name != drop:
                chain.create_dataset(f"{name}/value", data=value)
        chain["radius"] = np.full(21, 0.005)
        chain["species"] = np.zeros(21, dtype=np.int32)
        chain.attrs["species_names"] = ["steel"]
    return buffer.getvalue()



# initial.file and initial.frame: the file, its columns or datasets, each value.
INITIAL = [
    initial_row("initial state file missing", None,
                ["initial.file: 'none.csv' does not exist"], file="none.csv"),
    initial_row("initial state without column vx", state_csv("x,vy"),
                ["'s.csv', line 1", "has no column 'vx'", "required: x [m], vx [m/s]"]),
    initial_row("initial state with 19 rows", state_csv(rows=19),
                ["'s.csv' has 19 rows", "the case builds 21 bodies: the striker and 20 chain "
                 "beads"]),
    initial_row("initial state with NaN", state_csv(cells={(2, 1): "nan"}),
                ["'s.csv', line 4 (body 2), column 2 ('vx')", "'nan' is not finite"]),
    initial_row("initial state with an unknown material",
                state_csv("x,vx,material", cells={(k, 2): "steel" if k != 5 else "brass"
                                                  for k in range(21)}),
                ["line 7 (body 5), column 3 ('material')", "material 'brass' is not defined",
                 "(defined: steel)"]),
    initial_row("initial state with a radius of 2 km",
                state_csv("x,vx,radius", cells={(k, 2): "0.005" if k != 3 else "2000"
                                                for k in range(21)}),
                ["line 5 (body 3), column 3 ('radius')", "radius 2000 m is out of range",
                 "allowed [1e-09, 1000] m"]),
    initial_row("initial state at 1e5 m/s", state_csv(cells={(0, 1): "1e5"}),
                ["line 2 (body 0)", "speed 1e+05 m/s is out of range", "at most 10000 m/s"]),
    initial_row("initial state with a unit in a cell", state_csv(cells={(1, 0): "0.015 m"}),
                ["line 3 (body 1), column 1 ('x')", "'0.015 m' is not a number"]),
    initial_row("initial state in millimetres", state_csv("x [mm],vx"),
                ["column 1 ('x [mm]')", "unit 'mm' is not allowed", "write 'x [m]' or 'x'"]),
    initial_row("initial state separated by semicolons", "x;vx\n0.005;1\n",
                ["line 1", "separated by ';'", "expected column names separated by ','"]),
    initial_row("initial state without a header", state_csv("0.0,1.0"),
                ["line 1, column 1", "is a number, not a column name"]),
    initial_row("initial state with a ragged row", state_csv() + "0.3\n",
                ["line 23 (body 21)", "1 values, but the header has 2 columns"]),
    initial_row("initial state with overlapping beads", state_csv(cells={(4, 0): "0.036"}),
                ["line 6 (body 4)", "overlaps body 3 by 0.009 m, a strain delta/R* = 3.6",
                 "allowed delta/R* up to 0.02 (5e-05 m here)"]),
    initial_row("initial state file that is empty", "", ["'s.csv' is empty", "header"]),
    initial_row("initial frame of a CSV state", state_csv(), ["initial.frame", "read as CSV"],
                sets=["initial.frame=2"]),
    initial_row("initial frame out of range", state_h5(), [
        "initial.frame: 's.h5' has 2 frames: frame 5 is out of range",
        "allowed 0 to 1, or -1 to -2 from the end"], sets=["initial.frame=5"], file="s.h5"),
    initial_row("initial state output without velocities", state_h5(drop="velocity"),
                ["'s.h5' has no dataset /particles/chain/velocity/value"], file="s.h5"),
    initial_row("initial state output that is not HDF5", b"\x89PNG not an output",
                ["'s.h5' is not an HDF5 file that can be read"], file="s.h5"),
]

TABLE = INITIAL


class MalformedInitialState(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_initial_state_rows(self):
        self.assertGreaterEqual(len(INITIAL), 8)

    def test_good_rows_pass(self):
        """The inputs the rows spoil are valid as they are: each row fails for its own cell."""
        for file, state in (("s.csv", state_csv()), ("s.h5", state_h5())):
            with tempfile.TemporaryDirectory() as tmp:
                for name, content in (("case.ini", CASE_TEXT), (file, state)):
                    with open(os.path.join(tmp, name), "wb" if name == file and
                              isinstance(content, bytes) else "w") as f:
                        f.write(content)
                r = subprocess.run([CHAINDEM, "run", "case.ini", "-o", "out.h5", "--set",
                                    f"initial.file={file}", "--set", "simulation.duration=2e-5"],
                                   cwd=tmp, capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, f"{file}\n{r.stderr}")


if __name__ == "__main__":
    main()
