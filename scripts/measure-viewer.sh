#!/usr/bin/env bash
# The viewer's speed (docs/viewer.md, "Speed"): a 30-body revolute chain (the
# benchmarks' serial chain shape, bench/bench_models.cpp, with fixed masses), simulated
# 10 s at 1 ms (10001 rows), written by `mechdyn view`, opened in headless Chromium:
# open time and frames per second while playing. Not a test (timings depend on the load).
#   bash scripts/measure-viewer.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=out/viewer_speed
mkdir -p "$out"
/usr/bin/python3 - "$out/chain_30.yaml" <<'PY'
import sys
lines = ["mechdyn: 1", "name: chain_30", "gravity: [0, 0, -9.81]", "bodies:"]
for j in range(30):
    axis = [[1, 0, 0], [0, 1, 0], [0, 0, 1]][j % 3]
    origin = [0, 0, 0] if j == 0 else [0.05, 0, 0.2]
    lines += [f"  - name: link{j + 1}", f"    parent: {'ground' if j == 0 else 'link' + str(j)}",
              f"    joint: {{name: J{j + 1}, type: revolute, axis: {axis}, origin: {origin}}}",
              "    mass: 1.0", "    com: [0.025, 0, 0.1]", "    inertia: {diag: [0.004, 0.004, 0.002]}"]
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
"$build/apps/mechdyn/mechdyn" simulate "$out/chain_30.yaml" --duration 10 --step 0.001 --output "$out/chain_30.csv"
start=$(date +%s.%N)
"$build/apps/mechdyn/mechdyn" view "$out/chain_30.yaml" "$out/chain_30.csv" -o "$out/chain_30_view"
echo "mechdyn view: $(echo "$(date +%s.%N) - $start" | bc) s; data.js $(du -h "$out/chain_30_view/data.js" | cut -f1)"
node viewer/test/measure.mjs "$out/chain_30_view" 5
