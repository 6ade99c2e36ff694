#!/usr/bin/env bash
# The Schoenflies trajectory benchmark (bench/bench_parallel.cpp: 6001 samples of
# momentum-screw-schoenflies §4 by each inverse-dynamics method) and, with --callgrind, the
# instructions each method executes per sample (valgrind --tool=callgrind, counted in one
# whole-trajectory iteration only; repeatable on a busy machine, unlike times).
#
# Usage: scripts/bench_parallel.sh [--callgrind] [extra Google Benchmark flags...]
# Environment: BUILD_DIR (default <repo>/build), JOBS (default 2).
# Prints the benchmark's table (CPU ms per trajectory, the ratio momentum-screw /
# Newton–Euler beside the paper's 83.21 %); with --callgrind then one line per method:
#   <benchmark>  <instructions per trajectory>  <instructions per sample>
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build}"
jobs="${JOBS:-2}"

callgrind=0
extra=()
for arg in "$@"; do
  case "$arg" in
    --callgrind) callgrind=1 ;;
    -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) extra+=("$arg") ;;
  esac
done

cmake --build "$build_dir" -j"$jobs" --target mechdyn_bench_parallel >/dev/null
bench="$build_dir/bench/mechdyn_bench_parallel"

if [ "$callgrind" -eq 0 ]; then
  "$bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true "${extra[@]}"
  exit 0
fi

command -v valgrind >/dev/null || { echo "bench_parallel.sh: valgrind is not installed" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
samples=6001
printf '%-52s %14s %12s\n' "benchmark" "instructions" "per sample"
for name in momentum_screw momentum_screw_no_residual momentum_screw_general_limbs newton_euler \
            newton_euler_screw_kinematics closed_chain; do
  # One iteration (the first takes far longer than --benchmark_min_time under valgrind);
  # only the benchmark's own function is counted (the model file and the samples are made
  # before the benchmarks run, in main).
  case "$name" in
    newton_euler_screw_kinematics) collect='*::newton_euler_screw_kinematics(*' ;;
    *) collect='*::whole_trajectory(*' ;;
  esac
  valgrind --tool=callgrind --dump-instr=no --callgrind-out-file="$out/$name.out" "--toggle-collect=$collect" \
    "$bench" "--benchmark_filter=schoenflies_6001/$name\$" --benchmark_min_time=0.001 >/dev/null 2>&1
  total=$(grep -E '^(summary|totals):' "$out/$name.out" | tail -1 | awk '{print $2}')
  awk -v name="schoenflies_6001/$name" -v total="$total" -v samples="$samples" \
    'BEGIN { printf "%-52s %14.0f %12.0f\n", name, total, total / samples }'
done
