"""Readers for chaindem's HDF5 files: a run (H5MD), a sweep, a collide loop.

    run = load_run("out/default.h5")     # or load_run("sweep.h5", case=12)
    run.time, run.vx                     # frames, frames x particles
    run.chain_force()                    # frames x (bodies - 1): force between body k and k+1
    run.energies["kinetic_energy"]
"""
from __future__ import annotations

from dataclasses import dataclass, field

import h5py
import numpy as np


@dataclass
class Run:
    path: str
    time: np.ndarray                 # s, frames
    position: np.ndarray             # m, frames x N x 3
    velocity: np.ndarray             # m/s, frames x N x 3
    force: np.ndarray                # N, frames x N x 3
    radius: np.ndarray               # m, N
    mass: np.ndarray                 # kg, N
    striker: int                     # index or -1
    chain_first: int
    chain_count: int
    energies: dict[str, np.ndarray] = field(default_factory=dict)
    parameters: dict[str, str] = field(default_factory=dict)
    law: dict[str, object] = field(default_factory=dict)
    summary: dict[str, float] = field(default_factory=dict)
    contacts: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def vx(self) -> np.ndarray:
        return self.velocity[:, :, 0]

    def chain_force(self) -> np.ndarray:
        """Normal force between consecutive bodies (striker and beads), frames x (bodies - 1).

        Built from the ragged /contacts group: 0 where a pair is not touching."""
        if not self.contacts:
            raise ValueError(f"{self.path}: written without contacts (output.contacts = false)")
        first_body = 0 if self.striker >= 0 else self.chain_first
        bodies = self.chain_first + self.chain_count - first_body
        out = np.zeros((len(self.contacts["step"]), max(bodies - 1, 0)))
        offset = self.contacts["offset"]
        i, j, f = self.contacts["first"], self.contacts["second"], self.contacts["normal_force"]
        for k in range(len(offset) - 1):
            rows = slice(offset[k], offset[k + 1])
            ii, jj, ff = i[rows], j[rows], f[rows]
            consecutive = (jj == ii + 1) & (ii >= first_body) & (jj < first_body + bodies)
            out[k, ii[consecutive] - first_body] = ff[consecutive]
        return out


def load_run(path: str, case: int | None = None, law: str | None = None) -> Run:
    """A `chaindem run` file, case `case` of a `chaindem sweep` file, or the run of `law` in a
    `chaindem compare` file."""
    with h5py.File(path, "r") as f:
        if f.attrs.get("chaindem_status") != "complete":
            raise ValueError(f"{path}: not a complete chaindem file")
        root, name = f, path
        if case is not None:
            root, name = f[f"cases/case-{case:06d}"], f"{path} case {case}"
        elif law is not None:
            root, name = f[f"cases/{law}"], f"{path} law {law}"
        elif "cases" in f:
            raise ValueError(f"{path}: holds several runs; choose one (case=K or law=NAME)")
        return _read_run(root, name)


def _read_run(f, path: str) -> Run:
    chain = f["particles/chain"]
    run = Run(
        path=path,
        time=chain["velocity/time"][:],
        position=chain["position/value"][:],
        velocity=chain["velocity/value"][:],
        force=chain["force/value"][:],
        radius=chain["radius"][:],
        mass=chain["mass"][:],
        striker=int(chain.attrs["striker"]),
        chain_first=int(chain.attrs["chain_first"]),
        chain_count=int(chain.attrs["chain_count"]),
    )
    for name, group in f["observables"].items():
        run.energies[name] = group["value"][:]
    run.parameters = {k: str(v) for k, v in f["parameters"].attrs.items()}
    run.law = dict(f["parameters/law"].attrs.items())
    # Numbers, and the words they depend on (impact_velocity policy, integrator).
    run.summary = {k: v if isinstance(v, str) else float(v) for k, v in f["summary"].attrs.items()}
    if "contacts" in f:
        run.contacts = {name: ds[:] for name, ds in f["contacts"].items()}
    return run


@dataclass
class Sweep:
    """A `chaindem sweep` file: the summary table, one entry per column."""
    path: str
    axes: list[str]
    columns: dict[str, np.ndarray]

    def __len__(self) -> int:
        return len(self.columns["case"])

    def column(self, name: str) -> np.ndarray:
        return self.columns[name]


def load_sweep(path: str) -> Sweep:
    with h5py.File(path, "r") as f:
        if "summary" not in f or "sweep" not in f:
            raise ValueError(f"{path}: not a chaindem sweep file")
        columns = {}
        for name, ds in f["summary"].items():
            columns[name] = ds.asstr()[()] if ds.dtype.kind in "OS" else ds[()]
        axes = list(f["sweep/axes"].keys())
        # /sweep/axes is alphabetical in HDF5; the summary keeps the sweep file's order.
        text = f["sweep/sweep_file"][()].decode()
        order = [line.split("=")[0].strip() for line in text.splitlines()
                 if "=" in line and line.split("=")[0].strip() in axes]
        return Sweep(path, order or axes, columns)


@dataclass
class Loop:
    """A `chaindem collide -o` file: one impact, force against overlap."""
    path: str
    law: str
    time: np.ndarray
    overlap: np.ndarray
    rate: np.ndarray
    force: np.ndarray
    results: dict[str, float]


def load_loop(path: str) -> Loop:
    with h5py.File(path, "r") as f:
        results = {k: float(v) for k, v in f.attrs.items() if not isinstance(v, (str, bytes))}
        return Loop(path, str(f.attrs["law"]), f["time"][()], f["overlap"][()],
                    f["approach_rate"][()], f["force"][()], results)


@dataclass
class Comparison:
    """A `chaindem compare` file: per-bead metrics and errors of each law against the reference."""
    path: str
    reference: str
    laws: list[str]
    values: dict[str, np.ndarray]        # metric -> laws x beads
    errors: dict[str, np.ndarray]        # metric -> laws x beads [%]
    reference_values: dict[str, np.ndarray]


def load_comparison(path: str) -> Comparison:
    with h5py.File(path, "r") as f:
        if "comparison" not in f:
            raise ValueError(f"{path}: not a chaindem compare file")
        c = f["comparison"]
        metrics = [n[len("reference_"):] for n in c if n.startswith("reference_")]
        return Comparison(
            path, str(c.attrs["reference"]), [str(x) for x in c.attrs["laws"]],
            {m: c[m][()] for m in metrics}, {m: c[m + "_error_percent"][()] for m in metrics},
            {m: c["reference_" + m][()] for m in metrics})
