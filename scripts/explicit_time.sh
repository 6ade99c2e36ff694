#!/usr/bin/env bash
# Explicit inverse dynamics against RNEA in time (docs/benchmarks.md, "Explicit inverse
# dynamics in time"): mechdyn_bench_explicit_time at several code layouts, each one run
# with random interleaving; prints per model and state kind the ratio explicit / RNEA of
# the fastest repetitions, its mean and range over the layouts.
#
#   bash scripts/explicit_time.sh [build-dir] [paddings...]     (default: build; 0 16 32 48)
#
# Each padding re-configures the build directory with -DMECHDYN_BENCH_CODE_PAD=<bytes> and
# relinks the benchmark (only it); the directory is left at padding 0. Fastest repetition,
# not median: on a machine shared with other jobs interference only adds time. Say the
# load (uptime) with the numbers.
set -euo pipefail
build=${1:-build}
shift || true
pads=("$@")
[ ${#pads[@]} -gt 0 ] || pads=(0 16 32 48)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; cmake -S "$root" -B "$build" -DMECHDYN_BENCH_CODE_PAD=0 >/dev/null' EXIT
uptime
for pad in "${pads[@]}"; do
  cmake -S "$root" -B "$build" -DMECHDYN_BENCH_CODE_PAD="$pad" >/dev/null
  cmake --build "$build" --target mechdyn_bench_explicit_time >/dev/null
  "$build/bench/mechdyn_bench_explicit_time" --benchmark_repetitions="${REPETITIONS:-6}" \
    --benchmark_enable_random_interleaving=true --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_format=json --benchmark_out="$tmp/pad$pad.json" --benchmark_out_format=json >/dev/null
done
uptime
/usr/bin/python3 - "$tmp"/pad*.json <<'EOF'
import json, statistics, sys
layouts = []
for path in sys.argv[1:]:
    fastest = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        _, algorithm, model, states = b["run_name"].split("/")
        key = (model, states, algorithm)
        fastest[key] = min(fastest.get(key, float("inf")), b["cpu_time"])
    layouts.append(fastest)
print(f"explicit / RNEA, fastest of the repetitions, over {len(layouts)} code layouts")
print("| model | states | RNEA ns (mean) | explicit ns (mean) | ratio mean | ratio min | ratio max |")
print("|---|---|---:|---:|---:|---:|---:|")
for model, states, algorithm in sorted(layouts[0]):
    if algorithm != "rnea":
        continue
    rnea = [l[(model, states, "rnea")] for l in layouts]
    explicit = [l[(model, states, "explicit")] for l in layouts]
    ratios = [e / r for e, r in zip(explicit, rnea)]
    print(f"| {model} | {states} | {statistics.mean(rnea):.1f} | {statistics.mean(explicit):.1f} | "
          f"{statistics.mean(ratios):.3f} | {min(ratios):.3f} | {max(ratios):.3f} |")
EOF
