#!/usr/bin/env bash
# Builds the benchmarks (Release, in build-bench/) and prints four markdown tables:
#  1. bench/bench_dynamics.cpp: each explicit method beside its recursive baseline
#       | case | model | explicit ns | recursive ns | explicit/recursive |
#  2. bench/bench_peers.cpp: mechdyn's recursive and explicit methods, its generated code
#     (with exact operation counts) and its analytical derivatives (beside its own and
#     MuJoCo's finite differences), beside MuJoCo and Simbody, with the ratio to the
#     fastest peer and the targets (scripts/peer_table.py); every method checked first
#  3. bench/bench_closed_chains.cpp: constrained forward dynamics of the four-bar and
#     the three-loop mechanism beside MuJoCo with the loops as equality constraints,
#     ratio mechdyn/MuJoCo against the target 1.0 (scripts/closed_chain_table.py);
#     agreement with MuJoCo checked first (docs/benchmarks.md, "Closed chains")
#  3b. bench/bench_many_loops.cpp: the IFToMM N-four-bar from 1 to 1000 loops: sparse
#     augmented-Lagrangian dynamics, ALI3-P step, dense range space, MuJoCo's mj_step with
#     equality constraints, with the fitted slope; the A02 run's CPU time and error
#     (scripts/many_loops_table.py)
#  4. bench/op_count.cpp: operation counts of the explicit inertia matrix beside
#     explicit-jsim-tree-chains §6 (3.5n³ + 16n² + 12.5n multiplications) and time
#  5. bench/bench_parallel.cpp: the 6001-sample Schoenflies trajectory by the momentum-screw,
#     Newton–Euler and closed-chain methods, with the ratio beside the paper's 83.21 %
#  6. bench/bench_scale.cpp: one RK4 step of chains and binary trees of 10 ... 10,000
#     bodies, recursive and explicit, eval's quantities, with the fitted complexity
#     (docs/benchmarks.md, "Scale"; the CLI table is scripts/scale_table.py)
#  6b. bench/bench_batch.cpp: K states per call (issue 29 item 3): K single calls, the
#     batch on 1 thread and on 2, the arm and the 30-body tree, K = 64 and 1024, ns per state
#     (wall clock) and the speed-up single / batch-2 against the target 1.8
#  6c. bench/bench_growth.cpp: growth from 5 to 1000 bodies (issue 29 item 4): rnea, crba,
#     aba, rnea_derivatives, aba_derivatives beside MuJoCo's counterparts (its finite
#     differences up to the n where one call passes 50 ms) on chains and binary trees, the
#     ratio mechdyn/MuJoCo at each n and the fitted slopes (scripts/growth_table.py)
#  7. bench/bench_codegen.cpp: the code `mechdyn codegen` writes (at build time) for the
#     five-axis tree and the Panda against crba / rnea / aba and the explicit methods,
#     ratio generated/best runtime against the target 0.5 (scripts/codegen_table.py)
# and writes build-bench/bench-peers.png (time against n, scripts/plot_bench.py).
#
# Usage: scripts/bench.sh [--smoke] [extra Google Benchmark flags...]
#   --smoke   a quick CI run: --benchmark_min_time=0.01 (libbenchmark 1.7: plain
#             seconds) on the five-axis tree and the 10-link chain only, constrained
#             forward dynamics only for the closed chains (the agreement check runs in
#             full); op counts to n = 5; no plot. Full runs take the median of 5
#             repetitions.
# Environment: BUILD_DIR (default <repo>/build-bench), JOBS (default 2).
# Timings are CPU ns per call (Google Benchmark cpu_time, which a busy machine
# disturbs less than wall-clock real_time); compare them only within one run on one
# machine.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$repo/build-bench}"
jobs="${JOBS:-2}"
python=/usr/bin/python3  # Debian's python; the python3 on PATH may be another one

smoke=0
extra=()
for arg in "$@"; do
  case "$arg" in
    --smoke) smoke=1 ;;
    -h|--help) sed -n '2,45p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) extra+=("$arg") ;;
  esac
done

cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DMECHDYN_BUILD_TESTS=OFF -DMECHDYN_BUILD_APPS=ON -DMECHDYN_BUILD_PYTHON=OFF -DMECHDYN_BUILD_BENCHMARKS=ON >/dev/null
# (the command-line tool is built for mechdyn_bench_codegen, whose C it writes at build time)
cmake --build "$build_dir" -j"$jobs" --target mechdyn_bench mechdyn_bench_peers mechdyn_bench_closed_chains \
  mechdyn_bench_many_loops mechdyn_bench_force_elements mechdyn_bench_linearisation mechdyn_bench_batch mechdyn_bench_growth mechdyn_op_count mechdyn_bench_parallel mechdyn_bench_scale mechdyn_bench_codegen >/dev/null

json="$build_dir/bench-results.json"
flags=(--benchmark_out="$json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  flags+=(--benchmark_min_time=0.01 '--benchmark_filter=/(five_axis_tree|serial_chain_10)$')
fi
"$build_dir/bench/mechdyn_bench" "${flags[@]}" "${extra[@]}"

echo
"$python" - "$json" <<'PY'
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)

# case label -> (explicit method, recursive baseline)
PAIRS = [
    ("mass matrix M", "explicit_mass_matrix", "crba"),
    ("mass matrix M (direct eqs. 30-37)", "explicit_mass_matrix_direct", "crba"),
    ("bias force h", "explicit_bias_force", "rnea_bias"),
    ("inverse dynamics (resultant iteration)", "explicit_inverse_dynamics", "rnea"),
    ("inverse dynamics (M a + h)", "explicit_inverse_dynamics_mass_matrix", "rnea"),
    ("forward dynamics (M route / ABA by rule)", "explicit_forward_dynamics", "aba"),
    ("forward dynamics (M, h, LTDL)", "explicit_forward_dynamics_mass_matrix", "aba"),
    ("joint reactions", "joint_reactions", "rnea"),
]

times = {}    # (method, model) -> ns per call
errors = {}   # (method, model) -> message
models = []   # in run order
medians = {}
for b in report.get("benchmarks", []):
    name = b.get("run_name", b["name"])
    method, _, model = name.partition("/")
    if model not in models:
        models.append(model)
    if b.get("error_occurred"):
        errors[(method, model)] = b.get("error_message", "error")
        continue
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    ns = b["cpu_time"] * scale
    if b.get("run_type") == "aggregate":
        if b.get("aggregate_name") == "median":
            medians[(method, model)] = ns
    else:
        times.setdefault((method, model), ns)
times.update(medians)

context = report.get("context", {})
print(f"commit {context.get('mechdyn.commit', 'unknown')}, CPU {context.get('mechdyn.cpu', 'unknown')}, "
      f"{context.get('num_cpus', '?')} CPUs, mechdyn build {context.get('mechdyn.build_type', '?')} "
      f"(libbenchmark itself: {context.get('library_build_type', '?')})")
for model in models:
    print(f"- {model}: {context.get('model.' + model, '')}; {context.get('check.' + model, '')}")
print()
print("| case | model | explicit ns | recursive ns | explicit/recursive |")
print("|---|---|---:|---:|---:|")

def cell(method, model):
    if (method, model) in errors:
        return "error: " + errors[(method, model)]
    if (method, model) in times:
        return f"{times[(method, model)]:.0f}"
    return "-"

for label, explicit, recursive in PAIRS:
    for model in models:
        if (explicit, model) not in times and (explicit, model) not in errors:
            continue
        ratio = "-"
        if (explicit, model) in times and (recursive, model) in times:
            ratio = f"{times[(explicit, model)] / times[(recursive, model)]:.2f}"
        print(f"| {label}: {explicit} vs {recursive} | {model} | {cell(explicit, model)} | "
              f"{cell(recursive, model)} | {ratio} |")
PY

# --- peers: mechdyn vs MuJoCo (and Simbody) -----------------------------------------
peers_json="$build_dir/bench-peers.json"
peer_flags=(--benchmark_out="$peers_json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  peer_flags+=(--benchmark_min_time=0.01 '--benchmark_filter=/five_axis_tree$')
  op_max=5
else
  peer_flags+=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true)
  op_max=50
fi
echo
"$build_dir/bench/mechdyn_bench_peers" "${peer_flags[@]}" "${extra[@]}" >/dev/null
"$python" "$repo/scripts/peer_table.py" "$peers_json"
if [ "$smoke" -eq 0 ]; then
  "$python" "$repo/scripts/plot_bench.py" "$peers_json" "$build_dir/bench-peers.png"
fi

# --- closed chains: mechdyn vs MuJoCo equality constraints ---------------------------
closed_json="$build_dir/bench-closed-chains.json"
closed_flags=(--benchmark_out="$closed_json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  closed_flags+=(--benchmark_min_time=0.01 '--benchmark_filter=^constrained_forward_dynamics/')
else
  closed_flags+=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true)
fi
echo
"$build_dir/bench/mechdyn_bench_closed_chains" "${closed_flags[@]}" "${extra[@]}" >/dev/null
"$python" "$repo/scripts/closed_chain_table.py" "$closed_json"

# --- closed chains of many loops: the IFToMM N-four-bar, 1 to 1000 loops ---------------
loops_json="$build_dir/bench-many-loops.json"
loops_flags=(--benchmark_out="$loops_json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  loops_flags+=(--benchmark_min_time=0.01 '--benchmark_filter=(al_dynamics|ali3p_step|mujoco_step)/(1|40)$')
else
  loops_flags+=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true)
fi
echo
"$build_dir/bench/mechdyn_bench_many_loops" "${loops_flags[@]}" "${extra[@]}" >/dev/null
"$python" "$repo/scripts/many_loops_table.py" "$loops_json"

# --- force elements (issue 26 "Speed"): with ≤ 1.10 × without + the elements' own work ----
echo
fe_flags=(--benchmark_format=console)
[ "$smoke" -eq 1 ] && fe_flags+=(--benchmark_min_time=0.01)
"$build_dir/bench/mechdyn_bench_force_elements" "${fe_flags[@]}" 2>/dev/null | awk '
  /^BM_/ { split($1, p, "/"); name = p[1]; key = p[2] "/" (p[3] == "" ? "0" : p[3]); t[name, key] = $2 }
  END {
    for (k in t) { split(k, q, SUBSEP); if (q[1] == "BM_ForwardWith") keys[q[2]] = 1 }
    print "force elements: forward dynamics with / (without + elements alone); target <= 1.10"
    for (key in keys) { split(key, z, "/"); e = t["BM_ElementsOnly", z[1] "/0"]
      printf "  links %s %s: %.0f ns / (%.0f + %.0f) ns = %.3f\n", z[1], (z[2] == 1 ? "ABA" : "explicit"), t["BM_ForwardWith", key], t["BM_ForwardWithout", key], e, t["BM_ForwardWith", key] / (t["BM_ForwardWithout", key] + e) } }'

# --- linearisation and modes (issue 27 "Speed"): linearize ≤ 3 × aba_derivatives on the
# arm; the modes of a 100-link chain ≤ 50 ms ---------------------------------------------
echo
lin_flags=(--benchmark_format=console)
[ "$smoke" -eq 1 ] && lin_flags+=(--benchmark_min_time=0.01)
"$build_dir/bench/mechdyn_bench_linearisation" "${lin_flags[@]}" 2>/dev/null | awk '
  $1 ~ /^(linearize|aba_derivatives|modes)\// { t[$1] = $2; u[$1] = $3 }
  END {
    print "linearisation: linearize / aba_derivatives on the 7-DoF arm (target <= 3)"
    printf "  %.0f ns / %.0f ns = %.2f\n", t["linearize/panda_like_arm"], t["aba_derivatives/panda_like_arm"],
      t["linearize/panda_like_arm"] / t["aba_derivatives/panda_like_arm"]
    printf "modes of a hanging chain: 10 links %s %s, 100 links %s %s (target <= 50 ms)\n",
      t["modes/chain/10"], u["modes/chain/10"], t["modes/chain/100"], u["modes/chain/100"] }'

# --- batches (issue 29 item 3): K states per call; single / batch-2 ≥ 1.8 (2 cores), batch-1
# no slower than single; wall-clock ns per state (the threads' time is not the caller's CPU time)
echo
batch_json="$build_dir/bench-batch.json"
batch_flags=(--benchmark_out="$batch_json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  batch_flags+=(--benchmark_min_time=0.01 '--benchmark_filter=/64/')
else
  batch_flags+=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true)
fi
"$build_dir/bench/mechdyn_bench_batch" "${batch_flags[@]}" >/dev/null 2>&1
"$python" "$repo/scripts/batch_table.py" "$batch_json"

# --- growth from 5 to 1000 bodies (issue 29 item 4): mechdyn beside MuJoCo, with the slopes
echo
growth_json="$build_dir/bench-growth.json"
growth_flags=(--benchmark_out="$growth_json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  growth_flags+=(--max_bodies=20 --benchmark_min_time=0.01)
else
  growth_flags+=(--benchmark_repetitions=3 --benchmark_report_aggregates_only=true)
fi
"$build_dir/bench/mechdyn_bench_growth" "${growth_flags[@]}" "${extra[@]}" >/dev/null
"$python" "$repo/scripts/growth_table.py" "$growth_json"

# --- explicit-jsim-tree-chains §6: operation counts -----------------------------------
echo
"$build_dir/bench/mechdyn_op_count" "$op_max"

# --- parallel manipulators: the Schoenflies trajectory by three methods --------------
echo
if [ "$smoke" -eq 1 ]; then
  "$build_dir/bench/mechdyn_bench_parallel" --benchmark_min_time=0.01 '--benchmark_filter=momentum_screw$' "${extra[@]}"
else
  "$build_dir/bench/mechdyn_bench_parallel" "${extra[@]}"
fi

# --- scale: one RK4 step against n, recursive and explicit -----------------------------
echo
if [ "$smoke" -eq 1 ]; then
  "$build_dir/bench/mechdyn_bench_scale" --benchmark_min_time=0.01 '--benchmark_filter=/(10|100)$' "${extra[@]}"
else
  "$build_dir/bench/mechdyn_bench_scale" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true "${extra[@]}"
fi

# --- generated code: mechdyn codegen against the runtime algorithms --------------------
codegen_json="$build_dir/bench-codegen.json"
codegen_flags=(--benchmark_out="$codegen_json" --benchmark_out_format=json)
if [ "$smoke" -eq 1 ]; then
  codegen_flags+=(--benchmark_min_time=0.01 '--benchmark_filter=/five_axis_tree$')
else
  codegen_flags+=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true)
fi
echo
"$build_dir/bench/mechdyn_bench_codegen" "${codegen_flags[@]}" "${extra[@]}" >/dev/null
"$python" "$repo/scripts/codegen_table.py" "$codegen_json"
