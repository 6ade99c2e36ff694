#!/usr/bin/env python3
"""ctest benchmark_servo_step, benchmark_geared_drive: two force-element case studies
(model format 3) through the CLI against closed forms.

    python3 check_force_element_cases.py servo_step|geared_drive MECHDYN_CLI SOURCE_DIR WORK_DIR

servo_step (examples/models/servo_step.yaml): a joint-servo steps one joint of inertia
  I = 1/12 (rod) + 1/60 (armature) = 0.1 kg m^2 to A = 0.5 rad, kp = 40, kd = 0.8: the
  run (RK4, 1 ms, 1 s) must follow q(t) = A [1 - e^(-zeta wn t) (cos wd t + zeta /
  sqrt(1 - zeta^2) sin wd t)], wn = sqrt(kp / I) = 20 rad/s, zeta = kd / (2 sqrt(kp I)) =
  0.2, within 1e-7 rad at every row, and the servo's effort column must equal kp (A - q) -
  kd v within 1e-9 N m. Why 1e-7: RK4's global error at wn h = 0.02 is ~1e-9 rad here
  (measured 1.2e-9); a servo gain, armature or rate mistake changes wn or zeta by percents,
  i.e. q by >1e-3 rad within the first period.
geared_drive (examples/models/geared_drive.yaml): a motor (I_m = 0.001, armature 0.002
  kg m^2) drives two wheels (I_w = 0.5 kg m^2) through gears of ratio r = 0.1 under
  tau = 0.13 N m: every row's motor acceleration must be tau / (I_m + armature +
  2 r^2 I_w) = 10 rad/s^2 and each gear's effort I_w r a_m = 0.5 N m to 1e-9 relative (the
  constrained dynamics is solved directly: round-off only), q_m(2 s) = 20 rad to 1e-9
  (RK4 is exact on a constant acceleration), q_wheel = r q_m and the kinetic energy equal
  to the work tau q_m to 1e-9 relative. Run with rk4 and with ali3p (ALI3-P's iterated
  multipliers: 1e-6 relative on the efforts, measured 1.6e-8).
Bugs they catch: a servo effort with the wrong sign or gain, an armature missing from the
mass matrix, a coupling's row or effort with the wrong ratio, sign or scaling, the
armature's inertial effort missing from the energy. Standard library only. Exit status
0 pass, 1 fail, 2 bad input.
"""
import csv
import math
import os
import subprocess
import sys


def run(cli, model, work, name, args):
    out = os.path.join(work, name + ".csv")
    command = [cli, "simulate", model, *args, "--output", out]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")
    with open(out, newline="") as stream:
        return list(csv.DictReader(stream))


def servo_step(cli, source, work):
    A, kp, kd, inertia = 0.5, 40.0, 0.8, 0.1
    wn = math.sqrt(kp / inertia)
    zeta = kd / (2 * math.sqrt(kp * inertia))
    wd = wn * math.sqrt(1 - zeta * zeta)
    rows = run(cli, os.path.join(source, "examples", "models", "servo_step.yaml"), work, "servo_step",
               ["--integrator", "rk4", "--step", "0.001", "--duration", "1"])
    failures, worst, worst_t, worst_effort = [], 0.0, 0.0, 0.0
    for row in rows:
        t = float(row["t_s"])
        q = float(row["q_J1_rad"])
        exact = A * (1 - math.exp(-zeta * wn * t) * (math.cos(wd * t) + zeta / math.sqrt(1 - zeta * zeta) * math.sin(wd * t)))
        if abs(q - exact) > worst:
            worst, worst_t = abs(q - exact), t
        effort = kp * (A - q) - kd * float(row["v_J1_rad_per_s"])
        worst_effort = max(worst_effort, abs(effort - float(row["force_servo_N_m"])))
    print(f"servo step: wn = {wn:g} rad/s, zeta = {zeta:g}; max |q - closed form| = {worst:.3e} rad "
          f"(t = {worst_t:g} s); max |effort - (kp (A - q) - kd v)| = {worst_effort:.3e} N m; {len(rows)} rows")
    if len(rows) != 1001:
        failures.append(f"{len(rows)} rows, expected 1001")
    if worst > 1e-7:
        failures.append(f"q off the closed form by {worst:.3e} rad > 1e-7 at t = {worst_t:g} s")
    if worst_effort > 1e-9:
        failures.append(f"servo effort column off kp (A - q) - kd v by {worst_effort:.3e} N m")
    return failures


def geared_drive(cli, source, work):
    tau, i_m, armature, i_w, r = 0.13, 0.001, 0.002, 0.5, 0.1
    a_m = tau / (i_m + armature + 2 * r * r * i_w)
    effort = i_w * r * a_m
    failures = []
    for integrator, tol_effort in (("rk4", 1e-9), ("ali3p", 1e-6)):
        rows = run(cli, os.path.join(source, "examples", "models", "geared_drive.yaml"), work,
                   f"geared_drive_{integrator}",
                   ["--tau", str(tau), "--integrator", integrator, "--step", "0.01", "--duration", "2"])
        worst = {"a_motor": 0.0, "efforts": 0.0, "wheels": 0.0, "energy": 0.0}
        for row in rows:
            q_m = float(row["q_motor_rad"])
            worst["a_motor"] = max(worst["a_motor"], abs(float(row["a_motor_rad_per_s2"]) - a_m) / a_m)
            for gear in ("left", "right"):
                worst["efforts"] = max(worst["efforts"], abs(float(row[f"coupling_gear_{gear}_N_m"]) - effort) / effort)
                worst["wheels"] = max(worst["wheels"], abs(float(row[f"q_{gear}_rad"]) - r * q_m))
            work_done = tau * q_m
            worst["energy"] = max(worst["energy"], abs(float(row["kinetic_energy_J"]) - work_done) / max(work_done, 1e-300) if work_done > 0 else 0.0)
        q_end = float(rows[-1]["q_motor_rad"])
        exact_end = 0.5 * a_m * 2.0 ** 2
        print(f"geared drive ({integrator}): a_m = {a_m:g} rad/s^2 expected; max relative error of a_m "
              f"{worst['a_motor']:.3e}, of the gears' efforts (expected {effort:g} N m) {worst['efforts']:.3e}; "
              f"max |q_wheel - r q_m| {worst['wheels']:.3e} rad; q_m(2 s) = {q_end:.12g} (exact {exact_end:g}); "
              f"max |T - tau q_m| / (tau q_m) {worst['energy']:.3e}")
        tol = 1e-9 if integrator == "rk4" else 1e-6
        if worst["a_motor"] > tol:
            failures.append(f"{integrator}: motor acceleration off tau / I_reflected by {worst['a_motor']:.3e} relative")
        if worst["efforts"] > tol_effort:
            failures.append(f"{integrator}: gear efforts off I_w r a_m by {worst['efforts']:.3e} relative")
        if worst["wheels"] > 1e-9:
            failures.append(f"{integrator}: wheels off r q_m by {worst['wheels']:.3e} rad")
        if abs(q_end - exact_end) > tol * exact_end:
            failures.append(f"{integrator}: q_m(2 s) = {q_end!r}, expected {exact_end}")
        if worst["energy"] > tol:
            failures.append(f"{integrator}: kinetic energy off the work by {worst['energy']:.3e} relative")
    return failures


def main(argv):
    cases = {"servo_step": servo_step, "geared_drive": geared_drive}
    if len(argv) != 5 or argv[1] not in cases:
        print("usage: check_force_element_cases.py servo_step|geared_drive MECHDYN_CLI SOURCE_DIR WORK_DIR",
              file=sys.stderr)
        return 2
    case, cli, source, work = argv[1:]
    if not os.path.exists(cli):
        print(f"check_force_element_cases.py: missing '{cli}'", file=sys.stderr)
        return 2
    os.makedirs(work, exist_ok=True)
    try:
        failures = cases[case](cli, source, work)
    except RuntimeError as error:
        failures = [str(error)]
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
