"""Figures of chaindem results. Each function returns a matplotlib Figure (Agg backend, no
display needed) with labelled axes (units in brackets) and a legend or colour bar; save it with
``fig.savefig("name.png")`` or ``.pdf``.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

from .io import Comparison, Loop, Run, Sweep  # noqa: E402


def _bodies(run: Run) -> tuple[int, int]:
    """First body (the striker if any) and the number of bodies along the chain."""
    first = 0 if run.striker >= 0 else run.chain_first
    return first, run.chain_first + run.chain_count - first


def spacetime(run: Run, quantity: str = "velocity") -> plt.Figure:
    """The wave picture: bead velocity along the chain (or the force between neighbours) over
    time, one column per body and one row per output frame."""
    first, count = _bodies(run)
    t_ms = run.time * 1e3
    if quantity == "velocity":
        data = run.vx[:, first:first + count]
        label, cmap, xlabel = "velocity $v_x$ [m/s]", "RdBu_r", "body (0 = striker)" if run.striker >= 0 else "bead"
        x = np.arange(count)
        vmax = np.abs(data).max() or 1.0
        norm = matplotlib.colors.TwoSlopeNorm(vcenter=0.0, vmin=-vmax, vmax=vmax)
    elif quantity == "force":
        data = run.chain_force()
        label, cmap, xlabel = "contact force [N]", "viridis", "contact (k: body k with body k+1)"
        x = np.arange(data.shape[1])
        norm = None
    else:
        raise ValueError(f"quantity: 'velocity' or 'force', not '{quantity}'")
    fig, ax = plt.subplots(figsize=(7, 5), constrained_layout=True)
    mesh = ax.pcolormesh(x, t_ms, data, shading="nearest", cmap=cmap, norm=norm)
    fig.colorbar(mesh, ax=ax, label=label)
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("time [ms]")
    ax.set_title(f"{run.law.get('id', '')}: {quantity} along the chain")
    return fig


def histories(run: Run, beads: list[int], quantity: str = "velocity") -> plt.Figure:
    """Velocity (or total force) of chosen chain beads over time."""
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    for b in beads:
        if not -run.chain_count <= b < run.chain_count:
            raise ValueError(f"bead {b} is not in the chain (0..{run.chain_count - 1}, "
                             "negative from the end)")
        i = run.chain_first + (b if b >= 0 else run.chain_count + b)
        series = run.vx[:, i] if quantity == "velocity" else run.force[:, i, 0]
        ax.plot(run.time * 1e3, series, label=f"bead {i - run.chain_first}")
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("velocity $v_x$ [m/s]" if quantity == "velocity" else "force $F_x$ [N]")
    ax.legend()
    ax.set_title(f"{run.law.get('id', '')}: bead {quantity}")
    return fig


def force_overlap(source: Loop | Run, pair: tuple[int, int] | None = None) -> plt.Figure:
    """The hysteresis loop: contact force against overlap, from a `collide -o` file, or for one
    pair (i, j) of a run (j < 0: wall -j-1)."""
    fig, ax = plt.subplots(figsize=(6, 4.5), constrained_layout=True)
    if isinstance(source, Loop):
        ax.plot(source.overlap * 1e6, source.force, label=source.law)
        title = f"{source.law}: e = {source.results.get('restitution', float('nan')):.4f}"
    else:
        if pair is None:
            raise ValueError("a run needs pair=(i, j)")
        c = source.contacts
        if not c:
            raise ValueError(f"{source.path}: written without contacts")
        rows = (c["first"] == pair[0]) & (c["second"] == pair[1])
        ax.plot(c["overlap"][rows] * 1e6, c["normal_force"][rows], ".-",
                label=f"pair {pair[0]}-{pair[1]}")
        title = f"{source.law.get('id', '')}: contact {pair[0]}-{pair[1]}"
    ax.set_xlabel("overlap $\\delta$ [µm]")
    ax.set_ylabel("normal force $F$ [N]")
    ax.legend()
    ax.set_title(title)
    return fig


def restitution_curve(sweep: Sweep, output: str = "isolated_restitution",
                      restitution_axis: str = "contact.restitution", group_by: str = "contact.law",
                      where: dict[str, object] | None = None) -> plt.Figure:
    """Achieved restitution against the input restitution c_r, with the ideal e_out = c_r.

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
            label = ", ".join([str(g)] + [f"{a}={val:g}" if isinstance(val, (float, np.floating))
                                          else f"{a}={val}" for a, val in zip(others, v)])
            ax.errorbar(xs, ys, yerr=[ys - low[sel][order], high[sel][order] - ys], marker="o",
                        linestyle=styles[v], color=colors[g], ms=3, capsize=2, label=label)
    ax.plot([0, 1], [0, 1], "k--", lw=1, label="$e_{out} = c_r$")
    ax.set_xlabel(f"input restitution $c_r$ [-] ({restitution_axis})")
    ax.set_ylabel(f"achieved restitution [-] ({output})")
    ax.set_xlim(0, 1.02)
    # 0 to 1 for a restitution; further where the column goes (a striker that follows the
    # chain has a negative rebound ratio).
    finite = np.concatenate([low[np.isfinite(low)], high[np.isfinite(high)], [0.0, 1.0]])
    ax.set_ylim(min(0.0, finite.min() - 0.05), max(1.05, finite.max() + 0.05))
    if len(colors) * len(styles) > 6:  # many lines: the legend beside the axes, not over them
        fig.set_size_inches(11, 5)
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1))
    else:
        ax.legend(fontsize="small")
    return fig


def energy(run: Run) -> plt.Figure:
    """Kinetic, stored and dissipated energy over time, and their sum with the external terms."""
    e = run.energies
    fig, ax = plt.subplots(figsize=(7, 4.5), constrained_layout=True)
    t = run.time * 1e3
    for name, label in (("kinetic_energy", "kinetic"), ("stored_energy", "stored (contacts)"),
                        ("dissipated_energy", "dissipated")):
        ax.plot(t, e[name] * 1e3, label=label)
    if np.any(e["external_potential_energy"] != e["external_potential_energy"][0]):
        ax.plot(t, (e["external_potential_energy"] - e["external_potential_energy"][0]) * 1e3,
                label="external potential (change)")
    if np.any(e["wall_work"] != 0):
        ax.plot(t, e["wall_work"] * 1e3, label="work of moving walls")
    ax.plot(t, e["energy_balance"] * 1e3, "k--", lw=1, label="balance (constant if exact)")
    ax.set_xlabel("time [ms]")
    ax.set_ylabel("energy [mJ]")
    ax.legend()
    ax.set_title(f"{run.law.get('id', '')}: energy")
    return fig


def comparison_bars(values: dict[str, np.ndarray], labels: list[str], ylabel: str,
                    title: str = "") -> plt.Figure:
    """Grouped bars: one group per label (e.g. bead), one bar per series (e.g. law)."""
    fig, ax = plt.subplots(figsize=(max(6, 0.6 * len(labels) * len(values) / 2 + 3), 4.5),
                           constrained_layout=True)
    width = 0.8 / max(len(values), 1)
    x = np.arange(len(labels))
    for k, (name, v) in enumerate(values.items()):
        ax.bar(x + (k - (len(values) - 1) / 2) * width, v, width, label=name)
    ax.set_xticks(x, labels)
    ax.set_ylabel(ylabel)
    ax.legend()
    ax.set_title(title)
    return fig


def comparison(cmp: Comparison, metric: str = "peak_velocity", beads: list[int] | None = None) -> plt.Figure:
    """Per-bead error of each law against the reference (a `chaindem compare` file)."""
    errors = cmp.errors[metric]
    if beads is None:  # the beads of `chaindem compare`'s table
        n = errors.shape[1]
        count = min(8, n)
        beads = [0] if count == 1 else [k * (n - 1) // (count - 1) for k in range(count)]
    values = {law: errors[l, beads] for l, law in enumerate(cmp.laws)}
    return comparison_bars(values, [f"#{b}" for b in beads], f"{metric} error [%]",
                           f"{metric}: error against {cmp.reference}")
