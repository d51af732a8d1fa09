#!/usr/bin/env bash
# Installs what is missing, builds mech, and runs its main job on the
# examples: every example model is checked.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
cd "$root"
build/mech check examples/*.mech
