#!/usr/bin/env bash
# The public multibody benchmark problems (IFToMM library / González et al., Multibody
# System Dynamics 16 (2006) 179-190) run with the mechdyn CLI and compared with
# independent references (docs/closed-chains.md, "IFToMM benchmark problems"):
#   A01 simple pendulum          examples/models/iftomm_a01_pendulum.yaml (closed form)
#   A02 N-four-bar, N = 1, 2, 40 examples/models/n_four_bar_<N>.yaml (exact 1-DOF reduction,
#                                scripts/n_four_bar_reference.py)
#   A04 Bricard mechanism        examples/models/iftomm_a04_bricard.yaml (energy, mobility)
#   spatial rigid slider-crank   examples/models/iftomm_spatial_slider_crank.yaml (energy,
#                                step halving)
# Writes the CSVs, PNGs and summary.txt to out/benchmark_problems/ and prints, per problem,
# the CPU time of the CLI run and the largest error against the reference.
#
#   bash scripts/benchmark_problems.sh [BUILD_DIR]     (default build-bench; the tool is
#                                                       BUILD_DIR/apps/mechdyn/mechdyn)
# Plots need Debian's matplotlib: /usr/bin/python3 (scripts/install-deps.sh plots).
set -euo pipefail
cd "$(dirname "$0")/.."

# --- integrator and step of each problem (one place to switch them; the environment
# overrides, e.g. A02_INTEGRATOR=ali3p bash scripts/benchmark_problems.sh) -------------
# The defaults are the fastest settings found that meet the benchmarks' high precision
# (1e-3 m; docs/closed-chains.md "IFToMM benchmark problems"): ali3p (index-3 augmented
# Lagrangian, stays on the branch through the singular positions) for the closed chains
# with slow, singular motion, RK4 for the pendulum (a tree) and the fast slider-crank.
# dopri5 leaves the N-four-bar's physical branch at the singular (horizontal) position.
A01_INTEGRATOR=${A01_INTEGRATOR:-rk4}; A01_STEP=${A01_STEP:-0.005}
A01_DURATION=2000; A01_EVERY=${A01_EVERY:-$(awk -v h="$A01_STEP" 'BEGIN { printf "%d", 0.5 / h + 0.5 }')}  # 4000 output steps, as the definition
A02_INTEGRATOR=${A02_INTEGRATOR:-ali3p}; A02_STEP=${A02_STEP:-0.01}
A02_DURATION=10; A02_SIZES=${A02_SIZES:-"1 2 40"}
A04_INTEGRATOR=${A04_INTEGRATOR:-ali3p}; A04_STEP=${A04_STEP:-0.01}; A04_DURATION=10
SC_INTEGRATOR=${SC_INTEGRATOR:-rk4};   SC_STEP=${SC_STEP:-0.005};  SC_DURATION=5

build=${1:-build-bench}
script=benchmark_problems.sh
out=out/benchmark_problems
source scripts/simulate_runs.sh  # checks, matplotlib, run()

echo "A01 simple pendulum: $A01_DURATION s, $A01_INTEGRATOR h = $A01_STEP"
run a01 examples/models/iftomm_a01_pendulum.yaml --v0 0 --integrator "$A01_INTEGRATOR" \
  --step "$A01_STEP" --duration "$A01_DURATION" --every "$A01_EVERY" --output "$out/a01_pendulum.csv"

for n in $A02_SIZES; do
  model=examples/models/n_four_bar_$n.yaml
  [ -f "$model" ] || python3 scripts/generate_n_four_bar.py "$n" "$model"
  v0=$(python3 -c "import sys; n = int(sys.argv[1]); print(','.join(['-1', '1'] * n + ['-1']))" "$n")
  echo "A02 N-four-bar N = $n: $A02_DURATION s, $A02_INTEGRATOR h = $A02_STEP"
  run "a02_n$n" "$model" --v0 "$v0" --integrator "$A02_INTEGRATOR" --step "$A02_STEP" \
    --duration "$A02_DURATION" --output "$out/a02_n$n.csv"
  python3 scripts/n_four_bar_reference.py "$n" "$out/a02_n${n}_reference.csv" \
    --duration "$A02_DURATION" --step "$A02_STEP" > /dev/null
done

echo "A04 Bricard mechanism: $A04_DURATION s, $A04_INTEGRATOR h = $A04_STEP"
"$mechdyn" mobility examples/models/iftomm_a04_bricard.yaml --q 0,0,0,0,0 --json > "$out/a04_bricard_mobility.json"
run a04 examples/models/iftomm_a04_bricard.yaml --integrator "$A04_INTEGRATOR" --step "$A04_STEP" \
  --duration "$A04_DURATION" --output "$out/a04_bricard.csv" --poses "$out/a04_bricard_poses.csv"

echo "spatial slider-crank: $SC_DURATION s, $SC_INTEGRATOR h = $SC_STEP (and h/2)"
run slider_crank --scenario examples/scenarios/iftomm_spatial_slider_crank.yaml \
  --integrator "$SC_INTEGRATOR" --step "$SC_STEP" --duration "$SC_DURATION" --output "$out/slider_crank.csv"
half=$(awk -v h="$SC_STEP" 'BEGIN { printf "%.10g", h / 2 }')
"$mechdyn" simulate --scenario examples/scenarios/iftomm_spatial_slider_crank.yaml \
  --integrator "$SC_INTEGRATOR" --step "$half" --duration "$SC_DURATION" --every 2 \
  --output "$out/slider_crank_half.csv" > /dev/null

/usr/bin/python3 scripts/plot_benchmark_problems.py "$out"
ls "$out"/*.png
