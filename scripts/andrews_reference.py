#!/usr/bin/env python3
"""An independent solution of Andrews' squeezing mechanism (the Test Set for IVP Solvers
problem `andrews`; Hairer & Wanner, Solving ODEs II, §VII.7) from the test set's own
equations (andrews.f, subroutine F: mass matrix m(i,j), forces ff(i), constraints g(i)),
without mechdyn: the index-1 form [M Gᵀ; G 0] [q''; λ] = [f; -(d²g/dt² at q'' = 0)]
integrated by SciPy's DOP853 at rtol = atol = 1e-13, positions and velocities projected
onto g = 0, G v = 0 at every output time. It tells mechdyn's error from the reference's
(the test set's PSIDE solution at t = 0.03).

    /usr/bin/python3 scripts/andrews_reference.py [--rtol R]

Prints the seven angles at t = 0.03 s in the test set's order and their difference to the
test set's SOLN. Needs numpy and scipy (Debian's python3-scipy).
"""
import argparse
import numpy as np
from scipy.integrate import solve_ivp

m1, m2, m3, m4, m5, m6, m7 = .04325, .00365, .02373, .00706, .07050, .00706, .05498
i1, i2, i3, i4, i5, i6, i7 = 2.194e-6, 4.410e-7, 5.255e-6, 5.667e-7, 1.169e-5, 5.667e-7, 1.912e-5
xa, ya, xb, yb, xc, yc = -.06934, -.00227, -0.03635, .03273, .014, .072
d, da, e, ea, rr, ra = 28e-3, 115e-4, 2e-2, 1421e-5, 7e-3, 92e-5
ss, sa, sb, sc, sd = 35e-3, 1874e-5, 1043e-5, 18e-3, 2e-2
ta, tb, u, ua, ub = 2308e-5, 916e-5, 4e-2, 1228e-5, 449e-5
zf, zt, fa, mom, c0, l0 = 2e-2, 4e-2, 1421e-5, 33e-3, 4530.0, 7785e-5

Q0 = np.array([-0.0617138900142764496358948458001, 0.0, 0.455279819163070380255912382449,
               0.222668390165885884674473185609, 0.487364979543842550225598953530,
               -0.222668390165885884674473185609, 1.23054744454982119249735015568])
SOLN = np.array([0.1581077119629904e+2, -0.1575637105984298e+2, 0.4082224013073101e-1,
                 -0.5347301163226948e+0, 0.5244099658805304e+0, 0.5347301163226948e+0,
                 0.1048080741042263e+1])
NAMES = ["beta", "theta", "gamma", "phi", "delta", "omega", "epsilon"]

# The constraints g(1..6) of andrews.f as sums of c * cos(s . q) or c * sin(s . q) plus a
# constant: (c, 'c' | 's', selector s over the seven angles). Then g, G = dg/dq and the
# velocity-squared term d²g/dt² - G q'' = -sum c trig(s . q) (s . v)² follow generically.
B, TH, GA, PH, DE, OM, EP = np.eye(7)
ROWS = [
    ([(rr, 'c', B), (-d, 'c', B + TH), (-ss, 's', GA)], -xb),
    ([(rr, 's', B), (-d, 's', B + TH), (ss, 'c', GA)], -yb),
    ([(rr, 'c', B), (-d, 'c', B + TH), (-e, 's', PH + DE), (-zt, 'c', DE)], -xa),
    ([(rr, 's', B), (-d, 's', B + TH), (e, 'c', PH + DE), (-zt, 's', DE)], -ya),
    ([(rr, 'c', B), (-d, 'c', B + TH), (-zf, 'c', OM + EP), (-u, 's', EP)], -xa),
    ([(rr, 's', B), (-d, 's', B + TH), (-zf, 's', OM + EP), (u, 'c', EP)], -ya),
]


def constraints(q, v):
    g, G, bias = np.zeros(6), np.zeros((6, 7)), np.zeros(6)
    for i, (terms, const) in enumerate(ROWS):
        g[i] = const
        for c, kind, s in terms:
            x, w = s @ q, s @ v
            if kind == 'c':
                g[i] += c * np.cos(x); G[i] += -c * np.sin(x) * s; bias[i] += -c * np.cos(x) * w * w
            else:
                g[i] += c * np.sin(x); G[i] += c * np.cos(x) * s; bias[i] += -c * np.sin(x) * w * w
    return g, G, bias


def mass_and_forces(q, v):
    be, th, ga, ph, de, om, ep = q
    bep, thp, gap, php, dep, omp, epp = v
    M = np.zeros((7, 7))
    M[0, 0] = m1 * ra**2 + m2 * (rr**2 - 2 * da * rr * np.cos(th) + da**2) + i1 + i2
    M[1, 0] = m2 * (da**2 - da * rr * np.cos(th)) + i2
    M[1, 1] = m2 * da**2 + i2
    M[2, 2] = m3 * (sa**2 + sb**2) + i3
    M[3, 3] = m4 * (e - ea)**2 + i4
    M[4, 3] = m4 * ((e - ea)**2 + zt * (e - ea) * np.sin(ph)) + i4
    M[4, 4] = m4 * (zt**2 + 2 * zt * (e - ea) * np.sin(ph) + (e - ea)**2) + m5 * (ta**2 + tb**2) + i4 + i5
    M[5, 5] = m6 * (zf - fa)**2 + i6
    M[6, 5] = m6 * ((zf - fa)**2 - u * (zf - fa) * np.sin(om)) + i6
    M[6, 6] = m6 * ((zf - fa)**2 - 2 * u * (zf - fa) * np.sin(om) + u**2) + m7 * (ua**2 + ub**2) + i6 + i7
    M = np.tril(M) + np.tril(M, -1).T
    xd = sd * np.cos(ga) + sc * np.sin(ga) + xb
    yd = sd * np.sin(ga) - sc * np.cos(ga) + yb
    L = np.hypot(xd - xc, yd - yc)
    force = -c0 * (L - l0) / L
    fx, fy = force * (xd - xc), force * (yd - yc)
    f = np.array([
        mom - m2 * da * rr * thp * (thp + 2 * bep) * np.sin(th),
        m2 * da * rr * bep**2 * np.sin(th),
        fx * (sc * np.cos(ga) - sd * np.sin(ga)) + fy * (sd * np.cos(ga) + sc * np.sin(ga)),
        m4 * zt * (e - ea) * dep**2 * np.cos(ph),
        -m4 * zt * (e - ea) * php * (php + 2 * dep) * np.cos(ph),
        -m6 * u * (zf - fa) * epp**2 * np.cos(om),
        m6 * u * (zf - fa) * omp * (omp + 2 * epp) * np.cos(om)])
    return M, f


def rhs(_t, y):
    q, v = y[:7], y[7:]
    M, f = mass_and_forces(q, v)
    _g, G, bias = constraints(q, v)
    K = np.block([[M, G.T], [G, np.zeros((6, 6))]])
    # test set: M q'' = f - Gᵀ λ; G q'' + bias = 0
    sol = np.linalg.solve(K, np.concatenate([f, -bias]))
    return np.concatenate([v, sol[:7]])


def project(y):
    q, v = y[:7].copy(), y[7:].copy()
    for _ in range(20):
        g, G, _b = constraints(q, v)
        q -= np.linalg.lstsq(G, g, rcond=None)[0]
        if np.max(np.abs(g)) < 1e-16:
            break
    _g, G, _b = constraints(q, v)
    v -= G.T @ np.linalg.solve(G @ G.T, G @ v)
    return np.concatenate([q, v])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtol", type=float, default=1e-13)
    parser.add_argument("--intervals", type=int, default=30, help="projections at t = k 0.03 / N")
    args = parser.parse_args()
    y = np.concatenate([Q0, np.zeros(7)])
    times = np.linspace(0.0, 0.03, args.intervals + 1)
    for t0, t1 in zip(times[:-1], times[1:]):
        sol = solve_ivp(rhs, (t0, t1), y, method="DOP853", rtol=args.rtol, atol=args.rtol)
        y = project(sol.y[:, -1])
    a0 = rhs(0.0, np.concatenate([Q0, np.zeros(7)]))[7:9]
    print(f"q''(0): beta {a0[0]:.10f}, theta {a0[1]:.10f} (test set 14222.4439199541, -10666.8329399656)")
    print("angle       this script         test set SOLN       difference")
    for name, mine, ref in zip(NAMES, y[:7], SOLN):
        print(f"{name:8s} {mine:20.14f} {ref:20.14f} {mine - ref:12.3e}")


if __name__ == "__main__":
    main()
