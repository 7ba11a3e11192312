#!/usr/bin/python3
"""Malformed input of `run`: the state of a run that cannot go on, settings that would give
no run, case files that are not text.

    test_malformed_run.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import io
import unittest

import h5py
import numpy as np

from malformed_harness import CASE_TEXT, check_rows, initial_row, main, run_row

# `run`: the state of a run that cannot go on, and settings that would give no run.
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

# Lists along the chain (chain.materials, chain.radii, chain.velocity), written compactly.
BEAD_LISTS = [
    run_row("unclosed group of materials", ["chain.materials=(steel steel"], 2,
            ["chain.materials", "has no closing ')'"]),
    run_row("repeat count of zero", ["chain.materials=steel*0"], 2,
            ["chain.materials", "'0' is not a repeat count", "1 to 50000000"]),
    run_row("pattern longer than the chain", ["chain.radii=0.005*21"], 2,
            ["chain.radii", "21 entries for a chain of 20 beads"]),
    run_row("pattern beyond the longest chain", ["chain.materials=(steel*10000 steel)*5000"], 2,
            ["chain.materials", "spans more than 50000000 beads"]),
    run_row("bead set apart beyond the chain", ["chain.materials=steel 20=steel"], 2,
            ["chain.materials", "bead 20 is not in a chain of 20 beads"]),
    run_row("bead set apart twice", ["chain.radii=0.005 19=0.004 -1=0.003"], 2,
            ["chain.radii", "bead 19 is set apart twice"]),
    run_row("material set apart that is not defined", ["chain.materials=steel 3=brass"], 2,
            ["chain.materials", "brass"]),
    run_row("radius set apart out of range", ["chain.radii=0.005 3=1e-300"], 2,
            ["chain.radii", "[1e-09, 1000] m"]),
    run_row("bead velocity of 1e5 m/s", ["chain.velocity=0 4=1e5"], 2,
            ["chain.velocity", "[-10000, 10000] m/s"]),
    run_row("bead velocity that is not a number", ["chain.velocity=fast"], 2,
            ["chain.velocity", "fast"]),
    run_row("bead velocities and a state from data", ["chain.velocity=1", "initial.file=s.csv"],
            2, ["chain.velocity", "initial.file", "gives every body's velocity"]),
]

# [contact.A.B] sections: a contact model per pair of materials and per wall.
CONTACT_PAIRS = [
    run_row("pair naming an undefined material", ["contact.steel.brass.restitution=0.5"], 2,
            ["contact.steel.brass.restitution", "'brass'", "neither a material", "(steel)"]),
    run_row("pair naming a wall the case does not enable",
            ["contact.wall_start.steel.restitution=0.5"], 2,
            ["contact.wall_start.steel.restitution", "wall_start", "does not enable"]),
    run_row("pair of two walls", ["wall_start.enabled=true", "wall_start.material=steel",
                                  "contact.wall_start.wall_end.restitution=0.5"], 2,
            ["contact.wall_start.wall_end", "two walls"]),
    run_row("one contact given twice", ["contact.steel.wall_end.restitution=0.5",
                                        "contact.wall_end.steel.restitution=0.6"], 2,
            ["[contact.wall_end.steel] and [contact.steel.wall_end] are the same contact"]),
    run_row("pair parameter its law does not take",
            ["contact.steel.steel.law=hertz", "contact.steel.steel.restitution=0.5"], 2,
            ["contact.steel.steel.restitution", "not a parameter of law 'hertz'"]),
    run_row("pair restitution out of range", ["contact.steel.steel.restitution=2"], 2,
            ["contact.steel.steel.restitution", "2"]),
    run_row("misspelt pair key", ["contact.steel.steel.restitutoin=0.5"], 2,
            ["unknown key", "contact.steel.steel.restitution"]),
    run_row("pair law that does not exist", ["contact.steel.steel.law=hertzz"], 2,
            ["contact.steel.steel.law", "not a law of chaindem", "hertz"]),
    run_row("pair impact-velocity floor", ["contact.impact_velocity=onset",
                                           "contact.steel.steel.law=hunt_crossley",
                                           "contact.steel.steel.impact_velocity_floor=0.5"], 2,
            ["contact.steel.steel.impact_velocity_floor", "one for the whole case",
             "contact.impact_velocity_floor"]),
    run_row("inherited value out of the pair law's range",
            ["contact.restitution=0", "contact.steel.steel.law=flores"], 2,
            ["--set contact.restitution", "out of range for law 'flores'"]),
    run_row("groups nested too deep", ["chain.materials=" + "(" * 65 + "steel" + ")" * 65], 2,
            ["chain.materials", "nested deeper than 64 levels"]),
]

# What the output holds and how much of it.
OUTPUT_CHOICE = [
    run_row("a quantity misspelt", ["output.quantities=velocity enrgies"], 2,
            ["--set output.quantities: 'enrgies' is not a quantity; did you mean 'energies'?",
             "allowed: all, energies, contacts, none, position"]),
    run_row("no frame, and some", ["output.quantities=none velocity"], 2,
            ["--set output.quantities", "'none' (no frame) stands alone"]),
    run_row("a bead beyond the chain", ["output.beads=0 20"], 2,
            ["--set output.beads: '20': bead 20 is not in the chain (0 to 19, or -1 to -20 "
             "from the end)"]),
    run_row("a range backwards", ["output.beads=10:2"], 2,
            ["output.beads: '10:2': bead 2 comes before bead 10"]),
    run_row("a step of zero", ["output.beads=0:-1:0"], 2,
            ["output.beads: '0:-1:0': the step 0 must be 1 or more"]),
    run_row("a word that names no bead", ["output.beads=first"], 2,
            ["output.beads: 'first' names no bead (allowed: all, striker"]),
    run_row("a range of four parts", ["output.beads=0:1:2:3"], 2,
            ["output.beads: '0:1:2:3' names no bead"]),
    run_row("the striker of a run without one", ["striker.enabled=false", "output.beads=striker"],
            2, ["output.beads: 'striker': the run has no striker"]),
    run_row("a group's interval between frames", ["output.particles_interval=3e-6"], 2,
            ["--set output.particles_interval: is 3e-06 s, not a whole number of output frames, "
             "which come every 2e-06 s (5 steps of 4e-07 s): give 2e-06 or 4e-06 s, or 0 for "
             "every frame"]),
    run_row("a group's interval below zero", ["output.contacts_interval=-1e-5"], 2,
            ["output.contacts_interval"]),
    run_row("x, y and z misspelt", ["output.dimension=xyz"], 2,
            ["output.dimension", "'xyz'", "auto, 3"]),
    run_row("an output over its budget", ["chain.count=5000", "output.max_file_size=1e6"], 2,
            ["--set output.max_file_size: is 1 MB, but the output would take up to"]),
    run_row("a budget below a megabyte", ["output.max_file_size=1000"], 2,
            ["output.max_file_size", "1e+06"]),
]

# output.compression: only the filters chaindem offers.
COMPRESSION = [
    run_row("compression chaindem does not offer", ["output.compression=zstd"], 2,
            ["output.compression", "'zstd'", "gzip, lzf, none"]),
    ("compression misspelt in the case file", ["run", "case.ini", "-o", "out.h5"],
     {"case.ini": CASE_TEXT + "compression = LZF\n"}, 2,
     ["case.ini", "output.compression", "'LZF'", "gzip, lzf, none"]),
]



def pressed_state(csv):
    """The default case's 21 bodies (the striker at 1 m/s, 20 beads of radius 5 mm 10 mm apart)
    with body 4 moved 1 mm towards body 3: they overlap by 1 mm, a fifth of the radius, a strain
    delta/R* = 0.001/0.0025 = 0.4. As CSV, or as a chaindem output (HDF5) of one frame."""
    x = 0.005 + 0.01 * np.arange(21)
    x[4] -= 0.001
    v = np.zeros(21)
    v[0] = 1.0
    if csv:
        return "x,vx\n" + "".join(f"{a!r},{b!r}\n" for a, b in zip(x, v))
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as f:
        chain = f.create_group("particles/chain")
        for name, value in (("position", x), ("velocity", v)):
            frames = np.zeros((1, 21, 3))
            frames[0, :, 0] = value
            chain.create_dataset(f"{name}/value", data=frames)
        chain["radius"] = np.full(21, 0.005)
        chain["species"] = np.zeros(21, dtype=np.int32)
        chain.attrs["species_names"] = ["steel"]
    return buffer.getvalue()


# Initial overlaps beyond delta/R* = 0.02 (R* = 2.5 mm for two beads of 5 mm, 5 mm against a
# wall): given, from data, or the static overlap of a load. Hertz: F = (4/3) E* sqrt(R*)
# delta^1.5, E* = E/(2 (1 - nu^2)) = 109.9 GPa for steel on steel, so 1e4 N presses two beads by
# 0.1231 mm (delta/R* = 0.0492), and delta/R* = 0.02 carries 2590 N.
INITIAL_OVERLAPS = [
    run_row("overlap of a fifth of the radius", ["chain.overlap=0.001"], 2,
            ["--set chain.overlap: overlap 0.001 m, a strain delta/R* = 0.4 of the contact's "
             "effective radius R* = 0.0025 m (beads 0 and 1)",
             "allowed delta/R* up to 0.02 (5e-05 m here)",
             "did you mean 0.001 mm = 1e-06 m? Case files are in SI units"]),
    run_row("overlap just beyond a strain of 0.02", ["chain.overlap=5.1e-5"], 2,
            ["--set chain.overlap: overlap 5.1e-05 m, a strain delta/R* = 0.0204",
             "allowed delta/R* up to 0.02 (5e-05 m here)"]),
    initial_row("state from CSV whose beads overlap by a fifth of the radius",
                pressed_state(csv=True),
                ["initial.file: 's.csv', line 6 (body 4) overlaps body 3 by 0.001 m, a strain "
                 "delta/R* = 0.4", "allowed delta/R* up to 0.02 (5e-05 m here)"]),
    initial_row("state from an output whose beads overlap by a fifth of the radius",
                pressed_state(csv=False),
                ["initial.file: 's.h5', frame 0, body 4 overlaps body 3 by 0.001 m, a strain "
                 "delta/R* = 0.4",
                 "allowed delta/R* up to 0.02 (5e-05 m here)"], file="s.h5"),
    run_row("static overlap of a load beyond the law's range",
            ["chain.static_overlap=true", "chain.end_force=1e4"], 2,
            ["--set chain.end_force: is 10000 N, held by the static overlap (chain.static_overlap) "
             "of beads 0 and 1, 0.0001231 m, a strain delta/R* = 0.0492",
             "the load is beyond the range of the contact law",
             "allowed delta/R* up to 0.02, a load of at most 2.59e+03 N here"]),
    # A soft wall (E = 1e8 Pa, nu = 0.3: E* = 109.8 MPa against steel) takes 50 N at
    # delta/R = 0.057; delta/R = 0.02 (0.1 mm) carries (4/3) E* sqrt(R) (1e-4)^1.5 = 10.4 N.
    run_row("static overlap on a soft wall beyond the law's range",
            ["chain.static_overlap=true", "chain.end_force=50", "wall_end.material=soft",
             "material.soft.youngs_modulus=1e8", "material.soft.poisson_ratio=0.3",
             "material.soft.density=1000"], 2,
            ["--set chain.end_force: is 50 N", "of bead 19 and wall_end",
             "R* = 0.005 m", "a load of at most 10.4 N here"]),
]

# simulation.accuracy chooses the step: not with a step given, nor without the error estimate.
ACCURACY = [
    run_row("accuracy with a time step", ["simulation.accuracy=1e-3",
                                          "simulation.time_step=1e-7"], 2,
            ["simulation.accuracy", "chooses the time step", "simulation.time_step"]),
    run_row("accuracy without the error estimate", ["simulation.accuracy=1e-3",
                                                    "simulation.error_estimate=off"], 2,
            ["simulation.accuracy", "simulation.error_estimate = off"]),
    run_row("accuracy of 20 %", ["simulation.accuracy=0.2"], 2,
            ["simulation.accuracy", "0.2", "[0, 0.1]"]),
    run_row("error estimate of another word", ["simulation.error_estimate=yes"], 2,
            ["simulation.error_estimate", "yes", "auto, on, off"]),
]

TABLE = (RUN + BEAD_LISTS + CONTACT_PAIRS + OUTPUT_CHOICE + COMPRESSION + INITIAL_OVERLAPS +
         ACCURACY)


class MalformedRun(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)


if __name__ == "__main__":
    main()
