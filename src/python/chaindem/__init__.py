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
import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _core
from ._core import InputError, RunError
from ._tree import Group
from .post import Run, load_run, run_from_group

__version__: str = _core.version
__all__ = ["run", "load", "models", "Law", "Parameter", "Run", "InputError", "RunError",
           "CaseNote"]

#: A case: a path to an INI file, INI text, or a mapping of keys ("section.key": value, or
#: section: {key: value}).
Case = Union[str, "os.PathLike[str]", Mapping[str, Any]]


class CaseNote(UserWarning):
    """How a case was read, as `chaindem run` notes it (a law parameter the law ignores, ...)."""


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


def _format(value: Any) -> str:
    """A value as a case file writes it."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "true" if value else "false"
    if isinstance(value, Mapping):
        raise TypeError(f"a case value cannot be a mapping: {value!r}")
    if isinstance(value, Sequence) or hasattr(value, "__array__"):
        return ", ".join(_format(v) for v in list(value))
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        return repr(float(value))
    return str(value)


def _case_source(case: Case) -> tuple[str, str, bool]:
    """(text, origin, is_path): what _core.run reads."""
    if isinstance(case, Mapping):
        sections: dict[str, list[str]] = {}
        for key, value in case.items():
            if isinstance(value, Mapping):
                for k, v in value.items():
                    sections.setdefault(str(key), []).append(f"{k} = {_format(v)}")
                continue
            section, dot, name = str(key).rpartition(".")
            if not dot:
                raise InputError(f"case key {key!r}: give it as section.key, e.g. chain.count")
            sections.setdefault(section, []).append(f"{name} = {_format(value)}")
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
    keys = [f"{k}={_format(v)}" for k, v in (overrides or {}).items()]
    for section, values in sections.items():
        if not isinstance(values, Mapping):
            raise TypeError(f"{section}={values!r}: give the section's keys as a mapping, e.g. "
                            f"{section}={{'key': value}} (or overrides={{'{section}.key': value}})")
        keys += [f"{section}.{k}={_format(v)}" for k, v in values.items()]
    if threads is not None:
        keys.append(f"simulation.threads={_format(threads)}")
    return keys
