#!/usr/bin/python3
"""Plots of the three-loop mechanism case study (EC §5.2, Figs. 17–19) from the CSV
written by `mechdyn simulate ... --mode inverse` (scripts/case_three_loop.sh).

Usage: /usr/bin/python3 scripts/plot_three_loop.py out/three_loop/three_loop.csv out/three_loop
Writes passive_angles.png (Fig. 17), cut_joint_forces.png (Fig. 18),
active_joint.png (Fig. 19: constraint force of joint 1'' and its driving torque with and
without friction), and the per-figure CSVs passive_angles.csv, cut_joint_forces.csv,
active_joint.csv. Needs Debian's matplotlib (apt python3-matplotlib).
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PASSIVE = ["J1p", "J2p", "J1", "J2", "J3", "J4"]
PASSIVE_LABEL = {"J1p": "1'", "J2p": "2'", "J1": "1", "J2": "2", "J3": "3", "J4": "4"}
CUTS = {"C1": "1st cut (2'IS–1''S)", "C2": "2nd cut (2'IIS–4S)", "C3": "3rd cut (4S–3S)"}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {key: [float(r[key]) for r in rows] for key in rows[0]}


def write(path, columns):
    keys = list(columns)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(keys)
        for i in range(len(columns[keys[0]])):
            w.writerow([repr(columns[k][i]) for k in keys])


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    d = read(source)
    t = d["t_s"]

    # Fig. 17: rotation angles of the six passive joints.
    angles = {"t_s": t}
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for j in PASSIVE:
        angles[f"q_{j}_rad"] = d[f"q_{j}_rad"]
        ax.plot(t, d[f"q_{j}_rad"], label=f"joint {PASSIVE_LABEL[j]}")
    ax.set(xlabel="t (s)", ylabel="rotation angle (rad)", title="Passive joint angles (cf. EC Fig. 17)")
    ax.grid(True, alpha=0.3)
    ax.legend(ncol=3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "passive_angles.png"), dpi=120)
    write(os.path.join(out, "passive_angles.csv"), angles)

    # Fig. 18: constraint forces of the three cut joints (force on body a at the cut point).
    forces = {"t_s": t}
    fig, axes = plt.subplots(3, 1, figsize=(7, 7.5), sharex=True)
    for ax, (cut, label) in zip(axes, CUTS.items()):
        fx, fy = d[f"cut_{cut}_fx_N"], d[f"cut_{cut}_fy_N"]
        mag = [math.hypot(a, b) for a, b in zip(fx, fy)]
        forces[f"cut_{cut}_fx_N"], forces[f"cut_{cut}_fy_N"], forces[f"cut_{cut}_magnitude_N"] = fx, fy, mag
        ax.plot(t, fx, label="x")
        ax.plot(t, fy, label="y")
        ax.plot(t, mag, "k--", label="|f|")
        ax.set(ylabel="force (N)", title=label)
        ax.grid(True, alpha=0.3)
        ax.legend(ncol=3, fontsize=8)
    axes[-1].set_xlabel("t (s)")
    fig.suptitle("Cut-joint constraint forces (cf. EC Fig. 18)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cut_joint_forces.png"), dpi=120)
    write(os.path.join(out, "cut_joint_forces.csv"), forces)

    # Fig. 19: active joint 1'': constraint (reaction) force and driving torque.
    fx, fy = d["reaction_J1pp_fx_N"], d["reaction_J1pp_fy_N"]
    active = {
        "t_s": t,
        "reaction_J1pp_fx_N": fx,
        "reaction_J1pp_fy_N": fy,
        "reaction_J1pp_magnitude_N": [math.hypot(a, b) for a, b in zip(fx, fy)],
        "tau_J1pp_N_m": d["tau_J1pp_N_m"],
        "friction_J1pp_N_m": d["friction_J1pp_N_m"],
        "tau_with_friction_J1pp_N_m": d["tau_with_friction_J1pp_N_m"],
    }
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    ax1.plot(t, fx, label="x")
    ax1.plot(t, fy, label="y")
    ax1.plot(t, active["reaction_J1pp_magnitude_N"], "k--", label="|f|")
    ax1.set(ylabel="force (N)", title="Constraint force of active joint 1''")
    ax1.grid(True, alpha=0.3)
    ax1.legend(ncol=3, fontsize=8)
    ax2.plot(t, d["tau_J1pp_N_m"], label="without friction")
    ax2.plot(t, d["tau_with_friction_J1pp_N_m"], label="with Stribeck friction")
    ax2.set(xlabel="t (s)", ylabel="torque (N·m)", title="Driving torque of joint 1''")
    ax2.grid(True, alpha=0.3)
    ax2.legend(fontsize=8)
    fig.suptitle("Active joint (cf. EC Fig. 19)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "active_joint.png"), dpi=120)
    write(os.path.join(out, "active_joint.csv"), active)


if __name__ == "__main__":
    main()
