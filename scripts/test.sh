#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite twice:
# a release build (build/) and an ASan + UBSan build (build-asan/, which with
# clang-19 also holds the libFuzzer targets and replays their regression
# inputs); then fuzzes each target for a bounded time (fuzz/README.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
# fmpy, into .venv, for the FMU tests (never fails: they skip without it).
"$root/scripts/install-python-extras.sh"

"$root/scripts/build.sh" release
(cd "$root/build" && ctest --output-on-failure -j 2)

"$root/scripts/build.sh" asan
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# Without the tests labelled heavy (tests/CMakeLists.txt says which and
# why); test_build covers a third of the examples (it says why). With
# clang-19 the tree also holds the fuzz targets, whose regression inputs
# are tests of this pass.
(cd "$root/build-asan" && MECH_SANITIZER_PASS=1 ctest --output-on-failure -j 2 -LE heavy)

# The bounded fuzzing run (fuzz/README.md); it needs clang-19.
if [ -x "$root/build-asan/fuzz/fuzz_repl" ]; then
  bash "$root/fuzz/run.sh" "$root/build-asan" "${MECH_FUZZ_SECONDS:-20}"
else
  echo "test.sh: fuzzing skipped: clang-19 is not installed"
fi
