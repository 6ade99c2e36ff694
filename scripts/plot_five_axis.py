#!/usr/bin/python3
"""Plots of the five-axis case study (explicit-canonical-dynamics-joint-friction §5.1).

Reads OUT/{no_friction,coulomb_viscous,stribeck}.csv written by scripts/case_five_axis.sh
and draws, for joints J1, J2 and J4 as in the paper:
  constraint_torques.png  the constraint resultant torque tau_r = |tau - n n^T tau| (Fig. 13)
  constraint_forces.png   the constraint force across the axis f_r and along it f_m (Fig. 14)
  driving_torques.png     the driving torque without friction, with Coulomb-viscous and
                          with Stribeck friction (Fig. 15)
Usage: /usr/bin/python3 scripts/plot_five_axis.py OUT
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

JOINTS = ["J1", "J2", "J4"]


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, data = rows[0], rows[1:]
    return {name: [float(r[i]) for r in data] for i, name in enumerate(header)}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "out/five_axis"
    runs = {name: read(os.path.join(out, name + ".csv")) for name in ("no_friction", "coulomb_viscous", "stribeck")}
    base = runs["no_friction"]
    t = base["t_s"]

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharex=True)
    for ax, j in zip(axes, JOINTS):
        ax.plot(t, base["constraint_torque_%s_N_m" % j], color="tab:blue")
        ax.set_title("joint %s: constraint torque $\\tau_r$" % j[1:])
        ax.set_xlabel("t (s)")
        ax.set_ylabel("N m")
        ax.grid(alpha=0.3)
    fig.suptitle("Five-axis tree, all joints at 0.2 rad/s$^2$: constraint resultant torques (cf. Fig. 13)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "constraint_torques.png"), dpi=110)

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharex=True)
    for ax, j in zip(axes, JOINTS):
        ax.plot(t, base["constraint_force_%s_N" % j], label="$f_r$ (across the axis)")
        ax.plot(t, base["axial_load_%s_N" % j], label="$f_m$ (along the axis)")
        ax.set_title("joint %s: constraint forces" % j[1:])
        ax.set_xlabel("t (s)")
        ax.set_ylabel("N")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Five-axis tree: constraint resultant forces (cf. Fig. 14)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "constraint_forces.png"), dpi=110)

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharex=True)
    labels = {"no_friction": "no friction", "coulomb_viscous": "Coulomb-viscous (42)", "stribeck": "Stribeck (52)"}
    styles = {"no_friction": "-", "coulomb_viscous": "--", "stribeck": ":"}
    for ax, j in zip(axes, JOINTS):
        for name, run in runs.items():
            ax.plot(run["t_s"], run["tau_%s_N_m" % j], styles[name], label=labels[name], linewidth=1.6)
        ax.set_title("joint %s: driving torque" % j[1:])
        ax.set_xlabel("t (s)")
        ax.set_ylabel("N m")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Five-axis tree: driving torques with and without joint friction (cf. Fig. 15)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "driving_torques.png"), dpi=110)
    print("wrote %s/{constraint_torques,constraint_forces,driving_torques}.png" % out)


if __name__ == "__main__":
    main()
