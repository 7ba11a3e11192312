#!/usr/bin/python3
"""Malformed input of `collide`: the two bodies and the impact, every number and the options
that cannot be given together.

    test_malformed_collide.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import subprocess
import tempfile
import unittest

from malformed_harness import CHAINDEM, MASSES, check_rows, collide_row, main

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

TABLE = COLLIDE


class MalformedCollide(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_collide_rows(self):
        self.assertGreaterEqual(len(COLLIDE), 12)

    def test_good_rows_pass(self):
        """The inputs the rows spoil are valid as they are: each row fails for its own cell."""
        with tempfile.TemporaryDirectory() as tmp:
            for args in (collide_row("", {}, [])[1], collide_row("", {**MASSES, "wall": True}, [])[1]):
                r = subprocess.run([CHAINDEM, *args, "--force"], cwd=tmp, capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(r.returncode, 0, f"{args}\n{r.stderr}")


if __name__ == "__main__":
    main()
