#!/usr/bin/python3
"""`chaindem table`: the table of a sweep, a comparison and a run, as CSV and JSON, against the
file read with h5py.

Run by ctest with Debian's /usr/bin/python3 (h5py, numpy):
    test_table.py CHAINDEM_BINARY SOURCE_DIR
"""
import csv
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import h5py

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")


# The units of the layout as H5MD's units module writes them (SI, base units, signed powers).
H5MD_FORM = {"": "", "s": "s", "m": "m", "ns": "ns", "m/s": "m s-1", "N": "kg m s-2",
             "J": "kg m+2 s-2"}


def table(path, *options):
    r = subprocess.run([CHAINDEM, "table", path, *options], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def agree(json_value, value):
    """A JSON number and the file's: exactly equal, NaN written as null."""
    return (json_value is None and math.isnan(value)) or json_value == value


def same(cell, value):
    """A printed cell and the file's value: numbers read back exactly (NaN as nan)."""
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        return cell == value
    x = float(cell)
    return (math.isnan(x) and math.isnan(value)) or x == value


class Table(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp_dir = tempfile.TemporaryDirectory()
        tmp = cls.tmp_dir.name
        cls.sweep = os.path.join(tmp, "sweep.h5")
        sweep_ini = os.path.join(tmp, "sweep.ini")
        with open(sweep_ini, "w") as f:
            f.write(f"[sweep]\nbase = {CASE}\n[set]\nsimulation.duration = 2e-4\n"
                    "[axes]\ncontact.restitution = 0.5, 0.9\nstriker.velocity = 0.5, 1\n")
        subprocess.run([CHAINDEM, "sweep", sweep_ini, "-o", cls.sweep], check=True,
                       capture_output=True)
        cls.compare = os.path.join(tmp, "compare.h5")
        subprocess.run([CHAINDEM, "compare", CASE, "--laws", "hertz,hunt_crossley", "--reference",
                        "edem_hertz_mindlin", "--set", "simulation.duration=2e-4", "-o",
                        cls.compare], check=True, capture_output=True)
        cls.run_file = os.path.join(tmp, "run.h5")
        subprocess.run([CHAINDEM, "run", CASE, "-q", "-o", cls.run_file, "--set",
                        "simulation.duration=2e-4"], check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp_dir.cleanup()

    def test_sweep_rows_are_its_cases(self):
        rows = list(csv.DictReader(io.StringIO(table(self.sweep, "--csv"))))
        self.assertEqual(len(rows), 4)
        header = list(rows[0])
        self.assertEqual(header[:4],
                         ["case", "contact.restitution", "striker.velocity [m s-1]", "status"])
        with h5py.File(self.sweep, "r") as f:
            s = f["summary"]
            columns = [name for name in s if s[name].ndim == 1]
            self.assertEqual(len(header), len(columns))
            for name in header:
                key = name.split(" [")[0]
                for k, row in enumerate(rows):
                    self.assertTrue(same(row[name], s[key][k]), (name, k, row[name], s[key][k]))

    def test_comparison_rows_are_its_errors(self):
        result = json.loads(table(self.compare, "--json"))
        rows = result["rows"]
        self.assertEqual(result["units"]["error"], "%")
        with h5py.File(self.compare, "r") as f:
            c = f["comparison"]
            laws = list(c.attrs["laws"])
            beads = c["peak_velocity"].shape[1]
            self.assertEqual(len(rows), len(laws) * 4 * (beads + 1))
            for row in rows:
                law, metric = laws.index(row["law"]), row["metric"]
                if row["bead"] == "mean":
                    self.assertTrue(agree(row["error"], c[metric + "_mean_error_percent"][law]))
                    continue
                b = row["bead"]
                self.assertTrue(agree(row["value"], c[metric][law, b]))
                self.assertTrue(agree(row["reference"], c["reference_" + metric][b]))
                self.assertEqual(row["unit"], c[metric].attrs["unit"].decode())
                self.assertTrue(agree(row["error"], c[metric + "_error_percent"][law, b]))

    def test_run_rows_are_its_summary(self):
        rows = list(csv.reader(io.StringIO(table(self.run_file, "--csv"))))
        self.assertEqual(rows[0], ["quantity", "value"])
        with h5py.File(self.run_file, "r") as f:
            attrs = f["summary"].attrs
            self.assertEqual(len(rows) - 1, len(attrs))
            for name, value in rows[1:]:
                self.assertTrue(same(value, attrs[name]), (name, value, attrs[name]))

    def test_summary_datasets_carry_their_units(self):
        """Every /summary dataset of a run and of a sweep has the unit the output layout declares
        (none for counts, ratios and indices); a sweep's numeric axes have their keys' units."""
        sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
        from chaindem_post import layout
        declared = dict(layout.SUMMARY_ARRAYS)
        declared.update({name: unit for name, (unit, _) in layout.SUMMARY_SCALARS.items()})
        declared.update({"contact.restitution": "", "striker.velocity": "m/s", "case": ""})
        checked = 0
        for path in (self.run_file, self.sweep):
            with h5py.File(path, "r") as f:
                for name, d in f["summary"].items():
                    if not isinstance(d, h5py.Dataset) or d.dtype.kind not in "fiu":
                        continue
                    unit = H5MD_FORM[declared[name]]
                    self.assertEqual(d.attrs.get("unit", b"").decode(), unit, (path, name))
                    checked += 1
        self.assertGreater(checked, 25)

    def test_text_is_aligned_with_units(self):
        lines = table(self.compare).splitlines()
        self.assertIn("error [%]", lines[0])
        self.assertEqual(len({len(line) for line in lines}), 1)  # every column padded
        self.assertTrue(all(line.startswith(("hertz", "hunt_crossley")) for line in lines[1:]))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
