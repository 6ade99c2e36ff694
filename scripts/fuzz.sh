#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang-14 with AddressSanitizer + UBSan) and runs each
# for SECONDS on a working copy of its committed seed corpus (fuzz/corpus/<target>/, read
# only). A crash, a sanitizer report, a timeout (10 s per input) or an out-of-memory input
# (2 GB) stops the script with a non-zero status; the input is saved under
# BUILD/artifacts/. docs/testing.md, "Fuzzing".
#   bash scripts/fuzz.sh               # 10 s per target, in its own tree build-fuzz
#   bash scripts/fuzz.sh 3600          # an hour per target, on demand
#   bash scripts/fuzz.sh 600 eval      # one target
#   bash scripts/fuzz.sh --build-dir build-asan 10
#                                      # in the sanitizer tree of scripts/test-sanitizers.sh
#                                      # (clang, fuzz targets included: what .ci/run does, so
#                                      # that the library is compiled once for both)
# Reproduce a crash: BUILD/fuzz/fuzz_<target> BUILD/artifacts/<file>
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-fuzz
configure=1
if [ "${1:-}" = --build-dir ]; then
  [ -n "${2:-}" ] || { echo "fuzz: --build-dir needs a directory" >&2; exit 2; }
  build="$2"
  configure=0
  shift 2
  grep -q '^MECHDYN_BUILD_FUZZERS:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null || {
    echo "fuzz: $build is not a build tree configured with the fuzz targets (scripts/test-sanitizers.sh asan makes build-asan)" >&2
    exit 2
  }
fi
seconds="${1:-10}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(model_reader scenario_reader number_lists eval run_csv)
jobs=$(nproc 2>/dev/null || echo 2)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
[ "$configure" -eq 0 ] || cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMECHDYN_BUILD_TESTS=OFF -DMECHDYN_BUILD_BENCHMARKS=OFF -DMECHDYN_BUILD_FUZZERS=ON -DMECHDYN_BUILD_PYTHON=OFF > /dev/null
cmake --build "$build" -j"$jobs" --target "${targets[@]/#/fuzz_}"
mkdir -p "$build/artifacts"
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
for target in "${targets[@]}"; do
  work="$build/corpus/$target"
  mkdir -p "$work"
  start=$(date +%s)
  "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
    -artifact_prefix="$build/artifacts/$target-" -print_final_stats=1 \
    "$work" "fuzz/corpus/$target" 2> "$build/$target.log" || {
      tail -n 60 "$build/$target.log"
      echo "fuzz: $target FAILED (log $build/$target.log, input $build/artifacts/)" >&2
      exit 1
    }
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz: $target ran clean for $(( $(date +%s) - start )) s ($runs inputs)"
done
