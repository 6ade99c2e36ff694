#!/usr/bin/env bash
# Installs the Debian packages mechdyn needs, in tiers, so that a newcomer's first run
# does not wait for a browser and a second compiler (docs/testing.md, "Set-up tiers").
# Debian 12 (bookworm), run as root (or with sudo). Idempotent: installs only what is missing.
#
#   bash scripts/install-deps.sh          # core: build the library and the CLI, run the main job
#   bash scripts/install-deps.sh plots    # core + matplotlib (the case-study scripts call this)
#   bash scripts/install-deps.sh test     # plots + what the test suite needs (scripts/test.sh calls this)
#   bash scripts/install-deps.sh all      # test + benchmarks' peers and the fuzzing toolchain (.ci/run)
set -euo pipefail
tier="${1:-core}"
case "$tier" in
  core|plots|test|all) ;;
  *) echo "install-deps: unknown tier '$tier' (core, plots, test or all)" >&2; exit 2 ;;
esac

# core: the compiler, CMake and the libraries the library and the CLI link. pkg-config and
# git belong here too: CMake's find modules take other paths without pkg-config (and git
# names the commit in generated code), so a later tier that brought them would change the
# configuration and rebuild the whole library under README command 2 (seen in a chroot).
packages=(
  build-essential cmake pkg-config git
  libeigen3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libmuparser-dev
  libtinyxml2-dev liburdfdom-dev libsdformat-dev  # robot files (docs/robot-files.md): MJCF/XML, URDF, SDFormat
)
if [ "$tier" != core ]; then
  packages+=(python3-matplotlib)  # plots of the case studies (scripts/plot_*.py, Debian's /usr/bin/python3)
fi
if [ "$tier" = test ] || [ "$tier" = all ]; then
  packages+=(
    ccache                       # the sanitizer and fuzz builds use it when present
    libgtest-dev libgmock-dev libbenchmark-dev
    pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-yaml  # Python bindings (python/, docs/python.md)
    python3-distributed          # Python sweeps on Dask distributed (mechdyn.sweep)
    python3-nbclient python3-nbformat python3-ipykernel  # the example notebook run headless (tests/python)
    python3-venv python3-pip python3-setuptools python3-wheel  # the wheel built from source into a venv (docs/python.md)
    libmujoco-dev                # MuJoCo: the MJCF cross-check test and the benchmarks' peer (bench/peers/)
    chromium                     # the viewer's browser tests (docs/viewer.md), driven headless by playwright-core
  )
fi
if [ "$tier" = all ]; then
  packages+=(
    libsimbody-dev               # optional benchmark peer (bench/peers/)
    clang-14 libclang-rt-14-dev llvm-14  # the ASan+UBSan suite and fuzzing (scripts/test-sanitizers.sh, fuzz.sh): libFuzzer, sanitizer runtimes, llvm-symbolizer
  )
fi
# Node.js and npm for the viewer's browser tests (viewer/package.json): the machine's
# (Node.js 20 with npm 11 on the project's machines); Debian's nodejs + npm only where there
# is none — Debian 12's Node.js 18 builds the bundle, but playwright-core (the browser tests)
# wants Node.js >= 20, so there the browser test is skipped with a line saying so.
if [ "$tier" = test ] || [ "$tier" = all ]; then
  command -v npm >/dev/null && command -v node >/dev/null || packages+=(nodejs npm)
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
# viewer/node_modules (three, esbuild, playwright-core at the versions of
# viewer/package-lock.json; never a browser download: playwright-core drives the Chromium
# above). Re-run only when the lockfile changed since the last install.
install_viewer_modules() {
  [ "$tier" = test ] || [ "$tier" = all ] || return 0
  local stamp="$root/viewer/node_modules/.mechdyn-lock-stamp"
  if [ -f "$stamp" ] && cmp -s "$stamp" "$root/viewer/package-lock.json"; then
    echo "install-deps: viewer/node_modules up to date"
    return
  fi
  echo "install-deps: npm ci in viewer/"
  (cd "$root/viewer" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$root/viewer/package-lock.json" "$stamp"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps ($tier): all ${#packages[@]} packages present"
else
  echo "install-deps ($tier): installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
install_viewer_modules
