#!/usr/bin/env bash
# The Schoenflies 2UPS+2UPU manipulator of momentum-screw-schoenflies §4
# (examples/models/schoenflies_2ups_2upu.yaml): the platform trajectory x = 0.5 sin πt,
# y = 0.3 cos 2πt, z = 0.2 sin 3πt + 1, θ = 0.2 sin πt about z, 0–6 s every 1 ms (6001
# samples), written as the contract's CSV with exact derivatives (trajectory.csv); inverse
# dynamics by the momentum-screw method and by Newton–Euler with every joint wrench
# (momentum_screw.csv, newton_euler.csv, all joint wrenches); the same motion as muParser
# expressions (expressions.csv, Ridders' derivatives). Plots: actuator velocities (Fig. 7)
# and driving forces by both methods (Fig. 8), and their difference. Builds the tool in
# build/ if needed. Plots need Debian's matplotlib: /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh plots >/dev/null  # matplotlib for the plots (a no-op when present)
build=${MECHDYN_BUILD_DIR:-build}
if [ ! -x "$build/apps/mechdyn/mechdyn" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target mechdyn_cli
fi
mechdyn="$build/apps/mechdyn/mechdyn"
model=examples/models/schoenflies_2ups_2upu.yaml
out=out/schoenflies
mkdir -p "$out"
/usr/bin/python3 scripts/plot_schoenflies.py --trajectory "$out/trajectory.csv"
"$mechdyn" invdyn "$model" --motion "platform=$out/trajectory.csv" --method momentum-screw --joint-wrenches \
  --output "$out/momentum_screw.csv"
"$mechdyn" invdyn "$model" --motion "platform=$out/trajectory.csv" --method newton-euler --joint-wrenches \
  --output "$out/newton_euler.csv"
"$mechdyn" invdyn "$model" --duration 6 --step 0.001 --output "$out/expressions.csv" \
  --motion-expr 'platform=px=0.5*sin(_pi*t), py=0.3*cos(2*_pi*t), pz=0.2*sin(3*_pi*t)+1, rz=0.2*sin(_pi*t)'
/usr/bin/python3 scripts/plot_schoenflies.py "$out"
ls "$out"
