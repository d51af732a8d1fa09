#!/usr/bin/env bash
# Configures and builds one flavour of mech: `release` into build/ (the CLI
# at build/mech) or `asan` (AddressSanitizer + UndefinedBehaviorSanitizer)
# into build-asan/, or `fuzz` (the libFuzzer targets, clang-19) into build-fuzz/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
flavour="${1:-release}"
jobs="${MECH_JOBS:-2}"
targets=()

case "$flavour" in
  release) dir="$root/build"; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan)
    # What the sanitizer pass runs (the CLI and the unit tests, not the
    # benchmarks), with line tables only: sanitizer reports need file and
    # line, and full debug info costs a third of this build's time. -O1,
    # as the sanitizers' own documentation advises: it compiles faster
    # than -O2 and keeps the reports' stacks whole.
    dir="$root/build-asan"
    # Without the MPI module and the Python package: Open MPI and CPython
    # trip LeakSanitizer, and the sanitizer pass runs neither.
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMECH_SANITIZE=ON -DMECH_MPI=OFF -DMECH_PYTHON=OFF
           "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
           "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
    targets=(mech mech_tests) ;;
  fuzz)
    # The libFuzzer targets only (fuzz/README.md), built with clang-19:
    # -O1 with line tables and assertions on, as fuzzing builds are.
    if ! command -v clang++-19 >/dev/null || ! command -v clang-19 >/dev/null; then
      echo "build.sh: fuzz skipped: clang-19 is not installed (scripts/install-deps.sh)"
      exit 0
    fi
    dir="$root/build-fuzz"
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMECH_FUZZ=ON -DMECH_MPI=OFF -DMECH_PYTHON=OFF
           -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
           "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only"
           "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only")
    targets=(mech_fuzzers) ;;
  *) echo "usage: scripts/build.sh [release|asan|fuzz]" >&2; exit 2 ;;
esac

cmake -S "$root" -B "$dir" -G Ninja "${flags[@]}" >/dev/null
ninja -C "$dir" -j "$jobs" "${targets[@]}"
