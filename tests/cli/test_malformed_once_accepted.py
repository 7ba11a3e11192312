#!/usr/bin/python3
"""Input once accepted without a word, or refused blaming the wrong key or saying what is not
so.

    test_malformed_once_accepted.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import os
import subprocess
import tempfile
import unittest

import h5py

from malformed_harness import (BODIES, CASE, CASE_TEXT, CHAINDEM, COMPARE_HERTZ, GOOD_CSV, HEADER,
                               SPEEDS, check_rows, csv_row, data_row, main, run_row, sweep_file)


def case_with(old, new):
    """The shipped default case as case.ini, its line `old` replaced by `new`."""
    assert old in CASE_TEXT
    return {"case.ini": CASE_TEXT.replace(old, new)}


RADII = "radii = 0.005              # m"
RESTITUTION = "velocity,restitution\n1,0.8\n2,0.7\n3,0.65\n4,0.6\n"


def fit_row(name, csv, options, fragments):
    """A row of `fit` of impact data `csv` as d.csv against steel spheres on a steel wall."""
    return (name, ["fit", "--data", "d.csv", *options, *BODIES], {"d.csv": csv}, 2,
            fragments)


ACCEPTED = [
    # Lists longer than the chain, or patterns cut short at its end.
    run_row("3 radii for 2 beads", ["chain.count=2", "chain.radii=0.005,0.01,0.02"], 2,
            ["--set chain.radii: 3 entries for a chain of 2 beads", "allowed 1 to 2 entries"]),
    ("a million radii for 20 beads", ["run", "case.ini", "-o", "out.h5"],
     case_with(RADII, "radii = " + ", ".join(["0.005"] * 1000000)), 2,
     ["case.ini: chain.radii: 1000000 entries for a chain of 20 beads", "allowed 1 to 20"]),
    run_row("3 materials for 2 beads", ["chain.count=2", "chain.materials=steel,steel,steel"], 2,
            ["--set chain.materials: 3 entries for a chain of 2 beads", "allowed 1 to 2"]),
    run_row("initial frame without an initial file", ["initial.frame=3"], 2,
            ["--set initial.frame: is 3, but initial.file is not given",
             "give initial.file, or leave initial.frame out"]),
    # Numbers are decimal, one way everywhere.
    run_row("hexadecimal bead count", ["chain.count=0x14"], 2,
            ["--set chain.count: '0x14' is not a number", "allowed [1, 5e+07]"]),
    ("hexadecimal bead count in the case file", ["run", "case.ini", "-o", "out.h5"],
     case_with("count = 20", "count = 0x14"), 2,
     ["case.ini: chain.count: '0x14' is not a number"]),
    run_row("hexadecimal radius of an extra particle",
            ["extra.particles=steel 0x1p-8 0 1 0 0 0 0"], 2,
            ["extra.particles", "'0x1p-8' is not a number"]),
    ("hexadecimal range of a sweep axis", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:0x10:1")}, 2,
     ["axes.chain.gap", "stop '0x10' is not a number"]),
    run_row("speed below a double's range", ["striker.velocity=1e-400"], 2,
            ["--set striker.velocity: '1e-400' is below the range of a double",
             "allowed (0, 10000] m/s"]),
    run_row("a subnormal striker speed is a speed", ["striker.velocity=5e-324"], 2,
            ["--set striker.velocity: sets the case's largest relative speed, 4.94e-324 m/s"]),
    # Keys that change nothing in a sweep.
    ("sweep axis over the output file", ["sweep", "s.ini"],
     {"s.ini": sweep_file("output.file = a.h5, b.h5")}, 2,
     ["s.ini [axes] output.file: the key changes nothing in a sweep", "sweep.output, or -o"]),
    ("sweep axis over the checkpoint interval", ["sweep", "s.ini"],
     {"s.ini": sweep_file("output.checkpoint_interval = 1, 2")}, 2,
     ["s.ini [axes] output.checkpoint_interval: the key changes nothing in a sweep",
      "--checkpoint-interval"]),
    ("sweep with threads per case", ["sweep", "s.ini"],
     {"s.ini": sweep_file("striker.velocity = 0.5, 1", keys="simulation.threads = 2")}, 2,
     ["s.ini [set] simulation.threads: the key changes nothing in a sweep", "one thread"]),
    ("sweep --set of the output file", ["sweep", "s.ini", "--set", "output.file=x.h5"], SPEEDS,
     2, ["--set output.file: the key changes nothing in a sweep"]),
    ("sweep without XDMF files", ["sweep", "s.ini", "--set", "output.xdmf=false"], SPEEDS,
     2, ["--set output.xdmf: the key changes nothing in a sweep", "no XDMF file"]),
    # Comma lists: no empty entry.
    ("compare laws with a trailing comma", [*COMPARE_HERTZ[:3], "hertz,", *COMPARE_HERTZ[4:]],
     {}, 2, ["--laws 'hertz,': an empty entry"]),
    fit_row("fit laws with a trailing comma", RESTITUTION, ["--laws", "hunt_crossley,"],
            ["--laws 'hunt_crossley,': an empty entry"]),
    fit_row("fit free parameters with an empty entry", RESTITUTION,
            ["--laws", "hunt_crossley", "--free", "restitution,,restitution"],
            ["--free 'restitution,,restitution': an empty entry"]),
    data_row("reference data of one row", HEADER + csv_row(0),
             ["has 1 data row within the run", "at least two"]),
    ("compare --set of the law", [*COMPARE_HERTZ, "--set", "contact.law=tsuji"], {}, 2,
     ["--set contact.law: compare sets it", "--laws"]),
    # The key that makes the contact duration absurd, with its value.
    run_row("density of 1e-300", ["material.steel.density=1e-300"], 2,
            ["--set material.steel.density: 1e-300 kg/m^3 is not the density of a solid",
             "1 to 1e6 kg/m^3"]),
    run_row("density of 1e300", ["material.steel.density=1e300"], 2,
            ["--set material.steel.density: 1e+300 kg/m^3", "longer than the run"]),
    run_row("striker at 1e-300 m/s", ["striker.velocity=1e-300"], 2,
            ["--set striker.velocity: sets the case's largest relative speed, 1e-300 m/s",
             "at least 1e-06 m/s", "simulation.time_step"]),
    run_row("gravity of 1e300", ["gravity.acceleration=1e300 0 0"], 2,
            ["--set gravity.acceleration: |g| = 1e+300 m/s^2", "beyond 10000 m/s",
             "allowed |g| up to 1e+07 m/s^2"]),
    run_row("Young's modulus in GPa", ["material.steel.youngs_modulus=200"], 2,
            ["--set material.steel.youngs_modulus: 200 Pa is not the Young's modulus of a solid",
             "in Pa", "1e4 to 1e13 Pa"]),
    ("case without a striker velocity", ["run", "{case}", "-o", "out.h5", "--unset",
                                         "striker.velocity"], {}, 2,
     ["simulation.time_step: cannot be chosen automatically", "nothing in the case moves",
      "striker.velocity", "simulation.time_step > 0"]),
    # Sweep keys blamed on the sweep file's section, not on --set.
    ("sweep key in [set] and [axes]", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.count = 4, 5", keys="chain.count = 3")}, 2,
     ["s.ini [set] and s.ini [axes]: chain.count is given in both"]),
    ("sweep key in [axes] and --set", ["sweep", "s.ini", "--set", "striker.velocity=2"],
     SPEEDS, 2, ["--set and s.ini [axes]: striker.velocity is given in both"]),
    ("sweep key given twice with --set", ["sweep", "s.ini", "--set", "chain.count=4",
                                          "--set", "chain.count=5"],
     SPEEDS, 2, ["--set and --set: chain.count is given in both"]),
    ("sweep [set] value out of range", ["sweep", "s.ini"],
     {"s.ini": sweep_file("striker.velocity = 0.5, 1", keys="chain.count = 0")}, 2,
     ["case 0 (striker.velocity=0.5): s.ini [set] chain.count: 0 is out of range"]),
    ("sweep [set] key unknown", ["sweep", "s.ini"],
     {"s.ini": sweep_file("striker.velocity = 0.5, 1", keys="chain.cont = 3")}, 2,
     ["s.ini [set]: unknown key 'chain.cont'"]),
    ("sweep file given to run", ["run", "s.ini", "-o", "out.h5"], SPEEDS, 2,
     ["s.ini is a sweep file", "`chaindem sweep s.ini` runs it"]),
    ("case file given to sweep", ["sweep", "case.ini"], {"case.ini": CASE_TEXT}, 2,
     ["case.ini is a case file, not a sweep file", "`chaindem run case.ini` runs it"]),
    # What the message says is so.
    fit_row("fit uncertainty of 1e-300", "velocity,restitution,sigma\n1,0.8,1e-300\n"
            "2,0.7,0.01\n3,0.65,0.01\n4,0.6,0.01\n", ["--laws", "hunt_crossley"],
            ["d.csv:2: sigma 1e-300 is out of range: allowed [1e-30, 1e+30]"]),
    fit_row("fit peak force of 1e300 N", "velocity,peak_force\n1,1e300\n2,2e3\n3,3e3\n4,4e3\n",
            ["--laws", "tsuji"], ["d.csv:2: peak_force", "1e+300 is out of range",
                                  "allowed (0, 1e+30] N"]),
    fit_row("fit --set of the law", RESTITUTION,
            ["--laws", "hunt_crossley", "--set", "contact.law=hertz"],
            ["--set contact.law: the laws to fit are chosen by --laws or --family"]),
    ("fit of a chain with an uncertainty of 1e-300",
     ["fit", "--case", "{case}", "--data", "ref.csv", "--laws", "hertz", "--sigma", "1e-300"],
     {"ref.csv": GOOD_CSV}, 2, ["--sigma: 1e-300 is out of range: allowed [1e-30, 1e+30]"]),
]

TABLE = ACCEPTED


class MalformedOnceAccepted(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_subnormal_values_are_numbers(self):
        """A value below the normal doubles (5e-324) is a number like any other: read and run."""
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([CHAINDEM, "run", CASE, "-o", "out.h5", "--set", "chain.gap=5e-324",
                                "--set", "simulation.duration=2e-5"], cwd=tmp,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(os.path.join(tmp, "out.h5"), "r") as f:
                self.assertEqual(f["parameters"].attrs["chain.gap"], "5e-324")


if __name__ == "__main__":
    main()
