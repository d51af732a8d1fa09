#!/usr/bin/env bash
# Installs what is missing, then builds and runs the whole test suite twice:
# a release build (build/) and an ASan + UBSan build (build-asan/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"

"$root/scripts/build.sh" release
(cd "$root/build" && ctest --output-on-failure -j 2)

"$root/scripts/build.sh" asan
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
(cd "$root/build-asan" && ctest --output-on-failure -j 2)
