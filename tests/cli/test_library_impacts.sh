#!/usr/bin/env bash
# Command-line tests of the events, impacts, rests, lift-offs and resets of
# a built library (PREFIX_simulate_with with event records, driven by
# tests/cli/library/run_events.c):
#  a. the bouncing ball, the pendulum at a wall, the rimless wheel, a
#     pendulum on a rod at a wall (a bilateral constraint through the
#     impacts), an event that resets, a ball on a moving table and a block
#     pulled off a table, a projectile whose stop event ends the run, each
#     against `mech simulate` with the same dt and
#     tolerances: the grid's rows (state, multipliers, contact forces,
#     outputs) and the events' names and times to 1e-11 (the same steps, the
#     kernels' roundings apart), the states at the events to 1e-9, with
#     DOPRI5 and with Radau IIA
#  b. closed forms: the ball's rest at t1 + 2 v1 e / (g (1 - e)), the
#     carts' momentum and restitution with Carnot's energy loss, Newton's
#     cradle touching (-v/3, 2v/3, 2v/3), the block's lift-off at m g / k
#  c. failures as status codes: a contact violated at the start, a reset
#     that breaks a constraint, a restitution set outside [0, 1], a friction's
#     normal force turning negative
#  d. frictions (the stick-slip oscillator, the incline, a dry pivot) against
#     mech simulate, and the belt's phases and friction force against the
#     closed form
# Usage: test_library_impacts.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

helpers="$root/tests/cli/library"
tight=(1e-10 1e-10)
models="$root/tests/cli/models"

# library NAME MODEL: builds libNAME.so and run_NAME (run_events.c).
library() {
  local name="$1" model="$2"
  expect "build $name" 0 "$mech" build "$model" -o "$work/lib$name.so" --header "$work/$name.h"
  expect "compile run_events for $name" 0 cc -std=c99 -Wall -Wextra -O1 -I"$helpers" \
    -include "$work/$name.h" "$helpers/run_events.c" -o "$work/run_$name" "$work/lib$name.so" \
    -Wl,-rpath,"$work" -lm
}

# same NAME MODEL UNTIL DT STATE [METHOD [TOLERANCE]]: the library's run
# against mech simulate's, rows and events.
same() {
  local name="$1" model="$2" until="$3" dt="$4" state="$5" method="${6:-dopri5}"
  local tolerance="${7:-1e-11}"
  expect "mech simulate $name ($method)" 0 "$mech" simulate "$model" --until "$until" --dt "$dt" \
    --rtol 1e-10 --atol 1e-10 --method "$method" -o "$work/$name.cli.csv" --events "$work/$name.cli.ev"
  METHOD=$method expect "the library runs $name ($method)" 0 "$work/run_$name" "$until" "$dt" \
    "${tight[@]}" "$work/$name.lib.ev"
  cp "$work/out" "$work/$name.lib.csv"
  expect "$name ($method): the library agrees with mech simulate" 0 python3 \
    "$helpers/compare_events.py" "$work/$name.cli.csv" "$work/$name.cli.ev" "$work/$name.lib.csv" \
    "$work/$name.lib.ev" "$dt" "$state" "$tolerance"
}

cp "$models/rod_wall.mech" "$work/rod_wall.mech"
cat >"$work/wall_reset.mech" <<'M'
model wall_reset {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2], e = 0.7
  coord th [rad]
  kinetic m * l^2 * th'^2 / 2
  potential -m * g * l * cos(th)
  event wall: th == 0 direction down then th' = -e * th'
  event top: th' == 0 direction down
  init th = 1.2
}
M
cp "$models/moving.mech" "$work/moving.mech"
cp "$models/block.mech" "$work/block.mech"
cp "$models/cradle.mech" "$work/cradle.mech"

# --- a. against mech simulate ------------------------------------------------
library ball "$root/examples/bouncing_ball.mech"
library wall "$root/examples/pendulum_wall.mech"
library wheel "$root/examples/rimless_wheel.mech"
library rod_wall "$work/rod_wall.mech"
library wall_reset "$work/wall_reset.mech"
library moving "$work/moving.mech"
library block "$work/block.mech"
library carts "$models/two_carts.mech"
library cradle "$work/cradle.mech"
library projectile "$root/examples/projectile.mech"
library belt "$root/examples/stick_slip.mech"
library incline "$root/examples/incline.mech"
cp "$models/pivot.mech" "$work/pivot.mech"
library pivot "$work/pivot.mech"
for method in dopri5 radau; do
  same ball "$root/examples/bouncing_ball.mech" 6 0.5 2 $method
  same wall "$root/examples/pendulum_wall.mech" 6 0.5 2 $method
  same rod_wall "$work/rod_wall.mech" 4 0.5 4 $method
  same block "$work/block.mech" 6 0.5 2 $method
done
# With Radau a sticking friction's Newton iteration uses a Jacobian by
# differences in the library (the exact one in mech simulate): the steps
# differ at the tolerance, 1e-10 here.
same belt "$root/examples/stick_slip.mech" 100 0.5 2 dopri5
same belt "$root/examples/stick_slip.mech" 100 0.5 2 radau 1e-9
same incline "$root/examples/incline.mech" 2 0.25 2
same pivot "$work/pivot.mech" 10 1 2
same wheel "$root/examples/rimless_wheel.mech" 10 0.5 4
same wall_reset "$work/wall_reset.mech" 4 0.5 2
same moving "$work/moving.mech" 3 0.5 2
same cradle "$work/cradle.mech" 1 0.25 6
# A stop event ends the run: the last row is the state where it fired.
same projectile "$root/examples/projectile.mech" 10 0.5 4
check_py "the projectile stops where it lands" '
rows = [[float(v) for v in line.split(",")] for line in open(W + "/projectile.lib.csv").read().split()]
events = list(csv.reader(open(W + "/projectile.lib.ev")))
assert [e[0] for e in events] == ["apex", "lands"], events
assert rows[-1][0] == float(events[-1][1]) < 10 and abs(rows[-1][2]) <= 1e-12, rows[-1]
'

# --- b. closed forms -------------------------------------------------------------
check_py "the ball: impacts at t1 + 2 v1 (1 + e + ... + e^(k-1)) / g, rest at t_inf" '
g, e, h = 9.81, 0.8, 1.0
t1, v1 = math.sqrt(2 * h / g), math.sqrt(2 * g * h)
rows = list(csv.reader(open(W + "/ball.lib.ev")))
hits = [float(r[1]) for r in rows if r[0] == "floor"]
for k, t in enumerate(hits[:10]):
    want = t1 + 2 * v1 * sum(e ** j for j in range(1, k + 1)) / g
    assert abs(t - want) <= 1e-9, (k, t, want)
rest = [float(r[1]) for r in rows if r[0] == "floor rests"]
assert len(rest) == 1 and abs(rest[0] - (t1 + 2 * v1 * e / (g * (1 - e)))) <= 1e-9, rest
last = [float(v) for v in open(W + "/ball.lib.csv").read().split()[-1].split(",")]
assert last[1] == last[1] and abs(last[1]) <= 1e-12 and last[2] == 0, last
assert abs(last[3] - 0.1 * g) <= 1e-12, last  # the force holding the ball: m g
'
for e in 0 0.5 1; do
  expect "the carts collide (e = $e)" 0 "$work/run_carts" 1 1 "${tight[@]}" "$work/carts.ev" e=$e
  check_py "the carts (e = $e): momentum, Newton's law, Carnot's loss" "
rows = list(csv.reader(open(W + '/carts.ev')))
assert [r[0] for r in rows] == ['bump'] and abs(float(rows[0][1]) - 1 / 3) <= 1e-12, rows
r = [float(v) for v in rows[0][1:]]
t, before, after, impulse, lost = r[0], r[1:5], r[5:9], r[9], r[10]
m1, m2, u1, u2, e = 1.0, 3.0, 2.0, -1.0, $e
v1 = (m1 * u1 + m2 * u2 - m2 * e * (u1 - u2)) / (m1 + m2)
v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
assert abs(after[2] - v1) <= 1e-12 and abs(after[3] - v2) <= 1e-12, after
assert abs(impulse - m2 * (v2 - u2)) <= 1e-12, impulse
mu = m1 * m2 / (m1 + m2)
assert abs(lost - (1 - e * e) * mu * (u1 - u2) ** 2 / 2) <= 1e-12, lost
"
done
check_py "Newton's cradle, touching: (-v/3, 2v/3, 2v/3) at once" '
last = [float(v) for v in open(W + "/cradle.lib.csv").read().split()[-1].split(",")]
assert all(abs(a - b) <= 1e-12 for a, b in zip(last[4:7], (-1 / 3, 2 / 3, 2 / 3))), last
'
check_py "the block lifts off when m g - k t reaches 0" '
rows = list(csv.reader(open(W + "/block.lib.ev")))
assert [r[0] for r in rows] == ["table lifts off"] and abs(float(rows[0][1]) - 4.905) <= 1e-9, rows
for line in open(W + "/block.lib.csv").read().split():
    r = [float(v) for v in line.split(",")]
    if r[0] < 4.9:
        assert abs(r[3] - (2 * 9.81 - 4 * r[0])) <= 1e-9 and r[1] == 0, r
'

# --- c. failures ------------------------------------------------------------------
expect "a restitution outside [0, 1] (INVALID_ARGUMENT)" 1 "$work/run_ball" 1 0.5 "${tight[@]}" \
  "$work/bad.ev" e=1.5
contains "status 7" err "status 7 after 0 rows"
sed 's/init y = h/init y = -h/' "$root/examples/bouncing_ball.mech" >"$work/low.mech"
library low "$work/low.mech"
expect "a contact violated at the start (CONTACT_VIOLATED)" 1 "$work/run_low" 1 0.5 "${tight[@]}" \
  "$work/bad.ev"
contains "status 11" err "status 11 after 0 rows"
cp "$models/rod.mech" "$work/rod.mech"
library rod "$work/rod.mech"
expect "a reset that breaks the constraint (RESET_FAILED)" 1 "$work/run_rod" 2 0.5 "${tight[@]}" \
  "$work/bad.ev"
contains "status 13, the rows before it kept" err "status 13 after 2 rows"
expect "the header names the code" 0 grep -q "MECH_RESET_FAILED 13" "$work/rod.h"
cp "$models/lifted.mech" "$work/lifted.mech"
library lifted "$work/lifted.mech"
expect "a normal force that turns negative (NORMAL_NEGATIVE)" 1 "$work/run_lifted" 10 1 \
  "${tight[@]}" "$work/bad.ev"
contains "status 15" err "status 15 after 5 rows"
check_py "it stuck before (its normal force then reaches 0 at m g / k = 4.905 s)" '
rows = list(csv.reader(open(W + "/bad.ev")))
assert [r[0] for r in rows] == ["floor sticks"], rows
'
check_py "the belt's phases from the library: closed forms" '
rows = list(csv.reader(open(W + "/belt.lib.ev")))
assert [r[0] for r in rows] == ["belt sticks", "belt slips"] * 3 + ["belt sticks"], rows
assert abs(float(rows[1][1]) - 39.24) <= 1e-9 and abs(float(rows[2][1]) - 42.58476446446891) <= 1e-7
'
check_py "the library row holds the friction force: k x stuck, mu_k m g slipping" '
for line in open(W + "/belt.lib.csv").read().split():
    t, x, v, force = (float(s) for s in line.split(","))
    if 1 < t < 39:
        assert abs(force - x) <= 1e-9, (t, x, force)
    if 40 < t < 42:
        assert abs(force - 0.3 * 9.81) <= 1e-12, (t, force)
'

finish
