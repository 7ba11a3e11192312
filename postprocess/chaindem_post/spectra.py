"""Spectra of a run's time series, and the transmission of a sweep over a drive frequency
(numpy only; docs/plots.md, "Spectra and transmission").

    from chaindem_post import load_run, spectra
    s = spectra.spectrum(load_run("out/driven.h5"), wall="end", t0=2e-3)
    s.frequency, s.amplitude                  # Hz; N (a sinusoid of amplitude A peaks at A)
    t = spectra.transmission("out/sweep.h5", "wall_start.frequency", wall="end", t0=2e-3)
    t.frequency, t.amplitude                  # Hz, per case; the response at the drive

The one-sided amplitude spectrum of a series x(t) sampled every dt over N frames, its mean
removed and multiplied by a window w (none: w = 1; Hann: w_n = sin^2(pi n / N), the periodic
Hann window), is A_k = c_k |X_k| / sum(w), X_k = sum_n w_n x_n exp(-2 pi i k n / N), at
f_k = k / (N dt), k = 0 .. N/2, with c_k = 2 but for k = 0 and (N even) k = N/2, where c_k = 1.
Dividing by sum(w) corrects the amplitude for the window: a sinusoid of amplitude A whose
frequency is a bin's shows a peak of A with either window (Harris 1978). Without a window,
Parseval's theorem reads mean(x^2) = A_0^2 + sum over 0 < k < N/2 of A_k^2 / 2 (+ A_{N/2}^2).

The transmission of a sweep is, for each case, the amplitude of the response at the case's
drive frequency f (its value of the sweep's axis, Hz), from the least-squares fit of
a + b cos(2 pi f t) + c sin(2 pi f t) over the chosen time window: sqrt(b^2 + c^2). Unlike an
FFT bin, the fit needs neither a whole number of periods in the window nor evenly spaced frames.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import h5py
import numpy as np

from . import layout
from .io import Run, load_run, load_sweep

WINDOWS = ("hann", "none")
BEAD_QUANTITIES = {"velocity": "m/s", "force": "N", "position": "m"}
WALL_QUANTITIES = {"force": "N", "position": "m"}


@dataclass
class Series:
    """One time series of a run: its times [s], values and what they are."""
    time: np.ndarray
    values: np.ndarray
    label: str        # in words: "velocity v_x of bead 1", "force F_x of wall_end on the chain"
    unit: str         # "m/s", "N", "m", "J"
    source: str = ""  # the run, for messages


@dataclass
class Spectrum:
    """The one-sided amplitude spectrum of a series (module docstring)."""
    frequency: np.ndarray  # Hz, 0 .. the Nyquist frequency 1 / (2 dt)
    amplitude: np.ndarray  # the series' unit: a sinusoid of amplitude A peaks at A
    label: str
    unit: str
    window: str
    t0: float              # the first and last frames used [s]
    t1: float
    sample_interval: float  # dt [s]

    def peak(self, f_low: float = 0.0, f_high: float = np.inf) -> tuple[float, float]:
        """The largest amplitude between f_low and f_high [Hz], and its frequency."""
        band = (self.frequency > f_low) & (self.frequency <= f_high)
        if not band.any():
            raise ValueError(f"no frequency of the spectrum lies in ({f_low:g}, {f_high:g}] Hz")
        k = np.flatnonzero(band)[np.argmax(self.amplitude[band])]
        return float(self.frequency[k]), float(self.amplitude[k])


@dataclass
class Transmission:
    """The response of each case of a sweep at its drive frequency."""
    frequency: np.ndarray  # Hz, the axis value of each case with a run
    amplitude: np.ndarray  # the response's unit, or per unit of drive amplitude (normalised)
    phase: np.ndarray      # rad, of the response's cos(2 pi f t - phase) at the drive
    cases: np.ndarray      # the sweep's case of each row
    label: str
    unit: str
    axis: str
    sweep: str             # the sweep's name, for titles
    normalised_by: str = ""  # the drive amplitude's key, or its value in words
    others: dict[str, np.ndarray] = field(default_factory=dict)  # other axes' values per row
    skipped: list[str] = field(default_factory=list)  # cases without a run, and why


# --- the series of a run ------------------------------------------------------------------------

def series_of(run: Run, bead=None, wall: str | None = None, quantity: str | None = None,
              observable: str | None = None) -> Series:
    """A series of `run`: chain bead `bead` (from 0, negative from the end, or "striker";
    quantity velocity, force or position: the x component), wall `wall` (start, end or its name;
    quantity force, the force it exerts on the particles, or position: the x component), or
    observable `observable` (kinetic_energy, ..., momentum: its x component). One of the three."""
    given = [x is not None for x in (bead, wall, observable)]
    if sum(given) != 1:
        raise ValueError("choose one series: a bead, a wall or an observable")
    source = run.path or run.name
    if bead is not None:
        quantity = quantity or "velocity"
        if quantity not in BEAD_QUANTITIES:
            raise ValueError(f"a bead's quantity: {', '.join(BEAD_QUANTITIES)}; not {quantity!r}")
        i = run.particle(bead)
        values = run.series(quantity)[:, run.row(i), 0]
        symbol = {"velocity": "v_x", "force": "F_x", "position": "x"}[quantity]
        what = "total force" if quantity == "force" else quantity
        return Series(run.time, values, f"{what} ${symbol}$ of {run.bead_label(i)}",
                      BEAD_QUANTITIES[quantity], source)
    if wall is not None:
        quantity = quantity or "force"
        if quantity not in WALL_QUANTITIES:
            raise ValueError(f"a wall's quantity: {', '.join(WALL_QUANTITIES)}; not {quantity!r}")
        name = run.walls[run.wall(wall)]
        values = run.wall_series(wall, quantity)[:, 0]
        label = (f"force $F_x$ of {name} on the chain" if quantity == "force"
                 else f"position $x$ of {name}")
        return Series(run.energy_time, values, label, WALL_QUANTITIES[quantity], source)
    if observable not in run.energies:
        raise ValueError(f"{source}: no observable {observable!r}; the run's are "
                         + ", ".join(run.energies))
    values = run.energies[observable]
    unit = "kg m/s" if observable == "momentum" else "J"
    values = values[:, 0] if values.ndim > 1 else values
    return Series(run.energy_time, values, observable.replace("_", " "), unit, source)


# --- checks ---------------------------------------------------------------------------------

def time_window(time: np.ndarray, t0: float | None = None, t1: float | None = None,
                source: str = "") -> np.ndarray:
    """The frames of `time` in [t0, t1] (None: from the first, to the last), as a boolean mask;
    ValueError when the window lies outside the run or holds fewer than 4 frames."""
    where = f"{source}: " if source else ""
    if len(time) == 0:
        raise ValueError(f"{where}the run wrote no frame of this series")
    first, last = float(time[0]), float(time[-1])
    lo = first if t0 is None else float(t0)
    hi = last if t1 is None else float(t1)
    if not (np.isfinite(lo) and np.isfinite(hi)):
        raise ValueError(f"{where}the time window [{lo:g}, {hi:g}] s must be finite")
    slack = 1e-9 * (last - first)  # times given as printed
    if lo < first - slack or hi > last + slack or lo > last or hi < first:
        raise ValueError(f"{where}the time window [{lo:g}, {hi:g}] s is outside the run, "
                         f"whose frames run from {first:g} s to {last:g} s")
    if lo >= hi:
        raise ValueError(f"{where}the time window [{lo:g}, {hi:g}] s is empty: its start must "
                         "come before its end")
    keep = (time >= lo - slack) & (time <= hi + slack)
    if keep.sum() < 4:
        raise ValueError(f"{where}the time window [{lo:g}, {hi:g}] s holds {int(keep.sum())} "
                         "frames; 4 or more are needed")
    return keep


def sample_interval(time: np.ndarray, source: str = "") -> float:
    """The spacing of evenly spaced frames [s]; ValueError naming the first frame that is not
    (a run's last frame, written at its last step, is apart when the duration is not a whole
    number of output intervals: the message says where to end the window)."""
    steps = np.diff(time)
    dt = float(np.median(steps))
    uneven = np.flatnonzero(np.abs(steps - dt) > 1e-6 * dt)
    if dt <= 0 or uneven.size:
        k = int(uneven[0]) + 1 if uneven.size else 1
        where = f"{source}: " if source else ""
        hint = (f"; end the window before it (--to {float(time[k - 1]):g})" if k == len(time) - 1
                else "; choose a window of evenly spaced frames (--from, --to)")
        raise ValueError(f"{where}the frames are not evenly spaced: frame {k} at "
                         f"{float(time[k]):g} s comes {float(steps[k - 1]):g} s after the one "
                         f"before, the others every {dt:g} s. A spectrum needs evenly spaced "
                         f"frames{hint}")
    return dt


# --- the spectrum ---------------------------------------------------------------------------

def amplitude_spectrum(time, values, window: str = "hann", t0: float | None = None,
                       t1: float | None = None, source: str = "") -> tuple[np.ndarray, np.ndarray]:
    """The one-sided amplitude spectrum of `values` sampled at `time` (evenly spaced) between
    t0 and t1, its mean removed: frequencies [Hz] and amplitudes (module docstring)."""
    if window not in WINDOWS:
        raise ValueError(f"window {window!r}: one of {', '.join(WINDOWS)}")
    time, values = np.asarray(time, float), np.asarray(values, float)
    if time.shape != values.shape or time.ndim != 1:
        raise ValueError(f"time and values: one value per frame, not shapes {time.shape} and "
                         f"{values.shape}")
    keep = time_window(time, t0, t1, source)
    t, x = time[keep], values[keep]
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{source + ': ' if source else ''}the series is not finite in the "
                         "time window")
    dt = sample_interval(t, source)
    n = len(x)
    w = np.sin(np.pi * np.arange(n) / n) ** 2 if window == "hann" else np.ones(n)
    spectrum = np.abs(np.fft.rfft((x - x.mean()) * w)) / w.sum()
    spectrum[1:(n + 1) // 2] *= 2.0  # both halves of the two-sided spectrum, but 0 and N/2
    return np.fft.rfftfreq(n, dt), spectrum


def spectrum(run: Run, bead=None, wall: str | None = None, quantity: str | None = None,
             observable: str | None = None, window: str = "hann", t0: float | None = None,
             t1: float | None = None) -> Spectrum:
    """The amplitude spectrum of a series of `run` (series_of) between t0 and t1 [s]."""
    s = series_of(run, bead, wall, quantity, observable)
    frequency, amplitude = amplitude_spectrum(s.time, s.values, window, t0, t1, s.source)
    keep = time_window(s.time, t0, t1, s.source)
    t = s.time[keep]
    return Spectrum(frequency, amplitude, s.label, s.unit, window, float(t[0]), float(t[-1]),
                    float(t[1] - t[0]))


# --- the response at a drive frequency ------------------------------------------------------

def response_at(time, values, frequency: float, t0: float | None = None,
                t1: float | None = None, source: str = "") -> tuple[float, float]:
    """The amplitude and phase [rad] of the component of `values` at `frequency` [Hz] between
    t0 and t1: the least-squares fit of a + b cos(2 pi f t) + c sin(2 pi f t); amplitude
    sqrt(b^2 + c^2), phase atan2(c, b)."""
    time, values = np.asarray(time, float), np.asarray(values, float)
    keep = time_window(time, t0, t1, source)
    t, x = time[keep], values[keep]
    where = f"{source}: " if source else ""
    f = float(frequency)
    if not (np.isfinite(f) and f > 0):
        raise ValueError(f"{where}a drive frequency is a positive number of Hz, not {f:g}")
    span = float(t[-1] - t[0])
    if f * span < 1.0:
        raise ValueError(f"{where}the time window of {span:g} s holds less than one period of "
                         f"{f:g} Hz; widen it (--from, --to) or simulate longer")
    nyquist = 0.5 / float(np.max(np.diff(t)))
    if f >= nyquist:
        raise ValueError(f"{where}frames every {1 / (2 * nyquist):g} s cannot resolve {f:g} Hz "
                         f"(their Nyquist frequency is {nyquist:g} Hz); write frames more often "
                         "(output.interval)")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{where}the series is not finite in the time window")
    phase = 2 * np.pi * f * (t - t[0])
    design = np.column_stack([np.ones_like(t), np.cos(phase), np.sin(phase)])
    (a, b, c), *_ = np.linalg.lstsq(design, x, rcond=None)
    # The fit's phase is measured from t[0]; referred to t = 0, in (-pi, pi]:
    return float(np.hypot(b, c)), float(np.angle(np.exp(1j * (np.arctan2(c, b)
                                                             + 2 * np.pi * f * t[0]))))


def _drive_amplitude(run: Run, drive, case: int) -> float:
    """The drive amplitude of a case: `drive` itself (a number), or its case key's value."""
    if not isinstance(drive, str):
        return float(drive)
    if drive not in run.parameters:
        raise ValueError(f"case {case} has no key {drive!r} to normalise by (a stacked sweep "
                         "records the keys its [set] and axes give; give the drive amplitude "
                         "as a number instead)")
    return float(run.parameters[drive])


def transmission(sweep, axis: str, bead=None, wall: str | None = None,
                 quantity: str | None = None, observable: str | None = None,
                 t0: float | None = None, t1: float | None = None,
                 drive=None) -> Transmission:
    """For each case of `sweep` (a sweep file's path, or its load_sweep), the amplitude of the
    chosen series (series_of) at the case's drive frequency, its value of `axis` [Hz], between
    t0 and t1 [s] (response_at). `drive`: divide by the drive amplitude, a number or the case key
    that holds it (e.g. "wall_start.amplitude"). Cases without a run are left out (`skipped`)."""
    table = load_sweep(sweep) if isinstance(sweep, (str, os.PathLike)) else sweep
    if axis not in table.axes:
        raise ValueError(f"{table.path}: {axis!r} is not an axis of the sweep; its axes are "
                         + ", ".join(table.axes))
    with h5py.File(table.path, "r") as f:
        if layout.CASES not in f and layout.STACKED not in f:
            raise ValueError(f"{table.path}: the sweep kept its summary table alone (sweep.keep "
                             "= table); a transmission reads each case's frames: run it with "
                             "keep = cases or keep = stacked")
    frequencies = np.asarray(table.column(axis))
    if frequencies.dtype.kind not in "fiu":
        raise ValueError(f"{table.path}: axis {axis!r} holds words, not frequencies in Hz")
    status = table.columns.get("status", np.array(["ok"] * len(table), dtype=object))
    rows, skipped = [], []
    label = unit = ""
    for case in table.column("case").astype(int):
        if str(status[case]) != "ok":
            skipped.append(f"case {case}: {status[case]}")
            continue
        run = load_run(table.path, case=int(case))
        s = series_of(run, bead, wall, quantity, observable)
        amplitude, phase = response_at(s.time, s.values, frequencies[case], t0, t1,
                                       f"{table.path} case {case}")
        if drive is not None:
            amplitude /= abs(_drive_amplitude(run, drive, case))  # a sign is a phase
        rows.append((case, frequencies[case], amplitude, phase))
        label, unit = s.label, s.unit
    if not rows:
        raise ValueError(f"{table.path}: no case has a run (" + "; ".join(skipped) + ")")
    cases, f, a, p = (np.array(c) for c in zip(*rows))
    others = {name: np.asarray(table.column(name))[cases] for name in table.axes if name != axis}
    return Transmission(f.astype(float), a, p, cases, label, unit, axis, table.name,
                        "" if drive is None else str(drive), others, skipped)
