#!/usr/bin/env bash
# More impacts against closed forms worked out by hand (never mech against
# itself): the rimless wheel's pre-impact speeds over every step and their
# limit cycle; a uniform rod falling flat-wise onto a frictionless floor,
# one end first, at e = 0 and e = 1 (impulse and momentum, below); a ball
# landing on a platform on a spring (momentum and Newton's law at the first
# impact; at e = 0 the two move as one body until the spring lets the ball
# go); and the numbers the headers of examples/bouncing_ball.mech and
# examples/pendulum_wall.mech promise.
# Usage: test_impacts_more.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
tight=(--rtol 1e-12 --atol 1e-12)

# a. The rimless wheel (examples/rimless_wheel.mech). In stance it is an
# inverted pendulum about its foot: energy l^2 w^2/2 + g l cos(phi) is
# kept from phi = gamma - alpha to gamma + alpha, so the speed before the
# next impact is w_(k+1)^2 = u_k^2 + 2 g/l (cos(gamma - alpha) -
# cos(gamma + alpha)) = u_k^2 + 4 g sin(gamma) sin(alpha)/l, and the reset
# gives u_k = cos(2 alpha) w_k (u_0 = 1.2, the init). The fixed point is
# w*^2 = 4 g sin(gamma) sin(alpha) / (l (1 - cos(2 alpha)^2)), approached
# as w_(k+1)^2 - w*^2 = cos(2 alpha)^2 (w_k^2 - w*^2). Tolerance 1e-9: at
# these tolerances each stride's integration error is about 1e-11 (the
# event time is found to 1e-12), and the reset contracts earlier errors.
expect "the rimless wheel walks down the slope" 0 "$mech" simulate "$root/examples/rimless_wheel.mech" \
  --until 20 --dt 10 "${tight[@]}" --events steps.csv -o /dev/null
check_py "pre-impact speeds follow w(k+1)^2 = cos(2a)^2 w(k)^2 + 4 g sin(gamma) sin(alpha)/l" '
g, l, a, gam = 9.81, 1.0, math.pi / 8, 0.08
c = math.cos(2 * a)
K = 4 * g * math.sin(gam) * math.sin(a) / l
rows = list(csv.DictReader(open(W + "/steps.csv")))
assert len(rows) >= 15 and all(r["event"] == "step" for r in rows), len(rows)
u = 1.2
for k, r in enumerate(rows):
    w = math.sqrt(u * u + K)
    assert abs(float(r["phi"]) - (gam + a)) <= 1e-9, (k, r["phi"])
    assert abs(float(r["phi\x27"]) - w) <= 1e-9, (k, r["phi\x27"], w)
    u = c * w
star2 = K / (1 - c * c)
last = float(rows[-1]["phi\x27"]) ** 2
first = float(rows[0]["phi\x27"]) ** 2
want = c ** (2 * (len(rows) - 1)) * (first - star2)
assert abs((last - star2) - want) <= 1e-9, (last - star2, want)
assert abs(math.sqrt(last) - math.sqrt(star2)) <= 1e-6, (last, star2)
'

# b. A uniform rod (mass m, length L, J = m L^2/12 about its centre (x, y))
# at the angle th to the horizontal falls without turning, its lower end
# (x - L/2 cos th, y - L/2 sin th) first, from the height h: it lands at
# t1 = sqrt(2 h/g) with x' = 0, y' = -v, v = sqrt(2 g h), th' = 0.
# The floor's impulse P is vertical (no friction) and acts at the end,
# r = -(L/2)(cos th, sin th) from the centre:
#   m dx' = 0,  m dy' = P,  J dth' = r_x P = -(L/2) cos th P.
# The gap's rate is y' - (L/2) cos th th'; Newton's law makes it e v after:
#   -v + P/m (1 + 3 cos^2 th) = e v,  P = m v (1 + e)/(1 + 3 cos^2 th).
# With D = 1 + 3 cos^2 th:
#   x' = 0,  y' = -v + (1 + e) v/D,  th' = -6 cos th (1 + e) v/(L D),
# and the energy lost, (1/2) m v^2 (1 - e^2)/D (m g h/D at e = 0; none at
# e = 1, which keeps (1/2) m v^2: ((1 - 3c^2)^2 + 12 c^2)/D^2 = 1).
# At e = 0 the end then slides on the floor, held there: with y'' =
# (L/2)(cos th th'' - sin th th'^2), m y'' = -m g + N, J th'' = -(L/2)
# cos th N, the floor pushes N = m (g - (L/2) sin th th'^2)/D.
# Tolerance 1e-9: the fall is a parabola, which dopri5 follows exactly,
# so what is left is the impact time (to 1e-12) and rounding.
cat >rod.mech <<'M'
model rod {
  param m = 2 [kg], L = 1.2 [m], g = 9.81 [m/s^2], e = 0, h = 0.8 [m], th0 = 0.5
  coord x [m], y [m], th [rad]
  let tip = [x, y] - L / 2 * [cos(th), sin(th)]
  body rod mass m at [x, y] angle th inertia m * L^2 / 12
  gravity [0, -g]
  contact floor: tip.y >= 0 restitution e
  init x = 0, y = h + L / 2 * sin(th0), th = th0
}
M
for e in 0 1; do
  # Until just after the impact: later the rod's other end comes down.
  expect "a rod falls onto its end, e = $e" 0 "$mech" simulate rod.mech --until 0.41 --dt 0.01 \
    "${tight[@]}" --set e=$e --events rod_events_$e.csv -o rod_$e.csv
  cp "$work/err" "$work/rod_$e.txt"
  check_py "the rod at e = $e: impulse and momentum by hand" "
m, L, g, h, th, e = 2.0, 1.2, 9.81, 0.8, 0.5, $e
v = math.sqrt(2 * g * h)
c = math.cos(th)
D = 1 + 3 * c * c
hits = [r for r in csv.DictReader(open(W + '/rod_events_$e.csv')) if r['event'] == 'floor']
assert len(hits) == 1, hits
t1 = float(hits[0]['t'])
assert abs(t1 - math.sqrt(2 * h / g)) <= 1e-9, t1
assert abs(float(hits[0][\"y'\"]) + v) <= 1e-9, hits[0]
rows = [r for r in csv.DictReader(open(W + '/rod_$e.csv')) if r['t'] == hits[0]['t']]
assert len(rows) == 2, rows
before, after = rows
assert abs(float(before[\"y'\"]) + v) <= 1e-9 and float(before[\"th'\"]) == 0, before
want = {\"x'\": 0, \"y'\": -v + (1 + e) * v / D, \"th'\": -6 * c * (1 + e) * v / (L * D)}
for name, value in want.items():
    assert abs(float(after[name]) - value) <= 1e-9, (name, after[name], value)
lost = float(re.search(r'energy lost at impacts (\S+)', open(W + '/rod_$e.txt').read()).group(1))
assert abs(lost - m * v * v / 2 * (1 - e * e) / D) <= 1e-9, lost
if e == 0:
    w = want[\"th'\"]
    N = m * (g - L / 2 * math.sin(th) * w * w) / D
    assert N > 0 and abs(float(after['floor']) - N) <= 1e-9, (after['floor'], N)
"
done

# c. A ball (m) dropped from h onto a platform (M) that rests on a spring
# (k) in equilibrium at z = 0 (the spring's natural length is at z = M g/k,
# so the platform's weight and spring together are k z^2/2). The ball
# lands at t1 = sqrt(2 h/g) at u = -sqrt(2 g h), the platform still at
# rest. Spring and gravity give no impulse, so momentum is kept and
# Newton's law sets the separation:
#   m v1 + M v2 = m u,  v1 - v2 = -e u,
#   v1 = u (m - e M)/(m + M),  v2 = m u (1 + e)/(m + M).
# At e = 0 both move at v = m u/(m + M) and on as one body of mass m + M
# about z = -m g/k at w = sqrt(k/(m + M)):
#   z = -m g/k + (m g/k) cos(w s) + (v/w) sin(w s),  s = t - t1,
# the ball pressed by N = m (g + z'') = m (M g - k z)/(m + M), which is 0
# where the spring reaches its natural length, z = M g/k: there the ball
# lifts off. Tolerance 1e-9 as in b. for the impact; the oscillation is
# integrated over 0.5 s at 1e-12, a few 1e-12 off, and 1e-9 bounds it.
# In every run the ball stays above the platform: the gap y - z is never
# below -1e-9 (a contact kept to the event's accuracy).
cat >platform.mech <<'M'
model platform {
  param m = 0.5 [kg], M = 1 [kg], k = 100 [N/m], g = 9.81 [m/s^2], e = 0.8, h = 1 [m], H = 1 [m]
  coord y [m], z [m]
  particle ball mass m at [0, y]
  particle plate mass M at [0, z]
  gravity [0, -g]
  spring k between -H and z rest H + M * g / k
  contact landing: y >= z restitution e
  init y = h
}
M
expect "a ball lands on a platform on a spring, e = 0.8" 0 "$mech" simulate platform.mech \
  --until 1 --dt 0.01 "${tight[@]}" --events platform_events.csv -o platform.csv
check_py "the first impact: free fall, then momentum and Newton's law" '
m, M, g, h, e = 0.5, 1.0, 9.81, 1.0, 0.8
u = -math.sqrt(2 * g * h)
hits = [r for r in csv.DictReader(open(W + "/platform_events.csv")) if r["event"] == "landing"]
assert abs(float(hits[0]["t"]) - math.sqrt(2 * h / g)) <= 1e-9, hits[0]
before, after = [r for r in csv.DictReader(open(W + "/platform.csv")) if r["t"] == hits[0]["t"]]
assert abs(float(before["y\x27"]) - u) <= 1e-9 and abs(float(before["z\x27"])) <= 1e-9, before
v1, v2 = u * (m - e * M) / (m + M), m * u * (1 + e) / (m + M)
assert abs(float(after["y\x27"]) - v1) <= 1e-9, (after["y\x27"], v1)
assert abs(float(after["z\x27"]) - v2) <= 1e-9, (after["z\x27"], v2)
'
expect "the ball lands on the platform and stays, e = 0" 0 "$mech" simulate platform.mech \
  --until 1 --dt 0.01 "${tight[@]}" --set e=0 --events platform_events_0.csv -o platform_0.csv
cp "$work/err" "$work/platform_0.txt"
check_py "e = 0: one body on the spring until the spring lets the ball go at z = M g/k" '
m, M, k, g, h = 0.5, 1.0, 100.0, 9.81, 1.0
u = -math.sqrt(2 * g * h)
t1 = math.sqrt(2 * h / g)
v = m * u / (m + M)
w = math.sqrt(k / (m + M))
A, phase = math.hypot(m * g / k, v / w), math.atan2(v / w, m * g / k)
# z + m g/k = A cos(w s - phase) reaches (m + M) g/k rising, sin(w s - phase) < 0:
s_off = (2 * math.pi - math.acos((m + M) * g / k / A) + phase) / w
events = list(csv.DictReader(open(W + "/platform_events_0.csv")))
names = [r["event"] for r in events]
assert names == ["landing", "landing rests", "landing lifts off"], names
assert abs(float(events[2]["t"]) - (t1 + s_off)) <= 1e-9, (events[2]["t"], t1 + s_off)
assert abs(float(events[2]["z"]) - M * g / k) <= 1e-9, events[2]
lost = float(re.search(r"energy lost at impacts (\S+)", open(W + "/platform_0.txt").read()).group(1))
assert abs(lost - m * u * u / 2 * M / (m + M)) <= 1e-9, lost
hit = float(events[0]["t"])
held = [r for r in csv.DictReader(open(W + "/platform_0.csv")) if hit < float(r["t"]) < t1 + s_off]
assert len(held) > 40, len(held)
for r in held:
    s, z = float(r["t"]) - t1, float(r["z"])
    assert abs(z - (-m * g / k + m * g / k * math.cos(w * s) + v / w * math.sin(w * s))) <= 1e-9, r
    assert abs(float(r["y"]) - z) <= 1e-9 and abs(float(r["y\x27"]) - float(r["z\x27"])) <= 1e-9, r
    assert abs(float(r["landing"]) - m * (M * g - k * z) / (m + M)) <= 1e-9, r
'
for e in 0 0.5 0.8; do
  expect "the ball bounces on the platform for 3 s, e = $e" 0 "$mech" simulate platform.mech \
    --until 3 --dt 0.01 --set e=$e -o platform_long_$e.csv
  check_py "e = $e: the ball never passes through the platform" "
worst = min((float(r['y']) - float(r['z']), r['t']) for r in csv.DictReader(open(W + '/platform_long_$e.csv')))
assert worst[0] >= -1e-9, ('gap y - z, t', worst)
"
done
# The same where the contact is simplest: a ball bouncing on a floor at
# y = H rather than 0 moves as the one on y >= 0 shifted by H, so it comes
# to rest at t1 + 2 v1 e/(g (1 - e)) = 4.0637 s and stays at y = H, the
# floor carrying m g. Tolerance 1e-7 on the time: at the default
# tolerances (rtol 1e-8) the impact times come out about 1e-10 off.
for H in 0 1; do
  cat >raised_$H.mech <<M
model raised {
  param m = 1 [kg], g = 9.81 [m/s^2], e = 0.8, H = $H [m]
  coord y [m]
  kinetic m * y'^2 / 2
  potential m * g * y
  contact floor: y >= H restitution e
  init y = H + 1
}
M
  expect "a ball bounces on a floor at y = $H m" 0 "$mech" simulate raised_$H.mech --until 6 --dt 0.5 \
    --events raised_events_$H.csv -o raised_$H.csv
  check_py "the floor at y = $H m: rest at the accumulation time, then on the floor" "
g, e, H = 9.81, 0.8, $H
v1, t1 = math.sqrt(2 * g), math.sqrt(2 / g)
rest = [r for r in csv.DictReader(open(W + '/raised_events_$H.csv')) if r['event'] == 'floor rests']
assert len(rest) == 1, ('rests', len(rest))
assert abs(float(rest[0]['t']) - (t1 + 2 * v1 * e / (g * (1 - e)))) <= 1e-7, rest[0]['t']
last = list(csv.DictReader(open(W + '/raised_$H.csv')))[-1]
assert abs(float(last['y']) - H) <= 1e-9 and abs(float(last['floor']) - g) <= 1e-9, last
"
done

# d. What the examples' headers say. The ball: impacts at t1 + sum of
# 2 e^j v1/g, rest at t1 + 2 v1 e/(g (1 - e)) = 4.0637 s, apexes e^(2k) h,
# then the floor carries m g. The pendulum at the wall: the first impact
# after a quarter period of the swing of amplitude th0, K(sin(th0/2))
# sqrt(l/g) (K by the arithmetic-geometric mean), the apexes
# sin(th_(k+1)/2) = e sin(th_k/2).
expect "examples/bouncing_ball.mech" 0 "$mech" simulate "$root/examples/bouncing_ball.mech" \
  --until 6 "${tight[@]}" --events bounces.csv -o bounces_run.csv
check_py "the bouncing ball of the gallery" '
m, g, h, e = 0.1, 9.81, 1.0, 0.8
v1, t1 = math.sqrt(2 * g * h), math.sqrt(2 * h / g)
rows = list(csv.DictReader(open(W + "/bounces.csv")))
hits = [r for r in rows if r["event"] == "floor"]
tops = [r for r in rows if r["event"] == "apex"]
t, v = t1, v1
for k, r in enumerate(hits[:30]):
    assert abs(float(r["t"]) - t) <= 1e-9, (k, r["t"], t)
    v *= e
    t += 2 * v / g
for k, r in enumerate(tops[:15]):
    assert abs(float(r["y"]) - h * e ** (2 * (k + 1))) <= 1e-9, (k, r["y"])
rest = [r for r in rows if r["event"] == "floor rests"]
tinf = t1 + 2 * v1 * e / (g * (1 - e))
assert len(rest) == 1 and abs(float(rest[0]["t"]) - tinf) <= 1e-9, (rest, tinf)
last = list(csv.DictReader(open(W + "/bounces_run.csv")))[-1]
assert abs(float(last["floor"]) - m * g) <= 1e-9, last
'
expect "examples/pendulum_wall.mech" 0 "$mech" simulate "$root/examples/pendulum_wall.mech" \
  --until 10 --dt 10 "${tight[@]}" --events hits.csv -o /dev/null
check_py "the pendulum at the wall of the gallery" '
l, g, e, th = 1.0, 9.81, 0.7, math.pi / 3
rows = list(csv.DictReader(open(W + "/hits.csv")))
hits = [r for r in rows if r["event"] == "wall"]
tops = [r for r in rows if r["event"] == "apex"]
k = math.sin(th / 2)
a, b = 1.0, math.sqrt(1 - k * k)
for _ in range(30):
    a, b = (a + b) / 2, math.sqrt(a * b)
assert abs(float(hits[0]["t"]) - math.pi / (2 * a) * math.sqrt(l / g)) <= 1e-9, hits[0]["t"]
assert len(hits) == 10 and len(tops) == 9, (len(hits), len(tops))
for r in tops:
    th = 2 * math.asin(e * math.sin(th / 2))
    assert abs(float(r["th"]) - th) <= 1e-9, (r["th"], th)
'
finish
