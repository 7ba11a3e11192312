#!/usr/bin/python3
"""The speed of the solitary wave in a Hertz chain against the striker's velocity, and the fit
V_s = a v^b, whose exponent the theory of Nesterenko (2001) gives as b = 1/5.

A steel striker hits a free chain of 60 touching steel beads (radius 5 mm, elastic Hertz
contact); the wave's speed is the distance between beads 20 and 50 over the difference of the
pulse's arrival times there (the summary's arrival_time: when a bead first reaches a tenth of
the striker's speed).

    /usr/bin/python3 examples/solitary_wave_speed.py [--plot solitary_wave_speed.png]
"""
import argparse
import os

import numpy as np

import chaindem

BASE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cases",
                    "default.ini")
RADIUS = 0.005  # m, the base case's chain.radii


def compute(speeds=(0.1, 0.2, 0.5, 1.0, 2.0, 5.0)):
    """(striker speeds [m/s], wave speeds [m/s], fitted (a, b))."""
    table = chaindem.sweep(
        base=BASE, axes={"striker.velocity": list(speeds)}, unset=["contact.restitution"],
        fixed={"contact.law": "hertz", "chain.count": 60, "wall_end.enabled": False,
               "simulation.duration": 2.5e-3, "output.interval": 1e-4,
               "output.arrival_beads": "20 50"})
    arrival = table["arrival_time"]  # cases x watched beads
    wave = (50 - 20) * 2 * RADIUS / (arrival[:, 1] - arrival[:, 0])
    b, log_a = np.polyfit(np.log(speeds), np.log(wave), 1)
    return np.asarray(speeds), wave, (float(np.exp(log_a)), float(b))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", help="draw the speeds and the fit into this image file")
    args = parser.parse_args()
    speeds, wave, (a, b) = compute()
    print("striker [m/s]   wave [m/s]")
    for v, s in zip(speeds, wave):
        print(f"{v:13.2f}   {s:10.1f}")
    print(f"fit: V_s = {a:.1f} v^{b:.4f}  (theory: exponent 1/5)")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")
        ax.loglog(speeds, wave, "o", label="chaindem")
        v = np.geomspace(speeds[0], speeds[-1], 50)
        ax.loglog(v, a * v ** b, "-", label=f"$V_s = {a:.0f}\\,v^{{{b:.3f}}}$")
        ax.set_xlabel("striker velocity $v$ [m/s]")
        ax.set_ylabel("solitary wave speed $V_s$ [m/s]")
        ax.legend()
        fig.savefig(args.plot, dpi=150)
        print("drawn", args.plot)


if __name__ == "__main__":
    main()
