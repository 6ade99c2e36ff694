#!/usr/bin/env python3
"""Compare and plot the runs of scripts/force_element_problems.sh (force elements, drives
and couplings: model format 3) against their references.

    /usr/bin/python3 scripts/plot_force_element_problems.py OUT_DIR

Reads from OUT_DIR (written by force_element_problems.sh) the CSVs of the runs and
cpu_times.txt ("<run> <cpu seconds>" lines); writes one PNG per problem and summary.txt
(also printed): per run the CPU time, the reference and the largest error against it.
Needs matplotlib and numpy (Debian's /usr/bin/python3, scripts/install-deps.sh plots).
Bad input (a missing file or column): one line, status 2.

References:
  Andrews: the Test Set for IVP Solvers' reference solution of `andrews` at t = 0.03 s
    (andrews.f, SOLN; PSIDE at rtol = atol = 1e-14), the seven angles.
  Four-bar with a diagonal spring: the closed-form linearisation about the equilibrium
    (examples/models/iftomm_four_bar_spring.yaml): eigenvalues sigma +- i omega_d; the run's
    decay rate and damped frequency from its successive maxima (parabolic interpolation),
    and the linear response q0 e^(sigma t) (cos omega_d t - sigma / omega_d sin omega_d t).
  Flyball governor: the angular momentum about the shaft (conserved), computed from the
    rods' angles and the shaft's rate; RK4 at 0.1 ms against DOPRI5 at rtol 1e-10.
  Servo arm: the targets (the model's expressions); tracking error target - q; the servo
    effort columns against kp (target - q) + kd (rate - v), clamped. Servo step: the
    second-order closed form (wn = sqrt(kp / I), zeta = kd / (2 sqrt(kp I))).
  Geared drive: a_m = tau / (I_m + armature + sum r^2 I_w), gear effort I_w r a_m.
"""
import csv
import math
import os
import sys

import numpy as np


def fail(message):
    print(f"plot_force_element_problems.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_csv(path):
    if not os.path.isfile(path):
        fail(f"missing file '{path}' (run scripts/force_element_problems.sh first)")
    with open(path, newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream))
    if len(rows) < 2:
        fail(f"'{path}' holds no data rows")
    data = np.array([[float(cell) for cell in row] for row in rows[1:]])
    return {name: data[:, i] for i, name in enumerate(rows[0])}


def col(table, name, path):
    if name not in table:
        fail(f"'{path}' has no column '{name}'")
    return table[name]


ANDREWS_REFERENCE = {  # Test set SOLN at t = 0.03 s
    "beta": 15.81077119629904, "theta": -15.75637105984298, "gamma": 0.04082224013073101,
    "phi": -0.5347301163226948, "delta": 0.5244099658805304, "omega": 0.5347301163226948,
    "epsilon": 1.048080741042263}


def andrews(out, cpu, summary, plt):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for run, label in (("andrews_dopri5", "DOPRI5 rtol 1e-10"), ("andrews_rk4", "RK4 10 µs"),
                       ("andrews_ali3p", "ALI3-P 1 µs")):
        path = os.path.join(out, run + ".csv")
        table = read_csv(path)
        t = col(table, "t_s", path)
        errors = {name: abs(col(table, f"q_{name}_rad", path)[-1] - ref) for name, ref in ANDREWS_REFERENCE.items()}
        worst = max(errors, key=errors.get)
        summary.append((f"Andrews ({label})", cpu.get(run, "?"), "test set SOLN, t = 0.03 s",
                        f"max angle error {errors[worst]:.2e} rad ({worst}); beta {errors['beta']:.2e}, "
                        f"gamma {errors['gamma']:.2e}, epsilon {errors['epsilon']:.2e}"))
        if run == "andrews_dopri5":
            for name in ANDREWS_REFERENCE:
                ax = axes[0] if name in ("beta", "theta") else axes[1]
                ax.plot(t * 1e3, col(table, f"q_{name}_rad", path), label=name)
            for name, ref in ANDREWS_REFERENCE.items():
                ax = axes[0] if name in ("beta", "theta") else axes[1]
                ax.plot([30.0], [ref], "kx")
    for ax in axes:
        ax.set_xlabel("t (ms)")
        ax.set_ylabel("angle (rad)")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    axes[0].set_title("Andrews' mechanism: beta, theta (x: test set at 0.03 s)")
    axes[1].set_title("the other five angles")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "andrews.png"), dpi=110)
    plt.close(fig)
    reference = os.path.join(out, "andrews_reference.txt")
    if os.path.isfile(reference):
        with open(reference, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
        beta = [line for line in lines if line.startswith("beta")]
        if beta:
            summary.append(("Andrews (scripts/andrews_reference.py)", "-", "test set SOLN, t = 0.03 s",
                            "DOP853 on the test set's own equations: beta off SOLN by " + beta[0].split()[-1]))


def peaks(t, q):
    """Times and values of the local maxima of q, refined by a parabola through 3 points."""
    times, values = [], []
    for i in range(1, len(q) - 1):
        if q[i] > q[i - 1] and q[i] >= q[i + 1]:
            a, b, c = q[i - 1], q[i], q[i + 1]
            h = t[i + 1] - t[i]
            denominator = a - 2 * b + c
            shift = 0.5 * (a - c) / denominator if denominator != 0 else 0.0
            times.append(t[i] + shift * h)
            values.append(b - 0.25 * (a - c) * shift)
    return np.array(times), np.array(values)


def four_bar_spring(out, cpu, summary, plt):
    path = os.path.join(out, "four_bar_spring.csv")
    table = read_csv(path)
    t, q = col(table, "t_s", path), col(table, "q_crank_rad", path)
    g, k, c, free_length = 9.81, 25.0, 1.0, math.sqrt(2.0)
    phi = 2.2343310190175854  # the equilibrium of the model (header)
    inertia = 5.0 / 3.0
    c_e = c * math.sin(phi / 2) ** 2
    k_e = -2 * g * math.sin(phi) + k * (math.sin(phi / 2) ** 2
                                         - (2 * math.cos(phi / 2) - free_length) * 0.5 * math.cos(phi / 2))
    sigma = -c_e / (2 * inertia)
    omega_d = math.sqrt(k_e / inertia - sigma ** 2)
    q0 = q[0]
    linear = q0 * np.exp(sigma * t) * (np.cos(omega_d * t) - sigma / omega_d * np.sin(omega_d * t))
    peak_t, peak_q = peaks(t, q)
    period = np.mean(np.diff(peak_t))
    fitted_omega = 2 * math.pi / period
    fitted_sigma = np.polyfit(peak_t, np.log(peak_q), 1)[0]
    summary.append(("four-bar + diagonal spring (RK4 1 ms)", cpu.get("four_bar_spring", "?"),
                    f"linearisation: sigma {sigma:.6f} 1/s, omega_d {omega_d:.6f} rad/s",
                    f"run: sigma {fitted_sigma:.6f} ({fitted_sigma / sigma - 1:+.1e}), omega_d {fitted_omega:.6f} "
                    f"({fitted_omega / omega_d - 1:+.1e}); max |q - linear| / q0 = {np.max(np.abs(q - linear)) / q0:.1e} "
                    f"(q0 = {q0:g} rad)"))
    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    axes[0].plot(t, q * 1e3, label="mechdyn (RK4 1 ms)")
    axes[0].plot(t, linear * 1e3, "--", label="closed-form linearisation")
    axes[0].set_ylabel("crank - equilibrium (mrad)")
    axes[0].legend()
    axes[0].set_title("IFToMM four-bar with diagonal spring: free vibration about the equilibrium")
    axes[1].plot(t, (q - linear) * 1e3)
    axes[1].set_ylabel("difference (mrad)")
    axes[1].set_xlabel("t (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "four_bar_spring.png"), dpi=110)
    plt.close(fig)


ROD_ACROSS, ROD_ALONG, ROD_MASS, BALL_MASS = 0.025002499999999997, 5e-6, 0.3, 5.0


def flyball_momentum(table, path):
    """H_z = omega * (sum of the bodies' moments of inertia about the shaft): the rods and
    balls move in the shaft's rotating x-z plane, so their pin rates add no moment about z."""
    total = np.full_like(col(table, "t_s", path), 0.005 + 5e-6)  # slider, shaft
    for name, sign in (("rod_1", 1.0), ("rod_2", -1.0)):
        q = col(table, f"q_{name}_rad", path)
        x0, z0 = sign * math.sqrt(3) / 2, -0.5
        dx = x0 * np.cos(q) + z0 * np.sin(q)
        dz = -x0 * np.sin(q) + z0 * np.cos(q)
        total += (ROD_ACROSS * (1 - dz ** 2) + ROD_ALONG * dz ** 2 + ROD_MASS * (sign * 0.05 + 0.5 * dx) ** 2
                  + BALL_MASS * (sign * 0.05 + dx) ** 2)
    return col(table, "v_shaft_rad_per_s", path) * total


def flyball(out, cpu, summary, plt):
    runs = {}
    for run in ("flyball_rk4", "flyball_dopri5"):
        path = os.path.join(out, run + ".csv")
        table = read_csv(path)
        runs[run] = (table, path)
    fig, axes = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    ref_table, ref_path = runs["flyball_dopri5"]
    ref_s = 0.5 + col(ref_table, "q_slider_m", ref_path)
    for run, label in (("flyball_rk4", "RK4 0.1 ms"), ("flyball_dopri5", "DOPRI5 rtol 1e-10")):
        table, path = runs[run]
        t = col(table, "t_s", path)
        s = 0.5 + col(table, "q_slider_m", path)
        momentum = flyball_momentum(table, path)
        drift = np.max(np.abs(momentum - momentum[0])) / abs(momentum[0])
        difference = np.max(np.abs(s - ref_s)) if len(s) == len(ref_s) else float("nan")
        summary.append((f"A05 flyball governor ({label})", cpu.get(run, "?"),
                        "angular momentum about z; DOPRI5 rtol 1e-10",
                        f"max |H - H0| / H0 = {drift:.1e}; max |s - s_DOPRI5| = {difference:.1e} m; "
                        f"s(10 s) = {s[-1]:.9f} m, omega(10 s) = {col(table, 'v_shaft_rad_per_s', path)[-1]:.6f} rad/s"))
        axes[0].plot(t, s, label=label)
        axes[1].plot(t, col(table, "v_shaft_rad_per_s", path), label=label)
        axes[2].plot(t, (momentum - momentum[0]) / momentum[0], label=label)
    axes[0].set_ylabel("s (m)")
    axes[0].set_title("IFToMM A05 stiff flyball governor")
    axes[1].set_ylabel("shaft rate (rad/s)")
    axes[2].set_ylabel("(H_z - H_z0) / H_z0")
    axes[2].set_xlabel("t (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "flyball_governor.png"), dpi=110)
    plt.close(fig)


SERVOS = (  # joint, target, rate, kp, kd, max_effort (examples/models/servo_arm.yaml)
    ("shoulder", lambda t: 0.5 * (1 - np.cos(2 * t)), lambda t: np.sin(2 * t), 2000.0, 86.3, 60.0),
    ("elbow", lambda t: 0.6 * (1 - np.cos(3 * t)), lambda t: 1.8 * np.sin(3 * t), 500.0, 13.4, 30.0))


def servo(out, cpu, summary, plt):
    path = os.path.join(out, "servo_arm.csv")
    table = read_csv(path)
    check = read_csv(os.path.join(out, "servo_arm_dopri5.csv"))
    t = col(table, "t_s", path)
    fig, axes = plt.subplots(3, 1, figsize=(9, 8), sharex=True)
    for joint, target, rate, kp, kd, limit in SERVOS:
        q = col(table, f"q_{joint}_rad", path)
        v = col(table, f"v_{joint}_rad_per_s", path)
        error = target(t) - q
        effort = np.clip(kp * error + kd * (rate(t) - v), -limit, limit)
        column = col(table, f"force_servo_{joint}_N_m", path)
        difference = np.max(np.abs(q - check[f"q_{joint}_rad"]))
        summary.append((f"servo arm, {joint} (RK4 1 ms)", cpu.get("servo_arm", "?"),
                        "target(t); DOPRI5 rtol 1e-12",
                        f"max |target - q| = {np.max(np.abs(error)):.2e} rad (after 1 s: "
                        f"{np.max(np.abs(error[t >= 1])):.2e}); effort column vs kp e + kd e' "
                        f"{np.max(np.abs(effort - column)):.1e} N m; q off DOPRI5 {difference:.1e} rad"))
        axes[0].plot(t, q, label=f"q {joint}")
        axes[0].plot(t, target(t), "--", label=f"target {joint}")
        axes[1].plot(t, error * 1e3, label=joint)
        axes[2].plot(t, column, label=joint)
    axes[0].set_ylabel("angle (rad)")
    axes[0].set_title("two-link arm on joint servos: tracking")
    axes[1].set_ylabel("target - q (mrad)")
    axes[2].set_ylabel("servo effort (N m)")
    axes[2].set_xlabel("t (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "servo_arm.png"), dpi=110)
    plt.close(fig)

    path = os.path.join(out, "servo_step.csv")
    table = read_csv(path)
    t, q = col(table, "t_s", path), col(table, "q_J1_rad", path)
    amplitude, kp, kd, inertia = 0.5, 40.0, 0.8, 0.1
    wn, zeta = math.sqrt(kp / inertia), kd / (2 * math.sqrt(kp * inertia))
    wd = wn * math.sqrt(1 - zeta ** 2)
    exact = amplitude * (1 - np.exp(-zeta * wn * t) * (np.cos(wd * t) + zeta / math.sqrt(1 - zeta ** 2) * np.sin(wd * t)))
    summary.append(("servo step (RK4 1 ms)", cpu.get("servo_step", "?"),
                    f"closed form, wn = {wn:g} rad/s, zeta = {zeta:g}",
                    f"max |q - closed form| = {np.max(np.abs(q - exact)):.1e} rad; overshoot "
                    f"{(q.max() / amplitude - 1) * 100:.2f} % (closed form "
                    f"{math.exp(-math.pi * zeta / math.sqrt(1 - zeta ** 2)) * 100:.2f} %)"))
    fig, axes = plt.subplots(2, 1, figsize=(9, 5), sharex=True)
    axes[0].plot(t, q, label="mechdyn (RK4 1 ms)")
    axes[0].plot(t, exact, "--", label="closed form")
    axes[0].set_ylabel("q (rad)")
    axes[0].legend()
    axes[0].set_title(f"joint-servo step response: wn = {wn:g} rad/s, zeta = {zeta:g}")
    axes[1].plot(t, q - exact)
    axes[1].set_ylabel("difference (rad)")
    axes[1].set_xlabel("t (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "servo_step.png"), dpi=110)
    plt.close(fig)


def geared(out, cpu, summary, plt):
    tau, i_m, armature, i_w, r = 0.13, 0.001, 0.002, 0.5, 0.1
    a_m = tau / (i_m + armature + 2 * r * r * i_w)
    effort = i_w * r * a_m
    fig, axes = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for run, label in (("geared_drive_rk4", "RK4"), ("geared_drive_ali3p", "ALI3-P")):
        path = os.path.join(out, run + ".csv")
        table = read_csv(path)
        t = col(table, "t_s", path)
        a = col(table, "a_motor_rad_per_s2", path)
        efforts = [col(table, f"coupling_gear_{side}_N_m", path) for side in ("left", "right")]
        summary.append((f"geared drive ({label} 10 ms)", cpu.get(run, "?"),
                        f"a_m = tau / I_reflected = {a_m:g} rad/s^2, gear effort {effort:g} N m",
                        f"max |a_m / closed form - 1| = {np.max(np.abs(a / a_m - 1)):.1e}; max |effort / closed "
                        f"form - 1| = {max(np.max(np.abs(e / effort - 1)) for e in efforts):.1e}; "
                        f"q_m(2 s) = {col(table, 'q_motor_rad', path)[-1]:.12g} rad (exact {0.5 * a_m * 4:g})"))
        axes[0].plot(t, a, label=f"motor acceleration, {label}")
        for side, e in zip(("left", "right"), efforts):
            axes[1].plot(t, e, label=f"gear {side}, {label}")
    axes[0].axhline(a_m, color="k", ls="--", lw=0.8, label="tau / (I_m + armature + sum r^2 I_w)")
    axes[1].axhline(effort, color="k", ls="--", lw=0.8, label="I_w r a_m")
    axes[0].set_ylabel("rad/s^2")
    axes[0].set_title("geared two-wheel drive under tau = 0.13 N m")
    axes[1].set_ylabel("coupling effort (N m)")
    axes[1].set_xlabel("t (s)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "geared_drive.png"), dpi=110)
    plt.close(fig)


def main(argv):
    if len(argv) != 2:
        print("usage: plot_force_element_problems.py OUT_DIR", file=sys.stderr)
        return 2
    out = argv[1]
    if not os.path.isdir(out):
        fail(f"no directory '{out}'")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    cpu = {}
    times = os.path.join(out, "cpu_times.txt")
    if os.path.isfile(times):
        with open(times, encoding="utf-8") as stream:
            for line in stream:
                name, seconds = line.split()
                cpu[name] = seconds
    summary = []
    andrews(out, cpu, summary, plt)
    four_bar_spring(out, cpu, summary, plt)
    flyball(out, cpu, summary, plt)
    servo(out, cpu, summary, plt)
    geared(out, cpu, summary, plt)
    lines = [f"{name}: CPU {seconds} s; reference: {reference}; {result}" for name, seconds, reference, result in summary]
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as stream:
        stream.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
