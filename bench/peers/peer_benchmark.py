#!/usr/bin/python3
"""Peer benchmark: chaindem against LAMMPS and LIGGGHTS on the same granular chain.

For every chain length N (default 1e3, 1e4, 1e5, 1e6
beads) the same case runs in chaindem, LAMMPS (``pair_style granular``) and LIGGGHTS
(``pair_style gran``), serially on one thread each, and the step-loop time of each program is
turned into nanoseconds per bead-step. Before that, a short run with velocity output checks that
the three programs integrate the same physics.

Case (SI units)
---------------
A straight chain of N touching steel beads at rest (R = 5 mm, E = 200 GPa, nu = 0.3,
rho = 7800 kg/m^3; free ends, no gravity, no walls), struck at one end by a striker of the same
bead (N + 1 spheres in all) at v0 = 1 m/s along +x. Frictionless, purely normal contact: the
damped Hertz law of commercial DEM codes, tension allowed (the damped force may become
attractive at the end of a contact)::

    F = 4/3 E* sqrt(R* delta) delta - 2 sqrt(5/6) beta sqrt(S_n m*) v_n
    S_n = 2 E* sqrt(R* delta),  beta = ln e / sqrt(ln^2 e + pi^2),  e = 0.9
    1/E* = 2 (1 - nu^2)/E,  R* = R/2,  m* = m/2,  m = 4/3 pi R^3 rho

Fixed time step dt = 3e-7 s (the Hertz contact time at 1 m/s is ~3.1e-5 s, so ~100 steps per
contact, stable in all three codes) and a fixed number of steps (2000). All three place the
spheres at the same coordinates: chaindem's (striker centre at x = R, bead k at
x_{k-1} + 2R accumulated left to right in double precision, which the script reproduces
bitwise and checks against chaindem's first output frame), written to a LAMMPS data file with
17 significant digits. The neighbor skin is 0.2 R (chaindem's default) in all three programs;
during 2000 steps the striker moves at most 0.6 mm < skin/2, so no program rebuilds its
neighbor list during the timed loop.

Programs and their inputs
-------------------------
* chaindem: ``law = edem_hertz_mindlin``, ``restitution = e``, ``tension = allow``,
  ``simulation.threads = 1`` and OMP_NUM_THREADS=1, output only the first and the last frame
  (``output.interval = duration``, ``contacts = false``). Timing: the run summary's
  ``/summary`` attribute ``wall_time`` (the step loop, including chaindem's per-step observers
  and the two frames it writes).
* LIGGGHTS (/usr/bin/liggghts, 3.8.0): as validation/liggghts/liggghts_chain.py
  (``hard_particles yes``, material via ``fix property/global``, coefficientFriction 0)
  with ``pair_style gran model hertz tangential no_history limitForce off``, ``newton off``,
  ``fix nve/sphere``, particles read with ``read_data``.
* LAMMPS (/usr/bin/lmp; Debian 20220106, i.e. 29Sep2021 stable + updates)::

      units si / atom_style sphere / newton off / comm_modify vel yes
      pair_style granular
      pair_coeff * * hertz/material 2e11 E_IN 0.3 tangential linear_nohistory 0 0 damping tsuji
      fix integr all nve/sphere

  with E_IN = 0.8621221510683359 for e = 0.9 (computed, see below), or, on a LAMMPS that has
  it, ``pair_coeff * * hertz/material 2e11 0.9 0.3 tangential linear_nohistory 0 0 damping
  coeff_restitution``. The ``linear_nohistory`` tangential model with damping factor 0 and
  friction 0 gives no tangential force and needs no contact history.

  Timing of LAMMPS and LIGGGHTS: the ``Loop time of X on 1 procs for S steps with N atoms``
  line each prints after ``run`` (step loop only, setup excluded). Neither writes a dump in
  the timed runs; thermo output only at the first and last step; spatial atom sorting is off
  (``atom_modify sort 0 0.0``; the data file is already in spatial order).

LAMMPS damping: which option is the LIGGGHTS/commercial-DEM restitution damping
------------------------------------------------------------------------------
pair granular writes the normal force as F = F_ne - eta_n v_nnr, with v_nnr = (v_i - v_j).n,
n = (x_i - x_j)/r, so v_nnr < 0 while the spheres approach and the dashpot pushes them apart:
the same sign convention as LIGGGHTS and chaindem (no sign change needed). For
``hertz/material E damp nu`` the elastic part is F_ne = k_nd delta with
k_nd = 4/3 E* a, a = sqrt(R* delta), E* = 1/((1-nu_i^2)/E_i + (1-nu_j^2)/E_j) (mix_stiffnessE),
R* = R_i R_j/(R_i+R_j) and m_eff = m_i m_j/(m_i+m_j): the same effective radius, modulus and
mass as LIGGGHTS and chaindem, so the Hertz part agrees identically.

* ``damping coeff_restitution`` (newer LAMMPS, doc/src/granular_damping_models.rst of
  lammps/lammps; implemented in GranSubModDampingCoeffRestitution) is exactly the LIGGGHTS
  damping: for Hertz models eta_n = -2 sqrt(5/6) beta sqrt(3/2 k_nd m_eff), and
  3/2 k_nd = 2 E* a = S_n. The docs introduce it as the model "useful when a specific normal
  coefficient of restitution e is required". The installed Debian LAMMPS (20220106) does not
  have it ("unrecognized damping model").
* ``damping tsuji`` in this LAMMPS (src/GRANULAR/pair_granular.cpp, PairGranular::compute and
  ::coeff) uses eta_n = alpha sqrt(m_eff k_nd) - the same functional form - but converts the
  given "restitution" to alpha with Tsuji's polynomial fit
  alpha(c) = 1.2728 - 4.2783 c + 11.087 c^2 - 22.348 c^3 + 27.467 c^4 - 18.022 c^5 + 4.8218 c^6.
  The LIGGGHTS damping is eta_n = -2 sqrt(5/6) beta sqrt(2 E* a m*) = sqrt(5) |beta|
  sqrt(k_nd m_eff), i.e. alpha_LIGGGHTS = sqrt(5) |beta(e)| = 0.0749495 for e = 0.9, while
  ``damping tsuji`` with 0.9 gives alpha(0.9) = 0.0528981 (30 % less damping; Tsuji's fit and
  the beta formula are two different approximations of the restitution of the damped Hertz
  contact). The mapping used here: pass E_IN = alpha^{-1}(sqrt(5) |beta(e)|) (bisection,
  alpha decreases monotonically on [0, 1]) so that LAMMPS evaluates alpha(E_IN) =
  sqrt(5) |beta(e)| to round-off. Representable for alpha >= alpha(1) = 3e-4, i.e.
  e <= 0.9987; e = 1 maps to ``damping velocity`` with coefficient 0. NOTE: newer LAMMPS
  (doc "versionchanged 2Sep2026") multiply Tsuji's alpha by sqrt(2); those versions have
  ``coeff_restitution``, which this script then prefers (``--lammps-damping auto`` probes the
  executable). ``--lammps-damping tsuji-naive`` passes e itself to ``damping tsuji``, the
  mismatched input, to show the difference.
* ``viscoelastic`` (eta_n = eta_n0 a m_eff), ``mass_velocity`` (eta_n0 m_eff) and ``velocity``
  (eta_n0) have other dependences on the overlap and cannot reproduce it.

Physics check
-------------
A separate short run (default N = 20 beads, 2000 steps, same dt) writes the x velocities
every 100 steps from all three programs (LAMMPS/LIGGGHTS ``dump custom ... id vx`` with 17
digits). The figure of merit is max over frames and particles of |vx_a - vx_b| / v0, for
chaindem vs LIGGGHTS, chaindem vs LAMMPS and LAMMPS vs LIGGGHTS. Each timed run is also
checked: the final x velocities of the striker and the first two beads (chaindem: last output
frame; LAMMPS/LIGGGHTS: ``print`` of equal-style variables after the run) must agree within
the same tolerance. Exit status 0 if every run completed and every difference is below
``--tolerance`` (default 1e-3 of v0), 1 otherwise. With the mapping above the three agree to
round-off (~4e-16 v0 for e = 0.9 and 0.5, all pairs): same forces, same velocity-Verlet
integration (damping evaluated with the half-step velocity), same coordinates. With
``tsuji-naive`` LAMMPS differs from the other two by 7.8e-2 v0.

Cost
----
Measured on the 2-vCPU development VM: 25 to 90 ns per bead-step per program; N = 1e6 (2000
steps, 2e9 bead-steps per program) takes about 2 minutes per program and 6 to 7 minutes for the
three, with peak RSS 0.6 GB (chaindem) and 0.85 GB (LAMMPS, LIGGGHTS); N = 1e5 about 40 s in
all, smaller sizes seconds. Timings on a shared machine vary by 10-50 % between runs; use
``--repeats`` (fastest of several) for the small sizes. Before each size the script
prints an estimate of its time and memory, extrapolated from the sizes already measured (sizes
run smallest first). Peak resident memory of each process is measured (GNU time's %M,
else /proc VmHWM) and reported.

Usage (Debian's /usr/bin/python3: numpy, h5py)::

    /usr/bin/python3 bench/peers/peer_benchmark.py                    # 1e3..1e6
    /usr/bin/python3 bench/peers/peer_benchmark.py --sizes 1000,10000 # quick
    /usr/bin/python3 bench/peers/peer_benchmark.py --json out.json --workdir /tmp/peer
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import h5py
    import numpy as np
except ImportError as _exc:  # environment problem
    sys.stderr.write(f"error: {_exc}; run with Debian's /usr/bin/python3 (numpy, h5py)\n")
    sys.exit(2)

REPO = Path(__file__).resolve().parents[2]

RADIUS = 0.005
YOUNGS_MODULUS = 200e9
POISSON_RATIO = 0.3
DENSITY = 7800.0

LOOP_RE = re.compile(
    r"Loop time of\s+([0-9.eE+-]+)\s+on\s+(\d+)\s+procs\s+for\s+(\d+)\s+steps\s+with\s+(\d+)\s+atoms"
)
FINAL_RE = re.compile(r"^FINALVX\s+(\S+)\s+(\S+)\s+(\S+)\s*$", re.M)


class RunError(RuntimeError):
    """A program is missing, failed, or its output cannot be used."""


# ---------------------------------------------------------------------------------------------
# case geometry and damping mapping


def positions(n_beads: int) -> np.ndarray:
    """x of striker and beads exactly as chaindem builds them (scene_builder: x = R, then
    x += (R + separation) + R, left to right; separation = 0 for touching beads)."""
    steps = np.full(n_beads + 1, (RADIUS + 0.0) + RADIUS)
    steps[0] = RADIUS
    return np.add.accumulate(steps)  # sequential sum, like the C++ loop


def beta(e: float) -> float:
    le = math.log(e)
    return le / math.sqrt(le * le + math.pi * math.pi)


def tsuji_alpha(c: float) -> float:
    """LAMMPS (<= 2022) pair granular ``damping tsuji``: coefficient from the given value c."""
    return (1.2728 - 4.2783 * c + 11.087 * c**2 - 22.348 * c**3 + 27.467 * c**4
            - 18.022 * c**5 + 4.8218 * c**6)


def tsuji_input_for(e: float) -> float:
    """The value to give ``damping tsuji`` so that alpha = sqrt(5)|beta(e)| (LIGGGHTS)."""
    target = math.sqrt(5.0) * abs(beta(e))
    if target < tsuji_alpha(1.0):
        raise RunError(
            f"restitution {e} needs alpha = {target:.3g} < alpha(1) = {tsuji_alpha(1.0):.3g}, "
            "which 'damping tsuji' cannot represent; use --lammps-damping coeff_restitution "
            "on a LAMMPS that has it"
        )
    lo, hi = 0.0, 1.0  # alpha decreasing on [0, 1]
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if tsuji_alpha(mid) > target:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-17:
            break
    c = 0.5 * (lo + hi)
    return c


def find_exe(name: str) -> str:
    path = shutil.which(name) if os.sep not in name else (name if os.access(name, os.X_OK) else None)
    if path is None:
        raise RunError(f"executable not found: {name!r}")
    return os.path.abspath(path)


GNU_TIME = "/usr/bin/time"
PEAK_RE = re.compile(r"^PEAKRSS_KIB (\d+)\s*$", re.M)


def run_process(cmd: list[str], cwd: Path, log: Path,
                timeout: float | None) -> tuple[str, float, float | None]:
    """Run cmd with one thread; return (stdout+stderr, wall seconds, peak RSS in MiB or None).

    The peak RSS comes from GNU time (``/usr/bin/time -f %M``, the program's ru_maxrss) when
    it is installed, else from the largest VmHWM seen while polling /proc every 20 ms (only
    growth in the last 20 ms of a run can be missed; None if the run ended before a poll)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    use_time = os.access(GNU_TIME, os.X_OK)
    full = [GNU_TIME, "-f", "PEAKRSS_KIB %M"] + cmd if use_time else cmd
    t0 = time.perf_counter()
    hwm_kib = 0
    with open(log, "w") as out:
        # its own process group: on a timeout the whole group (time + program) is ended
        proc = subprocess.Popen(full, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            while proc.poll() is None:
                if timeout is not None and time.perf_counter() - t0 > timeout:
                    os.killpg(proc.pid, 9)
                    proc.wait()
                    raise RunError(f"{cmd[0]} exceeded the time limit of {timeout:g} s ({log})")
                if not use_time:
                    try:
                        with open(f"/proc/{proc.pid}/status") as st:
                            for line in st:
                                if line.startswith("VmHWM:"):
                                    hwm_kib = max(hwm_kib, int(line.split()[1]))
                    except (OSError, ValueError):
                        pass
                time.sleep(0.02)
        except KeyboardInterrupt:
            os.killpg(proc.pid, 9)
            proc.wait()
            raise
    wall = time.perf_counter() - t0
    text = log.read_text(errors="replace")
    if use_time:
        m = PEAK_RE.findall(text)
        hwm_kib = int(m[-1]) if m else 0
    if proc.returncode != 0:
        tail = "\n".join(text.splitlines()[-25:])
        raise RunError(f"{Path(cmd[0]).name} failed (exit {proc.returncode}), see {log}:\n{tail}")
    return text, wall, (hwm_kib / 1024.0) if hwm_kib else None


# ---------------------------------------------------------------------------------------------
# chaindem

CHAINDEM_CASE = """\
# Generated by bench/peers/peer_benchmark.py
[simulation]
duration = {duration!r}
time_step = {dt!r}
skin = {skin!r}
threads = 1

[contact]
law = edem_hertz_mindlin
restitution = {restitution!r}
tension = allow

[material.steel]
youngs_modulus = {E!r}
poisson_ratio = {nu!r}
density = {rho!r}

[chain]
count = {n}
materials = steel
radii = {R!r}

[striker]
velocity = {v0!r}

[output]
interval = {interval!r}
contacts = false
"""


def run_chaindem(exe: str, d: Path, n: int, a, steps: int, every: int | None, timeout) -> dict:
    d.mkdir(parents=True, exist_ok=True)
    duration = steps * a.dt
    case = d / "chain.ini"
    out = d / "chaindem.h5"
    case.write_text(CHAINDEM_CASE.format(
        duration=duration, dt=a.dt, skin=0.2 * RADIUS, restitution=a.restitution,
        E=YOUNGS_MODULUS, nu=POISSON_RATIO, rho=DENSITY, n=n, R=RADIUS, v0=a.v0,
        interval=duration if every is None else every * a.dt))
    if out.exists():
        out.unlink()
    _, wall, rss = run_process([exe, "run", str(case), "-o", str(out), "--quiet"], d,
                               d / "chaindem.log", timeout)
    with h5py.File(out, "r") as f:
        s = dict(f["summary"].attrs)
        derived = dict(f["parameters/derived"].attrs)
        g = f["particles/chain"]
        t = g["velocity/time"][()]
        x0 = g["position/value"][0, :, 0]
        if every is None:
            vx = g["velocity/value"][-1, :3, 0][None, :]
        else:
            vx = g["velocity/value"][:, :, 0]
        steps_done = int(s["steps"])
    if steps_done != steps:
        raise RunError(f"chaindem ran {steps_done} steps, expected {steps}")
    if int(derived["threads"]) != 1:
        raise RunError(f"chaindem used {derived['threads']} threads, expected 1")
    pos_diff = float(np.max(np.abs(x0 - positions(n))))
    return dict(loop=float(s["wall_time"]), ns_own=float(s["ns_per_bead_step"]), wall=wall,
                rss=rss, time=t, vx=vx, final=vx[-1, :3] if every is None else vx[-1, :3],
                position_mismatch=pos_diff)


# ---------------------------------------------------------------------------------------------
# LAMMPS and LIGGGHTS

def write_data(path: Path, n: int, steps: int, a) -> None:
    """LAMMPS/LIGGGHTS data file: atom-ID atom-type diameter density x y z (sphere/granular)."""
    x = positions(n)
    d = 2.0 * RADIUS
    margin = 2.0 * abs(a.v0) * steps * a.dt + 4.0 * RADIUS
    with open(path, "w") as f:
        f.write("chaindem peer benchmark chain (bench/peers/peer_benchmark.py)\n\n")
        f.write(f"{n + 1} atoms\n1 atom types\n\n")
        f.write(f"{x[0] - d - margin!r} {x[-1] + d + margin!r} xlo xhi\n")
        f.write(f"{-2.0 * RADIUS!r} {2.0 * RADIUS!r} ylo yhi\n")
        f.write(f"{-2.0 * RADIUS!r} {2.0 * RADIUS!r} zlo zhi\n\nAtoms\n\n")
        chunk = 200000
        for s in range(0, n + 1, chunk):
            f.write("".join(f"{i + 1} 1 {d!r} {DENSITY!r} {x[i]!r} 0 0\n"
                            for i in range(s, min(s + chunk, n + 1))))


LAMMPS_INPUT = """\
# chaindem peer benchmark (bench/peers/peer_benchmark.py): LAMMPS pair granular
units           si
dimension       3
boundary        f f f
atom_style      sphere
atom_modify     map array sort 0 0.0
newton          off
comm_modify     vel yes
read_data       chain.data
pair_style      granular
pair_coeff      * * {pair_coeff}
neighbor        {skin!r} bin
neigh_modify    delay 0 every 1 check yes
timestep        {dt!r}
set             atom 1 vx {v0!r}
fix             integr all nve/sphere
{dump}thermo          {steps}
variable        vx1 equal vx[1]
variable        vx2 equal vx[2]
variable        vx3 equal vx[3]
run             {steps}
print           "FINALVX ${{vx1}} ${{vx2}} ${{vx3}}"
"""

LIGGGHTS_INPUT = """\
# chaindem peer benchmark (bench/peers/peer_benchmark.py): LIGGGHTS pair gran model hertz
atom_style      granular
atom_modify     map array sort 0 0.0
boundary        f f f
newton          off
communicate     single vel yes
units           si
hard_particles  yes
read_data       chain.data
neighbor        {skin!r} bin
neigh_modify    delay 0
fix             m1 all property/global youngsModulus peratomtype {E!r}
fix             m2 all property/global poissonsRatio peratomtype {nu!r}
fix             m3 all property/global coefficientRestitution peratomtypepair 1 {e!r}
fix             m4 all property/global coefficientFriction peratomtypepair 1 0.0
pair_style      gran model hertz tangential no_history limitForce off
pair_coeff      * *
timestep        {dt!r}
set             atom 1 vx {v0!r}
fix             integr all nve/sphere
{dump}thermo          {steps}
variable        vx1 equal vx[1]
variable        vx2 equal vx[2]
variable        vx3 equal vx[3]
run             {steps}
print           "FINALVX ${{vx1}} ${{vx2}} ${{vx3}}"
"""


def lammps_pair_coeff(mode: str, e: float) -> tuple[str, str]:
    """(pair_coeff arguments, description) for the chosen LAMMPS damping mapping."""
    tail = f"{POISSON_RATIO!r} tangential linear_nohistory 0.0 0.0"
    if mode == "coeff_restitution":
        return (f"hertz/material {YOUNGS_MODULUS!r} {e!r} {tail} damping coeff_restitution",
                "damping coeff_restitution with e (= LIGGGHTS damping by definition)")
    if e == 1.0:
        return (f"hertz/material {YOUNGS_MODULUS!r} 0.0 {tail} damping velocity",
                "e = 1: no damping (damping velocity, coefficient 0)")
    if mode == "tsuji-naive":
        return (f"hertz/material {YOUNGS_MODULUS!r} {e!r} {tail} damping tsuji",
                f"damping tsuji with e itself: alpha = {tsuji_alpha(e):.10g} "
                f"(LIGGGHTS: {math.sqrt(5) * abs(beta(e)):.10g}) - deliberately mismatched")
    c = tsuji_input_for(e)
    return (f"hertz/material {YOUNGS_MODULUS!r} {c!r} {tail} damping tsuji",
            f"damping tsuji with E_IN = {c!r}: alpha(E_IN) = {tsuji_alpha(c):.15g} = "
            f"sqrt(5)|beta({e})| = {math.sqrt(5) * abs(beta(e)):.15g}")


def probe_coeff_restitution(exe: str, d: Path) -> bool:
    """True if this LAMMPS accepts 'damping coeff_restitution'."""
    d.mkdir(parents=True, exist_ok=True)
    (d / "in.probe").write_text(
        "units si\natom_style sphere\nregion b block 0 1 0 1 0 1\ncreate_box 1 b\n"
        "comm_modify vel yes\npair_style granular\n"
        "pair_coeff * * hertz/material 1e9 0.9 0.3 tangential linear_nohistory 0 0 "
        "damping coeff_restitution\n")
    p = subprocess.run([exe, "-in", "in.probe", "-log", "none", "-nocite"], cwd=d,
                       capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
    return p.returncode == 0 and "ERROR" not in p.stdout + p.stderr


def parse_dump(path: Path, n_atoms: int) -> tuple[np.ndarray, np.ndarray]:
    """``dump custom ... id vx`` -> (steps[T], vx[T, n_atoms]) sorted by id."""
    steps, vels = [], []
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("ITEM: TIMESTEP"):
            step = int(lines[i + 1])
            nat = int(lines[i + 3])
            if nat != n_atoms:
                raise RunError(f"{path}: frame at step {step} has {nat} atoms, expected {n_atoms}")
            block = np.array([r.split() for r in lines[i + 9: i + 9 + nat]], dtype=float)
            block = block[np.argsort(block[:, 0])]
            steps.append(step)
            vels.append(block[:, 1])
            i += 9 + nat
        else:
            i += 1
    if not steps:
        raise RunError(f"no frames in {path}")
    return np.array(steps), np.array(vels)


def run_peer(kind: str, exe: str, d: Path, n: int, a, steps: int, every: int | None,
             pair_coeff: str, timeout) -> dict:
    d.mkdir(parents=True, exist_ok=True)
    write_data(d / "chain.data", n, steps, a)
    if kind == "lammps":
        dump = ("" if every is None else
                f"dump            dv all custom {every} vel.dump id vx\n"
                "dump_modify     dv sort id format float %.17g\n")
        script = LAMMPS_INPUT.format(pair_coeff=pair_coeff, skin=0.2 * RADIUS, dt=a.dt,
                                     v0=a.v0, dump=dump, steps=steps)
        cmd = [exe, "-in", "in.chain", "-log", "none", "-echo", "none", "-nocite"]
    else:
        dump = ("" if every is None else
                f"dump            dv all custom {every} vel.dump id vx\n"
                'dump_modify     dv sort id format "%d %.17g"\n')
        script = LIGGGHTS_INPUT.format(E=YOUNGS_MODULUS, nu=POISSON_RATIO, e=a.restitution,
                                       skin=0.2 * RADIUS, dt=a.dt, v0=a.v0, dump=dump,
                                       steps=steps)
        cmd = [exe, "-in", "in.chain", "-log", "none", "-echo", "none"]
    (d / "in.chain").write_text(script)
    dump_file = d / "vel.dump"
    if dump_file.exists():
        dump_file.unlink()
    text, wall, rss = run_process(cmd, d, d / f"{kind}.log", timeout)
    if "ERROR" in text:
        tail = "\n".join(text.splitlines()[-25:])
        raise RunError(f"{kind} reported an error, see {d / (kind + '.log')}:\n{tail}")
    m = LOOP_RE.search(text)
    if not m:
        raise RunError(f"{kind}: no 'Loop time' line in {d / (kind + '.log')}")
    loop, procs, s, atoms = float(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4))
    if procs != 1 or s != steps or atoms != n + 1:
        raise RunError(f"{kind}: ran on {procs} procs, {s} steps, {atoms} atoms; expected "
                       f"1, {steps}, {n + 1} (lost atoms?)")
    f = FINAL_RE.search(text)
    if not f:
        raise RunError(f"{kind}: no FINALVX line in {d / (kind + '.log')}")
    res = dict(loop=loop, wall=wall, rss=rss, final=np.array([float(v) for v in f.groups()]))
    if every is not None:
        st, vx = parse_dump(dump_file, n + 1)
        res.update(time=st * a.dt, vx=vx)
    return res


# ---------------------------------------------------------------------------------------------
# driver


def max_rel(a_vx: np.ndarray, b_vx: np.ndarray, v0: float) -> tuple[float, tuple[int, int]]:
    rel = np.abs(a_vx - b_vx) / abs(v0)
    k = np.unravel_index(int(np.argmax(rel)), rel.shape)
    return float(rel[k]), (int(k[0]), int(k[1]))


def physics_check(a, exes, d: Path, pair_coeff: str) -> dict:
    n, steps, every = a.check_beads, a.check_steps, a.check_every
    c = run_chaindem(exes["chaindem"], d / "chaindem", n, a, steps, every, a.timeout)
    l = run_peer("lammps", exes["lammps"], d / "lammps", n, a, steps, every, pair_coeff, a.timeout)
    g = run_peer("liggghts", exes["liggghts"], d / "liggghts", n, a, steps, every, "", a.timeout)
    # chaindem writes frames every `every` steps (plus the last step); align by time
    idx = []
    for t in l["time"]:
        j = int(np.argmin(np.abs(c["time"] - t)))
        if abs(c["time"][j] - t) > 1e-12:
            raise RunError(f"chaindem has no frame at t = {t:g} s")
        idx.append(j)
    if not np.allclose(l["time"], g["time"], rtol=0, atol=1e-15):
        raise RunError("LAMMPS and LIGGGHTS frame times differ")
    vc = c["vx"][idx]
    out = {"n_beads": n, "steps": steps, "output_every": every, "frames": len(idx),
           "times_s": [float(t) for t in l["time"]],
           "chaindem_position_mismatch_m": c["position_mismatch"]}
    for name, (x, y) in {"chaindem_vs_liggghts": (vc, g["vx"]),
                         "chaindem_vs_lammps": (vc, l["vx"]),
                         "lammps_vs_liggghts": (l["vx"], g["vx"])}.items():
        r, (it, ip) = max_rel(x, y, a.v0)
        out[name] = {"max_rel": r, "frame": it, "time_s": float(l["time"][it]), "particle": ip}
    out["final_vx_striker_bead1_last"] = {
        "chaindem": [float(vc[-1, 0]), float(vc[-1, 1]), float(vc[-1, -1])],
        "lammps": [float(l["vx"][-1, 0]), float(l["vx"][-1, 1]), float(l["vx"][-1, -1])],
        "liggghts": [float(g["vx"][-1, 0]), float(g["vx"][-1, 1]), float(g["vx"][-1, -1])]}
    return out


def estimate(results: list[dict], n: int, steps: int) -> tuple[float, float] | None:
    """(seconds for the three programs, peak MiB of the largest one) at size n: a straight line
    through the two largest sizes measured (proportional scaling from one size)."""
    if not results:
        return None
    progs = ("chaindem", "lammps", "liggghts")

    b = results[-1]

    def line(y_of, one_point) -> float:
        if len(results) == 1:
            return one_point(b)
        a = results[-2]
        slope = (y_of(b) - y_of(a)) / (b["n"] - a["n"])
        return max(y_of(b) + slope * (n - b["n"]), y_of(b))

    scale = (n + 1) / (b["n"] + 1) * steps / b["steps"]
    secs = sum(line(lambda r, p=p: r[p]["wall"] * steps / r["steps"],
                    # one size: the loop scales, the start-up is taken as fixed
                    lambda r, p=p: r[p]["wall"] - r[p]["loop"] + r[p]["loop"] * scale)
               for p in progs)
    # one size: assume 2 KiB per sphere on top of what was measured (about twice LAMMPS's)
    mem = max(line(lambda r, p=p: r[p]["rss"] or 0.0,
                   lambda r, p=p: (r[p]["rss"] or 0.0) + 2.0 / 1024.0 * (n - r["n"]))
              for p in progs)
    return secs, mem


def available_mib() -> float:
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("inf")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000,1000000",
                    help="comma-separated bead counts N (default %(default)s)")
    ap.add_argument("--steps", type=int, default=2000, help="time steps per timed run")
    ap.add_argument("--dt", type=float, default=3e-7, help="time step, s")
    ap.add_argument("--v0", type=float, default=1.0, help="striker speed, m/s")
    ap.add_argument("--restitution", type=float, default=0.9)
    ap.add_argument("--tolerance", type=float, default=1e-3,
                    help="largest allowed |dvx|/v0 between programs (default %(default)s)")
    ap.add_argument("--check-beads", type=int, default=20, help="beads of the physics check")
    ap.add_argument("--check-steps", type=int, default=2000)
    ap.add_argument("--check-every", type=int, default=100, help="steps between compared frames")
    ap.add_argument("--skip-check", action="store_true", help="no velocity-output physics check")
    ap.add_argument("--lammps-damping", default="auto",
                    choices=("auto", "coeff_restitution", "tsuji", "tsuji-naive"),
                    help="auto: coeff_restitution if this LAMMPS has it, else tsuji with the "
                    "mapped input (see the module docstring); tsuji-naive: tsuji with e itself "
                    "(mismatched, for illustration)")
    ap.add_argument("--repeats", type=int, default=1,
                    help="timed runs per program and size; the fastest loop time is reported")
    ap.add_argument("--timeout", type=float, default=7200.0, help="seconds per program run")
    ap.add_argument("--chaindem", default=os.environ.get("CHAINDEM") or str(REPO / "build" / "chaindem"))
    ap.add_argument("--lammps", default=os.environ.get("LAMMPS") or "/usr/bin/lmp")
    ap.add_argument("--liggghts", default=os.environ.get("LIGGGHTS") or "/usr/bin/liggghts")
    ap.add_argument("--workdir", default=None, help="keep all inputs, logs and outputs here")
    ap.add_argument("--json", default=None, metavar="OUT", help="write the numbers as JSON")
    a = ap.parse_args(argv)
    try:
        sizes = sorted({int(float(s)) for s in a.sizes.split(",") if s.strip()})
    except ValueError:
        ap.error("--sizes must be comma-separated integers, e.g. 1000,10000")
    if not sizes or min(sizes) < 1:
        ap.error("--sizes needs bead counts >= 1")
    if a.steps < 1 or a.dt <= 0 or a.v0 <= 0 or not 0 < a.restitution <= 1 or a.repeats < 1:
        ap.error("need --steps >= 1, --dt > 0, --v0 > 0, 0 < --restitution <= 1, --repeats >= 1")

    try:
        exes = {"chaindem": find_exe(a.chaindem), "lammps": find_exe(a.lammps),
                "liggghts": find_exe(a.liggghts)}
    except RunError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1

    tmp = None
    if a.workdir:
        root = Path(a.workdir).resolve()
        root.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="peer_benchmark_")
        root = Path(tmp.name)

    report: dict = {"parameters": {k: v for k, v in vars(a).items()}, "sizes": sizes}
    failures: list[str] = []
    t_start = time.perf_counter()
    try:
        mode = a.lammps_damping
        if mode == "auto":
            mode = "coeff_restitution" if probe_coeff_restitution(exes["lammps"], root / "probe") else "tsuji"
        pair_coeff, damping_note = lammps_pair_coeff(mode, a.restitution)
        report["lammps_damping"] = {"mode": mode, "pair_coeff": pair_coeff, "note": damping_note}
        print(f"LAMMPS: pair_coeff * * {pair_coeff}\n        ({damping_note})")
        print(f"case: N beads + striker, R = {RADIUS} m, E = {YOUNGS_MODULUS:g} Pa, nu = "
              f"{POISSON_RATIO}, rho = {DENSITY:g}, v0 = {a.v0} m/s, e = {a.restitution}, "
              f"dt = {a.dt:g} s, {a.steps} steps, 1 thread each\n")

        if not a.skip_check:
            t0 = time.perf_counter()
            try:
                chk = physics_check(a, exes, root / "check", pair_coeff)
            except RunError as exc:
                failures.append(f"physics check: {exc}")
                print(f"physics check FAILED to run: {exc}", file=sys.stderr)
                chk = None
            if chk:
                chk["wall_s"] = time.perf_counter() - t0
                report["physics_check"] = chk
                print(f"physics check: N = {chk['n_beads']}, {chk['steps']} steps, "
                      f"{chk['frames']} frames every {chk['output_every']} steps "
                      f"(t = 0 .. {chk['times_s'][-1]:.3g} s), {chk['wall_s']:.1f} s")
                for name in ("chaindem_vs_liggghts", "chaindem_vs_lammps", "lammps_vs_liggghts"):
                    r = chk[name]
                    ok = r["max_rel"] < a.tolerance
                    print(f"  max |dvx|/v0 {name:22s} {r['max_rel']:.3e}  (particle "
                          f"{r['particle']}, t = {r['time_s']:.4g} s)  {'ok' if ok else 'FAIL'}")
                    if not ok:
                        failures.append(f"physics check {name}: {r['max_rel']:.3e}")
                fv = chk["final_vx_striker_bead1_last"]
                for prog in ("chaindem", "lammps", "liggghts"):
                    print(f"  final vx {prog:9s} striker {fv[prog][0]: .10f}  bead 1 "
                          f"{fv[prog][1]: .10f}  last bead {fv[prog][2]: .10f} m/s")
                print()

        results: list[dict] = []
        report["runs"] = results
        for n in sizes:
            est = estimate(results, n, a.steps)
            if est is not None:
                secs, mem = est
                print(f"N = {n}: expected ~{secs * a.repeats:.0f} s for the three programs, "
                      f"peak memory ~{mem:.0f} MiB (available {available_mib():.0f} MiB)",
                      file=sys.stderr, flush=True)
                if mem > 0.8 * available_mib():
                    failures.append(f"N = {n}: skipped, needs ~{mem:.0f} MiB")
                    print(f"  skipping N = {n}: not enough memory", file=sys.stderr)
                    continue
            elif n >= 1_000_000:
                print(f"N = {n}: large run, expect several minutes per program",
                      file=sys.stderr, flush=True)
            t0 = time.perf_counter()
            row: dict = {"n": n, "steps": a.steps}
            try:
                for prog in ("chaindem", "lammps", "liggghts"):
                    best = None
                    for rep in range(a.repeats):
                        d = root / f"n{n}" / prog
                        if prog == "chaindem":
                            r = run_chaindem(exes[prog], d, n, a, a.steps, None, a.timeout)
                        else:
                            r = run_peer(prog, exes[prog], d, n, a, a.steps, None,
                                         pair_coeff if prog == "lammps" else "", a.timeout)
                        if best is None or r["loop"] < best["loop"]:
                            best = r
                    best["ns"] = 1e9 * best["loop"] / ((n + 1) * a.steps)
                    row[prog] = {k: (v.tolist() if isinstance(v, np.ndarray) else v)
                                 for k, v in best.items() if k not in ("time", "vx")}
            except RunError as exc:
                failures.append(f"N = {n}: {exc}")
                print(f"N = {n}: FAILED: {exc}", file=sys.stderr)
                continue
            row["size_wall_s"] = time.perf_counter() - t0
            fc = np.array(row["chaindem"]["final"])
            for prog in ("lammps", "liggghts"):
                diff = float(np.max(np.abs(np.array(row[prog]["final"]) - fc)) / a.v0)
                row[prog]["final_vs_chaindem"] = diff
                if not diff < a.tolerance:
                    failures.append(f"N = {n}: final velocities {prog} vs chaindem differ by "
                                    f"{diff:.3e} v0")
            if row["chaindem"]["position_mismatch"] != 0.0:
                failures.append(f"N = {n}: chaindem's initial positions differ from the data "
                                f"file by {row['chaindem']['position_mismatch']:.3g} m")
            results.append(row)
            print(f"N = {n}: done in {row['size_wall_s']:.1f} s (loop s: chaindem "
                  f"{row['chaindem']['loop']:.3f}, LAMMPS {row['lammps']['loop']:.3f}, LIGGGHTS "
                  f"{row['liggghts']['loop']:.3f}; process wall s: "
                  f"{row['chaindem']['wall']:.1f}, {row['lammps']['wall']:.1f}, "
                  f"{row['liggghts']['wall']:.1f}; peak RSS MiB: "
                  + ", ".join("n/a" if row[p]["rss"] is None else f"{row[p]['rss']:.0f}"
                              for p in ("chaindem", "lammps", "liggghts")) + ")", flush=True)

        if results:
            print("\nns per bead-step (loop time / ((N+1) x steps); 1 thread each)")
            print(f"{'N':>9s} {'chaindem':>10s} {'LAMMPS':>10s} {'LIGGGHTS':>10s} "
                  f"{'LAMMPS/cd':>10s} {'LIGGGHTS/cd':>12s} {'max |dv_final|/v0':>18s}")
            for r in results:
                c, l, g = r["chaindem"]["ns"], r["lammps"]["ns"], r["liggghts"]["ns"]
                dv = max(r["lammps"]["final_vs_chaindem"], r["liggghts"]["final_vs_chaindem"])
                print(f"{r['n']:>9d} {c:>10.2f} {l:>10.2f} {g:>10.2f} {l / c:>10.2f} "
                      f"{g / c:>12.2f} {dv:>18.2e}")
    finally:
        report["total_wall_s"] = time.perf_counter() - t_start
        report["failures"] = failures
        if a.json:
            Path(a.json).write_text(json.dumps(report, indent=2, default=float) + "\n")
        if tmp is not None:
            tmp.cleanup()

    print(f"\ntotal {report['total_wall_s']:.1f} s"
          + (f"; files kept in {root}" if a.workdir else ""))
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print(f"PASS: all runs completed, all differences below {a.tolerance:g} v0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
