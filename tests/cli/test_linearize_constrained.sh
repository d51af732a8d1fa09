# linearize on constrained models: A over independent coordinates and
# speeds, against matrices written out by hand.
# - The knife edge (nonholonomic): with y' = x' tan(phi) and the blade's
#   pull F, x'' = F cos(phi)/m - phi' x' tan(phi); with y' independent
#   instead, x' = y' cot(phi) and y'' = F sin(phi)/m + phi' y' cot(phi).
# - The Cartesian pendulum (holonomic, l = 1): at rest at x, x'' =
#   -g x sqrt(1 - x^2), so d(x'')/dx = -g (c - x^2/c) with c = sqrt(1 - x^2);
#   in y (y = -c), y'' = -g (1 - y^2), d(y'')/dy = 2 g y.
# - A bead on a rod turning at w (rheonomic): at the rod angle a = w t,
#   r'' = w^2 r gives x'' = -2 w tan(a) x' - 2 w^2 tan(a)^2 x; at 45 degrees
#   with w = 2, A = [[0, 1], [-8, -4]].
# - A choice that does not determine the others, a wrong count and an
#   unknown name are errors.
source "$(dirname "$0")/lib.sh" "$@"

close='def close(a, b, tol=1e-12): assert abs(a - b) <= tol * max(1, abs(b)), (a, b)
def rows(A, B):
    assert len(A) == len(B), (len(A), len(B))
    for ra, rb in zip(A, B):
        assert len(ra) == len(rb)
        for x, y in zip(ra, rb): close(x, y)'

knife="$root/examples/knife_edge.mech"
expect "knife edge" 0 "$mech" linearize "$knife" --at "phi=0.3, x'=1" --json
check_json "knife edge: A by hand" "$close
p, F, m, w = 0.3, 1.0, 1.0, 1.0   # phi, F, m and phi' (the model's init)
t, s2 = math.tan(p), 1 / math.cos(p) ** 2
assert j['independent'] == {'coordinates': ['x', 'y', 'phi'], 'speeds': [\"x'\", \"phi'\"], 'chosen': 'pivoting'}, j['independent']
assert j['state'] == ['x', 'y', 'phi', \"x'\", \"phi'\"]
close(j['qd']['y'], t)
rows(j['A'], [[0, 0, 0, 1, 0], [0, 0, s2, t, 0], [0, 0, 0, 0, 1],
              [0, 0, -F * math.sin(p) / m - w * s2, -w * t, -t], [0, 0, 0, 0, 0]])"
expect "knife edge, y' independent" 0 "$mech" linearize "$knife" --at "phi=0.3, x'=1" \
  --independent "y', phi'" --json
check_json "knife edge, y' independent: A by hand" "$close
p, F, m, w = 0.3, 1.0, 1.0, 1.0
v = math.tan(p)                     # y'
cot, csc2 = 1 / math.tan(p), 1 / math.sin(p) ** 2
assert j['independent']['speeds'] == [\"y'\", \"phi'\"] and j['independent']['chosen'] == 'given'
rows(j['A'], [[0, 0, -v * csc2, cot, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1],
              [0, 0, F * math.cos(p) / m - w * v * csc2, w * cot, v * cot], [0, 0, 0, 0, 0]])"
expect "knife edge: text" 0 "$mech" linearize "$knife" --at "phi=0.3, x'=1"
contains "which are independent" out "independent coordinates: x, y, phi; independent speeds: x', phi' (chosen by pivoting"
contains "eigenvalues" out "eigenvalues of A: -0.309336, 0, 0, 0, 0"

pendulum="$root/examples/cartesian_pendulum.mech"
expect "pendulum in x" 0 "$mech" linearize "$pendulum" --at "x=0.1" --json
check_json "pendulum in x: A by hand" "$close
g, x = 9.81, 0.1
c = math.sqrt(1 - x * x)
assert j['state'] == ['x', \"x'\"]
rows(j['A'], [[0, 1], [-g * (c - x * x / c), 0]])"
expect "pendulum in y" 0 "$mech" linearize "$pendulum" --at "x=0.1" --independent "y, y'" --json
check_json "pendulum in y: A by hand" "$close
g, y = 9.81, -math.sqrt(1 - 0.01)
assert j['state'] == ['y', \"y'\"]
rows(j['A'], [[0, 1], [2 * g * y, 0]])"
expect "hanging: y does not determine x" 1 "$mech" linearize "$pendulum" --at "x=0" --independent "y, y'"
contains "why" err "error: --independent: independent coordinates: the rest do not determine the others at this state"
expect "a wrong count" 1 "$mech" linearize "$pendulum" --at "x=0.1" --independent "x, y"
contains "the count" err "error: --independent: independent coordinates: needs 1 independent, 2 given at this state"
expect "an unknown name" 1 "$mech" linearize "$pendulum" --at "x=0.1" --independent "z'"
contains "the name" err "error: --independent: 'z'' is not a coordinate of CartesianPendulum"

cat >"$work/bead.mech" <<'MODEL'
# A bead on a rod turning at w about the origin, in Cartesian coordinates.
model Bead {
  param m = 1 [kg], w = 2 [rad/s]
  coord x [m], y [m]
  particle bead mass m at [x, y]
  constraint rod: y * cos(w * t) == x * sin(w * t)
}
MODEL
# t = pi/8 s: the rod at 45 degrees; x = 1, x' = 0.5 (y = 1, y' follows).
expect "bead on a turning rod" 0 "$mech" linearize "$work/bead.mech" \
  --at "x=1, y=1, x'=0.5, t=0.39269908169872414" --independent "x, x'" --json
check_json "bead: A by hand" "$close
w = 2.0
rows(j['A'], [[0, 1], [-2 * w * w, -2 * w]])"
finish
