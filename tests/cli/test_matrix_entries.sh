#!/usr/bin/env bash
# Entries, rows and columns of vectors and matrices (docs/language.md §4):
# `v[i]`, `W[i, j]`, `W[i, :]`, `W[:, j]` and `W[i]` (row i), counted from 1,
# of a matrix let, of a def's result, of a rotation's rate R' and of a
# library def's matrix parameter, evaluated by `mech eval` against numbers
# worked out by hand below; the errors (an entry outside the shape, three
# indices, ':' outside an index, an index that is not an integer, a scalar
# indexed) are exit 1 with a located message; the REPL takes rows, columns
# and entries; `mech fmt` prints them canonically and round-trips.
# Usage: test_matrix_entries.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"

# A library whose defs index their parameter, stdlib-style.
cat >mylib.mech <<'EOF'
# The axial vector of a (skew) 3x3 matrix: axial(skew(v)) = v.
def axial(W) = [W[3, 2], W[1, 3], W[2, 1]]
def second_row(W) = W[2, :]
def corner(W) = W[1, 1] + W[:, 2].x
EOF

# Hand values, at x = 0.3, y = -1.1, x' = 0.7, y' = 2.2, a = 3 (--set), b = 5:
#   W = [[1, 2], [3, 4]]: W[1, 2] = 2, W[2, :].y = 4, W[:, 1].x = 1, W[2].x = 3.
#   U = mk(3, 5) = [[3, 10], [9, 6]]: U[1, 2] = 10, U[2, :].x = 9,
#     U[:, 2].y = 6, mk(a, b)[2, 1] = 9, transpose(U)[1, 2] = 9.
#   v = [x, 2*y, 7]: v[3] = 7, v[2] = 2y = -2.2, v[1]' = x' = 0.7.
#   R = rot_z(x) = [[cos x, -sin x, 0], ...]: R'[1, 2] = -cos(x) x'.
#   P = rot_x(x) * rot_z(y), row 2 = [cos x sin y, cos x cos y, -sin x]:
#     P'[2, 1] = -sin x sin y x' + cos x cos y y', P'[2, 3] = -cos(x) x'.
#   G = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]: axial(G) = [G32, G13, G21] = [8, 3, 4],
#     second_row(G) = [4, 5, 6], corner([[1, 2], [3, 4]]) = 1 + 2 = 3.
#   axial(skew([0.3, -1.2, 2.5])) = [0.3, -1.2, 2.5].
#   axial(P^T P') is P's body angular velocity y' e_z + x' rot_z(y)^T e_x
#     = [x' cos y, -x' sin y, y'].
cat >entries.mech <<'EOF'
import "spatial.mech"
import "mylib.mech"

def mk(a, b) = [[a, 2*b], [3*a, b + 1]]

model Entries {
  param a = 2, b = 5, J = 1 [kg*m^2]
  coord x [rad], y [rad]
  kinetic T = J/2 * (x'^2 + y'^2)
  let W = [[1, 2], [3, 4]]
  let U = mk(a, b)
  let v = [x, 2*y, 7]
  let R = rot_z(x)
  let P = rot_x(x) * rot_z(y)
  let G = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
  output w12 = W[1, 2]
  output w2y = W[2, :].y
  output w1x = W[:, 1].x
  output w2x = W[2].x
  output u12 = U[1, 2]
  output u2x = U[2, :].x
  output u2y = U[:, 2].y
  output call21 = mk(a, b)[2, 1]
  output ut12 = transpose(U)[1, 2]
  output v3 = v[3]
  output v2 = v[2]
  output v1d = v[1]'
  output rd12 = R'[1, 2]
  output rd12_error = R'[1, 2] - (-cos(x)*x')
  output pd21 = P'[2, 1]
  output pd21_error = P'[2, 1] - (-sin(x)*sin(y)*x' + cos(x)*cos(y)*y')
  output pd23_error = P'[2, 3] + cos(x)*x'
  output gx = axial(G).x
  output gy = axial(G).y
  output gz = axial(G).z
  output row = second_row(G).z
  output corner2 = corner([[1, 2], [3, 4]])
  output sx = axial(skew([0.3, -1.2, 2.5])).x
  output sy = axial(skew([0.3, -1.2, 2.5])).y
  output sz = axial(skew([0.3, -1.2, 2.5])).z
  output kx = axial(transpose(P) * P').x
  output ky = axial(transpose(P) * P').y
  output kz = axial(transpose(P) * P').z
}
EOF

expect "the model checks" 0 "$mech" check entries.mech
expect "the library checks" 0 "$mech" check mylib.mech
contains "a library" out "mylib.mech: library of 3 defs"
expect "eval" 0 "$mech" eval entries.mech --set a=3 --at "x=0.3, y=-1.1, x'=0.7, y'=2.2" --json
check_json "the entries are the hand values" "
x, y, xd, yd = 0.3, -1.1, 0.7, 2.2
s, c = math.sin, math.cos
want = {'w12': 2, 'w2y': 4, 'w1x': 1, 'w2x': 3, 'u12': 10, 'u2x': 9, 'u2y': 6,
        'call21': 9, 'ut12': 9, 'v3': 7, 'v2': -2.2, 'v1d': 0.7,
        'rd12': -c(x)*xd, 'rd12_error': 0,
        'pd21': -s(x)*s(y)*xd + c(x)*c(y)*yd, 'pd21_error': 0, 'pd23_error': 0,
        'gx': 8, 'gy': 3, 'gz': 4, 'row': 6, 'corner2': 3,
        'sx': 0.3, 'sy': -1.2, 'sz': 2.5,
        'kx': xd*c(y), 'ky': -xd*s(y), 'kz': yd}
o = j['outputs']
assert set(o) == set(want), sorted(set(o) ^ set(want))
bad = {k: (o[k], v) for k, v in want.items() if abs(o[k] - v) > 1e-12}
assert not bad, bad"

# Errors: exit 1, the message located at the offending text.
error_case() { # NAME LET-LINE EXPECTED-MESSAGE
  printf 'model A {\n  param k = 2\n  coord x [m]\n  let W = [[x, 1], [2, 3]]\n  let v = [x, 1, 2]\n  %s\n}\n' \
    "$2" >"$1.mech"
  expect "$1: exit 1" 1 "$mech" check "$1.mech"
  contains "$1: message" err "$1.mech:$3"
}
error_case out_of_range 'let a = W[3, 1]' \
  "6:13: error: 'W[3, 1]' does not exist: 'W' is a 2x2 matrix (entries count from 1)"
error_case column_out_of_range 'let a = W[:, 3]' \
  "6:16: error: 'W[:, 3]' does not exist: 'W' is a 2x2 matrix (entries count from 1)"
error_case vector_out_of_range 'let a = v[4]' \
  "6:13: error: 'v[4]' does not exist: 'v' is a 3-vector (entries count from 1)"
error_case zero_index 'let a = W[0, 1]' \
  "6:13: error: 'W[0, 1]' does not exist: 'W' is a 2x2 matrix (entries count from 1)"
error_case three_indices 'let a = W[1, 2, 1]' "6:11: error: 'W' is a 2x2 matrix: it takes two indices"
error_case two_on_vector 'let a = v[1, 1]' "6:11: error: 'v' is a 3-vector: it takes one index"
error_case colon_alone 'let a = :' "6:11: error: unexpected ':', expected an expression"
error_case colon_argument 'let a = sin(:)' "6:15: error: unexpected ':', expected an expression"
error_case not_integer 'let a = W[1.5, 1]' "6:13: error: an index must be an integer, found 1.5"
error_case coordinate_index 'let a = W[x, 1]' \
  "6:13: error: an index must be a constant integer (made of numbers, params and indices)"
error_case scalar_param 'let a = k[1]' \
  "6:11: error: 'k' is a scalar: only vectors and matrices have entries, and only indexed families have members"

# A library def indexing its parameter beyond the argument's shape: the
# error is in the library, with a note at the call.
printf 'import "mylib.mech"\nmodel B {\n  coord x [m]\n  output o = axial([[x, 1], [2, 3]]).x\n}\n' >small.mech
expect "axial of a 2x2" 1 "$mech" check small.mech
contains "W[3, 2] in the library" err \
  "mylib.mech:2:19: error: 'W[3, 2]' does not exist: 'W' is a 2x2 matrix (entries count from 1)"
contains "W[1, 3] in the library" err \
  "mylib.mech:2:31: error: 'W[1, 3]' does not exist: 'W' is a 2x2 matrix (entries count from 1)"
contains "the call" err "small.mech:4:14: note: in the call of 'axial' here"

# The REPL: rows, columns and entries of a 2x3 matrix.
printf 'W = [[1,2,3],[4,5,6]]\nW[2, :]\nW[:, 3]\nW[2,3]\nW[1]\nW[2, :].y + W[:, 1].x\nW[3, 1]\n' >repl.in
expect "repl" 0 "$mech" repl --echo <repl.in
cp "$work/out" "$work/repl.out"
cat >repl.want <<'EOF'
mech> W = [[1,2,3],[4,5,6]]
W = [[1, 2, 3], [4, 5, 6]]
mech> W[2, :]
[4, 5, 6]
mech> W[:, 3]
[3, 6]
mech> W[2,3]
6
mech> W[1]
[1, 2, 3]
mech> W[2, :].y + W[:, 1].x
6
mech> W[3, 1]
EOF
golden "repl transcript" "$work/repl.out" "$work/repl.want"
contains "repl: row 3 of a 2x3" err "error: no such entry of a matrix (2x3; entries count from 1)"
# Entries count from 1 in the REPL as in a model: index 0 is no entry (not
# the whole row or column, as ':' is).
printf 'W = [[1,2,3],[4,5,6]]\nW[0, 1]\nW[1, 0]\nv = [1, 2, 3]\nv[0]\n' >repl_zero.in
expect "repl: index 0" 0 "$mech" repl <repl_zero.in
printf 'W = [[1, 2, 3], [4, 5, 6]]\nv = [1, 2, 3]\n' >repl_zero.want
golden "repl: no value for W[0, 1], W[1, 0], v[0]" "$work/out" "$work/repl_zero.want"
if [ "$(grep -c "no such entry" "$work/err")" -eq 3 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: repl: W[0, 1], W[1, 0] and v[0] are not each an error"
  sed 's/^/  | /' "$work/out" "$work/err" | head -10; fi

# mech fmt: the canonical spelling of entries, rows and columns.
cat >unformatted.mech <<'EOF'
model F {
  coord x [m]
  let W = [[x,1],[2,3]]
  let c = W[ : ,1 ]
  let r = W[2,:]
  let e = W[ 1 , 2 ]
  let v = W[2]
  let d = W'[2 ,1]
}
EOF
expect "fmt" 0 "$mech" fmt unformatted.mech
cp "$work/out" formatted.mech
contains "column" out "  let c = W[:, 1]"
contains "row" out "  let r = W[2, :]"
contains "entry" out "  let e = W[1, 2]"
contains "row by one index" out "  let v = W[2]"
contains "entry of the rate" out "  let d = W'[2, 1]"
expect "unformatted is reported" 1 "$mech" fmt --check unformatted.mech
expect "formatted is formatted" 0 "$mech" fmt --check formatted.mech
expect "fmt again" 0 "$mech" fmt formatted.mech
golden "round trip" "$work/out" "$work/formatted.mech"
expect "the formatted file checks" 0 "$mech" check formatted.mech

finish
