# Events: `event NAME: a == b [direction up|down] [stop]` in a model and
# --stop-when "a == b[, up|down]" on the command line, against exact times:
# - the simple pendulum's zero crossings at the odd quarter periods
#   (2k+1) K(sin(th0/2)) sqrt(l/g), K the complete elliptic integral of the
#   first kind (computed here by the arithmetic-geometric mean), to 1e-10
#   with dop853 at 1e-12, and to the accuracy of each other method;
# - a projectile's apex and landing times (closed forms), the landing
#   stopping the run with the last CSV row at the event;
# - a bead leaving a sphere where the constraint's multiplier changes sign,
#   at y/R = (2 + v0^2/(g R))/3, with dopri5 and radau;
# - --stop-when, --events as CSV and JSON, event families, an event that
#   starts at 0, and the errors.
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
quarter='
def K(k):
    a, b = 1.0, math.sqrt(1 - k * k)
    for _ in range(8):  # quadratic convergence: 8 rounds exceed double precision
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)
q = K(math.sin(0.5)) * math.sqrt(1 / 9.81)
events = list(csv.DictReader(open(W + "/events.csv")))'

cat >"$work/pendulum.mech" <<'MECH'
model Pendulum {
  param m [kg] = 1, l [m] = 1, g [m/s^2] = 9.81
  coord th [rad]
  kinetic m * l^2 * th'^2 / 2
  potential -m * g * l * cos(th)
  init th = 1
  event vertical: th == 0
  event turn: th' == 0 direction up
  for k in 1..2 {
    event level[k]: th == 0.3 * k direction down
  }
}
MECH

expect "pendulum, dop853 at 1e-12" 0 "$mech" simulate "$work/pendulum.mech" --until 5 \
  --method dop853 --rtol 1e-12 --atol 1e-12 --events "$work/events.csv" -o "$work/out.csv"
contains "the summary counts the crossings" err "event vertical: fired 5 times, first at t = 0.53478440013"
contains "the summary counts the turns" err "event turn: fired 2 times"
check_py "zero crossings at the odd quarter periods, to 1e-10" "$quarter
times = [float(e['t']) for e in events if e['event'] == 'vertical']
assert len(times) == 5, times
for k, t in enumerate(times):
    assert abs(t - (2 * k + 1) * q) < 1e-10, (k, t - (2 * k + 1) * q)
turns = [float(e['t']) for e in events if e['event'] == 'turn']
assert len(turns) == 2 and abs(turns[0] - 2 * q) < 1e-10 and abs(turns[1] - 6 * q) < 1e-10, turns
rows = [e for e in events if e['event'] == 'turn']
assert all(abs(float(r['th']) + 1) < 1e-9 for r in rows), rows
assert [e['t'] for e in events] == sorted([e['t'] for e in events], key=float)"
check_py "event families: level[1] and level[2] fire where th falls through 0.3 and 0.6" "$quarter
for k in (1, 2):
    times = [float(e['t']) for e in events if e['event'] == 'level[%d]' % k]
    assert len(times) == 3, (k, times)
    # th = 0.3 k falling: between each maximum (at 4jq) and the next zero.
    assert all(abs(float(e['th']) - 0.3 * k) < 1e-9 for e in events if e['event'] == 'level[%d]' % k)"

for method in dopri5 radau bdf rk4 midpoint; do
  expect "pendulum, $method" 0 "$mech" simulate "$work/pendulum.mech" --until 5 --method $method \
    --rtol 1e-10 --atol 1e-10 --step 1e-3 --events "$work/events.csv" -o "$work/out.csv"
  check_py "$method: crossings near the exact times" "$quarter
times = [float(e['t']) for e in events if e['event'] == 'vertical']
assert len(times) == 5, times
worst = max(abs(t - (2 * k + 1) * q) for k, t in enumerate(times))
# The midpoint rule at h = 1e-3 has a phase error of order h^2.
assert worst < (1e-5 if '$method' == 'midpoint' else 1e-6), worst"
done

expect "projectile" 0 "$mech" simulate examples/projectile.mech --until 10 \
  --events "$work/events.json" -o "$work/out.csv"
contains "the summary says which event stopped the run" err "stopped by event lands at t = 2.45197772736"
check_py "apex and landing at the closed forms; the CSV ends at the landing" "
v = 20 * math.sin(0.6)
land = (v + math.sqrt(v * v + 2 * 9.81 * 1.8)) / 9.81
events = json.load(open(W + '/events.json'))['events']
assert [e['event'] for e in events] == ['apex', 'lands'], events
assert abs(events[0]['t'] - v / 9.81) < 1e-8, events[0]
assert abs(events[1]['t'] - land) < 1e-8, events[1]
assert abs(events[1]['values']['y']) < 1e-8 and events[1]['values']['y\''] < 0
rows = list(csv.DictReader(open(W + '/out.csv')))
assert float(rows[-1]['t']) == events[1]['t'], rows[-1]
assert float(rows[-2]['t']) == 2.45, rows[-2]
assert abs(float(rows[-1]['y'])) < 1e-8"

for method in dopri5 radau; do
  expect "bead on a sphere, $method" 0 "$mech" simulate examples/sliding_off_sphere.mech --until 2 \
    --method $method --rtol 1e-10 --atol 1e-10 --events "$work/events.csv" -o "$work/out.csv"
  check_py "$method: the bead leaves at y/R = (2 + v0^2/(g R))/3" "
events = list(csv.DictReader(open(W + '/events.csv')))
assert len(events) == 1 and events[0]['event'] == 'leaves', events
y = float(events[0]['y'])
assert abs(y - (2 + 0.01 / 9.81) / 3) < 1e-8, y - (2 + 0.01 / 9.81) / 3
assert abs(float(events[0]['normal_force'])) < 1e-6"
done

expect "--stop-when, up" 0 "$mech" simulate "$work/pendulum.mech" --until 10 \
  --stop-when "th == 0.5, up" --events "$work/events.csv" -o "$work/out.csv"
contains "--stop-when names its event" err "stopped by event --stop-when at t = "
check_py "--stop-when stops where th rises through 0.5" "$quarter
rows = list(csv.DictReader(open(W + '/out.csv')))
assert abs(float(rows[-1]['th']) - 0.5) < 1e-8 and float(rows[-1]['th\'']) > 0, rows[-1]
# th = -cos-like: rises through 0.5 after the first minimum, between 2q and 4q.
assert 2 * q < float(rows[-1]['t']) < 4 * q
assert events[-1]['event'] == '--stop-when'"

# An event function that starts at 0 does not fire at t0.
cat >"$work/swing.mech" <<'MECH'
model Swing {
  param J [kg*m^2] = 1, k [N*m] = 1
  coord th [rad]
  kinetic J * th'^2 / 2
  potential k * th^2 / 2
  init th' = 1
  event back: th == 0 stop
}
MECH
expect "an event at 0 at t0" 0 "$mech" simulate "$work/swing.mech" --until 10 --rtol 1e-12 --atol 1e-12 -o "$work/out.csv"
contains "it fires at pi, not at 0" err "stopped by event back at t = 3.14159265358"

# In the REPL, --stop-when runs on a session of its own.
printf ':sim 10 --stop-when "th == 0"\n:sim 1\n' >"$work/repl.in"
expect "REPL :sim --stop-when" 0 "$mech" repl "$work/pendulum.mech" <"$work/repl.in"
contains "REPL: stopped" err "stopped by event --stop-when at t = 0.534784"
lacks "REPL: the next :sim has no stop event" err "event --stop-when: did not fire"

# A built library runs the events (tests/cli/test_library_impacts.sh).
expect "mech build of a model with events" 0 "$mech" build examples/projectile.mech -o "$work/libprojectile.so"
lacks "no note that the library ignores them" err "does not look for the model's events"

# Errors.
expect "--events without events" 1 "$mech" simulate examples/pendulum_cart.mech --events "$work/e.csv"
contains "--events without events: says so" err "declares no event"
expect "--stop-when: unknown name" 1 "$mech" simulate "$work/pendulum.mech" --stop-when "th2 == 0"
contains "--stop-when: located" err "--stop-when:1:1: error: unknown name 'th2'"
expect "--stop-when: dimensions" 1 "$mech" simulate "$work/pendulum.mech" --stop-when "th == 1 [m]"
contains "--stop-when: dimensions named" err "mixes dimensions"
expect "--stop-when: syntax" 1 "$mech" simulate "$work/pendulum.mech" --stop-when "th = 0"
contains "--stop-when: syntax located" err "--stop-when:1:4: error:"
expect "--stop-when: bad direction" 1 "$mech" simulate "$work/pendulum.mech" --stop-when "th == 0, left"
contains "--stop-when: expected words" err "expected 'up' or 'down'"
expect "--events and -o the same file" 2 "$mech" simulate "$work/pendulum.mech" -o "$work/same.csv" --events "$work/same.csv"
finish
