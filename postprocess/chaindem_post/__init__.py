"""chaindem post-processing: read run, sweep and collide files (h5py) and draw them (matplotlib).

    import sys; sys.path.insert(0, "postprocess")
    from chaindem_post import load_run, load_sweep, load_loop, plots
    run = load_run("out/default.h5")
    fig = plots.spacetime(run, "velocity")
    fig.savefig("spacetime.png")

Command line: ``/usr/bin/python3 postprocess/chaindem-plot --help``.
"""
from .io import Comparison, Loop, Run, Sweep, load_comparison, load_loop, load_run, load_sweep

__all__ = ["Run", "Loop", "Sweep", "Comparison", "load_run", "load_sweep", "load_loop",
           "load_comparison"]
