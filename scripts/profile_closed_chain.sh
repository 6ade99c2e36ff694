#!/usr/bin/env bash
# Instruction counts per call (callgrind) of closed-chain inverse dynamics, its analytical
# derivatives and their centred finite difference with re-assembly (docs/benchmarks.md,
# "Closed-chain inverse dynamics derivatives"), on the bundled loop models.
#
#   bash scripts/profile_closed_chain.sh [build-dir]   (default: build; needs mechdyn_profile_closed_chain)
#
# Per call = (Ir of N = 200 calls − Ir of 0 calls) / 200: start-up, model reading and the
# state are subtracted. Instruction counts do not depend on the machine's load.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
profile="$build/bench/mechdyn_profile_closed_chain"
# shellcheck source=callgrind.sh
source "$(dirname "$0")/callgrind.sh"  # tmp, instructions

n=200
printf '| model | inverse dynamics | derivatives (analytical) | centred FD with re-assembly | derivatives / FD |\n'
printf '|---|---:|---:|---:|---:|\n'
for model in three_loop_mechanism four_bar schoenflies_2ups_2upu; do
  file="$root/examples/models/$model.yaml"
  declare -A count
  for computation in inverse_dynamics derivatives finite_difference; do
    base=$(instructions "$profile" "$file" "$computation" 0)
    full=$(instructions "$profile" "$file" "$computation" "$n")
    count[$computation]=$(((full - base) / n))
  done
  ratio=$(awk -v a="${count[derivatives]}" -v b="${count[finite_difference]}" 'BEGIN { printf "%.3f", a / b }')
  printf '| %s | %d | %d | %d | %s |\n' "$model" "${count[inverse_dynamics]}" "${count[derivatives]}" \
    "${count[finite_difference]}" "$ratio"
done
