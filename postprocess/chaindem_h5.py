#!/usr/bin/python3
"""Load a chaindem run file (H5MD) into numpy arrays.

    from chaindem_h5 import load_run
    run = load_run("out/default.h5")
    run.time, run.vx            # frames, frames x particles
    run.chain_force()           # frames x (beads - 1): force between bead k and k+1
    run.energies["kinetic_energy"]

Command line: ``/usr/bin/python3 postprocess/chaindem_h5.py FILE`` prints a short report.
"""
from __future__ import annotations

import sys
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


def load_run(path: str) -> Run:
    with h5py.File(path, "r") as f:
        if f.attrs.get("chaindem_status") != "complete":
            raise ValueError(f"{path}: not a complete chaindem run")
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
        run.summary = {k: float(v) for k, v in f["summary"].attrs.items()}
        if "contacts" in f:
            run.contacts = {name: ds[:] for name, ds in f["contacts"].items()}
    return run


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__)
        return 2
    run = load_run(argv[1])
    print(f"{run.path}: law {run.law['id']}, {run.vx.shape[1]} particles, "
          f"{len(run.time)} frames up to {run.time[-1]:.6g} s")
    e = run.energies
    print(f"  energy: initial {e['energy_balance'][0]:.6g} J, final kinetic "
          f"{e['kinetic_energy'][-1]:.6g} J, dissipated {e['dissipated_energy'][-1]:.6g} J")
    if run.contacts:
        print(f"  peak contact force {run.chain_force().max():.6g} N")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
