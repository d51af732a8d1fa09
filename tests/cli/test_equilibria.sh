#!/usr/bin/env bash
# Command-line tests of `mech equilibria` and `mech linearize`: text and JSON
# reports, the search box, frozen time, usage errors and model errors.
# Usage: test_equilibria.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
expect "double pendulum equilibria" 0 "$mech" equilibria examples/double_pendulum.mech
contains "four equilibria" out "DoublePendulum: 4 equilibria"
contains "bottom is stable" out "stable -- Lagrange-Dirichlet (Hessian of W positive definite)"
contains "others unstable" out "unstable -- negative eigenvalue of the Hessian of W"
contains "normal modes" out "mode 2: omega = "

expect "double pendulum json" 0 "$mech" equilibria examples/double_pendulum.mech --json
save
expect "json parses" 0 python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["model"] == "DoublePendulum", d
eq = d["equilibria"]
assert len(eq) == 4, eq
stable = [e for e in eq if e["stable"] is True]
assert len(stable) == 1 and abs(stable[0]["q"]["th1"]) < 1e-9 and abs(stable[0]["q"]["th2"]) < 1e-9
assert len(stable[0]["frequencies"]) == 2 and len(stable[0]["modes"]) == 2
assert all(e["stable"] is False for e in eq if e is not stable[0])
' "$work/saved"

expect "cartesian pendulum" 0 "$mech" equilibria examples/cartesian_pendulum.mech
contains "reduced hessian" out "reduced Hessian of W - lambda.Phi positive definite"
contains "multiplier" out "multiplier rod = -4.905"

expect "hoop, fast" 0 "$mech" equilibria examples/rotating_hoop.mech
contains "hoop has four" out "RotatingHoop: 4 equilibria"
expect "hoop, slow" 0 "$mech" equilibria examples/rotating_hoop.mech --set w=2 --json
save
expect "slow hoop json" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
eq = d["equilibria"]
assert len(eq) == 2, eq
assert eq[0]["q"]["th"] == 0 and eq[0]["stable"] is True
assert abs(eq[0]["frequencies"][0] - (9.81 / 0.5 - 4) ** 0.5) < 1e-9
' "$work/saved"

expect "search box" 0 "$mech" equilibria examples/double_pendulum.mech --in "th1=-1..1, th2=-pi/2..pi/2"
contains "one in the box" out "DoublePendulum: 1 equilibrium in th1 = -1..1, th2 = -1.5708..1.5708"

expect "explicit time is refused" 1 "$mech" equilibria examples/driven_rod.mech
contains "explicit time message" err "driven_rod.mech:5:7: error: the equations of DrivenRod depend on t explicitly"
expect "frozen time" 0 "$mech" equilibria examples/driven_rod.mech --time 0
contains "frozen time noted" out "(t frozen at 0)"
contains "damped: eigenvalues decide" out "asymptotically stable -- eigenvalues of the linearized system"

expect "nonholonomic refused" 1 "$mech" equilibria examples/knife_edge.mech
contains "nonholonomic message" err "knife_edge.mech:5:7: error: equilibria of models with nonholonomic constraints"

expect "linearize" 0 "$mech" linearize examples/double_pendulum.mech --at "th1=0, th2=0"
contains "linearize K" out "K = -df/dq"
contains "linearize A" out "A = [[0, I], [-M^-1 K, -M^-1 D]]"
expect "linearize json" 0 "$mech" linearize examples/double_pendulum.mech --at "th1=0, th2=0" --json
save
expect "linearize json parses" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d["K"][0][0] - 2 * 9.81) < 1e-9 and abs(d["M"][0][1] - 0.8) < 1e-12
assert len(d["A"]) == 4 and d["A"][0][2] == 1
' "$work/saved"
expect "linearize off equilibrium" 0 "$mech" linearize examples/double_pendulum.mech --at "th1=0.5"
contains "not an equilibrium" out "note: not an equilibrium"

# A constrained pendulum (Phi = x^2 + y^2 - l^2, m = l = 1) hanging at rest:
# the rod balances gravity, -m g - 2 l lambda = 0 so lambda = -m g/(2 l),
# and its curvature -lambda Hess(Phi) = (m g/l) I is the swing's stiffness.
expect "linearize constrained" 0 "$mech" linearize examples/cartesian_pendulum.mech --at "x=0, y=-1" --json
save
expect "constrained rest balanced by the rod" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert abs(d["multipliers"]["rod"] + 9.81 / 2) < 1e-12, d["multipliers"]
assert abs(d["K"][0][0] - 9.81) < 1e-12 and abs(d["K"][1][1] - 9.81) < 1e-12, d["K"]
' "$work/saved"
expect "linearize constrained text" 0 "$mech" linearize examples/cartesian_pendulum.mech --at "x=0, y=-1"
contains "multipliers at the configuration" out "multipliers balancing f at this configuration (least squares): rod = -4.905"
lacks "the hanging pendulum is an equilibrium" out "not an equilibrium"

# Usage errors.
expect "linearize needs --at" 2 "$mech" linearize examples/double_pendulum.mech
expect "unknown option" 2 "$mech" equilibria examples/double_pendulum.mech --frob
expect "no file" 2 "$mech" equilibria
expect "bad --in" 2 "$mech" equilibria examples/double_pendulum.mech --in "th1=3"
contains "bad --in message" err "--in expects 'q = low..high'"
expect "empty --in range" 2 "$mech" equilibria examples/double_pendulum.mech --in "th1=1..0"
expect "bad --time" 2 "$mech" equilibria examples/driven_rod.mech --time soon

# Model errors.
expect "not a coordinate" 1 "$mech" equilibria examples/double_pendulum.mech --in "zz=0..1"
contains "not a coordinate message" err "'zz' is not a coordinate of DoublePendulum"
printf 'model X {\n  coord x [m]\n  potential V = x\n}\n' >"$work/dim.mech"
expect "broken model" 1 "$mech" equilibria "$work/dim.mech"
contains "located error" err "dim.mech:3:17: error:"
expect "missing file" 1 "$mech" linearize "$work/none.mech" --at "x=0"
# The chain has 2^10 equilibria in the default box: more than the search's
# 640 start points can find, which it says.
expect "an incomplete search" 0 "$mech" equilibria examples/chain.mech
contains "an incomplete search is announced" err "the search may have missed equilibria"
expect "a complete one" 0 "$mech" equilibria examples/double_pendulum.mech
cp "$work/err" "$work/complete.err"
expect "no warning for it" 1 grep -q "missed" "$work/complete.err"

# A velocity constraint with constant coefficients is integrable and is
# treated as the position constraint it integrates to (d/dt(s - r phi) =
# s' - r phi'; a conveyor's x' == v0 is d/dt(x - v0 t), which asks for
# motion: no rest). The knife edge's is not integrable: refused, saying so.
# (tests/cli/test_integrable.sh checks the equilibria against closed forms.)
cat >"$work/incline.mech" <<'MODEL'
model Incline {
  param m = 1 [kg], r = 0.2 [m], v0 = 1 [m/s]
  coord s [m], phi [rad], x [m]
  kinetic T = m/2 * s'^2 + m * r^2 / 4 * phi'^2 + m/2 * x'^2
  constraint rolling: s' == r * phi'
  constraint belt: x' == v0
}
MODEL
expect "integrable velocity constraints" 0 "$mech" equilibria "$work/incline.mech"
contains "no rest on the belt" out "Incline: no equilibrium in"
contains "the rolling form" out "note: 'rolling' integrates to -r*phi + s = const: treated as holonomic, kept at its value at the model's init, 0"
contains "the belt's form" out "note: 'belt' integrates to -v0*t + x = const: treated as holonomic, kept at its value at the model's init, 0; it asks for motion"
expect "the knife edge" 1 "$mech" equilibria "$root/examples/knife_edge.mech"
contains "not an exact form" err "note: it is not an exact form (the time derivative of a function of the coordinates)"
finish
