#!/usr/bin/env python3
"""ctest benchmark_a02_n_four_bar: the IFToMM benchmark A02 (N-four-bar, N = 2) for 10 s
through the CLI, against the exact one-degree-of-freedom reduction
(scripts/n_four_bar_reference.py, which does not use mechdyn).

    python3 check_n_four_bar.py MECHDYN_CLI SOURCE_DIR WORK_DIR

Checks:
  1. the tip B0 of crank_0 (x, y) stays within the benchmark's high precision, 1e-3 m, of
     the reference at every output step (1 ms; the definition measures at 400 steps);
  2. the physical branch: every crank angle equals crank_0's within 1e-6 rad at every step
     (a run that flips a loop into the anti-parallelogram at the horizontal singular
     position, as Dormand-Prince does here, fails this);
  3. the run covers exactly [0, 10] s.
Bugs it catches: wrong closed-chain dynamics or projection (check 1), a branch switch at
the singular configuration (check 2), a CLI that stops early or drops rows (check 3).
Standard library only. Exit status 0 pass, 1 fail, 2 bad input.
"""
import csv
import math
import os
import subprocess
import sys

N = 2
DURATION = 10.0
STEP = 1e-3
INTEGRATOR = "rk4"  # the CLI's integrator for this check (dopri5 leaves the branch)
TOLERANCE_POSITION = 1e-3  # m, the benchmark's "high precision"
TOLERANCE_BRANCH = 1e-6  # rad


def main(argv):
    if len(argv) != 4:
        print("usage: check_n_four_bar.py MECHDYN_CLI SOURCE_DIR WORK_DIR", file=sys.stderr)
        return 2
    cli, source, work = argv[1:]
    model = os.path.join(source, "examples", "models", f"n_four_bar_{N}.yaml")
    for path in (cli, model):
        if not os.path.exists(path):
            print(f"check_n_four_bar.py: missing '{path}'", file=sys.stderr)
            return 2
    os.makedirs(work, exist_ok=True)
    run_csv = os.path.join(work, "n_four_bar_2.csv")
    ref_csv = os.path.join(work, "n_four_bar_2_reference.csv")
    v0 = ",".join(["-1", "1"] * N + ["-1"])
    command = [cli, "simulate", model, "--v0", v0, "--integrator", INTEGRATOR, "--step", str(STEP),
               "--duration", str(DURATION), "--output", run_csv]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"FAIL: {' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")
        return 1
    reference = subprocess.run(
        [sys.executable, os.path.join(source, "scripts", "n_four_bar_reference.py"), str(N), ref_csv,
         "--duration", str(DURATION), "--step", str(STEP)], capture_output=True, text=True)
    if reference.returncode != 0:
        print(f"FAIL: the reference script exited {reference.returncode}: {reference.stderr.strip()}")
        return 1
    with open(run_csv, newline="") as stream:
        run = list(csv.DictReader(stream))
    with open(ref_csv, newline="") as stream:
        ref = list(csv.DictReader(stream))
    failures = []
    expected_rows = int(round(DURATION / STEP)) + 1
    if len(run) != expected_rows or len(ref) != expected_rows:
        failures.append(f"rows: run {len(run)}, reference {len(ref)}, expected {expected_rows}")
    worst, worst_t, spread, spread_t = 0.0, 0.0, 0.0, 0.0
    for row, r in zip(run, ref):
        t = float(row["t_s"])
        if abs(t - float(r["t_s"])) > 1e-9:
            failures.append(f"time grids differ at t = {t}")
            break
        q0 = float(row["q_crank_0_rad"])
        # crank_0 stands along +y at q = 0: B0 = (-sin q, cos q) (L = 1 m)
        error = max(abs(-math.sin(q0) - float(r["B0_x_m"])), abs(math.cos(q0) - float(r["B0_y_m"])))
        if error > worst:
            worst, worst_t = error, t
        for i in range(1, N + 1):
            d = abs(float(row[f"q_crank_{i}_rad"]) - q0)
            if d > spread:
                spread, spread_t = d, t
    if abs(float(run[-1]["t_s"]) - DURATION) > 1e-9:
        failures.append(f"last row at t = {run[-1]['t_s']}, expected {DURATION}")
    print(f"N = {N}, {DURATION:g} s, {INTEGRATOR} h = {STEP:g}: max |B0 - reference| = {worst:.3e} m "
          f"(t = {worst_t:g} s), max |q_crank_i - q_crank_0| = {spread:.3e} rad (t = {spread_t:g} s)")
    if worst > TOLERANCE_POSITION:
        failures.append(f"B0 off the reference by {worst:.3e} m > {TOLERANCE_POSITION} m at t = {worst_t:g} s")
    if spread > TOLERANCE_BRANCH:
        failures.append(f"left the physical branch: crank angles differ by {spread:.3e} rad at t = {spread_t:g} s")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
