#!/usr/bin/python3
"""output.compression: gzip, lzf and none store the same values, each with the filter asked
for; the per-particle series are chunked so that a frame and a bead's history each read few
chunks; the LZF filter, an HDF5 plugin, is refused before the run when HDF5 cannot load it; the
chunks chaindem compresses itself decode to the values of an uncompressed run.

Run by ctest with Debian's /usr/bin/python3 (h5py, which reads LZF itself):
    test_compression.py CHAINDEM_BINARY SOURCE_DIR
"""
import math
import os
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np

CHAINDEM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "build/chaindem"
SOURCE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else "."
CASE = os.path.join(SOURCE, "cases", "default.ini")
# 6001 beads, 101 frames: each series (4.8 MB of x alone) is spilled to the file while the run
# goes on.
SMALL_RUN = ["--set", "chain.count=6000", "--set", "wall_end.enabled=false",
             "--set", "simulation.duration=2e-4"]
CHOICES = {"gzip": "gzip", "lzf": "lzf", "none": None}  # key value: h5py's .compression
SERIES = ["particles/chain/position/value", "particles/chain/velocity/value",
          "particles/chain/force/value"]


def datasets(f):
    """Every dataset of an open file, by path."""
    out = {}
    f.visititems(lambda name, o: out.__setitem__(name, o) if isinstance(o, h5py.Dataset) else None)
    return out


def run(out, *sets, env=None, base=SMALL_RUN):
    args = [CHAINDEM, "run", CASE, "-q", "-o", out, *base]
    for kv in sets:
        args += ["--set", kv]
    return subprocess.run(args, capture_output=True, text=True, env=env)


def each_choice(folder, base=SMALL_RUN):
    """The run `base` written with each compression into `folder`: choice -> path."""
    files = {}
    for choice in CHOICES:
        path = os.path.join(folder, choice + ".h5")
        r = run(path, "output.compression=" + choice, base=base)
        if r.returncode != 0:
            raise RuntimeError(f"{choice}: {r.stderr}")
        files[choice] = path
    return files


class Compression(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = each_choice(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_values_equal_whatever_the_filter(self):
        with h5py.File(self.files["gzip"], "r") as ref:
            expected = {name: np.asarray(d[()]) for name, d in datasets(ref).items()}
        self.assertTrue(set(SERIES) <= set(expected))
        for choice in ("lzf", "none"):
            with self.subTest(choice), h5py.File(self.files[choice], "r") as f:
                found = datasets(f)
                self.assertEqual(set(found), set(expected))
                for name, d in found.items():
                    if name.startswith("summary/") or name == "parameters/case_text":
                        continue  # the wall time; the case text is the same file
                    value = np.asarray(d[()])
                    self.assertEqual(value.dtype, expected[name].dtype, name)
                    if value.dtype.kind in "fiu":
                        np.testing.assert_array_equal(value, expected[name], err_msg=name)

    def test_each_series_has_the_filter_asked_for(self):
        for choice, filter_name in CHOICES.items():
            with self.subTest(choice), h5py.File(self.files[choice], "r") as f:
                for name in SERIES:
                    d = f[name]
                    self.assertEqual(d.compression, filter_name, name)
                    self.assertEqual(d.shuffle, filter_name is not None, name)
                    stored = d.id.get_storage_size()
                    if filter_name is None:  # every byte as it is, and little beyond the ends
                        self.assertGreaterEqual(stored, d.nbytes, name)
                        self.assertLess(stored, 1.05 * d.nbytes, name)
                    else:
                        self.assertLess(stored, d.nbytes / 2, name)

    def test_frames_and_histories_read_few_chunks(self):
        """One frame and one bead's whole history each read a small share of the chunks: the
        chunks span several frames and part of the chain."""
        with h5py.File(self.files["gzip"], "r") as f:
            for name in SERIES:
                d = f[name]
                frames, beads, _ = d.shape
                chunk_frames, chunk_beads, _ = d.chunks
                total = math.ceil(frames / chunk_frames) * math.ceil(beads / chunk_beads)
                per_frame = math.ceil(beads / chunk_beads)
                per_history = math.ceil(frames / chunk_frames)
                self.assertLessEqual(per_frame, total / 4, (name, d.chunks))
                self.assertLessEqual(per_history, total / 4, (name, d.chunks))
                self.assertLessEqual(np.prod(d.chunks) * d.dtype.itemsize, 1 << 20, name)

    def test_small_datasets_stay_contiguous(self):
        with h5py.File(self.files["gzip"], "r") as f:
            self.assertIsNone(f["observables/kinetic_energy/value"].chunks)

    def test_a_run_starts_from_an_lzf_file(self):
        """Reading LZF needs the plugin too, whatever the run writes: initial.file."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "from_lzf.h5")
            r = run(out, "initial.file=" + self.files["lzf"], "initial.frame=50")
            self.assertEqual(r.returncode, 0, r.stderr)
            with h5py.File(out, "r") as f, h5py.File(self.files["lzf"], "r") as lzf:
                np.testing.assert_array_equal(f[SERIES[0]][0], lzf[SERIES[0]][50])

    def test_missing_lzf_plugin_is_refused_before_the_run(self):
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as plugins:
            env = dict(os.environ, HDF5_PLUGIN_PATH=plugins)  # a plugin directory without LZF
            out = os.path.join(tmp, "lzf.h5")
            r = run(out, "output.compression=lzf", env=env)
            self.assertEqual(r.returncode, 2, r.stderr)
            for fragment in ("output.compression", "LZF", "apt install hdf5-plugin-lzf",
                             plugins):
                self.assertIn(fragment, r.stderr)
            self.assertEqual(os.listdir(tmp), [])
            # The filters built into HDF5 need no plugin.
            for choice in ("gzip", "none"):
                r = run(os.path.join(tmp, choice + ".h5"), "output.compression=" + choice,
                        env=env)
                self.assertEqual(r.returncode, 0, r.stderr)


class SpilledChunks(unittest.TestCase):
    """The chunks of a spilled series are compressed by chaindem and written whole, past HDF5's
    filters; the last frames go through them. Each choice must decode to the values of an
    uncompressed run, bit for bit: with beads that move and beads at rest, a chain whose beads
    are not a multiple of a chunk's, and frames not a multiple of a chunk's."""

    # 310 beads and a striker at 5 m/s against the end wall for 6 ms: the wave reaches the far
    # beads half way; 3001 frames of 311 x 1 doubles (7.1 MB a series, written in spills of
    # 4 MiB and more).
    MOVING_RUN = ["chain.count=310", "striker.velocity=5", "simulation.duration=6e-3"]

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.files = each_choice(cls.tmp.name,
                                [a for kv in cls.MOVING_RUN for a in ("--set", kv)])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_each_choice_decodes_to_the_uncompressed_values(self):
        with h5py.File(self.files["none"], "r") as f:
            expected = {name: f[name][()] for name in SERIES}
        for choice in ("gzip", "lzf"):
            with self.subTest(choice), h5py.File(self.files[choice], "r") as f:
                for name in SERIES:
                    d = f[name]
                    frames, beads, _ = d.shape
                    chunk_frames, chunk_beads, _ = d.chunks
                    self.assertGreater(d.nbytes, 4 << 20, name)  # spilled as the run went on
                    self.assertNotEqual(frames % chunk_frames, 0, (name, d.chunks))
                    self.assertNotEqual(beads % chunk_beads, 0, (name, d.chunks))
                    value = d[()]
                    # Half way, many beads have moved, and others are still at rest.
                    moved = (value[frames // 2] != value[0]).any(axis=1)
                    self.assertGreater(moved.mean(), 0.25, name)
                    self.assertLess(moved.mean(), 0.9, name)
                    # Bit for bit, whatever the byte layout of a value (-0.0, NaN).
                    np.testing.assert_array_equal(value.view(np.uint64),
                                                  expected[name].view(np.uint64), err_msg=name)
                    # One bead's whole history, across every row of chunks, as read apart.
                    np.testing.assert_array_equal(d[:, beads - 1, :], expected[name][:, -1, :],
                                                  err_msg=name)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
