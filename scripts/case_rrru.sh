#!/usr/bin/env bash
# The 3-RRRU robot with flexible links (issue 11 item 5; papers/rigid-flexible-3RRRU-ffr.txt
# §4–5; examples/models/rrru_3_flexible.yaml and its rigid twin rrru_3_rigid.yaml), the
# circle of eq. (71): r = 0.1 m, z = −0.7 m, ω = 2 rad/s, 5 s at 1 ms. Writes to out/rrru/:
#  (a) rigid_ik.csv — rigid inverse kinematics and actuator torques along the circle
#      (mechdyn invdyn on the rigid robot, all joints' q, v, a);
#  (b) driven_4.csv, driven_1.csv — the flexible robot (4 and 1 elements per link) with the
#      actuators following the rigid inverse kinematics (position-driven): elastic deviation
#      of the end effector from the rigid robot, actuator torques (flexible and rigid);
#      driven_4_damped.csv — the same with 2 % damping at the lowest mode;
#  (c) torques.csv — the flexible robot driven by the rigid open-loop torques of (a), the
#      rigid robot alongside under the same torques (the run stops at 4.7 s: the flexible
#      robot has drifted off and folds at 4.75 s, docs/flexible-bodies.md);
#  (d) modes_locked.json, modes_free.json — constrained natural frequencies, actuators
#      locked and free (mechdyn modes), and static.json (the sag under gravity);
# and the plots rrru_*.png (scripts/plot_rrru.py). Results and their reading:
# docs/flexible-bodies.md "The 3-RRRU case study". Builds the tool in build/ if needed.
# Plots need Debian's matplotlib: /usr/bin/python3 (scripts/install-deps.sh test).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh plots >/dev/null  # matplotlib for the plots (a no-op when present)
build=${MECHDYN_BUILD_DIR:-build}
if [ ! -x "$build/apps/mechdyn/mechdyn" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j"$(nproc 2>/dev/null || echo 2)" --target mechdyn_cli
fi
mechdyn="$build/apps/mechdyn/mechdyn"
out=out/rrru
mkdir -p "$out"
flexible=examples/models/rrru_3_flexible.yaml
# (a) the platform frame origin is P1, 0.1 m from the centre along x: px = centre + 0.1
"$mechdyn" invdyn examples/models/rrru_3_rigid.yaml --duration 5 --step 0.001 --joint-kinematics \
  --motion-expr 'platform=px=0.1*cos(2*t)+0.1, py=0.1*sin(2*t), pz=-0.7' --output "$out/rigid_ik.csv"
# (b) position-driven, 4 and 1 elements per flexible link
"$mechdyn" simulate "$flexible" --mode inverse --motion-table "$out/rigid_ik.csv" --duration 5 --step 0.001 \
  --output "$out/driven_4.csv"
sed 's/elements: 4/elements: 1/' "$flexible" > "$out/rrru_3_flexible_1.yaml"
"$mechdyn" simulate "$out/rrru_3_flexible_1.yaml" --mode inverse --motion-table "$out/rigid_ik.csv" --duration 5 \
  --step 0.001 --output "$out/driven_1.csv"
# (b') the same with 2 % stiffness-proportional Rayleigh damping at the lowest mode (β = 2ζ/ω =
# 0.04/(2π · 21.2 Hz) = 3.0e-4 s): the free vibration started by the undeformed release dies
# out, the forced (quasi-static) deviation stays
sed 's/poisson_ratio: 0.3}/poisson_ratio: 0.3}\n      damping: {mass: 0, stiffness: 3.0e-4}/' "$flexible" > "$out/rrru_3_flexible_damped.yaml"
"$mechdyn" simulate "$out/rrru_3_flexible_damped.yaml" --mode inverse --motion-table "$out/rigid_ik.csv" \
  --duration 5 --step 0.001 --output "$out/driven_4_damped.csv"
# (c) open-loop rigid torques; start on the circle with its velocity (the actuated joints'
# velocities at t = 0 from (a); the passive ones are assembled from them)
v0=$(/usr/bin/python3 - "$out/rigid_ik.csv" <<'PY'
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
names = ["A1", "B1", "C1", "P1_1", "P1_2", "A2", "B2", "C2", "A3", "B3", "C3"]
print(",".join(row["v_%s_rad_per_s" % n] for n in names))
PY
)
"$mechdyn" simulate "$flexible" --tau-table "$out/rigid_ik.csv" --v0 "$v0" --duration 4.7 --step 0.001 \
  --output "$out/torques.csv"
# (d) frequencies and statics
"$mechdyn" modes "$flexible" --json > "$out/modes_locked.json"
"$mechdyn" modes "$flexible" --locked none --json > "$out/modes_free.json"
"$mechdyn" static "$flexible" --json > "$out/static.json"
/usr/bin/python3 scripts/plot_rrru.py "$out"
ls "$out"
