#!/usr/bin/env bash
# Case studies of the force elements, drives and couplings (model format 3, issue 26
# item 6), run with the mechdyn CLI and compared with published references or closed
# forms (docs/benchmarks.md, "Force elements: case studies"):
#   Andrews' squeezing mechanism   examples/models/andrews_squeezer.yaml (Test Set for IVP
#                                  Solvers `andrews`: the seven angles at t = 0.03 s; and
#                                  scripts/andrews_reference.py, the test set's equations
#                                  solved without mechdyn)
#   four-bar with a diagonal spring examples/models/iftomm_four_bar_spring.yaml (IFToMM:
#                                  equilibrium, and the free vibration against the
#                                  closed-form eigenvalues of the linearisation)
#   stiff flyball governor (A05)   examples/models/iftomm_a05_flyball_governor.yaml
#                                  (angular momentum about the shaft; RK4 vs DOPRI5)
#   servo-driven arm               examples/models/servo_arm.yaml (tracking error) and
#                                  examples/models/servo_step.yaml (closed-form step response)
#   geared two-wheel drive         examples/models/geared_drive.yaml (reflected inertia, gear
#                                  efforts)
# Writes the CSVs, PNGs and summary.txt to out/force_element_problems/ and prints, per run,
# the CPU time of the CLI run and the largest error against the reference.
#
#   bash scripts/force_element_problems.sh [BUILD_DIR]    (default build; the tool is
#                                                          BUILD_DIR/apps/mechdyn/mechdyn)
# Plots need Debian's matplotlib and numpy: /usr/bin/python3 (scripts/install-deps.sh plots); the
# independent Andrews solution also python3-scipy (skipped, with a line saying so, without it).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
script=force_element_problems.sh
out=out/force_element_problems
source scripts/simulate_runs.sh  # checks, matplotlib, run()

echo "Andrews' squeezing mechanism: 0.03 s, DOPRI5 (rtol 1e-10), RK4 (10 us), ALI3-P (1 us)"
andrews=examples/models/andrews_squeezer.yaml
run andrews_dopri5 "$andrews" --integrator dopri5 --rtol 1e-10 --atol 1e-12 --step 1e-4 --duration 0.03 --output "$out/andrews_dopri5.csv"
run andrews_rk4 "$andrews" --integrator rk4 --step 1e-5 --duration 0.03 --every 10 --output "$out/andrews_rk4.csv"
run andrews_ali3p "$andrews" --integrator ali3p --step 1e-6 --duration 0.03 --every 100 --output "$out/andrews_ali3p.csv"
if /usr/bin/python3 -c 'import scipy' 2> /dev/null; then  # the independent solution needs SciPy (python3-scipy)
  /usr/bin/python3 scripts/andrews_reference.py > "$out/andrews_reference.txt"
else
  echo "(python3-scipy not installed: scripts/andrews_reference.py not run)" > "$out/andrews_reference.txt"
fi

echo "IFToMM four-bar with a diagonal spring: 20 s free vibration from crank = 1e-4 rad, RK4 1 ms"
run four_bar_spring examples/models/iftomm_four_bar_spring.yaml --q0 crank=1e-4 --integrator rk4 --step 0.001 \
  --duration 20 --output "$out/four_bar_spring.csv"
# (mechdyn static/modes do not read force elements yet and refuse this model: issue 27.)

echo "IFToMM A05 stiff flyball governor: 10 s, RK4 0.1 ms and DOPRI5 (rtol 1e-10)"
flyball=examples/models/iftomm_a05_flyball_governor.yaml
run flyball_rk4 "$flyball" --v0 shaft=6.283185307179586 --integrator rk4 --step 1e-4 --duration 10 --every 10 \
  --output "$out/flyball_rk4.csv"
run flyball_dopri5 "$flyball" --v0 shaft=6.283185307179586 --integrator dopri5 --rtol 1e-10 --atol 1e-12 --step 1e-3 \
  --duration 10 --output "$out/flyball_dopri5.csv"

echo "servo-driven arm: 6 s, RK4 1 ms (and DOPRI5 rtol 1e-12); servo step: 1 s, RK4 1 ms"
run servo_arm examples/models/servo_arm.yaml --integrator rk4 --step 0.001 --duration 6 --output "$out/servo_arm.csv"
run servo_arm_dopri5 examples/models/servo_arm.yaml --integrator dopri5 --rtol 1e-12 --atol 1e-14 --step 0.001 \
  --duration 6 --output "$out/servo_arm_dopri5.csv"
run servo_step examples/models/servo_step.yaml --integrator rk4 --step 0.001 --duration 1 --output "$out/servo_step.csv"

echo "geared two-wheel drive: tau = 0.13 N m for 2 s, RK4 and ALI3-P 10 ms"
run geared_drive_rk4 examples/models/geared_drive.yaml --tau 0.13 --integrator rk4 --step 0.01 --duration 2 \
  --output "$out/geared_drive_rk4.csv"
run geared_drive_ali3p examples/models/geared_drive.yaml --tau 0.13 --integrator ali3p --step 0.01 --duration 2 \
  --output "$out/geared_drive_ali3p.csv"

/usr/bin/python3 scripts/plot_force_element_problems.py "$out"
ls "$out"/*.png
