#!/usr/bin/env bash
# The three-loop closed-chain mechanism of explicit-canonical-dynamics-joint-friction
# §5.2 (examples/models/three_loop_mechanism.yaml): joint 1'' driven at 0.1 rad/s for
# 10 s, closed-chain inverse dynamics. Writes out/three_loop/three_loop.csv (everything),
# passive_angles.{csv,png} (Fig. 17), cut_joint_forces.{csv,png} (Fig. 18) and
# active_joint.{csv,png} (Fig. 19), and the 3D page view/index.html (docs/viewer.md).
# Builds the tool in build/ if needed.
# Plots need Debian's matplotlib: /usr/bin/python3 (scripts/install-deps.sh test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh plots >/dev/null  # matplotlib for the plots (a no-op when present)
build=${MECHDYN_BUILD_DIR:-build}
if [ ! -x "$build/apps/mechdyn/mechdyn" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target mechdyn_cli
fi
mkdir -p out/three_loop
"$build/apps/mechdyn/mechdyn" simulate examples/models/three_loop_mechanism.yaml --mode inverse \
  --velocities 0.1 --duration 10 --step 0.01 --output out/three_loop/three_loop.csv
/usr/bin/python3 scripts/plot_three_loop.py out/three_loop/three_loop.csv out/three_loop
"$build/apps/mechdyn/mechdyn" view examples/models/three_loop_mechanism.yaml out/three_loop/three_loop.csv \
  -o out/three_loop/view   # the 3D page (docs/viewer.md): open out/three_loop/view/index.html
ls out/three_loop
