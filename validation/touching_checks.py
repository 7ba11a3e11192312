"""What validation/touching_chains.py concludes, asserted: each number its report states against
a value computed here without chaindem (an integration of the chain written again from the
laws' formulas, an event-driven chain of binary impacts, the restitution identity of the
hysteresis family) or against the bound or limit its conclusion rests on, within a stated
tolerance. touching_chains.py writes its report, then runs these checks and exits 1 when one
fails, so that the ctest validation_touching_chains fails when a conclusion no longer holds.
"""
import math

import numpy as np

# The chain of the study (cases/default.ini): identical steel beads, R = 5 mm, E = 200 GPa,
# nu = 0.3, rho = 7800 kg/m^3; the striker is one more of them, touching the first bead.
YOUNGS, POISSON, DENSITY, RADIUS = 200e9, 0.3, 7800.0, 0.005
MASS = DENSITY * 4.0 / 3.0 * math.pi * RADIUS ** 3
E_STAR = YOUNGS / (2.0 * (1.0 - POISSON ** 2))
R_STAR, M_STAR = RADIUS / 2.0, MASS / 2.0
K_HERTZ = 4.0 / 3.0 * E_STAR * math.sqrt(R_STAR)
# The largest overlap of a Hertz impact at 1 m/s (Johnson 1985, §11.4): (5 m* v^2 / (4 K))^(2/5).
DELTA_MAX = (5.0 * M_STAR / (4.0 * K_HERTZ)) ** 0.4  # 10 µm

# alpha(c_r) of the hysteresis laws of the study, typed from docs/contact-laws.md.
ALPHA = {
    "hunt_crossley": lambda c: 1.5 * (1.0 - c),  # Hunt & Crossley (1975)
    "lankarani_nikravesh": lambda c: 0.75 * (1.0 - c * c),  # Lankarani & Nikravesh (1990)
    "flores": lambda c: 1.6 * (1.0 - c) / c,  # Flores et al. (2011)
    "gonthier_exact": lambda c: exact_alpha(c),  # the root of the identity at e = c_r
}


def identity_restitution(alpha):
    """e solving (1 + e) alpha = ln((1 + alpha)/(1 - alpha e)) (docs/validation.md,
    restitution-identity): the restitution of every law K delta^n (1 + alpha v/v0) in an impact
    at v0, by bisection."""
    if alpha == 0.0:
        return 1.0

    def g(e):
        return (1.0 + e) * alpha - math.log((1.0 + alpha) / (1.0 - alpha * e))

    lo, hi = 1e-12, min(1.0, 1.0 / alpha) * (1.0 - 1e-15)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if g(mid) > 0.0 else (lo, mid)
    return 0.5 * (lo + hi)


def exact_alpha(c_r):
    """The alpha whose identity restitution is c_r (gonthier_exact), by bisection in log alpha:
    the restitution falls as alpha grows."""
    lo, hi = 1e-12, 1e6
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        lo, hi = (mid, hi) if identity_restitution(mid) > c_r else (lo, mid)
    return math.sqrt(lo * hi)


def hertz_chain(variants, beads=11, times=(1.2e-3,), dt=1e-7):
    """Velocities [m/s] of a touching chain of `beads` identical spheres (the first, the striker,
    at 1 m/s) at each of `times`, for each variant (alpha, policy): the force
    K delta^(3/2) (1 + alpha v/v0), clamped at zero, v the approach rate, and v0 by the policy as
    docs/engine.md defines it: `energy` the largest of |v| and sqrt(2 U/m*) the contact has
    reached since it began (U = (2/5) K delta^(5/2) the elastic energy it stores), `peak` the
    largest |v|, a number the constant v0 of `reference`. Classical fourth-order Runge-Kutta at a
    fixed step of 0.1 µs, 300 per contact (halving it changes no velocity by more than 1.1e-6
    m/s), all variants at once. Returns {time: array variants x beads}."""
    alpha = np.array([a for a, _ in variants], float)[:, None]
    energy = np.array([p == "energy" for _, p in variants])[:, None]
    fixed = np.array([p if not isinstance(p, str) else 0.0 for _, p in variants], float)[:, None]
    tracked = np.array([isinstance(p, str) for _, p in variants])[:, None]
    u = np.zeros((len(variants), beads))
    v = np.zeros_like(u)
    v[:, 0] = 1.0
    reached = np.zeros((len(variants), beads - 1))  # v0's running maximum, per contact

    def v0_now(d, rate, reached):
        stored = np.sqrt(0.8 * K_HERTZ * np.maximum(d, 0.0) ** 2.5 / M_STAR)
        running = np.maximum(reached, np.maximum(np.abs(rate), np.where(energy, stored, 0.0)))
        return np.where(tracked, running, fixed)

    def acceleration(u, v):
        d, rate = u[:, :-1] - u[:, 1:], v[:, :-1] - v[:, 1:]
        v0 = v0_now(d, rate, reached)
        elastic = K_HERTZ * np.maximum(d, 0.0) ** 1.5
        damped = elastic * (1.0 + alpha * rate / np.where(v0 > 0.0, v0, 1.0))
        f = np.where(d > 0.0, np.maximum(damped, 0.0), 0.0)
        a = np.zeros_like(u)
        a[:, :-1] -= f / MASS
        a[:, 1:] += f / MASS
        return a

    out, t, step = {}, 0.0, 0
    for end in sorted(times):
        for _ in range(int(round((end - t) / dt))):
            a1 = acceleration(u, v)
            u2, v2 = u + 0.5 * dt * v, v + 0.5 * dt * a1
            a2 = acceleration(u2, v2)
            u3, v3 = u + 0.5 * dt * v2, v + 0.5 * dt * a2
            a3 = acceleration(u3, v3)
            u4, v4 = u + dt * v3, v + dt * a3
            a4 = acceleration(u4, v4)
            u = u + dt / 6.0 * (v + 2.0 * v2 + 2.0 * v3 + v4)
            v = v + dt / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4)
            d, rate = u[:, :-1] - u[:, 1:], v[:, :-1] - v[:, 1:]
            reached = np.where(d > 0.0, v0_now(d, rate, reached), 0.0)  # reset at separation
            step += 1
        t = end
        out[end] = v.copy()
    return out


def event_driven_chain(restitution, beads=11, gap=1e-4):
    """The last bead's final velocity [m/s] of a chain of identical beads, the striker at 1 m/s
    touching the first and the others `gap` apart, as a sequence of binary impacts of zero
    duration (Newton's law, restitution(relative speed)), taken in the order they happen until
    no pair approaches."""
    v = [1.0] + [0.0] * (beads - 1)
    gaps = [0.0] + [gap] * (beads - 2)
    while True:
        approaching = [(gaps[i] / (v[i] - v[i + 1]), i) for i in range(beads - 1)
                       if v[i] > v[i + 1]]
        if not approaching:
            return v[-1]
        t, i = min(approaching)
        gaps = [g - (v[k] - v[k + 1]) * t for k, g in enumerate(gaps)]
        gaps[i] = 0.0
        rate = v[i] - v[i + 1]
        impulse = 0.5 * (1.0 + restitution(rate)) * rate
        v[i] -= impulse
        v[i + 1] += impulse


def pick(table, **where):
    """The rows of a sweep's summary table where each column (a__b for a.b) has the value."""
    keep = np.ones(len(table["case"]), bool)
    for key, value in where.items():
        col = table[key.replace("__", ".")]
        keep &= (col == value) if col.dtype.kind in "OUS" else np.isclose(col, float(value))
    return np.flatnonzero(keep)


# The tolerance of chaindem's runs at their automatic step against a converged integration:
# section 3 measures the step error there (about N = 640) at 1e-4 m/s of the striker's 1 m/s;
# ten times that.
STEP_TOLERANCE = 1e-3


# The chains integrated here, (law, c_r, policy): the elastic chain, and c_r = 0.5 under the
# policies whose v0 needs no floor ("reference": v_ref = 1 m/s, the case's largest speed).
INDEPENDENT = [("hertz", 1.0, "energy"), ("hunt_crossley", 0.5, "energy"),
               ("hunt_crossley", 0.5, "peak"), ("hunt_crossley", 0.5, "reference"),
               ("lankarani_nikravesh", 0.5, "energy"), ("gonthier_exact", 0.5, "energy"),
               ("gonthier_exact", 0.5, "peak"), ("gonthier_exact", 0.5, "reference")]


def independent_chains(times):
    """{time: {(law, c_r, policy): the chain's velocities}} of hertz_chain for INDEPENDENT."""
    variants = [(0.0 if law == "hertz" else ALPHA[law](c), 1.0 if p == "reference" else p)
                for law, c, p in INDEPENDENT]
    found = hertz_chain(variants, times=times)
    return {t: dict(zip(INDEPENDENT, v)) for t, v in found.items()}


class Checks:
    """Assertions of the report's conclusions; each says what it compares and where the expected
    value or bound comes from."""

    def __init__(self):
        self.rows = []

    def near(self, what, value, expected, tolerance, source):
        ok = bool(np.isfinite(value) and abs(value - expected) <= tolerance)
        self.rows.append((ok, f"{what}: {value:.7g}, expected {expected:.7g} ± {tolerance:.1g} "
                              f"({source})"))

    def that(self, what, ok, detail, source):
        self.rows.append((bool(ok), f"{what}: {detail} ({source})"))

    def print(self):
        for ok, text in self.rows:
            print(("ok      " if ok else "FAILED  ") + text)
        failed = sum(1 for ok, _ in self.rows if not ok)
        print(f"{len(self.rows) - failed} of {len(self.rows)} checks of the report's conclusions "
              "hold" + (f"; {failed} FAILED" if failed else ""))
        return failed


def touching(checks, t_pol, t_floor, laws, floors, independent):
    """Section 1. `independent`: {(law, c_r, policy): the last bead's velocity of hertz_chain}."""
    def v(table, law, c, **where):
        return table["last_bead_final_velocity"][pick(table, contact__law=law,
                                                      contact__restitution=c, **where)][0]

    variants = [(t_pol, {"contact__impact_velocity": p}) for p in ("energy", "peak", "reference")]
    variants += [(t_floor, {"contact__impact_velocity_floor": f}) for f in floors]
    elastic = independent[("hertz", 1.0, "energy")]
    for law in laws:
        values = [v(t, law, 1.0, **w) for t, w in variants]
        worst = max(values, key=lambda x: abs(x - elastic) if np.isfinite(x) else np.inf)
        checks.near(f"1. {law}, c_r = 1, the policy farthest from the elastic chain", worst,
                    elastic, STEP_TOLERANCE, "undamped Hertz chain integrated by RK4 here")
        for policy in ("energy", "peak", "reference"):
            if (law, 0.5, policy) in independent:
                checks.near(f"1. {law}, c_r = 0.5, {policy} policy", v(
                    t_pol, law, 0.5, contact__impact_velocity=policy),
                    independent[(law, 0.5, policy)], STEP_TOLERANCE,
                    "the same chain and policy integrated by RK4 here")
        # Under the onset policy at a 1 m/s floor every contact of this chain, none faster than
        # the striker, has v0 = 1 m/s: the reference policy's v0, so the same run.
        gap = max(abs(v(t_floor, law, c, contact__impact_velocity_floor=1.0)
                      - v(t_pol, law, c, contact__impact_velocity="reference"))
                  for c in (0.1, 0.5, 0.9))
        checks.near(f"1. {law}: onset at a 1 m/s floor less reference", gap, 0.0, 1e-9,
                    "both damp every contact with v0 = 1 m/s")
        # "The floor sets the answer": the velocity grows with the floor, by a factor over 2
        # from 0.001 to 1 m/s (a smaller v0 damps more), where the time-step error is 1e-4.
        onset = [v(t_floor, law, 0.5, contact__impact_velocity_floor=f) for f in floors]
        checks.that(f"1. {law}, c_r = 0.5, onset policy over floors {floors} m/s",
                    all(np.diff(onset) > 0) and onset[-1] > 2 * onset[0],
                    " < ".join(f"{x:.4f}" for x in onset), "rising, by more than twice")
        # alpha is linear in 1 - c_r near 1 for these laws, so the loss is too: a policy that
        # tends smoothly to the elastic chain loses at c_r = 0.95 about half (0.5) of what it
        # loses at 0.9; the onset policy at small floors keeps nearly all of its loss (jumps).
        for table, where in variants:
            name = ", ".join(f"{k.split('__')[-1]} {x}" for k, x in where.items())
            ratio = (elastic - v(table, law, 0.95, **where)) / (elastic - v(table, law, 0.9,
                                                                             **where))
            jumps = table is t_floor and where["contact__impact_velocity_floor"] < 1.0
            checks.that(f"1. {law}, {name}: loss at c_r = 0.95 over loss at 0.9", (
                ratio > 0.75) if jumps else (ratio < 0.75), f"{ratio:.3f}",
                "jumps: over 0.75" if jumps else "smooth: near 0.5, under 0.75")
        # The energy policy's v0 is never below the peak policy's (a maximum with one more
        # term), so its damping alpha F_e/v0 is never larger: it transmits at least as much.
        below = [v(t_pol, law, c, contact__impact_velocity="peak")
                 <= v(t_pol, law, c, contact__impact_velocity="energy") for c in (0.1, 0.5, 0.9)]
        checks.that(f"1. {law}, c_r = 0.1, 0.5, 0.9: peak policy at most the energy policy",
                    all(below), str(below), "v0 of energy >= v0 of peak at every step")
    worst = max(np.max(t["energy_balance_error"]) for t in (t_pol, t_floor))
    checks.that("1. largest energy balance error of the touching chains", worst < STEP_TOLERANCE,
                f"{worst:.1e}", "the books close to the step error, below 1e-3")


def closing_gaps(checks, velocities, gaps, alpha):
    """Section 2. velocities: {policy: [the last bead's velocity for each gap]}."""
    binary = event_driven_chain(lambda rate: identity_restitution(alpha))
    for policy in ("energy", "peak", "onset"):
        checks.near(f"2. {policy} policy, gap {gaps[0]:g} m", velocities[policy][0], binary,
                    0.005 * binary, "event-driven chain of binary impacts at the identity's "
                    "restitution; 0.5 %: impacts last 30-60 µs, not zero")
    at_reference = event_driven_chain(lambda rate: identity_restitution(alpha * rate / 1.0))
    checks.near(f"2. reference policy, gap {gaps[0]:g} m", velocities["reference"][0],
                at_reference, 0.005 * at_reference, "event-driven chain, each impact at the "
                "identity's restitution for alpha v/v_ref, v_ref = 1 m/s; 0.5 %")
    # A 100 nm gap is 1 % of an impact's largest overlap at 1 m/s: a policy continuous in the
    # gap moves the result by a few times that; the onset policy, whose later contacts begin
    # at rates that fall through its floor, by much more.
    near, scale = gaps.index(1e-7), 1e-7 / DELTA_MAX
    for policy, v in velocities.items():
        move = abs(v[-1] / v[near] - 1)
        bound = 10 * scale if policy == "onset" else 3 * scale
        checks.that(f"2. {policy} policy from a 100 nm gap to touching",
                    move > bound if policy == "onset" else move < bound,
                    f"moves {100 * move:.2f} %", ("over" if policy == "onset" else "under")
                    + f" {100 * bound:.1f} %, gap/largest overlap = {100 * scale:.2f} %")


def convergence(checks, results, converged, independent):
    """Section 3. converged: the velocities at the finest step; independent: {(law, policy):
    hertz_chain's velocities at the same time}."""
    for (law, policy, integrator), (errors, order) in results.items():
        name = f"3. {law}, {policy}, {integrator}"
        if integrator == "lammps":  # damping at the half-step velocity: first order
            checks.that(name + ": order", 0.85 < order < 1.25, f"{order:.2f}",
                        "first-order scheme: 1, within 0.85 to 1.25")
        elif policy == "onset":  # C dt/m* = alpha K delta^(3/2) dt/(v_floor m*) > 1 at N = 320
            checks.that(name + ": diverges at the coarsest step, converges at the finest",
                        not np.isfinite(errors[0]) and errors[-1] < 1e-5,
                        f"{errors[0]:.1e}, {errors[-1]:.1e}",
                        "alpha K delta^1.5 dt/(v_floor m*) = 3.8 at N = 320, delta = 5 µm")
        else:
            checks.that(name + ": order", 1.8 < order < 2.2, f"{order:.2f}",
                        "second-order scheme (docs/engine.md): 2, within 1.8 to 2.2")
        if (law, policy) in independent and integrator == "second_order":
            diff = np.max(np.abs(converged[(law, policy, integrator)] - independent[(law, policy)]))
            checks.near(name + ": finest step, largest bead velocity difference", diff, 0.0, 1e-5,
                        "the same chain integrated by RK4 here at 0.1 µs")


def isolated_impacts(checks, measured, ranges, c_r):
    """Section 4. measured: {(law, c_r, policy): restitution}; ranges: {policy: (min, max)} of
    the gapped gonthier_exact chain at c_r."""
    for law in dict.fromkeys(law for law, _, _ in measured):
        rows = [(abs(e - identity_restitution(ALPHA[law](c))), c, p, e)
                for (name, c, p), e in measured.items() if name == law]
        diff, c, policy, e = max(rows, key=lambda r: r[0] if np.isfinite(r[0]) else np.inf)
        checks.near(f"4. {law}, one impact, farthest of {len(rows)} (c_r = {c}, {policy})", e,
                    identity_restitution(ALPHA[law](c)), 1e-6,
                    "the identity; 1e-6: rates sampled at the steps around touch and separation")
    for policy, (low, high) in ranges.items():
        if policy == "reference":  # every impact slower than v_ref: alpha v/v_ref < alpha
            checks.that("4. gapped chain, reference policy: every impact above c_r, below 1",
                        c_r + 1e-3 < low <= high < 1, f"{low:.6f} to {high:.6f}",
                        "the identity's restitution falls as alpha v/v_ref grows")
        else:
            checks.near(f"4. gapped chain, {policy} policy: restitution farthest from c_r",
                        max((low, high), key=lambda x: abs(x - c_r)), c_r, 1e-5,
                        "gonthier_exact's alpha solves the identity at c_r at every speed")


def precompressed(checks, result):
    """Section 5. result: {(policy, origin): (shares at 0.5, 0.005, 0.0005 m/s, dissipated
    shares, largest balance error)}."""
    def kept(p, o):
        t = result[(p, o)][0]
        return t[2] / t[0]

    for (policy, origin), (_, _, balance) in result.items():
        if policy in ("energy", "reference", "onset"):
            checks.that(f"5. {policy}, {origin}: largest energy balance error",
                        balance < STEP_TOLERANCE, f"{balance:.1e}", "the books close, below 1e-3")
    checks.that("5. peak, static: the energy balance at 0.5 m/s does not hold",
                result[("peak", "static")][2] > 1e-2, f"{result[('peak', 'static')][2]:.1e}",
                "above 1e-2, ten times the step error")
    checks.that("5. peak, zero: diverges at 0.5 m/s",
                not np.isfinite(result[("peak", "zero")][0][0]), "",
                "no lower bound on v0 under a static load")
    # A small motion about an equilibrium responds in proportion to it: the share kept over
    # three decades of speed is of order 1 measured from the static overlap; from zero overlap
    # the damping meets the static load and the smaller motion is overdamped (an order less).
    checks.that("5. energy, static: share kept from 0.5 to 0.0005 m/s", kept("energy", "static")
                > 0.5, f"{kept('energy', 'static'):.2f}", "of order 1: over 0.5")
    for policy in ("reference", "onset"):
        ratio = kept(policy, "zero") / kept(policy, "static")
        checks.that(f"5. {policy}: share kept from zero overlap over from the static one",
                    ratio < 0.1, f"{ratio:.3f}", "overdamped: under 0.1")


def dimer(checks, values, laws, viscous):
    """Section 6. values: {(law, policy): the last bead's final velocity}."""
    spread = max(abs(values[(viscous, p)] - values[(viscous, "energy")])
                 for p in ("peak", "reference", "onset"))
    checks.near(f"6. {viscous} over the policies", spread, 0.0, 1e-12, "no v0 in its force")
    for law in laws:
        onset = values[(law, "onset")] / values[(viscous, "onset")]
        checks.that(f"6. {law}, onset policy, over the viscous law", onset < 1 / 3,
                    f"{onset:.3f}", "loses most of the pulse to the floor: under 1/3")
        energy = values[(law, "energy")] / values[(viscous, "energy")]
        checks.that(f"6. {law}, energy policy, over the viscous law", abs(energy - 1) < 0.15,
                    f"{energy:.3f}", "the laws' own difference: within 15 %")
