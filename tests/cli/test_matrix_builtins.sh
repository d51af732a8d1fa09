#!/usr/bin/env bash
# det, trace and inv as built-ins of a model: tests/cli/models/
# matrix_builtins.mech (its header works out the values by hand) checks,
# derives T written through inv(M) back to v.M.v / 2, evaluates to the
# hand-computed numbers, and simulates along the closed-form solution of
# M q'' = -k q; det of a non-square matrix is a located error; the REPL
# computes with the same built-ins.
# Usage: test_matrix_builtins.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
model=tests/cli/models/matrix_builtins.mech

expect "the model checks" 0 "$mech" check "$model"
expect "the model is formatted" 0 "$mech" fmt --check "$model"
expect "--dump=sema" 0 "$mech" --dump=sema "$model"
contains "det M has kg^2" out "output detM = det(M)  # kg^2"
contains "trace M has kg" out "output traceM = trace(M)  # kg"
contains "inv(M) q'' has m/s^2" out "# a 2-vector [m/s^2]"

expect "equations" 0 "$mech" equations "$model"
# p.inv(M).p / 2 with p = M v is v.M.v / 2: inv(M) cancels.
contains "T without inv" out "T = (m1 + m2)*x'^2/2 + m2*y'^2/2 + m2*x'*y'"
contains "M[x, y]" out "M[x, y] = m2"
lacks "no det left in T" out "/(m1"

expect "eval" 0 "$mech" eval "$model" --json
cp "$work/out" "$work/eval.json"
expect "eval matches the hand calculation" 0 python3 - "$work/eval.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
want = {"T": 0.375, "V": 1.5, "qdd.x": -1.5, "qdd.y": 1.5, "outputs.ax": -1.5,
        "outputs.ay": 1.5, "outputs.detM": 2, "outputs.traceM": 4, "outputs.detN": 6,
        "outputs.w": 1 / 3}
bad = 0
for key, value in want.items():
    got = e
    for part in key.split("."):
        got = got[part]
    if abs(got - value) > 1e-12:
        print(f"{key} = {got}, expected {value}")
        bad += 1
sys.exit(bad)
PY

# M q'' = -k q: q = sum over the modes u of inv(M) k (eigenvalues
# 3 +- sqrt(4.5), vectors (3/2, 3/2 - lambda)) of (a cos wt + b sin wt) u.
expect "simulate" 0 "$mech" simulate "$model" --until 5 --rtol 1e-10 --atol 1e-12 -o "$work/run.csv"
expect "simulation follows the closed form" 0 python3 - "$work/run.csv" <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
lams = [3 + math.sqrt(4.5), 3 - math.sqrt(4.5)]
u = [(1.5, 1.5 - lam) for lam in lams]
det = u[0][0] * u[1][1] - u[1][0] * u[0][1]
def coords(v):  # v = c0 u0 + c1 u1
    return ((v[0] * u[1][1] - u[1][0] * v[1]) / det, (u[0][0] * v[1] - v[0] * u[0][1]) / det)
a, b = coords((1, 0)), coords((0.5, -1))
worst = 0
for row in rows:
    t = float(row["t"])
    q = [0.0, 0.0]
    for i, lam in enumerate(lams):
        w = math.sqrt(lam)
        s = a[i] * math.cos(w * t) + b[i] / w * math.sin(w * t)
        q = [q[0] + s * u[i][0], q[1] + s * u[i][1]]
    worst = max(worst, abs(float(row["x"]) - q[0]), abs(float(row["y"]) - q[1]))
print(f"{len(rows)} samples, max error {worst:.2e}")
sys.exit(0 if len(rows) > 100 and worst < 1e-7 else 1)
PY

# det of a 2x3 matrix: the error points at the argument.
printf 'model A {\n  coord x [m]\n  let d = det([[x, x, x], [x, x, x]])\n}\n' >"$work/bad.mech"
expect "det of a non-square matrix" 1 "$mech" check "$work/bad.mech"
contains "message" err "bad.mech:3:15: error: det expects a square matrix, found a 2x3 matrix"
# The source line is shown after a margin of 2: the caret of column 15 is
# the 17th character, and the argument's 23 characters are underlined.
if grep -qx -- '                ^~~~~~~~~~~~~~~~~~~~~~' "$work/err"; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the caret is not under the argument"
  sed 's/^/  | /' "$work/err"
fi

# The REPL: the same built-ins, on the model's M and on numbers.
printf '%s\n' 'inv(M)' 'det(M)' 'simplify(inv(M) * M)' 'inv([[1, 2], [3, 4]])' |
  "$mech" repl "$model" >"$work/out" 2>"$work/err"
contains "inv(M)" out "[[1/m1, -1/m1], [-1/m1, 1/m1 + 1/m2]]"
contains "det(M)" out "m1*m2"
contains "inv(M) M" out "[[1, 0], [0, 1]]"
contains "numbers" out "[[-2, 1], [3/2, -1/2]]"

finish
