#!/usr/bin/env bash
# Installs every Debian package mechdyn needs to build, test, benchmark and plot.
# Debian 12 (bookworm), run as root. Idempotent: installs only what is missing.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  libeigen3-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev libmuparser-dev
  python3-matplotlib
  pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-yaml  # Python bindings (python/, docs/python.md)
  python3-distributed           # Python sweeps on Dask distributed (mechdyn.sweep)
  python3-nbclient python3-nbformat python3-ipykernel  # the example notebook run headless (tests/python)
  python3-venv python3-pip python3-setuptools python3-wheel  # the wheel built from source into a venv (docs/python.md)
  libtinyxml2-dev liburdfdom-dev libsdformat-dev  # robot files (docs/robot-files.md): MJCF/XML, URDF, SDFormat
  libmujoco-dev libsimbody-dev  # benchmark peers (bench/peers/): MuJoCo required, Simbody optional
  clang-14 libclang-rt-14-dev llvm-14  # fuzzing (scripts/fuzz.sh): libFuzzer, sanitizer runtimes, llvm-symbolizer
  ccache                        # optional speed-up of the extra builds (sanitizers, fuzzing)
  chromium                      # the viewer's browser tests (docs/viewer.md), driven headless by playwright-core
)
# Node.js and npm for the viewer (viewer/package.json): the machine's (Node.js 20 with
# npm 11 on the project's machines); Debian's nodejs + npm only where there is none —
# Debian 12's Node.js 18 builds the bundle, but playwright-core (the browser tests) wants
# Node.js >= 20, so there the browser test is skipped with a line saying so.
command -v npm >/dev/null && command -v node >/dev/null || packages+=(nodejs npm)

# viewer/node_modules (three, esbuild, playwright-core at the versions of
# viewer/package-lock.json; never a browser download: playwright-core drives the Chromium
# above). Re-run only when the lockfile changed since the last install.
install_viewer_modules() {
  local root stamp
  root="$(cd "$(dirname "$0")/.." && pwd)"
  stamp="$root/viewer/node_modules/.mechdyn-lock-stamp"
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
  echo "install-deps: all ${#packages[@]} packages present"
  install_viewer_modules
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
install_viewer_modules
