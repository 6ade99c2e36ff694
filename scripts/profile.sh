#!/usr/bin/env bash
# Instruction counts per call (callgrind) of RNEA, explicit inverse dynamics, CRBA, ABA
# and explicit forward dynamics on the benchmark models (docs/benchmarks.md, "Profile"),
# and of one `mechdyn eval ... --json` on the five-axis tree, the Panda and the
# three-loop mechanism.
#
#   bash scripts/profile.sh [build-dir]      (default: build; needs mechdyn_profile and mechdyn)
#
# Per call = (Ir of N = 2000 calls − Ir of 0 calls) / 2000: start-up, model building and
# the state are subtracted. Instruction counts do not depend on the machine's load.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
profile="$build/bench/mechdyn_profile"
cli="$build/apps/mechdyn/mechdyn"
# shellcheck source=callgrind.sh
source "$(dirname "$0")/callgrind.sh"  # tmp, instructions

n=2000
printf '| algorithm | model | instructions per call |\n|---|---|---:|\n'
for algorithm in rnea explicit_inverse_dynamics crba aba explicit_forward_dynamics; do
  for model in five_axis_tree panda_like_arm serial_chain_50; do
    base=$(instructions "$profile" "$model" "$algorithm" 0)
    full=$(instructions "$profile" "$model" "$algorithm" "$n")
    printf '| %s | %s | %d |\n' "$algorithm" "$model" $(((full - base) / n))
  done
done

printf '\n| the terms of mechdyn eval (q, v, a, tau) | model | instructions per call |\n|---|---|---:|\n'
for algorithm in eval_sequence eval_terms; do
  for model in five_axis_tree panda_like_arm serial_chain_50; do
    base=$(instructions "$profile" "$model" "$algorithm" 0)
    full=$(instructions "$profile" "$model" "$algorithm" "$n")
    printf '| %s | %s | %d |\n' "$algorithm" "$model" $(((full - base) / n))
  done
done

printf '\n| derivatives (docs/derivatives.md) | model | instructions per call | analytical / centred FD |\n|---|---|---:|---:|\n'
for pair in "rnea_derivatives rnea_finite_difference" "aba_derivatives aba_finite_difference"; do
  set -- $pair
  for model in five_axis_tree panda_like_arm branched_tree_30; do
    base=$(instructions "$profile" "$model" "$1" 0)
    analytical=$(( ($(instructions "$profile" "$model" "$1" 200) - base) / 200 ))
    base=$(instructions "$profile" "$model" "$2" 0)
    fd=$(( ($(instructions "$profile" "$model" "$2" 20) - base) / 20 ))
    printf '| %s | %s | %d |  |\n| %s | %s | %d | %s |\n' "$1" "$model" "$analytical" "$2" "$model" "$fd" \
      "$(awk -v a="$analytical" -v b="$fd" 'BEGIN { printf "%.3f", a / b }')"
  done
done

printf '\n| mechdyn eval --json | instructions (whole process) |\n|---|---:|\n'
five=(eval "$root/examples/models/five_axis_tree.yaml" --q 0.1,-0.2,0.3,0.05,0.5 --v 0.3,-0.2,0.1,0.4,-0.5
      --a 0.2,0.1,-0.3,0.2,0.1 --tau 1,2,3,4,5 --json)
printf '| five_axis_tree (q, v, a, tau) | %d |\n' "$(instructions "$cli" "${five[@]}")"
printf '| five_axis_tree (q, v, a, tau), --method recursive | %d |\n' \
  "$(instructions "$cli" "${five[@]}" --method recursive)"
printf '| five_axis_tree (q, v) only | %d |\n' "$(instructions "$cli" "${five[@]:0:6}" --json)"
panda=(eval "$root/examples/models/panda_7dof.yaml" --q 0.1,-0.2,0.3,-1.2,0.5,1.1,0.4
       --v 0.3,-0.2,0.1,0.4,-0.5,0.2,0.1 --a 0.2,0.1,-0.3,0.2,0.1,-0.1,0.3 --tau 1,2,3,4,5,6,7 --json)
printf '| panda_7dof (q, v, a, tau) | %d |\n' "$(instructions "$cli" "${panda[@]}")"
loop=(eval "$root/examples/models/three_loop_mechanism.yaml" --q 0.3,0.1,-0.2,0.5,0.4,-0.3,0.2
      --v 0.5,-0.1,0.2,0.3,-0.4,0.1,0.2 --a 0.1,0.2,0.3,-0.1,-0.2,0.4,0.1 --tau 1,0,0,0,0,0,0 --json)
printf '| three_loop_mechanism (q, v, a, tau) | %d |\n' "$(instructions "$cli" "${loop[@]}")"
