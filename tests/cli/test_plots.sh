#!/usr/bin/env bash
# Plots people read (docs/cli.md "Plots"): units in the legend and on the
# value axes, one panel per unit, phase portraits and x-y plots (--plot-x),
# a time window (--window), PNG through rsvg-convert, and the errors of
# each. The SVGs are checked by their structure and against exact answers
# (the harmonic oscillator's orbit closes after one period).
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"
dp="$root/examples/double_pendulum.mech"
ho="$root/tests/cli/models/harmonic_oscillator.mech"

# a. Units and panels: th1, th2 in rad share a panel; th1' in rad/s has its own.
expect "panels by unit" 0 "$mech" simulate "$dp" --until 5 -o /dev/null --plot dp.svg \
  --plot-vars "th1,th2,th1'"
check_py "two panels, units in legends and on the value axes" '
svg = open(W + "/dp.svg").read()
assert svg.count("<g class=\"panel\"") == 2, svg.count("<g class=\"panel\"")
assert "data-unit=\"rad\"" in svg and "data-unit=\"rad/s\"" in svg
texts = re.findall(r">([^<>]*)</text>", svg)
for label in ["th1 [rad]", "th2 [rad]", "th1&apos; [rad/s]", "th1, th2 [rad]", "t [s]"]:
    assert label in texts, (label, texts)
assert svg.count("class=\"y-label\"") == 2
# the panels are stacked, the rate below the angles
tops = [float(y) for y in re.findall(r"<clipPath id=\"[^\"]*\"><rect x=\"[^\"]*\" y=\"([^\"]*)\"", svg)]
assert len(tops) == 2 and tops[0] < tops[1], tops
'
# One unit: one panel, as before.
expect "one unit, one panel" 0 "$mech" simulate "$dp" --until 2 -o /dev/null --plot one.svg
check_py "one panel" '
svg = open(W + "/one.svg").read()
assert svg.count("<g class=\"panel\"") == 1 and ">th1, th2 [rad]</text>" in svg
'
# A multiplier and an output carry theirs (N/m for a rod, N for a tension).
expect "multiplier and output units" 0 "$mech" simulate "$root/examples/cartesian_pendulum.mech" \
  --until 1 -o /dev/null --plot cp.svg --plot-vars "x,rod,tension"
check_py "multiplier and output units" '
svg = open(W + "/cp.svg").read()
for unit in ["m", "N/m", "N"]:
    assert "data-unit=\"%s\"" % unit in svg, unit
'

# b. A phase portrait: x against x' of x'' = -4x over one period pi is an
# ellipse that closes, x in [-a, a], x' in [-2a, 2a].
expect "phase portrait" 0 "$mech" simulate "$ho" --until 3.141592653589793 --dt 0.001 -o ho.csv \
  --plot-x x --plot-vars "x'" --plot phase.svg
check_py "the orbit closes and spans the exact ellipse" '
svg = open(W + "/phase.svg").read()
assert ">x [m]</text>" in svg and "t [s]" not in svg
pts = [tuple(map(float, p.split(","))) for line in re.findall(r"<polyline points=\"([^\"]*)\"", svg)
       for p in line.split()]
assert len(pts) > 100
first, last = pts[0], pts[-1]
assert math.hypot(first[0] - last[0], first[1] - last[1]) < 1.0, (first, last)
rows = list(csv.DictReader(open(W + "/ho.csv")))
x = [float(r["x"]) for r in rows]; v = [float(r["x\x27"]) for r in rows]
a = math.hypot(1, 0.5)  # from x = 1, dx/dt = 1: the amplitude sqrt(1 + (1/2)^2)
assert abs(max(x) - a) < 1e-3 and abs(min(x) + a) < 1e-3, (max(x), min(x))
assert abs(max(v) - 2 * a) < 2e-3, max(v)
'
# c. A window: only 5 <= t <= 10 of a 30 s run is drawn; the CSV keeps all.
expect "window" 0 "$mech" simulate "$dp" --until 30 -o all.csv --window 5..10 --plot win.svg
check_py "the window bounds the time axis" '
svg = open(W + "/win.svg").read()
ticks = re.search(r"<g class=\"tick-labels\"[^>]*>(.*?)</g>", svg, re.S).group(1)
labels = [float(t.replace("\u2212", "-")) for t in re.findall(r">([^<>]*)</text>", ticks)]
xs = [l for l in labels if 5 <= l <= 10]
assert min(xs) == 5 and max(xs) == 10, labels
rows = list(csv.reader(open(W + "/all.csv")))
assert float(rows[-1][0]) == 30
'
# d. Errors, before anything is written.
expect "window backwards" 2 "$mech" simulate "$dp" --until 3 --window 5..1 --plot w.svg
contains "window backwards says so" err "--window needs a time span 'a..b' with a < b, got '5..1'"
expect "window outside the run" 2 "$mech" simulate "$dp" --until 3 --window 5..9 --plot w.svg
contains "window outside says the run" err "--window 5..9 holds no time of the run (0..3)"
expect "window without a plot" 2 "$mech" simulate "$dp" --until 3 --window 1..2
contains "window without a plot says so" err "--window shapes the plot: give --plot FILE too"
expect "plot-x without a plot" 2 "$mech" simulate "$dp" --until 3 --plot-x th1
expect "plot-x unknown" 1 "$mech" simulate "$dp" --until 3 --plot-x nosuch --plot w.svg -o w.csv
contains "plot-x unknown names it" err "--plot-x: 'nosuch' is not a coordinate, velocity, multiplier or output"
check_py "no file written after an error" '
import os
assert not os.path.exists(W + "/w.svg") and not os.path.exists(W + "/w.csv")
'

# d2. equilibria --plot: W = V - T0 of the rotating hoop against th, its
# two stable states (cos th = g/(R w^2)) and two unstable ones (0, pi) as
# dots in the series' colours; two coordinates as a heat map; more, or
# constraints, a usage error.
expect "landscape of one coordinate" 0 "$mech" equilibria "$root/examples/rotating_hoop.mech" --plot hoop.svg
check_py "W against th with the states of rest" '
svg = open(W + "/hoop.svg").read()
assert "<title>W = V - T0 of RotatingHoop</title>" in svg
colours = re.findall(r"<g class=\"series\"[^>]*color=\"([^\"]*)\">(.*?)</g>", svg, re.S)
dots = {c: body.count("<circle") for c, body in colours}
assert dots == {"#0072B2": 0, "#D55E00": 2, "#009E73": 2}, dots
assert ">th [rad]</text>" in svg
'
expect "landscape of two coordinates" 0 "$mech" equilibria "$dp" --plot dp-eq.svg
contains "a heat map of V" out "DoublePendulum: 4 equilibria"
check_py "a heat map titled V" 'assert "V of DoublePendulum" in open(W + "/dp-eq.svg").read()'
expect "landscape of three coordinates" 2 "$mech" equilibria "$root/examples/chain.mech" --plot c.svg
contains "three coordinates says so" err "equilibria: --plot draws V over one or two coordinates; Chain has"
expect "landscape with constraints" 2 "$mech" equilibria "$root/examples/cartesian_pendulum.mech" --plot c.svg
contains "constraints say so" err "equilibria: --plot draws V over free coordinates; CartesianPendulum has constraints"

# e. PNG: through rsvg-convert when it is installed; a clear error before
# the run when it is not (PATH without it).
if command -v rsvg-convert >/dev/null; then
  expect "png" 0 "$mech" simulate "$dp" --until 2 -o /dev/null --plot dp.png
  check_py "a PNG of the plot size" '
import struct
data = open(W + "/dp.png", "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
assert struct.unpack(">II", data[16:24]) == (900, 540)
'
  expect "sweep png" 0 "$mech" sweep "$dp" --grid "th1=0.1..0.5:3" --until 1 \
    --summary "max(th2)" -o /dev/null --plot sweep.png
  check_py "sweep png" 'assert open(W + "/sweep.png", "rb").read()[:4] == b"\x89PNG"'
else
  echo "note: rsvg-convert is not installed (librsvg2-bin): PNG output untested"
fi
mkdir -p nobin
expect "png without rsvg-convert" 1 env PATH="$work/nobin" "$mech" simulate "$dp" --until 2 \
  -o none.csv --plot none.png
contains "png without rsvg-convert says what to install" err "a PNG plot needs rsvg-convert (Debian: apt-get install librsvg2-bin); or name the plot .svg"
check_py "nothing written without rsvg-convert" '
import os
assert not os.path.exists(W + "/none.png") and not os.path.exists(W + "/none.csv")
'
finish
