#!/usr/bin/python3
"""The Schoenflies 2UPS+2UPU case study (momentum-screw-schoenflies §4, Figs. 7–8).

  /usr/bin/python3 scripts/plot_schoenflies.py --trajectory FILE.csv
      writes the platform trajectory of §4 as the contract's CSV (t, pose, velocity,
      acceleration; exact derivatives), 0–6 s every 1 ms;
  /usr/bin/python3 scripts/plot_schoenflies.py out/schoenflies
      reads momentum_screw.csv, newton_euler.csv, expressions.csv written by
      `mechdyn invdyn` (scripts/case_schoenflies.sh) and writes
      actuator_velocities.png (Fig. 7), driving_forces.png (Fig. 8: both methods),
      method_difference.png, and summary.txt (extreme values, agreement of the methods
      and of the expression path).
Needs Debian's matplotlib (apt python3-matplotlib).
"""
import csv
import math
import os
import sys

LIMBS = ["P1", "P2", "P3", "P4"]


def write_trajectory(path):
    pi = math.pi
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow("t px py pz qw qx qy qz vx vy vz wx wy wz ax ay az alx aly alz".split())
        for k in range(6001):
            t = k * 1e-3
            th = 0.2 * math.sin(pi * t)
            row = [t,
                   0.5 * math.sin(pi * t), 0.3 * math.cos(2 * pi * t), 0.2 * math.sin(3 * pi * t) + 1.0,
                   math.cos(th / 2), 0.0, 0.0, math.sin(th / 2),
                   0.5 * pi * math.cos(pi * t), -0.6 * pi * math.sin(2 * pi * t), 0.6 * pi * math.cos(3 * pi * t),
                   0.0, 0.0, 0.2 * pi * math.cos(pi * t),
                   -0.5 * pi * pi * math.sin(pi * t), -1.2 * pi * pi * math.cos(2 * pi * t),
                   -1.8 * pi * pi * math.sin(3 * pi * t),
                   0.0, 0.0, -0.2 * pi * pi * math.sin(pi * t)]
            w.writerow([repr(x) for x in row])


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return {key: [float(r[key]) for r in rows] for key in rows[0]}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--trajectory":
        write_trajectory(sys.argv[2])
        return 0
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = sys.argv[1]
    ms = read(os.path.join(out, "momentum_screw.csv"))
    ne = read(os.path.join(out, "newton_euler.csv"))
    ex = read(os.path.join(out, "expressions.csv"))
    t = ms["t_s"]

    fig, ax = plt.subplots(figsize=(7, 4))
    for i, p in enumerate(LIMBS):
        ax.plot(t, ms["v_%s_m_per_s" % p], label="limb %d" % (i + 1))
    ax.set_xlabel("t (s)")
    ax.set_ylabel("actuator velocity (m/s)")
    ax.set_title("Actuator velocities (MS Fig. 7)")
    ax.grid(True)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "actuator_velocities.png"), dpi=120)

    fig, axes = plt.subplots(2, 2, figsize=(10, 6), sharex=True)
    for i, p in enumerate(LIMBS):
        a = axes[i // 2][i % 2]
        a.plot(t, ms["effort_%s_N" % p], label="momentum screw")
        a.plot(t, ne["effort_%s_N" % p], "--", label="Newton–Euler")
        a.set_title("limb %d" % (i + 1))
        a.set_ylabel("driving force (N)")
        a.grid(True)
        if i >= 2:
            a.set_xlabel("t (s)")
    axes[0][0].legend()
    fig.suptitle("Driving forces (MS Fig. 8)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "driving_forces.png"), dpi=120)

    fig, ax = plt.subplots(figsize=(7, 4))
    worst = 0.0
    for i, p in enumerate(LIMBS):
        d = [abs(x - y) for x, y in zip(ms["effort_%s_N" % p], ne["effort_%s_N" % p])]
        worst = max(worst, max(d))
        ax.semilogy(t, [max(x, 1e-17) for x in d], label="limb %d" % (i + 1))
    ax.set_xlabel("t (s)")
    ax.set_ylabel("|momentum screw − Newton–Euler| (N)")
    ax.set_title("Agreement of the two methods")
    ax.grid(True)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "method_difference.png"), dpi=120)

    expression = max(abs(x - y) for p in LIMBS for x, y in zip(ms["effort_%s_N" % p], ex["effort_%s_N" % p]))
    with open(os.path.join(out, "summary.txt"), "w") as f:
        for i, p in enumerate(LIMBS):
            v, e = ms["v_%s_m_per_s" % p], ms["effort_%s_N" % p]
            f.write("limb %d: velocity %.4f .. %.4f m/s, driving force %.3f .. %.3f N\n" % (i + 1, min(v), max(v), min(e), max(e)))
        f.write("largest |momentum screw - Newton-Euler| driving force: %.3g N\n" % worst)
        f.write("largest |CSV motion - expression motion| driving force: %.3g N\n" % expression)
        f.write("largest closure residual: %.3g; largest |power residual|: %.3g W\n"
                % (max(ms["closure_residual"]), max(abs(x) for x in ms["power_residual_W"])))
    print(open(os.path.join(out, "summary.txt")).read(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
