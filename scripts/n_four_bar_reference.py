#!/usr/bin/env python3
"""Independent reference for the N-four-bar (IFToMM benchmark A02): the exact
one-degree-of-freedom reduction, integrated to high accuracy.

    python3 scripts/n_four_bar_reference.py N OUTPUT.csv [--duration T] [--step H]

Standard library only (any python3). Writes t_s, theta_rad, omega_rad_per_s, B0_x_m, B0_y_m
at every output step H (default 0.001 s) up to T (default 10 s), and prints the estimate of
its own error (the difference to the same integration with half the step). Bad input: one
line on standard error, exit status 2.

Derivation (every link length L, mass m, uniform; g along -y). On the physical branch the
N+1 cranks share the angle theta (from +x) and the N couplers stay parallel to the ground
link and translate with the crank tips. Then
  crank (about its fixed pivot):  T_c = 1/2 (m L^2 / 3) theta'^2,  V_c = m g (L/2) sin theta
  coupler (pure translation, every point moves as a crank tip, speed L theta'):
                                  T_k = 1/2 m L^2 theta'^2,        V_k = m g L sin theta + const
  T = 1/2 J theta'^2 with J = [(N+1)/3 + N] m L^2,
  V = [(N+1)/2 + N] m g L sin theta,
and Lagrange's equation (J constant) is  J theta'' = -[(N+1)/2 + N] m g L cos theta.
Initial state (the definition): theta = pi/2 (cranks vertical), x'(B0) = -L sin(theta)
theta' = +1 m/s, so theta' = -1 rad/s. Tracked: B0 = L (cos theta, sin theta).

Integration: classic RK4 with an internal step of H/INTERNAL_STEPS; the run is repeated with
half that internal step and the largest difference of B0 between the two is printed (RK4's
error falls 16-fold per halving, so that difference bounds the error of the finer run,
which is the one written).
"""
import math
import sys

LENGTH = 1.0
MASS = 1.0
GRAVITY = 9.81
INTERNAL_STEPS = 20  # RK4 sub-steps per output step (h = 5e-5 s for H = 1 ms)


def fail(message):
    print(f"n_four_bar_reference.py: {message}", file=sys.stderr)
    sys.exit(2)


def integrate(n, duration, step, substeps):
    inertia = ((n + 1) / 3.0 + n) * MASS * LENGTH ** 2
    gravity_moment = ((n + 1) / 2.0 + n) * MASS * GRAVITY * LENGTH
    k = gravity_moment / inertia

    def accel(theta):
        return -k * math.cos(theta)

    theta, omega = math.pi / 2.0, -1.0 / LENGTH
    outputs = int(math.ceil(duration / step - 1e-9))
    rows = [(0.0, theta, omega)]
    h = step / substeps
    for index in range(1, outputs + 1):
        t_end = min(index * step, duration)
        t_start = rows[-1][0]
        count = max(1, int(round((t_end - t_start) / h)))
        hh = (t_end - t_start) / count
        for _ in range(count):
            k1t, k1w = omega, accel(theta)
            k2t, k2w = omega + 0.5 * hh * k1w, accel(theta + 0.5 * hh * k1t)
            k3t, k3w = omega + 0.5 * hh * k2w, accel(theta + 0.5 * hh * k2t)
            k4t, k4w = omega + hh * k3w, accel(theta + hh * k3t)
            theta += hh / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t)
            omega += hh / 6.0 * (k1w + 2 * k2w + 2 * k3w + k4w)
        rows.append((t_end, theta, omega))
    return rows


def main(argv):
    args = argv[1:]
    duration, step = 10.0, 1e-3
    positional = []
    i = 0
    while i < len(args):
        if args[i] in ("--duration", "--step"):
            if i + 1 >= len(args):
                fail(f"{args[i]} needs a value")
            try:
                value = float(args[i + 1])
            except ValueError:
                fail(f"{args[i]} must be a number, got '{args[i + 1]}'")
            if not (value > 0 and math.isfinite(value)):
                fail(f"{args[i]} must be > 0, got {args[i + 1]}")
            if args[i] == "--duration":
                duration = value
            else:
                step = value
            i += 2
        else:
            positional.append(args[i])
            i += 1
    if len(positional) != 2:
        fail("usage: n_four_bar_reference.py N OUTPUT.csv [--duration T] [--step H]")
    try:
        n = int(positional[0])
    except ValueError:
        fail(f"N must be a whole number >= 1, got '{positional[0]}'")
    if n < 1:
        fail(f"N must be a whole number >= 1, got {n}")
    coarse = integrate(n, duration, step, INTERNAL_STEPS)
    fine = integrate(n, duration, step, 2 * INTERNAL_STEPS)
    difference = max(
        max(abs(math.cos(a[1]) - math.cos(b[1])), abs(math.sin(a[1]) - math.sin(b[1])))
        for a, b in zip(coarse, fine)) * LENGTH
    try:
        with open(positional[1], "w", encoding="utf-8") as out:
            out.write("t_s,theta_rad,omega_rad_per_s,B0_x_m,B0_y_m\n")
            for t, theta, omega in fine:
                out.write(f"{t:.10g},{theta!r},{omega!r},{LENGTH * math.cos(theta)!r},"
                          f"{LENGTH * math.sin(theta)!r}\n")
    except OSError as error:
        fail(f"cannot write '{positional[1]}': {error.strerror}")
    print(f"N = {n}: {len(fine)} rows to {positional[1]}; RK4 h = {step / (2 * INTERNAL_STEPS):g} s; "
          f"max |B0(h) - B0(2h)| = {difference:.2e} m (error estimate of the written run)")


if __name__ == "__main__":
    main(sys.argv)
