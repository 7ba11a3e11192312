#!/usr/bin/python3
"""The memory a run estimates before it starts (`chaindem run` prints it: "memory ... MB at most
(estimated before the run)"; estimated_peak_memory in scene_builder.hpp) against the peak resident
size the run then measures, for chains from 21 to 2e5 beads writing two frames, and writing many.

Run by ctest with Debian's /usr/bin/python3:
    test_memory_estimate.py CHAINDEM_BINARY SOURCE_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")
# How far the estimate may be from the measured peak, either way.
TOLERANCE = 0.30


def run(directory, *sets):
    """The estimate the run printed and the peak resident size it reached [bytes]."""
    argv = [CHAINDEM, "run", CASE, "-o", os.path.join(directory, "out.h5")]
    for s in sets:
        argv += ["--set", s]
    with open(os.path.join(directory, "out.txt"), "w+") as out, \
            open(os.path.join(directory, "err.txt"), "w+") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err)
        # wait4 gives this child's own peak (getrusage's children figure is the largest of all).
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        assert process.returncode == 0, err.read()
        estimate = float(re.search(r"memory\s+([0-9.e+]+) MB at most", out.read()).group(1)) * 1e6
    return estimate, usage.ru_maxrss * 1024  # Linux gives ru_maxrss in KiB


class MemoryEstimate(unittest.TestCase):
    def check(self, beads, *sets):
        with tempfile.TemporaryDirectory() as tmp:
            estimate, peak = run(tmp, f"chain.count={beads}", *sets)
        self.assertLessEqual(abs(estimate - peak), TOLERANCE * peak,
                             f"{beads} beads: estimated {estimate / 1e6:.1f} MB, "
                             f"peak {peak / 1e6:.1f} MB")

    def test_two_frames(self):
        """Frames far apart: the chain and the engine's state make the peak."""
        for beads in (20, 10_000, 200_000):
            with self.subTest(beads=beads):
                self.check(beads, "wall_end.enabled=false", "output.contacts=false",
                           "output.interval=1")

    def test_frames_waiting(self):
        """A frame every 4 steps, with the contacts: the writer falls behind, and the frames
        waiting to be written count."""
        self.check(10_000, "output.interval=2e-6", "simulation.duration=2e-4")

    def test_sparse_frames(self):
        """A frame every 200 steps, with the contacts: the writer mostly keeps up."""
        self.check(10_000, "output.interval=1e-4", "simulation.duration=1e-3")

    def test_many_frames_of_a_long_chain(self):
        """The default case's 501 frames of 10^5 beads: frames of 2.4 MB made every half
        millisecond, the writer's queue bound (not the whole run's frames) is what may wait."""
        self.check(100_000, "wall_end.enabled=false", "output.contacts=false")

    def test_several_media(self):
        """Beads of two sizes: every pair keeps its own coefficients."""
        self.check(100_000, "chain.radii=0.005 0.006", "output.interval=1",
                   "simulation.duration=2e-4")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
