#!/usr/bin/env bash
# The README's test command (what .ci/run runs): installs what the tests need beyond the
# main job (scripts/install-deps.sh test: GoogleTest, the Python test stack, MuJoCo for one
# cross-check, Chromium and the viewer's node modules), configures `build` (Release) with the
# tests and the Python module, builds it (reusing what the README's first command built) and
# runs the whole ctest suite. Arguments go to ctest:
#   bash scripts/test.sh              # everything (docs/testing.md)
#   bash scripts/test.sh -L fast      # the fast tier, under a minute once built
#   bash scripts/test.sh -R Codegen   # one group
# Benchmarks are not tests: `cmake --build build --target mechdyn_bench` or scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
bash scripts/install-deps.sh test
start=$(date +%s)
log=$(mktemp)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMECHDYN_BUILD_TESTS=ON -DMECHDYN_BUILD_APPS=ON \
  -DMECHDYN_BUILD_PYTHON=ON -DMECHDYN_BUILD_BENCHMARKS=OFF > "$log" || { cat "$log" >&2; rm -f "$log"; exit 1; }
rm -f "$log"
cmake --build build -j"$jobs"
built=$(date +%s)
ctest --test-dir build --output-on-failure -j"$jobs" "$@"
echo "test.sh: build $((built - start)) s, suite $(( $(date +%s) - built )) s"
# A test that used more than a third of its time budget says so (a warning, not a failure:
# docs/testing.md, "Tiers and budgets"); the table: /usr/bin/python3 scripts/test_times.py build
/usr/bin/python3 scripts/test_times.py build --check > /dev/null || true
