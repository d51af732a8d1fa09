#!/usr/bin/env bash
# Regenerates the pictures under docs/images from the models, so that they
# stay what the current mech draws: the README's double pendulum, the
# tutorial's spring pendulum and the double pendulum's flip basin (a sweep).
# Run after scripts/build.sh; takes about a minute on two cores.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mech="${MECH:-$root/build/mech}"
images="$root/docs/images"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
"$mech" simulate examples/double_pendulum.mech --until 10 -o "$work/dp.csv" \
  --plot "$images/double_pendulum.svg"
"$mech" simulate examples/tutorial/spring_pendulum.mech --until 10 -o "$work/sp.csv" \
  --plot "$images/spring_pendulum.svg"
# From rest at each (th1, th2): the time at which the lower arm first
# swings over the top (|th2| > pi), none within 10 s in grey.
"$mech" sweep examples/double_pendulum.mech --grid "th1=-3..3:150, th2=-3..3:150" \
  --init "th1'=0, th2'=0" --until 10 --rtol 1e-8 --atol 1e-8 \
  --summary "flip = first_time(abs(th2) > pi)" -o "$work/basin.csv" \
  --plot "$images/double_pendulum_basin.svg"
