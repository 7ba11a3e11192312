#!/usr/bin/python3
"""The tables of malformed input together: the rows of every test_malformed_AREA.py beside this
one (its TABLE, run by malformed_harness.check_rows) have names of their own, and there are
enough of them. Prints the count of rows of each area.

    test_malformed_tables.py CHAINDEM_BINARY SOURCE_DIR
"""
import collections
import glob
import importlib
import os
import unittest

from malformed_harness import main

HERE = os.path.dirname(os.path.abspath(__file__))
AREAS = sorted(os.path.basename(path)[:-3]
               for path in glob.glob(os.path.join(HERE, "test_malformed_*.py"))
               if os.path.basename(path) != "test_malformed_tables.py")
TABLES = {area: getattr(importlib.import_module(area), "TABLE", []) for area in AREAS}


class MalformedTables(unittest.TestCase):
    def test_table_is_large_enough(self):
        self.assertGreaterEqual(sum(len(rows) for rows in TABLES.values()), 60)

    def test_row_names_are_unique(self):
        """A name says which row failed: it names one row of one area."""
        areas = collections.defaultdict(list)
        for area, rows in TABLES.items():
            for row in rows:
                areas[row[0]].append(area)
        self.assertEqual({name: where for name, where in areas.items() if len(where) > 1}, {},
                         "row names must be unique")


if __name__ == "__main__":
    for area, rows in TABLES.items():
        print(f"{area}: {len(rows)} rows")
    print(f"{sum(len(rows) for rows in TABLES.values())} rows in {len(TABLES)} files")
    main()
