#!/usr/bin/python3
"""Plots and summary numbers of the 3-RRRU case study (scripts/case_rrru.sh writes the inputs).

Usage: /usr/bin/python3 scripts/plot_rrru.py out/rrru
Reads rigid_ik.csv, driven_4.csv, driven_1.csv, torques.csv, modes_locked.json, modes_free.json,
static.json from that directory; writes rrru_rigid_ik.png, rrru_driven_deviation.png,
rrru_driven_torques.png, rrru_open_loop.png, rrru_modes.png there and prints the numbers that
docs/flexible-bodies.md "The 3-RRRU case study" quotes.
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def table(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    header, data = rows[0], np.array(rows[1:], dtype=float)
    return {name: data[:, k] for k, name in enumerate(header)}


def main(directory):
    ik = table(os.path.join(directory, "rigid_ik.csv"))
    driven = {n: table(os.path.join(directory, "driven_%d.csv" % n)) for n in (4, 1)}
    damped = table(os.path.join(directory, "driven_4_damped.csv"))
    open_loop = table(os.path.join(directory, "torques.csv"))
    joints = ["A1", "A2", "A3"]

    # (a) rigid inverse kinematics and torques
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for j in joints:
        axes[0].plot(ik["t_s"], ik["q_%s_rad" % j], label=j)
        axes[1].plot(ik["t_s"], ik["effort_%s_N_m" % j], label=j)
    axes[0].set_ylabel("actuated angle (rad)")
    axes[1].set_ylabel("actuator torque (N m)")
    axes[1].set_xlabel("t (s)")
    axes[0].legend()
    axes[0].set_title("3-RRRU rigid: inverse kinematics and torques along the circle (eq. 71)")
    fig.tight_layout()
    fig.savefig(os.path.join(directory, "rrru_rigid_ik.png"), dpi=120)
    print("(a) rigid torques: " + ", ".join("%s %.3f .. %.3f N m" % (j, ik["effort_%s_N_m" % j].min(),
                                                                        ik["effort_%s_N_m" % j].max()) for j in joints))

    # (b) position-driven: deviation of the end effector from the rigid robot
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    for n, style in ((4, "-"), (1, "--")):
        d = driven[n]
        for k, c in enumerate("xyz"):
            axes[k].plot(d["t_s"], 1e6 * d["deviation_end_effector_%s_m" % c], style, lw=0.8,
                         label="%d element%s per link" % (n, "s" if n > 1 else ""))
        for c in "xyz":
            v = d["deviation_end_effector_%s_m" % c]
            print("(b) %d el.: deviation %s: mean %.2f um, range %.2f .. %.2f um" % (n, c, 1e6 * v.mean(), 1e6 * v.min(),
                                                                                    1e6 * v.max()))
        print("(b) %d el.: largest constraint violation %.2e, largest strain energy %.3e J" %
              (n, d["constraint_violation"].max(), d["strain_energy_J"].max()))
    for k, c in enumerate("xyz"):
        axes[k].plot(damped["t_s"], 1e6 * damped["deviation_end_effector_%s_m" % c], "k", lw=1.2,
                     label="4 elements, 2 % damping")
        axes[k].set_ylabel("deviation %s (um)" % c)
        v = damped["deviation_end_effector_%s_m" % c][damped["t_s"] > 2.0]
        print("(b) damped, after 2 s: deviation %s range %.2f .. %.2f um" % (c, 1e6 * v.min(), 1e6 * v.max()))
    late = damped["t_s"] > 2.0
    for j in joints:
        diff = damped["effort_%s_N_m" % j] - damped["rigid_effort_%s_N_m" % j]
        print("(b) damped, after 2 s: torque %s flexible - rigid %.4f .. %.4f N m" % (j, diff[late].min(),
                                                                                  diff[late].max()))
    axes[0].legend()
    axes[2].set_xlabel("t (s)")
    axes[0].set_title("3-RRRU flexible, actuators on the rigid inverse kinematics: end effector minus rigid")
    fig.tight_layout()
    fig.savefig(os.path.join(directory, "rrru_driven_deviation.png"), dpi=120)

    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    d = driven[4]
    for j in joints:
        line, = axes[0].plot(damped["t_s"], damped["effort_%s_N_m" % j], lw=1.0, label="%s flexible (2 %% damping)" % j)
        axes[0].plot(d["t_s"], d["rigid_effort_%s_N_m" % j], "--", color=line.get_color(), lw=1.0)
        axes[1].plot(d["t_s"], d["effort_%s_N_m" % j] - d["rigid_effort_%s_N_m" % j], lw=0.4, label=j)
        axes[2].plot(damped["t_s"], damped["effort_%s_N_m" % j] - damped["rigid_effort_%s_N_m" % j], lw=0.6, label=j)
        diff = d["effort_%s_N_m" % j] - d["rigid_effort_%s_N_m" % j]
        late = d["t_s"] > 1.0
        print("(b) 4 el.: torque %s flexible - rigid: range %.3f .. %.3f N m (after 1 s: %.3f .. %.3f); rigid "
              "reference vs invdyn: %.2e N m" % (j, diff.min(), diff.max(), diff[late].min(), diff[late].max(),
                                                  np.abs(d["rigid_effort_%s_N_m" % j] -
                                                         np.interp(d["t_s"], ik["t_s"], ik["effort_%s_N_m" % j])).max()))
    axes[0].set_ylabel("torque (N m); dashed: rigid")
    axes[0].legend(fontsize=8)
    axes[1].set_ylabel("flexible - rigid (N m)\nundamped")
    axes[2].set_ylabel("flexible - rigid (N m)\n2 % damping")
    axes[2].set_ylim(-0.05, 0.05)
    axes[2].set_xlabel("t (s)")
    axes[1].legend()
    axes[0].set_title("3-RRRU position-driven: actuator torques (4 elements per link)")
    fig.tight_layout()
    fig.savefig(os.path.join(directory, "rrru_driven_torques.png"), dpi=120)

    # (c) open-loop rigid torques
    t = open_loop["t_s"]
    circle = np.stack([0.1 * np.cos(2 * t), 0.1 * np.sin(2 * t), -0.7 * np.ones_like(t)])
    flex = np.stack([open_loop["marker_end_effector_%s_m" % c] for c in "xyz"])
    rigid = flex - np.stack([open_loop["deviation_end_effector_%s_m" % c] for c in "xyz"])
    flex_off = np.linalg.norm(flex - circle, axis=0)
    rigid_off = np.linalg.norm(rigid - circle, axis=0)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    axes[0].semilogy(t, np.maximum(flex_off, 1e-12), label="flexible")
    axes[0].semilogy(t, np.maximum(rigid_off, 1e-12), label="rigid")
    axes[0].set_xlabel("t (s)")
    axes[0].set_ylabel("distance of the end effector from the circle (m)")
    axes[0].legend()
    axes[1].plot(circle[0], circle[1], "k--", lw=0.8, label="circle (eq. 71)")
    axes[1].plot(flex[0], flex[1], lw=0.8, label="flexible")
    axes[1].set_aspect("equal")
    axes[1].set_xlabel("x (m)")
    axes[1].set_ylabel("y (m)")
    axes[1].legend()
    fig.suptitle("3-RRRU driven by the rigid open-loop torques")
    fig.tight_layout()
    fig.savefig(os.path.join(directory, "rrru_open_loop.png"), dpi=120)
    for when in (0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 4.5, t[-1]):
        i = min(np.searchsorted(t, when - 1e-9), len(t) - 1)
        print("(c) t = %.2f s: flexible %.3e m, rigid %.3e m off the circle; z %.5f m; kinetic %.3f J" %
              (t[i], flex_off[i], rigid_off[i], flex[2][i], open_loop["kinetic_energy_J"][i]))

    # (d) modes and statics
    locked = json.load(open(os.path.join(directory, "modes_locked.json")))
    free = json.load(open(os.path.join(directory, "modes_free.json")))
    static = json.load(open(os.path.join(directory, "static.json")))
    fig, ax = plt.subplots(figsize=(8, 4))
    count = 20
    ax.semilogy(range(1, count + 1), locked["frequencies"][:count], "o", label="actuators locked")
    ax.semilogy(range(1, count + 1), free["frequencies"][:count], "s", mfc="none", label="actuators free")
    ax.axhline(3.72e-5, color="r", ls=":", label="paper's lowest, 3.72e-5 Hz")
    ax.set_xlabel("mode")
    ax.set_ylabel("frequency (Hz)")
    ax.legend()
    ax.set_title("3-RRRU constrained natural frequencies (4 elements per link)")
    fig.tight_layout()
    fig.savefig(os.path.join(directory, "rrru_modes.png"), dpi=120)
    print("(d) locked: %d frequencies, %d zero, lowest %s Hz" % (len(locked["frequencies"]), locked["zero_modes"],
                                                              ", ".join("%.3f" % f for f in locked["frequencies"][:5])))
    print("(d) free: %d frequencies, %d zero, %d unstable, lowest %s Hz" %
          (len(free["frequencies"]), free["zero_modes"], free.get("unstable_modes", 0),
           ", ".join("%.4f" % f for f in free["frequencies"][:5])))
    end = static["markers"][0]["position"]
    print("(d) static: end effector at (%.7f, %.2e, %.7f) m: %.1f um in x, %.1f um in z" %
          (end[0], end[1], end[2], 1e6 * (end[0] - 0.1), 1e6 * (end[2] + 0.7)))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "out/rrru")
