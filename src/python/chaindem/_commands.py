"""collide, sweep and compare from Python: the command line's commands, run in this process
(GIL released, Ctrl-C honoured), their results read back as Python values and numpy arrays."""
from __future__ import annotations

import json
import math
import os
import tempfile
import warnings
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from . import _core
from ._core import InputError, RunError
from ._tree import Group

PathLike = Union[str, "os.PathLike[str]"]


class CaseNote(UserWarning):
    """How a case was read, as the command line notes it (a law parameter the law ignores)."""


def format_value(value: Any) -> str:
    """A value as a case file or the command line writes it."""
    if isinstance(value, np.generic):  # a numpy number: as the Python number it holds
        value = value.item()
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same number
    if isinstance(value, Mapping):
        raise TypeError(f"a case value cannot be a mapping: {value!r}")
    if isinstance(value, (Sequence, np.ndarray)):
        return ", ".join(format_value(v) for v in list(value))
    return str(value)


def command(name: str, args: list[str]) -> str:
    """Runs command `name` with `args`; its stdout. Its notes become CaseNote warnings; exit
    status 2 raises InputError, 1 RunError, an interruption KeyboardInterrupt, each with the
    command's message."""
    status, out, err = _core.command(name, args)
    messages = []
    for line in err.splitlines():
        text = line.split(": ", 1)[1] if line.startswith(f"chaindem {name}: ") else line
        if text.startswith("note: "):
            warnings.warn(text[len("note: "):], CaseNote, stacklevel=3)
        elif text.strip():
            messages.append(text)
    message = "\n".join(m.split(": ", 1)[1] if m.startswith(("invalid input: ", "invalid output: ",
                                                              "error: ")) else m
                        for m in messages)
    if status == 0:
        return out
    if status == 2:
        raise InputError(message)
    if status > 128:
        raise KeyboardInterrupt(message)
    raise RunError(message)


def option_args(options: Mapping[str, Any]) -> list[str]:
    """Keyword options as command-line options: youngs_modulus=2e11 -> --youngs-modulus 2e11;
    True -> the flag alone; False and None -> nothing."""
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        args.append("--" + key.replace("_", "-"))
        if value is not True:
            args.append(format_value(value))
    return args


def collide(law: str, *, velocity: Optional[float] = None,
            params: Optional[Mapping[str, float]] = None, loop: bool = True,
            **options: Any) -> dict[str, Any]:
    """One head-on impact, as `chaindem collide` integrates it.

    law: the law's identifier. velocity: the impact velocity [m/s] (not with dimensionless).
    params: law parameters, {"restitution": 0.8}. options: the command's options, with
    underscores: mass, mass2, radius, radius2, youngs_modulus, poisson_ratio, density,
    yield_stress (and their "2" forms), wall=True, length, tension, impact_velocity,
    reference_velocity, dimensionless=True, restitution, stiffness.

    Returns the command's results (`collide --json`, exact): restitution, peak_force,
    max_overlap, contact_duration, impulse, dissipated_energy, ... (NaN where the command has
    none); with `loop`, also "loop": {"time", "overlap", "approach_rate", "force"}, the impact's
    force-overlap loop as arrays.
    """
    args = ["--law", law, "--json"] + option_args(options)
    if velocity is not None:
        args += ["--velocity", format_value(velocity)]
    for key, value in (params or {}).items():
        args += ["--set", f"{key}={format_value(value)}"]
    with tempfile.TemporaryDirectory(prefix="chaindem-collide-") as folder:
        path = os.path.join(folder, "loop.h5")
        out = command("collide", args + (["-o", path] if loop else []))
        values = {k: (math.nan if v is None else v) for k, v in json.loads(out).items()}
        if loop:
            file = Group(*_core.read(path))
            values["loop"] = {name: file[name] for name in
                              ("time", "overlap", "approach_rate", "force")}
    return values


def table(columns: Mapping[str, np.ndarray], kind: str):
    """Columns of equal length as a numpy structured array (kind "numpy") or a pandas
    DataFrame ("pandas"; a column of several values per row holds arrays)."""
    if kind == "pandas":
        try:
            import pandas
        except ImportError:
            raise InputError("table='pandas' needs pandas (Debian: apt install python3-pandas); "
                             "table='numpy' gives a structured array") from None
        return pandas.DataFrame({name: list(c) if c.ndim > 1 else c for name, c in columns.items()})
    if kind != "numpy":
        raise InputError(f"table={kind!r}: 'numpy' (a structured array) or 'pandas'")
    fields = []
    for name, c in columns.items():
        dtype = c.dtype if c.dtype.kind != "O" else np.dtype(f"U{max([1] + [len(s) for s in c])}")
        fields.append((name, dtype, c.shape[1:]))
    n = len(next(iter(columns.values()))) if columns else 0
    out = np.zeros(n, dtype=fields)
    for name, c in columns.items():
        out[name] = c
    return out


def sweep_file_text(base: Any, axes: Mapping[str, Any], combine: Optional[str],
                    fixed: Optional[Mapping[str, Any]], folder: str) -> str:
    """A sweep file for a definition given in Python; a base case that is not a path is
    written into `folder`."""
    from . import _case_source  # the case forms run() takes
    text, _, is_path = _case_source(base)
    if not is_path:
        path = os.path.join(folder, "base.ini")
        with open(path, "w") as f:
            f.write(text)
        text = path
    lines = ["[sweep]", f"base = {os.path.abspath(text)}"]
    if combine:
        lines.append(f"combine = {combine}")
    if fixed:
        lines += ["[set]"] + [f"{k} = {format_value(v)}" for k, v in fixed.items()]
    lines += ["[axes]"] + [f"{k} = {format_value(v)}" for k, v in axes.items()]
    return "\n".join(lines) + "\n"


def summary_columns(path: str) -> dict[str, np.ndarray]:
    """A sweep file's /summary, column by column: case, the axes in the sweep file's order,
    then the results by name."""
    summary = Group(*_core.read(path, "summary"))
    definition = Group(*_core.read(path, "sweep"))
    axes = list(definition["axes"].keys())
    text = definition["sweep_file"]
    order = [line.split("=")[0].strip() for line in text.splitlines()
             if "=" in line and line.split("=")[0].strip() in axes]
    names = ["case"] + order + sorted(n for n in summary if n != "case" and n not in order)
    return {name: np.asarray(summary[name]) for name in names}
