"""The XDMF file beside a run's HDF5 file opens in ParaView's Python reader (XDMF Reader):
every frame is a time step, and positions and velocities equal the H5MD datasets, with each
output.compression (gzip, lzf: an HDF5 plugin ParaView's HDF5 must load, none), and in both
layouts: x alone (a chain on the x axis: its points at (x, 0, 0), its velocities scalars) and
x, y, z (output.dimension = 3).

Run by ctest under ParaView's pvbatch:  pvbatch test_xdmf_paraview.py CHAINDEM SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from paraview import servermanager, simple

chaindem, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def check(tmp, compression, dimension="auto"):
    """Runs the default case with `compression` and `dimension` and reads its frames through the
    XDMF file; the chain is long enough for its series to be chunked, filtered, and spilled while
    the run goes on (chunks compressed by chaindem, written past HDF5's filters)."""
    name = f"{compression}-{dimension}"
    h5 = os.path.join(tmp, name + ".h5")
    subprocess.run([chaindem, "run", os.path.join(source, "cases", "default.ini"), "-o", h5,
                    "--quiet", "--set", "simulation.duration=2e-4", "--set", "chain.count=6000",
                    "--set", "output.compression=" + compression,
                    "--set", "output.dimension=" + dimension], check=True)
    xdmf = os.path.join(tmp, name + ".xdmf")
    assert os.path.exists(xdmf), "no XDMF file beside the HDF5 file"
    with h5py.File(h5, "r") as f:
        times = f["particles/chain/position/time"][()]
        position = f["particles/chain/position/value"][()]
        velocity = f["particles/chain/velocity/value"][()]
        radius = f["particles/chain/radius"][()]
        assert f["particles/chain/position/value"].compression == (
            None if compression == "none" else compression)
    reader = simple.XDMFReader(FileNames=[xdmf])
    steps = list(reader.TimestepValues)
    assert len(steps) == len(times), (len(steps), len(times))
    np.testing.assert_allclose(steps, times, rtol=1e-12)
    for k in (0, len(times) // 2, len(times) - 1):
        reader.UpdatePipeline(steps[k])
        block = servermanager.Fetch(reader)
        while hasattr(block, "GetNumberOfBlocks") and block.GetNumberOfBlocks() > 0:
            block = block.GetBlock(0)
        n = block.GetNumberOfPoints()
        assert n == position.shape[1], (n, position.shape)
        points = np.array([block.GetPoints().GetPoint(i) for i in range(n)])
        v = block.GetPointData().GetArray("velocity")
        components = position.shape[2]
        assert v.GetNumberOfComponents() == components, (v.GetNumberOfComponents(), components)
        vel = np.array([v.GetTuple(i) for i in range(n)])
        r = block.GetPointData().GetArray("radius")
        np.testing.assert_array_equal(points[:, :components], position[k])
        np.testing.assert_array_equal(points[:, components:], 0.0)  # x alone: y = z = 0
        np.testing.assert_array_equal(vel, velocity[k])
        np.testing.assert_array_equal([r.GetValue(i) for i in range(n)], radius)
    simple.Delete(reader)
    print(f"XDMF Reader, output.compression = {compression}, {components} component(s): "
          f"{len(steps)} time steps, {n} particles, positions and velocities equal the HDF5 "
          "datasets")
    return components


with tempfile.TemporaryDirectory() as tmp:
    for compression in ("gzip", "lzf", "none"):
        assert check(tmp, compression) == 1, "a chain on the x axis writes x alone"
    assert check(tmp, "gzip", "3") == 3
