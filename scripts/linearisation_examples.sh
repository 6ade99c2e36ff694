#!/usr/bin/env bash
# Linearisation case studies (issue 27; docs/linearisation.md, docs/benchmarks.md
# "Linearisation: case studies"): `mechdyn static`, `modes` and `linearize` on
#   IFToMM four-bar with a diagonal spring  examples/models/iftomm_four_bar_spring.yaml:
#                                 equilibrium vs the published phi, eigenvalues vs the energy
#                                 method (scripts/linearisation_reference.py)
#   pendulum on a spring          examples/models/elastic_pendulum.yaml: closed form, at rest and
#                                 moving (A with the centripetal and Coriolis terms)
#   2-link arm under PD servos    examples/models/servo_arm.yaml: closed-loop poles, A and B vs
#                                 the textbook 2-link M(q), G(q)
#   A01 pendulum                  A = [[0, 1], [-g/l, 0]] hanging
#   rigid 3-RRRU                  examples/models/rrru_3_rigid.yaml: no mode with the actuators
#                                 locked (a structure); hanging with them free; beside the
#                                 flexible model's lowest modes and the paper's Table 3
# The checks are tests/benchmark_problems/check_linearisation.py (also ctest
# benchmark_linearisation); this script runs them, prints the table (mechdyn, reference,
# error), writes out/linearisation/linearisation.csv, the JSON of each run and the mode-shape
# PNGs (scripts/plot_mode_shapes.py).
#
#   bash scripts/linearisation_examples.sh [BUILD_DIR]   (default build; the tool is
#                                                         BUILD_DIR/apps/mechdyn/mechdyn)
# Needs /usr/bin/python3 with numpy; the plots Debian's matplotlib (scripts/install-deps.sh plots).
set -euo pipefail
cd "$(dirname "$0")/.."

build=${1:-build}
out=out/linearisation
mechdyn="$build/apps/mechdyn/mechdyn"
if [ ! -x "$mechdyn" ]; then
  echo "linearisation_examples.sh: no mechdyn at '$mechdyn' (build: cmake --build $build --target mechdyn_cli)" >&2
  exit 2
fi
mkdir -p "$out"

echo "== checks against references computed without mechdyn (scripts/linearisation_reference.py)"
status=0
/usr/bin/python3 tests/benchmark_problems/check_linearisation.py "$mechdyn" . "$out" || status=$?

echo
echo "== runs for the mode-shape plots ($out/*_static.json, *_modes.json)"
json() {  # NAME COMMAND MODEL ARGS...
  local name=$1; shift
  "$mechdyn" "$@" --json > "$out/$name.json"
}
json four_bar_spring_static static examples/models/iftomm_four_bar_spring.yaml --locked none
json four_bar_spring_modes modes examples/models/iftomm_four_bar_spring.yaml --locked none
json elastic_pendulum_static static examples/models/elastic_pendulum.yaml
json elastic_pendulum_modes modes examples/models/elastic_pendulum.yaml
json servo_arm_static static examples/models/servo_arm.yaml --locked none --t 0
json servo_arm_modes modes examples/models/servo_arm.yaml --locked none --t 0
json rrru_hanging_static static examples/models/rrru_3_rigid.yaml --locked none --q A1=0.5,A2=0.5,A3=0.5
json rrru_hanging_modes modes examples/models/rrru_3_rigid.yaml --locked none --q A1=0.5,A2=0.5,A3=0.5
json rrru_locked_modes modes examples/models/rrru_3_rigid.yaml --locked actuated
json rrru_flexible_modes modes examples/models/rrru_3_flexible.yaml --locked actuated

echo
echo "== 3-RRRU: lowest natural frequencies (Hz), actuators locked unless said"
/usr/bin/python3 - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
def load(name):
    with open(os.path.join(out, name + ".json")) as f:
        return json.load(f)
rigid, flexible, hanging = load("rrru_locked_modes"), load("rrru_flexible_modes"), load("rrru_hanging_modes")
rows = [
    ("mechdyn, rigid (rrru_3_rigid.yaml)", "none: %d free joints, %d modes" % (len(rigid["free"]), len(rigid["frequencies"]))),
    ("mechdyn, flexible (rrru_3_flexible.yaml)", ", ".join("%.4g" % f for f in flexible["frequencies"][:6])),
    ("paper Table 3 (ADAMS FE model, orders 7-12)", "2.21e-05, 0.002, 1.496, 2.484, 12.276, 17.799"),
    ("mechdyn, rigid, actuators free, hanging", ", ".join("%.4g" % f for f in hanging["frequencies"])),
]
for name, value in rows:
    print("  %-46s %s" % (name, value))
with open(os.path.join(out, "rrru_frequencies.csv"), "w") as f:
    f.write("model,frequencies_hz\n")
    for name, value in rows:
        f.write('"%s","%s"\n' % (name, value))
EOF

echo
echo "== mode shapes"
if /usr/bin/python3 -c 'import matplotlib' 2> /dev/null; then
  /usr/bin/python3 scripts/plot_mode_shapes.py "$out"
else
  echo "(python3-matplotlib not installed: no plots; scripts/install-deps.sh plots)"
fi
exit $status
