#!/usr/bin/env python3
"""ctest benchmark_linearisation: the linearisation case studies (issue 27; docs/linearisation.md,
docs/benchmarks.md "Linearisation: case studies") through the CLI's `static`, `modes` and
`linearize` against references computed without mechdyn (scripts/linearisation_reference.py).

    python3 check_linearisation.py MECHDYN_CLI SOURCE_DIR WORK_DIR

Writes WORK_DIR/linearisation.csv (case, quantity, mechdyn, reference, relative error,
tolerance, pass) and prints the table. Cases and why each tolerance:
  four_bar_spring (IFToMM four-bar with a diagonal spring): the equilibrium from a start
    30 deg away against our energy-method equilibrium (1e-9 rad: Newton's tolerance) and
    the published phi = 2.23433101898 rad (1e-10 rad: its 12 digits); the damped
    eigenvalues of `modes --locked none` and of `linearize`'s A against the energy method's
    (1e-8 relative: its five-point differences of V are good to ~1e-9).
  elastic_pendulum: equilibrium r* = r0 + m g / k, the two frequencies, the damping ratio
    and the four eigenvalues against the closed form (1e-9 relative; mechdyn's derivatives
    are analytical here: round-off only), and A at a moving state (theta' != 0, r' != 0:
    centripetal and Coriolis terms) against the hand-derived partial derivatives (1e-9 of
    the largest entry).
  servo_arm (2-link arm, PD joint servos, gravity, armature, at t = 0): the equilibrium
    sag, the closed-loop poles, the undamped frequencies and A and B (inputs: the servos'
    targets, B = [0; M^-1 Kp]) against the textbook 2-link M(q), G(q) (1e-9 relative).
  a01_pendulum (point mass on a 1 m massless link, hanging): A = [[0, 1], [-g/l, 0]],
    B = [0; 1/(m l^2)] exactly (1e-12).
  rrru_3_rigid: with the actuators locked the rigid 3-RRRU has no free coordinate (mobility
    3, three locked): `modes` must report no mode and no free joint; with them free, the
    equilibrium hanging from the start A1 = A2 = A3 = 0.5 rad must be stable (reported,
    no reference).
Bugs they catch: a wrong sign or a missing term in the closed chain's tangent stiffness
(the spring's geometric term, the closure curvature), a damping matrix left out of the
first-order model, a servo's kp or kd on the wrong side, the armature missing from M,
Coriolis terms missing from A at v != 0, a wrong B scaling, a shifted-step Newton that stops
at a non-equilibrium. Needs numpy; exit status 0 pass, 1 fail, 2 bad input, 77 numpy
missing (skipped).
"""
import csv
import json
import math
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:  # pragma: no cover
    print("numpy is not installed: skipped")
    sys.exit(77)


def cli_json(cli, *args):
    command = [cli, *args, "--json"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")
    return json.loads(result.stdout)


def complex_list(pairs):
    return sorted((complex(re, im) for re, im in pairs), key=lambda z: (abs(z.imag), z.real, z.imag))


def by_order(values):
    return sorted(values, key=lambda z: (abs(z.imag), z.real, z.imag))


class Table:
    def __init__(self):
        self.rows = []

    def add(self, case, quantity, value, reference, tolerance, relative=True, source="closed form"):
        value_c, ref_c = complex(value), complex(reference)
        error = abs(value_c - ref_c)
        if relative:
            error /= max(abs(ref_c), 1e-300)
        ok = error <= tolerance
        self.rows.append([case, quantity, _fmt(value), _fmt(reference), f"{error:.2e}", f"{tolerance:.0e}",
                          "relative" if relative else "absolute", source, "pass" if ok else "FAIL"])
        return ok

    def note(self, case, quantity, value, source):
        self.rows.append([case, quantity, _fmt(value), "", "", "", "", source, "reported"])

    def failures(self):
        return [r for r in self.rows if r[-1] == "FAIL"]


def _fmt(x):
    if isinstance(x, str):
        return x
    x = complex(x)
    if x.imag == 0:
        return f"{x.real:.12g}"
    return f"{x.real:.12g}{x.imag:+.12g}i"


def four_bar(cli, source, table, ref_module):
    ref = ref_module.four_bar_spring()
    model = os.path.join(source, "examples/models/iftomm_four_bar_spring.yaml")
    # q = 0 is the model's own phi0 (the crank's direction in the model file: its reading)
    phi0 = math.atan2(0.7878201215461703, -0.6159053954033668)
    st = cli_json(cli, "static", model, "--locked", "none", "--q", "crank=0.5236")
    phi = phi0 + st["q"][0]
    case = "four_bar_spring"
    table.add(case, "equilibrium phi (rad)", phi, ref["phi"], 1e-9, relative=False, source="energy method")
    table.add(case, "equilibrium phi (rad)", phi, ref["published_phi"], 1e-10, relative=False,
              source="IFToMM benchmark (EoM input)")
    table.add(case, "stable", float(st["stable"]), 1.0, 0, relative=False, source="energy method")
    modes = cli_json(cli, "modes", model, "--locked", "none")
    table.add(case, "undamped frequency (Hz)", modes["frequencies"][0], ref["frequency_hz"], 1e-8, source="energy method")
    damping_ratio = -ref["eigenvalues"][1].real / abs(ref["eigenvalues"][1])
    table.add(case, "damping ratio", modes["damped"][0]["damping_ratio"], damping_ratio, 1e-8, source="energy method")
    for k, (got, want) in enumerate(zip(complex_list(modes["eigenvalues"]), ref["eigenvalues"])):
        table.add(case, f"modes eigenvalue {k + 1} (1/s)", got, want, 1e-8, source="energy method")
    lin = cli_json(cli, "linearize", model, "--q", "0,0,0", "--v", "0,0,0")
    eig = by_order(np.linalg.eigvals(np.array(lin["A"])))
    for k, (got, want) in enumerate(zip(eig, ref["eigenvalues"])):
        table.add(case, f"linearize eig(A) {k + 1} (1/s)", got, want, 1e-8, source="energy method")
    table.add(case, "B (1/(kg m^2))", lin["B"][1][0], 1.0 / ref["inertia"], 1e-8, source="energy method")


def elastic_pendulum(cli, source, table, ref_module):
    ref = ref_module.elastic_pendulum()
    model = os.path.join(source, "examples/models/elastic_pendulum.yaml")
    case = "elastic_pendulum"
    st = cli_json(cli, "static", model)
    table.add(case, "equilibrium theta (rad)", st["q"][0], 0.0, 1e-12, relative=False)
    table.add(case, "equilibrium r (m)", st["q"][1], ref["r"], 1e-12)
    modes = cli_json(cli, "modes", model)
    for k, (got, want) in enumerate(zip(modes["frequencies"], ref["frequencies_hz"])):
        table.add(case, f"undamped frequency {k + 1} (Hz)", got, want, 1e-9)
    radial = max(modes["damped"], key=lambda d: d["frequency"])
    table.add(case, "radial damping ratio", radial["damping_ratio"], ref["damping_ratio"], 1e-9)
    for k, (got, want) in enumerate(zip(complex_list(modes["eigenvalues"]), ref["eigenvalues"])):
        table.add(case, f"modes eigenvalue {k + 1} (1/s)", got, want, 1e-9, relative=True)
    # a moving state: A against the hand-derived partials
    theta, r, theta_dot, r_dot = 0.3, 1.05, 0.7, -0.2
    lin = cli_json(cli, "linearize", model, "--q", f"{theta},{r}", "--v", f"{theta_dot},{r_dot}")
    a = np.array(lin["A"])
    a_ref = ref_module.elastic_pendulum_state_matrix(theta, r, theta_dot, r_dot)
    scale = np.max(np.abs(a_ref))
    table.add(case, "A at a moving state: max |A - A_ref| / max|A_ref|", np.max(np.abs(a - a_ref)) / scale, 0.0, 1e-9,
              relative=False, source="hand-derived partials")


def servo_arm(cli, source, table, ref_module):
    ref = ref_module.servo_arm()
    model = os.path.join(source, "examples/models/servo_arm.yaml")
    case = "servo_arm"
    modes = cli_json(cli, "modes", model, "--locked", "none", "--t", "0")
    for k in range(2):
        table.add(case, f"equilibrium q{k + 1} (rad)", modes["q"][k], ref["q"][k], 1e-9, source="2-link closed form")
    for k, (got, want) in enumerate(zip(modes["frequencies"], ref["frequencies_hz"])):
        table.add(case, f"undamped frequency {k + 1} (Hz)", got, want, 1e-9, source="2-link closed form")
    for k, (got, want) in enumerate(zip(complex_list(modes["eigenvalues"]), ref["eigenvalues"])):
        table.add(case, f"closed-loop pole {k + 1} (1/s)", got, want, 1e-9, source="2-link closed form")
    q = ",".join(repr(float(x)) for x in ref["q"])
    lin = cli_json(cli, "linearize", model, "--q", q, "--v", "0,0", "--inputs",
                   "target_servo_shoulder,target_servo_elbow")
    a, b = np.array(lin["A"]), np.array(lin["B"])
    table.add(case, "A: max |A - A_ref| / max|A_ref|", np.max(np.abs(a - ref["A"])) / np.max(np.abs(ref["A"])), 0.0,
              1e-9, relative=False, source="2-link closed form")
    table.add(case, "B (targets): max |B - B_ref| / max|B_ref|",
              np.max(np.abs(b - ref["B_targets"])) / np.max(np.abs(ref["B_targets"])), 0.0, 1e-9, relative=False,
              source="2-link closed form")


def a01_pendulum(cli, source, table):
    model = os.path.join(source, "examples/models/iftomm_a01_pendulum.yaml")
    case = "a01_pendulum"
    lin = cli_json(cli, "linearize", model, "--q", repr(-math.pi / 2), "--v", "0")
    a, b = np.array(lin["A"]), np.array(lin["B"])
    a_ref, b_ref = np.array([[0.0, 1.0], [-9.81, 0.0]]), np.array([[0.0], [1.0]])
    table.add(case, "A: max |A - [[0,1],[-g/l,0]]|", np.max(np.abs(a - a_ref)), 0.0, 1e-12, relative=False)
    table.add(case, "B: max |B - [0; 1/(m l^2)]|", np.max(np.abs(b - b_ref)), 0.0, 1e-12, relative=False)


def rrru(cli, source, table):
    model = os.path.join(source, "examples/models/rrru_3_rigid.yaml")
    case = "rrru_3_rigid"
    locked = cli_json(cli, "modes", model, "--locked", "actuated")
    table.add(case, "modes, actuators locked: number of modes", len(locked["frequencies"]) + locked["zero_modes"], 0, 0,
              relative=False, source="mobility 3 - 3 locked = 0")
    table.add(case, "modes, actuators locked: free joints", len(locked["free"]), 0, 0, relative=False,
              source="mobility 3 - 3 locked = 0")
    free = cli_json(cli, "modes", model, "--locked", "none", "--q", "A1=0.5,A2=0.5,A3=0.5")
    static = cli_json(cli, "static", model, "--locked", "none", "--q", "A1=0.5,A2=0.5,A3=0.5")
    table.add(case, "hanging (actuators free): stable", float(static["stable"]), 1.0, 0, relative=False,
              source="positive reduced stiffness")
    for k, f in enumerate(free["frequencies"]):
        table.note(case, f"hanging (actuators free): frequency {k + 1} (Hz)", f, "no reference (reported)")


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cli, source, work = argv[1:]
    os.makedirs(work, exist_ok=True)
    sys.path.insert(0, os.path.join(source, "scripts"))
    import linearisation_reference as ref_module

    table = Table()
    four_bar(cli, source, table, ref_module)
    elastic_pendulum(cli, source, table, ref_module)
    servo_arm(cli, source, table, ref_module)
    a01_pendulum(cli, source, table)
    rrru(cli, source, table)
    header = ["case", "quantity", "mechdyn", "reference", "error", "tolerance", "error_kind", "reference_source", "result"]
    with open(os.path.join(work, "linearisation.csv"), "w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(header)
        writer.writerows(table.rows)
    widths = [max(len(str(r[i])) for r in table.rows + [header]) for i in range(len(header))]
    for row in [header] + table.rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip())
    failures = table.failures()
    print(f"{len(table.rows) - len(failures)} of {len(table.rows)} rows pass or are reported; {len(failures)} fail")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
