#!/usr/bin/env bash
# `mech equations --minimal`: Kane's equations in the independent speeds.
#
# The rolling coin of examples/rolling_coin.mech against the rolling disk as
# the textbooks treat it (Newton-Euler about the mass centre in the frame
# that turns with the heading and the lean; Greenwood, Principles of
# Dynamics; Kane & Levinson, Dynamics: Theory and Applications), written out
# here by hand for a thin disk of mass m and radius r: I = m r^2/4 about a
# diameter, J = m r^2/2 about the axle.
#
# The mapping to this example's coordinates and signs. Z is up. The
# frame A = rot_z(heading) * rot_x(lean) has
#   e1 = (cos psi, sin psi, 0): the direction of travel, horizontal;
#   e2 = (-sin psi cos th, cos psi cos th, sin th): the axle;
#   e3 = (sin psi sin th, -cos psi sin th, cos th): from the contact to the
#        centre G = P + r e3;
# with psi = heading, th = lean (positive tilts the coin to the right of
# its travel: G moves along -y for psi = 0), phi = spin about e2. In A,
# Z = (0, s, c) with s = sin th, c = cos th, the frame turns at
# Omega = (th', psi' s, psi' c) and the coin at w = (th', psi' s + phi', psi' c).
# Rolling (the contact's material point at rest): v_G = w x r e3
# = r (psi' s + phi', -th', 0), so the contact point moves at
# v_P = v_G - Omega x r e3 = r phi' e1: x' = r cos(psi) phi', y' = r sin(psi) phi'.
# With H = (I th', J (psi' s + phi'), I psi' c) and a_G = d/dt v_G in A plus
# Omega x v_G, the balance of moments about G with the contact force
# F = m a_G + m g Z eliminated is E = dH/dt + r e3 x m a_G - m g r s e1 = 0:
#   E1 = (I + m r^2) th'' + (I - J - m r^2) psi'^2 s c - (J + m r^2) psi' phi' c - m g r s
#   E2 = (J + m r^2) (psi'' s + phi'') + (J + 2 m r^2) psi' th' c
#   E3 = I psi'' c - 2 I psi' th' s + J th' (psi' s + phi')
# Kane's equation of each speed projects E on its partial angular velocity
# (the partial velocities of G are those crossed with r e3): Z for psi',
# e1 for th', e2 for phi'. So, with u = (heading', lean', spin'),
#   heading: s E2 + c E3 = 0,   lean: E1 = 0,   spin: E2 = 0,
# and M_r u' - f_r is (s E2 + c E3, E1, E2): M_r holds their coefficients of
# the accelerations, f_r the rest with the sign changed. The printed
# expressions, parsed back, are compared with these at random states.
#
# The numeric checks of the Whipple bicycle (and the other examples)
# against the equations of the first kind are in
# tests/unit/MinimalEquationsTest.cpp; here its output's form and speed.
# Usage: test_equations_minimal.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
coin=examples/rolling_coin.mech

expect "coin" 0 "$mech" equations "$coin" --minimal
cp "$work/out" "$work/coin.txt"
expect "coin --json" 0 "$mech" equations "$coin" --minimal --json
cp "$work/out" "$work/coin.json"
contains "independent speeds by pivoting" coin.txt \
  "independent speeds u = (heading', lean', spin'), dependent x', y' (chosen by pivoting"
contains "the state of the choice" coin.txt \
  "at the model's init configuration, x = 0, y = 0, heading = 0, lean = 0, spin = 0"
# Textbook-sized: short lines, no named subexpressions.
check_py "coin output is short" '
text = open(W + "/coin.txt").read()
assert len(text) < 2500, len(text)
assert max(len(l) for l in text.splitlines()) < 240
assert "where (" not in text and "note:" not in text'

cat >"$work/textbook.py" <<'EOF'
import json, math, random, re, sys
work = sys.argv[1]
text = open(work + "/coin.txt").read()
j = json.load(open(work + "/coin.json"))

# parse(expr): tests/cli/printed_expressions.py.
from printed_expressions import parse

# The right-hand side of "NAME = ..." on a line of the text.
def line(name):
    found = re.findall(r"^\s*" + re.escape(name) + r" = (.*?)\s*$", text, re.M)
    assert len(found) == 1, (name, found)
    return found[0]

u = ["heading'", "lean'", "spin'"]
assert j["independent_speeds"] == u and j["dependent_speeds"] == ["x'", "y'"], j
assert j["chosen_by"] == "pivoting" and j["where"] == {}, j
Mr, fr = j["reduced_mass_matrix"], j["reduced_forcing"]
# The text prints the upper triangle's entries that are not zero (and the
# diagonal), the same strings as the JSON.
for a in range(3):
    for b in range(3):
        assert Mr[a][b] == Mr[b][a], Mr
        name = "M_r[%s, %s]" % (u[a], u[b])
        if a <= b and (Mr[a][b] != "0" or a == b):
            assert line(name) == Mr[a][b], name
        else:
            assert name + " =" not in text, name
    assert line("f_r[%s]" % u[a]) == fr[a]
for v in ("x'", "y'"):
    assert line(v) == j["kinematics"][v]
equations = {}
for a, speed in enumerate(u):
    found = re.findall(r"^  " + re.escape(speed) + r": (.*) = (.*?)\s*$", text, re.M)
    assert len(found) == 1 and found[0][1] == fr[a], (speed, found)
    assert j["equations"][speed] == found[0][0] + " = " + found[0][1]
    equations[speed] = (parse(found[0][0]), parse(found[0][1]))
Mr = [[parse(e) for e in row] for row in Mr]
fr = [parse(e) for e in fr]
kinematics = {v: parse(e) for v, e in j["kinematics"].items()}

def textbook(at):
    m, r, g = at["m"], at["r"], at["g"]
    I, J = m * r**2 / 4, m * r**2 / 2
    psi, th = at["heading"], at["lean"]
    s, c = math.sin(th), math.cos(th)
    psd, thd, phd = at["heading_d"], at["lean_d"], at["spin_d"]
    psdd, thdd, phdd = at["heading_dd"], at["lean_dd"], at["spin_dd"]
    E1 = (I + m*r**2)*thdd + (I - J - m*r**2)*psd**2*s*c - (J + m*r**2)*psd*phd*c - m*g*r*s
    E2 = (J + m*r**2)*(psdd*s + phdd) + (J + 2*m*r**2)*psd*thd*c
    E3 = I*psdd*c - 2*I*psd*thd*s + J*thd*(psd*s + phd)
    return {"x'": r*math.cos(psi)*phd, "y'": r*math.sin(psi)*phd,
            "kane": [s*E2 + c*E3, E1, E2]}

rng = random.Random(20261207)
for _ in range(25):
    at = {"m": rng.uniform(0.01, 3), "r": rng.uniform(0.02, 1), "g": rng.uniform(1, 10)}
    for q in ("x", "y", "heading", "lean", "spin"):
        at[q] = rng.uniform(-math.pi, math.pi)
    for q in ("heading", "lean", "spin"):
        at[q + "_d"] = rng.uniform(-10, 10)
        at[q + "_dd"] = rng.uniform(-10, 10)
    want = textbook(at)
    scale = at["m"] * at["r"]**2 * 100 + at["m"] * at["g"] * at["r"]
    for v in ("x'", "y'"):
        assert abs(kinematics[v](at) - want[v]) <= 1e-13 * (at["r"] * 10), (v, at)
    # M_r and f_r against the coefficients of the textbook's equations.
    zero = dict(at, heading_dd=0, lean_dd=0, spin_dd=0)
    kane0 = textbook(zero)["kane"]
    for a in range(3):
        assert abs(fr[a](at) + kane0[a]) <= 1e-12 * scale, ("f_r", a, fr[a](at), -kane0[a], at)
        for b, speed in enumerate(("heading", "lean", "spin")):
            unit = dict(zero, **{speed + "_dd": 1.0})
            coefficient = textbook(unit)["kane"][a] - kane0[a]
            assert abs(Mr[a][b](at) - coefficient) <= 1e-12 * scale, ("M_r", a, b, at)
        # The equation as printed: lhs - rhs is the textbook's residual.
        lhs, rhs = equations[u[a]]
        assert abs(lhs(at) - rhs(at) - want["kane"][a]) <= 1e-12 * scale, ("eq", a, at)
print("ok")
EOF
expect "the coin against the textbook" 0 env PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/tests/cli" python3 "$work/textbook.py" "$work"
contains "textbook checks ran" out "ok"

# Another choice of speeds: rolling along x, the spin follows.
expect "coin, x' independent" 0 "$mech" equations "$coin" --minimal --independent "x', heading', lean'"
contains "as given" out "independent speeds u = (x', heading', lean'), dependent y', spin' (as given with --independent)"
contains "spin from x'" out "spin' = x'/(r*cos(heading))"

# The knife edge: the sideways speed follows the push.
expect "knife edge" 0 "$mech" equations examples/knife_edge.mech --minimal
contains "knife edge kinematics" out "y' = sin(phi)*x'/cos(phi)"
contains "knife edge mass" out "M_r[x', x'] = m/cos(phi)^2"
# Where the choice holds: the elimination divided by cos(phi), which is 0
# when the blade points along y (x' then cannot drive y').
contains "knife edge regular where" out "(where cos(phi) != 0: elsewhere these speeds do not determine the others)"

# The Whipple bicycle: 5 dependent speeds solved by elimination, its large
# expressions printed through names, and said so.
expect "bicycle" 0 "$mech" equations examples/whipple_bicycle.mech --minimal
contains "bicycle speeds" out "independent speeds u = (lean', steer', thR'), dependent x', y', yaw', pitch', thF'"
contains "bicycle names said" out "named subexpressions, x1 to x"
contains "bicycle where" out "where (named subexpressions of the large expressions above):"
contains "bicycle equations by the entries' names" out \
  "  lean': M_r[lean', lean']*lean'' + M_r[lean', steer']*steer'' + M_r[lean', thR']*thR'' = f_r[lean']"
# Its JSON in the release pass only: the sanitizer pass (scripts/test.sh
# sets MECH_SANITIZER_PASS) runs the bicycle's derivation once, which under
# ASan takes 29 s; the JSON writer runs under it with the coin above.
if [ -z "${MECH_SANITIZER_PASS:-}" ]; then
  expect "bicycle --json" 0 "$mech" equations examples/whipple_bicycle.mech --minimal --json
  check_json "bicycle json" '
assert j["independent_speeds"] == ["lean'"'"'", "steer'"'"'", "thR'"'"'"]
assert len(j["reduced_mass_matrix"]) == 3 and len(j["reduced_forcing"]) == 3
assert len(j["where"]) > 10'
fi

# Without constraints the equations are minimal already: printed as usual.
expect "pendulum" 0 "$mech" equations examples/double_pendulum.mech
cp "$work/out" "$work/usual.txt"
expect "pendulum --minimal" 0 "$mech" equations examples/double_pendulum.mech --minimal
contains "already minimal" err "DoublePendulum has no constraints: its equations are already minimal"
check_py "printed as usual" 'assert open(W + "/out").read() == open(W + "/usual.txt").read()'

# A motion the constraints prescribe has no independent speeds; more
# constraints than coordinates leave none to choose.
cat >"$work/driven.mech" <<'EOF'
model Driven {
  param w = 1 [1/s], l = 1 [m]
  coord y [m]
  particle p mass 1 [kg] at [0, y]
  constraint guide: y == l * sin(w * t)
}
EOF
expect "prescribed motion" 0 "$mech" equations "$work/driven.mech" --minimal
contains "prescribed speed" out "y' = w*l*cos(w*t)"
contains "nothing independent" out "no independent speeds: the constraints prescribe the motion"
cat >"$work/over.mech" <<'EOF'
model Over {
  coord y [m]
  particle p mass 1 [kg] at [0, y]
  constraint a: y == 1 [m]
  constraint b: 2 * y == 2 [m]
}
EOF
expect "more constraints than coordinates" 1 "$mech" equations "$work/over.mech" --minimal
contains "says so" err "2 constraints on 1 coordinate are redundant or conflicting"

# Errors: a choice that does not determine the rest, the wrong number, a
# name that is not a coordinate, a coordinate without its prime.
expect "singular choice" 1 "$mech" equations "$coin" --minimal --independent "x', y', lean'"
contains "names the speeds" err "error: --independent: x', y', lean' do not determine heading', spin'"
expect "too few" 1 "$mech" equations "$coin" --minimal --independent "heading', lean'"
contains "how many" err "needs 3 independent, 2 given"
expect "unknown name" 1 "$mech" equations "$coin" --minimal --independent "heading', lean', wheel'"
contains "names it" err "'wheel'' is not a coordinate of RollingCoin"
expect "no prime" 1 "$mech" equations "$coin" --minimal --independent "heading', lean', spin"
contains "a speed" err "'spin' is a coordinate; --minimal takes the independent speeds"
expect "constraints needed" 1 "$mech" equations examples/double_pendulum.mech --minimal --independent "th1'"
contains "nothing to choose" err "DoublePendulum has no constraints"
# Usage errors.
expect "coin: constant block" 0 "$mech" equations "$coin" --minimal
contains "coin regular everywhere" out "(for every configuration: the dependent block of the constraints is constant)"
expect "pendulum" 0 "$mech" equations examples/cartesian_pendulum.mech --minimal --json
contains "pendulum regular where (json)" out '"regular_where": ["y"]'

expect "--independent alone" 2 "$mech" equations "$coin" --independent "heading', lean', spin'"
contains "needs --minimal" err "--independent chooses the speeds of --minimal"
# LaTeX: the kinematic equations, then one equation per independent speed.
expect "--latex" 0 "$mech" equations "$coin" --minimal --latex
contains "latex: an align environment" out '\begin{align}'
contains "latex: a kinematic equation" out '\dot{x} &= r \cos\left(\mathrm{heading}\right) \dot{\mathrm{spin}} \\'
contains "latex: the lean equation" out '\frac{5 m r^{2} \ddot{\mathrm{lean}}}{4} &= '
check_py "latex: 2 kinematic and 3 dynamic lines" 'assert open(W + "/out").read().count(" &= ") == 5'
expect "--latex --json" 2 "$mech" equations "$coin" --minimal --latex --json
finish
