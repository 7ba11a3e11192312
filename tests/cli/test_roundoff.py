#!/usr/bin/python3
"""Round-off that does not depend on where the chain lies or how small the step is
(docs/engine.md, "Positions and round-off"): positions are kept with a carry below their last
digit, and positions read from CSV text keep the digits a double cannot hold.

A chain of 6 mm beads (radius), struck at 1 m/s, Hertz contact, no wall:
- shifted 1 km along x (the same decimal positions plus 1000 m, read from a CSV file), it moves
  as at the origin: every velocity within 1e-9 of the striker speed after 4 ms, on both engines
  and through both pair loops of the chain engine (a short chain, and one long enough for the
  vectorised loop);
- on 100 beads over 4 ms, halving the step from 2e-9 to 5e-10 s keeps converging at second
  order: successive differences shrink by 4 (order 2 +- 0.3), where rounding each step's
  displacement against the absolute position stalled them at 1e-8 of the striker speed.

Run by ctest with Debian's /usr/bin/python3:  test_roundoff.py CHAINDEM
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest
from decimal import Decimal

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SPEED = 1.0  # striker speed [m/s]

CASE = """[simulation]
duration = 4e-3
error_estimate = off
[contact]
law = hertz
[material.steel]
youngs_modulus = 200e9
poisson_ratio = 0.3
density = 7800
[chain]
count = {beads}
materials = steel
radii = 0.006
[striker]
velocity = 1.0
[output]
interval = 4e-3
contacts = false
xdmf = false
"""


def final_velocities(tmp, bodies, time_step, shift=None, engine="auto", gap="0", wall=False):
    """The x velocities of every body after 4 ms: the striker and bodies - 1 beads, `gap` apart
    (decimal text, metres), from the case's own set-up, or (shift given) from a CSV of their
    decimal positions plus `shift` metres; with `wall`, a wall touching the last bead."""
    case = os.path.join(tmp, "c.ini")
    with open(case, "w") as f:
        f.write(CASE.format(beads=bodies - 1))
    out = os.path.join(tmp, "r.h5")
    argv = [CHAINDEM, "run", case, "-q", "--force", "-o", out,
            "--set", f"simulation.time_step={time_step!r}", "--set", f"simulation.engine={engine}"]
    if shift is not None:
        csv = os.path.join(tmp, "start.csv")
        with open(csv, "w") as f:
            f.write("x,vx\n")
            spacing = Decimal("0.012") + Decimal(gap)
            for i in range(bodies):
                f.write(f"{Decimal(shift) + spacing * i},{SPEED if i == 0 else 0.0}\n")
        argv += ["--set", f"initial.file={csv}"]
    else:
        argv += ["--set", f"chain.gap={gap}", "--set", f"striker.gap={gap}"]
    if wall:
        argv += ["--set", "wall_end.enabled=true", "--set", "wall_end.material=steel"]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    with h5py.File(out, "r") as f:
        return f["particles/chain/velocity/value"][-1, :, 0]


class ShiftedChain(unittest.TestCase):
    def check(self, bodies, engine, **chain):
        with tempfile.TemporaryDirectory() as tmp:
            at_origin = final_velocities(tmp, bodies, 2e-8, 0, engine, **chain)
            shifted = final_velocities(tmp, bodies, 2e-8, 1000, engine, **chain)
        # The pulse has travelled: the check compares moving beads.
        self.assertGreater(np.abs(at_origin[1:]).max(), 0.1)
        self.assertLess(np.abs(shifted - at_origin).max(), 1e-9 * SPEED)

    def test_chain_engine_per_pair_loop(self):
        self.check(100, "chain")

    def test_chain_engine_vectorised_loop(self):
        self.check(400, "chain")

    def test_general_engine(self):
        self.check(100, "general")

    # Beads 20 um apart, and a wall at the end, which the pulse reaches in 4 ms.
    def test_gapped_chain_against_a_wall(self):
        for engine in ("chain", "general"):
            with self.subTest(engine=engine):
                self.check(100, engine, gap="2e-5", wall=True)


class SmallSteps(unittest.TestCase):
    def test_second_order_down_to_half_a_nanosecond(self):
        with tempfile.TemporaryDirectory() as tmp:
            v = [final_velocities(tmp, 100, dt) for dt in (2e-9, 1e-9, 5e-10)]
        coarse, fine = np.abs(v[0] - v[1]).max(), np.abs(v[1] - v[2]).max()
        order = math.log2(coarse / fine)
        self.assertGreater(order, 1.7, f"differences {coarse:.3g}, {fine:.3g}")
        self.assertLess(order, 2.3, f"differences {coarse:.3g}, {fine:.3g}")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
