#!/usr/bin/env python3
"""Compare and plot the runs of scripts/benchmark_problems.sh (IFToMM benchmark problems)
against their independent references.

    /usr/bin/python3 scripts/plot_benchmark_problems.py OUT_DIR

Reads from OUT_DIR (written by benchmark_problems.sh):
  a01_pendulum.csv                       mechdyn run of examples/models/iftomm_a01_pendulum.yaml
  a02_n<N>.csv, a02_n<N>_reference.csv   mechdyn run and scripts/n_four_bar_reference.py
  a04_bricard.csv, a04_bricard_poses.csv mechdyn run (+ --poses) of iftomm_a04_bricard.yaml
  a04_bricard_mobility.json              `mechdyn mobility --json` at t = 0
  slider_crank.csv, slider_crank_half.csv  the spatial slider-crank at step h and h/2
  cpu_times.txt                          "<problem> <cpu seconds>" lines
Writes <problem>.png (the tracked quantity, and its difference to the reference) and
summary.txt (also printed): per problem the CPU time of the run, the reference, and the
largest error against it. Needs matplotlib (scripts/install-deps.sh plots). Bad input
(a missing directory or file, a CSV without the columns named here): one line, status 2.

References (none of them uses mechdyn):
  A01: the closed form of the pendulum released from rest at 90 degrees from the hanging
       position, sin(phi/2) = k cd(w t, k) with k = sin 45 deg, w = sqrt(g/L) (Jacobi's
       elliptic functions by the arithmetic-geometric mean, Abramowitz & Stegun 16.4, here;
       period 4 K(k)/w).
  A02: the exact one-degree-of-freedom reduction (scripts/n_four_bar_reference.py).
  A04: energy conservation (E(t) = E(0)) and the closure residual; the degree-of-freedom
       count comes from `mechdyn mobility` (reported, not a reference).
  Spatial slider-crank: energy conservation and the closure residual, and the step-halving
       difference of the slider position (a convergence estimate, not an independent
       solution).
"""
import csv
import json
import math
import os
import sys

GRAVITY = 9.81


def fail(message):
    print(f"plot_benchmark_problems.py: {message}", file=sys.stderr)
    sys.exit(2)


def read_csv(path):
    if not os.path.isfile(path):
        fail(f"missing file '{path}' (run scripts/benchmark_problems.sh first)")
    with open(path, newline="", encoding="utf-8") as stream:
        rows = list(csv.reader(stream))
    if len(rows) < 2:
        fail(f"'{path}' holds no data rows")
    header = rows[0]
    columns = {name: [] for name in header}
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            fail(f"'{path}' line {number}: {len(row)} cells, the header has {len(header)}")
        for name, cell in zip(header, row):
            try:
                columns[name].append(float(cell))
            except ValueError:
                fail(f"'{path}' line {number}: '{cell}' in column '{name}' is not a number")
    return columns


def column(table, name, path):
    if name not in table:
        fail(f"'{path}' has no column '{name}'")
    return table[name]


# --- Jacobi elliptic functions by the AGM (Abramowitz & Stegun 16.4) --------------------
def elliptic_k(m):
    a, b = 1.0, math.sqrt(1.0 - m)
    for _ in range(40):  # quadratic convergence: a handful of rounds reach round-off
        if abs(a - b) <= 4e-16 * a:
            break
        a, b = 0.5 * (a + b), math.sqrt(a * b)
    return math.pi / (2.0 * a)


def jacobi_sn_cn_dn(u, m):
    a, b, c = [1.0], math.sqrt(1.0 - m), [math.sqrt(m)]
    while abs(c[-1]) > 1e-16 and len(a) < 40:
        an, bn = a[-1], b
        a.append(0.5 * (an + bn))
        c.append(0.5 * (an - bn))
        b = math.sqrt(an * bn)
    n = len(a) - 1
    phi = (2.0 ** n) * a[-1] * u
    for i in range(n, 0, -1):
        phi = 0.5 * (phi + math.asin(c[i] / a[i] * math.sin(phi)))
    sn, cn = math.sin(phi), math.cos(phi)
    return sn, cn, math.sqrt(1.0 - m * sn * sn)


def pendulum_closed_form(t, length=1.0, amplitude=math.pi / 2):
    """P1 = (x, y) of the pendulum released from rest at `amplitude` from the hanging
    position, pivot at the origin, the mass starting at x > 0."""
    k = math.sin(amplitude / 2.0)
    m = k * k
    w = math.sqrt(GRAVITY / length)
    sn, cn, dn = jacobi_sn_cn_dn(w * t, m)
    cd = cn / dn  # sn(K - u) = cd(u): at t = 0, sin(phi/2) = k, phi = amplitude
    phi = 2.0 * math.asin(max(-1.0, min(1.0, k * cd)))
    return length * math.sin(phi), -length * math.cos(phi)


def quaternion_rotate(qw, qx, qy, qz, v):
    # R v for the unit quaternion (w, x, y, z)
    tx = 2.0 * (qy * v[2] - qz * v[1])
    ty = 2.0 * (qz * v[0] - qx * v[2])
    tz = 2.0 * (qx * v[1] - qy * v[0])
    return (v[0] + qw * tx + (qy * tz - qz * ty),
            v[1] + qw * ty + (qz * tx - qx * tz),
            v[2] + qw * tz + (qx * ty - qy * tx))


def energy_drift(table, path):
    kinetic = column(table, "kinetic_energy_J", path)
    potential = column(table, "potential_energy_J", path)
    energy = [a + b for a, b in zip(kinetic, potential)]
    return [e - energy[0] for e in energy]


def main(argv):
    if len(argv) != 2:
        fail("usage: plot_benchmark_problems.py OUT_DIR")
    out = argv[1]
    if not os.path.isdir(out):
        fail(f"'{out}' is not a directory (run scripts/benchmark_problems.sh first)")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("matplotlib is missing: bash scripts/install-deps.sh plots, then /usr/bin/python3")

    cpu = {}
    times_path = os.path.join(out, "cpu_times.txt")
    if os.path.isfile(times_path):
        with open(times_path, encoding="utf-8") as stream:
            for line in stream:
                parts = line.split()
                if len(parts) == 2:
                    cpu[parts[0]] = parts[1]
    summary = []

    def figure(name, title, t, tracked, difference, tracked_label, difference_label):
        fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for label, values in tracked:
            axes[0].plot(t, values, label=label)
        axes[0].set_ylabel(tracked_label)
        axes[0].legend(loc="upper right", fontsize=8)
        axes[0].set_title(title)
        for label, values in difference:
            axes[1].plot(t, values, label=label)
        axes[1].set_ylabel(difference_label)
        axes[1].set_xlabel("t (s)")
        axes[1].legend(loc="upper right", fontsize=8)
        for axis in axes:
            axis.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(out, name + ".png"), dpi=110)
        plt.close(fig)

    # --- A01 ---------------------------------------------------------------------------
    path = os.path.join(out, "a01_pendulum.csv")
    run = read_csv(path)
    t = column(run, "t_s", path)
    q = column(run, "q_pivot_rad", path)
    x = [math.cos(a) for a in q]
    y = [math.sin(a) for a in q]
    reference = [pendulum_closed_form(s) for s in t]
    ex = [a - r[0] for a, r in zip(x, reference)]
    ey = [a - r[1] for a, r in zip(y, reference)]
    error = max(max(abs(a) for a in ex), max(abs(a) for a in ey))
    drift = max(abs(e) for e in energy_drift(run, path))
    figure("a01_pendulum", "A01 simple pendulum: P1", t,
           [("x mechdyn", x), ("y mechdyn", y)], [("x - closed form", ex), ("y - closed form", ey)],
           "P1 (m)", "error (m)")
    summary.append(("A01 pendulum", cpu.get("a01", "?"), "closed form (elliptic)",
                    f"max |P1 - ref| = {error:.2e} m; max |E - E0| = {drift:.2e} J; "
                    f"{t[-1]:g} s, {len(t)} rows"))

    # --- A02 ---------------------------------------------------------------------------
    sizes = sorted(int(name[5:-4]) for name in os.listdir(out)
                   if name.startswith("a02_n") and name.endswith(".csv") and "_" not in name[5:-4])
    if not sizes:
        fail(f"'{out}' holds no a02_n<N>.csv")
    for n in sizes:
        path = os.path.join(out, f"a02_n{n}.csv")
        ref_path = os.path.join(out, f"a02_n{n}_reference.csv")
        run = read_csv(path)
        ref = read_csv(ref_path)
        t = column(run, "t_s", path)
        q0 = column(run, "q_crank_0_rad", path)
        if len(column(ref, "t_s", ref_path)) != len(t) or max(
                abs(a - b) for a, b in zip(ref["t_s"], t)) > 1e-9:
            fail(f"'{ref_path}' and '{path}' are not on the same time grid")
        x = [-math.sin(a) for a in q0]
        y = [math.cos(a) for a in q0]
        ex = [a - b for a, b in zip(x, column(ref, "B0_x_m", ref_path))]
        ey = [a - b for a, b in zip(y, column(ref, "B0_y_m", ref_path))]
        error = max(max(abs(a) for a in ex), max(abs(a) for a in ey))
        spread = 0.0
        for i in range(1, n + 1):
            qi = column(run, f"q_crank_{i}_rad", path)
            spread = max(spread, max(abs(a - b) for a, b in zip(qi, q0)))
        first_over = next((s for s, a, b in zip(t, ex, ey) if max(abs(a), abs(b)) > 1e-3), None)
        drift = max(abs(e) for e in energy_drift(run, path))
        figure(f"a02_n{n}", f"A02 N-four-bar, N = {n}: B0", t,
               [("x mechdyn", x), ("y mechdyn", y)],
               [("x - 1-DOF reference", ex), ("y - 1-DOF reference", ey)], "B0 (m)", "error (m)")
        note = "" if first_over is None else f"; first over 1e-3 m at t = {first_over:g} s"
        summary.append((f"A02 N={n}", cpu.get(f"a02_n{n}", "?"), "exact 1-DOF reduction",
                        f"max |B0 - ref| = {error:.2e} m; max |q_crank_i - q_crank_0| = "
                        f"{spread:.2e} rad; max |E - E0| = {drift:.2e} J{note}"))

    # --- A04 ---------------------------------------------------------------------------
    path = os.path.join(out, "a04_bricard.csv")
    run = read_csv(path)
    poses_path = os.path.join(out, "a04_bricard_poses.csv")
    poses = read_csv(poses_path)
    t = column(run, "t_s", path)
    drift = energy_drift(run, path)
    residual = max(abs(a) for a in column(run, "closure_residual", path))
    p34 = []
    for i in range(len(t)):
        rotated = quaternion_rotate(*(column(poses, f"pose_rod_3_{c}", poses_path)[i]
                                      for c in ("qw", "qx", "qy", "qz")), (0.0, 0.0, 1.0))
        p34.append(tuple(column(poses, f"pose_rod_3_{c}_m", poses_path)[i] + r
                         for c, r in zip("xyz", rotated)))
    dof = "?"
    mobility_path = os.path.join(out, "a04_bricard_mobility.json")
    if os.path.isfile(mobility_path):
        try:
            with open(mobility_path, encoding="utf-8") as stream:
                dof = json.load(stream).get("dof", "?")
        except (ValueError, OSError):
            dof = "?"
    figure("a04_bricard", "A04 Bricard mechanism: P_34 (rod_3's far end)", t,
           [(f"{c} mechdyn", [p[i] for p in p34]) for i, c in enumerate("xyz")],
           [("E(t) - E(0)", drift)], "P_34 (m)", "energy error (J)")
    summary.append(("A04 Bricard", cpu.get("a04", "?"), "energy conservation",
                    f"max |E - E0| = {max(abs(e) for e in drift):.2e} J; max closure residual "
                    f"{residual:.1e}; mobility dof at t = 0: {dof}"))

    # --- spatial slider-crank -------------------------------------------------------------
    path = os.path.join(out, "slider_crank.csv")
    half_path = os.path.join(out, "slider_crank_half.csv")
    run = read_csv(path)
    half = read_csv(half_path)
    t = column(run, "t_s", path)
    xs = [0.2 + a for a in column(run, "q_slider_joint_m", path)]
    th = {round(a, 9): b for a, b in zip(column(half, "t_s", half_path),
                                          column(half, "q_slider_joint_m", half_path))}
    dx = [a - (0.2 + th[round(s, 9)]) for s, a in zip(t, xs) if round(s, 9) in th]
    tdx = [s for s in t if round(s, 9) in th]
    drift = energy_drift(run, path)
    residual = max(abs(a) for a in column(run, "closure_residual", path))
    fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
    axes[0].plot(t, xs, label="slider x_C mechdyn")
    axes[0].set_ylabel("x_C (m)")
    axes[0].set_title("Spatial rigid slider-crank (IFToMM library)")
    axes[1].plot(tdx, dx, label="x_C(h) - x_C(h/2)")
    axes[1].set_ylabel("step-halving (m)")
    axes[2].plot(t, drift, label="E(t) - E(0)")
    axes[2].set_ylabel("energy error (J)")
    axes[2].set_xlabel("t (s)")
    for axis in axes:
        axis.grid(True, alpha=0.3)
        axis.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "slider_crank.png"), dpi=110)
    plt.close(fig)
    summary.append(("spatial slider-crank", cpu.get("slider_crank", "?"),
                    "energy conservation; step halving",
                    f"max |E - E0| = {max(abs(e) for e in drift):.2e} J; max |x_C(h) - x_C(h/2)| = "
                    f"{max(abs(a) for a in dx):.2e} m; max closure residual {residual:.1e}"))

    lines = [f"{name:22s} cpu {seconds:>7s} s | {reference:32s} | {result}"
             for name, seconds, reference, result in summary]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as stream:
        stream.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv)
