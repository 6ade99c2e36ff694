#!/usr/bin/env python3
"""The N-four-bar (IFToMM benchmark A02) in MuJoCo: an MJCF with the loops closed by
`equality connect` constraints, the time of MuJoCo's step on it, and its error against the
exact one-degree-of-freedom reference (scripts/n_four_bar_reference.py).

    python3 scripts/mujoco_n_four_bar.py [N] [--duration T] [--timestep H] [--integrator Euler|RK4]
                                         [--solref TIMECONST] [--mjcf OUT.xml]

Debian 12's Python has no `mujoco` module (no python3-mujoco package; the project's
install-deps.sh brings the C library libmujoco-dev only), so the step is timed in C: this
script writes the MJCF and a small C driver, compiles the driver against libmujoco with
`cc`, runs it, and reads crank_0's angle at every step from it. The time printed is the
wall-clock time of the mj_step loop alone (no I/O), divided by the number of steps.

The model is the one of scripts/generate_n_four_bar.py: crank i a hinge about z at
[i, 0, 0] (along +y at qpos = 0), coupler i a hinge child of crank i at its tip (along +x),
an equality connect of coupler i's far end [1, 0, 0] to crank i+1 (the point on crank i+1
is MuJoCo's: where the anchor lies at qpos0, its tip); 1 kg, 1 m slender rods
(I = 1/12 kg m^2 across, 1e-6 along the rod: MuJoCo needs a positive inertia), gravity
9.81 along -y, qvel = -1 on cranks and +1 on couplers (B0 starts at +1 m/s along x).
MuJoCo's equality constraints are soft (solref: time constant, damping ratio 1); the
default time constant is 0.02 s. Bad input: one line, exit status 2.
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import n_four_bar_reference  # noqa: E402  (the independent 1-DOF reference)

ROD_INERTIA = 1.0 / 12.0

DRIVER = r"""
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int argc, char** argv) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(argv[1], NULL, error, sizeof error);
  if (!m) { fprintf(stderr, "%s\n", error); return 2; }
  long steps = atol(argv[2]);
  mjData* d = mj_makeData(m);
  for (int i = 0; i < m->nv; ++i) d->qvel[i] = argv[3][i] == '-' ? -1.0 : 1.0;
  double* crank = malloc(sizeof(double) * (steps + 1) * 2);
  int last_crank = m->nq - 1;
  crank[0] = d->qpos[0]; crank[1] = d->qpos[last_crank];
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long k = 1; k <= steps; ++k) {
    mj_step(m, d);
    crank[2 * k] = d->qpos[0];
    crank[2 * k + 1] = d->qpos[last_crank];
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  for (int w = 0; w < mjNWARNING; ++w)
    if (d->warning[w].number > 0) {
      fprintf(stderr, "MuJoCo warning %d raised %d times (e.g. the constraint buffer is full)\n",
              w, d->warning[w].number);
      return 3;
    }
  double seconds = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
  printf("us_per_step %.6f\n", 1e6 * seconds / steps);
  for (long k = 0; k <= steps; ++k) printf("%.17g %.17g\n", crank[2 * k], crank[2 * k + 1]);
  mj_deleteData(d); mj_deleteModel(m); free(crank);
  return 0;
}
"""


def fail(message):
    print(f"mujoco_n_four_bar.py: {message}", file=sys.stderr)
    sys.exit(2)


def mjcf(n, timestep, integrator, solref):
    lines = [f'<mujoco model="n_four_bar_{n}">',
             f'  <option gravity="0 -9.81 0" timestep="{timestep!r}" integrator="{integrator}"/>',
             # room for the 3 rows of every connect (the default buffer is too small at N = 40)
             f'  <size njmax="{max(500, 10 * 3 * n)}"/>',
             "  <worldbody>"]
    inertia_crank = f"{ROD_INERTIA!r} 1e-06 {ROD_INERTIA!r}"
    inertia_coupler = f"1e-06 {ROD_INERTIA!r} {ROD_INERTIA!r}"
    for i in range(n + 1):
        lines += [f'    <body name="crank_{i}" pos="{i} 0 0">',
                  f'      <joint name="crank_{i}" type="hinge" axis="0 0 1"/>',
                  f'      <inertial pos="0 0.5 0" mass="1" diaginertia="{inertia_crank}"/>']
        if i < n:
            lines += [f'      <body name="coupler_{i}" pos="0 1 0">',
                      f'        <joint name="coupler_{i}" type="hinge" axis="0 0 1"/>',
                      f'        <inertial pos="0.5 0 0" mass="1" diaginertia="{inertia_coupler}"/>',
                      "      </body>"]
        lines.append("    </body>")
    lines += ["  </worldbody>", "  <equality>"]
    ref = f' solref="{solref!r} 1"' if solref else ""
    for i in range(n):
        lines.append(f'    <connect body1="coupler_{i}" body2="crank_{i + 1}" anchor="1 0 0"{ref}/>')
    lines += ["  </equality>", "</mujoco>"]
    return "\n".join(lines) + "\n"


def main(argv):
    n, duration, timestep, integrator, solref, out_mjcf = 2, 10.0, 1e-3, "RK4", None, None
    args = argv[1:]
    positional = []
    i = 0
    while i < len(args):
        key = args[i]
        if key in ("--duration", "--timestep", "--integrator", "--solref", "--mjcf"):
            if i + 1 >= len(args):
                fail(f"{key} needs a value")
            value = args[i + 1]
            if key == "--integrator":
                if value not in ("Euler", "RK4"):
                    fail(f"--integrator must be Euler or RK4, got '{value}'")
                integrator = value
            elif key == "--mjcf":
                out_mjcf = value
            else:
                try:
                    number = float(value)
                except ValueError:
                    fail(f"{key} must be a number, got '{value}'")
                if not (number > 0 and math.isfinite(number)):
                    fail(f"{key} must be > 0, got {value}")
                if key == "--duration":
                    duration = number
                elif key == "--timestep":
                    timestep = number
                else:
                    solref = number
            i += 2
        else:
            positional.append(key)
            i += 1
    if len(positional) > 1:
        fail("usage: mujoco_n_four_bar.py [N] [--duration T] [--timestep H] [--integrator Euler|RK4] "
             "[--solref TIMECONST] [--mjcf OUT.xml]")
    if positional:
        try:
            n = int(positional[0])
        except ValueError:
            fail(f"N must be a whole number >= 1, got '{positional[0]}'")
        if n < 1:
            fail(f"N must be a whole number >= 1, got {n}")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not compiler:
        fail("no C compiler (cc) to build the MuJoCo driver")
    if not os.path.exists("/usr/include/mujoco/mujoco.h"):
        fail("MuJoCo's C library is missing: bash scripts/install-deps.sh (libmujoco-dev)")
    text = mjcf(n, timestep, integrator, solref)
    steps = int(round(duration / timestep))
    with tempfile.TemporaryDirectory() as work:
        model = os.path.join(work, "n_four_bar.xml")
        with open(model, "w", encoding="utf-8") as stream:
            stream.write(text)
        if out_mjcf:
            try:
                with open(out_mjcf, "w", encoding="utf-8") as stream:
                    stream.write(text)
            except OSError as error:
                fail(f"cannot write '{out_mjcf}': {error.strerror}")
        source = os.path.join(work, "driver.c")
        with open(source, "w", encoding="utf-8") as stream:
            stream.write(DRIVER)
        binary = os.path.join(work, "driver")
        build = subprocess.run([compiler, "-O2", "-o", binary, source, "-lmujoco"],
                               capture_output=True, text=True)
        if build.returncode != 0:
            fail(f"building the MuJoCo driver failed: {build.stderr.strip().splitlines()[-1]}")
        signs = "".join("-" if name.startswith("crank") else "+"
                        for i in range(n) for name in ("crank", "coupler")) + "-"
        # cwd: MuJoCo writes MUJOCO_LOG.TXT into the working directory on a warning
        result = subprocess.run([binary, model, str(steps), signs], capture_output=True, text=True,
                                cwd=work)
        if result.returncode != 0:
            fail(f"MuJoCo: {result.stderr.strip()}")
    lines = result.stdout.splitlines()
    us_per_step = float(lines[0].split()[1])
    values = [tuple(float(x) for x in line.split()) for line in lines[1:]]
    reference = n_four_bar_reference.integrate(n, steps * timestep, timestep, 20)
    worst, worst_t, spread = 0.0, 0.0, 0.0
    for k, ((q0, qn), (t, theta, _)) in enumerate(zip(values, reference)):
        error = max(abs(-math.sin(q0) - math.cos(theta)), abs(math.cos(q0) - math.sin(theta)))
        if error > worst:
            worst, worst_t = error, t
        spread = max(spread, abs(qn - q0))
    print(f"MuJoCo {integrator}, timestep {timestep:g} s, solref {solref or 0.02:g} s, N = {n}, "
          f"{steps * timestep:g} s: {us_per_step:.2f} us per step; max |B0 - 1-DOF reference| = "
          f"{worst:.3e} m (t = {worst_t:g} s); max |q_crank_N - q_crank_0| = {spread:.3e} rad")


if __name__ == "__main__":
    main(sys.argv)
