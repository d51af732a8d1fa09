# inputs: `input u [unit]` driven from outside, against closed forms.
# - Cart-pole (examples/cart_pole.mech, a uniform pole of half-length l on a
#   cart pushed by F): linearized by hand, (M + m) x'' + m l th'' = F and
#   m l x'' + 4/3 m l^2 th'' - m g l th = 0 upright, so that
#   x'' = (4F - 3 m g th)/(4M + m) and th'' = 3 g (M + m) th/(l (4M + m))
#   - 3F/(l (4M + m)): A and B = [0, 0, 4/(4M + m), -3/(l (4M + m))];
#   hanging (th = pi) the signs of th's row flip.
# - Driven damped oscillator (examples/driven_oscillator.mech, m x'' + c x'
#   + k x = F0 cos(w t)): after the transient x = X cos(w t - d) with
#   X = F0/sqrt((k - m w^2)^2 + (c w)^2) and d = atan2(c w, k - m w^2); the
#   same through a built library's input function; held at F0, x -> F0/k.
# - A table (CSV) input is interpolated linearly and held at its ends.
# - eval reads inputs from --at and --input; equilibria holds them.
# - Misuse: a name that is not an input, --set on an input, a wrong unit,
#   an input given twice, tables that are missing, unsorted or ambiguous.
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
close='def close(a, b, tol=1e-12): assert abs(a - b) <= tol * max(1, abs(b)), (a, b)'
pole=examples/cart_pole.mech
oscillator=examples/driven_oscillator.mech

for case in "upright:0:1" "hanging:pi:-1"; do
  IFS=: read -r name th sign <<<"$case"
  expect "cart-pole $name" 0 "$mech" linearize "$pole" --at "x=0, th=$th" --json
  check_json "cart-pole $name: A and B by hand" "$close
M, m, l, g, s = 1.0, 0.1, 0.5, 9.81, $sign
D = 4 * M + m
A = [[0, 0, 1, 0], [0, 0, 0, 1], [0, -3 * m * g / D, 0, 0], [0, s * 3 * g * (M + m) / (l * D), 0, 0]]
B = [[0], [0], [4 / D], [-s * 3 / (l * D)]]
for r in range(4):
    for c in range(4):
        close(j['A'][r][c], A[r][c])
    close(j['B'][r][0], B[r][0])
assert j['inputs'] == ['F'] and j['state'] == ['x', 'th', \"x'\", \"th'\"]"
done
expect "cart-pole: text" 0 "$mech" linearize "$pole" --at "x=0, th=0"
contains "B is printed over the inputs" out "B = [[0], [M^-1 df/du]], over (F) ="
expect "the equations show the input" 0 "$mech" equations "$pole"
contains "input line" out "input F [N] (0 unless given with --input)"
contains "F enters the force on x" out "Qnc[x] = F  [N]"

# With a constraint: a bob on a rod of length l (x, y), pushed along x. At
# the state (l sin a, -l cos a) at rest the push's component along the
# circle, F cos a, accelerates the bob: with x independent, x'' = F cos^2 a / m
# per unit F (the rod takes the rest), so B over (x, x') is [0, cos^2 a / m].
sed -e 's/^  particle bob/  input F [N]\n  generalized F on x\n  particle bob/' \
  -e 's/^  param m = 1 \[kg\]/  param m = 2 [kg]/' examples/cartesian_pendulum.mech >"$work/pushed.mech"
expect "constrained B" 0 "$mech" linearize "$work/pushed.mech" --at "x=0.6, y=-0.8" \
  --independent "x, x'" --json
check_json "B through the equations of the first kind" "$close
c2, m = 0.8 ** 2, 2.0
assert j['state'] == ['x', \"x'\"], j['state']
close(j['B'][0][0], 0)
close(j['B'][1][0], c2 / m)"

# The driven oscillator, to t = 140: the transient has decayed by e^-28.
expect "driven oscillator" 0 "$mech" simulate "$oscillator" --input "F = 0.8*cos(1.5*t)" \
  --until 140 --dt 0.05 --rtol 1e-11 --atol 1e-13 -o "$work/driven.csv"
expect "steady amplitude and phase" 0 python3 -c '
import math, sys
m, k, c, F0, w = 1.0, 4.0, 0.4, 0.8, 1.5
X = F0 / math.sqrt((k - m * w * w) ** 2 + (c * w) ** 2)
d = math.atan2(c * w, k - m * w * w)
rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1]).read().split()[1:]]
late = [r for r in rows if r[0] >= 120]
assert len(late) > 300
err = max(abs(r[1] - X * math.cos(w * r[0] - d)) for r in late)
assert err < 1e-8 * X, err
' "$work/driven.csv"
# A unit on a plain number is the input's: [kN] scales, like a param's.
expect "a plain number in the declared unit" 0 "$mech" eval "$oscillator" --at "x=0, F=2 [N]" --json
check_json "F = 2 N gives x'' = 2" "assert abs(j['qdd']['x'] - 2) < 1e-15, j['qdd']"
expect "eval with --input at t" 0 "$mech" eval "$oscillator" --at "t=2" --input "F = 3*t" --json
check_json "F(2) = 6" "assert abs(j['qdd']['x'] - 6) < 1e-14, j['qdd']"
expect "equilibria hold the input" 0 "$mech" equilibria "$oscillator" --input "F=2" --json
check_json "x = F/k" "$close
[e] = j['equilibria']
close(e['q']['x'], 0.5)"

# A table: t, F with a header; linear between rows, held outside.
cat >"$work/push.mech" <<'MODEL'
model Push {
  input F [N]
  coord x [m]
  particle p mass 1 [kg] at [x, 0]
  generalized F on x
  output push = F
}
MODEL
printf 't,F\n0,0\n1,2\n3,2\n4,-2\n' >"$work/push.csv"
expect "table input" 0 "$mech" simulate "$work/push.mech" --input "F=$work/push.csv" \
  --until 5 --dt 0.5
cp "$work/out" "$work/push.out"
expect "interpolated and held" 0 python3 -c '
import sys
got = {float(r.split(",")[0]): float(r.split(",")[-1]) for r in sys.stdin.read().split()[1:]}
want = {0: 0, 0.5: 1, 1: 2, 2: 2, 3.5: 0, 4: -2, 5: -2}
assert all(abs(got[t] - v) < 1e-15 for t, v in want.items()), got
' <"$work/push.out"

# Built libraries: the input is the last parameter, and simulate_with
# drives it through a function of t.
if command -v cc >/dev/null; then
  expect "build the driven oscillator" 0 "$mech" build "$oscillator" -o "$work/libdriven.so" \
    --header "$work/driven.h"
  contains "the header says where the inputs are" driven.h "The last nu = 1 of them are the model's inputs u"
  expect "compile driven_inputs" 0 cc -std=c99 -Wall -Wextra -Werror -I"$root/tests/cli/library" \
    -include "$work/driven.h" "$root/tests/cli/library/driven_inputs.c" -o "$work/driven_inputs" \
    "$work/libdriven.so" -Wl,-rpath,"$work" -lm
  expect "run driven_inputs" 0 "$work/driven_inputs" 0.8 1.5 140
  cp "$work/out" "$work/driven.out"
  expect "library: steady amplitude, phase and held input" 0 python3 -c '
import math, sys
largest, end, held = [float(v) for v in sys.stdin.read().split()]
m, k, c, F0, w = 1.0, 4.0, 0.4, 0.8, 1.5
X = F0 / math.sqrt((k - m * w * w) ** 2 + (c * w) ** 2)
d = math.atan2(c * w, k - m * w * w)
assert abs(end - X * math.cos(w * 140 - d)) < 1e-8, (end, X)
assert abs(largest - X) < 1e-4 * X, (largest, X)
assert abs(held - F0 / k) < 1e-9, held
' <"$work/driven.out"
else
  echo "SKIP: no C compiler (cc) for the library's input function"
fi

# Misuse.
expect "not an input" 1 "$mech" simulate "$oscillator" --input "G=1" --until 1
contains "names the model" err "'G' is not an input of DrivenOscillator"
expect "--set on an input" 1 "$mech" eval "$oscillator" --set "F=1"
contains "points to --input" err "'F' is an input, not a param; give its value with --input"
expect "wrong unit" 1 "$mech" simulate "$oscillator" --input "F=2 [m]" --until 1
contains "dimension" err "'F' has dimension kg*m/s^2, the value given has m"
expect "given twice" 1 "$mech" simulate "$oscillator" --input "F=1, F=2" --until 1
contains "twice" err "'F' is given twice"
expect "missing table" 1 "$mech" simulate "$oscillator" --input "F=$work/none.csv" --until 1
contains "cannot open" err "cannot open '$work/none.csv': No such file or directory"
printf 't,F\n0,0\n1,2\n1,3\n' >"$work/unsorted.csv"
expect "unsorted table" 1 "$mech" simulate "$oscillator" --input "F=$work/unsorted.csv" --until 1
contains "times increase" err "unsorted.csv:4: the times must increase"
printf '0,1,2\n1,2,3\n' >"$work/wide.csv"
expect "ambiguous table" 1 "$mech" simulate "$oscillator" --input "F=$work/wide.csv" --until 1
contains "name the column" err "3 columns and none named 'F'"
expect "--input is read by a sweep too" 1 "$mech" linearize "$pole" --at "x=0, th=0" \
  --sweep "l=0.4..0.6:3" --input "G=1"
contains "not ignored" err "'G' is not an input of CartPole"
expect "an expression of the state is refused" 1 "$mech" simulate "$oscillator" --input "F=x" --until 1
contains "unknown name" err "unknown name 'x'"

finish
