#!/usr/bin/python3
"""Malformed input of driven walls and chains held between walls: motions that cannot be
followed, keys of another kind of motion, tables that do not cover the run, slider-cranks whose
rod cannot reach; and driven end loads, their keys and tables likewise.

    test_malformed_driven.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import os

from malformed_harness import SOURCE, check_rows, main
import unittest

with open(os.path.join(SOURCE, "cases", "driven_chain.ini")) as _f:
    DRIVEN = _f.read()
with open(os.path.join(SOURCE, "cases", "slotted_joint.ini")) as _f:
    SLOTTED = _f.read()


def driven_row(name, sets, fragments, files=None):
    """A row of `run` on cases/driven_chain.ini (copied beside its files) with overrides."""
    args = ["run", "d.ini", "-o", "out.h5"]
    for kv in sets:
        args += ["--set", kv]
    return (name, args, {"d.ini": DRIVEN, **(files or {})}, 2, fragments)


TABLE_TEXT = "t,x\n0,0\n0.004,1e-9\n0.008,0\n0.012,-1e-9\n"

DRIVEN_WALLS = [
    driven_row("amplitude without harmonic motion", ["wall_start.motion=constant"],
               ["wall_start.amplitude", "belongs to wall_start.motion = harmonic",
                "constant"]),
    driven_row("harmonic motion without amplitude",
               ["wall_end.motion=harmonic", "wall_end.frequency=1000"],
               ["wall_end.amplitude", "is missing"]),
    driven_row("fewer frequencies than amplitudes", ["wall_start.amplitude=1e-9 2e-9"],
               ["wall_start.frequency", "1 values for 2 amplitudes"]),
    driven_row("phases not one per term", ["wall_start.phase=0 1"],
               ["wall_start.phase", "2 values for 1 amplitude"]),
    driven_row("frequency of zero", ["wall_start.frequency=0"],
               ["wall_start.frequency", "(0, 1e+12]"]),
    driven_row("negative ramp", ["wall_start.ramp=-1"], ["wall_start.ramp", "[0, 1e+06]"]),
    driven_row("amplitude of a kilometre", ["wall_start.amplitude=1e3"],
               ["wall_start.amplitude", "[-1, 1]"]),
    driven_row("another word of motion", ["wall_start.motion=sine"],
               ["wall_start.motion", "constant, harmonic, table"]),
    driven_row("drive faster than any body", ["wall_start.frequency=1e12"],
               ["wall_start.amplitude", "wall_start.frequency", "6.283e+04 m/s", "10000 m/s"]),
    driven_row("given step over half a drive period",
               ["simulation.time_step=1e-6", "wall_start.frequency=7.3e5"],
               ["simulation.time_step", "half the period", "wall_start.frequency",
                "at most 6.849e-07 s"]),
    driven_row("table given to harmonic motion", ["wall_start.table=drive.csv"],
               ["wall_start.table", "belongs to wall_start.motion = table"]),
]


TO_TABLE = ["--unset", "wall_start.amplitude", "--unset", "wall_start.frequency",
            "--unset", "wall_start.ramp", "--set", "wall_start.motion=table"]


def table_row(name, text, fragments, table="drive.csv"):
    """A row of `run` on the driven chain whose wall_start follows `table`, drive.csv = `text`
    (None: no such file)."""
    args = ["run", "d.ini", "-o", "out.h5", *TO_TABLE, "--set", f"wall_start.table={table}"]
    files = {"d.ini": DRIVEN, **({} if text is None else {"drive.csv": text})}
    return (name, args, files, 2, ["wall_start.table", f"'{table}'", *fragments])


DRIVE_TABLES = [
    table_row("table shorter than the run", TABLE_TEXT.replace("0.012", "0.009"),
              ["ends at t = 0.009 s", "simulation.duration = 0.01 s"]),
    table_row("table not starting at t = 0", "t,x\n0.001,0\n0.004,0\n0.008,0\n0.02,0\n",
              ["starts at t = 0.001 s"]),
    table_row("table not starting at x = 0", "t,x\n0,1e-9\n0.004,0\n0.008,0\n0.02,0\n",
              ["x = 1e-09 m at t = 0"]),
    table_row("table times going back", "t,x\n0,0\n0.004,0\n0.003,0\n0.02,0\n",
              ["line 4", "t = 0.003 s does not follow 0.004 s"]),
    table_row("table without an x column", "t,y\n0,0\n0.02,0\n", ["no column x"]),
    table_row("table with a word for a number", "t,x\n0,0\n0.004,abc\n0.02,0\n",
              ["line 3", "column 2", "'abc' is not a number"]),
    table_row("table of three samples for makima", "t,x\n0,0\n0.01,0\n0.02,0\n",
              ["3 samples", "at least 4"]),
    table_row("table in feet", "t [s],x [ft]\n0,0\n0.004,0\n0.008,0\n0.02,0\n",
              ["unknown unit 'ft'", "m, mm, um"]),
    table_row("table of infinite displacement", "t,x\n0,0\n0.004,inf\n0.008,0\n0.02,0\n",
              ["line 3", "not finite"]),
    table_row("table that is binary", "\x00\x01\x02", ["not a text file"]),
    table_row("table file missing", None, ["does not exist"], table="none.csv"),
    table_row("table with two time columns", "t,time,x\n0,0,0\n0.02,0.02,0\n",
              ["columns 1 and 2 both hold the time"]),
    table_row("table jumping 100 m in a millisecond",
              "t,x\n0,0\n0.001,100\n0.002,0\n0.02,0\n", ["10000 m/s", "too far apart"]),
    table_row("table of a displacement of 1e300 m",
              "t,x\n0,0\n0.001,1e300\n0.002,0\n0.02,0\n", ["10000 m/s"]),
    ("table named empty", ["run", "d.ini", "-o", "out.h5", *TO_TABLE, "--set", "wall_start.table="],
     {"d.ini": DRIVEN}, 2, ["wall_start.table", "is empty"]),
    ("output over the table", ["run", "d.ini", "-o", "drive.csv", "--force", *TO_TABLE,
                               "--set", "wall_start.table=drive.csv"],
     {"d.ini": DRIVEN, "drive.csv": TABLE_TEXT.replace("0.012", "0.02")}, 2,
     ["'drive.csv'", "would replace it"]),
    table_row("table that is a directory", None, ["is a directory"], table="."),
    ("table motion without a table", ["run", "d.ini", "-o", "out.h5", *TO_TABLE],
     {"d.ini": DRIVEN}, 2, ["wall_start.table", "is missing"]),
]

HELD_BY_WALLS = [
    driven_row("held by walls without static overlap", ["chain.static_overlap=false"],
               ["chain.held_by", "= walls needs chain.static_overlap = true"]),
    driven_row("held by walls with one wall", ["wall_end.enabled=false"],
               ["chain.held_by", "both walls"]),
    driven_row("held by walls with a striker",
               ["striker.enabled=true", "striker.velocity=0.1"],
               ["chain.held_by", "striker"]),
    driven_row("held by another word", ["chain.held_by=springs"],
               ["chain.held_by", "load, walls"]),
]


def crank_row(name, args, fragments):
    """A row of `run` on cases/slotted_joint.ini (slider-crank walls) with these arguments."""
    return (name, ["run", "s.ini", "-o", "out.h5", *args], {"s.ini": SLOTTED}, 2, fragments)


SLIDER_CRANKS = [
    crank_row("rod no longer than the crank", ["--set", "wall_start.rod_length=0.04"],
              ["wall_start.rod_length", ": 0.04 m does not reach the line of stroke",
               "wall_start.crank_radius + |wall_start.crank_offset| = 0.04 m"]),
    crank_row("crank offset beyond the rod's reach", ["--set", "wall_end.crank_offset=0.03"],
              ["wall_end.rod_length", "longer than", "= 0.07 m"]),
    crank_row("slider-crank without a crank radius", ["--unset", "wall_start.crank_radius"],
              ["wall_start.crank_radius", "is missing (slider_crank motion needs it)"]),
    crank_row("slider-crank without a crank speed", ["--unset", "wall_end.crank_speed"],
              ["wall_end.crank_speed", "is missing"]),
    crank_row("slider-crank without a rod", ["--unset", "wall_start.rod_length"],
              ["wall_start.rod_length", "is missing"]),
    crank_row("crank radius of zero", ["--set", "wall_start.crank_radius=0"],
              ["wall_start.crank_radius", "(0, 10]"]),
    crank_row("crank faster than any drive", ["--set", "wall_start.crank_speed=1e9"],
              ["wall_start.crank_speed", "[-1e+07, 1e+07]"]),
    crank_row("crank turning the wall past 10 km/s", ["--set", "wall_start.crank_speed=1e6"],
              ["wall_start.crank_speed", "with wall_start.crank_radius and wall_start.rod_length",
               "beyond 10000 m/s"]),
    crank_row("crank angle of many turns", ["--set", "wall_end.crank_angle=1e5"],
              ["wall_end.crank_angle", "[-3600, 3600]"]),
    crank_row("crank angle in words", ["--set", "wall_end.crank_angle=north"],
              ["wall_end.crank_angle", "'north'"]),
    crank_row("crank offset of kilometres", ["--set", "wall_start.crank_offset=2e3"],
              ["wall_start.crank_offset", "[-10, 10]"]),
    crank_row("slider on another side", ["--set", "wall_start.slider_side=left"],
              ["wall_start.slider_side", "+x, -x"]),
    crank_row("crank keys under table motion",
              ["--set", "wall_end.motion=table", "--set", "wall_end.table=drive.csv"],
              ["wall_end.crank_radius", "belongs to wall_end.motion = slider_crank",
               "the wall's motion is table"]),
    driven_row("crank radius under harmonic motion", ["wall_start.crank_radius=0.01"],
               ["wall_start.crank_radius", "belongs to wall_start.motion = slider_crank"]),
    driven_row("slider side under harmonic motion", ["wall_start.slider_side=-x"],
               ["wall_start.slider_side", "belongs to wall_start.motion = slider_crank"]),
]

# Four steel beads pressed by 20 N against wall_start, the load driven by harmonics.
LOADED = """[simulation]
duration = 0.01

[contact]
law = hertz

[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800

[chain]
count = 4
materials = steel
radii = 0.005
end_force = 20
static_overlap = true
end_force_motion = harmonic
end_force_amplitude = 2
end_force_frequency = 500
end_force_ramp = 0.002

[striker]
enabled = false

[wall_start]
enabled = true
material = steel
"""

LOAD_TABLE = "t,F\n0,0\n0.004,1\n0.008,0\n0.012,-1\n"
LOAD_TO_TABLE = ["--unset", "chain.end_force_amplitude", "--unset", "chain.end_force_frequency",
                 "--unset", "chain.end_force_ramp", "--set", "chain.end_force_motion=table",
                 "--set", "chain.end_force_table=load.csv"]


def load_row(name, args, fragments, table=None):
    """A row of `run` on the loaded chain with `args` (overrides), load.csv = `table` if given."""
    files = {"l.ini": LOADED, **({} if table is None else {"load.csv": table})}
    return (name, ["run", "l.ini", "-o", "out.h5", *args], files, 2, fragments)


DRIVEN_LOADS = [
    load_row("load amplitude without harmonic load",
             ["--set", "chain.end_force_motion=constant"],
             ["chain.end_force_amplitude", "belongs to chain.end_force_motion = harmonic",
              "the load's motion is constant"]),
    load_row("harmonic load without amplitude", ["--unset", "chain.end_force_amplitude"],
             ["chain.end_force_amplitude", "is missing"]),
    load_row("fewer load frequencies than amplitudes",
             ["--set", "chain.end_force_amplitude=1 2"],
             ["chain.end_force_frequency", "1 values for 2 amplitudes"]),
    load_row("load driven by a slider-crank", ["--set", "chain.end_force_motion=slider_crank"],
             ["chain.end_force_motion", "constant, harmonic, table"]),
    load_row("load frequency of zero", ["--set", "chain.end_force_frequency=0"],
             ["chain.end_force_frequency", "(0, 1e+12]"]),
    load_row("given step over half a load period",
             ["--set", "simulation.time_step=1e-6", "--set", "chain.end_force_frequency=7.3e5"],
             ["simulation.time_step", "half the period", "chain.end_force_frequency",
              "at most 6.849e-07 s"]),
    load_row("driven load held by walls",
             ["--set", "chain.held_by=walls", "--set", "wall_end.enabled=true",
              "--set", "wall_end.material=steel"],
             ["chain.end_force_motion", "chain.held_by = walls", "applies none"]),
    load_row("load table given to harmonic load", ["--set", "chain.end_force_table=load.csv"],
             ["chain.end_force_table", "belongs to chain.end_force_motion = table"], LOAD_TABLE),
    load_row("load table shorter than the run", LOAD_TO_TABLE,
             ["chain.end_force_table", "'load.csv'", "ends at t = 0.009 s",
              "simulation.duration = 0.01 s"], LOAD_TABLE.replace("0.012", "0.009")),
    load_row("load table not starting at F = 0", LOAD_TO_TABLE,
             ["chain.end_force_table", "F = 1 N at t = 0", "chain.end_force"],
             "t,F\n0,1\n0.004,0\n0.008,0\n0.02,0\n"),
    load_row("load table without an F column", LOAD_TO_TABLE,
             ["chain.end_force_table", "no column F", "t [s] and F [N]"], "t,x\n0,0\n0.02,0\n"),
    load_row("load table in pounds", LOAD_TO_TABLE,
             ["chain.end_force_table", "unknown unit 'lbf'", "N, kN, mN"],
             "t,F [lbf]\n0,0\n0.02,0\n"),
    load_row("load table that does not exist", LOAD_TO_TABLE,
             ["chain.end_force_table", "'load.csv'", "does not exist"]),
    load_row("load table with makima and three samples", LOAD_TO_TABLE,
             ["chain.end_force_table", "has 3 samples", "makima interpolation needs at least 4"],
             "t,F\n0,0\n0.01,1\n0.02,0\n"),
]

TABLE = DRIVEN_WALLS + DRIVE_TABLES + HELD_BY_WALLS + SLIDER_CRANKS + DRIVEN_LOADS


class MalformedDriven(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)


if __name__ == "__main__":
    main()
