"""What the public functions share: checking and formatting their arguments, cases as files,
running a command of the command line in this process, and the tables and the impact they
return. collide() is here too."""
from __future__ import annotations

import contextlib
import difflib
import json
import math
import os
import re
import signal
import tempfile
import threading
import warnings
from typing import Any, Iterator, Mapping, Optional, Union

import numpy as np

from . import _core
from ._core import InputError, RunError
from ._tree import Group
from .post import io, layout

PathLike = Union[str, "os.PathLike[str]"]


class CaseNote(UserWarning):
    """How a case was read, as the command line notes it (a law parameter the law ignores)."""


class LawValidityWarning(UserWarning):
    """A run's contacts left the range where their law's sources state it holds, as `chaindem
    run` warns (docs/engine.md, "Validity of the laws")."""


# ---- arguments -------------------------------------------------------------------------------

def require_mapping(name: str, value: Any) -> Mapping[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"{name}: a mapping of keys to values, not {type(value).__name__}")
    return value


def require_names(name: str, value: Any) -> list[str]:
    """A list of names (laws, keys): an iterable of str, not one str."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{name}: a list of names, not {type(value).__name__}"
                        + (f" (write [{value!r}])" if isinstance(value, str) else ""))
    names = list(value)
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"{name}: names are str, not {type(n).__name__} ({n!r})")
    return names


def require_int(name: str, value: Any) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: an int, not {type(value).__name__} ({value!r})")
    return int(value)


def require_bool(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: True or False, not {type(value).__name__} ({value!r})")
    return bool(value)


def format_value(value: Any, *, nested: bool = False) -> str:
    """A value as a case file or the command line writes it: numbers exactly (the shortest
    text that reads back as the same double), booleans as true/false, lists comma-separated."""
    if isinstance(value, np.generic):  # a numpy number: as the Python number it holds
        value = value.item()
    if value is None:
        raise TypeError("None is not a case value (unset= removes a key)")
    if isinstance(value, str):
        if "\n" in value or "\r" in value or "\0" in value:
            raise InputError(f"{value!r}: a case value is one line of text")
        if "#" in value:
            raise InputError(f"{value!r}: '#' starts a comment in a case file; a value cannot "
                             "hold it")
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Mapping):
        raise TypeError(f"a case value cannot be a mapping: {value!r}")
    if isinstance(value, (list, tuple, np.ndarray, range)):
        if nested:
            raise TypeError(f"a list inside a list is not a case value: {value!r}")
        return ", ".join(format_value(v, nested=True) for v in list(value))
    raise TypeError(f"{value!r}: a case value is a number, a bool, a str or a list of them")


def setting(option: str, key: Any, value: Any) -> str:
    """key=value, the value as format_value writes it, both checked as the command line checks
    --set: a key or value that would make a line, a section or a key of its own in a case file
    (a line break, a control character; '=', '#', ';', '[', ']' or a blank in the key) raises
    InputError naming `option` and the key."""
    _core.check_setting(option, str(key))
    try:
        text = format_value(value)
    except InputError as e:
        raise InputError(f"{option} {str(key)!r}: {e}") from None
    _core.check_setting(option, str(key), text)
    return f"{key}={text}"


# ---- cases as the commands read them ---------------------------------------------------------

def case_source(case: Any) -> tuple[str, str, bool]:
    """(text, origin, is_path) of a case as run() takes it: a path, INI text, or a mapping of
    keys ("section.key": value, or section: {key: value})."""
    if isinstance(case, Mapping):
        sections: dict[str, list[str]] = {}
        for key, value in case.items():
            if isinstance(value, Mapping):
                for k, v in value.items():
                    line = setting("case", f"{key}.{k}", v)[len(str(key)) + 1:]
                    sections.setdefault(str(key), []).append(line)
                continue
            section, dot, name = str(key).rpartition(".")
            if not dot:
                raise InputError(f"case key {key!r}: give it as section.key, e.g. chain.count")
            sections.setdefault(section, []).append(setting("case", key, value)[len(section) + 1:])
        text = "".join(f"[{s}]\n" + "".join(line + "\n" for line in lines)
                       for s, lines in sections.items())
        return text, "<dict>", False
    if isinstance(case, os.PathLike):
        case = os.fspath(case)
    if isinstance(case, str):
        if "\0" in case:
            raise ValueError("case: embedded null character")
        if "\n" in case or case.lstrip().startswith("["):
            return case, "<text>", False
        return case, case, True
    raise TypeError(f"case: a path, INI text or a mapping of keys, not {type(case).__name__}")


def absolute_initial_file(text: str) -> str:
    """INI text with a relative [initial] file made absolute from the current folder: the text
    goes into a temporary file, and run() reads such a path from the current folder too."""
    out, section = [], ""
    for line in text.splitlines():
        header = re.match(r"\s*\[([^\]]+)\]", line)
        if header:
            section = header.group(1).strip()
        key = re.match(r"(\s*file\s*=\s*)([^#]*?)(\s*(#.*)?)$", line)
        if section == "initial" and key and key.group(2) and not os.path.isabs(key.group(2)):
            line = key.group(1) + os.path.abspath(key.group(2)) + key.group(3)
        out.append(line)
    return "\n".join(out) + "\n"


def case_file(case: Any, folder: str, name: str) -> tuple[str, str]:
    """(path, origin) of a case for a command that reads a file: a path as it is, INI text or a
    mapping written into `folder`."""
    text, origin, is_path = case_source(case)
    if is_path:
        return text, origin
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(absolute_initial_file(text))
    return path, origin


# ---- outputs in use --------------------------------------------------------------------------

_outputs_lock = threading.Lock()
_outputs: set[str] = set()


@contextlib.contextmanager
def claimed_output(path: Optional[PathLike]) -> Iterator[Optional[str]]:
    """The output `path` for one call: another call of this process that writes it is refused
    (processes refuse each other through the file's lock; threads of one process share it)."""
    if path is None:
        yield None
        return
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"output_file: a path, not {type(path).__name__}")
    path = os.fspath(path)
    key = os.path.realpath(path)
    with _outputs_lock:
        if key in _outputs:
            raise InputError(f"output_file {path!r}: another call of this process writes it")
        _outputs.add(key)
    try:
        yield path
    finally:
        with _outputs_lock:
            _outputs.discard(key)


# ---- commands --------------------------------------------------------------------------------

def command(name: str, args: list[str], *, echo: bool = False,
            origins: Optional[Mapping[str, str]] = None) -> str:
    """Runs command `name` with `args` in this process; its stdout. Its notes become CaseNote
    warnings; exit status 2 raises InputError, 1 RunError, Ctrl-C KeyboardInterrupt, SIGTERM
    RunError, each with the command's message, in which `origins` replaces the temporary files'
    paths by what the user gave (<text>, <dict>)."""
    status, out, err = _core.command(name, args, echo)
    for path, origin in (origins or {}).items():
        err = err.replace(path, origin)
    messages = []  # the command's own lines; progress lines have no "chaindem NAME: "
    prefix = f"chaindem {name}: "
    for line in err.replace("\r", "\n").splitlines():
        if not line.startswith(prefix):
            continue
        text = line[len(prefix):]
        if text.startswith("note: "):
            warnings.warn(text[len("note: "):], CaseNote, stacklevel=3)
        elif " already finished, " not in text:  # the sweep's count of cases
            messages.append(text)
    message = "\n".join(m.split(": ", 1)[1] if m.startswith(("invalid input: ", "invalid output: ",
                                                              "error: ")) else m
                        for m in messages)
    if status == 0:
        return out
    if status == 2:
        raise InputError(message)
    if status == 128 + signal.SIGTERM:
        raise RunError(f"stopped by SIGTERM: {message}")
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


COLLIDE_OPTIONS = ("mass", "mass2", "radius", "radius2", "youngs_modulus", "youngs_modulus2",
                   "poisson_ratio", "poisson_ratio2", "density", "density2", "yield_stress",
                   "yield_stress2", "wall", "length", "tension", "impact_velocity",
                   "reference_velocity", "dimensionless", "restitution", "stiffness")


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
    none); with `loop`, also "loop": the impact's force-overlap loop, a chaindem.post.Loop
    (time, overlap, rate, force arrays) that chaindem.post.plots.force_overlap draws.
    """
    if not isinstance(law, str):
        raise TypeError(f"law: a law's identifier (str), not {type(law).__name__}")
    for key in options:
        if key not in COLLIDE_OPTIONS:
            near = difflib.get_close_matches(key, COLLIDE_OPTIONS, 1)
            raise TypeError(f"collide() has no option {key!r}"
                            + (f"; did you mean {near[0]!r}?" if near else "")
                            + f" (options: {', '.join(COLLIDE_OPTIONS)})")
    args = ["--law", law, "--json"] + option_args(options)
    if velocity is not None:
        args += ["--velocity", format_value(velocity)]
    for key, value in require_mapping("params", params).items():
        args += ["--set", setting("params", key, value)]
    with tempfile.TemporaryDirectory(prefix="chaindem-collide-") as folder:
        path = os.path.join(folder, "loop.h5")
        out = command("collide", args + (["-o", path] if require_bool("loop", loop) else []))
        values = {k: (math.nan if v is None else v) for k, v in json.loads(out).items()}
        if loop:
            values["loop"] = io.loop_from_group(
                Group(*_core.read(path)), "",
                {k: v for k, v in values.items() if isinstance(v, float)})
    return values


# ---- tables ----------------------------------------------------------------------------------

def table(columns: Mapping[str, np.ndarray], kind: str):
    """Columns of equal length as a numpy structured array (kind "numpy") or a pandas
    DataFrame ("pandas"; a column of several values per row holds arrays)."""
    if kind == "pandas":
        try:
            import pandas
        except ImportError:
            raise InputError("table_kind='pandas' needs pandas (Debian: apt install "
                             "python3-pandas); table_kind='numpy' gives a structured array") from None
        return pandas.DataFrame({name: list(c) if c.ndim > 1 else c for name, c in columns.items()})
    if kind != "numpy":
        raise InputError(f"table_kind={kind!r}: 'numpy' (a structured array) or 'pandas'")
    fields = []
    for name, c in columns.items():
        dtype = c.dtype if c.dtype.kind != "O" else np.dtype(f"U{max([1] + [len(s) for s in c])}")
        fields.append((name, dtype, c.shape[1:]))
    n = len(next(iter(columns.values()))) if columns else 0
    out = np.zeros(n, dtype=fields)
    for name, c in columns.items():
        out[name] = c
    return out


def sweep_file_text(base_path: str, axes: Mapping[str, Any], combine: Optional[str],
                    fixed: Mapping[str, Any]) -> str:
    """A sweep file for a definition given in Python."""
    lines = ["[sweep]", f"base = {os.path.abspath(base_path)}"]
    if combine:
        lines.append(f"combine = {format_value(combine)}")
    if fixed:
        lines += ["[set]"] + [setting("fixed", k, v) for k, v in fixed.items()]
    lines += ["[axes]"] + [setting("axes", k, v) for k, v in axes.items()]
    return "\n".join(lines) + "\n"


def summary_columns(path: str) -> dict[str, np.ndarray]:
    """A sweep file's /summary, column by column: case, the axes in the sweep file's order,
    then the results by name."""
    summary = Group(*_core.read(path, layout.SUMMARY))
    return io.summary_columns(summary, io.sweep_axes(Group(*_core.read(path, layout.SWEEP))))
