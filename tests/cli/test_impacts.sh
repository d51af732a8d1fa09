#!/usr/bin/env bash
# Impacts, resting contact and resets against closed forms from textbooks:
# a ball bouncing to rest (impact times, apex heights e^(2k) h, the
# accumulation time t1 + 2 v1 e / (g (1 - e)), then the floor carries m g),
# two carts colliding (velocities by momentum and Newton's law, the energy
# (1 - e)/(1 + e) of 1/2 dv^T M dv, Carnot's theorem at e = 0), Newton's
# cradle both ways (gaps: sequential, (v,0,0) -> (0,0,v); touching:
# simultaneous, (-v/3, 2v/3, 2v/3)), a pendulum striking a wall (first
# impact at K(sin(th0/2)) sqrt(l/g), apexes sin(th_k+1/2) = e sin(th_k/2))
# written as a contact and as an event with a reset, and a block lifting
# off a table when its normal force reaches 0 (t = m g / k). Then the
# located errors of bad contacts and resets.
# Usage: test_impacts.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
tight=(--rtol 1e-12 --atol 1e-12)

cat >ball.mech <<'M'
model ball {
  param m = 1 [kg], g = 9.81 [m/s^2], e = 0.8, h = 1 [m]
  coord y [m]
  kinetic m * y'^2 / 2
  potential m * g * y
  contact floor: y >= 0 restitution e
  event top: y' == 0 direction down
  init y = h
}
M
expect "the bouncing ball runs" 0 "$mech" simulate ball.mech --until 6 --dt 0.5 "${tight[@]}" \
  --events ball_events.csv -o ball.csv
cp "$work/err" "$work/saved"
check_py "impact times, apexes, rest at the accumulation time, then m g on the floor" '
g, e, h = 9.81, 0.8, 1.0
rows = list(csv.DictReader(open(W + "/ball_events.csv")))
hits = [r for r in rows if r["event"] == "floor"]
tops = [r for r in rows if r["event"] == "top"]
v1 = math.sqrt(2 * g * h); t1 = math.sqrt(2 * h / g)
t, v = t1, v1
for k, r in enumerate(hits[:40]):
    assert abs(float(r["t"]) - t) <= 1e-9, (k, r["t"], t)
    assert abs(float(r["y\x27"]) + v) <= 1e-9 * v1, (k, r["y\x27"], v)
    v *= e; t += 2 * v / g
for k, r in enumerate(tops[:20]):
    assert abs(float(r["y"]) - h * e ** (2 * (k + 1))) <= 1e-9, (k, r["y"])
rest = [r for r in rows if r["event"] == "floor rests"]
assert len(rest) == 1, len(rest)
tinf = t1 + 2 * v1 * e / (g * (1 - e))
assert abs(float(rest[0]["t"]) - tinf) <= 1e-9, (rest[0]["t"], tinf)
out = list(csv.DictReader(open(W + "/ball.csv")))
late = [r for r in out if float(r["t"]) > tinf + 1e-6]
assert late and all(abs(float(r["y"])) <= 1e-12 and float(r["y\x27"]) == 0 for r in late), late[:2]
assert all(abs(float(r["floor"]) - g) <= 1e-9 for r in late), late[-1]
'
contains "the summary counts the impacts" err "contact floor: "
contains "the drift is the integration's, not the impacts'" err "energy drift max|E(t) - E(0)|/|E(0)| = "
check_py "the impacts took m g h; the drift stays at the integration error" '
text = open(W + "/saved").read()
lost = float(re.search(r"energy lost at impacts (\S+)", text).group(1))
assert abs(lost - 9.81) <= 1e-12, lost
d = float(re.search(r"energy drift max\|E\(t\) - E\(0\)\|/\|E\(0\)\| = (\S+)", open(W + "/saved").read()).group(1))
assert d < 1e-9, d
'

# A sweep over e: each run's rest time is its accumulation time.
expect "a sweep of the ball over e" 0 "$mech" sweep ball.mech --grid "e=0.5..0.9:3" \
  --summary "rest = rest_time(floor), impacts(floor), lift_time(floor), status" \
  "${tight[@]}" -o sweep.csv
check_py "rest_time per run is t1 + 2 v1 e / (g (1 - e)); lift_time empty" '
g = 9.81
rows = list(csv.DictReader(open(W + "/sweep.csv")))
assert [r["e"] for r in rows] == ["0.5", "0.7", "0.9"], rows
for r in rows:
    e = float(r["e"])
    tinf = math.sqrt(2 / g) + 2 * math.sqrt(2 * g) * e / (g * (1 - e))
    assert abs(float(r["rest"]) - tinf) <= 1e-9 and r["lift_time(floor)"] == "", r
    assert int(float(r["impacts(floor)"])) > 10 and r["status"] == "ok", r
'
expect "a summary of a contact the model lacks" 1 "$mech" sweep ball.mech --grid "e=0.5..0.9:3" \
  --summary "impacts(wall)"
contains "names the contacts there are" err "has no contact 'wall' (its contacts: floor)"

cp "$root/tests/cli/models/two_carts.mech" carts.mech
for e in 0 0.5 1; do
  expect "two carts collide, e = $e" 0 "$mech" simulate carts.mech --until 1 --dt 1 --set e=$e \
    --events carts_$e.json -o carts_$e.csv
  cp "$work/err" "$work/carts_$e.txt"
  check_py "carts at e = $e: momentum, Newton's law and the energy lost" "
e = $e
m1, m2, u1, u2 = 1.0, 3.0, 2.0, -1.0
v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
last = list(csv.DictReader(open(W + '/carts_$e.csv')))[-1]
assert abs(float(last[\"x1'\"]) - v1) <= 1e-12 and abs(float(last[\"x2'\"]) - v2) <= 1e-12, last
dv1, dv2 = v1 - u1, v2 - u2
carnot = (1 - e) / (1 + e) * 0.5 * (m1 * dv1 ** 2 + m2 * dv2 ** 2)
lost = float(re.search(r'energy lost at impacts (\S+)', open(W + '/carts_$e.txt').read()).group(1))
assert abs(lost - carnot) <= 1e-12 * max(1, carnot), (lost, carnot)
ev = json.load(open(W + '/carts_$e.json'))['events']
assert [x['event'] for x in ev] == ['bump'] and abs(ev[0]['t'] - 1 / 3) <= 1e-12, ev
impact = ev[0]['impact']
assert abs(impact['impulse'] - m2 * (v2 - u2)) <= 1e-12, impact
assert abs(impact['energy_lost'] - carnot) <= 1e-12 * max(1, carnot), impact
assert abs(impact[\"x1' after\"] - v1) <= 1e-12 and abs(impact[\"x2' after\"] - v2) <= 1e-12, impact
"
done

cp "$root/tests/cli/models/cradle.mech" cradle.mech
expect "Newton's cradle, touching balls" 0 "$mech" simulate cradle.mech --until 1 --dt 1 -o touching.csv
expect "Newton's cradle, small gaps" 0 "$mech" simulate cradle.mech --until 1 --dt 1 \
  --set d=0.001 --init x1=-0.1,x2=0,x3=0.002 -o gaps.csv
check_py "touching: simultaneous (-v/3, 2v/3, 2v/3); gaps: sequential (0, 0, v)" '
last = list(csv.DictReader(open(W + "/touching.csv")))[-1]
got = [float(last[c]) for c in ("x1\x27", "x2\x27", "x3\x27")]
assert all(abs(a - b) <= 1e-12 for a, b in zip(got, (-1 / 3, 2 / 3, 2 / 3))), got
last = list(csv.DictReader(open(W + "/gaps.csv")))[-1]
got = [float(last[c]) for c in ("x1\x27", "x2\x27", "x3\x27")]
assert all(abs(a - b) <= 1e-12 for a, b in zip(got, (0, 0, 1))), got
'

for form in contact reset; do
  if [ $form = contact ]; then hit="contact wall: th >= 0 restitution e"
  else hit="event wall: th == 0 direction down then th' = -e * th'"; fi
  cat >wall_$form.mech <<M
model wall {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2], e = 0.7
  coord th [rad]
  kinetic m * l^2 * th'^2 / 2
  potential -m * g * l * cos(th)
  $hit
  event top: th' == 0 direction down
  init th = 1.2
}
M
  expect "a pendulum strikes a wall ($form)" 0 "$mech" simulate wall_$form.mech --until 4 --dt 10 \
    "${tight[@]}" --events wall_$form.csv -o /dev/null
  check_py "the pendulum at the wall ($form): first impact and apexes" "
rows = list(csv.DictReader(open(W + '/wall_$form.csv')))
hits = [r for r in rows if r['event'] == 'wall']
tops = [r for r in rows if r['event'] == 'top']
k = math.sin(0.6)
a, b = 1.0, math.sqrt(1 - k * k)
for _ in range(30):
    a, b = (a + b) / 2, math.sqrt(a * b)
quarter = math.pi / (2 * a) / math.sqrt(9.81)
assert abs(float(hits[0]['t']) - quarter) <= 1e-9, (hits[0]['t'], quarter)
th = 1.2
assert len(tops) >= 3, len(tops)
for r in tops:
    th = 2 * math.asin(0.7 * math.sin(th / 2))
    assert abs(float(r['th']) - th) <= 1e-9, (r['th'], th)
"
done

# The same pendulum in x, y on a rod (a bilateral constraint): the impact
# with the wall x >= 0 keeps the rod's velocity constraint (C^T Lambda_c in
# the impulsive equations), so the apexes follow the same law, x = sin(th)
# there; with dopri5 and with radau (projection form, each mode its own
# Jacobian).
cp "$root/tests/cli/models/rod_wall.mech" rod_wall.mech
for method in dopri5 radau; do
  expect "a pendulum on a rod strikes a wall ($method)" 0 "$mech" simulate rod_wall.mech --until 4 \
    --dt 10 --method $method --rtol 1e-11 --atol 1e-12 --events rod_wall_$method.csv -o /dev/null
  check_py "the rod pendulum's apexes ($method): x = sin(th), sin(th_k+1/2) = e sin(th_k/2)" "
tops = [r for r in csv.DictReader(open(W + '/rod_wall_$method.csv')) if r['event'] == 'top']
assert len(tops) == 3, len(tops)
th = 1.2
for r in tops:
    th = 2 * math.asin(0.7 * math.sin(th / 2))
    assert abs(float(r['x']) - math.sin(th)) <= 1e-10, (r['x'], math.sin(th))
"
done
expect "the bouncing ball with radau" 0 "$mech" simulate ball.mech --until 6 --dt 10 --method radau \
  --rtol 1e-10 --atol 1e-12 -o /dev/null
check_py "radau: the ball rests at t1 + 2 v1 e / (g (1 - e))" '
g = 9.81
t = float(re.search(r"came to rest at t = (\S+)", open(W + "/err").read()).group(1))
assert abs(t - (math.sqrt(2 / g) + 2 * math.sqrt(2 * g) * 0.8 / (g * 0.2))) <= 1e-9, t
'

cp "$root/tests/cli/models/block.mech" block.mech
expect "a block pulled off a table" 0 "$mech" simulate block.mech --until 6 --dt 1 \
  --events block.csv -o block_run.csv
contains "it lifts off when its normal force reaches 0" err "lifted off at t = 4.905"
check_py "the normal force is m g - k t until then, the block rises after" '
for r in csv.DictReader(open(W + "/block_run.csv")):
    t = float(r["t"])
    if t < 4.9:
        assert abs(float(r["table"]) - (2 * 9.81 - 4 * t)) <= 1e-9 and float(r["y"]) == 0, r
    if t > 4.91:
        tau = t - 4.905
        assert float(r["table"]) == 0 and abs(float(r["y"]) - 4 * tau ** 3 / 12) <= 1e-9, r
'

cat >bad.mech <<'M'
model bad {
  param m = 1 [kg], g = 9.81 [m/s^2], e = 1.3
  input u [N]
  coord y [m]
  kinetic m * y'^2 / 2
  potential m * g * y
  contact c1: y' >= 0 restitution 0.5
  contact c2: y >= u / (1 [N/m]) restitution 0.5
  contact c3: y >= 0 restitution e
  contact c4: y >= 0 restitution 2 [m]
  event r1: y == 0 then z' = 1
  event r2: y == 0 then y' = 3 [m]
  event r3: y == 0 stop then y' = 0
  event r4: y == 0 then y' = 0, y' = 1 [m/s]
}
M
expect "bad contacts and resets" 1 "$mech" check bad.mech
contains "a gap with velocities" err "bad.mech:7:11: error: the gap of contact 'c1' depends on velocities"
contains "a gap with an input" err "bad.mech:8:20: error: input 'u' can only be used"
contains "e outside [0, 1]" err "bad.mech:9:34: error: the restitution of contact 'c3' is 1.3, outside [0, 1]"
contains "e with a unit" err "bad.mech:10:34: error: the restitution of contact 'c4' has dimension m"
contains "a reset of an undeclared name" err "bad.mech:11:25: error: unknown coordinate 'z'"
contains "a reset in the wrong unit" err "bad.mech:12:30: error: the reset of 'y'' mixes dimensions m/s and m"
contains "stop and then" err "bad.mech:13:30: error: event 'r3' both stops the run and resets the state"
contains "a reset twice" err "bad.mech:14:33: error: event 'r4' resets 'y'' twice"
expect "a restitution set outside [0, 1]" 1 "$mech" simulate ball.mech --set e=1.5 --until 1
contains "is refused where it is used" err "the restitution of contact 'floor' is 1.5, outside [0, 1]"
expect "a contact violated at the start" 1 "$mech" simulate ball.mech --init y=-0.5 --until 1
contains "says which contact" err "contact 'floor' is violated at the start"
expect "the variational method with impacts" 1 "$mech" simulate ball.mech --method midpoint --until 1
contains "names the methods that run it" err "runs with dopri5, dop853, rk4, radau, bdf or auto"

# A reset that breaks a constraint: a pendulum in x, y on a rod of length
# 1, whose reset gives it a velocity along the rod.
cp "$root/tests/cli/models/rod.mech" rod.mech
expect "a reset that breaks the constraints" 1 "$mech" simulate rod.mech --until 2
contains "is an error at the event" err "the resets of event 'bottom' break the constraints"

# The REPL takes contacts and resets typed at its prompt.
cat >free.mech <<'M'
model free {
  param m = 1 [kg], g = 9.81 [m/s^2], e = 0.8
  coord y [m]
  kinetic m * y'^2 / 2
  potential m * g * y
  init y = 1
}
M
printf '%s\n' 'contact floor: y >= 0 restitution e' ':sim 5 --dt 1' 'contact = 3' 'contact * 2' \
  >repl.in
expect "the REPL runs a contact typed at its prompt" 0 "$mech" repl free.mech <repl.in
contains "the contact rests at its accumulation time" err "came to rest at t = 4.0637127"
contains "contact stays a name in expressions" out "6"

# animate draws the ball over its floor and marks the impacts on the plot's
# time axis (the page's data lists them).
expect "animate the bouncing ball" 0 "$mech" animate "$root/examples/bouncing_ball.mech" --until 6 \
  -o ball.html
check_py "the page lists the impacts with their contact" '
page = open(W + "/ball.html").read()
m = re.search(r"\"impacts\":\[(.*?)\],\"view\"", page)
hits = re.findall(r"\[([-0-9.e]+),\"floor\"\]", m.group(1))
assert len(hits) == 47 and abs(float(hits[0]) - math.sqrt(2 / 9.81)) <= 1e-12, (len(hits), hits[:2])
assert "\"grounds\":[0]" in page
'

# A table that moves works on the ball resting on it: no energy drift is
# reported (it would read as the integrator's error).
cp "$root/tests/cli/models/moving.mech" moving.mech
expect "a ball on a moving table" 0 "$mech" simulate moving.mech --until 3 --dt 10 -o /dev/null
lacks "no energy drift with a moving surface" err "energy drift"
contains "it comes to rest on the table" err "came to rest at t = "

# The analyses of the smooth equations say that they leave contacts and
# resets out.
expect "equilibria of the ball" 0 "$mech" equilibria ball.mech
contains "says the contact is not part of it" err \
  "note: equilibria analyses the smooth equations: the contacts (floor) are not part of it"
expect "conserved of the wheel" 0 "$mech" conserved "$root/examples/rimless_wheel.mech"
contains "says the resets are not part of it" err "the events' resets are not part of it"

# `mech fmt` keeps contacts and resets.
expect "fmt prints contacts and resets" 0 "$mech" fmt wall_reset.mech
contains "the reset is printed" out "event wall: th == 0 direction down then th' = -e * th'"
expect "fmt prints a contact" 0 "$mech" fmt ball.mech
contains "the contact is printed" out "contact floor: y >= 0 restitution e"
finish
