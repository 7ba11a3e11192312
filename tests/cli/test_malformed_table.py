#!/usr/bin/python3
"""Malformed input of `table`: files that hold no table, and its options.

    test_malformed_table.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import unittest

from malformed_harness import CASE_TEXT, check_rows, main

TABLE = [
    ("table of a missing file", ["table", "none.h5"], {}, 2, ["'none.h5'", "does not exist"]),
    ("table of a case file", ["table", "case.ini"], {"case.ini": CASE_TEXT}, 2,
     ["'case.ini' is not an HDF5 file"]),
    ("table of an HDF5 file without a table", ["table", "empty.h5"],
     {"empty.h5": b"\x89HDF\r\n\x1a\n" + bytes(200)}, 2, ["empty.h5"]),
    ("table without a file", ["table"], {}, 2, ["missing FILE.h5"]),
    ("table of two files", ["table", "a.h5", "b.h5"], {}, 2, ["give one file, not 2"]),
    ("table in two formats", ["table", "a.h5", "--csv", "--json"], {}, 2,
     ["--csv and --json cannot both be given"]),
]


class MalformedTable(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)


if __name__ == "__main__":
    main()
