"""chaindem from Python: run cases and read their results as numpy arrays, and the contact-law
registry as records.

    import chaindem
    run = chaindem.run("cases/default.ini", chain={"count": 50}, threads=2)
    run.time, run.velocity              # s, frames; m/s, frames x particles x 3
    run.summary["striker_rebound_ratio"], run.per_bead["peak_velocity"]
    [law.id for law in chaindem.models(family="hysteresis")]

A run computes with the GIL released and stops on Ctrl-C (KeyboardInterrupt). Input the command
line refuses raises InputError, a run that fails RunError, each with the command line's
message. docs/python.md describes everything.
"""
from __future__ import annotations

import os
import tempfile
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from . import _core
from ._commands import CaseNote, collide, command, format_value, option_args, summary_columns  # noqa: F401
from ._commands import sweep_file_text, table
from ._core import InputError, RunError
from ._tree import Group
from .post import Run, load_run, run_from_group

__version__: str = _core.version
__all__ = ["run", "collide", "sweep", "compare", "load", "models", "Law", "Parameter", "Run",
           "InputError", "RunError", "CaseNote"]

#: A case: a path to an INI file, INI text, or a mapping of keys ("section.key": value, or
#: section: {key: value}).
Case = Union[str, "os.PathLike[str]", Mapping[str, Any]]
PathLike = Union[str, "os.PathLike[str]"]


def run(case: Case, *, output_file: Optional[Union[str, "os.PathLike[str]"]] = None,
        threads: Optional[int] = None, progress: bool = False,
        overrides: Optional[Mapping[str, Any]] = None, unset: Iterable[str] = (),
        **sections: Mapping[str, Any]) -> Run:
    """Runs a case, as `chaindem run` does, and returns its results in memory.

    case: a path to an INI case file, INI text, or a mapping of case keys.
    output_file: also write the run's HDF5 file (and its XDMF file) there, exactly as the
        command line does; the results are then read back from it. Without it nothing is
        written (the case's output.file is not used).
    threads: OpenMP threads of the run (the key simulation.threads).
    progress: print the command line's progress lines on stderr.
    overrides: case keys that win over the case: {"chain.count": 50, ...}.
    unset: keys to remove from the case, so that their defaults apply.
    sections: the same per section: chain={"count": 50}, output={"interval": 1e-5},
        material={"steel.density": 7800}.

    Raises InputError for a case the command line refuses (the message names the key and its
    allowed range), RunError for a run that fails (an integration that diverges, an output that
    cannot be written), KeyboardInterrupt on Ctrl-C (nothing is written then).
    """
    text, origin, is_path = _case_source(case)
    keys = _override_list(overrides, sections, threads)
    tree, notes = _core.run(text, origin, is_path, keys, [str(k) for k in unset],
                            None if output_file is None else os.fspath(output_file),
                            bool(progress))
    for note in notes:
        warnings.warn(note, CaseNote, stacklevel=2)
    return run_from_group(Group(*tree), "" if output_file is None else os.fspath(output_file))


def sweep(definition: Optional[PathLike] = None, *, base: Optional[Case] = None,
          axes: Optional[Mapping[str, Any]] = None, combine: Optional[str] = None,
          fixed: Optional[Mapping[str, Any]] = None, output_file: Optional[PathLike] = None,
          threads: Optional[int] = None, overrides: Optional[Mapping[str, Any]] = None,
          unset: Iterable[str] = (), checkpoint_interval: Optional[float] = None,
          progress: bool = False, table_kind: str = "numpy"):
    """Runs a sweep, as `chaindem sweep` does; returns its summary table: one row per case, a
    column per axis and per result (docs/sweeps.md), as a numpy structured array (or a pandas
    DataFrame with table_kind="pandas").

    definition: a sweep file. Or, instead: base (a case, as run() takes it), axes
    ({"contact.restitution": [0.1, 0.5, 0.9], "striker.velocity": "0.5:2:0.5"}), combine
    ("grid", the default, or "zip") and fixed (keys for every case, the file's [set]).
    output_file: also keep the sweep's HDF5 file there (every case's frames); without it,
    nothing is written (the sweep file's output key is not used). It is also where an
    interrupted sweep resumes from. threads, overrides (--set), unset, checkpoint_interval:
    as the command's options.
    """
    if (definition is None) == (base is None or axes is None):
        raise InputError("sweep: give a sweep file, or base= and axes= (not both)")
    with tempfile.TemporaryDirectory(prefix="chaindem-sweep-") as folder:
        if definition is None:
            definition = os.path.join(folder, "sweep.ini")
            with open(definition, "w") as f:
                f.write(sweep_file_text(base, axes, combine, fixed, folder))
        out = os.fspath(output_file) if output_file is not None else os.path.join(folder, "s.h5")
        args = [os.fspath(definition), "-o", out] + (["--quiet"] if not progress else [])
        args += option_args({"threads": threads, "checkpoint_interval": checkpoint_interval})
        for key, value in (overrides or {}).items():
            args += ["--set", f"{key}={format_value(value)}"]
        for key in unset:
            args += ["--unset", str(key)]
        try:
            command("sweep", args)
        except RunError as failure:  # failed cases have rows: the table is still wanted
            if not os.path.exists(out):
                raise
            warnings.warn(str(failure), RuntimeWarning, stacklevel=2)
        return table(summary_columns(out), table_kind)


def compare(case: Case, laws: Sequence[str], *, reference: Optional[str] = None,
            reference_data: Optional[PathLike] = None, reference_quantity: Optional[str] = None,
            output_file: Optional[PathLike] = None, threads: Optional[int] = None,
            overrides: Optional[Mapping[str, Any]] = None, unset: Iterable[str] = (),
            table_kind: str = "numpy", **sections: Mapping[str, Any]):
    """Runs the case under each law and compares them with a reference law or measured data,
    as `chaindem compare` does (docs/compare.md). Returns one row per law, the reference
    first: law, and per metric (peak_velocity, peak_force, arrival_time, final_velocity) its
    values per chain bead, their relative errors [%] against the reference
    (<metric>_error_percent), the mean error and the number of beads compared; as a numpy
    structured array (or a pandas DataFrame with table_kind="pandas"). The reference's row holds
    the reference's values, errors 0 where it has a value.
    """
    text, origin, is_path = _case_source(case)
    with tempfile.TemporaryDirectory(prefix="chaindem-compare-") as folder:
        if not is_path:
            path = os.path.join(folder, "case.ini")
            with open(path, "w") as f:
                f.write(text)
            text = path
        out = os.fspath(output_file) if output_file is not None else os.path.join(folder, "c.h5")
        args = [text, "--laws", ",".join(laws), "-o", out]
        args += option_args({"reference": reference, "reference_data": reference_data,
                             "reference_quantity": reference_quantity, "threads": threads})
        for key in _override_list(overrides, sections, None):
            args += ["--set", key]
        for key in unset:
            args += ["--unset", str(key)]
        command("compare", args)
        c = Group(*_core.read(out, "comparison"))
    metrics = [name[len("reference_"):] for name in c if name.startswith("reference_")]
    names = [str(x) for x in c.attrs["laws"]]
    columns: dict[str, np.ndarray] = {
        "law": np.array([str(c.attrs["reference"])] + names, dtype=object),
        "impact_velocity": np.array(["reference"] + [str(x) for x in c.attrs["impact_velocity"]],
                                    dtype=object)}
    for m in metrics:
        ref = c["reference_" + m]
        columns[m] = np.vstack([ref, c[m]])
        columns[m + "_error_percent"] = np.vstack([np.where(np.isnan(ref), np.nan, 0.0),
                                                   c[m + "_error_percent"]])
        columns[m + "_mean_error_percent"] = np.r_[0.0, c[m + "_mean_error_percent"]]
        columns[m + "_beads_compared"] = np.r_[float(np.sum(~np.isnan(ref))),
                                               c[m + "_beads_compared"]]
    return table(columns, table_kind)


def load(path: Union[str, "os.PathLike[str]"], case: Optional[int] = None,
         law: Optional[str] = None) -> Run:
    """A run from a chaindem file: a `run` file, case `case` of a sweep file, or the run of
    `law` in a compare file (chaindem.post.load_run)."""
    return load_run(os.fspath(path), case=case, law=law)


@dataclass(frozen=True)
class Parameter:
    """A law parameter: its key in [contact], unit, meaning, allowed range and default."""
    key: str
    unit: str
    description: str
    min: float
    max: float
    min_inclusive: bool
    max_inclusive: bool
    range: str                 # as printed: "(0, 1]"
    default: Optional[float]   # None: required, or derived (default_text says how)
    default_text: str


@dataclass(frozen=True)
class Law:
    """A contact law of the registry (docs/contact-laws.md)."""
    id: str
    title: str
    family: str
    citation: str
    formula: str
    damping: str
    notes: str
    tension: str               # the default tension policy
    uses_impact_velocity: bool
    parameters: tuple[Parameter, ...]


def models(family: Optional[str] = None) -> list[Law]:
    """Every contact law, in the order of docs/contact-laws.md; or those of one family."""
    laws = [Law(**{**record, "parameters": tuple(Parameter(**p) for p in record["parameters"])})
            for record in _core.laws()]
    if family is None:
        return laws
    families = sorted({law.family for law in laws})
    if family not in families:
        raise InputError(f"family {family!r} is not a law family; the families are "
                         f"{', '.join(families)}")
    return [law for law in laws if law.family == family]


def _case_source(case: Case) -> tuple[str, str, bool]:
    """(text, origin, is_path): what _core.run reads."""
    if isinstance(case, Mapping):
        sections: dict[str, list[str]] = {}
        for key, value in case.items():
            if isinstance(value, Mapping):
                for k, v in value.items():
                    sections.setdefault(str(key), []).append(f"{k} = {format_value(v)}")
                continue
            section, dot, name = str(key).rpartition(".")
            if not dot:
                raise InputError(f"case key {key!r}: give it as section.key, e.g. chain.count")
            sections.setdefault(section, []).append(f"{name} = {format_value(value)}")
        text = "".join(f"[{s}]\n" + "".join(line + "\n" for line in lines)
                       for s, lines in sections.items())
        return text, "<dict>", False
    if isinstance(case, os.PathLike):
        return os.fspath(case), os.fspath(case), True
    if isinstance(case, str):
        if "\n" in case or case.lstrip().startswith("["):
            return case, "<text>", False
        return case, case, True
    raise TypeError(f"case: a path, INI text or a mapping of keys, not {type(case).__name__}")


def _override_list(overrides: Optional[Mapping[str, Any]], sections: Mapping[str, Any],
                   threads: Optional[int]) -> list[str]:
    """The overrides as the command line's --set gives them: "section.key=value"."""
    keys = [f"{k}={format_value(v)}" for k, v in (overrides or {}).items()]
    for section, values in sections.items():
        if not isinstance(values, Mapping):
            raise TypeError(f"{section}={values!r}: give the section's keys as a mapping, e.g. "
                            f"{section}={{'key': value}} (or overrides={{'{section}.key': value}})")
        keys += [f"{section}.{k}={format_value(v)}" for k, v in values.items()]
    if threads is not None:
        keys.append(f"simulation.threads={format_value(threads)}")
    return keys
