#!/usr/bin/env bash
# Instructions per call (callgrind) of the code `mechdyn codegen` writes and of mechdyn's
# runtime algorithms, on the five-axis tree and the Panda (docs/benchmarks.md, "Generated
# code"), and of the inverse dynamics with friction on the five-axis Stribeck tree. Instruction counts do not depend on the machine's load, unlike times.
#
#   bash scripts/profile_codegen.sh [build-dir]      (default: build; needs mechdyn_bench_codegen)
#
# Per call = (Ir of N = 2000 calls − Ir of 0 calls) / N, each call on the next of 256 random
# states: start-up, the models and the states are subtracted.
set -euo pipefail
build=${1:-build}
program="$build/bench/mechdyn_bench_codegen"
# shellcheck source=callgrind.sh
source "$(dirname "$0")/callgrind.sh"  # tmp, instructions

per_call() {  # model method
  local base full n=2000
  base=$(instructions "$program" --profile "$1" "$2" 0)
  full=$(instructions "$program" --profile "$1" "$2" "$n")
  echo $(((full - base) / n))
}

printf '| model | quantity | generated | recursive | explicit | generated/best |\n|---|---|---:|---:|---:|---:|\n'
for model in five_axis_tree panda_7dof; do
  while read -r label generated recursive explicit; do
    g=$(per_call "$model" "$generated")
    r=$(per_call "$model" "$recursive")
    if [ "$explicit" = "-" ]; then e="-"; best=$r; else e=$(per_call "$model" "$explicit"); best=$((r < e ? r : e)); fi
    printf '| %s | %s | %d | %d | %s | %s |\n' "$model" "$label" "$g" "$r" "$e" \
      "$(awk -v g="$g" -v b="$best" 'BEGIN { printf "%.2f", g / b }')"
  done <<'EOF'
M generated_mass_matrix crba explicit_mass_matrix
h generated_bias rnea_bias explicit_bias_force
inverse_dynamics generated_inverse_dynamics rnea explicit_inverse_dynamics
forward_dynamics generated_forward_dynamics aba explicit_forward_dynamics
reactions generated_joint_reactions joint_reactions -
EOF
done
# The inverse dynamics with joint friction (EC eq. 54) on the five-axis tree with Stribeck
# friction: generated against the library's inverse_dynamics_with_friction (no explicit form).
model=five_axis_tree_stribeck
g=$(per_call "$model" generated_inverse_dynamics_with_friction)
r=$(per_call "$model" inverse_dynamics_with_friction)
printf '| %s | %s | %d | %d | - | %s |\n' "$model" "inverse dynamics with friction" "$g" "$r" \
  "$(awk -v g="$g" -v b="$r" 'BEGIN { printf "%.2f", g / b }')"
