#!/usr/bin/python3
"""Malformed input of `compare`: laws, reference data and options.

    test_malformed_compare.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import os
import subprocess
import tempfile
import unittest

from malformed_harness import (CASE, CHAINDEM, COMPARE_HERTZ, GOOD_CSV, HEADER, check_rows, csv_row,
                               data_row, main)

COMPARE = [
    data_row("reference data with NaN", HEADER + csv_row(0) + csv_row("1e-5", {3: "nan"}),
             ["line 3, column 5 ('b3')", "'nan' is not finite"]),
    data_row("reference data with infinite time", HEADER + csv_row(0) + csv_row("inf"),
             ["line 3, column 1 ('time')", "'inf' is not finite"]),
    data_row("reference data with minus infinity", HEADER + csv_row(0, {19: "-inf"}),
             ["line 2, column 21 ('b19')", "'-inf' is not finite"]),
    data_row("reference data with a number beyond a double", HEADER + csv_row(0, {0: "1e400"}),
             ["line 2, column 2 ('b0')", "'1e400' is beyond the range of a double"]),
    data_row("reference data with a velocity of 1e300 m/s", HEADER + csv_row(0, {5: "1e300"}),
             ["line 2, column 7 ('b5')", "1e+300 m/s is out of range", "[-10000, 10000] m/s"]),
    data_row("reference data with time running backwards",
             HEADER + csv_row("2e-5") + csv_row("1e-5"),
             ["line 3, column 1 ('time')", "1e-05 s is not after the previous row's 2e-05 s",
              "time must increase"]),
    data_row("reference data with a repeated time",
             HEADER + csv_row(0) + csv_row("1e-5") + csv_row("1e-5"),
             ["line 4, column 1 ('time')", "not after the previous row's 1e-05 s"]),
    data_row("empty reference data", "", ["is empty", "header line"]),
    data_row("reference data without data rows", HEADER, ["has no data rows"]),
    data_row("reference data without a header", csv_row(0) + csv_row("1e-5"),
             ["line 1, column 1", "not the header"]),
    # A header of named beads may name any of them (a subset); its rows then have its columns.
    data_row("reference data with a row longer than its header of named beads",
             "time," + ",".join(f"b{k}" for k in range(19)) + "\n" + csv_row(0),
             ["line 2, column 21", "21 values, but the header has 20 columns"]),
    data_row("reference data with unnamed columns that are not every bead",
             "time," + ",".join("v" for k in range(19)) + "\n" + csv_row(0),
             ["line 1, column 2 ('v')", "19 bead columns for a chain of 20 beads",
              "name the bead each column measures"]),
    data_row("reference data with an extra column",
             HEADER.strip() + ",b20\n" + csv_row(0),
             ["line 1, column 22 ('b20')", "names bead 20: allowed 0 to 19"]),
    data_row("reference data naming a bead outside the chain",
             "time," + ",".join(f"b{k}" for k in range(19)) + ",b25\n" + csv_row(0),
             ["line 1, column 21 ('b25')", "names bead 25: allowed 0 to 19"]),
    data_row("reference data naming a bead twice", "time,b3,b3\n0,0,0\n",
             ["line 1, column 3 ('b3')", "bead 3 has two columns"]),
    data_row("reference data with an unknown unit", "time [min],b3\n0,0\n",
             ["line 1, column 1 ('time [min]')", "unknown unit 'min': allowed s, ms, us"]),
    data_row("reference data in milliseconds without saying so", "time,b3\n0,0\n30,0.1\n",
             ["runs to t = 30 s", "the run lasts", "name it in the header, e.g. 'time [ms]'"]),
    data_row("reference data starting after the run", "time,b3\n5,0\n6,0.1\n",
             ["starts at t = 5 s, when the run has ended"]),
    data_row("reference data with one column", "time b0 b1\n0 0 0\n",
             ["line 1, column 1", "a header of one column (no comma)",
              "separated by commas (or semicolons, or tabs)"]),
    data_row("reference data with beads counted from 1",
             "time," + ",".join(f"v{k + 1}" for k in range(20)) + "\n" + csv_row(0),
             ["line 1, column 2 ('v1')", "names bead 1, but the column holds bead 0"]),
    data_row("reference data with a ragged row", HEADER + csv_row(0) + "1e-5,0.1,0.1\n",
             ["line 3, column 4 ('b2')", "3 values, but the header has 21 columns"]),
    data_row("reference data with a long row", HEADER + csv_row(0).strip() + ",0.1\n",
             ["line 2, column 22", "22 values, but the header has 21 columns"]),
    data_row("reference data with a word in a cell",
             HEADER + csv_row(0) + csv_row("1e-5", {5: "fast"}),
             ["line 3, column 7 ('b5')", "'fast' is not a number"]),
    data_row("reference data with a number and a unit", HEADER + csv_row("0 s"),
             ["line 2, column 1 ('time')", "'0 s' is not a number"]),
    data_row("reference data with an empty cell", HEADER + csv_row(0, {7: ""}),
             ["line 2, column 9 ('b7')", "empty cell"]),
    data_row("reference data of binary garbage", b"\x00\x01\x1b[31m\xff\xfe,\x00\n\x07\n",
             ["line 1, column 2 ('\\x00')", "1 bead columns for a chain of 20 beads"]),
    data_row("reference data with a control character in a cell",
             HEADER + csv_row(0, {2: "\x1b[2J"}),
             ["line 2, column 4 ('b2')", "'\\x1B[2J' is not a number"]),
    data_row("--beads outside the chain", GOOD_CSV,
             ["--beads: 25 is not a bead of the chain", "allowed 0 to 19"], "25"),
    data_row("--beads negative", GOOD_CSV, ["--beads: -1 is not a bead of the chain"],
             "0,-1"),
    data_row("--beads not an integer", GOOD_CSV, ["--beads: '1.5' is not an integer",
                                                  "allowed 0 to 19"], "1.5"),
    data_row("--beads beyond any integer", GOOD_CSV,
             ["--beads: 99999999999999999999 is not a bead of the chain"],
             "99999999999999999999"),
    data_row("--beads with an empty item", GOOD_CSV, ["--beads '1,,2': an empty entry"],
             "1,,2"),
    data_row("--beads with a bead twice", GOOD_CSV, ["--beads: 3 is given twice"],
             "3,3"),
    ("--pair that is not two names", [*COMPARE_HERTZ, "--pair", "steel"], {}, 2,
     ["--pair 'steel' is not two names A.B"]),
    ("--pair naming an undefined material", [*COMPARE_HERTZ, "--pair", "steel.brass"], {}, 2,
     ["contact.steel.brass.law", "'brass'", "neither a material"]),
    ("Newton reference for a case of several models",
     ["compare", "{case}", "--laws", "hertz", "--reference", "newton", "--set",
      "contact.steel.steel.restitution=0.5"], {}, 2,
     ["--reference newton takes one restitution", "[contact.steel.steel]"]),
    ("reference quantity without reference data",
     [*COMPARE_HERTZ, "--reference-quantity", "force"], {}, 2,
     ["--reference-quantity is given without --reference-data"]),
    ("compare threads 0", [*COMPARE_HERTZ, "--threads", "0"], {}, 2,
     ["--threads: 0 ", "out of range", "allowed 1 to 1024"]),
    ("compare threads -3", [*COMPARE_HERTZ, "--threads", "-3"], {}, 2,
     ["--threads: -3", "out of range", "allowed 1 to 1024"]),
    ("compare threads 100000", [*COMPARE_HERTZ, "--threads", "100000"], {}, 2,
     ["--threads: 100000", "out of range", "allowed 1 to 1024"]),
]

TABLE = COMPARE


class MalformedCompare(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_compare_rows(self):
        self.assertGreaterEqual(len(COMPARE), 10)

    def test_good_rows_pass(self):
        """The inputs the rows spoil are valid as they are: each row fails for its own cell."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "ref.csv"), "w") as f:
                f.write(GOOD_CSV)
            r = subprocess.run([CHAINDEM, "compare", CASE, "--laws", "hertz", "--reference-data",
                                "ref.csv", "-o", "cmp.h5", "--set", "simulation.duration=2e-4",
                                "--beads", "0,19"], cwd=tmp, capture_output=True, text=True,
                               timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    main()
