# --method radau and --method bdf: the implicit Radau IIA of order 5 and
# the variable-order BDF, with the exact Jacobian the compiler derives,
# against closed forms; and --method auto, which switches from dopri5 to
# radau on stiffness, and warns instead on a real fast oscillation.
# - The overdamped stiff oscillator (examples/overdamped_oscillator.mech,
#   m x'' + c x' + k x = F0 sin(w t), k = 1e9, c = 1e6, from rest) against
#   its exact solution (written out in the example's header), in fewer than
#   1% of DOPRI5's steps (DOPRI5 needs ~3e5 steps for the first second alone).
# - A non-stiff model (the double pendulum) agrees with DOP853 at tight
#   tolerances, on both back ends; a constrained one (the Cartesian
#   pendulum) keeps its constraint.
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; }
oscillator=examples/overdamped_oscillator.mech
exact='import csv, math
m, k, c, F0, w = 1.0, 1e9, 1e6, 1.0, 1.0
D = (k - m * w * w) ** 2 + (c * w) ** 2
A, B = F0 * (k - m * w * w) / D, -F0 * c * w / D
r = math.sqrt(c * c - 4 * m * k)
s1, s2 = (-c + r) / (2 * m), (-c - r) / (2 * m)
C2 = (-A * w + s1 * B) / (s2 - s1)
C1 = -B - C2
def x_exact(t):
    return A * math.sin(w * t) + B * math.cos(w * t) + C1 * math.exp(s1 * t) + C2 * math.exp(s2 * t)
def worst(path):
    rows = list(csv.DictReader(open(path)))
    return max(abs(float(r["x"]) - x_exact(float(r["t"]))) for r in rows), len(rows)'
steps() { sed -n 's/^method [a-z0-9]*: \([0-9]*\) steps accepted.*/\1/p' "$work/$1"; }

dopri5_steps=""
expect "dopri5, 1 s" 0 "$mech" simulate $oscillator --until 1 --rtol 1e-8 --atol 1e-14 -o "$work/dopri5.csv"
cp "$work/err" "$work/dopri5.err"
dopri5_steps=$(steps dopri5.err)
for method in radau bdf auto; do
  expect "$method, 10 s" 0 "$mech" simulate $oscillator --method $method --until 10 --rtol 1e-8 --atol 1e-14 -o "$work/$method.csv"
  cp "$work/err" "$work/$method.err"
  contains "$method: the Jacobian is used" $method.err "Jacobian evaluations"
  [ $method = auto ] && contains "auto switches, with a note" auto.err "note: switched from dopri5 to radau at t = "
  # |x| <= 1e-9 m; BDF bounds each step's error, not the global one (as
  # SciPy's BDF): its bound is looser.
  bound=$([ $method = bdf ] && echo 1e-12 || echo 1e-13)
  python3 -c "$exact
e, n = worst('$work/$method.csv')
assert n == 1001, n
assert e < $bound, e
" >"$work/check" 2>&1 && pass "$method follows the exact solution" || fail "$method follows the exact solution: $(cat "$work/check")"
  implicit_steps=$(steps $method.err)
  if [ -n "$implicit_steps" ] && [ -n "$dopri5_steps" ] && [ $((implicit_steps * 100)) -lt "$dopri5_steps" ]; then
    pass "$method over 10 s takes under 1% of dopri5's steps over 1 s"
  else
    fail "$method over 10 s takes under 1% of dopri5's steps over 1 s ($implicit_steps against $dopri5_steps)"
  fi
done

# --method auto on the excited, undamped stiff spring (the tutorial's
# spring pendulum at k = 1e9, started stretched: a real 7 kHz radial
# oscillation): no switch, a warning that says why, and the step limit.
expect "auto on a real fast oscillation" 1 "$mech" simulate examples/tutorial/spring_pendulum.mech --method auto --set k=1e9 --until 10 -o "$work/spring.csv"
contains "auto warns about the real oscillation" err "(7.12e+03 Hz) of dF/dx, is excited and does not decay during the run: it is real motion, which an implicit method would damp away"
lacks "auto did not switch" err "switched from dopri5"
contains "and stops at the step limit" err "error: maximum number of steps (1000000) reached"
# A non-stiff model: auto is dopri5, step for step.
expect "double pendulum, auto" 0 "$mech" simulate examples/double_pendulum.mech --method auto --until 3 -o "$work/dp_auto.csv"
cp "$work/err" "$work/dp_auto.err"
expect "double pendulum, dopri5" 0 "$mech" simulate examples/double_pendulum.mech --until 3 -o "$work/dp_dopri5.csv"
cmp -s "$work/dp_auto.csv" "$work/dp_dopri5.csv" && pass "auto = dopri5 when nothing is stiff" || fail "auto = dopri5 when nothing is stiff"
lacks "no note when nothing is stiff" dp_auto.err "note:"

# Non-stiff: the same motion as DOP853 at tight tolerances, JIT and interpreter.
for backend in jit interp; do
  expect "double pendulum, radau ($backend)" 0 "$mech" simulate examples/double_pendulum.mech --method radau --until 3 --rtol 1e-11 --atol 1e-12 --backend $backend -o "$work/dp_radau_$backend.csv"
done
expect "double pendulum, bdf" 0 "$mech" simulate examples/double_pendulum.mech --method bdf --until 3 --rtol 1e-11 --atol 1e-12 -o "$work/dp_bdf.csv"
expect "double pendulum, dop853" 0 "$mech" simulate examples/double_pendulum.mech --method dop853 --until 3 --rtol 1e-12 --atol 1e-13 -o "$work/dp_dop853.csv"
for backend in jit interp; do
  python3 -c "
import csv
a = list(csv.reader(open('$work/dp_radau_$backend.csv')))[1:]
b = list(csv.reader(open('$work/dp_dop853.csv')))[1:]
assert len(a) == len(b)
d = max(abs(float(x) - float(y)) for ra, rb in zip(a, b) for x, y in zip(ra[1:5], rb[1:5]))
assert d < 1e-7, d
" >"$work/check" 2>&1 && pass "radau ($backend) agrees with dop853" || fail "radau ($backend) agrees with dop853: $(cat "$work/check")"
done
python3 -c "
import csv
a = list(csv.reader(open('$work/dp_bdf.csv')))[1:]
b = list(csv.reader(open('$work/dp_dop853.csv')))[1:]
d = max(abs(float(x) - float(y)) for ra, rb in zip(a, b) for x, y in zip(ra[1:5], rb[1:5]))
assert len(a) == len(b) and d < 1e-6, d
" >"$work/check" 2>&1 && pass "bdf agrees with dop853" || fail "bdf agrees with dop853: $(cat "$work/check")"

# Constrained: the Cartesian pendulum stays on its circle.
for method in radau bdf; do
  expect "cartesian pendulum, $method" 0 "$mech" simulate examples/cartesian_pendulum.mech --method $method --until 5 --rtol 1e-9 --atol 1e-11
  contains "$method: a residual is reported" err "largest constraint residual"
  python3 -c "
import re
text = open('$work/err').read()
r = float(re.search(r'largest constraint residual (\S+)', text).group(1))
assert r < 1e-8, r
" >"$work/check" 2>&1 && pass "$method: the constraint holds" || fail "$method: the constraint holds: $(cat "$work/check")"
done

finish
