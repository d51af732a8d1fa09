#!/usr/bin/env bash
# Rewrites the golden files of the tests (tests/golden/, tests/repl/*.out)
# from the current build, through the golden check of tests/cli/lib.sh;
# review `git diff` before committing them.
# usage: scripts/update-goldens.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
export MECH_UPDATE_GOLDEN=1
for test in test_equations_golden test_repl; do
  bash "$root/tests/cli/$test.sh" "$build/mech" "$root" "$build"
done
