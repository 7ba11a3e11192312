"""Figures of chaindem results. Each function returns a matplotlib Figure (Agg backend, no
display needed) with axes labelled in words with their units in brackets, a title naming the case,
and a legend or colour bar; save it with ``fig.savefig("name.png")`` or ``.pdf``.

Beads are numbered as everywhere in chaindem (the run summary, ``output.arrival_beads``,
``chaindem compare``): chain beads from 0, 0 being the first bead after the striker, and the
striker named "striker".
"""
from __future__ import annotations

import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.colors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import matplotlib.transforms  # noqa: E402
import numpy as np  # noqa: E402

from . import layout, spectra  # noqa: E402
from .io import Comparison, Fit, Loop, Run, Sweep  # noqa: E402

plt.rcParams.update({"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11,
                     "legend.fontsize": 9.5})

# Names in words of the laws most used; any other law is shown by its identifier.
LAW_NAMES = {
    "hooke": "linear spring", "hertz": "Hertz", "kelvin_voigt": "Kelvin–Voigt",
    "tsuji": "Tsuji et al.", "kuwabara_kono": "Kuwabara–Kono",
    "edem_hertz_mindlin": "EDEM Hertz–Mindlin",
    "equivalent_oscillator_viscous": "equivalent-oscillator viscous law",
    "hunt_crossley": "Hunt–Crossley", "lankarani_nikravesh": "Lankarani–Nikravesh",
    "lee_wang": "Lee–Wang", "marhefka_orin": "Marhefka–Orin",
    "herbert_mcwhannell": "Herbert–McWhannell", "gonthier": "Gonthier et al.",
    "gonthier_exact": "exact restitution factor (Gonthier)", "flores": "Flores et al.",
    "carvalho_martins": "Carvalho–Martins", "zhiying_qishao": "Zhiying–Qishao",
    "gharib_hurmuzlu": "Gharib–Hurmuzlu", "hu_guo": "Hu–Guo",
    "jankowski_piecewise": "Jankowski", "johnson_cylindrical": "Johnson (line contact)",
    "hertz_cylindrical": "Hertz (line contact)",
}

METRICS = {name: (words, unit)  # compare metrics: words and unit
           for name, (unit, words) in layout.COMPARISON_METRICS.items()}


def law_name(law: str) -> str:
    """A law's name in words (its identifier when it has no shorter name)."""
    return LAW_NAMES.get(str(law), str(law))


def _reference_name(reference: str) -> str:
    if reference == "newton":
        return "Newton's impact law"
    if reference.startswith("data:"):
        return f"measured data ({reference[5:].rsplit('/', 1)[-1]})"
    return law_name(reference)


def _bead_xlabel(run: Run) -> str:
    return ("chain bead (0 = first bead after the striker)" if run.striker >= 0
            else "chain bead (0 = first bead)")


def _bead_ticks(ax, run: Run, wall_end: bool = False) -> None:
    """Chain-bead ticks on the x axis: integers from 0, "striker" at -1, "wall" after the last."""
    n = run.chain_count
    ticks = [t for t in matplotlib.ticker.MaxNLocator(nbins=8, integer=True).tick_values(0, n - 1)
             if 0 <= t <= n - 1]
    labels = [str(int(t)) for t in ticks]
    if run.striker >= 0:
        ticks, labels = [-1] + ticks, ["striker"] + labels
    if wall_end:
        ticks, labels = ticks + [n], labels + ["wall"]
    ax.set_xticks(ticks, labels)
    crowded = n > 12
    for t, label in zip(ticks, ax.get_xticklabels()):
        if crowded and t == -1:
            label.set_horizontalalignment("right")  # clear of bead 0's label
        if crowded and t == n and wall_end:
            label.set_horizontalalignment("left")


def _mark_interfaces(ax, run: Run) -> None:
    """The interfaces between the chain's sections (a case of several contact models): a thin
    line between the beads where the material changes, and each section's material at the top
    of its stretch of the axis."""
    if len(run.sections) < 2:
        return
    for section in run.sections[1:]:
        ax.axvline(section.first_bead - 0.5, color="0.25", lw=0.7, ls="--", gid="interface")
    top = matplotlib.transforms.blended_transform_factory(ax.transData, ax.transAxes)
    for section in run.sections:
        ax.text((section.first_bead + section.last_bead) / 2, 0.99, section.material,
                transform=top, ha="center", va="top", fontsize="small", gid="section",
                bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.7, "pad": 1.0})


# --- the space-time diagram -----------------------------------------------------------------

def _white_to_magma() -> matplotlib.colors.Colormap:
    """magma_r starting from white, so that beads out of contact are white (as beads at rest
    are in the velocity map)."""
    colors = matplotlib.colormaps["magma_r"](np.linspace(0.0, 1.0, 256))
    w = np.clip(np.linspace(0.0, 1.0, 256) / 0.12, 0.0, 1.0)[:, None]
    colors[:, :3] = w * colors[:, :3] + (1.0 - w)
    return matplotlib.colors.ListedColormap(colors, "white_magma").with_extremes(
        under="white", bad="white")


_FORCE_CMAP = _white_to_magma()


def _peaks(data: np.ndarray) -> np.ndarray:
    """Each column's largest |value| (a bead's or a contact's peak)."""
    return np.abs(data).max(axis=0) if data.size else np.zeros(0)


def _color_norm(data: np.ndarray, color_range: str, signed: bool):
    """The colour normalisation of a space-time diagram, and whether data must be divided by
    each column's peak ("bead")."""
    spec = str(color_range).strip().lower()
    peak = float(np.abs(data).max()) if data.size else 0.0
    peak = peak or 1.0
    if spec == "bead":
        return (matplotlib.colors.Normalize(-1.0, 1.0) if signed
                else matplotlib.colors.Normalize(0.0, 1.0)), True
    if spec == "log":  # three decades below the largest value
        if signed:
            return matplotlib.colors.SymLogNorm(linthresh=peak * 1e-3, linscale=0.5,
                                                vmin=-peak, vmax=peak, base=10), False
        return matplotlib.colors.LogNorm(peak * 1e-3, peak), False
    m = re.fullmatch(r"p(\d+(?:\.\d*)?)", spec)
    if m:
        q = float(m.group(1))
        if not 0 < q <= 100:
            raise ValueError(f"color range {color_range!r}: the percentile is in (0, 100]")
        peaks = _peaks(data)
        # The beads the pulse reached (peak above 1 % of the largest): beads still at rest would
        # pull the range down to the noise ahead of the front.
        reached = peaks[peaks >= 0.01 * peak]
        limit = float(np.percentile(reached, q)) if reached.size else peak
        lo, hi = (-limit, limit) if signed else (min(0.0, float(data.min())), limit)
    else:
        try:
            parts = [float(p) for p in spec.split(":")]
        except ValueError:
            raise ValueError(f"color range {color_range!r}: pNN (e.g. p50), bead, log, a limit V "
                             "(from -V to V, or 0 to V for forces) or LO:HI") from None
        if len(parts) == 1:
            lo, hi = (-abs(parts[0]), abs(parts[0])) if signed else (0.0, abs(parts[0]))
        elif len(parts) == 2:
            lo, hi = parts
        else:
            raise ValueError(f"color range {color_range!r}: LO:HI has two numbers")
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise ValueError(f"color range {color_range!r}: needs finite LO < HI")
    if lo < 0.0 < hi:  # zero stays the middle colour (white for velocities)
        return matplotlib.colors.TwoSlopeNorm(vcenter=0.0, vmin=lo, vmax=hi), False
    return matplotlib.colors.Normalize(lo, hi), False


def spacetime(run: Run, quantity: str = "velocity", color_range: str = "p50") -> plt.Figure:
    """The wave picture: the velocity of every bead (or the force of every contact) over time,
    one column per bead (per contact, drawn between the beads it joins) and one row per output
    frame, on the chain-bead axis: the striker at -1, chain beads from 0.

    color_range: "pNN" clips the colours at the NN-th percentile of the beads' peak values
    (beads the pulse reached), so that a pulse that decays along the chain stays visible
    (default p50, the median peak; p100 is the largest value); "bead" divides each column by
    its own peak; "log" is a logarithmic scale over three decades (symmetric for velocities);
    a number V colours -V..V (0..V for forces); "LO:HI" sets both limits.

    A case of several contact models has the interfaces between the chain's sections marked
    (dashed lines where the material changes, each section's material at the top)."""
    t_ms = run.time * 1e3
    if quantity == "velocity":
        columns = ([run.striker] if run.striker >= 0 else []) + [
            run.chain_first + k for k in range(run.chain_count)]
        columns = run.written(columns)  # output.beads may have left some out
        x = np.array([-1.0 if i == run.striker else float(i - run.chain_first) for i in columns])
        data = run.vx[:, [run.row(i) for i in columns]]
        label, unit, cmap, signed = "velocity $v_x$", "m/s", "RdBu_r", True
        wall_end = False
    elif quantity == "force":
        x, _, data = run.contact_forces()
        t_ms = run.contacts["time"] * 1e3  # output.contacts_interval: its own frames
        label, unit, signed = "contact force", "N", False
        cmap = _FORCE_CMAP
        wall_end = bool(x.size) and x[-1] > run.chain_count - 1
    else:
        raise ValueError(f"quantity: 'velocity' or 'force', not '{quantity}'")
    norm, per_bead = _color_norm(data, color_range, signed)
    if per_bead:
        peaks = _peaks(data)
        data = data / np.where(peaks > 0, peaks, 1.0)
        label = label + " / its peak"
        unit = "-"
    fig, ax = plt.subplots(figsize=(7, 5), constrained_layout=True)
    mesh = ax.pcolormesh(x, t_ms, data, shading="nearest", cmap=cmap, norm=norm,
                         rasterized=True)
    lo, hi = norm.vmin, norm.vmax
    extend = {(True, True): "both", (True, False): "min", (False, True): "max"}.get(
        (bool(data.size and data.min() < lo), bool(data.size and data.max() > hi)), "neither")
    fig.colorbar(mesh, ax=ax, label=f"{label} [{unit}]", extend=extend)
    _bead_ticks(ax, run, wall_end)
    _mark_interfaces(ax, run)
    ax.set_xlabel(_bead_xlabel(run) + ("; contacts between the beads" if quantity == "force"
                                       else ""))
    ax.set_ylabel("time [ms]")
    what = "velocity of the beads" if quantity == "velocity" else "contact forces"
    ax.set_title(f"{run.name}: {what} ({law_name(run.law.get('id', ''))})")
    return fig


# --- other figures of a run -----------------------------------------------------------------

def _legend(ax) -> None:
    """A legend that does not hide data: beside the axes."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)


def histories(run: Run, beads: list, quantity: str = "velocity") -> plt.Figure:
    """Velocity (or total force) of chosen chain beads over time. beads: chain bead numbers
    (from 0; negative from the end) or "striker"."""
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    for b in beads:
        i = run.particle(b)
        row = run.row(i)
        series = run.vx[:, row] if quantity == "velocity" else run.series("force")[:, row, 0]
        ax.plot(run.time * 1e3, series, label=run.bead_label(i))
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("velocity $v_x$ [m/s]" if quantity == "velocity" else "total force $F_x$ [N]")
    ax.axhline(0.0, color="0.6", lw=0.6, zorder=0)
    _legend(ax)
    ax.get_legend().set_title("chain beads from 0", prop={"size": "small"})
    what = "velocity of the beads" if quantity == "velocity" else "force on the beads"
    ax.set_title(f"{run.name}: {what} ({law_name(run.law.get('id', ''))})")
    return fig


def force_overlap(source: Loop | Run, pair: tuple | None = None) -> plt.Figure:
    """The hysteresis loop: contact force against overlap, from a `collide -o` file, or for one
    contact of a run: pair = (a, b) of chain beads (from 0), "striker" or "wall"."""
    fig, ax = plt.subplots(figsize=(6, 4.5), constrained_layout=True)
    if isinstance(source, Loop):
        e = source.results.get("restitution", float("nan"))
        ax.plot(source.overlap * 1e6, source.force, label=f"{law_name(source.law)}, e = {e:.4f}")
        title = f"One impact: {law_name(source.law)}"
    else:
        if pair is None:
            raise ValueError("a run needs pair=(a, b): chain beads, striker or wall")
        c = source.contacts
        if not c:
            raise ValueError(f"{source.path}: written without contacts")
        ends = []
        for p in pair:
            if p == "wall":
                ends.append(None)
            else:
                ends.append(source.particle(p))
        if None in ends:
            if ends == [None, None]:
                raise ValueError("a contact has at most one wall")
            particle = ends[0] if ends[1] is None else ends[1]
            rows = (c["first"] == particle) & (c["second"] < 0)
            names = [source.bead_label(particle), "wall"]
        else:
            a, b = ends
            rows = ((c["first"] == a) & (c["second"] == b)) | ((c["first"] == b) & (c["second"] == a))
            names = [source.bead_label(a), source.bead_label(b)]
        if not rows.any():
            raise ValueError(f"{names[0]} and {names[1]} never touch in the output")
        ax.plot(c["overlap"][rows] * 1e6, c["normal_force"][rows], ".-", ms=3,
                label=f"{names[0]}–{names[1]}")
        title = (f"{source.name}: contact {names[0]}–{names[1]} "
                 f"({law_name(source.law.get('id', ''))})")
    ax.set_xlabel("overlap $\\delta$ [µm]")
    ax.set_ylabel("normal force $F$ [N]")
    ax.legend(loc="upper left")
    ax.set_title(title)
    return fig


def restitution_curve(sweep: Sweep, output: str = "isolated_restitution",
                      restitution_axis: str = "contact.restitution", group_by: str = "contact.law",
                      where: dict[str, object] | None = None) -> plt.Figure:
    """The restitution each law achieves against its parameter c_r (the c_r its damping is
    derived from, which most laws do not return: docs/contact-laws.md), with the line e_out = c_r.

    The default output is the restitution of the isolated contacts, those that began from apart
    and ended with neither body touching anything else (a chain's binary impacts): the mean of
    each case, with bars over its range. Another summary column (e.g. striker_rebound_ratio) is
    plotted as it is. One line per value of `group_by` and of every other axis that varies;
    `where` keeps only the cases with the given axis values, e.g. {"striker.velocity": 1}."""
    cols = sweep.columns
    keep = np.ones(len(sweep), bool)
    for key, value in (where or {}).items():
        if key not in cols:
            raise ValueError(f"no column {key!r} in the sweep")
        col = cols[key]
        keep &= (col == value) if col.dtype.kind in "OUS" else np.isclose(col, float(value))
    if output + "_mean" in cols:
        y, low, high = (cols[f"{output}_{part}"][keep] for part in ("mean", "min", "max"))
    elif output in cols:
        y = cols[output][keep]
        low = high = y
    else:
        raise ValueError(f"no summary column {output!r} (nor {output}_mean) in the sweep")
    if not np.any(np.isfinite(y)):
        raise ValueError(
            f"no case has a value of {output}" + (
                ": no contact began from apart and ended alone. Give the chain gaps wider than "
                "a bead travels during one contact (chain.gap, striker.gap)"
                if output == "isolated_restitution" else ""))
    others = [a for a in sweep.axes if a not in (restitution_axis, group_by) and a not in (where or {})]
    groups = cols[group_by][keep] if group_by in cols else np.array(["all"] * keep.sum())
    keys = [tuple(cols[a][keep][k] for a in others) for k in range(keep.sum())]
    x = cols[restitution_axis][keep]
    fig, ax = plt.subplots(figsize=(6.5, 5), constrained_layout=True)
    colors = {g: f"C{k % 10}" for k, g in enumerate(dict.fromkeys(groups))}
    styles = {v: ("-", "--", ":", "-.")[k % 4] for k, v in enumerate(dict.fromkeys(keys))}
    for g in colors:  # first-appearance order
        for v in styles:
            sel = (groups == g) & np.array([kv == v for kv in keys]) & np.isfinite(y)
            if not sel.any():
                continue
            order = np.argsort(x[sel])
            xs, ys = x[sel][order], y[sel][order]
            name = law_name(g) if group_by == "contact.law" else str(g)
            label = ", ".join([name] + [f"{a} = {val:g}" if isinstance(val, (float, np.floating))
                                        else f"{a} = {val}" for a, val in zip(others, v)])
            ax.errorbar(xs, ys, yerr=[ys - low[sel][order], high[sel][order] - ys], marker="o",
                        linestyle=styles[v], color=colors[g], ms=3, capsize=2, label=label)
    ax.plot([0, 1], [0, 1], "k--", lw=1, label="$e_{out} = c_r$")
    ax.set_xlabel("the law's parameter $c_r$ [-]")
    words = {"isolated_restitution": "restitution of the isolated contacts",
             "first_isolated_restitution": "restitution of the first isolated contact",
             "striker_rebound_ratio": "striker's rebound ratio"}
    ax.set_ylabel(f"{words.get(output, 'achieved restitution (' + output + ')')} [-]")
    ax.set_xlim(0, 1.02)
    # 0 to 1 for a restitution; further where the column goes (a striker that follows the
    # chain has a negative rebound ratio).
    finite = np.concatenate([low[np.isfinite(low)], high[np.isfinite(high)], [0.0, 1.0]])
    ax.set_ylim(min(0.0, finite.min() - 0.05), max(1.05, finite.max() + 0.05))
    if len(colors) * len(styles) > 6:  # many lines: the legend beside the axes, not over them
        fig.set_size_inches(11, 5)
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1))
    else:
        ax.legend(fontsize="small", loc="upper left")
    ax.set_title(f"{sweep.name}: restitution achieved against each law's $c_r$")
    return fig


def energy(run: Run) -> plt.Figure:
    """Kinetic, stored and dissipated energy over time, and their sum with the external terms;
    in a case of several contact models, also the energy each section of the chain holds (its
    beads' kinetic energy and their shares of the stored energy), one thin line per section."""
    e = run.energies
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    t = run.energy_time * 1e3  # output.observables_interval: its own frames
    for name, label in (("kinetic_energy", "kinetic"), ("stored_energy", "stored (contacts)"),
                        ("dissipated_energy", "dissipated")):
        ax.plot(t, e[name] * 1e3, label=label)
    if np.any(e["external_potential_energy"] != e["external_potential_energy"][0]):
        ax.plot(t, (e["external_potential_energy"] - e["external_potential_energy"][0]) * 1e3,
                label="external potential (change)")
    if np.any(e["wall_work"] != 0):
        ax.plot(t, e["wall_work"] * 1e3, label="work of moving walls")
    ax.plot(t, e["energy_balance"] * 1e3, "k--", lw=1, label="balance (constant if exact)")
    if run.section_energy is not None:
        for k, section in enumerate(run.sections):
            ax.plot(t, run.section_energy[:, k] * 1e3, lw=0.9, ls="-.",
                    label=f"section: {section.label}")
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("energy [mJ]")
    ax.set_ylim(bottom=min(0.0, ax.get_ylim()[0]))
    # Beside the axes: the curves fill the plot (kinetic falls as dissipated rises).
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.set_size_inches(8.5, 4.5)
    ax.set_title(f"{run.name}: energy ({law_name(run.law.get('id', ''))})")
    return fig


# --- spectra and transmission --------------------------------------------------------------

def _frequency_axis(highest: float) -> tuple[float, str]:
    """The scale and unit of a frequency axis that reaches `highest` [Hz]: kHz from 2 kHz."""
    return (1e-3, "kHz") if highest >= 2e3 else (1.0, "Hz")


def _log_floor(ax, values: np.ndarray) -> None:
    """A logarithmic amplitude axis over six decades below the largest value (a spectrum's
    floor of rounding would otherwise stretch it over twenty)."""
    top = float(np.nanmax(values)) if values.size else 0.0
    ax.set_yscale("log")
    if top > 0:
        ax.set_ylim(top * 1e-6, top * 2)


def spectrum(run: Run, bead=None, wall: str | None = None, quantity: str | None = None,
             window: str = "hann", t0: float | None = None, t1: float | None = None,
             log: bool = False, max_frequency: float | None = None) -> plt.Figure:
    """The amplitude spectrum of a chain bead's velocity, force or position (bead: from 0,
    negative from the end, or "striker"), or of the force (position) of a wall ("start", "end"),
    between t0 and t1 [s]: a sinusoid of amplitude A peaks at A (chaindem_post.spectra). The
    largest peak is marked with its frequency; `log`: a logarithmic amplitude axis;
    `max_frequency` [Hz]: the axis ends there (default: the Nyquist frequency)."""
    s = spectra.spectrum(run, bead, wall, quantity, None, window, t0, t1)
    highest = float(s.frequency[-1]) if max_frequency is None else float(max_frequency)
    if not highest > 0:
        raise ValueError(f"the largest frequency shown must be positive, not {highest:g} Hz")
    scale, unit = _frequency_axis(highest)
    shown = s.frequency <= highest
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    words = "Hann window" if window == "hann" else "no window"
    ax.plot(s.frequency[shown] * scale, s.amplitude[shown], lw=1.0,
            label=f"{words}, {s.t0 * 1e3:.4g}–{s.t1 * 1e3:.4g} ms, "
                  f"Δf = {s.frequency[1]:.3g} Hz")
    f_peak, a_peak = s.peak(0.0, highest)
    ax.plot([f_peak * scale], [a_peak], "o", ms=5, mfc="none", color="C3",
            label=f"largest peak: {f_peak * scale:.4g} {unit}")
    ax.set_xlabel(f"frequency [{unit}]")
    ax.set_ylabel(f"amplitude of the {s.label} [{s.unit}]")
    ax.set_xlim(0, highest * scale)
    if log:
        _log_floor(ax, s.amplitude[shown])
    else:
        ax.set_ylim(bottom=0)
    ax.legend(loc="upper right")
    ax.set_title(f"{run.name}: spectrum of the {s.label}")
    return fig


def transmission(sweep, axis: str, bead=None, wall: str | None = None,
                 quantity: str | None = None, t0: float | None = None,
                 t1: float | None = None, log: bool = False, drive=None) -> plt.Figure:
    """The transmission of a sweep over a drive frequency (`axis`, Hz): for each case, the
    amplitude of the response (a bead's or a wall's series, as `spectrum` chooses it) at the
    case's drive frequency, from a least-squares fit over [t0, t1] (chaindem_post.spectra).
    One line per value of the sweep's other axes; `drive` divides by the drive amplitude (a
    number, or the case key that holds it); `log`: a logarithmic amplitude axis."""
    t = spectra.transmission(sweep, axis, bead, wall, quantity, None, t0, t1, drive)
    scale, unit = _frequency_axis(float(np.max(t.frequency)))
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    keys = [tuple(t.others[a][k] for a in t.others) for k in range(len(t.cases))]
    for n, key in enumerate(dict.fromkeys(keys)):
        rows = np.array([k == key for k in keys])
        order = np.argsort(t.frequency[rows])
        label = ", ".join(f"{a} = {v:g}" if isinstance(v, (float, np.floating)) else f"{a} = {v}"
                          for a, v in zip(t.others, key)) or None
        ax.plot(t.frequency[rows][order] * scale, t.amplitude[rows][order], "o-", ms=3.5,
                color=f"C{n % 10}", label=label)
    ax.set_xlabel(f"drive frequency, {axis} [{unit}]")
    if drive is None:
        ax.set_ylabel(f"amplitude of the {t.label} [{t.unit}]")
    else:
        given = drive if isinstance(drive, str) else f"{float(drive):g}"
        ax.set_ylabel(f"amplitude / {given} [{t.unit} per unit of drive]")
    if log:
        _log_floor(ax, t.amplitude)
    else:
        ax.set_ylim(bottom=0)
    if t.others:
        _legend(ax)
    ax.set_title(f"{t.sweep}: transmission to the {t.label}")
    return fig


# --- chaindem compare -----------------------------------------------------------------------

def comparison_bars(values: dict[str, np.ndarray], labels: list[str], ylabel: str,
                    title: str = "", xlabel: str = "",
                    limit: tuple[str, np.ndarray] | None = None) -> plt.Figure:
    """Grouped bars: one group per label (e.g. bead), one bar per series (e.g. law); the legend
    beside the axes, clear of the bars. `limit`: a label and a value per group, drawn as a
    dashed step over each group (what the data can resolve)."""
    fig, ax = plt.subplots(figsize=(max(8, 0.18 * len(labels) * len(values) + 5), 4.5),
                           constrained_layout=True)
    width = 0.8 / max(len(values), 1)
    x = np.arange(len(labels))
    for k, (name, v) in enumerate(values.items()):
        ax.bar(x + (k - (len(values) - 1) / 2) * width, v, width, label=name)
    if limit is not None:
        name, level = limit
        ax.step(np.r_[x - 0.45, x[-1] + 0.45], np.r_[level, level[-1]], where="post",
                color="0.2", ls="--", lw=1.0, label=name)
    ax.set_xticks(x, labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    ax.set_title(title)
    ax.grid(axis="y", color="0.85", lw=0.6)
    ax.set_axisbelow(True)
    return fig


def comparison(cmp: Comparison, metric: str = "peak_velocity", beads: list[int] | None = None) -> plt.Figure:
    """Per-bead error of each law against the reference (a `chaindem compare` file); beads are
    chain beads from 0."""
    errors = cmp.errors[metric]
    n = errors.shape[1]
    if beads is None:  # the beads of `chaindem compare`'s table
        count = min(8, n)
        beads = [0] if count == 1 else [k * (n - 1) // (count - 1) for k in range(count)]
    for b in beads:
        if not 0 <= b < n:
            raise ValueError(f"bead {b} is not in the chain (0..{n - 1})")
    # The mean over the beads in the legend: a law with errors too small to see has a number.
    values = {f"{law_name(law)} (mean {np.nanmean(errors[k]):.2g} %)": errors[k, beads]
              for k, law in enumerate(cmp.laws)}
    words, _ = METRICS.get(metric, (metric.replace("_", " "), ""))
    # Reference data: every law was read at the data's times; the dashed line is how far the
    # sampling alone can move the value. Errors below it do not tell the laws apart.
    limit = None
    if metric in cmp.sampling_bound and cmp.sample_interval:
        limit = (f"data sampled every {cmp.sample_interval * 1e6:.3g} µs: what it resolves",
                 cmp.sampling_bound[metric][beads])
    return comparison_bars(
        values, [str(b) for b in beads], f"error of the {words} [%]",
        f"{cmp.case}: {words} error against the reference, {_reference_name(cmp.reference)}",
        "chain bead (0 = first bead after the striker)", limit)


QUANTITY_LABELS = {"restitution": ("coefficient of restitution", 1.0, ""),
                   "peak_force": ("peak force", 1.0, "N"),
                   "contact_duration": ("contact duration", 1e6, "µs"),
                   "max_overlap": ("largest overlap", 1e6, "µm")}


CHAIN_QUANTITY_LABELS = {"velocity": ("velocity", 1.0, "m/s"),
                         "force": ("contact force", 1.0, "N")}


def fit(result: Fit) -> plt.Figure:
    """A `chaindem fit` file: per series (a measured quantity of impacts, or a measured bead of
    a chain), the measurements (with their uncertainties) and each law's fitted curve (best
    first, its ΔAICc in the legend); the residuals below."""
    chain = result.kind == "chain"
    fig, axes = plt.subplots(len(result.series) + 1, 1,
                             figsize=(6.4, 3 + (2.0 if chain else 2.6) * len(result.series)),
                             sharex=True,
                             gridspec_kw={"height_ratios": [3] * len(result.series) + [1.3]},
                             constrained_layout=True)
    bottom = axes[-1]
    markers = "os^D"
    x_scale = 1e6 if chain else 1.0  # time in µs
    x = result.x * x_scale
    for q, (name, top) in enumerate(zip(result.series, axes[:-1])):
        label, scale, unit = (CHAIN_QUANTITY_LABELS[result.quantity] if chain
                              else QUANTITY_LABELS[name])
        if chain:
            label = f"bead {name[len('bead'):]}: {label}"
        sigma = None if result.sigma is None else result.sigma[name] * scale
        marker = "." if chain else markers[q % 4]
        top.errorbar(x, result.value[name] * scale, yerr=sigma, fmt=marker, color="black",
                     ms=3 if chain else 4, capsize=0 if chain else 2, label="measured", zorder=3,
                     elinewidth=0.5)
        for law in result.laws:
            parameters = ", ".join(f"{k} = {v:.4g}" for k, v in zip(law.parameters, law.values))
            line, = top.plot(law.curve_x * x_scale, law.curve[name] * scale,
                             label=f"{law_name(law.law)} (ΔAICc {law.delta_aicc:.1f}; "
                             f"{parameters})")
            residual = law.residuals[name] * (1.0 if result.sigma is not None else scale)
            measured = np.isfinite(residual)
            bottom.plot(x[measured], residual[measured],
                        "-" if chain else markers[q % 4] + "-", ms=3, lw=0.8,
                        color=line.get_color())
        top.set_ylabel(f"{label} [{unit}]" if unit else label)
        if q == 0:
            top.legend(fontsize=7, loc="best")
    bottom.axhline(0.0, color="gray", lw=0.8)
    if not chain:
        axes[0].set_xscale("log")
    bottom.set_xlabel("time [µs]" if chain else "impact velocity [m/s]")
    if result.sigma is not None:
        bottom.set_ylabel("residual / σ")
    else:
        _, _, unit = (CHAIN_QUANTITY_LABELS[result.quantity] if chain
                      else QUANTITY_LABELS[result.series[0]])
        bottom.set_ylabel(f"residual [{unit}]" if unit else "residual")
    source = result.data_file or result.path
    axes[0].set_title(f"Fits to {os.path.basename(source)}" if source else "Fits")
    return fig
