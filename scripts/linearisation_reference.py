#!/usr/bin/env python3
"""Independent references for the linearisation case studies (docs/linearisation.md,
docs/benchmarks.md "Linearisation: case studies"): equilibria and eigenvalues computed
without mechdyn, from each example's definition (its header in examples/models/), with
numpy only. tests/benchmark_problems/check_linearisation.py compares mechdyn's
`static` / `modes` / `linearize` with these.

    /usr/bin/python3 scripts/linearisation_reference.py      (prints every reference)

four_bar_spring  the IFToMM four-bar with a diagonal spring (iftomm_four_bar_spring.yaml) by
                 the energy method: the loop closed by circle intersection for a crank angle
                 phi (absolute, from +x); kinetic energy T = J(phi) phi'^2 / 2 and the
                 spring's L(phi) from centred differences of the bodies' positions and
                 angles; potential V(phi) (gravity + spring); equilibrium dV/dphi = 0 by
                 Newton from the published phi; k_e = V''(phi*), c_e = c L'(phi*)^2,
                 eigenvalues of J s^2 + c_e s + k_e = 0. Nothing here reads the model file:
                 the numbers are the problem's (three 1 m, 1 kg rods, k = 25 N/m,
                 c = 1 N s/m, L0 = sqrt(2) m, our reading in the model's header).
elastic_pendulum the pendulum on a spring (elastic_pendulum.yaml): closed form.
servo_arm        the 2-link arm under PD joint servos (servo_arm.yaml) at t = 0 (targets 0):
                 the textbook planar 2-link M(q), gravity G(q) = dV/dq and its derivative,
                 the equilibrium G(q) = -Kp q by Newton, poles of
                 M s^2 + Kd s + (Kp + dG/dq) = 0 (at rest the velocity terms vanish).
"""
import math

import numpy as np

G = 9.81
PUBLISHED_FOUR_BAR_PHI = 2.23433101898  # rad: the benchmark's equilibrium (Minaker's EoM input file)


# ---------------------------------------------------------------- four-bar with a spring
def _four_bar_pose(phi, branch_hint=None):
    """Positions of the crank's B and the coupler-rocker joint C for crank angle phi:
    O = (0, 0), D = (1, 0), |OB| = |BC| = |DC| = 1; C the intersection of the circles
    about B and D nearest branch_hint (default: the parallelogram's B + (1, 0))."""
    b = np.array([math.cos(phi), math.sin(phi)])
    d = np.array([1.0, 0.0])
    r1 = r2 = 1.0
    dist = np.linalg.norm(d - b)
    a = (r1 ** 2 - r2 ** 2 + dist ** 2) / (2 * dist)
    h = math.sqrt(max(r1 ** 2 - a ** 2, 0.0))
    mid = b + a * (d - b) / dist
    perp = np.array([-(d - b)[1], (d - b)[0]]) / dist
    candidates = [mid + h * perp, mid - h * perp]
    hint = b + np.array([1.0, 0.0]) if branch_hint is None else branch_hint
    c = min(candidates, key=lambda p: np.linalg.norm(p - hint))
    return b, c


def _four_bar_bodies(phi):
    """(com, angle) of crank, coupler, rocker: each a 1 m rod between its two joints."""
    b, c = _four_bar_pose(phi)
    o, d = np.zeros(2), np.array([1.0, 0.0])
    rods = [(o, b), (b, c), (d, c)]
    return [((p + q) / 2, math.atan2(q[1] - p[1], q[0] - p[0])) for p, q in rods]


def four_bar_spring(k=25.0, c=1.0, mass=1.0, length=1.0, free_length=math.sqrt(2.0)):
    inertia = mass * length ** 2 / 12.0  # thin rod about its centre

    def potential(phi):
        v = sum(mass * G * com[1] for com, _ in _four_bar_bodies(phi))
        _, cpt = _four_bar_pose(phi)
        return v + 0.5 * k * (np.linalg.norm(cpt) - free_length) ** 2

    def spring_length(phi):
        return np.linalg.norm(_four_bar_pose(phi)[1])

    def generalized_mass(phi, h=1e-6):
        plus, minus = _four_bar_bodies(phi + h), _four_bar_bodies(phi - h)
        total = 0.0
        for (cp, ap), (cm, am) in zip(plus, minus):
            dcom = (cp - cm) / (2 * h)
            dangle = (ap - am) / (2 * h)
            total += mass * dcom.dot(dcom) + inertia * dangle ** 2
        return total

    # five-point centred differences (truncation ~h^4, round-off ~1e-14 / h^2: ~1e-8 here)
    def dv(phi, h=1e-3):
        return (-potential(phi + 2 * h) + 8 * potential(phi + h) - 8 * potential(phi - h) + potential(phi - 2 * h)) / (12 * h)

    def d2v(phi, h=1e-3):
        return (-potential(phi + 2 * h) + 16 * potential(phi + h) - 30 * potential(phi) + 16 * potential(phi - h)
                - potential(phi - 2 * h)) / (12 * h ** 2)

    phi = PUBLISHED_FOUR_BAR_PHI
    for _ in range(50):  # Newton on dV/dphi = 0
        step = dv(phi) / d2v(phi)
        phi -= step
        if abs(step) < 1e-13:
            break
    inertia_e = generalized_mass(phi)
    stiffness_e = d2v(phi)
    h = 1e-6
    dl = (spring_length(phi + h) - spring_length(phi - h)) / (2 * h)
    damping_e = c * dl ** 2
    disc = complex(damping_e ** 2 - 4 * inertia_e * stiffness_e)
    root = np.sqrt(disc)
    eigenvalues = [(-damping_e - root) / (2 * inertia_e), (-damping_e + root) / (2 * inertia_e)]
    return {
        "phi": phi,
        "published_phi": PUBLISHED_FOUR_BAR_PHI,
        "inertia": inertia_e,
        "stiffness": stiffness_e,
        "damping": damping_e,
        "frequency_hz": math.sqrt(stiffness_e / inertia_e) / (2 * math.pi),
        "eigenvalues": sorted(eigenvalues, key=lambda z: (abs(z.imag), z.real, z.imag)),
    }


# ---------------------------------------------------------------- pendulum on a spring
def elastic_pendulum(m=1.0, k=100.0, c=2.0, r0=0.9):
    r = r0 + m * G / k
    radial = np.roots([m, c, k])
    swing = np.roots([r, 0.0, G])
    eigenvalues = sorted(list(radial) + list(swing), key=lambda z: (abs(z.imag), z.real, z.imag))
    return {
        "r": r,
        "frequencies_hz": sorted([math.sqrt(G / r) / (2 * math.pi), math.sqrt(k / m) / (2 * math.pi)]),
        "damping_ratio": c / (2 * math.sqrt(k * m)),
        "eigenvalues": eigenvalues,
    }


def elastic_pendulum_state_matrix(theta, r, theta_dot, r_dot, m=1.0, k=100.0, c=2.0, r0=0.9):
    """A = d(x')/dx of the elastic pendulum's equations (header of elastic_pendulum.yaml) for
    x = (theta, r, theta', r'): partial derivatives by hand."""
    # r'' = r th'^2 + g cos th - (k/m)(r - r0) - (c/m) r'
    # th'' = (-g sin th - 2 r' th') / r
    a = np.zeros((4, 4))
    a[0, 2] = a[1, 3] = 1.0
    a[2, 0] = -G * math.cos(theta) / r
    a[2, 1] = (G * math.sin(theta) + 2 * r_dot * theta_dot) / r ** 2
    a[2, 2] = -2 * r_dot / r
    a[2, 3] = -2 * theta_dot / r
    a[3, 0] = -G * math.sin(theta)
    a[3, 1] = theta_dot ** 2 - k / m
    a[3, 2] = 2 * r * theta_dot
    a[3, 3] = -c / m
    return a


# ---------------------------------------------------------------- 2-link arm under servos
SERVO_ARM = dict(m1=2.0, m2=1.5, l1=0.5, l2=0.4, armature=0.01, kp=(2000.0, 500.0), kd=(86.3, 13.4))


def two_link_mass(q, m1, m2, l1, l2, armature, **_):
    """M(q) of a planar arm of two uniform rods (I_c = m L^2 / 12, com at the middle)."""
    lc1, lc2 = l1 / 2, l2 / 2
    i1, i2 = m1 * l1 ** 2 / 12, m2 * l2 ** 2 / 12
    c2 = math.cos(q[1])
    m11 = i1 + m1 * lc1 ** 2 + i2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * c2) + armature
    m12 = i2 + m2 * (lc2 ** 2 + l1 * lc2 * c2)
    m22 = i2 + m2 * lc2 ** 2 + armature
    return np.array([[m11, m12], [m12, m22]])


def two_link_gravity(q, m1, m2, l1, l2, **_):
    """G = dV/dq, V = m1 g lc1 sin q1 + m2 g (l1 sin q1 + lc2 sin(q1 + q2)) (gravity along -y,
    q = 0 along +x), and dG/dq."""
    lc1, lc2 = l1 / 2, l2 / 2
    a1 = (m1 * lc1 + m2 * l1) * G
    a2 = m2 * lc2 * G
    s1, c1 = math.sin(q[0]), math.cos(q[0])
    s12, c12 = math.sin(q[0] + q[1]), math.cos(q[0] + q[1])
    grav = np.array([a1 * c1 + a2 * c12, a2 * c12])
    dgrav = np.array([[-a1 * s1 - a2 * s12, -a2 * s12], [-a2 * s12, -a2 * s12]])
    return grav, dgrav


def servo_arm(targets=(0.0, 0.0)):
    p = SERVO_ARM
    kp, kd = np.diag(p["kp"]), np.diag(p["kd"])
    target = np.array(targets)
    q = np.zeros(2)
    for _ in range(50):  # Newton on G(q) + Kp (q - target) = 0 (the servos hold the arm against gravity)
        grav, dgrav = two_link_gravity(q, **p)
        step = np.linalg.solve(kp + dgrav, grav + kp @ (q - target))
        q -= step
        if np.max(np.abs(step)) < 1e-15:
            break
    mass = two_link_mass(q, **p)
    _, dgrav = two_link_gravity(q, **p)
    stiffness = kp + dgrav
    minv = np.linalg.inv(mass)
    a = np.block([[np.zeros((2, 2)), np.eye(2)], [-minv @ stiffness, -minv @ kd]])
    eigenvalues = sorted(np.linalg.eigvals(a), key=lambda z: (abs(z.imag), z.real, z.imag))
    undamped = np.sqrt(np.sort(np.linalg.eigvals(np.linalg.solve(mass, stiffness)).real)) / (2 * math.pi)
    return {
        "q": q,
        "mass": mass,
        "stiffness": stiffness,
        "A": a,
        "B_targets": np.vstack([np.zeros((2, 2)), minv @ kp]),
        "eigenvalues": eigenvalues,
        "frequencies_hz": list(undamped),
        "damped": [(abs(z.imag) / (2 * math.pi), -z.real / abs(z)) for z in eigenvalues if z.imag > 0],
    }


if __name__ == "__main__":
    np.set_printoptions(precision=15)
    for name, ref in (("four_bar_spring", four_bar_spring()), ("elastic_pendulum", elastic_pendulum()),
                      ("servo_arm", servo_arm())):
        print(name)
        for key, value in ref.items():
            print(f"  {key}: {value!r}")
