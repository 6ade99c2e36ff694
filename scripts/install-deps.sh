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
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
