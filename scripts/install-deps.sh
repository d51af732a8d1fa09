#!/usr/bin/env bash
# Installs the Debian 12 packages mech needs, and nothing when all are present.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  antlr4 libantlr4-runtime-dev uuid-dev
  llvm-19-dev libzstd-dev zlib1g-dev
  libeigen3-dev catch2 libedit-dev
  python3  # the command-line tests check JSON and CSV output with it
  tmux     # the REPL's terminal test drives it through a real terminal
  clang-19 libclang-rt-19-dev  # the libFuzzer targets in fuzz/
  libopenmpi-dev openmpi-bin  # mech sweep over the ranks of an MPI job
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python package (python/)
  python3-distributed  # its optional test of sweeps on a Dask cluster
  python3-scipy  # the periodic-motion tests' references, computed independently of mech
  chromium chromium-driver python3-selenium  # the animation pages tested in a real browser
  librsvg2-bin  # rsvg-convert: plots written as PNG (mech runs it; it is not linked)
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
