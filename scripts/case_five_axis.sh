#!/usr/bin/env bash
# The five-axis case study of explicit-canonical-dynamics-joint-friction §5.1 (Table 2;
# Figs. 13–15): every joint driven at 0.2 rad/s² from rest for 5 s, inverse dynamics
# with RK4 at 1 ms, once without friction, once with Coulomb–viscous friction (eq. 42)
# and once with Stribeck friction (eq. 52), both with load-dependent normal loads
# (joint geometry of examples/models/five_axis_tree_stribeck.yaml). Writes
# out/five_axis/{no_friction,coulomb_viscous,stribeck}.csv and draws
# out/five_axis/{constraint_torques,constraint_forces,driving_torques}.png, and the 3D page
# of the Stribeck run, out/five_axis/view/index.html (docs/viewer.md).
#
# Usage: scripts/case_five_axis.sh [BUILD_DIR]   (default: build; the mechdyn binary
# is BUILD_DIR/apps/mechdyn/mechdyn). Plots need matplotlib of Debian's /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh plots >/dev/null  # matplotlib for the plots (a no-op when present)
build=${1:-build}
mechdyn="$build/apps/mechdyn/mechdyn"
[ -x "$mechdyn" ] || { echo "case_five_axis: $mechdyn not found; build first (cmake --build $build)" >&2; exit 2; }
out=out/five_axis
mkdir -p "$out"
scenario=examples/scenarios/five_axis_constant_accel.yaml
"$mechdyn" simulate --scenario "$scenario" examples/models/five_axis_tree.yaml --joint-loads --output "$out/no_friction.csv"
"$mechdyn" simulate --scenario "$scenario" examples/models/five_axis_tree_coulomb_viscous.yaml --output "$out/coulomb_viscous.csv"
"$mechdyn" simulate --scenario "$scenario" examples/models/five_axis_tree_stribeck.yaml --output "$out/stribeck.csv"
/usr/bin/python3 scripts/plot_five_axis.py "$out"
"$mechdyn" view examples/models/five_axis_tree_stribeck.yaml "$out/stribeck.csv" -o "$out/view"
