#!/usr/bin/env bash
# Checks that an installed mechdyn is usable through find_package(mechdyn): installs
# into a temporary prefix, then configures, builds and runs tests/install/consumer
# against that prefix only (no package registry, no build tree).
#
# Usage: scripts/check-install.sh [--build-dir DIR] [--keep]
#   (default)        configure and build the library afresh in a temporary directory
#   --build-dir DIR  install from an existing, already built build tree (ctest's
#                    install_package test uses the project's own build directory)
#   --keep           keep the temporary directory and print its path
# Environment: JOBS (default 2). Exit status 0 when the consumer builds and runs.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${JOBS:-2}"
build_dir=""
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '2,12p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "check-install: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

work="$(mktemp -d "${TMPDIR:-/tmp}/mechdyn-install.XXXXXX")"
if [ "$keep" -eq 1 ]; then
  echo "check-install: keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
prefix="$work/prefix"

if [ -z "$build_dir" ]; then
  build_dir="$work/build"
  echo "check-install: configuring and building mechdyn in $build_dir"
  cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
    -DMECHDYN_BUILD_TESTS=OFF -DMECHDYN_BUILD_APPS=OFF -DMECHDYN_BUILD_BENCHMARKS=OFF >/dev/null
  cmake --build "$build_dir" -j"$jobs" --target mechdyn >/dev/null
fi

echo "check-install: installing into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >/dev/null

# The package files a consumer needs.
config_dir=""
for libdir in lib lib64 lib/x86_64-linux-gnu; do
  [ -f "$prefix/$libdir/cmake/mechdyn/mechdynConfig.cmake" ] && config_dir="$prefix/$libdir/cmake/mechdyn"
done
[ -n "$config_dir" ] || { echo "check-install: no mechdynConfig.cmake under $prefix" >&2; exit 1; }
for f in mechdynConfig.cmake mechdynConfigVersion.cmake mechdynTargets.cmake; do
  [ -f "$config_dir/$f" ] || { echo "check-install: missing $config_dir/$f" >&2; exit 1; }
done
[ -f "$prefix/include/mechdyn/model/model.hpp" ] || { echo "check-install: headers not installed" >&2; exit 1; }

echo "check-install: building tests/install/consumer against $prefix"
cmake -S "$repo/tests/install/consumer" -B "$work/consumer" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/consumer-configure.log" ||
  { cat "$work/consumer-configure.log" >&2; exit 1; }
found="$(sed -n 's/^-- mechdyn .* from //p' "$work/consumer-configure.log")"
if [ "$found" != "$config_dir" ]; then
  echo "check-install: consumer found mechdyn in '$found', expected '$config_dir'" >&2
  exit 1
fi
cmake --build "$work/consumer" -j"$jobs" >"$work/consumer-build.log" ||
  { cat "$work/consumer-build.log" >&2; exit 1; }

"$work/consumer/mechdyn_consumer"
echo "check-install: OK"
