#!/usr/bin/python3
"""How much of the striker's velocity leaves the far end of a chain, against the coefficient of
restitution c_r, for three damped contact laws.

A steel striker at 1 m/s hits a free chain of 10 touching steel beads (radius 5 mm); the
transmitted velocity is the last bead's final velocity over the striker's. The laws: the
damping of commercial DEM codes (edem_hertz_mindlin, EDEM Hertz-Mindlin and LIGGGHTS `model
hertz`) and two hysteresis laws (hunt_crossley, flores). At c_r = 1 all three are the elastic
Hertz law.

    /usr/bin/python3 examples/transmitted_velocity.py [--plot transmitted_velocity.png]
"""
import argparse
import os

import numpy as np

import chaindem

LAWS = ["edem_hertz_mindlin", "hunt_crossley", "flores"]
BASE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases",
                    "default.ini")


def compute(restitution=np.round(np.arange(0.1, 1.0001, 0.1), 2)):
    """(restitution values, {law: transmitted velocity per value})."""
    table = chaindem.sweep(
        base=BASE,
        axes={"contact.law": LAWS, "contact.restitution": restitution},
        fixed={"chain.count": 10, "wall_end.enabled": False, "simulation.duration": 1e-3,
               "output.interval": 1e-4})
    v0 = 1.0  # the base case's striker.velocity
    return restitution, {law: table["last_bead_final_velocity"][table["contact.law"] == law] / v0
                         for law in LAWS}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", help="draw the curves into this image file")
    args = parser.parse_args()
    restitution, transmitted = compute()
    print("c_r   " + "  ".join(f"{law:>18}" for law in LAWS))
    for k, c in enumerate(restitution):
        print(f"{c:4.2f}  " + "  ".join(f"{transmitted[law][k]:18.4f}" for law in LAWS))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")
        for law in LAWS:
            ax.plot(restitution, transmitted[law], "o-", label=law)
        ax.set_xlabel("coefficient of restitution $c_r$")
        ax.set_ylabel("transmitted velocity $v_{10}/v_0$")
        ax.legend()
        fig.savefig(args.plot, dpi=150)
        print("drawn", args.plot)


if __name__ == "__main__":
    main()
