"""chaindem from Python: run cases and read their results as numpy arrays, sweep, compare and
collide as the command line does, and the contact-law registry as records.

    import chaindem
    run = chaindem.run("cases/default.ini", chain={"count": 50}, threads=2)
    run.time, run.velocity              # s, frames; m/s, frames x particles x D (D = 1: x alone for a chain on the x axis; else 3)
    run.summary["striker_rebound_ratio"], run.per_bead["peak_velocity"]
    [law.id for law in chaindem.models(family="hysteresis")]
    chaindem.spectrum(run, bead=-1).peak()   # Hz and m/s of the last bead's strongest line

Runs compute with the GIL released; Ctrl-C stops them (KeyboardInterrupt). Input the command
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
from ._commands import (CaseNote, LawValidityWarning, case_file, case_source, claimed_output,
                        collide, command, format_value, option_args, require_bool, require_int,
                        require_mapping, require_names, setting, summary_columns,
                        sweep_file_text, table)
from ._core import InputError, RunError
from ._tree import Group
from .post import Run, layout, load_run, run_from_group
from .post.spectra import (Spectrum, Transmission, amplitude_spectrum, response_at, spectrum,
                           transmission)
from .post.io import comparison_columns

__version__: str = _core.version
__all__ = ["run", "collide", "sweep", "compare", "fit", "load", "models", "spectrum",
           "transmission", "amplitude_spectrum", "response_at", "Law", "Parameter", "Run",
           "Spectrum", "Transmission", "InputError", "RunError", "CaseNote", "LawValidityWarning"]

for _error, _doc in ((InputError, "Input the command line refuses with exit status 2: a case "
                      "key out of range, an unknown key or law, an output path that may not be "
                      "written. The message names the key and its allowed range."),
                     (RunError, "A run that fails, the command line's exit status 1: an "
                      "integration that diverges, an output that cannot be written; or a run "
                      "stopped by SIGTERM.")):
    _error.__module__, _error.__doc__ = "chaindem", _doc

#: A case: a path to an INI file, INI text, or a mapping of keys ("section.key": value, or
#: section: {key: value}).
Case = Union[str, "os.PathLike[str]", Mapping[str, Any]]
PathLike = Union[str, "os.PathLike[str]"]


def run(case: Case, *, output_file: Optional[PathLike] = None, threads: Optional[int] = None,
        progress: bool = False, overrides: Optional[Mapping[str, Any]] = None,
        unset: Iterable[str] = (), force: bool = False, **sections: Mapping[str, Any]) -> Run:
    """Runs a case, as `chaindem run` does, and returns its results in memory.

    case: a path to an INI case file, INI text, or a mapping of case keys.
    output_file: also write the run's HDF5 file (and its XDMF file) there, exactly as the
        command line does; the results are then read back from it. Without it nothing is
        written (the case's output.file is not used). An output_file that exists is refused
        (InputError) unless force=True, as the command line's --force.
    threads: OpenMP threads of the run (the key simulation.threads; 0: all cores).
    progress: print the command line's progress lines on stderr.
    overrides: case keys that win over the case: {"chain.count": 50, ...}.
    unset: keys to remove from the case, so that their defaults apply.
    sections: the same per section: chain={"count": 50}, output={"interval": 1e-5},
        material={"steel.density": 7800}.

    Raises InputError for a case the command line refuses (the message names the key and its
    allowed range), RunError for a run that fails (an integration that diverges, an output that
    cannot be written, SIGTERM), KeyboardInterrupt on Ctrl-C (nothing is written then). Its notes
    (a law parameter the law ignores) are CaseNote warnings, issued before it runs; a kind of
    contact that left the range where its law holds is a LawValidityWarning, issued after
    (Run.validity holds what each kind reached).
    """
    text, origin, is_path = case_source(case)
    keys = _override_list(overrides, sections, threads)
    removed = require_names("unset", unset)
    with claimed_output(output_file) as path:
        tree = _core.run(text, origin, is_path, keys, removed, path,
                         require_bool("force", force), require_bool("progress", progress),
                         lambda note: warnings.warn(note, CaseNote, stacklevel=3))
    result = run_from_group(Group(*tree), path or "")
    v = result.validity
    for contacts, law, exceeded in zip(v.get("contacts", []), v.get("law", []),
                                       v.get("exceeded", [])):
        if exceeded:  # the command line's warnings, as one per kind of contact
            warnings.warn(f"the {contacts} contacts of law '{law}' left the range its sources "
                          f"state: {exceeded}", LawValidityWarning, stacklevel=2)
    return result


def sweep(definition: Optional[Union[PathLike, str]] = None, *, base: Optional[Case] = None,
          axes: Optional[Mapping[str, Any]] = None, combine: Optional[str] = None,
          fixed: Optional[Mapping[str, Any]] = None, output_file: Optional[PathLike] = None,
          threads: Optional[int] = None, overrides: Optional[Mapping[str, Any]] = None,
          unset: Iterable[str] = (), checkpoint_interval: Optional[float] = None,
          progress: bool = False, table_kind: str = "numpy", force: bool = False):
    """Runs a sweep, as `chaindem sweep` does; returns its summary table: one row per case, a
    column per axis and per result (docs/sweeps.md), as a numpy structured array (or a pandas
    DataFrame with table_kind="pandas").

    definition: a sweep file (or its text). Or, instead: base (a case, as run() takes it), axes
    ({"contact.restitution": [0.1, 0.5, 0.9], "striker.velocity": "0.5:2:0.5"}), combine
    ("grid", the default, or "zip") and fixed (keys for every case, the file's [set]).
    output_file: keep the sweep's HDF5 file there (every case's frames), also what an
    interrupted sweep resumes from. Without it the file goes to a temporary folder and is
    removed (the sweep file's output key is not used). threads, overrides (--set), unset,
    checkpoint_interval: as the command's options; progress: its progress lines on stderr.
    An output_file that exists is refused unless force=True (--force).
    """
    if definition is not None and any(x is not None for x in (base, axes, combine, fixed)):
        raise InputError("sweep: give a sweep file, or base=, axes= (combine=, fixed=); not both")
    if definition is None and (base is None or axes is None):
        raise InputError("sweep: give a sweep file, or base= and axes=")
    with tempfile.TemporaryDirectory(prefix="chaindem-sweep-") as folder, \
            claimed_output(output_file) as kept:
        origins = {}
        if definition is None:
            base_path, origins[os.path.join(folder, "base.ini")] = case_file(base, folder, "base.ini")
            definition = os.path.join(folder, "sweep.ini")
            with open(definition, "w") as f:
                f.write(sweep_file_text(base_path, require_mapping("axes", axes), combine,
                                        require_mapping("fixed", fixed)))
            origins[definition] = "<sweep>"
        elif isinstance(definition, str) and "\n" in definition:
            text, definition = definition, os.path.join(folder, "sweep.ini")
            with open(definition, "w") as f:
                f.write(text)
            origins[definition] = "<sweep text>"
        elif not isinstance(definition, (str, os.PathLike)):
            raise TypeError(f"definition: a sweep file, not {type(definition).__name__}")
        out = kept or os.path.join(folder, "s.h5")
        args = [os.fspath(definition), "-o", out]
        if require_bool("force", force):
            args.append("--force")
        if not require_bool("progress", progress):
            args.append("--quiet")
        args += option_args({"threads": require_int("threads", threads),
                             "checkpoint_interval": checkpoint_interval})
        for key, value in require_mapping("overrides", overrides).items():
            args += ["--set", setting("overrides", key, value)]
        for key in require_names("unset", unset):
            args += ["--unset", key]
        try:
            command("sweep", args, echo=progress, origins=origins)
        except KeyboardInterrupt as stop:
            if kept:
                raise
            raise KeyboardInterrupt("sweep interrupted (give output_file= to be able to resume "
                                    "it)") from stop
        except RunError as failure:  # failed cases have rows: the table is still wanted
            if not os.path.exists(out):
                raise
            warnings.warn(str(failure), RuntimeWarning, stacklevel=2)
        return table(summary_columns(out), table_kind)


def compare(case: Case, laws: Sequence[str], *, reference: Optional[str] = None,
            reference_data: Optional[PathLike] = None, reference_quantity: Optional[str] = None,
            output_file: Optional[PathLike] = None, threads: Optional[int] = None,
            overrides: Optional[Mapping[str, Any]] = None, unset: Iterable[str] = (),
            table_kind: str = "numpy", force: bool = False, **sections: Mapping[str, Any]):
    """Runs the case under each law and compares them with a reference law or measured data,
    as `chaindem compare` does (docs/compare.md). Returns one row per law, the reference
    first: law; impact_velocity (the policy of v0 for laws with v0 in their damping, "none"
    for the others, "reference" on the reference's row); and per metric (peak_velocity,
    peak_force, arrival_time, final_velocity) its values per chain bead, their relative errors
    [%] against the reference (<metric>_error_percent), the mean error and the number of beads
    compared. The reference's row holds its values, errors 0 where it has a value. As a numpy
    structured array, or a pandas DataFrame with table_kind="pandas". output_file keeps the
    command's HDF5 file (every law's run); without it, it goes to a temporary folder. An
    output_file that exists is refused unless force=True (--force).
    """
    names = require_names("laws", laws)
    keys = _override_list(overrides, sections, None)
    with tempfile.TemporaryDirectory(prefix="chaindem-compare-") as folder, \
            claimed_output(output_file) as kept:
        path, origin = case_file(case, folder, "case.ini")
        out = kept or os.path.join(folder, "c.h5")
        args = [path, "--laws", ",".join(names), "-o", out]
        if require_bool("force", force):
            args.append("--force")
        args += option_args({"reference": reference, "reference_data": reference_data,
                             "reference_quantity": reference_quantity,
                             "threads": require_int("threads", threads)})
        for key in keys:
            args += ["--set", key]
        for key in require_names("unset", unset):
            args += ["--unset", key]
        command("compare", args, origins={path: origin} if path != origin else {})
        c = Group(*_core.read(out, layout.COMPARISON))
    return table(comparison_columns(c), table_kind)


BODY_OPTIONS = ("mass", "mass2", "radius", "radius2", "youngs_modulus", "youngs_modulus2",
                "poisson_ratio", "poisson_ratio2", "density", "density2", "yield_stress",
                "yield_stress2", "wall", "length")


def fit(data: Union[PathLike, Mapping[str, Any]], laws: Optional[Sequence[str]] = None, *,
        family: Optional[str] = None, free: Optional[Sequence[str]] = None,
        start: Optional[Mapping[str, float]] = None,
        bounds: Optional[Mapping[str, tuple[float, float]]] = None,
        fixed: Optional[Mapping[str, float]] = None,
        tension: Optional[str] = None, starts: Optional[int] = None, seed: Optional[int] = None,
        confidence: Optional[float] = None, output_file: Optional[PathLike] = None,
        case: Optional[PathLike] = None, quantity: Optional[str] = None,
        sigma: Optional[float] = None, threads: Optional[int] = None,
        bootstrap: Optional[int] = None, block: Optional[int] = None, force: bool = False,
        **bodies: Any) -> dict[str, Any]:
    """Fits laws to measured binary impacts, or to the measured history of a chain, as `chaindem
    fit` does (docs/fit.md): each law's free parameters with their intervals, the laws ranked by
    AICc.

    data: a CSV file, or its columns: {"velocity": [...], "restitution": [...]} (any of
    restitution, peak_force, contact_duration, max_overlap, NaN where a row does not measure
    it; and each one's uncertainty, "<quantity>_sigma", or "sigma" with one quantity). laws,
    or family: what to fit. free: the parameters to fit (default: each law's required ones);
    start: where the search starts, {"yield_stress": 2e8}; bounds: narrower ranges than the
    laws', {"restitution": (0.5, 0.9)}; fixed: parameters held (--set). bodies: as collide()
    takes them (radius=, youngs_modulus=, poisson_ratio=, density=, wall=True, mass=, ...).
    output_file: the fit's HDF5 file (chaindem.post.load_fit, plots.fit; one that exists is
    refused unless force=True, as --force). threads: laws fitted
    at once. bootstrap: intervals from this many refits to resampled residuals instead, in
    blocks of `block` consecutive points (default: 1 for impacts, from the residuals'
    correlation for a chain).

    A chain instead: case, its case file, and data its record, a CSV file or its columns,
    {"time": [...], "bead7": [...], ...} (as `compare --reference-data` reads them); quantity,
    "velocity" (default) or "force"; sigma, the uncertainty of every value (default: estimated
    from the residuals). fixed may then also hold case keys, {"simulation.duration": 2e-3}.

    Returns the command's JSON as a dict: kind ("impacts" or "chain"), quantities, points,
    weighted, confidence (a chain's also case and beads), and laws (best first), each with law,
    rank, aicc, delta_aicc, weight, bic, rss, scale, parameters (key, unit, value,
    standard_error, low, high, interval) and residuals (per series, a numpy array: per quantity
    of impacts, per bead of a chain, bead<k>); a law no search could fit has rank None and its
    failure instead. With bootstrap, each fitted law also has bootstrap: samples, refits, block.
    """
    for key in bodies:
        if key not in BODY_OPTIONS:
            near = __import__("difflib").get_close_matches(key, BODY_OPTIONS, 1)
            raise TypeError(f"fit() has no option {key!r}"
                            + (f"; did you mean {near[0]!r}?" if near else ""))
    with tempfile.TemporaryDirectory(prefix="chaindem-fit-") as folder, \
            claimed_output(output_file) as kept:
        origins = {}
        if isinstance(data, Mapping):
            columns = data_columns(data)
            if case is not None:  # a chain's record: time first ("time" or "time [unit]")
                times = [k for k in columns if k.split("[")[0].split("(")[0].strip() == "time"]
                if len(times) != 1:
                    raise InputError("data: a chain's record needs one time column, "
                                     f"'time' or 'time [unit]'; the columns are {list(columns)}")
                columns = {times[0]: columns.pop(times[0]), **columns}
                for name, column in columns.items():
                    if np.isnan(column).any():
                        raise InputError(f"data: column {name!r} holds NaN: a chain's record "
                                         "needs a value at every time")
            elif "velocity" in columns and not np.isfinite(columns["velocity"]).all():
                row = int(np.flatnonzero(~np.isfinite(columns["velocity"]))[0])
                raise InputError(f"data['velocity']: row {row} is {columns['velocity'][row]}: "
                                 "every impact needs its velocity, a finite number (NaN marks "
                                 "a value not measured, in the measured columns only)")
            lengths = {len(c) for c in columns.values()}
            if len(lengths) != 1:
                raise InputError(f"data: columns of different lengths {sorted(lengths)}")
            path = os.path.join(folder, "data.csv")
            with open(path, "w") as f:
                f.write(",".join(columns) + "\n")
                for row in zip(*columns.values()):  # NaN: not measured in that row
                    f.write(",".join("" if np.isnan(x) else repr(float(x)) for x in row) + "\n")
            origins[path] = "<data>"
        elif isinstance(data, (str, os.PathLike)):
            path = os.fspath(data)
        else:
            raise TypeError(f"data: a CSV file or a mapping of columns, not {type(data).__name__}")
        args = ["--data", path, "--json"]
        if require_bool("force", force):
            args.append("--force")
        if laws is not None:
            args += ["--laws", ",".join(require_names("laws", laws))]
        if free is not None:
            args += ["--free", ",".join(require_names("free", free))]
        for key, value in require_mapping("start", start).items():
            args += ["--start", setting("start", key, value)]
        for key, value in require_mapping("bounds", bounds).items():
            if not isinstance(value, (tuple, list)) or len(value) != 2:
                raise TypeError(f"bounds[{key!r}]: a pair (low, high), not {value!r}")
            args += ["--bounds", setting("bounds", key, f"{format_value(value[0])}:"
                                                        f"{format_value(value[1])}")]
        for key, value in require_mapping("fixed", fixed).items():
            args += ["--set", setting("fixed", key, value)]
        args += option_args({"family": family, "tension": tension,
                             "starts": require_int("starts", starts),
                             "seed": require_int("seed", seed), "confidence": confidence,
                             "output": kept, "quantity": quantity, "sigma": sigma,
                             "threads": require_int("threads", threads),
                             "bootstrap": require_int("bootstrap", bootstrap),
                             "block": require_int("block", block),
                             "case": None if case is None else os.fspath(case)})
        args += option_args(bodies)
        result = __import__("json").loads(command("fit", args, origins=origins))
    result["data"] = origins.get(result["data"], result["data"])
    for law in result["laws"]:
        if "failure" in law:  # no start of the search reached a usable fit
            continue
        law["residuals"] = {q: np.array([np.nan if x is None else x for x in r])
                            for q, r in law["residuals"].items()}
        for p in law["parameters"]:
            for k in ("value", "standard_error", "low", "high"):
                p[k] = np.nan if p[k] is None else p[k]
    return result


def data_columns(data: Mapping[Any, Any]) -> dict[str, np.ndarray]:
    """fit()'s data given as columns: each a sequence of numbers, one-dimensional."""
    columns = {}
    for key, value in data.items():
        name = str(key)
        if "," in name or any(ord(c) < 32 or ord(c) == 127 for c in name):  # a cell of a header
            raise InputError(f"data: column {name!r}: a name without commas, line breaks or "
                             "control characters")
        try:
            column = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            raise InputError(f"data[{name!r}]: a column of numbers, not {value!r:.60}") from None
        if column.ndim != 1:
            raise InputError(f"data[{name!r}]: a column is one-dimensional (a list or a 1-D "
                             f"array of numbers), not of shape {column.shape}")
        columns[name] = column
    return columns


def load(path: PathLike, case: Optional[int] = None, law: Optional[str] = None) -> Run:
    """A run from a chaindem file: a `run` file, case `case` of a sweep file, or the run of
    `law` in a compare file (chaindem.post.load_run)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: a path, not {type(path).__name__}")
    return load_run(os.fspath(path), case=require_int("case", case), law=law)


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


def _override_list(overrides: Optional[Mapping[str, Any]], sections: Mapping[str, Any],
                   threads: Optional[int]) -> list[str]:
    """The overrides as the command line's --set gives them: "section.key=value"."""
    keys = [setting("overrides", k, v) for k, v in require_mapping("overrides", overrides).items()]
    for section, values in sections.items():
        if not isinstance(values, Mapping):
            raise TypeError(f"{section}={values!r}: give the section's keys as a mapping, e.g. "
                            f"{section}={{'key': value}} (or overrides={{'{section}.key': value}})")
        keys += [setting(section, f"{section}.{k}", v) for k, v in values.items()]
    threads = require_int("threads", threads)
    if threads is not None:
        keys.append(f"simulation.threads={threads}")
    return keys

