#!/usr/bin/python3
"""Runs that start and fail (exit status 1): bodies that go through one another, impacts the
integration cannot resolve, memory running out.

    test_malformed_failed_runs.py CHAINDEM_BINARY SOURCE_DIR  (rows: malformed_harness.py)
"""
import os
import resource
import subprocess
import tempfile
import unittest

from malformed_harness import CASE, CHAINDEM, MASSES, check_rows, collide_row, main, run_row


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

TABLE = TOO_DEEP


class MalformedFailedRuns(unittest.TestCase):
    def test_each_row(self):
        check_rows(self, TABLE)

    def test_memory_running_out(self):
        """Under a limit of 1 GiB of address space (ulimit -v), a chain of 10 million beads
        (whose particle columns alone take 1.2 GB) cannot be built: the run failed (status 1,
        not 2, which says the input is wrong), memory ran out, and nothing is left behind."""
        def limited():
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        big = "chain.count=10000000"
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


if __name__ == "__main__":
    main()
