#!/usr/bin/env bash
# Command-line tests of det, inv and solve above 4x4, computed numerically
# in the kernels (symbolic/MatrixFunctions.h), every number against an
# answer worked out without mech:
#  a. five masses between springs whose stiffness is the inverse of the
#     5x5 flexibility matrix: the motion is the modal sum in closed form
#     (the JIT and the interpreter, dopri5 and radau); linearize's K is
#     k*tridiag(-1, 2, -1) and its frequencies 2*sqrt(k/m)*sin(j*pi/12);
#     solve(K, e2) is C's column 2; det(C) = 1/(6*k^5)
#  b. a potential with inv and det of a 5x5 matrix of the coordinates
#     against the same potential written out by hand: trajectories (dopri5,
#     radau, whose Jacobian differentiates inv and det twice) and linearize
#     at a point off equilibrium
#  c. det of the Vandermonde matrix of five moving particles is the
#     product of their differences
#  d. equations print the matrix once (A1) and inv(A1)[i, j]; located
#     errors; the REPL's det and inv of numbers are exact
#  e. Python's mech.load(...).simulate(...); a built library's mech_rhs
# Usage: test_numeric_matrices.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

[ -z "$build" ] || build="$(readlink -f "$build")" # absolute: the script changes directory
cd "$work" || exit 1
models="$root/tests/cli/models"
cp "$models"/numeric_*.mech "$work/"
tight=(--rtol 1e-12 --atol 1e-12)

# springs_check NAME CSV TOLERANCE: the rows of CSV are the modal sum.
springs_check() {
  check_py "$1" "
n, k, m = 5, 6.0, 1.0
def exact(t):
    x, v = [0.0] * n, [0.0] * n
    for j in range(1, n + 1):
        w = 2 * math.sqrt(k / m) * math.sin(j * math.pi / (2 * (n + 1)))
        phi = [math.sqrt(2 / (n + 1)) * math.sin(i * j * math.pi / (n + 1)) for i in range(1, n + 1)]
        c = phi[0] * 0.1
        for i in range(n):
            x[i] += phi[i] * c * math.cos(w * t)
            v[i] -= phi[i] * c * w * math.sin(w * t)
    return x + v
rows = list(csv.DictReader(open(W + '/$2')))
assert len(rows) == 101, len(rows)
worst = 0
for r in rows:
    want = exact(float(r['t']))
    got = [float(r['x[%d]' % i]) for i in range(1, 6)] + [float(r[\"x[%d]'\" % i]) for i in range(1, 6)]
    worst = max(worst, max(abs(a - b) for a, b in zip(got, want)))
    assert abs(float(r['u2']) - 8 / 36) <= 1e-14 and abs(float(r['u4']) - 4 / 36) <= 1e-14, r
    assert abs(float(r['detC']) - 1 / (6 * k**5)) <= 1e-17, r['detC']
assert worst <= $3, worst
"
}

# --- a. springs --------------------------------------------------------------------------------
for method in dopri5 radau; do
  expect "springs, $method" 0 "$mech" simulate numeric_springs.mech --until 5 --dt 0.05 \
    --method "$method" "${tight[@]}" -o "springs_$method.csv"
  springs_check "springs, $method: the modal sum" "springs_$method.csv" 1e-10
done
expect "springs, interpreted" 0 "$mech" simulate numeric_springs.mech --until 5 --dt 0.05 \
  --backend interp "${tight[@]}" -o springs_interp.csv
springs_check "springs, interpreted: the modal sum" springs_interp.csv 1e-10
expect "springs, linearize" 0 "$mech" linearize numeric_springs.mech --at "x=0" --json
check_json "K = k*tridiag(-1, 2, -1), the eigenvalues +-i*w_j in closed form" "
K = j['K']
for a in range(5):
    for b in range(5):
        want = 12 if a == b else -6 if abs(a - b) == 1 else 0
        assert abs(K[a][b] - want) <= 1e-12, (a, b, K[a][b])
w = sorted(im for re, im in j['eigenvalues'] if im > 0)
assert len(w) == 5 and all(abs(re) <= 1e-12 for re, im in j['eigenvalues']), j['eigenvalues']
for i, f in enumerate(w):
    assert abs(f - 2 * math.sqrt(6) * math.sin((i + 1) * math.pi / 12)) <= 1e-12, (i, f)
"

# --- b. inv and det of a matrix of the coordinates, against the hand-written potential ---------
for method in dopri5 radau; do
  for model in numeric_block numeric_block_hand; do
    expect "$model, $method" 0 "$mech" simulate "$model.mech" --until 10 --dt 0.1 --method "$method" \
      "${tight[@]}" -o "${model}_$method.csv"
  done
  check_py "inv and det by the kernels = the hand-written inverse, $method" "
a = list(csv.reader(open(W + '/numeric_block_$method.csv')))
b = list(csv.reader(open(W + '/numeric_block_hand_$method.csv')))
assert len(a) == len(b) == 102 and a[0] == b[0], (len(a), len(b), a[0], b[0])
worst = max(abs(float(x) - float(y)) for ra, rb in zip(a[1:], b[1:]) for x, y in zip(ra, rb))
assert worst <= 1e-9, worst
"
done
at="q[1]=0.3,q[2]=-0.2,q[3]=0.5,q[4]=0.4,q[5]=-0.3"
for model in numeric_block numeric_block_hand; do
  expect "$model, linearize off equilibrium" 0 "$mech" linearize "$model.mech" --at "$at" --json
  cp "$work/out" "$work/$model.json"
done
check_py "linearize: K and f of the kernels' inverse = the hand-written inverse's" "
a, b = (json.load(open(W + '/' + m + '.json')) for m in ('numeric_block', 'numeric_block_hand'))
for key in ('K', 'M', 'f'):
    x, y = a[key], b[key]
    flat = lambda v: [e for row in v for e in (row if isinstance(row, list) else [row])]
    worst = max(abs(p - q) for p, q in zip(flat(x), flat(y)))
    assert len(flat(x)) == len(flat(y)) > 0 and worst <= 1e-12, (key, worst)
"

# --- c. det of a Vandermonde matrix of moving particles -----------------------------------------
for backend in jit interp; do
  expect "Vandermonde determinant, $backend" 0 "$mech" simulate numeric_vandermonde.mech --until 3 \
    --dt 0.25 --backend "$backend" -o "vdm_$backend.csv"
  check_py "det = prod (x[j] - x[i]), $backend" "
x0, v = [0, 1, 2, 3, 4], [1, -1, 0.5, 2, -0.25]
rows = list(csv.DictReader(open(W + '/vdm_$backend.csv')))
assert len(rows) == 13, len(rows)
for r in rows:
    t = float(r['t'])
    x = [a + b * t for a, b in zip(x0, v)]
    want = 1.0
    for i in range(5):
        for j in range(i + 1, 5):
            want *= x[j] - x[i]
    assert abs(float(r['vdm']) - want) <= 1e-10 * max(1, abs(want)), (t, r['vdm'], want)
"
done

# --- d. printed forms, errors, the REPL -------------------------------------------------------
expect "equations of the springs" 0 "$mech" equations numeric_springs.mech
contains "the matrix is printed once, as A1" out "  A1 = [[5/(6*k), 2/(3*k), 1/(2*k), 1/(3*k), 1/(6*k)], [2/(3*k)"
contains "the entries of its inverse read inv(A1)[i, j]" out "Q[x[1]] = -x[1]*inv(A1)[1, 1] - "
lacks "no packed matrix is spelled out in the equations" out "x[1]'' = -x[1]*inv([["
expect "LaTeX of the springs" 0 "$mech" equations numeric_springs.mech --latex
contains "the LaTeX entry of the inverse" out '\left(A_{1}^{-1}\right)_{1 1}'
expect "the test's models are formatted" 0 "$mech" fmt --check "$models"/numeric_*.mech

# bad NAME EXPECTED_MESSAGE DECLARATIONS...: a model with the declarations is refused, located.
bad() {
  local name="$1" message="$2"
  shift 2
  printf 'model Bad {\n  coord x [m]\n  kinetic 1 [kg] / 2 * x'"'"'^2\n' >bad.mech
  printf '  %s\n' "$@" >>bad.mech
  printf '}\n' >>bad.mech
  expect "$name: exit 1" 1 "$mech" check bad.mech
  contains "$name: the message" err "$message"
  contains "$name: located" err "bad.mech:4:"
}
big="[$(python3 -c "print(', '.join('[' + ', '.join('1' if i == j else '0' for j in range(17)) + ']' for i in range(17)))")]"
bad "det of 17x17" "det takes matrices of at most 16x16 (above 4x4 it is computed numerically, and its derivatives grow as n^4), found a 17x17 matrix" \
  "output d = det($big)"
bad "solve of a non-square matrix" "solve expects a square matrix, found a 5x4 matrix" \
  "output d = solve([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 1, 1]], [1, 2, 3, 4, 5])[1]"
bad "solve with a right-hand side of other rows" "solve expects a vector or matrix of 5 rows, found a 3-vector" \
  "output d = solve([[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]], [1, 2, 3])[1]"
bad "solve: dimensions" "this sum mixes dimensions m and s" \
  "output d = solve([[1 [N/m], 0 [N/m]], [0 [N/m], 1 [N/m]]], [1 [N], 2 [N]])[1] + 1 [s]"

printf '%s\n' "det([[2, 1, 0, 0, 0], [1, 2, 1, 0, 0], [0, 1, 2, 1, 0], [0, 0, 1, 2, 1], [0, 0, 0, 1, 2]])" \
  "inv([[2, 1, 0, 0, 0], [1, 2, 1, 0, 0], [0, 1, 2, 1, 0], [0, 0, 1, 2, 1], [0, 0, 0, 1, 2]])[1, 1]" \
  "solve([[2, 1, 0, 0, 0], [1, 2, 1, 0, 0], [0, 1, 2, 1, 0], [0, 0, 1, 2, 1], [0, 0, 0, 1, 2]], [1, 0, 0, 0, 0])[5]" \
  "inv([[1, 1, 0, 0, 0], [1, 1, 0, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [0, 0, 0, 0, 1]])" >repl.in
expect "the REPL's det, inv and solve of a 5x5 matrix of numbers" 0 "$mech" repl <repl.in
# tridiag(1, 2, 1) of size 5: det = 6; inverse's corner = 5/6; (A^-1)[5, 1] = (-1)^4 * 1/6
contains "det is exact" out "6"
contains "the inverse's entry is exact" out "5/6"
contains "solve is exact" out "1/6"
contains "a singular matrix is refused" err "inv of a singular matrix (its determinant is 0)"

# --- e. Python and a built library ------------------------------------------------------------
if [ -n "$build" ] && [ -d "$build/python/mech" ]; then
  expect "mech.load(...).simulate(...) of the springs" 0 env PYTHONPATH="$build/python" /usr/bin/python3 -c "
import csv, mech
r = mech.load('$work/numeric_springs.mech').simulate(until=5, dt=0.05, rtol=1e-12, atol=1e-12)
cli = list(csv.DictReader(open('$work/springs_dopri5.csv')))
assert len(r['t']) == len(cli) == 101, len(r['t'])
for i, row in enumerate(cli):
    for name in ('x[1]', 'x[3]', \"x[5]'\", 'u2', 'detC'):
        assert abs(r[name][i] - float(row[name])) <= 1e-12, (i, name, r[name][i], row[name])
"
else
  skip "the Python package (not built in '$build')"
fi

expect "build a library of the springs" 0 "$mech" build numeric_springs.mech -o libsprings.so
check_py "mech_rhs of the library: x'' = -(k/m)*tridiag(-1, 2, -1)*x" '
import ctypes
lib = ctypes.CDLL(W + "/libsprings.so")
D = ctypes.c_double
lib.mech_rhs.argtypes = [D, ctypes.POINTER(D), ctypes.POINTER(D), ctypes.POINTER(D)]
lib.mech_rhs.restype = ctypes.c_int
for m, k in ((1.0, 6.0), (2.0, 3.5)):
    q = [0.3, -0.1, 0.7, 0.2, -0.4]
    x, p, xdot = (D * 10)(*(q + [1, 2, 3, 4, 5])), (D * 2)(m, k), (D * 10)()
    assert lib.mech_rhs(0.0, x, p, xdot) == 0
    for i in range(5):
        assert xdot[i] == i + 1
        left = q[i - 1] if i > 0 else 0
        right = q[i + 1] if i < 4 else 0
        want = -(k / m) * (2 * q[i] - left - right)
        assert abs(xdot[5 + i] - want) <= 1e-12 * max(1, abs(want)), (m, k, i, xdot[5 + i], want)
'

finish
