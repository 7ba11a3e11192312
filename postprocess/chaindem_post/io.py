"""Readers for chaindem's HDF5 files: a run (H5MD), a sweep, a collide loop, a comparison, a fit.
The names they read are those of layout.py, generated from the writer's declaration of them.
Each reader of a group also reads what chaindem's Python module holds in memory (chaindem._tree),
so that `chaindem` and `chaindem.post` read results one way.

    run = load_run("out/default.h5")     # or load_run("sweep.h5", case=12)
    run.time, run.vx                     # frames, frames x particles
    run.chain_force()                    # frames x (bodies - 1): force between body k and k+1
    run.energies["kinetic_energy"]
    run.name                             # the case's name (its file's, without .ini)
    run.sections, run.section_energy     # a case of several contact models: the chain's sections

Bead numbering, as everywhere in chaindem: chain beads 0 .. chain_count - 1 (0 is the first
bead after the striker), the striker named "striker"; particle indices (the arrays' second
axis) are chain_first + bead. A run written with output.beads holds some particles alone:
run.ids lists their indices, and run.row(run.particle(bead)) is a bead's row.
"""
from __future__ import annotations

import configparser
import os
from dataclasses import dataclass, field

import h5py
import numpy as np

from . import layout


@dataclass
class Section:
    """A section of a chain: a maximal run of consecutive chain beads of one material."""
    material: str
    first_bead: int                  # chain bead, from 0
    beads: int

    @property
    def last_bead(self) -> int:
        return self.first_bead + self.beads - 1

    @property
    def label(self) -> str:
        """Its material and beads: "steel, beads 0–19", "ptfe, bead 20"."""
        if self.beads == 1:
            return f"{self.material}, bead {self.first_bead}"
        return f"{self.material}, beads {self.first_bead}–{self.last_bead}"


@dataclass
class Run:
    path: str
    time: np.ndarray                 # s, frames
    # frames x N x D: D = 1 (x alone) for a chain on the x axis, else 3 (x, y, z); [..., 0] is
    # x in both (docs/output-format.md, "Chain layout"). None: not written (output.quantities;
    # `none` writes no frame, and time is then empty).
    # The second axis is the particles written: every particle, or those of output.beads, whose
    # particle indices `ids` lists (None: every one; row(i) finds particle i's).
    position: np.ndarray | None      # m
    velocity: np.ndarray | None      # m/s
    force: np.ndarray | None         # N
    radius: np.ndarray               # m, per particle written
    mass: np.ndarray                 # kg, per particle written
    striker: int                     # index or -1
    chain_first: int
    chain_count: int
    energies: dict[str, np.ndarray] = field(default_factory=dict)
    parameters: dict[str, str] = field(default_factory=dict)
    law: dict[str, object] = field(default_factory=dict)
    # Counts as int, the other numbers as float, the words as str (layout.SUMMARY_SCALARS).
    summary: dict[str, float | int | str] = field(default_factory=dict)
    contacts: dict[str, np.ndarray] = field(default_factory=dict)
    # Per chain bead: max_contact_force [N], peak_velocity [m/s]; arrival_beads (the watched
    # beads) and arrival_time [s] (NaN: not reached).
    per_bead: dict[str, np.ndarray] = field(default_factory=dict)
    walls: list[str] = field(default_factory=list)  # wall w is contact partner -(w + 1)
    # frames x walls x 3, at energy_time: a point of each wall [m], and the force each wall
    # exerts on the particles [N] (its contacts' normal forces along its normal; None: not
    # written, or a file of a chaindem that did not write it).
    wall_position: np.ndarray | None = None
    wall_force: np.ndarray | None = None
    ids: np.ndarray | None = None    # output.beads: the particle index of each row written
    # s, the frames of the energies, momentum and walls (output.observables_interval: time's,
    # unless it differs); contacts["time"] holds the contacts' frames.
    energy_time: np.ndarray | None = None
    name: str = ""                   # the case's name, for titles
    # A case of several contact models (none for a case of one): per model K (contacts["model"]
    # holds K), its law's attributes as `law` has them and "section", the case's section; the
    # chain's sections and the energy each holds, frames x sections [J]; per model, the
    # summary's columns (layout.MODEL_SUMMARY_COLUMNS).
    models: list[dict[str, object]] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    section_energy: np.ndarray | None = None
    model_summary: dict[str, np.ndarray] = field(default_factory=dict)
    # Per kind of contact that touched, how it did against its law's stated validity
    # (layout.VALIDITY_SUMMARY_COLUMNS; docs/engine.md, "Validity of the laws").
    validity: dict[str, np.ndarray] = field(default_factory=dict)

    def __repr__(self) -> str:  # the arrays' sizes, not their values
        return (f"Run({self.name!r}: {len(self.time)} frames, {len(self.radius)} particles, "
                f"law {self.parameters.get('contact.law', '?')}"
                + (f", {self.path}" if self.path else "") + ")")

    def series(self, name: str) -> np.ndarray:
        """The per-particle series `name` ("position", "velocity" or "force"), frames x N x D;
        ValueError when the run did not write it."""
        values = getattr(self, name)
        if values is None:
            raise ValueError(f"{self.path or self.name}: written without {name} "
                             f"(output.quantities = {self.parameters.get('output.quantities', '?')})")
        return values

    def row(self, particle: int) -> int:
        """The row of particle `particle` (an index, as particle() gives) in the per-particle
        series and constants; ValueError when output.beads left it out."""
        if self.ids is None:
            return particle
        k = int(np.searchsorted(self.ids, particle))
        if k == len(self.ids) or self.ids[k] != particle:
            raise ValueError(f"{self.path or self.name}: {self.bead_label(particle)} was not "
                             f"written (output.beads = {self.parameters.get('output.beads', '?')})")
        return k

    def written(self, particles) -> list[int]:
        """Those of `particles` (indices) whose series were written (output.beads)."""
        if self.ids is None:
            return list(particles)
        present = set(self.ids.tolist())
        return [i for i in particles if i in present]

    @property
    def vx(self) -> np.ndarray:
        return self.series("velocity")[:, :, 0]

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

    def particle(self, bead: int | str) -> int:
        """Particle index of chain bead `bead` (negative: from the end) or of "striker"."""
        if bead == "striker":
            if self.striker < 0:
                raise ValueError(f"{self.path}: the run has no striker")
            return self.striker
        b = int(bead)
        if not -self.chain_count <= b < self.chain_count:
            raise ValueError(f"bead {b} is not in the chain (0..{self.chain_count - 1}, "
                             "negative from the end, or striker)")
        return self.chain_first + (b if b >= 0 else self.chain_count + b)

    def wall(self, name: str) -> int:
        """The index of wall `name`: its name (wall_start, wall_end) or the name without its
        "wall_" (start, end); ValueError naming the run's walls otherwise."""
        for k, wall in enumerate(self.walls):
            if name in (wall, wall.removeprefix("wall_")):
                return k
        raise ValueError(f"{self.path or self.name}: no wall {name!r}; the run's walls are "
                         + (", ".join(self.walls) if self.walls else "none"))

    def wall_series(self, name: str, quantity: str = "force") -> np.ndarray:
        """Wall `name`'s "force" (on the particles) or "position", frames x 3 at energy_time
        [N or m]; ValueError when the run did not write it."""
        if quantity not in ("force", "position"):
            raise ValueError(f"a wall's quantity: 'force' or 'position', not {quantity!r}")
        k = self.wall(name)
        values = getattr(self, f"wall_{quantity}")
        if values is None:
            raise ValueError(f"{self.path or self.name}: written without the walls' {quantity} "
                             f"(output.quantities = {self.parameters.get('output.quantities', '?')})")
        return values[:, k, :]

    def bead_label(self, particle: int) -> str:
        """The name of a particle in chaindem's numbering: "striker" or "bead K" (chain beads
        from 0)."""
        if particle == self.striker:
            return "striker"
        return f"bead {particle - self.chain_first}"

    def contact_forces(self) -> tuple[np.ndarray, list[str], np.ndarray]:
        """Normal force of every contact along the chain, walls included: positions x on the
        chain-bead axis (a contact between beads k and k + 1 at k + 1/2, the striker's bead at
        -1, the end wall at chain_count), their names, and frames x contacts [N]; 0 where a pair
        is not touching."""
        if not self.contacts:
            raise ValueError(f"{self.path}: written without contacts (output.contacts = false)")
        x_of = {self.chain_first + k: float(k) for k in range(self.chain_count)}
        if self.striker >= 0:
            x_of[self.striker] = -1.0
        first, last = min(x_of.values()), max(x_of.values())
        i, j = self.contacts["first"], self.contacts["second"]
        columns: dict[tuple[int, int], float] = {}
        for a, b in set(zip(i.tolist(), j.tolist())):
            if a not in x_of:
                continue
            if b >= 0:
                if b in x_of and abs(x_of[a] - x_of[b]) == 1.0:
                    columns[(a, b)] = (x_of[a] + x_of[b]) / 2
            else:
                wall = self.walls[-b - 1] if -b - 1 < len(self.walls) else ""
                if wall == "wall_end" and x_of[a] == last:
                    columns[(a, b)] = last + 0.5
                elif wall == "wall_start" and x_of[a] == first:
                    columns[(a, b)] = first - 0.5
        # Every neighbour pair, touching or not during the output.
        bodies = sorted(x_of, key=x_of.get)
        for a, b in zip(bodies, bodies[1:]):
            if (a, b) not in columns and (b, a) not in columns:
                columns[(a, b)] = (x_of[a] + x_of[b]) / 2
        order = sorted(columns, key=columns.get)
        col = {pair: n for n, pair in enumerate(order)}
        out = np.zeros((len(self.contacts["step"]), len(order)))
        offset, f = self.contacts["offset"], self.contacts["normal_force"]
        pairs, inverse = np.unique(np.c_[i, j], axis=0, return_inverse=True)
        pair_col = np.array([col.get((a, b), col.get((b, a), -1)) for a, b in pairs.tolist()],
                            dtype=int).reshape(-1)
        row_col = pair_col[np.asarray(inverse).reshape(-1)] if len(pairs) else np.zeros(0, int)
        frame = np.repeat(np.arange(len(offset) - 1), np.diff(offset))
        keep = row_col >= 0
        out[frame[keep], row_col[keep]] = f[keep]
        names = []
        for a, b in order:
            other = ("wall" if b < 0 else self.bead_label(b))
            names.append(f"{self.bead_label(a)}-{other}")
        return np.array([columns[p] for p in order]), names, out


def case_name(origin: str) -> str:
    """A case's name from its file's path: cases/edem_study/steel.ini -> steel."""
    base = os.path.basename(str(origin))
    return base[:-4] if base.endswith(".ini") else base


def load_run(path: str, case: int | None = None, law: str | None = None) -> Run:
    """A `chaindem run` file, case `case` of a `chaindem sweep` file, or the run of `law` in a
    `chaindem compare` file."""
    with h5py.File(path, "r") as f:
        if f.attrs.get("chaindem_status") != "complete":
            raise ValueError(f"{path}: not a complete chaindem file")
        root, name = f, path
        if case is not None and layout.STACKED in f:
            return run_from_stacked(f, case, path)
        if case is not None:
            if f"cases/case-{case:06d}" not in f:
                status = f["summary/status"].asstr()[()] if "summary/status" in f else []
                raise ValueError(f"{path}: case {case} " + (
                    f"has no run: {status[case]}" if 0 <= case < len(status)
                    else f"does not exist (the sweep has {len(status)} cases)"))
            root, name = f[f"cases/case-{case:06d}"], f"{path} case {case}"
        elif law is not None:
            if f"cases/{law}" not in f:
                raise ValueError(f"{path}: no run of law {law!r}")
            root, name = f[f"cases/{law}"], f"{path} law {law}"
        elif "cases" in f:
            raise ValueError(f"{path}: holds several runs; choose one (case=K or law=NAME)")
        run = run_from_group(root, name)
        if case is not None:  # a sweep's case: the sweep's name and the case number
            run.name = f"{os.path.splitext(os.path.basename(path))[0]}, case {case}"
        return run


def run_from_stacked(f, case: int, path: str) -> Run:
    """Case `case` of a sweep that stacked its cases (sweep.keep = stacked): row `case` of every
    dataset of /stacked. Its parameters are the keys the sweep sets (its [set] and the case's
    axis values) and the law; its law, the law's identifier; its summary, the case's row of
    /summary."""
    stacked, summary = f[layout.STACKED], f[layout.SUMMARY]
    written = stacked[layout.STACKED_WRITTEN][()]
    if not 0 <= case < len(written):
        raise ValueError(f"{path}: case {case} does not exist (the sweep has {len(written)} "
                         "cases)")
    if not written[case]:
        status = summary[layout.SWEEP_STATUS].asstr()[case]
        raise ValueError(f"{path}: case {case} has no run: {status}")

    def row(group, name):
        return group[name][case] if name in group else None

    chain = stacked[layout.PARTICLES]
    series = {name: row(chain, f"{name}/{layout.VALUE}") for name in layout.PARTICLE_COLUMNS}
    first = next(iter(layout.PARTICLE_COLUMNS))
    run = Run(path=path, time=row(chain, f"{first}/{layout.TIME}"), position=series["position"],
              velocity=series["velocity"], force=series["force"], radius=row(chain, "radius"),
              mass=row(chain, "mass"), striker=int(chain.attrs[layout.STRIKER]),
              chain_first=int(chain.attrs[layout.CHAIN_FIRST]),
              chain_count=int(chain.attrs[layout.CHAIN_COUNT]))
    if run.time is None:
        run.time = np.empty(0)
    observables = stacked.get(layout.OBSERVABLES, {})
    run.energies = {name: row(observables, f"{name}/{layout.VALUE}")
                    for name in layout.OBSERVABLE_COLUMNS if name in observables}
    timed = [name for name in layout.OBSERVABLE_COLUMNS if name in observables]
    run.energy_time = row(observables, f"{timed[0]}/{layout.TIME}") if timed else run.time
    definition = f[layout.SWEEP]
    run.parameters = dict(text(k).split("=", 1) for k in definition.attrs["fixed"] if text(k))
    for key in definition[layout.SWEEP_AXES]:
        value = summary[key][case]
        run.parameters[key] = text(value) if isinstance(value, (str, bytes)) else repr(value)
    if "contact.law" not in run.parameters:  # the base case's
        base = configparser.ConfigParser(inline_comment_prefixes=("#", ";"), strict=False)
        base.read_string(text(definition["base_case_file"][()]))
        run.parameters["contact.law"] = base.get("contact", "law", fallback="")
    run.law = {"id": run.parameters["contact.law"]}
    run.summary = {name: (text(summary[name][case]) if summary[name].dtype.kind in "OS"
                          else layout.SUMMARY_SCALARS.get(name, ("", float))[1](summary[name][case]))
                   for name in summary if summary[name].ndim == 1 and name in
                   {**layout.SUMMARY_SCALARS, **dict.fromkeys(layout.SUMMARY_TEXTS)}}
    run.per_bead = {name: summary[name][case] for name in layout.SUMMARY_ARRAYS if name in summary}
    if layout.WALLS in stacked:
        walls = stacked[layout.WALLS]
        run.walls = [text(w) for w in walls.attrs.get(layout.WALL_NAMES, [])]
        for attribute, name in (("wall_position", layout.WALL_POSITION),
                                ("wall_force", layout.WALL_FORCE)):
            setattr(run, attribute, row(walls, f"{name}/{layout.VALUE}"))
            if not timed and getattr(run, attribute) is not None:  # they hold the clock
                run.energy_time = row(walls, f"{name}/{layout.TIME}")
    if layout.PARTICLE_ID in chain:
        run.ids = chain[layout.PARTICLE_ID][()].astype(np.int64)
    energy = f"{layout.OBSERVABLES}/{layout.SECTION_ENERGY}"
    if energy in stacked:
        a = stacked[energy].attrs
        names, species = chain["species_names"].asstr()[case], chain["species"][case]

        def material(first_bead: int) -> str:  # that of the section's first bead, if written
            written = run.written([run.chain_first + first_bead])
            return names[species[run.row(written[0])]] if written else ""

        run.sections = [Section(material(int(b)), int(b), int(n)) for b, n in zip(
            np.atleast_1d(a[layout.SECTION_FIRST_BEAD]), np.atleast_1d(a[layout.SECTION_BEADS]))]
        run.section_energy = stacked[f"{energy}/{layout.VALUE}"][case]
    run.name = f"{os.path.splitext(os.path.basename(path))[0]}, case {case}"
    run.path = f"{path} case {case}"
    return run


def values(node) -> np.ndarray:
    """A dataset's values: an h5py dataset (strings as str), or an array read into memory."""
    if isinstance(node, h5py.Dataset):
        return node.asstr()[()] if node.dtype.kind in "OS" else node[()]
    return np.asarray(node)


def text(value) -> str:
    """A string attribute as str (h5py may give bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)


def summary_values(attrs) -> dict:
    """The run summary's numbers and words, from its group's attributes: counts as int, the
    other numbers as float, the words as str."""
    out = {}
    for name, value in attrs.items():
        if isinstance(value, (str, bytes)):
            out[name] = text(value)
        else:
            out[name] = layout.SUMMARY_SCALARS.get(name, ("", float))[1](value)
    return out


def run_from_group(f, path: str) -> Run:
    """The run in HDF5 group `f` (a run's file, or a case of a sweep or compare file): an h5py
    group, or anything read like one (the in-memory result of chaindem.run)."""
    chain = f[layout.PARTICLES]
    series = {name: values(chain[f"{name}/{layout.VALUE}"]) if name in chain else None
              for name in layout.PARTICLE_COLUMNS}
    first = next(iter(layout.PARTICLE_COLUMNS))  # position: it holds the frames' times
    run = Run(
        path=path,
        time=values(chain[f"{first}/{layout.TIME}"]) if first in chain else np.empty(0),
        position=series["position"],
        velocity=series["velocity"],
        force=series["force"],
        radius=values(chain["radius"]),
        mass=values(chain["mass"]),
        striker=int(chain.attrs[layout.STRIKER]),
        chain_first=int(chain.attrs[layout.CHAIN_FIRST]),
        chain_count=int(chain.attrs[layout.CHAIN_COUNT]),
    )
    if layout.PARTICLE_ID in chain:
        run.ids = values(chain[layout.PARTICLE_ID]).astype(np.int64)
    observables = f[layout.OBSERVABLES]
    run.energies = {name: values(observables[f"{name}/{layout.VALUE}"])
                    for name in layout.OBSERVABLE_COLUMNS if name in observables}
    written = [name for name in layout.OBSERVABLE_COLUMNS if name in observables]
    run.energy_time = (values(observables[f"{written[0]}/{layout.TIME}"]) if written
                       else run.time)
    run.parameters = {k: str(v) for k, v in f[layout.PARAMETERS].attrs.items()}
    run.law = dict(f[f"{layout.PARAMETERS}/law"].attrs.items())
    summary = f[layout.SUMMARY]
    run.summary = summary_values(summary.attrs)
    run.per_bead = {name: values(summary[name]) for name in layout.SUMMARY_ARRAYS
                    if name in summary}
    if layout.SUMMARY_VALIDITY in summary:
        validity = summary[layout.SUMMARY_VALIDITY]
        run.validity = {name: values(validity[name]) for name in layout.VALIDITY_SUMMARY_COLUMNS
                        if name in validity}
    if layout.CONTACTS in f:
        contacts = f[layout.CONTACTS]
        run.contacts = {name: values(contacts[name]) for name in contacts.keys()}
    if layout.WALLS in f:
        walls = f[layout.WALLS]
        run.walls = [text(w) for w in walls.attrs.get(layout.WALL_NAMES, [])]
        for attribute, name in (("wall_position", layout.WALL_POSITION),
                                ("wall_force", layout.WALL_FORCE)):
            if f"{name}/{layout.VALUE}" in walls:
                setattr(run, attribute, values(walls[f"{name}/{layout.VALUE}"]))
                if not written:  # the walls' series alone: they hold the observables' clock
                    run.energy_time = values(walls[f"{name}/{layout.TIME}"])
    origin = f[layout.PARAMETERS].attrs.get("case_origin", "")
    run.name = case_name(origin) if origin else os.path.splitext(os.path.basename(path))[0]
    read_several_models(f, run)
    return run


def read_several_models(f, run: Run) -> None:
    """What a run of several contact models adds to its file, into `run` (nothing for a run of
    one model)."""
    models = f"{layout.PARAMETERS}/{layout.CONTACT_MODELS}"
    if models in f:
        group = f[models]
        run.models = [{k: (text(v) if isinstance(v, (str, bytes)) else v)
                       for k, v in group[str(k)].attrs.items()} for k in range(len(group))]
    energy = f"{layout.OBSERVABLES}/{layout.SECTION_ENERGY}"
    if energy in f:
        a = f[energy].attrs
        run.sections = [Section(text(m), int(b), int(n)) for m, b, n in zip(
            np.atleast_1d(a[layout.SECTION_MATERIAL]), np.atleast_1d(a[layout.SECTION_FIRST_BEAD]),
            np.atleast_1d(a[layout.SECTION_BEADS]))]
        run.section_energy = values(f[f"{energy}/{layout.VALUE}"])
    summary = f"{layout.SUMMARY}/{layout.SUMMARY_MODELS}"
    if summary in f:
        run.model_summary = {name: values(f[summary][name])
                             for name in layout.MODEL_SUMMARY_COLUMNS if name in f[summary]}


@dataclass
class Sweep:
    """A `chaindem sweep` file: the summary table, one entry per column."""
    path: str
    axes: list[str]
    columns: dict[str, np.ndarray]
    name: str = ""                   # the sweep's name (its file's), for titles

    def __len__(self) -> int:
        return len(self.columns[layout.SWEEP_CASE])

    def column(self, name: str) -> np.ndarray:
        return self.columns[name]


def sweep_axes(definition) -> list[str]:
    """A sweep's axes in the sweep file's order, from its /sweep group (h5py, or read into
    memory): HDF5 lists the datasets of its axes alphabetically."""
    axes = list(definition[layout.SWEEP_AXES].keys())
    sweep_file = definition[layout.SWEEP_FILE]
    sweep_file = text(sweep_file[()] if isinstance(sweep_file, h5py.Dataset) else sweep_file)
    order = [line.split("=")[0].strip() for line in sweep_file.splitlines()
             if "=" in line and line.split("=")[0].strip() in axes]
    return order or axes


def summary_columns(summary, axes: list[str]) -> dict[str, np.ndarray]:
    """A sweep's /summary, column by column: case, the axes in `axes`' order, then the results
    by name."""
    names = [layout.SWEEP_CASE] + axes + sorted(
        n for n in summary.keys() if n != layout.SWEEP_CASE and n not in axes)
    return {name: values(summary[name]) for name in names}


def load_sweep(path: str) -> Sweep:
    with h5py.File(path, "r") as f:
        if layout.SUMMARY not in f or layout.SWEEP not in f:
            raise ValueError(f"{path}: not a chaindem sweep file")
        axes = sweep_axes(f[layout.SWEEP])
        return Sweep(path, axes, summary_columns(f[layout.SUMMARY], axes),
                     os.path.splitext(os.path.basename(path))[0])


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


def loop_from_group(f, path: str, results: dict | None = None) -> Loop:
    """The impact of a `collide -o` file (h5py, or read into memory); `results` default to its
    numeric attributes."""
    if results is None:
        results = {k: float(v) for k, v in f.attrs.items() if not isinstance(v, (str, bytes))}
    time, overlap, rate, force = (values(f[name]) for name in layout.LOOP_COLUMNS)
    return Loop(path, text(f.attrs["law"]), time, overlap, rate, force, results)


def load_loop(path: str) -> Loop:
    with h5py.File(path, "r") as f:
        return loop_from_group(f, path)


@dataclass
class Comparison:
    """A `chaindem compare` file: per-bead metrics and errors of each law against the reference."""
    path: str
    reference: str
    laws: list[str]
    values: dict[str, np.ndarray]        # metric -> laws x beads
    errors: dict[str, np.ndarray]        # metric -> laws x beads [%]
    reference_values: dict[str, np.ndarray]
    case: str = ""                       # the case's name, for titles
    # Reference data: per metric, the most their sampling can shift it, per bead [%]; the
    # median spacing of the samples [s] (None: the reference is a law's run).
    sampling_bound: dict[str, np.ndarray] = field(default_factory=dict)
    sample_interval: float | None = None


def comparison_from_group(c, path: str) -> Comparison:
    """The /comparison group of a `chaindem compare` file (h5py, or read into memory)."""
    metrics = [m for m in layout.COMPARISON_METRICS if layout.REFERENCE_PREFIX + m in c]
    interval = c.attrs.get(layout.SAMPLE_INTERVAL)
    return Comparison(
        path, text(c.attrs["reference"]), [text(x) for x in c.attrs["laws"]],
        {m: values(c[m]) for m in metrics},
        {m: values(c[m + layout.ERROR_PERCENT]) for m in metrics},
        {m: values(c[layout.REFERENCE_PREFIX + m]) for m in metrics},
        case_name(c.attrs.get("case", path)),
        {m: values(c[m + layout.SAMPLING_BOUND]) for m in metrics
         if m + layout.SAMPLING_BOUND in c},
        None if interval is None else float(np.atleast_1d(interval)[0]))


def comparison_columns(c) -> dict[str, np.ndarray]:
    """A comparison as one row per law, the reference first: law, impact_velocity (its v0
    policy; "reference" on the reference's row), and per metric its values per bead, their
    errors [%] (<metric>_error_percent), the mean error and the beads compared. The reference's
    row holds its values, errors 0 where it has a value."""
    cmp = comparison_from_group(c, "")
    columns: dict[str, np.ndarray] = {
        "law": np.array([cmp.reference] + cmp.laws, dtype=object),
        "impact_velocity": np.array(["reference"] + [text(x) for x in c.attrs["impact_velocity"]],
                                    dtype=object)}
    for m in cmp.values:
        ref = cmp.reference_values[m]
        columns[m] = np.vstack([ref, cmp.values[m]])
        columns[m + layout.ERROR_PERCENT] = np.vstack([np.where(np.isnan(ref), np.nan, 0.0),
                                                        cmp.errors[m]])
        columns[m + layout.MEAN_ERROR_PERCENT] = np.r_[0.0, values(c[m + layout.MEAN_ERROR_PERCENT])]
        columns[m + layout.BEADS_COMPARED] = np.r_[float(np.sum(~np.isnan(ref))),
                                                   values(c[m + layout.BEADS_COMPARED])]
    return columns


def load_comparison(path: str) -> Comparison:
    with h5py.File(path, "r") as f:
        if layout.COMPARISON not in f:
            raise ValueError(f"{path}: not a chaindem compare file")
        return comparison_from_group(f[layout.COMPARISON], path)


@dataclass
class FitLaw:
    """One law of a `chaindem fit` file: its fitted parameters and its curves."""
    law: str
    rank: int
    aicc: float
    delta_aicc: float
    weight: float
    parameters: list[str]
    units: list[str]
    values: np.ndarray
    standard_errors: np.ndarray
    low: np.ndarray
    high: np.ndarray
    interval_methods: list[str]
    residuals: dict[str, np.ndarray]  # per series: (data - fit) / sigma, or data - fit
    curve_x: np.ndarray               # impact velocity [m/s] or time [s]
    curve: dict[str, np.ndarray]      # per series, at curve_x


@dataclass
class Fit:
    """A `chaindem fit -o` file: the data and the laws, best first. `kind` "impacts": a series
    per measured quantity (restitution, peak_force, contact_duration, max_overlap) against the
    impact velocity x; "chain": a series per measured bead (bead<k>) of `quantity` (velocity or
    force) against the time x. Values are NaN where not measured."""
    path: str
    kind: str
    series: list[str]
    x: np.ndarray                     # m/s (impacts) or s (chain)
    value: dict[str, np.ndarray]
    sigma: dict[str, np.ndarray] | None
    laws: list[FitLaw]
    data_file: str = ""               # the measurements' CSV file, as given to chaindem fit
    case: str = ""                    # chain: the case file
    quantity: str = ""                # chain: velocity or force

    @property
    def quantities(self) -> list[str]:
        return [self.quantity] if self.kind == "chain" else self.series


def load_fit(path: str) -> Fit:
    with h5py.File(path, "r") as f:
        if "laws" not in f or "data" not in f or "series" not in f.attrs:
            raise ValueError(f"{path}: not a chaindem fit file")
        kind = str(f.attrs["kind"])
        x_name = "time" if kind == "chain" else "velocity"
        series = [str(q) for q in f.attrs["series"]]
        laws = []
        for name in f["laws"].attrs["ranked"]:
            g = f["laws"][str(name)]
            a = g.attrs
            laws.append(FitLaw(str(name), int(a["rank"]), float(a["aicc"]),
                               float(a["delta_aicc"]), float(a["weight"]),
                               [str(x) for x in a["parameters"]], [str(x) for x in a["units"]],
                               g["values"][()], g["standard_errors"][()], g["low"][()],
                               g["high"][()], [str(x) for x in a["interval_methods"]],
                               {q: g["residuals_" + q][()] for q in series},
                               g["curve_" + x_name][()], {q: g["curve_" + q][()] for q in series}))
        d = f["data"]
        weighted = all(q + "_sigma" in d for q in series)
        return Fit(path, kind, series, d[x_name][()], {q: d[q][()] for q in series},
                   {q: d[q + "_sigma"][()] for q in series} if weighted else None, laws,
                   str(f.attrs.get("data_file", "")), str(f.attrs.get("case", "")),
                   str(d.attrs.get("quantity", "")))
