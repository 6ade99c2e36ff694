#!/usr/bin/env bash
# The test suite under the sanitizers (docs/testing.md), called by .ci/run after the
# README's test command:
#   1. build-asan: the library, the CLI, every test and the libFuzzer targets, clang-14 with
#      AddressSanitizer + UndefinedBehaviorSanitizer (-fno-sanitize-recover=all: any UB fails
#      the test) and libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link), -O1;
#      runs the whole ctest suite but install_package (a packaging check) and the viewer's
#      browser and bundle tests (JavaScript in Chromium; the C++ of `mechdyn view` runs
#      under the sanitizers in test_view_errors). The same tree then serves
#      `scripts/fuzz.sh --build-dir build-asan`: the library is compiled once for both (it
#      used to be compiled twice, by GCC here and by clang in build-fuzz);
#   2. build-tsan: the library and the multi-threaded tests with ThreadSanitizer (GCC); runs them.
# No benchmarks (they time code; sanitized timings mean nothing). Every test's time budget
# is multiplied by 10 (MECHDYN_TEST_TIMEOUT_SCALE). Each part prints its build and run time.
# The zero-allocation counter is off under ASan/TSan (tests/support/allocation_probe.hpp).
# Usage: bash scripts/test-sanitizers.sh [asan|tsan|all]   (default all)
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
jobs=$(nproc 2>/dev/null || echo 2)
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
seconds() { date +%s; }

if [ "$which" = all ] || [ "$which" = asan ]; then
  start=$(seconds)
  flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  cmake -S . -B build-asan -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" -DBUILD_SHARED_LIBS=ON \
    -DCMAKE_CXX_FLAGS="$flags -fsanitize=fuzzer-no-link" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
    -DCMAKE_SHARED_LINKER_FLAGS="$flags" -DMECHDYN_TEST_TIMEOUT_SCALE=10 -DMECHDYN_BUILD_FUZZERS=ON \
    -DMECHDYN_BUILD_BENCHMARKS=OFF -DMECHDYN_BUILD_PYTHON=OFF > /dev/null
  cmake --build build-asan -j"$jobs"
  built=$(seconds)
  # detect_leaks: a leak fails the test; halt_on_error with the -fno-sanitize-recover above.
  ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs" -E '^(install_package|viewer_browser|viewer_bundle)$'
  echo "sanitizers: asan+ubsan build $((built - start)) s, suite $(( $(seconds) - built )) s"
fi

if [ "$which" = all ] || [ "$which" = tsan ]; then
  start=$(seconds)
  flags="-fsanitize=thread -fno-omit-frame-pointer"
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DBUILD_SHARED_LIBS=ON \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" -DMECHDYN_TEST_TIMEOUT_SCALE=10 \
    -DMECHDYN_BUILD_BENCHMARKS=OFF -DMECHDYN_BUILD_APPS=OFF -DMECHDYN_BUILD_PYTHON=OFF > /dev/null
  # The tests that start threads: their own (two Data on one Model) or the library's pool
  # (evaluation/thread_pool.hpp: the batches, sweeps).
  threaded=$(grep -lE 'std::thread|ThreadPool|BatchWorkspace' tests/*/*.cpp | xargs -n1 basename | sed 's/\.cpp$//')
  # shellcheck disable=SC2086
  cmake --build build-tsan -j"$jobs" --target $threaded
  built=$(seconds)
  for t in $threaded; do
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 "build-tsan/tests/$t"
  done
  echo "sanitizers: tsan build $((built - start)) s, threaded tests ($threaded) $(( $(seconds) - built )) s"
fi
