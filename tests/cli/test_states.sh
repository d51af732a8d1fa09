#!/usr/bin/env bash
# States a user gives are made consistent with the constraints before any
# answer is computed from them, the values given on the command line win over
# the model's init, and rest against moving or redundant constraints is
# reported for what it is. Expected numbers are worked out by hand in the
# comments.
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

cp "$root/tests/cli/models/point_on_paraboloid.mech" "$work/paraboloid.mech"
cat >"$work/rod.mech" <<'MECH'
model BeadOnRotatingRod {
  param m = 0.1 [kg], w = 2 [rad/s]
  coord x [m], y [m]
  particle bead mass m at [x, y]
  constraint rod: -x * sin(w * t) + y * cos(w * t) == 0
  init x = 0.1, y = 0, x' = 0, y' = 0.2
}
MECH
cat >"$work/weightless.mech" <<'MECH'
model Weightless {
  param k = 100 [N/m], F = 10 [N]
  coord x [m], y [m]
  potential V = k/2 * x^2 + F * y
  constraint floor: y == 0
  output push = -floor
}
MECH
cat >"$work/redundant.mech" <<'MECH'
model RedundantRod {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint once: x^2 + y^2 == l^2
  constraint twice: 2 * (x^2 + y^2) == 2 * l^2
}
MECH

# close A B TOLERANCE: |A - B| <= TOLERANCE.
close() { python3 -c "import sys; a, b, e = map(float, sys.argv[1:]); sys.exit(abs(a - b) > e)" "$@"; }
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$work/out" "$1"; }

# eval off the surface: x = 0.4 is kept, y = 0 (init) too, so z = (x^2 + y^2)/(2a) = 0.16.
# On it, with x' = z' = 0, y = 0: lambda = -m (y'^2 + a g) / (2 (x^2 + a^2)),
# x'' = 2 x lambda / m and z'' = -g - 2 a lambda / m.
expect "eval off the constraints" 0 "$mech" eval "$work/paraboloid.mech" --at "x=0.4" --json
cp "$work/out" "$work/eval.json"
read -r x z xdd zdd lambda <<<"$(json 'd["q"]["x"], d["q"]["z"], d["qdd"]["x"], d["qdd"]["z"], d["lambda"]["surface"]' | tr -d '(),')"
expected_lambda="$(python3 -c "m, a, g, x, yd = 0.2, 0.5, 9.81, 0.4, 1.3288; print(-m * (yd**2 + a * g) / (2 * (x**2 + a**2)))")"
expect "eval keeps the given x" 0 close "$x" 0.4 1e-15
expect "eval solves z from the constraint" 0 close "$z" 0.16 1e-12
expect "eval multiplier on the surface" 0 close "$lambda" "$expected_lambda" 1e-9
expect "eval x'' on the surface" 0 close "$xdd" "$(python3 -c "print(2 * 0.4 * $expected_lambda / 0.2)")" 1e-9
expect "eval z'' on the surface" 0 close "$zdd" "$(python3 -c "print(-9.81 - 2 * 0.5 * $expected_lambda / 0.2)")" 1e-9
cp "$work/eval.json" "$work/out"
expect "the projection note is in the JSON" 0 test "$(json 'd["notes"][0]')" = \
  "the state given by --at was projected onto the constraints: z = 0.16 (was 0.09)"
expect "eval text off the constraints" 0 "$mech" eval "$work/paraboloid.mech" --at "x=0.4"
contains "eval text says what changed" out "note: the state given by --at was projected onto the constraints: z = 0.16 (was 0.09)"
expect "linearize off the constraints" 0 "$mech" linearize "$work/paraboloid.mech" --at "x=0.4"
contains "linearize about the projected state" out "about x = 0.4, y = 0, z = 0.16"
contains "linearize says what changed" out "note: the state given by --at was projected"
contains "linearize labels its multipliers" out "multipliers balancing f at this configuration (least squares)"
expect "linearize JSON" 0 "$mech" linearize "$work/paraboloid.mech" --at "x=0.4" --json
contains "linearize JSON has the notes" out '"notes": ["not an equilibrium'

# simulate: --init x = 0.4 wins over the file's x = 0.3; z follows (0.16).
expect "simulate --init over init" 0 "$mech" simulate "$work/paraboloid.mech" --init "x=0.4" --until 0.01
read -r x y z <<<"$(sed -n 2p "$work/out" | cut -d, -f2-4 | tr , ' ')"
expect "simulate starts at the given x" 0 close "$x" 0.4 1e-15
expect "simulate starts with z on the surface" 0 close "$z" 0.16 1e-12
# The Cartesian pendulum: x' = 1 given, so y' = -x x'/y = 0.75 (x x' + y y' = 0).
expect "velocities given are kept" 0 "$mech" simulate examples/cartesian_pendulum.mech --init "x=0.6, y=-0.8, x'=1" --until 0.01
read -r xd yd <<<"$(sed -n 2p "$work/out" | cut -d, -f4-5 | tr , ' ')"
expect "x' as given" 0 close "$xd" 1 1e-15
expect "y' from the constraint" 0 close "$yd" 0.75 1e-12

# equilibria with a moving constraint: rest needs dPhi/dt = -w (x cos wt + y sin wt) = 0
# as well as Phi = 0, so only the centre is a state of rest, and a frozen-t
# test cannot judge its stability.
for t in 0 0.3; do
  expect "equilibria of the spinning rod at t = $t" 0 "$mech" equilibria "$work/rod.mech" --time $t
  contains "one state of rest at t = $t" out "1 equilibrium"
  contains "the centre at t = $t" out "1. x = 0, y = 0"
  lacks "no family at t = $t" out "arbitrary"
  contains "stability is not claimed at t = $t" out "undetermined: constraint 'rod' moves with t"
done

# eval of a weightless mechanism: the floor carries F = 10 N (lambda = F),
# and push = -lambda; at x = 0.1 the spring's k x = 10 N is not balanced.
expect "eval of a weightless mechanism" 0 "$mech" eval "$work/weightless.mech"
contains "static multiplier" out "multiplier floor = 10"
contains "output from the multiplier" out "push = -10"
contains "q'' undefined" out "q'' is undefined, and the multipliers are the static reactions"
lacks "balanced at x = 0" out "not an equilibrium"
expect "eval of a weightless mechanism off balance" 0 "$mech" eval "$work/weightless.mech" --at "x=0.1"
contains "not balanced" out "(largest residual 10): the configuration is not an equilibrium"

# Redundant constraints: at rest hanging, lambda_once + 2 lambda_twice = -m g / (2 l)
# (C_once = 2 (x, y)); the least-norm split is (1, 2)/5 of it: -0.981 and -1.962.
expect "equilibria with redundant constraints" 0 "$mech" equilibria "$work/redundant.mech"
contains "redundancy is said" out "constraints 'once' and 'twice' are redundant here"
contains "least-norm split, once" out "multiplier once = -0.981"
contains "least-norm split, twice" out "multiplier twice = -1.962"
expect "linearize with redundant constraints" 0 "$mech" linearize "$work/redundant.mech" --at "x=0, y=-1"
contains "linearize says so too" out "note: constraints 'once' and 'twice' are redundant here"
contains "linearize least-norm split" out "once = -0.981, twice = -1.962"

finish
