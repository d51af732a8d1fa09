#!/usr/bin/env bash
# Command-line tests of `mech solve` (statics by virtual work): text and
# JSON answers checked against closed forms, usage errors (exit 2) and model
# errors (exit 1). Usage: test_solve.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"

# Slider-crank: M = -P*r*sin(phi + beta)/cos(beta), -9.769 N*m at 60 degrees.
expect "slider-crank" 0 "$mech" solve examples/slider_crank.mech --at "phi = 60 [deg]" --for M
contains "slider-crank couple" out "M = -9.76909 N*m"
contains "slider-crank determined" out "exactly determined"
contains "slider-crank balanced" out "(balanced)"

expect "slider-crank json" 0 "$mech" solve examples/slider_crank.mech --at "phi = 60 [deg]" --for M --json
save
expect "slider-crank json parses" 0 python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
phi, r, l, P = math.pi / 3, 0.1, 0.4, 100
beta = math.asin(r * math.sin(phi) / l)
M = -P * r * math.sin(phi + beta) / math.cos(beta)
assert d["model"] == "SliderCrank", d
assert abs(d["solution"]["M"] - M) < 1e-9, (d["solution"], M)
assert d["determined"] == "exactly" and d["residual"] < 1e-9 and d["units"]["M"] == "N*m", d
assert "reactions" not in d, d
' "$work/saved"

# Toggle press: F = P/(2 tan(alpha)), 56.7128 N at 10 degrees.
expect "toggle press" 0 "$mech" solve examples/toggle_press.mech --at "alpha = 10 [deg]" --for F
contains "toggle press force" out "F = 56.7128 N"

# A constrained slider-crank: --at gives phi, x follows from the rod, and
# the rod's multiplier is P/(2*l*cos(beta)).
cat >"$work/crank.mech" <<'MODEL'
model SliderCrankConstrained {
  param r = 0.1 [m], l = 0.4 [m], P = 1000 [N], M = 0 [N*m], mc = 2 [kg], ms = 1.5 [kg]
  coord phi [rad], x [m]
  body crank mass mc at r/2 * [cos(phi), sin(phi)] angle phi inertia mc*r^2/12
  particle slider mass ms at [x, 0]
  constraint rod: (x - r*cos(phi))^2 + (r*sin(phi))^2 == l^2
  force [-P, 0] at [x, 0]
  torque M on phi
  init x = 0.5
}
MODEL
expect "constrained" 0 "$mech" solve "$work/crank.mech" --at "phi = 60 [deg]" --for M
contains "constrained couple" out "M = -97.6909 N*m"
contains "constrained x from the rod" out "(from the constraints)"
contains "constrained reaction" out "rod = 1280.37 N/m"
expect "constrained json" 0 "$mech" solve "$work/crank.mech" --at "phi = 60 [deg]" --for M --json
save
expect "constrained json parses" 0 python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
phi, r, l, P = math.pi / 3, 0.1, 0.4, 1000
beta = math.asin(r * math.sin(phi) / l)
assert abs(d["reactions"]["rod"] - P / (2 * l * math.cos(beta))) < 1e-6, d
assert abs(d["at"]["x"] - (r * math.cos(phi) + l * math.cos(beta))) < 1e-9, d
' "$work/saved"
expect "off the constraints" 1 "$mech" solve "$work/crank.mech" --at "phi = 60 [deg], x = 0.1" --for M
contains "off the constraints message" err "is not on the constraints"
expect "unknown shaping a constraint" 1 "$mech" solve "$work/crank.mech" --at "phi = 1" --for l
contains "unknown shaping a constraint message" err "param 'l' appears in constraint 'rod'"

# Two forces acting alike: under-determined; one force on a double
# pendulum: over-determined.
cat >"$work/held.mech" <<'MODEL'
model Held {
  param m1 = 1.1 [kg], m2 = 0.7 [kg], l1 = 1.0 [m], l2 = 0.8 [m], g = 9.81 [m/s^2]
  param F1 = 0 [N], F2 = 0 [N], G2 = 0 [N]
  coord th1 [rad], th2 [rad]
  let p1 = l1 * [sin(th1), -cos(th1)]
  let p2 = p1 + l2 * [sin(th2), -cos(th2)]
  particle b1 mass m1 at p1
  particle b2 mass m2 at p2
  gravity [0, -g]
  force [F1, 0] at p1
  force [F2 + G2, 0] at p2
}
MODEL
expect "two unknowns" 0 "$mech" solve "$work/held.mech" --at "th1 = 0.4, th2 = 0.9" --for F1 --for F2
contains "two unknowns determined" out "exactly determined (2 unknowns, 2 equilibrium conditions)"
# F2 and G2 act alike: F1 = (m1 + m2) g tan(th1) - m2 g tan(th2) is fixed,
# F2 + G2 = m2 g tan(th2) is split evenly by the minimum norm.
expect "under" 0 "$mech" solve "$work/held.mech" --at "th1 = 0.4, th2 = 0.9" --for F1,F2,G2 --json
save
expect "under json" 0 python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["determined"] == "under", d
assert len(d["free_directions"]) == 1, d
F = 0.7 * 9.81 * math.tan(0.9)
assert d["balanced"] and d["rank"] == 2, d
assert abs(d["solution"]["F1"] - (1.8 * 9.81 * math.tan(0.4) - F)) < 1e-9, d
assert abs(d["solution"]["F2"] - F / 2) < 1e-9 and abs(d["solution"]["G2"] - F / 2) < 1e-9, d
' "$work/saved"
expect "under text" 0 "$mech" solve "$work/held.mech" --at "th1 = 0.4, th2 = 0.9" --for F1 --for F2 --for G2
contains "under says so" out "under-determined"
contains "under names the free direction" out "free directions"
expect "over" 0 "$mech" solve "$work/held.mech" --at "th1 = 0.4, th2 = 0.9" --for F2
contains "over says so" out "over-determined"
contains "over cannot balance" out "cannot be balanced exactly"

# Usage and model errors.
expect "no --for" 2 "$mech" solve examples/slider_crank.mech --at "phi = 1"
contains "no --for message" err "--for"
expect "no file" 2 "$mech" solve --for M
expect "unknown option" 2 "$mech" solve examples/slider_crank.mech --for M --until 3
expect "unknown param" 1 "$mech" solve examples/slider_crank.mech --at "phi = 1" --for Q
contains "unknown param located" err "examples/slider_crank.mech:11:7: error: --for 'Q': not a param of SliderCrank"
contains "unknown param lists the params" err "its params: r, l, P, M, mc, ms"
expect "unknown coordinate" 1 "$mech" solve examples/slider_crank.mech --at "psi = 1" --for M
contains "unknown coordinate message" err "'psi' is not a coordinate of SliderCrank"

finish
