#!/usr/bin/env bash
# Command-line tests of Coulomb friction (`friction NAME: slip S normal N
# static MU_S kinetic MU_K`, docs/language.md "friction"), against closed
# forms worked out by hand:
#  a. a block on a belt held by a spring: the stick and slip phases' times
#     and positions, the friction force in each
#  b. a block thrown up a 20 degree incline: it stops and sticks when
#     mu_s > tan(alpha), stops and slides back when mu_s < tan(alpha)
#  c. a block pulled by a growing force breaks away at mu_s N
#  d. a pendulum with dry friction in its pivot: its turning points lose
#     the friction's work each half swing; it comes to rest in its dead band
#  e. a sign() of a velocity in a force chatters where the body sticks: the
#     run stops there with an error naming it (not a million steps), rk4
#     refuses it
#  f. a normal force that turns negative is an error; bad declarations get
#     located errors; the REPL, fmt and equations show frictions
# Usage: test_friction.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
tight=(--rtol 1e-12 --atol 1e-12)

# --- a. the belt ---------------------------------------------------------------
cp "$root/examples/stick_slip.mech" belt.mech
expect "the block on the belt" 0 "$mech" simulate belt.mech --until 100 --dt 0.5 "${tight[@]}" \
  --events belt.csv -o belt_run.csv
contains "the summary counts the phases" err "friction belt: 4 sticks, 3 slips"
check_py "stick until k x = mu_s m g, slip about mu_k m g / k, stick again at x' = vb" '
m, k, g, vb, mus, muk = 1.0, 1.0, 9.81, 0.1, 0.4, 0.3
xs, xk = mus * m * g / k, muk * m * g / k
A, w = xs - xk, math.sqrt(k / m)
# the slip phase: x = xk + A cos(w tau) + (vb / w) sin(w tau) until its speed is vb again
lo, hi = 1.0, 6.0
f = lambda tau: -A * w * math.sin(w * tau) + vb * math.cos(w * tau) - vb
for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if f(lo) * f(mid) > 0 else (lo, mid)
tau = (lo + hi) / 2
x1 = xk + A * math.cos(w * tau) + vb / w * math.sin(w * tau)
stick = (xs - x1) / vb
rows = list(csv.DictReader(open(W + "/belt.csv")))
assert [r["event"] for r in rows] == ["belt sticks", "belt slips"] * 3 + ["belt sticks"], rows
want, t = [0.0], xs / vb
for _ in range(3):
    want += [t, t + tau]
    t += tau + stick
for r, tw in zip(rows, want):
    assert abs(float(r["t"]) - tw) <= 1e-9, (r["t"], tw)
for r in rows[1::2]:
    assert abs(float(r["x"]) - xs) <= 1e-9, r
for r in rows[2::2]:
    assert abs(float(r["x"]) - x1) <= 1e-9, r
switches = {r["t"] for r in rows}  # rows there show the force before and after
for r in csv.DictReader(open(W + "/belt_run.csv")):
    if r["t"] in switches:
        continue
    x, v, force = float(r["x"]), float(r["x\x27"]), float(r["belt"])
    if abs(v - vb) <= 1e-9:  # stuck: the friction holds the spring
        assert abs(force - k * x) <= 1e-9 and k * x <= mus * m * g + 1e-9, r
    else:  # slipping back: the kinetic force, forward
        assert v < vb and abs(force - muk * m * g) <= 1e-12, r
'

expect "a sweep of the belt over mu_s" 0 "$mech" sweep belt.mech --grid "mus=0.4..0.4:1" \
  --until 100 "${tight[@]}" --summary "sticks(belt), slips(belt), stuck_time(belt)" -o sweep.csv
check_py "the sweep counts the phases and the time stuck" '
row = list(csv.DictReader(open(W + "/sweep.csv")))[0]
assert row["sticks(belt)"] == "4" and row["slips(belt)"] == "3", row
stuck = 39.24 + 2 * 19.62 + (100 - 88.51429339232645)  # from the closed form above
assert abs(float(row["stuck_time(belt)"]) - stuck) <= 1e-8, row
'
expect "a friction summary of a friction the model lacks" 1 "$mech" sweep belt.mech \
  --grid "mus=0.4..0.4:1" --until 1 --summary "sticks(floor)" -o sweep.csv
contains "names the model's frictions" err "has no friction 'floor' (its frictions: belt)"

# --- b. the incline --------------------------------------------------------------
cp "$root/examples/incline.mech" incline.mech
expect "up the incline, mu_s > tan(alpha)" 0 "$mech" simulate incline.mech --until 2 --dt 0.5 \
  "${tight[@]}" --events up.csv -o up_run.csv
check_py "it stops at v0 / (g (sin a + mu_k cos a)) and sticks there" '
g, a, v0, muk = 9.81, math.radians(20), 2.0, 0.3
d = g * (math.sin(a) + muk * math.cos(a))
rows = list(csv.DictReader(open(W + "/up.csv")))
assert [r["event"] for r in rows] == ["slope sticks"], rows
assert abs(float(rows[0]["t"]) - v0 / d) <= 1e-12 and abs(float(rows[0]["x"]) - v0 ** 2 / (2 * d)) <= 1e-12
last = list(csv.DictReader(open(W + "/up_run.csv")))[-1]
assert abs(float(last["x"]) - v0 ** 2 / (2 * d)) <= 1e-12 and float(last["x\x27"]) == 0, last
assert abs(float(last["slope"]) - 9.81 * math.sin(a)) <= 1e-12, last  # holds m g sin(alpha)
'
expect "up the incline, mu_s < tan(alpha)" 0 "$mech" simulate incline.mech --set mus=0.3,muk=0.2 \
  --until 2 --dt 0.5 "${tight[@]}" --events back.csv -o back_run.csv
check_py "it stops, then slides back at g (sin a - mu_k cos a)" '
g, a, v0, muk = 9.81, math.radians(20), 2.0, 0.2
d = g * (math.sin(a) + muk * math.cos(a))
t1, x1 = v0 / d, v0 ** 2 / (2 * d)
rows = list(csv.DictReader(open(W + "/back.csv")))
assert [r["event"] for r in rows] == ["slope slips"] and abs(float(rows[0]["t"]) - t1) <= 1e-12, rows
down = g * (math.sin(a) - muk * math.cos(a))
for r in csv.DictReader(open(W + "/back_run.csv")):
    t = float(r["t"])
    if t > t1:
        assert abs(float(r["x"]) - (x1 - down * (t - t1) ** 2 / 2)) <= 1e-10, r
'

# --- c. breakaway -------------------------------------------------------------------
cat >pull.mech <<'M'
model pull {
  param m = 2 [kg], g = 9.81 [m/s^2], k = 1 [N/s], mus = 0.5, muk = 0.4
  coord x [m]
  kinetic m * x'^2 / 2
  generalized k * t on x
  friction floor: slip x' normal m * g static mus kinetic muk
}
M
expect "a block pulled by a growing force" 0 "$mech" simulate pull.mech --until 12 --dt 1 \
  "${tight[@]}" --events pull.csv -o pull_run.csv
check_py "it holds until k t = mu_s m g, then m a = k t - mu_k m g" '
m, g, k, mus, muk = 2.0, 9.81, 1.0, 0.5, 0.4
tb = mus * m * g / k
rows = list(csv.DictReader(open(W + "/pull.csv")))
assert [r["event"] for r in rows] == ["floor sticks", "floor slips"], rows
assert abs(float(rows[1]["t"]) - tb) <= 1e-12, rows
for r in csv.DictReader(open(W + "/pull_run.csv")):
    t = float(r["t"])
    if t == float(rows[1]["t"]):
        continue  # the rows at the switch show the force before and after it
    if t < tb:
        assert float(r["x"]) == 0 and abs(float(r["floor"]) + k * t) <= 1e-12, r
    else:
        v = (k * (t * t - tb * tb) / 2 - muk * m * g * (t - tb)) / m
        assert abs(float(r["x\x27"]) - v) <= 1e-10 and abs(float(r["floor"]) + muk * m * g) <= 1e-12, r
'

# --- d. the pendulum's pivot ---------------------------------------------------------
cp "$root/tests/cli/models/pivot.mech" pivot.mech
expect "a pendulum with a dry pivot" 0 "$mech" simulate pivot.mech --until 10 --dt 10 "${tight[@]}" \
  --events pivot.csv -o /dev/null
check_py "each half swing loses T (|th_k| + |th_k+1|); it rests where m g l |sin th| <= T" '
m, l, g, T = 1.0, 1.0, 9.81, 0.5
def next_turn(a):  # m g l (cos b - cos a) = T (|a| + |b|), b of the other sign
    lo, hi = 0.0, abs(a)
    f = lambda b: m * g * l * (math.cos(b) - math.cos(a)) - T * (abs(a) + b)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return -math.copysign((lo + hi) / 2, a)
rows = list(csv.DictReader(open(W + "/pivot.csv")))
# At rest at the start, the pivot cannot hold m g l sin(1): it slips at once.
assert rows[0]["event"] == "pivot slips" and float(rows[0]["t"]) == 0, rows[0]
rows = rows[1:]
th = 1.0
for r in rows[:-1]:
    th = next_turn(th)
    assert r["event"] == "pivot slips" and abs(float(r["th"]) - th) <= 1e-9, (r, th)
th = next_turn(th)
assert rows[-1]["event"] == "pivot sticks" and abs(float(rows[-1]["th"]) - th) <= 1e-9, rows[-1]
assert m * g * l * abs(math.sin(th)) <= T, th
assert m * g * l * abs(math.sin(float(rows[-2]["th"]))) > T
'

# --- e. a sign() of a velocity chatters: the run says so, and points to friction -----
cat >chatter.mech <<'M'
model chatter {
  param m = 1 [kg], g = 9.81 [m/s^2], mu = 0.3, k = 1 [N/m]
  coord x [m]
  kinetic m * x'^2 / 2
  potential k * x^2 / 2
  generalized -mu * m * g * sign(x') on x
  init x = 10
}
M
expect "a sign() force that sticks" 1 "$mech" simulate chatter.mech --until 30 -o chatter.csv
contains "where the block should stick (2 pi: the swing loses 4 mu m g / k)" err \
  "chatter.mech:6:3: error: the force with sign(x') switches back and forth: 20 times between t = 6.28318"
contains "it points to friction" err "write the force as a friction that sticks and slips"
check_py "the rows up to there are kept" '
rows = list(csv.DictReader(open(W + "/chatter.csv")))
assert len(rows) > 600 and float(rows[-1]["t"]) < 6.3, (len(rows), rows[-1])
'
expect "rk4 refuses a sign() of a velocity" 1 "$mech" simulate chatter.mech --until 30 --method rk4
contains "rk4 says why" err \
  "chatter.mech:6:3: error: --method rk4: the force with sign(x') jumps with a velocity"

# --- f. errors and the other commands ----------------------------------------------------
cp "$root/tests/cli/models/lifted.mech" lifted.mech
expect "a normal force that turns negative" 1 "$mech" simulate lifted.mech --until 10
contains "is an error at the time it does" err \
  "the normal force of friction 'floor' turns negative (a friction law needs N >= 0: the bodies part) at t = 4.905"
cat >bad.mech <<'M'
model bad {
  param m = 1 [kg], g = 9.81 [m/s^2], mu = 0.3
  coord x [m]
  kinetic m * x'^2 / 2
  friction f1: slip x normal m * g static mu
  friction f2: slip x' normal m static mu
  friction f3: slip x' normal m * g static 0.2 kinetic 0.3
  friction f4: slip x' normal m * g static -0.1
  friction f5: slip x' normal m * g * x'' static mu
}
M
expect "bad frictions" 1 "$mech" check bad.mech
contains "a slip without velocities" err \
  "bad.mech:5:21: error: the slip of friction 'f1' does not depend on any velocity"
contains "a normal force in the wrong unit" err \
  "bad.mech:6:31: error: the normal force of friction 'f2' has dimension kg, a force along the slip (kg*m/s^2) was expected"
contains "mu_k > mu_s" err \
  "bad.mech:7:56: error: the kinetic coefficient of friction 'f3' (0.3) exceeds the static one (0.2)"
contains "a negative coefficient" err "bad.mech:8:44: error: the static coefficient of friction 'f4' is -0.1, below 0"
contains "a normal force with accelerations" err "bad.mech:9:31: error: the normal force of friction 'f5'"
expect "mu_k > mu_s set at run time" 1 "$mech" simulate belt.mech --set muk=0.5 --until 1
contains "says which friction, where" err \
  "belt.mech:15:63: error: the kinetic coefficient of friction 'belt' (0.5) exceeds the static one (0.4)"
expect "equations list the friction" 0 "$mech" equations belt.mech
contains "its slip, normal force and coefficients" out "belt: s = -vb + x', N = m*g, mu_s = mus, mu_k = muk, force in N"
expect "fmt prints the friction" 0 "$mech" fmt belt.mech
contains "as written" out "friction belt: slip x' - vb normal m * g static mus kinetic muk"
expect "animate the belt" 0 "$mech" animate belt.mech --until 100 -o belt.html
check_py "the page marks the friction's switches on the time axis, by name" '
page = open(W + "/belt.html").read()
m = re.search(r"\"impacts\":\[(.*?)\],\"view\"", page)
marks = re.findall(r"\[([-0-9.e]+),\"(belt sticks|belt slips)\"\]", m.group(1))
assert [name for _, name in marks] == ["belt sticks", "belt slips"] * 3 + ["belt sticks"], marks
assert abs(float(marks[1][0]) - 39.24) <= 1e-9, marks
'
expect "equilibria notes the friction is left out" 0 "$mech" equilibria belt.mech
contains "names it" err "the frictions (belt) are not part of it"
printf '%s\n' "friction floor: slip x' normal m * g static 0.5" ':sim 10 --dt 5' 'friction = 2' 'friction * 3' >repl.in
cat >free.mech <<'M'
model free {
  param m = 1 [kg], g = 9.81 [m/s^2]
  coord x [m]
  kinetic m * x'^2 / 2
  init x' = 2
}
M
expect "the REPL runs a friction typed at its prompt" 0 "$mech" repl free.mech <repl.in
contains "the block stops" err "friction floor: 1 stick, 0 slips; first stuck at t = 0.40774719673802"
contains "friction stays a name in expressions" out "6"
finish
