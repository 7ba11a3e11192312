#!/usr/bin/python3
"""Two chaindem builds side by side: ns per bead-step of the chain engine for a few laws.

The case is bench/engine_speed.py's (N = 1e5 touching steel beads struck at 1 m/s, dt = 3e-7 s,
tension allowed, 2000 steps, one thread). The two builds alternate, law by law, REPEATS times,
and each figure is the best of its runs (the machine is shared: the best run is the one least
disturbed), so that a drift of the machine hits both alike.

    /usr/bin/python3 bench/ab_engine.py BASELINE/chaindem CANDIDATE/chaindem \\
        [--laws hertz,edem_hertz_mindlin,hunt_crossley] [--repeats 7] [--loaded] [--dimer]
        [--engine general --beads 20000]

--loaded: the same chain pre-compressed by a 50 N end load against a wall (engine_speed.LOADED),
so that every pair is loaded and damped from the first step.
--dimer: beads of radii 5 and 4 mm in turn, whose pairs the chain engine takes one by one (its
per-pair loop) instead of in its vectorised loop.
--engine general: the general 3D engine (with --beads 20000: it is ten times slower).

A baseline build of an earlier revision:
    git worktree add /tmp/baseline REV && cmake -S /tmp/baseline -B /tmp/baseline/build \\
        -DCMAKE_BUILD_TYPE=Release -DCHAINDEM_BUILD_TESTS=OFF -DCHAINDEM_BUILD_BENCH=OFF \\
        && cmake --build /tmp/baseline/build -j2
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_speed  # noqa: E402

PARAMS = {"hertz": "", "thornton_1997": ""}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("baseline")
    ap.add_argument("candidate")
    ap.add_argument("--laws", default="hertz,edem_hertz_mindlin,hunt_crossley")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--loaded", action="store_true",
                    help="every pair pre-compressed by a 50 N end load against a wall")
    ap.add_argument("--dimer", action="store_true",
                    help="radii 5 and 4 mm in turn: the chain engine's per-pair loop")
    ap.add_argument("--engine", default="auto", choices=["auto", "chain", "general"])
    ap.add_argument("--beads", type=int, default=100000)
    a = ap.parse_args()
    engine_speed.REPEATS = 1
    engine_speed.CHAIN_EXTRA = engine_speed.LOADED if a.loaded else ""
    if a.dimer:
        engine_speed.CASE = engine_speed.CASE.replace("radii = 0.005\n", "radii = 0.005, 0.004\n")
    builds = {"baseline": os.path.abspath(a.baseline), "candidate": os.path.abspath(a.candidate)}
    laws = a.laws.split(",")
    best = {b: {law: float("inf") for law in laws} for b in builds}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.repeats):
            for build, exe in builds.items():
                engine_speed.CHAINDEM = exe
                for law in laws:
                    t = engine_speed.ns_per_bead_step(tmp, a.beads, 2000, law,
                                                      PARAMS.get(law, "restitution = 0.9"),
                                                      engine=a.engine)
                    best[build][law] = min(best[build][law], t)
    chain = ("pre-compressed, " if a.loaded else "") + ("dimer, " if a.dimer else "")
    engine = "" if a.engine == "auto" else f"{a.engine} engine, "
    print(f"best of {a.repeats} runs, ns per bead-step (N = {a.beads:g}, {chain}{engine}"
          f"2000 steps, one thread)")
    print(f"{'law':28s} {'baseline':>9s} {'candidate':>9s} {'ratio':>6s}")
    for law in laws:
        b, c = best["baseline"][law], best["candidate"][law]
        print(f"{law:28s} {b:9.2f} {c:9.2f} {c / b:6.3f}")


if __name__ == "__main__":
    main()
