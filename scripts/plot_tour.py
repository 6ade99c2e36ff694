#!/usr/bin/python3
"""The README tour's plot: the slider-crank driven at constant crank speed.

Reads the CSV of
  mechdyn simulate examples/models/slider_crank.yaml --mode inverse --velocities '2*_pi' ...
(closed-chain inverse dynamics, docs/closed-chains.md) and draws three panels over time:
  motion   the crank angle (deg) and the slider position (mm);
  effort   the driving torque the crank joint needs (N m);
  loads    the bearing force of the crank joint |F| (ground on crank), the normal force of
           the guide on the slider, and the pin force between rod and slider |F| (the cut
           joint's force), all in N.
Column names: docs/cli.md (reaction_<joint>_*: parent on child, world frame; cut_<loop>_*:
body b on body a).
Usage: /usr/bin/python3 scripts/plot_tour.py RUN.csv OUT.png   (Debian's matplotlib)
"""
import csv
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError("empty file")
    header, data = rows[0], rows[1:]
    for number, row in enumerate(data, start=2):
        if len(row) != len(header):
            raise ValueError("line %d has %d fields, the header %d" % (number, len(row), len(header)))
    return {name: [float(r[i]) for r in data] for i, name in enumerate(header)}


def norm(run, prefix):
    return [math.hypot(x, y, z) for x, y, z in zip(run[prefix + "_fx_N"], run[prefix + "_fy_N"], run[prefix + "_fz_N"])]


def main():
    if len(sys.argv) != 3:
        print("usage: plot_tour.py RUN.csv OUT.png", file=sys.stderr)
        sys.exit(2)
    try:
        run = read(sys.argv[1])
        needed = ["t_s", "q_slider_joint_m", "q_crank_joint_rad", "tau_crank_joint_N_m", "reaction_slider_joint_fy_N"]
        needed += [p + "_f" + c + "_N" for p in ("reaction_crank_joint", "cut_rod_slider") for c in "xyz"]
        missing = [name for name in needed if name not in run]
        if missing:
            raise ValueError("no column %s (a run of examples/models/slider_crank.yaml --mode inverse?)" % missing[0])
        if not run["t_s"]:
            raise ValueError("no rows")
    except (OSError, ValueError) as error:
        print("plot_tour.py: %s: %s" % (sys.argv[1], error), file=sys.stderr)
        sys.exit(2)
    t = run["t_s"]

    fig, (ax_motion, ax_torque, ax_force) = plt.subplots(3, 1, figsize=(8, 6.4), sharex=True)

    ax_motion.plot(t, [1000 * x for x in run["q_slider_joint_m"]], color="tab:blue")
    ax_motion.set_ylabel("slider position (mm)", color="tab:blue")
    ax_angle = ax_motion.twinx()
    angle = [math.degrees(q) % 360 for q in run["q_crank_joint_rad"]]
    # no line from 360 back to 0 at each new turn
    angle = [float("nan") if i and a < angle[i - 1] else a for i, a in enumerate(angle)]
    ax_angle.plot(t, angle, color="tab:gray", lw=0.8)
    ax_angle.set_ylabel("crank angle (deg)", color="tab:gray")
    ax_angle.set_ylim(0, 360)
    ax_angle.set_yticks([0, 90, 180, 270, 360])
    ax_motion.set_title("Slider-crank, crank driven at one turn per second (closed-chain inverse dynamics)")

    ax_torque.plot(t, run["tau_crank_joint_N_m"], color="tab:red")
    ax_torque.axhline(0, color="black", lw=0.5)
    ax_torque.set_ylabel("crank torque (N m)")

    ax_force.plot(t, norm(run, "reaction_crank_joint"), label="crank bearing |F|")
    ax_force.plot(t, run["reaction_slider_joint_fy_N"], label="guide normal force on slider")
    ax_force.plot(t, norm(run, "cut_rod_slider"), label="rod–slider pin |F|")
    ax_force.set_ylabel("force (N)")
    ax_force.set_xlabel("time (s)")
    top = max(max(line.get_ydata()) for line in ax_force.get_lines())
    ax_force.set_ylim(0, 1.35 * top)
    ax_force.legend(fontsize=8, loc="upper center", ncol=3, frameon=False)

    for ax in (ax_motion, ax_torque, ax_force):
        ax.grid(alpha=0.3)
    ax_force.set_xlim(t[0], t[-1])
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
