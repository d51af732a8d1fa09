#!/usr/bin/env bash
# Installs what is missing, builds mech, and runs its main job: the double
# pendulum's Lagrange equations are derived, compiled to native code and
# simulated for 10 s (trajectory in build/double_pendulum.csv, plot in
# build/double_pendulum.svg); every example model is checked too.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" release
cd "$root"
build/mech check examples/*.mech
echo
build/mech equations examples/double_pendulum.mech
echo
build/mech simulate examples/double_pendulum.mech --until 10 --dt 0.01 \
  -o build/double_pendulum.csv --plot build/double_pendulum.svg
echo
echo "trajectory: build/double_pendulum.csv (every 0.01 s; the first and last rows:)"
head -2 build/double_pendulum.csv
tail -1 build/double_pendulum.csv
echo "plot: build/double_pendulum.svg"
