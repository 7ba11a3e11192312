#!/usr/bin/python3
"""Malformed input of `sweep`: axes, case counts, threads and observers, refused before any
case runs.

    test_malformed_sweep.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import unittest

from malformed_harness import SPEEDS, check_rows, main, sweep_file

GAPS_65536 = "".join(f"{key} = 0:65535e-9:1e-9\n" for key in
                     ("chain.gap", "chain.overlap", "striker.gap", "wall_end.gap"))
SWEEP_THREADS = ["--threads", "out of range", "allowed 1 to 1024"]

# `sweep`: axes, case counts, threads and observers, refused before any case runs.
SWEEP = [
    ("sweep threads 0", ["sweep", "s.ini", "--threads", "0"], SPEEDS, 2,
     SWEEP_THREADS + ["--threads: 0 "]),
    ("sweep threads -3", ["sweep", "s.ini", "--threads", "-3"], SPEEDS, 2,
     SWEEP_THREADS + ["-3"]),
    ("sweep threads 100000", ["sweep", "s.ini", "--threads", "100000"], SPEEDS, 2,
     SWEEP_THREADS + ["100000"]),
    ("sweep checkpoint interval 0", ["sweep", "s.ini", "--checkpoint-interval", "0"], SPEEDS, 2,
     ["--checkpoint-interval: 0 s is outside the allowed range 0.01 to 1e9 s"]),
    ("sweep checkpoint interval NaN", ["sweep", "s.ini", "--checkpoint-interval", "nan"], SPEEDS,
     2, ["--checkpoint-interval", "outside the allowed range"]),
    ("range with infinite stop", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:inf:1")}, 2,
     ["axes.chain.gap", "stop 'inf' is not finite"]),
    ("range with NaN start", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = nan:1:0.1")}, 2,
     ["axes.chain.gap", "start 'nan' is not finite"]),
    ("range beyond any integer", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:1e300:1e-300")}, 2,
     ["axes.chain.gap", "'0:1e300:1e-300'", "at most 100000 allowed per axis"]),
    ("list axis with a trailing comma", ["sweep", "s.ini"],
     {"s.ini": sweep_file("contact.restitution = 0.5,")}, 2,
     ["axes.contact.restitution", "an empty entry"]),
    ("list axis with a value given twice", ["sweep", "s.ini"],
     {"s.ini": sweep_file("contact.restitution = 0.5, 0.6, 0.5")}, 2,
     ["axes.contact.restitution", "'0.5' is given twice"]),
    ("range with zero step", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:1e-4:0")}, 2,
     ["axes.chain.gap", "step 0", "allowed > 0"]),
    ("range with negative step", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:1e-4:-1e-5")}, 2,
     ["axes.chain.gap", "step -1e-05", "allowed > 0"]),
    ("range stopping below its start", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 1e-4:0:1e-5")}, 2,
     ["axes.chain.gap", "stop 0 is below start 0.0001"]),
    ("range of two numbers", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:1e-4")}, 2,
     ["axes.chain.gap", "is not start:stop:step"]),
    ("range with a step below the digits", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.taper = 1:1.0000000000001:1e-16")}, 2,
     ["axes.chain.taper", "step 1e-16", "12 significant digits"]),
    ("range of a million values", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:1e-3:1e-9")}, 2,
     ["axes.chain.gap", "gives 1000001 values", "at most 100000 allowed per axis"]),
    ("list of 100001 values", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = " + ", ".join(f"{k}e-9" for k in range(100001)))}, 2,
     ["axes.chain.gap", "more than 100000 values", "at most 100000 allowed per axis"]),
    ("grid whose size wraps around", ["sweep", "s.ini"], {"s.ini": sweep_file(GAPS_65536)}, 2,
     ["65536 x 65536 x 65536 x 65536", "at most 100000 allowed per sweep"]),
    ("grid of 100489 cases", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0:316e-9:1e-9\nchain.overlap = 0:316e-9:1e-9")}, 2,
     ["317 x 317", "100489 cases", "at most 100000 allowed per sweep"]),
    ("zipped axes of unequal length", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0, 1e-5\nstriker.velocity = 1, 2, 3", combine="zip")},
     2, ["axes.striker.velocity", "3 values", "same count (2)"]),
    ("NaN in a list axis", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.gap = 0, nan, 1e-5")}, 2,
     ["axes.chain.gap", "'nan' is not finite"]),
    ("infinity in a list axis", ["sweep", "s.ini"],
     {"s.ini": sweep_file("striker.velocity = 1, inf")}, 2,
     ["axes.striker.velocity", "'inf' is not finite"]),
    ("minus infinity in a list axis", ["sweep", "s.ini"],
     {"s.ini": sweep_file("wall_start.velocity = -inf, 0")}, 2,
     ["axes.wall_start.velocity", "'-inf' is not finite"]),
    ("list value out of range", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.count = 5, 0")}, 2,
     ["axes.chain.count", "0 is out of range", "[1, 5e+07]"]),
    ("arrival bead beyond a case's chain", ["sweep", "s.ini"],
     {"s.ini": sweep_file("chain.count = 30, 10", keys="output.arrival_beads = 0 25")}, 2,
     ["case 1 (chain.count=10)", "output.arrival_beads", "bead 25", "chain of 10 beads"]),
    ("arrival bead before the chain, from --set", ["sweep", "s.ini", "--set",
                                                   "output.arrival_beads=-21"], SPEEDS, 2,
     ["case 0", "output.arrival_beads", "bead -21", "-1..-20 from the end"]),
    ("sweep output in a missing folder", ["sweep", "s.ini", "-o", "missing/out.h5"], SPEEDS, 2,
     ["invalid output", "missing/out.h5", "does not exist"]),
    ("sweep output below a regular file", ["sweep", "s.ini", "-o", "plain/out.h5"],
     {**SPEEDS, "plain": "not a folder\n"}, 2, ["invalid output", "'plain' is not a directory"]),
]



def keeping(keep):
    """The sweep of SPEEDS with its [sweep] key keep = `keep`."""
    text = SPEEDS["s.ini"].replace("combine = grid\n", f"combine = grid\nkeep = {keep}\n")
    return {"s.ini": text}


# `sweep`: what a sweep keeps (sweep.keep), one of three words.
SWEEP_KEEP = [
    ("sweep keep of another word", ["sweep", "s.ini"], keeping("all"), 2,
     ["s.ini", "sweep.keep", "'all' is not cases, table or stacked"]),
    ("sweep keep in capitals", ["sweep", "s.ini"], keeping("Table"), 2,
     ["sweep.keep", "'Table' is not cases, table or stacked"]),
    ("sweep keep empty", ["sweep", "s.ini"], keeping(""), 2,
     ["sweep.keep", "'' is not cases, table or stacked"]),
    ("sweep keep given twice", ["sweep", "s.ini"], keeping("table\nkeep = cases"), 2,
     ["key 'sweep.keep' is given twice"]),
]


def stacking(axes, keys="output.contacts = false"):
    """A sweep with keep = stacked over `axes`, with [set] `keys`."""
    return {"s.ini": sweep_file(axes, keys).replace("combine = grid\n",
                                                    "combine = grid\nkeep = stacked\n")}


# `sweep` with keep = stacked: its cases must have one shape, and no contacts.
SWEEP_STACKED = [
    ("stacked cases of two chain lengths", ["sweep", "s.ini"], stacking("chain.count = 10, 12"),
     2, ["case 1 (chain.count=12)", "sweep.keep = stacked", "13 particles, the first case 11",
         "keep = cases"]),
    ("stacked cases of two output intervals", ["sweep", "s.ini"],
     stacking("output.interval = 1e-6, 5e-6"), 2,
     ["case 1 (output.interval=5e-6)", "sweep.keep = stacked", "3 frames, the first case 11"]),
    ("stacked cases with and without a wall", ["sweep", "s.ini"],
     stacking("wall_end.enabled = true, false"), 2,
     ["case 1 (wall_end.enabled=false)", "its walls are ()", "(wall_end)"]),
    ("stacked cases of two compressions", ["sweep", "s.ini"],
     stacking("output.compression = gzip, none"), 2,
     ["case 1 (output.compression=none)", "output.compression"]),
    ("stacked cases of two bead selections", ["sweep", "s.ini"],
     stacking("output.beads = 0 1, 2 3"), 2,
     ["case 1 (output.beads=2 3)", "other quantities, particles or components"]),
    ("stacked cases writing contacts", ["sweep", "s.ini"],
     stacking("striker.velocity = 0.5, 1", keys=""), 2,
     ["case 0", "sweep.keep = stacked writes no contacts", "output.contacts = false"]),
]

# `sweep`: simulation.accuracy chooses the step of a run of its own, not of a sweep's cases.
SWEEP_ACCURACY = [
    ("sweep with an accuracy", ["sweep", "s.ini"],
     {"s.ini": sweep_file("striker.velocity = 0.5, 1", keys="simulation.accuracy = 1e-3")}, 2,
     ["case 0", "simulation.accuracy", "`chaindem sweep` runs its cases at the step they give"]),
]

TABLE = SWEEP + SWEEP_KEEP + SWEEP_STACKED + SWEEP_ACCURACY


class MalformedSweep(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)


if __name__ == "__main__":
    main()
