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
import io
import os
import re
import resource
import stat
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

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


def sweep_file(axes, keys="", combine="grid"):
    """A sweep of the shipped default case, shortened, with these [set] keys and [axes]."""
    return (f"[sweep]\nbase = {CASE}\ncombine = {combine}\n\n"
            f"[set]\nsimulation.duration = 1e-5\n{keys}\n\n[axes]\n{axes}\n")


SPEEDS = {"s.ini": sweep_file("striker.velocity = 0.5, 1")}
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

# `collide`: the two bodies and the impact, every number and the options that cannot be
# given together.
COLLIDE = [
    collide_row("Poisson ratio 0.9", {"poisson-ratio": "0.9"},
                ["--poisson-ratio: 0.9 is out of range", "(-1, 0.5]"]),
    collide_row("Poisson ratio -1", {"poisson-ratio": "-1"},
                ["--poisson-ratio: -1 is out of range", "(-1, 0.5]"]),
    collide_row("Poisson ratio of body 2 NaN", {"poisson-ratio2": "nan"},
                ["--poisson-ratio2: 'nan' is not finite"]),
    collide_row("wall and a mass for body 2", {**MASSES, "wall": True, "mass2": "2"},
                ["--wall and --mass2 cannot both be given", "rigid, fixed plane"]),
    collide_row("wall and a radius for body 2", {"wall": True, "radius2": "0.01"},
                ["--wall and --radius2 cannot both be given"]),
    collide_row("NaN velocity", {"velocity": "nan"}, ["--velocity: 'nan' is not finite"]),
    collide_row("infinite velocity", {"velocity": "inf"}, ["--velocity: 'inf' is not finite"]),
    collide_row("velocity of 1e300 m/s", {"velocity": "1e300"},
                ["--velocity: 1e+300 is out of range", "(0, 10000] m/s"]),
    collide_row("negative velocity", {"velocity": "-1"},
                ["--velocity: -1 is out of range", "(0, 10000] m/s"]),
    collide_row("no velocity", {"velocity": None}, ["--velocity is missing", "(0, 10000] m/s"]),
    collide_row("collide radius of 1e-300 m", {"radius": "1e-300"},
                ["--radius: 1e-300 is out of range", "[1e-09, 1000] m"]),
    collide_row("infinite radius of body 2", {"radius2": "inf"},
                ["--radius2: 'inf' is not finite"]),
    collide_row("NaN mass", {**MASSES, "wall": True, "mass": "nan"},
                ["--mass: 'nan' is not finite"]),
    collide_row("negative mass of body 2", {**MASSES, "mass2": "-2"},
                ["--mass2: -2 is out of range", "(0, inf) kg"]),
    collide_row("infinite stiffness", {**MASSES, "wall": True, "stiffness": "inf"},
                ["--stiffness: 'inf' is not finite"]),
    collide_row("zero stiffness", {**MASSES, "wall": True, "stiffness": "0"},
                ["--stiffness: 0 is out of range for law 'hertz'", "(0, inf)"]),
    collide_row("Young's modulus 0", {"youngs-modulus": "0"},
                ["--youngs-modulus: 0 is out of range", "(0, inf) Pa"]),
    collide_row("Young's modulus of body 2 -inf", {"youngs-modulus2": "-inf"},
                ["--youngs-modulus2: '-inf' is not finite"]),
    collide_row("negative density", {"density": "-7800"},
                ["--density: -7800 is out of range", "(0, inf) kg/m^3"]),
    collide_row("density whose mass overflows", {"radius": "1000", "density": "1e300"},
                ["--density", "body 1", "mass of inf kg"]),
    collide_row("NaN yield stress", {"yield-stress": "nan"},
                ["--yield-stress: 'nan' is not finite"]),
    collide_row("negative yield stress of body 2", {"yield-stress2": "-1e9"},
                ["--yield-stress2: -1e+09 is out of range", "(0, inf) Pa"]),
    collide_row("NaN restitution", {"restitution": "nan"}, ["--restitution: 'nan' is not finite"],
                law="hunt_crossley"),
    collide_row("restitution 1.5", {"restitution": "1.5"},
                ["--restitution: 1.5 is out of range for law 'hunt_crossley'", "[0, 1]"],
                law="hunt_crossley"),
    collide_row("--set restitution=inf", {"set": "restitution=inf"},
                ["--set restitution: 'inf' is not finite"], law="hunt_crossley"),
    collide_row("--set value with trailing text", {"set": "restitution=0.5abc"},
                ["--set restitution: '0.5abc' is not a number"], law="hunt_crossley"),
    collide_row("--set key with a control character", {"set": "\x1b[2J=1"},
                ["--set '\\x1B[2J'", "the key holds a control character (\\x1B)"]),
    collide_row("stiffness given twice", {**MASSES, "wall": True, "set": "stiffness=2e9"},
                ["--set stiffness and --stiffness both give stiffness"]),
    collide_row("NaN length", {"length": "nan"}, ["--length: 'nan' is not finite"]),
    collide_row("negative length", {"length": "-0.01"}, ["--length: -0.01 is out of range"]),
    collide_row("NaN reference velocity", {"impact-velocity": "reference",
                                           "reference-velocity": "nan", "restitution": "0.5"},
                ["--reference-velocity: 'nan' is not finite"], law="hunt_crossley"),
    collide_row("mass and density of body 1", {**MASSES, "wall": True, "density": "7800"},
                ["--mass and --density cannot both be given"]),
    collide_row("dimensionless frame and a velocity",
                {**{k: None for k in ("radius", "youngs-modulus", "poisson-ratio", "density")},
                 "dimensionless": True}, ["--dimensionless and --velocity cannot both be given"]),
    collide_row("Young's modulus without Poisson ratio", {"poisson-ratio": None},
                ["--poisson-ratio is missing", "(-1, 0.5]"]),
    collide_row("Poisson ratio without Young's modulus",
                {**MASSES, "wall": True, "poisson-ratio": "0.3"},
                ["--poisson-ratio is given without --youngs-modulus"]),
    collide_row("masses too large for the integration", {**MASSES, "mass": "1e300",
                                                         "mass2": "1e300"},
                ["too far apart for the integration", "inf kg effective mass"]),
]

# `compare`: laws, reference data and options.
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

# Inputs of the output rows, copied into the row's directory: the shipped case, a sweep over it,
# measured data for it (time, then one column per chain bead).
with open(CASE) as _f:
    CASE_TEXT = _f.read()
SWEEP_TEXT = "[sweep]\nbase = case.ini\n[axes]\ncontact.restitution = 0.5, 0.6\n"
REFERENCE_CSV = "time," + ",".join(f"b{k}" for k in range(20)) + "\n" + "".join(
    f"{t}e-5," + ",".join("0.1" for _ in range(20)) + "\n" for t in range(3))
COLLIDE_ARGS = ["collide", "--law", "hertz", "--mass", "1", "--wall", "--stiffness", "1e9",
                "--velocity", "1"]
COMPARE_ARGS = ["compare", "case.ini", "--laws", "hertz", "--reference", "edem_hertz_mindlin"]
WITH_CASE = {"case.ini": CASE_TEXT}
WITH_SWEEP = {"case.ini": CASE_TEXT, "sweep.ini": SWEEP_TEXT}

# Output paths: never replace what is not a regular file, nor an input.
OUTPUT = [
    ("run -o a directory", ["run", "case.ini", "-o", "."], WITH_CASE, 2,
     ["output '.' is a directory"]),
    ("run -o a device", ["run", "case.ini", "-o", "/dev/null"], WITH_CASE, 2,
     ["output '/dev/null' is a character device"]),
    ("run -o the case file", ["run", "case.ini", "-o", "case.ini"], WITH_CASE, 2,
     ["output 'case.ini' is the input 'case.ini'"]),
    ("run -o the case file, spelled otherwise", ["run", "case.ini", "-o", "./case.ini"],
     WITH_CASE, 2, ["output './case.ini' is the input 'case.ini'"]),
    ("run -o in a missing directory", ["run", "case.ini", "-o", "missing/out.h5"], WITH_CASE, 2,
     ["output 'missing/out.h5'", "'missing' does not exist"]),
    ("run -o NAME.xdmf: the XDMF file beside it has its name", ["run", "case.ini", "-o", "a.xdmf"],
     WITH_CASE, 2, ["output 'a.xdmf'", "XDMF file"]),
    ("run: the XDMF file beside the output is the case file", ["run", "run.xdmf", "-o", "run.h5"],
     {"run.xdmf": CASE_TEXT}, 2, ["output 'run.xdmf' is the input 'run.xdmf'"]),
    ("collide -o a directory", COLLIDE_ARGS + ["-o", "."], {}, 2,
     ["chaindem collide: invalid output: output '.' is a directory"]),
    ("collide -o a device", COLLIDE_ARGS + ["-o", "/dev/null"], {}, 2,
     ["output '/dev/null' is a character device"]),
    ("collide -o in a missing directory", COLLIDE_ARGS + ["-o", "missing/c.h5"], {}, 2,
     ["'missing' does not exist"]),
    ("compare -o the case file", COMPARE_ARGS + ["-o", "case.ini"], WITH_CASE, 2,
     ["chaindem compare: invalid output: output 'case.ini' is the input 'case.ini'"]),
    ("compare -o the reference data",
     ["compare", "case.ini", "--laws", "hertz", "--reference-data", "ref.csv", "-o", "ref.csv"],
     {"case.ini": CASE_TEXT, "ref.csv": REFERENCE_CSV}, 2,
     ["output 'ref.csv' is the input 'ref.csv'"]),
    ("compare -o a directory", COMPARE_ARGS + ["-o", "."], WITH_CASE, 2,
     ["output '.' is a directory"]),
    ("compare -o a device", COMPARE_ARGS + ["-o", "/dev/null"], WITH_CASE, 2,
     ["output '/dev/null' is a character device"]),
    ("sweep -o a directory", ["sweep", "sweep.ini", "-o", "."], WITH_SWEEP, 2,
     ["chaindem sweep: invalid output: output '.' is a directory"]),
    ("sweep -o the sweep file", ["sweep", "sweep.ini", "-o", "sweep.ini"], WITH_SWEEP, 2,
     ["output 'sweep.ini' is the input 'sweep.ini'"]),
    ("sweep -o its base case", ["sweep", "sweep.ini", "-o", "case.ini"], WITH_SWEEP, 2,
     ["output 'case.ini' is the input"]),
    ("sweep -o in a missing directory", ["sweep", "sweep.ini", "-o", "missing/s.h5"], WITH_SWEEP,
     2, ["'missing' does not exist"]),
]


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
                ["line 6 (body 4)", "overlaps body 3", "reaches a radius"]),
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


# Messages: what they quote of the input never acts on the terminal, and reads as it was given
# where it is text (UTF-8); numbers they compute are short; a file named by mistake is quoted by
# an excerpt of its first line, and named.
ESC = "\x1b[2J"  # "clear the screen", as a terminal obeys it
SHOWN = "\\x1B[2J"  # as a message shows it
BODIES = ["--radius", "0.005", "--youngs-modulus", "2e11", "--poisson-ratio", "0.3",
          "--density", "7800", "--wall"]
PASSWD_LINE = ("root:x:0:0:root:/root:/bin/bash:" * 16)[:500]
PASSWD = {"pw": PASSWD_LINE + "\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"}
EXCERPT = "'root:x:0:0:root:/root:/bin/bash:...'"  # its first 32 characters
SWEEP_OF_ESC = f"[sweep]\nbase = {ESC}base.ini\n"
MESSAGES = [
    ("-o with a control character", ["run", "{case}", "-o", ESC + "/o.h5"], {}, 2,
     [f"output '{SHOWN}/o.h5': the directory '{SHOWN}' does not exist"]),
    ("case file name with a control character", ["run", ESC + "c.ini", "-o", "out.h5"],
     {ESC + "c.ini": CASE_TEXT.replace("count = 20", "count = 0")}, 2,
     [f"{SHOWN}c.ini: chain.count: 0 is out of range"]),
    ("missing case file with a control character", ["run", ESC + "none.ini"], {}, 2,
     [f"cannot read case file '{SHOWN}none.ini'"]),
    ("case file name not UTF-8", ["run", "\udcff.ini"], {}, 2,
     ["cannot read case file '\\xFF.ini'"]),
    ("case file name in UTF-8", ["run", "\u00b5.ini"], {}, 2,
     ["cannot read case file '\u00b5.ini'"]),
    ("sweep file name with a control character", ["sweep", ESC + "s.ini"],
     {ESC + "s.ini": SWEEP_OF_ESC.replace(f"base = {ESC}base.ini", "combine = mixed")}, 2,
     [f"{SHOWN}s.ini: sweep.combine: 'mixed' is not grid or zip"]),
    ("missing sweep file with a control character", ["sweep", ESC + "none.ini"], {}, 2,
     [f"cannot read sweep file '{SHOWN}none.ini'"]),
    ("sweep base with a control character", ["sweep", "s.ini"], {"s.ini": SWEEP_OF_ESC}, 2,
     ["cannot read case file '", f"{SHOWN}base.ini'"]),
    ("sweep value with a control character", ["sweep", "s.ini"],
     {"s.ini": f"[sweep]\nbase = {CASE}\ncombine = {ESC}\n"}, 2,
     [f"sweep.combine: '{SHOWN}' is not grid or zip"]),
    ("sweep axis with a control character", ["sweep", "s.ini"],
     {"s.ini": f"[sweep]\nbase = {CASE}\n[axes]\nchain.{ESC} = 1, 2\n"}, 2,
     [f"s.ini [axes] 'chain.{SHOWN}': the key holds a control character (\\x1B)"]),
    ("sweep line with a control character", ["sweep", "s.ini"],
     {"s.ini": f"[sweep]\nbase = {CASE}\n{ESC}\n"}, 2, [f"invalid line '{SHOWN}'"]),
    ("--unset with a control character", ["run", "{case}", "--unset", ESC + "x"], {}, 2,
     [f"--unset '{SHOWN}x': the key holds a control character (\\x1B)"]),
    ("compare --laws with a control character",
     ["compare", "{case}", "--laws", ESC + "hertz", "--reference", "hertz"], {}, 2,
     [f"--laws: '{SHOWN}hertz' is not a law of chaindem"]),
    ("compare --reference with a control character",
     ["compare", "{case}", "--laws", "hertz", "--reference", ESC + "hertz"], {}, 2,
     [f"--reference: '{SHOWN}hertz' is not a law of chaindem"]),
    ("compare --reference-data with a control character",
     ["compare", "{case}", "--laws", "hertz", "--reference-data", ESC + "r.csv"],
     {ESC + "r.csv": "time,b0\n0,fast\n"}, 2,
     [f"--reference-data '{SHOWN}r.csv', line 2, column 2 ('b0'): 'fast' is not a number"]),
    ("collide --velocity with a control character",
     ["collide", "--law", "hertz", *BODIES, "--velocity", ESC], {}, 2,
     [f"the argument ('{SHOWN}') for option '--velocity' is invalid"]),
    ("models of a law with a control character", ["models", ESC], {}, 2,
     [f"unknown law '{SHOWN}'"]),
    ("models of a law with a C1 control character", ["models", "\u009b2J"], {}, 2,
     ["unknown law '\\xC2\\x9B2J'"]),
    ("models of a law that reverses the text", ["models", "hertz\u202e"], {}, 2,
     ["unknown law 'hertz\\xE2\\x80\\xAE'"]),
    ("unknown command with a control character", [ESC], {}, 2,
     [f"unknown command '{SHOWN}'"]),
    ("unknown option with a control character", ["run", "{case}", "--" + ESC], {}, 2,
     [f"unrecognised option '--{SHOWN}'"]),
    ("option value with a control character", ["sweep", "s.ini", "--threads", ESC], {}, 2,
     [f"the argument ('{SHOWN}') for option '--threads' is invalid"]),
    ("fit --data with a control character", ["fit", "--data", ESC + "d.csv", "--laws", "hertz",
                                             *BODIES], {}, 2,
     [f"--data: cannot read '{SHOWN}d.csv'"]),
    initial_row("initial.file in UTF-8", None, ["initial.file: '\u00b5.csv' does not exist"],
                file="\u00b5.csv"),
    # Numbers a message computes, in short scientific form (no run of 20 digits: the harness).
    run_row("run of 1e300 s", ["simulation.duration=1e300"], 2,
            ["--set simulation.duration: needs 2.092e+306 steps of", "at most 1e12 allowed"]),
    run_row("time step of 1e-300 s", ["simulation.time_step=1e-300"], 2,
            ["--set simulation.time_step: needs 1e+297 steps of 1e-300 s"]),
    run_row("1e300 steps per contact", ["simulation.steps_per_contact=1e300"], 2,
            ["simulation.duration: needs ", "e+301 steps of", "s (automatic)"]),
    run_row("Young's modulus of 1e300 Pa", ["material.steel.youngs_modulus=1e300"], 2,
            ["material.steel.youngs_modulus: 1e+300 Pa", "would need 6.31e+118 steps"]),
    run_row("end force of 1e300 N", ["chain.end_force=1e300"], 2,
            ["simulation.duration: needs ", " steps of ", "s (automatic)"]),
    run_row("end force of 1e300 N held by a static overlap",
            ["chain.end_force=1e300", "chain.static_overlap=true"], 2,
            ["chain.overlap: overlap 2.65", "e+193 m reaches a bead radius: allowed below 0.005 m"]),
    run_row("chain overlap of 1e300 m", ["chain.overlap=1e300"], 2,
            ["--set chain.overlap: overlap 1e+300 m reaches a bead radius: allowed below 0.005 m"]),
    # A file named by mistake (here a password file): its name, and 32 characters of its line.
    initial_row("initial.file that is a password file", PASSWD["pw"],
                ["'pw', line 1, column 1", "unknown column " + EXCERPT], file="pw"),
    ("sweep base that is a password file", ["sweep", "s.ini"],
     {**PASSWD, "s.ini": "[sweep]\nbase = pw\n"}, 2,
     ["pw: the options configuration file contains an invalid line " + EXCERPT]),
    ("fit data that is a password file", ["fit", "--data", "pw", "--laws", "hertz", *BODIES],
     PASSWD, 2, ["pw:1: unknown column " + EXCERPT]),
    ("compare reference data that is a password file",
     ["compare", "{case}", "--laws", "hertz", "--reference-data", "pw"], PASSWD, 2,
     ["--reference-data 'pw', line 1, column 1 (" + EXCERPT + ")"]),
]

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


# Input once accepted without a word, or refused blaming the wrong key or saying what is not so.
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
    ("sweep key in [set] and --set", ["sweep", "s.ini", "--set", "simulation.duration=2e-5"],
     SPEEDS, 2, ["s.ini [set] and --set: simulation.duration is given in both"]),
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


def failed(row):
    """The same row, for a run that starts and fails (exit status 1)."""
    name, args, files, _, fragments = row
    return (name, args, files, 1, fragments)


THROUGH_BEAD = ["particles 0 and 1 (the striker and bead 0) overlap by a radius or more at step ",
                "s), where no contact law holds", "striker.velocity", "simulation.time_step"]
COLLIDE_TOO_DEEP = ["the overlap reaches", "a radius (0.005 m) or more", "--velocity",
                    "--youngs-modulus"]
UNRESOLVED = ["the integration did not resolve the contact", "a larger restitution"]
NOT_FINITE = ["not finite numbers", "impulse", "nearer to those of real bodies"]
TOO_MANY_STEPS = ["the impact did not end within 1e+06 integration steps", "less damping"]

# Bodies that go through one another: a run on either engine stops where an overlap reaches a
# radius, and so does `collide`, which also stops on results that are not finite numbers, a
# contact its integration did not resolve, or one without any force.
TOO_DEEP = [
    run_row("striker through bead 0 on the general engine",
            ["striker.velocity=10000", "simulation.engine=general", "simulation.duration=2e-5"], 1,
            THROUGH_BEAD),
    run_row("striker through bead 0 on the chain engine",
            ["striker.velocity=10000", "simulation.engine=chain", "simulation.duration=2e-5"], 1,
            THROUGH_BEAD),
    run_row("extra sphere through the end wall",
            ["extra.particles=steel 0.005 0.15 0.05 0 10000 0 0", "simulation.duration=2e-5"], 1,
            ["particle 21 (extra sphere 0) overlaps wall wall_end by its radius or more at step ",
             "where no contact law holds"]),
    failed(collide_row("Young's modulus 1e-300", {"youngs-modulus": "1e-300"},
                       COLLIDE_TOO_DEEP)),
    failed(collide_row("steel spheres of 5 mm at 10000 m/s", {"velocity": "10000"},
                       COLLIDE_TOO_DEEP)),
    failed(collide_row("steel sphere of 5 mm on a wall at 10000 m/s",
                       {"velocity": "10000", "wall": True}, COLLIDE_TOO_DEEP)),
    failed(collide_row("hysteresis restitution 1e-100", {"restitution": "1e-100"}, UNRESOLVED,
                       law="zhang_sharf")),
    failed(collide_row("viscous restitution 1e-100", {"restitution": "1e-100"}, UNRESOLVED,
                       law="jankowski_viscous")),
    failed(collide_row("dashpot on a mass of 1e-100 kg",
                       {**MASSES, "wall": True, "mass": "1e-100",
                        "set": "damping_coefficient=10"}, UNRESOLVED, law="kelvin_voigt")),
    failed(collide_row("Young's modulus 1e300 on spheres of 1000 m at 1e-6 m/s",
                       {"youngs-modulus": "1e300", "radius": "1000", "velocity": "1e-6",
                        "restitution": "0.5"}, NOT_FINITE, law="tsuji")),
    failed(collide_row("elastoplastic spheres of Young's modulus 1e300",
                       {"youngs-modulus": "1e300", "velocity": "1e-6", "yield-stress": "1e9"},
                       NOT_FINITE, law="thornton_1997")),
    failed(collide_row("mass of 1e100 kg on a spring of 1e9 N/m at 1e-6 m/s",
                       {**MASSES, "wall": True, "mass": "1e100", "velocity": "1e-6",
                        "restitution": "0.5"}, NOT_FINITE, law="anagnostopoulos_skrinjar")),
    failed(collide_row("cylinders in a bore of clearance 1e300 m",
                       {"set": "clearance=1e300", "length": "0.01"},
                       ["the contact gave no force", "`chaindem models hertz_cylindrical`"],
                       law="hertz_cylindrical")),
    # Impacts whose steps grow ever shorter ran for minutes; they stop after a million steps.
    failed(collide_row("plastic hysteresis of restitution 1e-8",
                       {"wall": True, "restitution": "1e-8"}, TOO_MANY_STEPS,
                       law="lankarani_nikravesh_plastic")),
    failed(collide_row("Jackson-Green hardness ratio 1e100",
                       {"wall": True, "yield-stress": "4e8", "set": "hardness_ratio=1e100"},
                       TOO_MANY_STEPS, law="jackson_green_2005")),
]

# Keys and values given apart from a case file's lines (--set, --unset, a sweep's [set] and
# [axes], fit's --set): each becomes a line `key=value` of the case, so none may hold a line
# break or a control character, nor its key '=', '#', ';', '[', ']' or a blank, which would make
# lines, sections or keys of their own; nor its value '#', which would cut it short.
KEY_RULE = "a key is section.name, without '=', '#', ';', '[', ']', blanks or control characters"
IMPACTS_CSV = "velocity,restitution\n0.1,0.9\n0.2,0.85\n0.4,0.8\n"
FIT_IMPACTS = ["fit", "--data", "d.csv", "--laws", "kuwabara_kono", "--mass", "1", "--wall",
               "--set", "stiffness=1e9"]


def key_row(name, args, files, where, key, what):
    """A row refusing `key` (as the message quotes it) given by `where` (--set, s.ini [axes])
    for holding `what`."""
    return (name, args, files, 2, [f"{where} '{key}': the key holds {what}", KEY_RULE])


def value_row(name, args, files, where, key, value, what):
    """A row refusing the value `value` (as quoted) of `key` given by `where`."""
    return (name, args, files, 2, [f"{where} '{key}': the value '{value}'", what])


INJECTION = [
    value_row("--set value that adds a section and a key",
              ["run", "{case}", "-o", "o.h5", "--set",
               "simulation.duration=1e-5\n[chain]\ncount=3"], {}, "--set",
              "simulation.duration", "1e-5\\x0A[chain]\\x0Acount=3",
              "is not text: it holds a line break (\\x0A)"),
    value_row("--set value with a carriage return", ["run", "{case}", "-o", "o.h5", "--set",
                                                     "chain.count=3\rchain.count=4"], {},
              "--set", "chain.count", "3\\x0Dchain.count=4", "a line break (\\x0D)"),
    value_row("--set value with a vertical tab", ["run", "{case}", "-o", "o.h5", "--set",
                                                  "output.file=a\vb.h5"], {}, "--set",
              "output.file", "a\\x0Bb.h5", "a control character (\\x0B)"),
    value_row("--set value cut short by a comment", ["run", "{case}", "-o", "o.h5", "--set",
                                                     "output.file=run#3.h5"], {}, "--set",
              "output.file", "run#3.h5", "holds '#', which begins a comment"),
    key_row("--set key with a comment", ["run", "{case}", "-o", "o.h5", "--set",
                                         "simulation.duration#x=2e-5"], {}, "--set",
            "simulation.duration#x", "'#'"),
    key_row("--set key with a blank", ["run", "{case}", "-o", "o.h5", "--set",
                                       "simulation.duration 2=2e-5"], {}, "--set",
            "simulation.duration 2", "a blank"),
    key_row("--set key that opens a section", ["run", "{case}", "-o", "o.h5", "--set",
                                               "[chain]count=3"], {}, "--set", "[chain]count",
            "'['"),
    key_row("--set key with a semicolon", ["run", "{case}", "-o", "o.h5", "--set",
                                           "chain;count=3"], {}, "--set", "chain;count", "';'"),
    key_row("--set key with a line break", ["run", "{case}", "-o", "o.h5", "--set",
                                            "simulation.duration\nchain.count=3"], {}, "--set",
            "simulation.duration\\x0Achain.count", "a line break (\\x0A)"),
    key_row("--unset key with a line break", ["run", "{case}", "-o", "o.h5", "--unset",
                                              "striker.velocity\n[chain]"], {}, "--unset",
            "striker.velocity\\x0A[chain]", "a line break (\\x0A)"),
    key_row("--unset key with '='", ["run", "{case}", "-o", "o.h5", "--unset",
                                     "chain.count=3"], {}, "--unset", "chain.count=3", "'='"),
    value_row("compare --set value with a line break",
              COMPARE_HERTZ + ["-o", "c.h5", "--set", "chain.count=3\n[x]"], {}, "--set",
              "chain.count", "3\\x0A[x]", "a line break (\\x0A)"),
    key_row("sweep --set key with a line break", ["sweep", "s.ini", "--set",
                                                  "chain.count\n[x]=3"], SPEEDS, "--set",
            "chain.count\\x0A[x]", "a line break (\\x0A)"),
    key_row("sweep file [set] key with a blank", ["sweep", "s.ini"],
            {"s.ini": sweep_file("striker.velocity = 0.5, 1", "chain count = 3")},
            "s.ini [set]", "chain count", "a blank"),
    key_row("sweep file [axes] key with a semicolon", ["sweep", "s.ini"],
            {"s.ini": sweep_file("chain;count = 3, 4")}, "s.ini [axes]", "chain;count", "';'"),
    key_row("sweep file [axes] key with a bracket", ["sweep", "s.ini"],
            {"s.ini": sweep_file("chain.count] = 3, 4")}, "s.ini [axes]", "chain.count]",
            "']'"),
    value_row("sweep file [set] value with an escape", ["sweep", "s.ini"],
              {"s.ini": sweep_file("striker.velocity = 0.5, 1",
                                   "contact.law = hertz\x1b[2J")},
              "s.ini [set]", "contact.law", "hertz\\x1B[2J", "a control character (\\x1B)"),
    key_row("fit --set key with a line break", FIT_IMPACTS + ["--set", "eta1\n=1"],
            {"d.csv": IMPACTS_CSV}, "--set", "eta1\\x0A", "a line break (\\x0A)"),
    key_row("fit --start key with '['", FIT_IMPACTS + ["--start", "eta1[0]=1"],
            {"d.csv": IMPACTS_CSV}, "--start", "eta1[0]", "'['"),
    value_row("fit --case --set value with a line break",
              ["fit", "--case", "{case}", "--data", "r.csv", "--laws", "hertz", "--set",
               "simulation.duration=1e-5\n[chain]\ncount=3"], {"r.csv": REFERENCE_CSV}, "--set",
              "simulation.duration", "1e-5\\x0A[chain]\\x0Acount=3", "a line break (\\x0A)"),
    key_row("collide --set key with a blank", COLLIDE_ARGS + ["--set", "restitution 2=0.5"], {},
            "--set", "restitution 2", "a blank"),
]

# Text that shows as nothing or as another text: escaped, so that a message does not name a key
# that looks like the one the user meant; and an empty -o, which is no output file.
INVISIBLE = [
    run_row("a key that begins with a byte-order mark", ["\ufeffchain.count=3"], 2,
            ["unknown key '\\xEF\\xBB\\xBFchain.count'"]),
    run_row("a value that ends in a line separator", ["chain.count=3\u2028"], 2,
            ["'3\\xE2\\x80\\xA8' is not a number"]),
    run_row("a key with a zero-width space", ["chain.\u200bcount=3"], 2,
            ["'chain.\\xE2\\x80\\x8Bcount'"]),
    ("run -o empty", ["run", "{case}", "-o", ""], {}, 2, ["-o is empty"]),
]

TABLE = (RUN + SWEEP + COLLIDE + COMPARE + OUTPUT + INITIAL + MESSAGES + ACCEPTED + TOO_DEEP
         + INJECTION + INVISIBLE)


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
        self.assertGreaterEqual(len(TABLE), 60)

    def test_output_rows(self):
        self.assertGreaterEqual(len(OUTPUT), 10)

    def test_subnormal_values_are_numbers(self):
        """A value below the normal doubles (5e-324) is a number like any other: read and run."""
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([CHAINDEM, "run", CASE, "-o", "out.h5", "--set", "chain.gap=5e-324",
                                "--set", "simulation.duration=2e-5"], cwd=tmp,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(os.path.join(tmp, "out.h5"), "r") as f:
                self.assertEqual(f["parameters"].attrs["chain.gap"], "5e-324")

    def test_initial_state_rows(self):
        self.assertGreaterEqual(len(INITIAL), 8)

    def test_collide_and_compare_rows(self):
        self.assertGreaterEqual(len(COLLIDE), 12)
        self.assertGreaterEqual(len(COMPARE), 10)

    def test_good_rows_pass(self):
        """The inputs the rows spoil are valid as they are: each row fails for its own cell."""
        with tempfile.TemporaryDirectory() as tmp:
            for args in (collide_row("", {}, [])[1], collide_row("", {**MASSES, "wall": True}, [])[1]):
                r = subprocess.run([CHAINDEM, *args], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(r.returncode, 0, f"{args}\n{r.stderr}")
            with open(os.path.join(tmp, "ref.csv"), "w") as f:
                f.write(GOOD_CSV)
            r = subprocess.run([CHAINDEM, "compare", CASE, "--laws", "hertz", "--reference-data",
                                "ref.csv", "-o", "cmp.h5", "--set", "simulation.duration=2e-4",
                                "--beads", "0,19"], cwd=tmp, capture_output=True, text=True,
                               timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
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

    def test_device_output_is_not_replaced(self):
        """The table sees only its own directory: here, that /dev/null is still a device."""
        commands = {
            "run": ["run", "case.ini"],
            "collide": COLLIDE_ARGS,
            "compare": COMPARE_ARGS,
            "sweep": ["sweep", "sweep.ini"],
        }
        for name, args in commands.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                for file, text in WITH_SWEEP.items():
                    with open(os.path.join(tmp, file), "w") as f:
                        f.write(text)
                r = subprocess.run([CHAINDEM, *args, "-o", "/dev/null"], cwd=tmp,
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("'/dev/null' is a character device", r.stderr)
                self.assertTrue(stat.S_ISCHR(os.stat("/dev/null").st_mode))
                for leftover in ("/dev/null.partial", "/dev/null.xdmf", "/dev/null.xdmf.partial"):
                    self.assertFalse(os.path.lexists(leftover), leftover)

    def test_password_file_is_quoted_by_an_excerpt(self):
        """A file named as input by mistake: the message names it and quotes a short excerpt of
        its first line, never the line."""
        rows = [row for row in MESSAGES if "password file" in row[0]]
        self.assertEqual(len(rows), 4)
        for name, args, files, _, fragments in rows:
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                for file, text in files.items():
                    with open(os.path.join(tmp, file), "w") as f:
                        f.write(text)
                argv = [a.format(case=CASE, src=SOURCE) for a in args]
                r = subprocess.run([CHAINDEM, *argv], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                for fragment in fragments:  # the file named, and the excerpt
                    self.assertIn(fragment, r.stderr)
                self.assertNotIn(PASSWD_LINE[:33], r.stderr)
                self.assertNotIn("daemon", r.stderr)
                self.assertLess(len(r.stderr), 400, r.stderr)

    def test_memory_running_out(self):
        """Under a limit of 1 GiB of address space (ulimit -v), a chain of 3 million beads
        (about 1.5 GB) cannot be built: the run failed (status 1, not 2, which says the input
        is wrong), memory ran out, and nothing is left behind."""
        def limited():
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        big = "chain.count=3000000"
        commands = {
            "run": ["run", CASE, "-o", "out.h5", "--set", big],
            "sweep": ["sweep", "s.ini", "-o", "s.h5"],
            "compare": ["compare", CASE, "--laws", "hertz", "--reference", "hunt_crossley",
                        "-o", "c.h5", "--set", big],
        }
        for name, args in commands.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as tmp:
                with open(os.path.join(tmp, "s.ini"), "w") as f:
                    f.write(f"[sweep]\nbase = {CASE}\n[set]\n{big.replace('=', ' = ')}\n")
                r = subprocess.run([CHAINDEM, *args], cwd=tmp, capture_output=True, text=True,
                                   timeout=300, preexec_fn=limited)
                self.assertEqual(r.returncode, 1, r.stderr)
                self.assertIn(f"chaindem{'' if name == 'run' else ' ' + name}: error: memory ran "
                              "out", r.stderr)
                self.assertNotIn("bad_alloc", r.stderr)
                self.assertEqual(os.listdir(tmp), ["s.ini"])

    def test_partial_path_that_is_not_a_file(self):
        """OUT.partial, which is written first, is checked as OUT is."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "case.ini"), "w") as f:
                f.write(CASE_TEXT)
            os.mkdir(os.path.join(tmp, "out.h5.partial"))
            r = subprocess.run([CHAINDEM, "run", "case.ini", "-o", "out.h5"], cwd=tmp,
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("'out.h5.partial', written first, is a directory", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), ["case.ini", "out.h5.partial"])

    # A FIFO given as an input file: opening it would wait for a writer that never comes. Each
    # is refused before it is opened, within the timeout, naming it.
    def refuses_fifo(self, args, files, fragment, fifo="f"):
        """`chaindem ARGS` in a directory with `files` and a FIFO named `fifo` exits 2 at once,
        its message holding `fragment` and "is a FIFO, not a regular file"."""
        with tempfile.TemporaryDirectory() as tmp:
            for file, content in files.items():
                with open(os.path.join(tmp, file), "w") as f:
                    f.write(content)
            os.mkfifo(os.path.join(tmp, fifo))
            before = sorted(os.listdir(tmp))
            argv = [a.format(case=CASE) for a in args]
            r = subprocess.run([CHAINDEM, *argv], cwd=tmp, capture_output=True, text=True,
                               timeout=30)
            self.assertEqual(r.returncode, 2, f"{argv}\n{r.stderr}")
            self.assertIn(fragment.format(tmp=os.path.realpath(tmp)) +
                          " is a FIFO, not a regular file", r.stderr)
            self.assertEqual(sorted(os.listdir(tmp)), before, "left files behind")

    def test_fifo_as_case_file(self):
        self.refuses_fifo(["run", "f", "-o", "o.h5"], {}, "case file 'f'")

    def test_fifo_as_sweep_file(self):
        self.refuses_fifo(["sweep", "f", "-o", "o.h5"], {}, "sweep file 'f'")

    def test_fifo_as_sweep_base(self):
        self.refuses_fifo(["sweep", "s.ini", "-o", "o.h5"],
                          {"s.ini": "[sweep]\nbase = f\n[axes]\nstriker.velocity = 0.5, 1\n"},
                          "s.ini: sweep.base: '{tmp}/f'")

    def test_fifo_as_compare_reference_data(self):
        self.refuses_fifo(COMPARE_HERTZ[:4] + ["--reference-data", "f", "-o", "c.h5"], {},
                          "--reference-data 'f'")

    def test_fifo_as_fit_data(self):
        self.refuses_fifo(["fit", "--data", "f", "--laws", "kuwabara_kono", "--mass", "1",
                           "--wall", "--set", "stiffness=1e9"], {}, "--data: 'f'")

    def test_fifo_as_fit_case(self):
        self.refuses_fifo(["fit", "--case", "f", "--data", "r.csv", "--laws", "kuwabara_kono"],
                          {"r.csv": REFERENCE_CSV}, "case file 'f'")

    def test_fifo_as_initial_state(self):
        self.refuses_fifo(["run", "case.ini", "-o", "o.h5", "--set", "initial.file=f"],
                          WITH_CASE, "--set initial.file: 'f'")

    def test_fifo_as_restart_checkpoint(self):
        self.refuses_fifo(["run", "case.ini", "-o", "o.h5", "--restart"], WITH_CASE,
                          "'o.h5.checkpoint' (a run's checkpoint, from which --restart continues "
                          "it)", fifo="o.h5.checkpoint")

    def test_stdout_quotes_paths(self):
        """The summary names its case and output as messages do: no control character."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "case.ini"), "w") as f:
                f.write(CASE_TEXT)
            r = subprocess.run([CHAINDEM, "run", "case.ini", "-o", "\x1b[2Jo.h5", "--set",
                                "simulation.duration=2e-5"], cwd=tmp, capture_output=True,
                               text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("-> \\x1B[2Jo.h5", r.stdout)
            self.assertFalse([c for c in r.stdout if ord(c) < 32 and c not in "\n\t"])

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
                # Numbers in short form: no run of digits longer than a double's exact text.
                self.assertIsNone(re.search(r"[0-9]{21,}", r.stderr), r.stderr)
                self.assertNotIn("nan", r.stdout.lower().split(), argv)
                self.assertEqual(digest(tmp), before, f"{argv} left files behind or changed one")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
