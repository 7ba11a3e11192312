"""chaindem post-processing: read run, sweep, collide, compare and fit files (h5py) and draw them
(matplotlib).

    from chaindem.post import load_run, load_sweep, load_loop, plots   # the Python module
    run = load_run("out/default.h5")
    fig = plots.spacetime(run, "velocity")
    fig.savefig("spacetime.png")

Without the Python module built, the same package is postprocess/chaindem_post:
``sys.path.insert(0, "postprocess"); from chaindem_post import ...``.
Command line: ``/usr/bin/python3 postprocess/chaindem-plot --help``.
The names of the files' groups, datasets, units and summary values are in ``layout`` (generated
from the writer's declaration of them); ``io`` reads them, for ``chaindem`` too. ``spectra``:
amplitude spectra of a run's series and the transmission of a sweep over a drive frequency.
"""
from . import layout, spectra
from .io import (Comparison, Fit, FitLaw, Loop, Run, Section, Sweep, load_comparison, load_fit,
                 load_loop, load_run, load_sweep, run_from_group)

__all__ = ["layout", "spectra", "Run", "Section", "Loop", "Sweep", "Comparison", "Fit", "FitLaw",
           "load_run", "load_sweep", "load_loop", "load_comparison", "load_fit", "run_from_group"]
