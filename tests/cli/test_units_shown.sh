#!/usr/bin/env bash
# Names are listed in the unit the model declared them in, not in base SI:
# `param k = 40 [N/m]` reads [N/m], not [kg/s^2], in --dump=sema, the REPL's
# :set listing and mech solve; a param declared in a unit that rescales
# (`200 [g]`) keeps its SI value in the dump (with `# declared [g]`) and is
# shown in grams where values are listed for the user. Quantities declared
# without a unit keep their SI form, and the JSON keeps its SI fields.
# Usage: test_units_shown.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
# A mass on a vertical spring and a torsion spring: at rest x = m g / k,
# th = th0. (30 [deg] is 30*pi/180 = 0.5235987755982989 in doubles.)
cat >"$work/units.mech" <<'MODEL'
model Units {
  param m = 200 [g], k = 40 [N/m], g = 9.81 [m/s^2]
  param w [1/s] = 2*pi, th0 = 30 [deg], n = 3, k2 = 2 * k, x0 = -5 [cm]
  coord x [m], th [rad]
  let e [J] = k/2 * (x - x0)^2
  let d [cm] = 30
  let c [N*m*s] = 0.01 * w * n
  kinetic T = m/2 * x'^2 + m * d^2 / 2 * th'^2
  potential V = e + m * g * x + k2 / 2 * d^2 * (th - th0)^2
  dissipation D = c/2 * th'^2
}
MODEL

expect "dump sema" 0 "$mech" --dump=sema "$work/units.mech"
contains "a stiffness as declared" out "param k = 40 [N/m]"
contains "a rate as declared" out "param w = 6.283185307179586 [1/s]"
contains "grams: SI value, declared unit noted" out "param m = 0.2 [kg]  # declared [g]"
contains "degrees: SI value, declared unit noted" out \
  "param th0 = 0.5235987755982989 [1]  # declared [deg]"
contains "negative centimetres" out "param x0 = -0.05 [m]  # declared [cm]"
contains "a derived param keeps the SI form" out "param k2 = 80 [kg/s^2]"
contains "a plain number has no unit" out "param n = 3"
lacks "no base units for k" out "param k = 40 [kg/s^2]"
contains "a coordinate as declared" out "coord th [rad]"
contains "a let in joules" out "# a scalar [J]"
contains "a let in a compound unit" out "# a scalar [N*m*s]"
contains "a let in centimetres" out "# a scalar [m], declared [cm]"

# The REPL lists the params in their declared units, values converted.
printf ':load %s\n:set\n:set m = 0.3, th0 = 45 [deg]\n:set\n' "$work/units.mech" >"$work/units.in"
expect "repl :set listing" 0 sh -c "HOME='$work' '$mech' repl <'$work/units.in'"
contains "repl: grams" out "m = 200 [g]"
contains "repl: newtons per metre" out "k = 40 [N/m]"
contains "repl: degrees" out "th0 = 30 [deg]"
contains "repl: centimetres" out "x0 = -5 [cm]"
contains "repl: rate" out "w = 6.283185307179586 [1/s]"
contains "repl: derived in SI" out "k2 = 80 [kg/s^2]"
contains "repl: a plain number" out "n = 3"
# 0.3 kg is 300 g and 45 deg is pi/4, not 299.99999999999994 g.
contains "repl: set in SI, listed in grams" out "m = 300 [g]"
contains "repl: set in degrees" out "th0 = 45 [deg]"
lacks "repl: k not in base units" out "k = 40 [kg/s^2]"
lacks "repl: m not in kilograms" out "m = 0.2 [kg]"

# solve: at rest k (x - x0) + m g = 0, so at x = -0.1 m = k * 0.05 / g =
# 2/9.81 kg = 203.874 g and k = m g / 0.05 = 39.24 N/m; th0 = th = pi/6.
expect "solve for m" 0 "$mech" solve "$work/units.mech" --at "x=-0.1, th=30 [deg]" --for m
contains "solve: grams" out "m = 203.874 g"
expect "solve for k" 0 "$mech" solve "$work/units.mech" --at "x=-0.1, th=30 [deg]" --for k
contains "solve: N/m" out "k = 39.24 N/m"
expect "solve json" 0 "$mech" solve "$work/units.mech" --at "x=-0.1, th=30 [deg]" --for m,th0 \
  --json
save
expect "solve json: SI values, SI units, declared units" 0 python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
assert abs(d["solution"]["m"] - 40 * 0.05 / 9.81) < 1e-12, d
assert abs(d["solution"]["th0"] - math.pi / 6) < 1e-12, d
assert d["units"] == {"m": "kg", "th0": None}, d
assert d["units_declared"] == {"m": "g", "th0": "deg"}, d
' "$work/saved"

finish
