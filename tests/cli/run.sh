#!/usr/bin/env bash
# Command-line tests: exit codes and the shape of diagnostics, as a user sees
# them. Usage: run.sh MECH_BINARY SOURCE_ROOT
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
expect "check all examples" 0 "$mech" check examples/*.mech
contains "summary names the model" out "DoublePendulum: 2 coordinates (th1, th2), 5 parameters"
expect "check the standard library" 0 "$mech" check stdlib/*.mech
expect "help" 0 "$mech" --help
expect "version" 0 "$mech" --version
contains "version names LLVM" out "LLVM 19"
expect "no arguments is a usage error" 2 "$mech"
expect "unknown command" 2 "$mech" frobnicate
expect "check without files" 2 "$mech" check
expect "unknown option" 2 "$mech" check --frob examples/chain.mech
expect "missing file" 1 "$mech" check "$work/none.mech"
contains "missing file message" err "cannot open"
expect "a directory" 1 "$mech" check "$work"
contains "directory message" err "is a directory"
expect "bad dump stage" 2 "$mech" --dump=llvmx examples/chain.mech
expect "dump ast" 0 "$mech" --dump=ast examples/double_pendulum.mech
contains "ast has the model" out "Model DoublePendulum"
expect "dump sema" 0 "$mech" --dump=sema examples/chain.mech
contains "sema expands families" out "coord th[10]"

# A broken copy of every example gives a located, caret-marked error.
for example in examples/*.mech; do
  name="$(basename "$example")"
  sed 's/coord \([a-z]*\)/coord \1 \1/' "$example" >"$work/$name"
  expect "broken $name" 1 "$mech" check "$work/$name"
  contains "broken $name is located" err "$work/$name:"
  contains "broken $name has a caret" err "^"
done
printf 'model X {\n  coord x [m]\n  potential V = x\n}\n' >"$work/dim.mech"
expect "dimension error" 1 "$mech" check "$work/dim.mech"
contains "dimension message" err "dim.mech:3:17: error: V has dimension m, an energy (kg*m^2/s^2) was expected"
contains "caret under the value" err "                  ^"

# Formatting: output parses back, --check and --write agree.
cp examples/double_pendulum.mech "$work/fmt.mech"
expect "fmt prints" 0 "$mech" fmt "$work/fmt.mech"
cp "$work/out" "$work/formatted.mech"
expect "formatted text checks" 0 "$mech" check "$work/formatted.mech"
expect "fmt --check flags unformatted" 1 "$mech" fmt --check "$work/fmt.mech"
expect "fmt --write" 0 "$mech" fmt --write "$work/fmt.mech"
expect "fmt --check after --write" 0 "$mech" fmt --check "$work/fmt.mech"
expect "fmt is idempotent" 0 "$mech" fmt --check "$work/formatted.mech"
# A matrix written row by row keeps one row per line, aligned one column
# right of its '['; one written on one line stays on one line. The printed
# text reads back as the same tree and is its own canonical form.
printf 'model Mx {\n  coord x\n  let A = [[1, x, 0],\n  [x, 1, 0],\n      [0,0,1]]\n  let B = [ [1, 0], [0, 1] ]\n  output o = if(x<1 and not (x>=2 or x>0), min(x, 1, 2), clamp(x, -1, 1)) + max(x, 0) * smooth(x)\n}\n' >"$work/matrix.mech"
printf 'model Mx {\n  coord x\n  let A = [[1, x, 0],\n           [x, 1, 0],\n           [0, 0, 1]]\n  let B = [[1, 0], [0, 1]]\n  output o = if(x < 1 and not (x >= 2 or x > 0), min(x, 1, 2), clamp(x, -1, 1)) + max(x, 0) * smooth(x)\n}\n' >"$work/matrix_expected.mech"
expect "fmt of a matrix row by row" 0 "$mech" fmt "$work/matrix.mech"
save
expect "fmt keeps the rows under the bracket" 0 cmp "$work/saved" "$work/matrix_expected.mech"
expect "fmt of the rows is idempotent" 0 "$mech" fmt --check "$work/matrix_expected.mech"
expect "dump of the source" 0 "$mech" --dump=ast "$work/matrix.mech"
sed 's/ @[0-9]*:[0-9]*//' "$work/out" >"$work/matrix_ast"
expect "dump of the formatted text" 0 "$mech" --dump=ast "$work/matrix_expected.mech"
sed 's/ @[0-9]*:[0-9]*//' "$work/out" >"$work/matrix_expected_ast"
expect "formatted matrix parses to the same tree" 0 cmp "$work/matrix_ast" "$work/matrix_expected_ast"

# Imports through MECH_PATH and the standard library.
mkdir -p "$work/lib"
printf 'def twice(x) = 2 * x\n' >"$work/lib/mylib.mech"
printf 'import "mylib.mech"\nimport "planar.mech"\nmodel P {\n  param l = 1 [m]\n  coord a [rad]\n  particle p mass 1 [kg] at twice(l) * down(a)\n}\n' >"$work/imp.mech"
expect "import without MECH_PATH fails" 1 "$mech" check "$work/imp.mech"
contains "import message" err "cannot find 'mylib.mech'"
expect "import with MECH_PATH" 0 env MECH_PATH="$work/lib" "$mech" check "$work/imp.mech"

# Equations and evaluation.
expect "equations" 0 "$mech" equations examples/double_pendulum.mech
contains "mass matrix entry" out "M[th1, th2] = m2*l1*l2*cos(th1 - th2)"
contains "generalized force with unit" out "Q[th2] = -m2*l2*g*sin(th2)  [N*m]"
expect "equations --json" 0 "$mech" equations --json examples/bead_on_rod.mech
save
expect "equations json parses" 0 python3 -c "import json,sys; d=json.load(open('$work/saved')); assert d['Q']['s'] == 'm*g*cos(phi)', d['Q']"
expect "equations --latex" 0 "$mech" equations --latex examples/double_pendulum.mech
contains "latex has align" out "\\begin{align}"
expect "eval" 0 "$mech" eval examples/double_pendulum.mech --at "th1=0.6, th2=-0.45, th1'=1.2, th2'=-0.7, t=0"
expect "eval --json with --set and units" 0 "$mech" eval --json examples/double_pendulum.mech --set "m1=1300 [g]" --at "th1=0.6, th2=-0.45, th1'=1.2, th2'=-0.7"
save
expect "eval json is the textbook answer" 0 python3 -c "
import json
from math import sin, cos
d = json.load(open('$work/saved'))
m1, m2, l1, l2, g = 1.3, 1.0, 1.0, 0.8, 9.81
t1, t2, w1, w2 = 0.6, -0.45, 1.2, -0.7
den = 2*m1 + m2 - m2*cos(2*t1 - 2*t2)
a1 = (-g*(2*m1 + m2)*sin(t1) - m2*g*sin(t1 - 2*t2) - 2*sin(t1 - t2)*m2*(w2**2*l2 + w1**2*l1*cos(t1 - t2)))/(l1*den)
a2 = 2*sin(t1 - t2)*(w1**2*l1*(m1 + m2) + g*(m1 + m2)*cos(t1) + w2**2*l2*m2*cos(t1 - t2))/(l2*den)
assert abs(d['qdd']['th1'] - a1) < 1e-12*abs(a1), (d['qdd'], a1)
assert abs(d['qdd']['th2'] - a2) < 1e-12*abs(a2), (d['qdd'], a2)
"
expect "unknown --set name" 1 "$mech" eval examples/double_pendulum.mech --set mass=2
contains "unknown --set is located" err "<--set>:1:1: error: 'mass' is not a param of DoublePendulum"
expect "--set with the wrong dimension" 1 "$mech" eval examples/double_pendulum.mech --set "l1=2 [s]"
expect "--at of an unknown coordinate" 1 "$mech" eval examples/double_pendulum.mech --at "th3=1"
expect "--at syntax error" 1 "$mech" eval examples/double_pendulum.mech --at "th1=="
expect "--set without value" 2 "$mech" eval examples/double_pendulum.mech --set
expect "eval of every unconstrained example" 0 "$mech" eval examples/chain.mech
expect "dump eom" 0 "$mech" --dump=eom examples/driven_rod.mech
contains "eom shows T0" out "T0 = 0"
expect "check --json" 0 "$mech" check --json examples/chain.mech
save
expect "check json parses" 0 python3 -c "import json; d=json.load(open('$work/saved')); assert d[0]['model'] == 'Chain'"

# Simulation.
expect "simulate" 0 "$mech" simulate examples/double_pendulum.mech --until 2 --dt 0.5
contains "csv header" out "t,th1,th2,th1',th2'"
contains "summary" err "energy drift"
save
expect "simulate agrees with the closed-form accelerations" 0 python3 -c "
from math import sin, cos
rows = [l.split(',') for l in open('$work/saved').read().split()[1:]]
assert len(rows) == 5 and float(rows[-1][0]) == 2.0, rows
m1, m2, l1, l2, g = 1.0, 1.0, 1.0, 0.8, 9.81
def f(s):
    t1, t2, w1, w2 = s
    d = t1 - t2; den = 2*m1 + m2 - m2*cos(2*t1 - 2*t2)
    a1 = (-g*(2*m1 + m2)*sin(t1) - m2*g*sin(t1 - 2*t2) - 2*sin(d)*m2*(w2**2*l2 + w1**2*l1*cos(d)))/(l1*den)
    a2 = 2*sin(d)*(w1**2*l1*(m1 + m2) + g*(m1 + m2)*cos(t1) + w2**2*l2*m2*cos(d))/(l2*den)
    return [w1, w2, a1, a2]
s = [0.5, -0.3, 0.0, 0.0]; h = 2e-4
for i in range(10000):
    k1 = f(s); k2 = f([s[j] + h/2*k1[j] for j in range(4)])
    k3 = f([s[j] + h/2*k2[j] for j in range(4)]); k4 = f([s[j] + h*k3[j] for j in range(4)])
    s = [s[j] + h/6*(k1[j] + 2*k2[j] + 2*k3[j] + k4[j]) for j in range(4)]
got = [float(x) for x in rows[-1][1:]]
assert max(abs(a - b) for a, b in zip(got, s)) < 1e-6, (got, s)
"
expect "simulate with the interpreter" 0 "$mech" simulate examples/bead_on_rod.mech --until 1 --backend interp -o "$work/bead.csv"
expect "simulate rk4 with a plot" 0 "$mech" simulate examples/driven_rod.mech --until 2 --method rk4 --step 0.001 --plot "$work/rod.svg" -o "$work/rod.csv"
expect "plot is svg" 0 grep -q "<svg" "$work/rod.svg"
expect "simulate the chain" 0 "$mech" simulate examples/chain.mech --until 1 -o "$work/chain.csv"
expect "simulate a constrained model" 0 "$mech" simulate examples/cartesian_pendulum.mech --until 1 --dt 0.5
contains "multiplier column" out "t,x,y,x',y',rod,tension"
contains "constraint residual in the summary" err "largest constraint residual"
expect "simulate the knife edge" 0 "$mech" simulate examples/knife_edge.mech --until 1 --dt 0.5
contains "knife edge multiplier column" out "t,x,y,phi,x',y',phi',sideways"
sed 's/  init x = 0.6, y = -0.8/  init x = 0.6/' examples/cartesian_pendulum.mech >"$work/offrod.mech"
expect "an init off the constraint is projected" 0 "$mech" simulate "$work/offrod.mech" --until 0.1
contains "projection note" err "note: the initial state was projected onto the constraints: y = -0.8 (was 0)"
expect "--strict-init refuses it" 1 "$mech" simulate "$work/offrod.mech" --until 0.1 --strict-init
contains "strict-init message" err "violates the constraints"
printf 'model R {\n  coord x [m], y [m]\n  particle p mass 1 [kg] at [x, y]\n  constraint a: x + y == 1 [m]\n  constraint b: 2*x + 2*y == 2 [m]\n  init x = 0.5, y = 0.5\n}\n' >"$work/redundant.mech"
expect "baumgarte" 0 "$mech" simulate examples/cartesian_pendulum.mech --until 1 --no-projection --baumgarte 5,5
expect "baumgarte needs two numbers" 2 "$mech" simulate examples/cartesian_pendulum.mech --baumgarte 5
expect "redundant constraints run" 0 "$mech" simulate "$work/redundant.mech"
contains "redundant constraints are named" err "note: constraints 'a' and 'b' are redundant here"
expect "eval with a multiplier" 0 "$mech" eval examples/cartesian_pendulum.mech --json
save
expect "eval json has lambda and reaction" 0 python3 -c "
import json; d = json.load(open('$work/saved'))
assert abs(d['lambda']['rod'] + 3.924) < 1e-12, d['lambda']
assert abs(d['reaction']['x'] - 2*0.6*d['lambda']['rod']) < 1e-12, d['reaction']
assert abs(d['outputs']['tension'] - 9.81*0.8) < 1e-12, d['outputs']
"
expect "equations of the first kind" 0 "$mech" equations examples/cartesian_pendulum.mech
contains "first-kind equation" out "x: m*x'' = 2*x*rod"
expect "simulate bad method" 2 "$mech" simulate examples/chain.mech --method euler
expect "simulate bad number" 2 "$mech" simulate examples/chain.mech --until soon
printf 'model S {\n  param m = 1 [kg]\n  coord x [m], phi [rad]\n  particle p mass m at [x, 0]\n  potential V = 1 [J] * cos(phi)\n}\n' >"$work/singular.mech"
expect "singular mass matrix" 1 "$mech" simulate "$work/singular.mech"
contains "singular message names the coordinate" err "coordinate 'phi' has no inertia"
printf 'model B {\n  param m = 1 [kg], k = 1 [N/m^3]\n  coord x [m]\n  particle p mass m at x\n  generalized k*x^3 on x\n  init x = 1\n}\n' >"$work/blowup.mech"
expect "blow-up is reported" 1 "$mech" simulate "$work/blowup.mech" --until 10 -o "$work/blowup.csv"
contains "blow-up message has the time" err "at t = "

# The cache of compiled kernels: a miss, then a hit; --no-cache bypasses it.
export XDG_CACHE_HOME="$work/fresh-cache"
expect "simulate fills the cache" 0 "$mech" simulate examples/double_pendulum.mech --until 0.1
contains "first run misses" err "cache miss"
expect "cache directory is private" 0 test "$(stat -c %a "$work/fresh-cache/mech")" = 700
expect "simulate from the cache" 0 "$mech" simulate examples/double_pendulum.mech --until 0.1
contains "second run hits" err "cache hit"
save
expect "simulate without the cache" 0 "$mech" simulate examples/double_pendulum.mech --until 0.1 --no-cache
contains "no-cache" err "cache off"
cp "$work/out" "$work/fresh"
expect "cached and fresh code give the same trajectory" 0 cmp "$work/fresh" "$work/saved"
export XDG_CACHE_HOME="$work/cache"
expect "midpoint method" 0 "$mech" simulate examples/double_pendulum.mech --until 1000 --method midpoint --step 0.01 --dt 1 -o "$work/midpoint.csv"
contains "midpoint summary" err "method midpoint: 100000 steps accepted"
cp "$work/err" "$work/midpoint.err"
# The symplectic method keeps the double pendulum's energy for 1000 s at
# h = 0.01 (the bound of the brief: 1e-3; measured about 1e-5).
expect "midpoint energy bound over 1000 s" 0 python3 -c "
import re; text = open('$work/midpoint.err').read()
drift = float(re.search(r'energy drift max\|E\(t\) - E\(0\)\|/\|E\(0\)\| = (\S+)', text).group(1))
assert drift < 1e-3, drift
"
expect "midpoint refuses constraints" 1 "$mech" simulate examples/cartesian_pendulum.mech --method midpoint

# An installed mech finds its standard library without the source tree.
if [ -n "$build" ]; then
  expect "install" 0 cmake --install "$build" --prefix "$work/prefix"
  mkdir -p "$work/elsewhere"
  printf 'import "planar.mech"\nmodel Q {\n  coord a [rad]\n  particle p mass 1 [kg] at 1 [m] * down(a)\n}\n' >"$work/elsewhere/q.mech"
  expect "installed mech imports the stdlib" 0 "$work/prefix/bin/mech" check "$work/elsewhere/q.mech"
  [ -f "$work/prefix/share/mech/stdlib/planar.mech" ] && passed=$((passed + 1)) ||
    { failed=$((failed + 1)); echo "FAIL: stdlib not installed"; }
  # The Python package, when built, goes under the prefix too (never into
  # the system's site-packages) and imports from there.
  if [ -d "$build/python/mech" ]; then
    site=$(dirname "$(find "$work/prefix" -path '*/mech/__init__.py' | head -1)")
    expect "the Python package is installed under the prefix" 0 test -n "$site"
    expect "and imports from there" 0 env PYTHONPATH="$(dirname "$site")" /usr/bin/python3 -c \
      "import mech; assert mech.__file__.startswith('$work/prefix'); mech.load('examples/double_pendulum.mech')"
  fi
fi

finish
