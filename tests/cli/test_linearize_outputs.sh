#!/usr/bin/env bash
# Command-line tests of the outputs' rows of linearize's state space,
# y = C x + D u (`state_space` in --json), against derivations by hand:
#  a. the cart pole upright (examples/cart_pole.mech): its linearized
#     equations [M + m, m l; m l, m l^2 + I] [x''; th''] = [F; m g l th]
#     solved here, the pole's tip x + 2 l sin(th), th'' and x' as --output
#  b. a pendulum in Cartesian coordinates with the rod a constraint, pushed
#     by an input (tests/cli/models/pushed_pendulum.mech): the rod's
#     multiplier and y'' as outputs, against central differences of its
#     first-kind equations written out here, over the independent state
#     (x, x') and the input
#  b'. the knife edge, nonholonomic: its constraint's multiplier and x''
#     against central differences of its first-kind equations
#  c. the state space's shapes without outputs or inputs, and --output's
#     errors
# and --tf's transfer functions of the cart pole, against the same
# equations in Laplace form (a cancelled pole at 0 named).
# Usage: test_linearize_outputs.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
cp "$root/tests/cli/models/pushed_pendulum.mech" .

# --- a. the cart pole ----------------------------------------------------------------
expect "the cart pole upright with three outputs" 0 "$mech" linearize "$root/examples/cart_pole.mech" \
  --at "x=0, th=0" --output "x + 2*l*sin(th)" --output "th''" --output "x'" --json
check_json "C and D from the hand-derived equations" "
M, m, l, g = 1.0, 0.1, 0.5, 9.81
a, b, d = M + m, m * l, m * l * l + m * (2 * l) ** 2 / 12
det = a * d - b * b
# [x''; th''] = inv([[a, b], [b, d]]) [F; m g l th]
xdd_th, xdd_F = -b * m * g * l / det, d / det
thdd_th, thdd_F = a * m * g * l / det, -b / det
s = j['state_space']
assert s['states'] == ['x', 'th', \"x'\", \"th'\"] and s['inputs'] == ['F'], s
assert s['outputs'] == ['x + 2*l*sin(th)', \"th''\", \"x'\"], s['outputs']
want_C = [[1, 2 * l, 0, 0], [0, thdd_th, 0, 0], [0, 0, 1, 0]]
want_D = [[0], [thdd_F], [0]]
for got, want in ((s['C'], want_C), (s['D'], want_D)):
    assert len(got) == len(want) and all(len(r) == len(w) for r, w in zip(got, want)), got
    for r, w in zip(got, want):
        assert all(abs(p - q) <= 1e-12 * max(1, abs(q)) for p, q in zip(r, w)), (got, want)
assert abs(s['A'][2][1] - xdd_th) <= 1e-12 and abs(s['B'][2][0] - xdd_F) <= 1e-12, s
"
expect "the cart pole's text" 0 "$mech" linearize "$root/examples/cart_pole.mech" --at "x=0, th=0" \
  --output "th''"
contains "prints C" out "C = dy/dx, the outputs (th'') over the state"
contains "prints D" out "D = dy/du"

# The transfer functions, from the same equations in Laplace form:
#   X/F = (d s^2 - m g l) / (s^2 (det s^2 - a m g l)),
#   Th/F = -b / (det s^2 - a m g l)   (the cart's x and x' do not reach th:
#   the double pole at 0 cancels),
#   Tip/F = X/F + 2 l Th/F = ((d - 2 l b) s^2 - m g l) / (s^2 (det s^2 - a m g l)).
cart_pole_tf='
M, m, l, g = 1.0, 0.1, 0.5, 9.81
a, b, d = M + m, m * l, m * l * l + m * (2 * l) ** 2 / 12
det = a * d - b * b
w = math.sqrt(a * m * g * l / det)
t = j["transfer_function"]
roots = lambda key: [complex(*z) for z in t[key]]
close = lambda xs, ys: len(xs) == len(ys) and all(abs(p - q) <= 1e-9 * max(1, abs(q)) for p, q in zip(sorted(xs, key=lambda z: (z.real, z.imag)), sorted(ys, key=lambda z: (z.real, z.imag))))
'
expect "--tf F -> x" 0 "$mech" linearize "$root/examples/cart_pole.mech" --at "x=0, th=0" \
  --tf "F -> x" --json
check_json "X/F: poles 0, 0, +-w, zeros +-sqrt(m g l / d), gain d / det" "
$cart_pole_tf
assert t['input'] == 'F' and t['output'] == 'x', t
assert close(roots('poles'), [-w, 0, 0, w]), t['poles']
z = math.sqrt(m * g * l / d)
assert close(roots('zeros'), [-z, z]), t['zeros']
assert abs(t['gain'] - d / det) <= 1e-9 and t['cancelled'] == [], t
"
expect "--tf F -> th" 0 "$mech" linearize "$root/examples/cart_pole.mech" --at "x=0, th=0" \
  --tf "F -> th" --json
check_json "Th/F: poles +-w, no zeros, gain -b / det, the double pole at 0 cancelled" "
$cart_pole_tf
assert close(roots('poles'), [-w, w]) and t['zeros'] == [], t
assert abs(t['gain'] + b / det) <= 1e-9, t['gain']
c = t['cancelled']
assert len(c) == 2 and all(abs(complex(*k['pole'])) <= 1e-9 and k['unobservable'] and not k['uncontrollable'] for k in c), c
"
expect "--tf F -> th, text" 0 "$mech" linearize "$root/examples/cart_pole.mech" --at "x=0, th=0" \
  --tf "F -> th"
contains "names the cancellation" out "cancelled: the pole 0 (not seen in th: a pole-zero cancellation)"
expect "--tf to an --output" 0 "$mech" linearize "$root/examples/cart_pole.mech" --at "x=0, th=0" \
  --output "x + 2*l*sin(th)" --tf "F -> x + 2*l*sin(th)" --json
check_json "Tip/F: zeros +-i sqrt(m g l / (2 l b - d)), gain (d - 2 l b) / det" "
$cart_pole_tf
z = math.sqrt(m * g * l / (2 * l * b - d))
assert close(roots('zeros'), [-1j * z, 1j * z]), t['zeros']
assert close(roots('poles'), [-w, 0, 0, w]), t['poles']
assert abs(t['gain'] - (d - 2 * l * b) / det) <= 1e-9, t['gain']
"
for bad in "F th" "G -> th" "F -> nosuch"; do
  expect "--tf '$bad'" 1 "$mech" linearize "$root/examples/cart_pole.mech" --at "x=0, th=0" \
    --tf "$bad"
  contains "--tf '$bad' says why" err "error: --tf: "
done

# --- b. the pushed Cartesian pendulum ---------------------------------------------------
expect "the pushed pendulum off rest" 0 "$mech" linearize pushed_pendulum.mech \
  --at "x=0.6, y=-0.8, x'=0.3" --input "F=0.5" --json
check_json "C and D against central differences of the first-kind equations" "
m, l, g = 1.0, 1.0, 9.81
def solve3(K, r):
    def det(A):
        return (A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1])
                - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0])
                + A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]))
    D = det(K)
    out = []
    for c in range(3):
        A = [[r[i] if j == c else K[i][j] for j in range(3)] for i in range(3)]
        out.append(det(A) / D)
    return out
def outputs(x, xd, F):
    # y on the lower half of the circle, y' from the velocity constraint;
    # M q'' = f + C^T lambda with C = (2x, 2y), and 2 x x'' + 2 y y'' + 2 x'^2 + 2 y'^2 = 0.
    y = -math.sqrt(l * l - x * x)
    yd = -x * xd / y
    xdd, ydd, lam = solve3([[m, 0, -2 * x], [0, m, -2 * y], [2 * x, 2 * y, 0]],
                           [F, -m * g, -2 * (xd * xd + yd * yd)])
    return [lam, ydd]
s0, h = [0.6, 0.3, 0.5], 1e-6
J = [[0.0] * 3 for _ in range(2)]
for k in range(3):
    p, q = list(s0), list(s0)
    p[k] += h
    q[k] -= h
    for i, (a, b) in enumerate(zip(outputs(*p), outputs(*q))):
        J[i][k] = (a - b) / (2 * h)
s = j['state_space']
assert s['states'] == ['x', \"x'\"] and s['outputs'] == ['tension', 'ay'], s
for i in range(2):
    for k in range(2):
        assert abs(s['C'][i][k] - J[i][k]) <= 1e-6 * max(1, abs(J[i][k])), (s['C'], J)
    assert abs(s['D'][i][0] - J[i][2]) <= 1e-6 * max(1, abs(J[i][2])), (s['D'], J)
"

# The knife edge (examples/knife_edge.mech), nonholonomic: the sideways
# constraint's multiplier and x'' over its independent coordinates (x, y,
# phi) and speeds (x', phi'; y' = x' tan(phi) follows), against central
# differences of its first-kind equations written out here:
#   m x'' = F cos(phi) + lam sin(phi), m y'' = F sin(phi) - lam cos(phi),
#   J phi'' = 0, x'' sin(phi) - y'' cos(phi) = -phi' (x' cos(phi) + y' sin(phi)).
expect "the knife edge's outputs" 0 "$mech" linearize "$root/examples/knife_edge.mech" \
  --at "x=0, y=0, phi=0.3, x'=0.5, phi'=1" --output "sideways" --output "x''" --json
check_json "nonholonomic: C against central differences of the first-kind equations" "
m, J, F = 1.0, 0.1, 1.0
def outputs(x, y, phi, xd, phid):
    yd = xd * math.tan(phi)
    s, c = math.sin(phi), math.cos(phi)
    # with x'' = (F c + lam s)/m and y'' = (F s - lam c)/m in the constraint:
    # (F c s + lam s^2 - F s c + lam c^2)/m = lam/m = -phi' (x' c + y' s)
    lam = -m * phid * (xd * c + yd * s)
    return [lam, (F * c + lam * s) / m]
s = j['state_space']
assert s['states'] == ['x', 'y', 'phi', \"x'\", \"phi'\"], s['states']
assert s['outputs'] == ['(sideways)', \"x''\"], s['outputs']
base, h = [0.0, 0.0, 0.3, 0.5, 1.0], 1e-6
for k in range(5):
    p, q = list(base), list(base)
    p[k] += h
    q[k] -= h
    for i, (a, b) in enumerate(zip(outputs(*p), outputs(*q))):
        want = (a - b) / (2 * h)
        assert abs(s['C'][i][k] - want) <= 1e-6 * max(1, abs(want)), (i, k, s['C'], want)
"

# --- c. shapes and errors ---------------------------------------------------------------
expect "a model without outputs or inputs" 0 "$mech" linearize "$root/examples/double_pendulum.mech" \
  --at "th1=0, th2=0" --json
check_json "B is 4 x 0, C and D empty" "
s = j['state_space']
assert s['outputs'] == [] and s['inputs'] == [] and s['C'] == [] and s['D'] == [], s
assert s['B'] == [[], [], [], []], s['B']
"
expect "--output with an unknown name" 1 "$mech" linearize "$root/examples/cart_pole.mech" \
  --at "x=0, th=0" --output "x + nosuch"
contains "a located error in the option" err "--output:1:"
contains "names the name" err "nosuch"
expect "--output that does not parse" 1 "$mech" linearize "$root/examples/cart_pole.mech" \
  --at "x=0, th=0" --output "x +"
contains "a located error in the option (syntax)" err "--output:1:"
printf '%s\n' ":load $root/examples/cart_pole.mech" ":linearize --at \"x=0, th=0\" --output \"th''\"" \
  ":linearize --at \"x=0, th=0\"" >repl.in
expect "the REPL's :linearize --output" 0 "$mech" repl <repl.in
check_py "the output is the one command's, not the session's" '
text = open(W + "/out").read()
assert text.count("C = dy/dx") == 1, text
'
finish
