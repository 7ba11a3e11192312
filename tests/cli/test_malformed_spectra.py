#!/usr/bin/python3
"""Malformed requests of `chaindem-plot spectrum` and `transmission`: a bead, wall or axis the
file does not have, frames that are not evenly spaced, a time window outside the run, a sweep
that kept no case. Each is refused with exit status 2 and a message naming what is wrong, and
leaves no figure.

    test_malformed_spectra.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)

The rows run `python3 postprocess/chaindem-plot` on files made first: {run} (two beads pressed
against wall_start, frames every 1e-5 s to 2e-4 s), {uneven} (the same to 1.05e-4 s: its last
frame less than 1e-5 s after the one before), {sweep} (a sweep over material.steel.density, keeping its
cases) and {table} (the same keeping its table alone).
"""
import os
import subprocess
import sys
import tempfile
import unittest

from malformed_harness import CHAINDEM, SOURCE, check_rows, main

PLOT = [sys.executable, os.path.join(SOURCE, "postprocess", "chaindem-plot")]


def spectrum_row(name, options, fragments, file="{run}"):
    return (name, ["spectrum", file, *options, "-o", "s.png"], {}, 2, fragments)


def transmission_row(name, options, fragments, file="{sweep}"):
    return (name, ["transmission", file, *options, "-o", "t.png"], {}, 2, fragments)


DENSITY = ["--axis", "material.steel.density"]
SPECTRA = [
    spectrum_row("spectrum of a bead beyond the chain", ["--bead", "5"],
                 ["bead 5 is not in the chain (0..1, negative from the end, or striker)"]),
    spectrum_row("spectrum of a bead that is no number", ["--bead", "first"],
                 ["bead 'first': a chain bead number (from 0, negative from the end) or striker"]),
    spectrum_row("spectrum of the striker of a run without one", ["--bead", "striker"],
                 ["the run has no striker"]),
    spectrum_row("spectrum of a wall the run does not have", ["--wall", "end"],
                 ["no wall 'end'; the run's walls are wall_start"]),
    spectrum_row("spectrum of a wall's velocity", ["--wall", "start", "--quantity", "velocity"],
                 ["a wall's quantity: force, position; not 'velocity'"]),
    spectrum_row("spectrum of a bead and a wall at once", ["--bead", "0", "--wall", "start"],
                 ["argument --wall: not allowed with argument --bead"]),
    spectrum_row("spectrum of nothing", [],
                 ["one of the arguments --bead --wall is required"]),
    spectrum_row("spectrum of frames not evenly spaced", ["--bead", "0"],
                 ["the frames are not evenly spaced: frame 11 at 0.0001", "the others every "
                  "1e-05 s", "end the window before it (--to 0.0001)"], file="{uneven}"),
    spectrum_row("spectrum of a window after the run", ["--bead", "0", "--from", "1"],
                 ["the time window [1, 0.0002] s is outside the run, whose frames run from 0 s "
                  "to 0.0002 s"]),
    spectrum_row("spectrum of a window before the run", ["--bead", "0", "--to=-1e-3"],
                 ["is outside the run"]),
    spectrum_row("spectrum of a window that ends before it starts",
                 ["--bead", "0", "--from", "1.5e-4", "--to", "1e-4"],
                 ["the time window [0.00015, 0.0001] s is empty"]),
    spectrum_row("spectrum of a window of three frames",
                 ["--bead", "0", "--from", "1e-4", "--to", "1.2e-4"],
                 ["holds 3 frames; 4 or more are needed"]),
    spectrum_row("spectrum from a time that is no number", ["--bead", "0", "--from", "nan"],
                 ["argument --from: 'nan' is not a finite number"]),
    spectrum_row("spectrum of a sweep's file without its case", ["--bead", "0"],
                 ["holds several runs; choose one (case=K"], file="{sweep}"),
    spectrum_row("spectrum of a file that does not exist", ["--bead", "0"],
                 ["chaindem-plot:", "missing.h5"], file="missing.h5"),
    transmission_row("transmission over an axis the sweep does not have",
                     ["--axis", "wall_start.frequency", "--wall", "start"],
                     ["'wall_start.frequency' is not an axis of the sweep; its axes are "
                      "material.steel.density"]),
    transmission_row("transmission without an axis", ["--wall", "start"],
                     ["the following arguments are required: --axis"]),
    transmission_row("transmission to a wall the sweep does not have",
                     [*DENSITY, "--wall", "end"], ["no wall 'end'; the run's walls are wall_start"]),
    transmission_row("transmission to a bead beyond the chain", [*DENSITY, "--bead", "-3"],
                     ["bead -3 is not in the chain (0..1"]),
    transmission_row("transmission of a window shorter than a period",
                     [*DENSITY, "--wall", "start", "--from", "1.6e-4"],
                     ["holds less than one period of 7000 Hz"]),
    transmission_row("transmission of a window after the run",
                     [*DENSITY, "--wall", "start", "--from", "5e-4"], ["is outside the run"]),
    transmission_row("transmission divided by a key the cases do not have",
                     [*DENSITY, "--wall", "start", "--drive-amplitude", "wall_start.amplitude"],
                     ["case 0 has no key 'wall_start.amplitude' to normalise by"]),
    transmission_row("transmission of a sweep that kept its table alone",
                     [*DENSITY, "--wall", "start"],
                     ["the sweep kept its summary table alone (sweep.keep = table)",
                      "keep = cases or keep = stacked"], file="{table}"),
    transmission_row("transmission of a run's file", [*DENSITY, "--wall", "start"],
                     ["not a chaindem sweep file"], file="{run}"),
]
TABLE = SPECTRA

CASE = """[simulation]
duration = {duration}
[contact]
law = hertz
[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
[chain]
count = 2
materials = steel
radii = 0.005
end_force = 10
static_overlap = true
velocity = 0, 1e-4
[wall_start]
enabled = true
material = steel
[output]
interval = 1e-5
contacts = false
"""


def make_inputs(folder):
    """The files the rows read, by placeholder."""
    files = {}
    for name, duration in (("run", "2e-4"), ("uneven", "1.05e-4")):
        with open(os.path.join(folder, name + ".ini"), "w") as f:
            f.write(CASE.format(duration=duration))
        files[name] = os.path.join(folder, name + ".h5")
        subprocess.run([CHAINDEM, "run", os.path.join(folder, name + ".ini"), "-o", files[name],
                        "--quiet"], check=True, timeout=300)
    for name, keep in (("sweep", "cases"), ("table", "table")):
        with open(os.path.join(folder, name + ".ini"), "w") as f:
            f.write(f"[sweep]\nbase = {os.path.join(folder, 'run.ini')}\nkeep = {keep}\n"
                    "[axes]\nmaterial.steel.density = 7000, 7800\n")
        files[name] = os.path.join(folder, name + ".h5")
        subprocess.run([CHAINDEM, "sweep", os.path.join(folder, name + ".ini"), "-o",
                        files[name], "--quiet"], check=True, timeout=300)
    return files


class MalformedSpectra(unittest.TestCase):
    def test_each_row(self):
        with tempfile.TemporaryDirectory() as folder:
            files = make_inputs(folder)
            rows = [(name, [a.format(**files) if a.startswith("{") else a for a in args],
                     given, status, fragments)
                    for name, args, given, status, fragments in TABLE]
            check_rows(self, rows, PLOT)

    def test_the_inputs_the_rows_spoil_are_valid(self):
        """Each row fails for its own option: the same files draw with good ones."""
        with tempfile.TemporaryDirectory() as folder:
            files = make_inputs(folder)
            out = os.path.join(folder, "ok.png")
            for args in (["spectrum", files["run"], "--bead", "0"],
                         ["spectrum", files["uneven"], "--bead", "0", "--to", "1e-4"],
                         ["spectrum", files["sweep"], "--case", "1", "--wall", "start"],
                         ["transmission", files["sweep"], *DENSITY, "--wall", "start"]):
                r = subprocess.run([*PLOT, *args, "-o", out], capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(r.returncode, 0, f"{args}\n{r.stderr}")


if __name__ == "__main__":
    main()
