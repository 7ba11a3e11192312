#!/usr/bin/python3
"""An independent reference for the slotted-joint bench of Autiero et al. (2022), section 4, and
its comparison with chaindem (cases/slotted_joint.ini, cases/sweeps/slotted_joint_laws.ini).

The reference model keeps the slot's exact geometry, where chaindem reduces the bench to one bead
between two walls on slider-crank paths with oblique contacts:

* the crank turns at the constant rate omega = 24 pi rad/s from Theta_in = 31 deg, so the pin's
  centre P(t) = (r cos phi, r sin phi), phi = Theta_in + omega t, is prescribed (r = 40 mm);
* the slider translates on a frictionless guide along x: one degree of freedom x_s, the x of the
  centre C of the slot's centre-line arc (radius R_m = 60 mm, 120 deg, symmetric about the guide
  axis, C on the -x side of the slot); mass 0.353 + 2 x 1 kg;
* the slot is the set of points within R_c = 8 mm of that arc: the pin (R_p = 7.9 mm) touches
  it when its centre is farther than c0 = 0.1 mm from the centre line. The penetration is
  delta = dist(P, centre line) - c0, the normal the unit vector from the nearest centre-line
  point to P, and the wall it points to (inner arc, outer arc, end circle) picks the (K, n) of
  Table 11, read as the total force F = K delta^n (N, mm);
* F = K delta^n max(0, 1 + 1.5 alpha d(delta)/dt), alpha in s/m: 320 (0.32 read in s/mm, the
  reference reading) or 0.32 (as printed); M x_s'' = F n_x.

Free flights are integrated exactly (the slider coasts); their end is found by sampling the gap
every 2 us and refining the first sign change with Brent's method (grazing maxima refined too).
Contact phases use scipy's DOP853 at rtol 1e-10, with terminal events at separation and at a
change of wall. The observables are those of Autiero et al.'s findings, over the second
revolution: the largest force, the impact peak after each force reversal of the ideal joint,
and the free flights (detachments) in relative crank angle, phi - Theta_in - 360 deg.

    slotted_joint_reference.py [--alpha 320|0.32]          the reference's table
    slotted_joint_reference.py --compare build/chaindem    chaindem's five laws against it:
                                                           exit 1 outside the tolerances
    slotted_joint_reference.py --figure PNG --chaindem build/chaindem
                                                           forces over the second revolution,
                                                           both readings of alpha
"""

from __future__ import annotations

import argparse
import configparser
import dataclasses
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, minimize_scalar

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
CASE = os.path.join(SOURCE, "cases", "slotted_joint.ini")
SWEEP = os.path.join(SOURCE, "cases", "sweeps", "slotted_joint_laws.ini")

# Table 11 of Autiero et al. (2022): K in N/mm^n, delta in mm, per law and wall. The printed dR
# labels of the first two rows are swapped (R_i + R_p = 59.9 mm, R_o - R_p = 60.1 mm); the row
# names are kept (R_i/R_p: inner track, R_o/R_p: outer track), as the Lankarani-Nikravesh K of
# each row matches its own radii (K / sqrt(R_eq) nearly constant).
LAWS = {
    "Johnson": {"inner": (4.914e4, 1.10), "outer": (4.907e4, 1.10), "cap": (3.147e5, 1.28)},
    "Radzimovsky": {"inner": (4.321e4, 1.09), "outer": (4.315e4, 1.09), "cap": (1.846e5, 1.22)},
    "Lankarani-Nikravesh": {"inner": (1.220e5, 1.50), "outer": (1.424e5, 1.50),
                            "cap": (1.198e6, 1.50)},
    "Goldsmith": {"inner": (1.717e4, 1.04), "outer": (1.743e4, 1.04), "cap": (2.221e4, 1.05)},
    "ESDU-78035": {"inner": (1.300e4, 1.09), "outer": (1.254e4, 1.09), "cap": (4.786e4, 1.22)},
}
REGIONS = ("inner", "outer", "cap")
COLORS = {"Johnson": "tab:red", "Radzimovsky": "tab:orange", "Lankarani-Nikravesh": "tab:green",
          "Goldsmith": "tab:blue", "ESDU-78035": "tab:purple"}
S_PER_MM = 320.0   # alpha = 0.32 s/mm, in s/m

# How far chaindem may stand from the reference (validation/driven-chains.md, convergence): its
# reduction to walls is exact to first order in delta/R_m, which leaves the peaks within 2e-4
# of the exact geometry's as the step goes to 0; at the case's step (0.5 us) and at 1 us they
# are within 1.7e-4 and the free flights' ends within 0.004 deg, at 4 us up to 3.6e-3 and
# 0.12 deg.
PEAK_TOLERANCE = 1e-3       # relative, on the largest force and each impact peak
ANGLE_TOLERANCE = 0.02      # deg, on each end of a free flight


@dataclasses.dataclass(frozen=True)
class Bench:
    crank: float = 0.040            # r [m] (not given by the paper; validation/driven-chains.md)
    theta_in_deg: float = 31.0      # crank angle at t = 0 [deg]
    omega: float = 24.0 * math.pi   # [rad/s]
    mass: float = 0.353 + 2.0       # slider and its two masses [kg]
    alpha: float = S_PER_MM         # [s/m]
    r_m: float = 0.060              # centre-line radius [m]
    r_c: float = 0.008              # slot half width [m]
    r_p: float = 0.0079             # pin radius [m]
    arc_deg: float = 120.0          # the centre line's angular extent [deg]
    side: int = -1                  # the arc's centre on the -x side of the slot
    revolutions: int = 2

    @property
    def c0(self):
        return self.r_c - self.r_p

    @property
    def period(self):
        return 2.0 * math.pi / self.omega


def pin(b, t):
    phi = math.radians(b.theta_in_deg) + b.omega * np.asarray(t, float)
    return (b.crank * np.cos(phi), b.crank * np.sin(phi),
            -b.crank * b.omega * np.sin(phi), b.crank * b.omega * np.cos(phi))


def geometry(b, qx, qy):
    """Distance of q (from C) to the centre line, the unit normal from the nearest centre-line
    point to q, and the wall: 0 inner arc, 1 outer arc, 2 end circle. Arrays allowed."""
    qx, qy = np.asarray(qx, float), np.asarray(qy, float)
    half = math.radians(b.arc_deg) / 2.0
    psi = np.arctan2(qy, -b.side * qx)
    rho = np.hypot(qx, qy)
    on_arc = np.abs(psi) <= half
    sgn = np.where(rho >= b.r_m, 1.0, -1.0)
    ex = -b.side * b.r_m * math.cos(half)
    ey = np.where(psi >= 0, 1.0, -1.0) * b.r_m * math.sin(half)
    d_cap = np.hypot(qx - ex, qy - ey)
    d = np.where(on_arc, np.abs(rho - b.r_m), d_cap)
    nx = np.where(on_arc, sgn * qx / np.where(rho > 0, rho, 1.0),
                  (qx - ex) / np.where(d_cap > 0, d_cap, 1.0))
    ny = np.where(on_arc, sgn * qy / np.where(rho > 0, rho, 1.0),
                  (qy - ey) / np.where(d_cap > 0, d_cap, 1.0))
    region = np.where(on_arc, np.where(rho >= b.r_m, 1, 0), 2)
    return d, nx, ny, region, psi


def penetration(b, t, x):
    px, py, _, _ = pin(b, t)
    return geometry(b, px - x, py)[0] - b.c0


def contact(b, law, t, x, v):
    """Normal force (clamped), the x component of its direction on the slider, penetration,
    its rate and the wall."""
    px, py, pvx, pvy = pin(b, t)
    qx, qy, qvx, qvy = px - x, py, pvx - v, pvy
    d, nx, ny, region, _ = (float(a) for a in geometry(b, qx, qy))
    delta, rate = d - b.c0, nx * qvx + ny * qvy
    if delta <= 0.0:
        return 0.0, nx, delta, rate, int(region)
    k, n = LAWS[law][REGIONS[int(region)]]
    return k * (delta * 1e3) ** n * max(0.0, 1.0 + 1.5 * b.alpha * rate), nx, delta, rate, \
        int(region)


def ideal(b, t):
    """The ideal joint (no clearance): slider position and the signed normal force on it along
    q/|q| (> 0: the outer arc carries it)."""
    t = np.asarray(t, float)
    phi = math.radians(b.theta_in_deg) + b.omega * t
    r, w, s = b.crank, b.omega, b.side
    u, ud, udd = r * np.sin(phi), r * w * np.cos(phi), -r * w * w * np.sin(phi)
    root = np.sqrt(b.r_m ** 2 - u ** 2)
    rootdd = -(ud ** 2 + u * udd) / root - (u * ud) ** 2 / root ** 3
    xdd = -r * w * w * np.cos(phi) + s * rootdd
    return r * np.cos(phi) + s * root, b.mass * xdd / (-s * root / b.r_m)


class Segment:
    def __init__(self, t0, t1, free, x0=0.0, v0=0.0, sol=None, steps=None):
        self.t0, self.t1, self.free, self.x0, self.v0, self.sol = t0, t1, free, x0, v0, sol
        self.steps = steps if steps is not None else np.zeros(0)

    def state(self, t):
        if self.free:
            return self.x0 + self.v0 * (t - self.t0), np.full_like(np.asarray(t, float), self.v0)
        y = self.sol(t)
        return y[0], y[1]


def free_flight(b, t0, x0, v0, t_end, dt=2e-6):
    """The next contact onset of a coasting slider (or t_end)."""
    def pen(t):
        return penetration(b, t, x0 + v0 * (t - t0))
    t = t0
    while t < t_end:
        ts = np.minimum(t + dt * np.arange(0, 4001), t_end)
        dl = np.asarray(penetration(b, ts, x0 + v0 * (ts - t0)))
        dl[0] = min(dl[0], 0.0)
        pos = np.nonzero(dl[1:] > 0.0)[0]
        first = pos[0] + 1 if pos.size else None
        upto = first if first is not None else dl.size - 1
        seg = dl[:upto + 1]
        for i in np.nonzero((seg[1:-1] > seg[:-2]) & (seg[1:-1] >= seg[2:]) &
                            (seg[1:-1] > -1e-7))[0] + 1:   # grazing touches between samples
            res = minimize_scalar(lambda tt: -pen(tt), bounds=(ts[i - 1], ts[i + 1]),
                                  method="bounded", options={"xatol": 1e-13})
            if -res.fun > 0.0:
                return brentq(pen, ts[i - 1], res.x, xtol=1e-15, rtol=1e-14)
        if first is not None:
            return brentq(pen, ts[first - 1], ts[first], xtol=1e-15, rtol=1e-14)
        if ts[-1] >= t_end:
            return t_end
        t = ts[-1]
    return t_end


def simulate(b, law, rtol=1e-10, max_step=2e-5):
    """Free flights and contact phases over b.revolutions, from the slider at rest with the pin
    centred."""
    t_end, t = b.revolutions * b.period, 0.0
    x, v = float(ideal(b, 0.0)[0]), 0.0
    half = math.radians(b.arc_deg) / 2.0

    def rhs(tt, y):
        f, nx = contact(b, law, tt, y[0], y[1])[:2]
        return [y[1], f * nx / b.mass]

    def separation(tt, y):
        return float(penetration(b, tt, y[0]))
    separation.terminal, separation.direction = True, -1

    def edge(sign):
        def ev(tt, y):
            px, py, _, _ = pin(b, tt)
            return float(np.arctan2(py, -b.side * (px - y[0]))) - sign * half
        ev.terminal = True
        return ev
    edges = (edge(1.0), edge(-1.0))
    segs = []
    touching = penetration(b, t, x) > 0
    while t < t_end - 1e-15:
        if not touching:
            tc = free_flight(b, t, x, v, t_end)
            segs.append(Segment(t, tc, True, x, v))
            x, t, touching = x + v * (tc - t), tc, True
            continue
        for ev in edges:   # a change of wall: only crossings away from where it starts
            h0, h1 = ev(t, [x, v]), ev(t + 1e-9, [x + v * 1e-9, v])
            ev.direction = (-1 if h1 > h0 else 1) if abs(h0) < 1e-9 else 0
        sol = solve_ivp(rhs, (t, t_end), [x, v], method="DOP853", rtol=rtol,
                        atol=[1e-14, 1e-11], events=[separation, *edges], dense_output=True,
                        max_step=max_step, first_step=1e-7)
        if sol.status < 0:
            raise RuntimeError(sol.message)
        segs.append(Segment(t, float(sol.t[-1]), False, sol=sol.sol, steps=sol.t.copy()))
        x, v, t = float(sol.y[0, -1]), float(sol.y[1, -1]), float(sol.t[-1])
        touching = sol.t_events[0].size == 0
    return segs


def relative_angle(b, t, rev=1):
    return np.degrees(b.omega * np.asarray(t)) - 360.0 * rev


def reversals(b, rev=1):
    """Relative crank angles where the ideal joint's force changes sign (the pin must cross the
    clearance there)."""
    tt = rev * b.period + np.linspace(0.0, b.period, 72001)
    lam = ideal(b, tt)[1]
    k = np.nonzero(np.sign(lam[1:]) != np.sign(lam[:-1]))[0]
    return [float(relative_angle(b, tt[i], rev)) for i in k]


def reference_history(b, law, segs, rev=1):
    """Force over revolution `rev` on a 0.01 deg grid plus every solver step, the free flights
    in it, and a function giving the force at any time (from the dense output)."""
    ta, tb = rev * b.period, (rev + 1) * b.period
    grid = np.arange(ta, tb, math.radians(0.01) / b.omega)
    steps = np.concatenate([s.steps for s in segs])
    tt = np.unique(np.concatenate([grid, steps[(steps >= ta) & (steps < tb)]]))
    ends = np.array([s.t1 for s in segs])

    def force_at(t):
        t = np.atleast_1d(np.asarray(t, float))
        idx = np.minimum(np.searchsorted(ends, t, side="left"), len(segs) - 1)
        out = np.empty_like(t)
        for k in np.unique(idx):
            sel = idx == k
            xs, vs = segs[k].state(t[sel])
            out[sel] = [contact(b, law, ti, xi, vi)[0]
                        for ti, xi, vi in zip(t[sel], np.atleast_1d(xs), np.atleast_1d(vs))]
        return out
    flights = [(float(relative_angle(b, max(s.t0, ta), rev)),
                float(relative_angle(b, min(s.t1, tb), rev)))
               for s in segs if s.free and min(s.t1, tb) > max(s.t0, ta)]
    return relative_angle(b, tt, rev), force_at(tt), flights, force_at


def observables(b, angle, force, flights, refine=None):
    """The findings' numbers: the largest force, the impact peak within 40 deg after the free
    flight at each force reversal (or after the reversal), and the flights."""
    def peak(sel):
        i = int(np.flatnonzero(sel)[np.argmax(force[sel])])
        return refine(angle, i) if refine else float(force[i])
    main, impacts = [], []
    for z in reversals(b):
        near = [f for f in flights if f[0] <= z + 30.0 and f[1] >= z - 10.0]
        m = max(near, key=lambda f: f[1] - f[0]) if near else None
        main.append(m)
        start = m[1] if m else z
        impacts.append(peak((angle >= start) & (angle <= start + 40.0)))
    return {"peak": peak(np.ones(angle.shape, bool)), "impacts": impacts, "flights": main,
            "other": [f for f in flights if f not in main]}


def reference(b, law):
    segs = simulate(b, law)
    angle, force, flights, force_at = reference_history(b, law, segs)

    def refine(ang, i):   # the maximum of the dense solution near sample i
        t = lambda a: (a + 360.0) * math.pi / 180.0 / b.omega  # noqa: E731
        lo, hi = t(ang[max(i - 1, 0)]), t(ang[min(i + 1, ang.size - 1)])
        r = minimize_scalar(lambda s: -force_at(s)[0], bounds=(lo, hi), method="bounded",
                            options={"xatol": 1e-12})
        return max(float(-r.fun), float(force[i]))
    return angle, force, observables(b, angle, force, flights, refine)


# ----------------------------------------------------------------------------------------------
# chaindem
# ----------------------------------------------------------------------------------------------

def sweep_overrides():
    """Per law, the --set overrides of cases/sweeps/slotted_joint_laws.ini (a zip sweep whose
    k-th values are the k-th law of LAWS)."""
    cfg = configparser.ConfigParser(inline_comment_prefixes=("#",))
    cfg.optionxform = str
    cfg.read(SWEEP)
    axes = {k: [v.strip() for v in val.split(",")] for k, val in cfg["axes"].items()}
    return {law: [f"{k}={vals[i]}" for k, vals in axes.items()] for i, law in enumerate(LAWS)}


def chaindem_run(chaindem, law, alpha, work, time_step=None):
    """Runs the bench under `law`, frames every 1 us (or step); returns the force over the second
    revolution by relative angle (the sum over the two tracks: one touches at a time)."""
    import h5py
    out = os.path.join(work, f"{law}-{alpha}-{time_step}.h5")
    frames = max(time_step or 0.0, 1e-6)   # 0.0043 deg of crank
    args = [chaindem, "run", CASE, "-o", out, "--force", "--set",
            f"contact.hunt_crossley_alpha={alpha}", "--set", f"output.interval={frames}",
            "--set", "output.xdmf=false",
            "--set", "output.quantities=position overlap normal_force"]
    if time_step:
        args += ["--set", f"simulation.time_step={time_step}"]
    for o in sweep_overrides()[law]:
        args += ["--set", o]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}\n{done.stderr}")
    with h5py.File(out, "r") as f:
        t = f["contacts/time"][:]
        offset = f["contacts/offset"][:]
        forces = f["contacts/normal_force"][:]
        overlap = f["contacts/overlap"][:]
    frame = np.repeat(np.arange(len(offset) - 1), np.diff(offset))
    total = np.bincount(frame, weights=forces, minlength=len(t))
    touching = np.bincount(frame, weights=overlap > 0.0, minlength=len(t)) > 0
    angle = np.degrees(24.0 * math.pi * t) - 360.0
    keep = (angle >= 0.0) & (angle < 360.0)
    return angle[keep], total[keep], touching[keep]


def sampled_flights(angle, touching):
    """The runs of frames without contact (no overlap: the clamped force may be zero in contact
    too), each between the middles of its first and last frames and their neighbours in contact
    (the flight begins and ends between frames)."""
    zero = ~touching
    out, k = [], 0
    while k < len(zero):
        if not zero[k]:
            k += 1
            continue
        j = k
        while j + 1 < len(zero) and zero[j + 1]:
            j += 1
        out.append((0.5 * float(angle[k] + angle[max(k - 1, 0)]),
                    0.5 * float(angle[j] + angle[min(j + 1, len(angle) - 1)])))
        k = j + 1
    return out


def parabola_peak(force):
    """A sampled peak refined by the parabola through it and its neighbours."""
    def refine(angle, i):
        if 0 < i < len(force) - 1:
            a, b, c = force[i - 1], force[i], force[i + 1]
            den = a - 2 * b + c
            if den < 0:
                return float(b - (a - c) ** 2 / (8 * den))
        return float(force[i])
    return refine


def chaindem_observables(b, chaindem, law, alpha, work, time_step=None):
    angle, force, touching = chaindem_run(chaindem, law, alpha, work, time_step)
    return angle, force, observables(b, angle, force, sampled_flights(angle, touching),
                                     parabola_peak(force))


# ----------------------------------------------------------------------------------------------

def fmt_flights(fl):
    return "; ".join("-" if f is None else f"{f[0]:.1f}-{f[1]:.1f}" for f in fl)


def table(rows):
    head = ("| law | peak F [N] | impact peak after reversal 1 / 2 [N] | free flights at the "
            "reversals [deg] | other detachments |\n|---|---|---|---|---|")
    lines = [head]
    for law, o in rows.items():
        lines.append(f"| {law} | {o['peak']:.0f} | {o['impacts'][0]:.0f} / {o['impacts'][1]:.0f}"
                     f" | {fmt_flights(o['flights'])} | {len(o['other'])} |")
    return "\n".join(lines)


def compare(chaindem, alpha, work):
    b = Bench(alpha=alpha)
    worst_peak, worst_angle, failed = 0.0, 0.0, []
    print("| law | peak F [N] chaindem / reference | impact peaks [N] chaindem / reference | "
          "free flights [deg] chaindem / reference |\n|---|---|---|---|")
    for law in LAWS:
        ref = reference(b, law)[2]
        got = chaindem_observables(b, chaindem, law, alpha, work)[2]
        dp = [abs(g / r - 1.0) for g, r in zip([got["peak"], *got["impacts"]],
                                               [ref["peak"], *ref["impacts"]])]
        if None in got["flights"] or None in ref["flights"]:
            da = [math.inf]
        else:
            da = [abs(g - r) for fg, fr in zip(got["flights"], ref["flights"])
                  for g, r in zip(fg, fr)]
        worst_peak, worst_angle = max(worst_peak, *dp), max(worst_angle, *da)
        if max(dp) > PEAK_TOLERANCE or max(da) > ANGLE_TOLERANCE or got["other"] != [] \
                or ref["other"] != []:
            failed.append(law)
        print(f"| {law} | {got['peak']:.1f} / {ref['peak']:.1f} | "
              f"{got['impacts'][0]:.1f}, {got['impacts'][1]:.1f} / "
              f"{ref['impacts'][0]:.1f}, {ref['impacts'][1]:.1f} | "
              f"{fmt_flights(got['flights'])} / {fmt_flights(ref['flights'])} |", flush=True)
    print(f"\nlargest relative difference of a peak {worst_peak:.2e} (tolerance "
          f"{PEAK_TOLERANCE}), of a flight's end {worst_angle:.4f} deg (tolerance "
          f"{ANGLE_TOLERANCE} deg)")
    if failed:
        print("outside the tolerances, or with detachments beside the flights at the "
              "reversals: " + ", ".join(failed))
        return 1
    return 0


def figure(chaindem, path, work):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 2, figsize=(13, 9), gridspec_kw={"width_ratios": [2.2, 1]})
    for row, (alpha, name) in enumerate(((S_PER_MM, "alpha = 0.32 s/mm (reference reading)"),
                                         (0.32, "alpha = 0.32 s/m (as printed)"))):
        b = Bench(alpha=alpha)
        runs = {law: chaindem_observables(b, chaindem, law, alpha, work) for law in LAWS}
        tt = b.period * (1.0 + np.linspace(0.0, 1.0, 36001, endpoint=False))
        ideal_f = np.abs(ideal(b, tt)[1])
        ends = [o["flights"][0][1] for _, _, o in runs.values() if o["flights"][0]]
        for col, (lo, hi) in enumerate(((0.0, 360.0), (max(ends, default=95) - 2.0,
                                                       max(ends, default=95) + 6.0))):
            ax = axes[row, col]
            ax.plot(relative_angle(b, tt), ideal_f, "k--", lw=0.9, label="ideal joint")
            for law, (angle, force, _) in runs.items():
                sel = (angle >= lo) & (angle <= hi)
                ax.plot(angle[sel], force[sel], lw=0.7 if col == 0 else 1.0, color=COLORS[law],
                        label=law)
            for z in reversals(b):
                if lo <= z <= hi:
                    ax.axvline(z, color="0.5", lw=0.6, ls=":")
            ax.set_xlim(lo, hi)
            ax.grid(alpha=0.3)
            ax.set_xlabel("relative crank angle in the second revolution [deg]")
            ax.set_ylabel("pin-slot normal force [N]")
            ax.set_title(name if col == 0 else "the impact after the first free flight",
                         fontsize=10)
        if row == 0:
            axes[0, 0].legend(fontsize=8, ncol=3, loc="upper left")
    fig.suptitle("Slotted joint of Autiero et al. (2022) in chaindem: one bead between two "
                 "slider-crank walls (dotted: force reversals of the ideal joint)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--alpha", type=float, default=S_PER_MM,
                    help="alpha [s/m]: 320 (0.32 s/mm, default) or 0.32 (as printed)")
    ap.add_argument("--compare", metavar="CHAINDEM", help="compare chaindem's runs with it")
    ap.add_argument("--figure", metavar="PNG", help="chaindem's forces, both readings of alpha")
    ap.add_argument("--chaindem", default=os.path.join(SOURCE, "build", "chaindem"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if args.compare:
            return compare(args.compare, args.alpha, work)
        if args.figure:
            figure(args.chaindem, args.figure, work)
            return 0
        b = Bench(alpha=args.alpha)
        print(f"reference, alpha = {args.alpha} s/m; force reversals of the ideal joint at " +
              ", ".join(f"{z:.1f}" for z in reversals(b)) + " deg")
        print(table({law: reference(b, law)[2] for law in LAWS}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
