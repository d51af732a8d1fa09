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
# The tutorial's "Impacts": the bouncing ball, the rimless wheel's phase
# portrait.
"$mech" simulate examples/bouncing_ball.mech --until 6 -o "$work/ball.csv" \
  --plot-vars "y,y'" --plot "$images/bouncing_ball.svg"
"$mech" simulate examples/rimless_wheel.mech --until 20 -o "$work/wheel.csv" \
  --plot-x phi --plot-vars "phi'" --plot "$images/rimless_wheel_phase.svg"
# The plots of the tutorial's "Pictures": a phase portrait, a window of a
# longer run, the landscape of a bead on a spinning hoop.
"$mech" simulate examples/tutorial/spring_pendulum.mech --until 20 -o "$work/sp20.csv" \
  --plot-x th --plot-vars "th'" --plot "$images/spring_pendulum_phase.svg"
"$mech" simulate examples/tutorial/spring_pendulum.mech --until 100 -o "$work/sp100.csv" \
  --window 90..95 --plot-vars "r,r'" --plot "$images/spring_pendulum_window.svg"
"$mech" equilibria examples/rotating_hoop.mech --plot "$images/rotating_hoop_landscape.svg" \
  >/dev/null
# The tutorial's "Control": the cart pole under its LQR gain.
"$mech" simulate examples/cart_pole_lqr.mech --until 8 -o "$work/lqr.csv" \
  --plot-vars "x,th,F" --plot "$images/cart_pole_lqr.svg"
# The tutorial's "Periodic motions": the simplest walker's multipliers
# against the slope, through its period doubling.
"$mech" periodic examples/simplest_walker.mech --section heel \
  --guess "th=0.2, ph=0.4, th'=-0.2, ph'=-0.016" --sweep "gamma=0.009..0.02:23" \
  --plot "$images/walker_multipliers.svg" >/dev/null
# The animation page as a browser shows it 1.3 s in (headless Chromium,
# when installed: the page itself is not committed, it is made in a second).
"$mech" animate examples/double_pendulum.mech --until 10 --trace p2 -o "$work/dp.html" 2>/dev/null
if command -v chromium >/dev/null; then
  chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --window-size=680,720 \
    --screenshot="$images/double_pendulum_animation.png" "file://$work/dp.html#t=1.3" \
    >/dev/null 2>&1
else
  echo "docs-images.sh: chromium is not installed: double_pendulum_animation.png not updated"
fi
