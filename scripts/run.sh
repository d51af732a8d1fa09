#!/usr/bin/env bash
# Installs what is missing, builds mech, and runs its main job on the
# examples: every example model is checked, and the double pendulum's
# Lagrange equations are derived and evaluated at its initial state.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
cd "$root"
build/mech check examples/*.mech
echo
build/mech equations examples/double_pendulum.mech
echo
build/mech eval examples/double_pendulum.mech
