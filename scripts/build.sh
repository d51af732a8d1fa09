#!/usr/bin/env bash
# Configures and builds one flavour of mech: `release` into build/ (the CLI
# at build/mech) or `asan` (AddressSanitizer + UndefinedBehaviorSanitizer)
# into build-asan/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
flavour="${1:-release}"
jobs="${MECH_JOBS:-2}"

case "$flavour" in
  release) dir="$root/build"; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)    dir="$root/build-asan"; flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMECH_SANITIZE=ON) ;;
  *) echo "usage: scripts/build.sh [release|asan]" >&2; exit 2 ;;
esac

cmake -S "$root" -B "$dir" -G Ninja "${flags[@]}" >/dev/null
ninja -C "$dir" -j "$jobs"
