#!/usr/bin/env bash
# The 3UPS-UPU-S mechanism of screw-kinematics-3UPS-UPU-S §6
# (examples/models/ups_3ups_upu_s.yaml): ω_x = 0.2 sin t and ω_y = 0.1 cos t prescribed
# (the other twist components follow from the closure), 0–10 s every 1 ms, by the
# momentum-screw method, without and with the external load at P (1 kN along z, 1 kN·m
# about x). Writes out/3ups_upu_s/no_load.csv, load.csv (every joint coordinate, body
# kinematics, joint wrenches, internal forces), newton_euler_load.csv (the other method,
# for the agreement), and the plots: table2.txt (joint values at t = 0 against Table 2),
# joint_displacements.png (Fig. 6), joint_velocities.png (Fig. 7),
# lower_leg_accelerations.png (Fig. 8), upper_leg_accelerations.png (Fig. 9),
# leg_angular_velocities.png (Fig. 10), driving_forces.png (Fig. 11), summary.txt.
# Builds the tool in build/ if needed. Plots need Debian's matplotlib: /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh plots >/dev/null  # matplotlib for the plots (a no-op when present)
build=${MECHDYN_BUILD_DIR:-build}
if [ ! -x "$build/apps/mechdyn/mechdyn" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target mechdyn_cli
fi
mechdyn="$build/apps/mechdyn/mechdyn"
model=examples/models/ups_3ups_upu_s.yaml
out=out/3ups_upu_s
motion='platform=wx=0.2*sin(t), wy=0.1*cos(t)'
load='platform=0,0,1000,1000,0,0@0,0,0.5196152422706632'  # at P = (0, 0, 3√3/10), platform frame
mkdir -p "$out"
common=(--motion-expr "$motion" --duration 10 --step 0.001 --joint-kinematics --body-kinematics --joint-wrenches
        --internal-forces)
"$mechdyn" invdyn "$model" "${common[@]}" --output "$out/no_load.csv"
"$mechdyn" invdyn "$model" "${common[@]}" --wrench "$load" --output "$out/load.csv"
"$mechdyn" invdyn "$model" --motion-expr "$motion" --duration 10 --step 0.01 --wrench "$load" --method newton-euler \
  --output "$out/newton_euler_load.csv"
/usr/bin/python3 scripts/plot_3ups_upu_s.py "$out"
ls "$out"
