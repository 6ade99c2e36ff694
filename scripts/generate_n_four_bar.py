#!/usr/bin/env python3
"""Write the N-four-bar mechanism (IFToMM / González et al. benchmark problem A02) as a
mechdyn model file.

    python3 scripts/generate_n_four_bar.py N [OUTPUT.yaml [SCENARIO.yaml]]

OUTPUT.yaml: the model (default, or "-": standard output). SCENARIO.yaml: also a scenario
for `mechdyn simulate --scenario` with the model, the benchmark's initial velocities (v0,
the full nv-vector), free motion, RK4 at 1 ms for 10 s.

Standard library only; runs with any python3. Bad input (N not a whole number >= 1, an
output path that cannot be written): one line on standard error, exit status 2.

The problem (read from the benchmark's public definition, A02_specification.xml of
lim.ii.udc.es/mbsbenchmark, and González, Dopico, Lugrís, Cuadrado, "A benchmarking system
for MBS simulation software: problem standardization and performance measurement",
Multibody System Dynamics 16 (2006) 179-190):
  * N parallelogram loops of 2N+1 links, every link 1 m long, 1 kg uniformly distributed;
  * gravity 9.81 N/kg along -y;
  * at t = 0 the cranks stand vertical (the figure of the definition) and the x velocity
    of B0, the tip of the first crank, is +1 m/s;
  * tracked: x and y of B0; "high precision" is 1e-3 m (low: 1e-1 m), measured at 400
    output steps.
  The definition runs N = 40 for 20 s; the OpenSim port of the benchmarks
  (RehabEngGroup/MBSbenchmarksInOpenSim) runs N = 2 for 10 s. The generator takes any N;
  we run 10 s (scripts/benchmark_problems.sh).

How it is modelled (how a mechdyn user would): crank i (i = 0..N) is a revolute body from
ground at x = i; coupler i (i = 0..N-1) is a revolute child of crank i at its tip; a
planar-revolute cut joint closes coupler i's far end to crank i+1's tip. Crank 0 is the
independent coordinate (actuated: true, free motion: its effort is 0); every other joint is
actuated: false. The zero configuration is the initial one (cranks along +y, couplers along
+x), so initial_configuration is exactly zero and needs no rounding.
"""
import sys

LENGTH = 1.0   # m, every link
MASS = 1.0     # kg, every link, uniform
GRAVITY = 9.81  # m/s^2, along -y
ROD_INERTIA = MASS * LENGTH ** 2 / 12.0  # kg m^2, slender uniform rod about its centre


def fail(message):
    print(f"generate_n_four_bar.py: {message}", file=sys.stderr)
    sys.exit(2)


def model_text(n):
    ncrank = n + 1
    nv = 2 * n + 1
    lines = [
        f"# N-four-bar mechanism, N = {n}: IFToMM / González et al. benchmark problem A02.",
        "# Written by scripts/generate_n_four_bar.py (edit the generator, not this file).",
        "#",
        "# Definition: A02_specification.xml of lim.ii.udc.es/mbsbenchmark (the IFToMM library",
        "# of benchmark problems, library.iftomm-multibody.org) and González, Dopico, Lugrís,",
        "# Cuadrado, Multibody System Dynamics 16 (2006) 179-190: 2N+1 links of 1 m with 1 kg",
        "# uniformly distributed; gravity 9.81 N/kg along -y; cranks vertical at t = 0; the x",
        "# velocity of B0 (tip of the first crank) +1 m/s; tracked: x, y of B0; high precision",
        "# 1e-3 m. The definition runs N = 40 for 20 s; we run 10 s (docs/closed-chains.md,",
        '# "IFToMM benchmark problems").',
        "#",
        "# Numbers chosen: L = 1 m, m = 1 kg, uniform slender rods: I = m L^2 / 12 = 1/12",
        "# kg m^2 (written 0.08333333333333333) about the two axes across the rod, 0 along it (the motion is",
        "# planar, about z: only I_zz matters). Crank i: revolute about z at [i, 0, 0], along +y",
        "# at q = 0 (centre of mass [0, 0.5, 0], tip [0, 1, 0]). Coupler i: revolute about z at",
        "# crank i's tip, along +x at q = 0 (centre [0.5, 0, 0]). Cut joint i (planar-revolute,",
        "# 2 rows): coupler i's end [1, 0, 0] to crank i+1's tip [0, 1, 0]. nv = 2N+1, 2N rows,",
        "# one degree of freedom (the loops are parallelograms).",
        "#",
        "# Coordinates: q = 0 is the initial configuration of the definition (cranks vertical),",
        "# so initial_configuration is exactly zero. Crank angle from +x: theta = pi/2 + q_crank.",
        "# B0 = (-L sin q_crank_0, L cos q_crank_0).",
        "#",
        "# Initial velocities (not part of a model file; give them as --v0 or a scenario's v0):",
        "# dx(B0)/dt = -L cos(q) dq/dt = +1 m/s at q = 0, so every crank turns at -1 rad/s",
        "# (clockwise about +z) and every coupler at +1 rad/s relative to its crank (the",
        "# couplers translate). The full nv-vector, in the coordinate order of the bodies",
        "# (crank_0, coupler_0, crank_1, coupler_1, ..., crank_N):",
    ]
    order = []
    for i in range(n):
        order += [f"crank_{i}", f"coupler_{i}"]
    order.append(f"crank_{n}")
    v0 = ["-1" if name.startswith("crank") else "1" for name in order]
    assert len(v0) == nv
    lines.append(f"#   v0 = [{', '.join(v0)}]")
    lines += [
        "# Independent reference: scripts/n_four_bar_reference.py (the exact 1-DOF reduction).",
        "mechdyn: 1",
        f"name: n_four_bar_{n}",
        f"gravity: [0, {-GRAVITY}, 0]",
        "bodies:",
    ]
    inertia_crank = f"{{diag: [{ROD_INERTIA!r}, 0, {ROD_INERTIA!r}]}}"
    inertia_coupler = f"{{diag: [0, {ROD_INERTIA!r}, {ROD_INERTIA!r}]}}"
    for i in range(ncrank):
        actuated = "true" if i == 0 else "false"
        lines += [
            f"  - name: crank_{i}",
            "    parent: ground",
            f"    joint: {{type: revolute, axis: [0, 0, 1], origin: [{i}, 0, 0], actuated: {actuated}}}",
            f"    mass: {MASS}",
            f"    com: [0, {LENGTH / 2}, 0]",
            f"    inertia: {inertia_crank}",
        ]
        if i < n:
            lines += [
                f"  - name: coupler_{i}",
                f"    parent: crank_{i}",
                f"    joint: {{type: revolute, axis: [0, 0, 1], origin: [0, {LENGTH}, 0], actuated: false}}",
                f"    mass: {MASS}",
                f"    com: [{LENGTH / 2}, 0, 0]",
                f"    inertia: {inertia_coupler}",
            ]
    lines.append("loops:")
    for i in range(n):
        lines += [
            f"  - name: close_{i}",
            "    type: planar-revolute",
            f"    a: {{body: coupler_{i}, point: [{LENGTH}, 0, 0]}}",
            f"    b: {{body: crank_{i + 1}, point: [0, {LENGTH}, 0]}}",
            "    axis: [0, 0, 1]",
        ]
    lines.append(f"initial_configuration: [{', '.join(['0'] * nv)}]")
    return "\n".join(lines) + "\n", v0


def scenario_text(n, model_path, v0):
    import os
    return "\n".join([
        f"# N-four-bar, N = {n} (IFToMM benchmark A02): free motion from the benchmark's initial",
        "# state. Written by scripts/generate_n_four_bar.py; the model file's header explains",
        "# every number. v0: every crank -1 rad/s, every coupler +1 rad/s relative to its crank,",
        "# so that B0, the tip of crank_0, starts at +1 m/s along x.",
        f"model: ../models/{os.path.basename(model_path)}",
        "mode: forward",
        "duration: 10",
        "step: 1.0e-3",
        "integrator: rk4",
        f"v0: [{', '.join(v0)}]",
    ]) + "\n"


def main(argv):
    if len(argv) not in (2, 3, 4):
        fail("usage: generate_n_four_bar.py N [OUTPUT.yaml [SCENARIO.yaml]]")
    try:
        n = int(argv[1])
    except ValueError:
        fail(f"N must be a whole number >= 1, got '{argv[1]}'")
    if n < 1 or n > 100000:
        fail(f"N must be a whole number in [1, 100000], got {n}")
    text, v0 = model_text(n)
    if len(argv) == 2 or argv[2] == "-":
        sys.stdout.write(text)
    else:
        write(argv[2], text)
    if len(argv) == 4:
        write(argv[3], scenario_text(n, argv[2], v0))


def write(path, text):
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        fail(f"cannot write '{path}': {error.strerror}")


if __name__ == "__main__":
    main(sys.argv)
