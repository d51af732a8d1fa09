#!/usr/bin/env bash
# Configures and builds one flavour of mech: `release` into build/ (the CLI
# at build/mech), or `asan` into build-asan/: AddressSanitizer and
# UndefinedBehaviorSanitizer, and with clang-19 also the libFuzzer targets
# (fuzz/README.md) from the same instrumented libraries, so that the test
# command compiles the code once for both. `fuzz` builds only those targets
# there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
flavour="${1:-release}"
jobs="${MECH_JOBS:-2}"
targets=()

have_clang() { command -v clang++-19 >/dev/null && command -v clang-19 >/dev/null; }

case "$flavour" in
  release) dir="$root/build"; flags=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan|fuzz)
    # What the sanitizer pass runs (the CLI, the unit tests and the fuzz
    # targets, not the benchmarks), with line tables only: sanitizer reports
    # need file and line, and full debug info costs a third of this build's
    # time. -O1, as the sanitizers' own documentation advises: it compiles
    # faster than -O2 and keeps the reports' stacks whole. Without the MPI
    # module and the Python package: Open MPI and CPython trip
    # LeakSanitizer, and the sanitizer pass runs neither.
    dir="$root/build-asan"
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMECH_MPI=OFF -DMECH_PYTHON=OFF)
    if have_clang; then
      # clang-19: every library also instrumented for libFuzzer's coverage
      # (MECH_FUZZ), with assertions on, as fuzzing builds are. Measured,
      # the sanitizer pass runs no slower than with GCC's ASan build.
      flags+=(-DMECH_FUZZ=ON -DMECH_SANITIZE=OFF -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
              "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only"
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only")
      compiler=clang++-19
      targets=(mech mech_tests mech_fuzzers)
    elif [ "$flavour" = fuzz ]; then
      echo "build.sh: fuzz skipped: clang-19 is not installed (scripts/install-deps.sh)"
      exit 0
    else
      flags+=(-DMECH_SANITIZE=ON -DMECH_FUZZ=OFF
              "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
              "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")
      compiler=c++
      targets=(mech mech_tests)
    fi
    [ "$flavour" = fuzz ] && targets=(mech_fuzzers)
    # A tree configured with the other compiler is configured afresh (CMake
    # cannot change the compiler of a configured tree).
    if [ -f "$dir/CMakeCache.txt" ] &&
       ! grep -qE "^CMAKE_CXX_COMPILER:[A-Z]*=(.*/)?${compiler//+/\\+}\$" "$dir/CMakeCache.txt"; then
      rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
    fi ;;
  *) echo "usage: scripts/build.sh [release|asan|fuzz]" >&2; exit 2 ;;
esac

cmake -S "$root" -B "$dir" -G Ninja "${flags[@]}" >/dev/null
ninja -C "$dir" -j "$jobs" "${targets[@]}"
# After a release build, Debian's python3 imports the package from any
# folder (scripts/link-python.sh).
if [ "$flavour" = release ]; then
  "$root/scripts/link-python.sh"
fi
