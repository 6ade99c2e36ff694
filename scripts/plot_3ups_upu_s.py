#!/usr/bin/python3
"""Plots of the 3UPS-UPU-S case study (screw-kinematics-3UPS-UPU-S §6, Table 2, Figs. 6–11)
from the CSVs of `mechdyn invdyn` (scripts/case_3ups_upu_s.sh).

Usage: /usr/bin/python3 scripts/plot_3ups_upu_s.py out/3ups_upu_s
Reads no_load.csv, load.csv, newton_euler_load.csv; writes table2.txt,
joint_displacements.png (Fig. 6), joint_velocities.png (Fig. 7),
lower_leg_accelerations.png (Fig. 8), upper_leg_accelerations.png (Fig. 9),
leg_angular_velocities.png (Fig. 10), driving_forces.png (Fig. 11), summary.txt.
Needs Debian's numpy and matplotlib.
"""
import csv
import math
import os
import sys

import numpy as np

CHAINS = [1, 2, 3, 4]
RADIAL = {k: np.array([math.cos((k - 1) * math.pi / 2), math.sin((k - 1) * math.pi / 2), 0.0]) for k in CHAINS}
TANGENTIAL = {k: np.array([-math.sin((k - 1) * math.pi / 2), math.cos((k - 1) * math.pi / 2), 0.0]) for k in CHAINS}


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {key: np.array([float(r[key]) for r in rows]) for key in rows[0]}


def rotation(axis, angle):
    n = axis / np.linalg.norm(axis)
    k = np.array([[0, -n[2], n[1]], [n[2], 0, -n[0]], [-n[1], n[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


def quaternion_matrix(w, x, y, z):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def table2(data, out):
    lines = ["Joint values at t = 0 against screw-kinematics-3UPS-UPU-S Table 2",
             "(theta_1 about the radial base axis, theta_2 about the tangential one, p_3 = 0.3 m + q_P;",
             " the platform joint: the platform's rotation relative to the leg about the tangential axis)", ""]
    lines.append("%-6s %-22s %-22s %-22s %-26s" % ("chain", "theta_1 (Table: 0)", "theta_2 (Table: -pi/6)",
                                                   "p_3 (Table: 0.3 m)", "platform joint (Table: -pi/3)"))
    platform = quaternion_matrix(*(data["q_S5_q%s" % c][0] for c in "wxyz"))
    for k in CHAINS:
        t1, t2 = data["q_U%d_1_rad" % k][0], data["q_U%d_2_rad" % k][0]
        p3 = 0.3 + data["q_P%d_m" % k][0]
        leg = rotation(RADIAL[k], t1) @ rotation(TANGENTIAL[k], t2)
        relative = leg.T @ platform
        # angle about the tangential axis n (a pure rotation about it at t = 0):
        # sin φ = ½ n·vee(R − Rᵀ), cos φ = (trace R − 1) / 2
        vee = np.array([relative[2, 1] - relative[1, 2], relative[0, 2] - relative[2, 0], relative[1, 0] - relative[0, 1]])
        angle = math.atan2(0.5 * TANGENTIAL[k].dot(vee), 0.5 * (np.trace(relative) - 1.0))
        lines.append("%-6d %-22.17g %-22.17g %-22.17g %-26.17g" % (k, t1, t2, p3, angle))
    lines += ["", "-pi/6 = %.17g, pi/6 = %.17g, -pi/3 = %.17g" % (-math.pi / 6, math.pi / 6, -math.pi / 3),
              "theta_1, theta_2, p_3 agree with Table 2 to round-off; the platform joint turns by +pi/6 where",
              "Table 2 prints theta_5 = -pi/3 = pi/6 - pi/2: a zero reference the paper does not define (the leg",
              "in the platform plane); see the header of examples/models/ups_3ups_upu_s.yaml."]
    text = "\n".join(lines) + "\n"
    open(os.path.join(out, "table2.txt"), "w").write(text)
    print(text, end="")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = sys.argv[1]
    free = read(os.path.join(out, "no_load.csv"))
    loaded = read(os.path.join(out, "load.csv"))
    ne = read(os.path.join(out, "newton_euler_load.csv"))
    t = free["t_s"]
    table2(free, out)

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(out, name), dpi=120)
        plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for k in CHAINS:
        axes[0].plot(t, free["q_U%d_1_rad" % k], label="θ1, chain %d" % k)
        axes[0].plot(t, free["q_U%d_2_rad" % k], "--", label="θ2, chain %d" % k)
        axes[1].plot(t, 0.3 + free["q_P%d_m" % k], label="p3, chain %d" % k)
    axes[0].set_ylabel("base universal joint angles (rad)")
    axes[1].set_ylabel("prismatic joint position p3 (m)")
    for a in axes:
        a.set_xlabel("t (s)")
        a.grid(True)
        a.legend(fontsize=7)
    fig.suptitle("Relative joint displacements (SK Fig. 6)")
    save(fig, "joint_displacements.png")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for k in CHAINS:
        axes[0].plot(t, free["v_U%d_1_rad_per_s" % k], label="ω1, chain %d" % k)
        axes[0].plot(t, free["v_U%d_2_rad_per_s" % k], "--", label="ω2, chain %d" % k)
        axes[1].plot(t, free["v_P%d_m_per_s" % k], label="v3, chain %d" % k)
    axes[0].set_ylabel("joint rates (rad/s)")
    axes[1].set_ylabel("prismatic joint velocity (m/s)")
    for a in axes:
        a.set_xlabel("t (s)")
        a.grid(True)
        a.legend(fontsize=7)
    fig.suptitle("Relative joint velocities (SK Fig. 7)")
    save(fig, "joint_velocities.png")

    for part, name, figure in (("lower", "lower_leg_accelerations.png", "8: fixed legs at D"),
                               ("upper", "upper_leg_accelerations.png", "9: moving legs at E")):
        fig, axes = plt.subplots(1, 2, figsize=(11, 4))
        for k in CHAINS:
            for c, style in zip("xyz", ("-", "--", ":")):
                axes[0].plot(t, free["body_%s%d_al%s_rad_per_s2" % (part, k, c)], style, label="β%s, chain %d" % (c, k))
                axes[1].plot(t, free["body_%s%d_com_a%s_m_per_s2" % (part, k, c)], style, label="a%s, chain %d" % (c, k))
        axes[0].set_ylabel("angular acceleration (rad/s²)")
        axes[1].set_ylabel("centre-of-mass acceleration (m/s²)")
        for a in axes:
            a.set_xlabel("t (s)")
            a.grid(True)
            a.legend(fontsize=6, ncol=2)
        fig.suptitle("Absolute accelerations (SK Fig. %s)" % figure)
        save(fig, name)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for i, part in enumerate(("lower", "upper")):
        for k in CHAINS:
            for c, style in zip("xyz", ("-", "--", ":")):
                axes[i].plot(t, free["body_%s%d_w%s_rad_per_s" % (part, k, c)], style, label="ω%s, chain %d" % (c, k))
        axes[i].set_title("%s legs" % ("fixed (lower)" if part == "lower" else "moving (upper)"))
        axes[i].set_ylabel("angular velocity (rad/s)")
        axes[i].set_xlabel("t (s)")
        axes[i].grid(True)
        axes[i].legend(fontsize=6, ncol=2)
    fig.suptitle("Absolute angular velocities of the legs (SK Fig. 10)")
    save(fig, "leg_angular_velocities.png")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for k in CHAINS:
        axes[0].plot(t, free["effort_P%d_N" % k], label="chain %d" % k)
        axes[1].plot(t, loaded["effort_P%d_N" % k], label="chain %d" % k)
    axes[0].set_title("without load")
    axes[1].set_title("with 1 kN along z and 1 kN·m about x at P")
    for a in axes:
        a.set_xlabel("t (s)")
        a.set_ylabel("driving force (N), minimum 2-norm")
        a.grid(True)
        a.legend()
    fig.suptitle("Driving forces of the prismatic joints (SK Fig. 11)")
    save(fig, "driving_forces.png")

    step = int(round((ne["t_s"][1] - ne["t_s"][0]) / (t[1] - t[0])))
    worst = max(float(np.max(np.abs(loaded["effort_P%d_N" % k][::step] - ne["effort_P%d_N" % k]))) for k in CHAINS)
    wz = free["body_platform_wz_rad_per_s"]
    with open(os.path.join(out, "summary.txt"), "w") as f:
        for k in CHAINS:
            f.write("chain %d: driving force %.3f .. %.3f N without load, %.2f .. %.2f N with it\n"
                    % (k, free["effort_P%d_N" % k].min(), free["effort_P%d_N" % k].max(),
                       loaded["effort_P%d_N" % k].min(), loaded["effort_P%d_N" % k].max()))
        f.write("internal-force dimension (redundant actuation): %d .. %d\n"
                % (free["internal_force_dimension"].min(), free["internal_force_dimension"].max()))
        f.write("omega_z from the closure: %.4g .. %.4g rad/s (the paper's eq. 60 has 0)\n" % (wz.min(), wz.max()))
        f.write("largest |momentum screw - Newton-Euler| driving force with the load: %.3g N\n" % worst)
        f.write("largest closure residual %.3g; largest |power residual| %.3g W\n"
                % (max(free["closure_residual"].max(), loaded["closure_residual"].max()),
                   max(np.abs(free["power_residual_W"]).max(), np.abs(loaded["power_residual_W"]).max())))
    print(open(os.path.join(out, "summary.txt")).read(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
