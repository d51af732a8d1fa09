#!/usr/bin/env bash
# Command-line tests of a friction whose normal force is a contact's
# (`friction slide: slip ... normal tip static mu`, docs/language.md
# "friction"), against closed forms and equations written out by hand:
#  a. the stick-slip oscillator on a floor contact: the example's closed-form
#     stick and slip times, the floor's force m g
#  b. Painleve's rod (tests/cli/models/painleve_rod.mech) sliding with
#     sign(s) > 0: the slide until it sticks, against the hand-derived
#     equations integrated here (RK4), and the floor's and the friction's
#     forces in every sample against the hand-derived lambda
#  c. Painleve's paradox: the rod at tan(th) = 2 sliding with sign(s) < 0 has
#     no contact force for mu > 4/3 (1 + 3 cos^2 th - 3 mu sin th cos th <= 0:
#     Painleve 1895; D. E. Stewart, SIAM Review 42 (2000) 3-39, section 5):
#     an error naming the contact, the friction and the state at 1.34, a run
#     at 1.33; the paradox met when the rod lands sliding
#  d. a second run reads the derivation from the cache and makes the same
#     switches (a sticking slip is a velocity constraint there too)
#  e. bad declarations get located errors; equations name the contact
#  f. a built library (tests/cli/library/run_events.c) runs the belt on the
#     floor and the rod as mech simulate does, and ends the paradox with
#     FRICTION_PARADOX (16)
#  g. a sign() of a velocity chatters in a run with contacts too: the run
#     stops where the block should stick (x' = 0 at t = pi), at the force
# Usage: test_friction_contact.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
tight=(--rtol 1e-12 --atol 1e-12)
cp "$root/tests/cli/models/floor_belt.mech" "$root/tests/cli/models/painleve_rod.mech" .

# --- a. the belt on a floor --------------------------------------------------------
expect "the block on the belt, on a floor" 0 "$mech" simulate floor_belt.mech --until 100 \
  --dt 0.5 "${tight[@]}" --events belt.csv -o belt_run.csv
contains "the summary counts the phases" err "friction belt: 4 sticks, 3 slips"
check_py "the phases of the closed form (examples/stick_slip.mech), the floor holding m g" '
m, k, g, vb, mus, muk = 1.0, 1.0, 9.81, 0.1, 0.4, 0.3
xs, xk = mus * m * g / k, muk * m * g / k
A = xs - xk
f = lambda tau: -A * math.sin(tau) + vb * math.cos(tau) - vb
lo, hi = 1.0, 6.0
for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if f(lo) * f(mid) > 0 else (lo, mid)
tau = (lo + hi) / 2
x1 = xk + A * math.cos(tau) + vb * math.sin(tau)
rows = list(csv.DictReader(open(W + "/belt.csv")))
assert [r["event"] for r in rows] == ["belt sticks", "belt slips"] * 3 + ["belt sticks"], rows
want, t = [0.0], xs / vb
for _ in range(3):
    want += [t, t + tau]
    t += tau + (xs - x1) / vb
for r, tw in zip(rows, want):
    assert abs(float(r["t"]) - tw) <= 1e-9, (r["t"], tw)
for r in csv.DictReader(open(W + "/belt_run.csv")):
    assert abs(float(r["floor"]) - m * g) <= 1e-9 and abs(float(r["y"])) <= 1e-12, r
    v, force = float(r["x\x27"]), float(r["belt"])
    if abs(v - vb) > 1e-9:
        assert abs(force - muk * m * g) <= 1e-9, r
'

# --- b. the rod sliding forward ---------------------------------------------------
expect "the rod slides with s > 0 until it sticks" 0 "$mech" simulate painleve_rod.mech \
  --set v0=1 --until 0.06 --dt 0.005 "${tight[@]}" --events rod.csv -o rod_run.csv
check_py "the slide of the hand-derived equations, and the forces on it" '
m, l, g, mu = 1.0, 1.0, 9.81, 1.5
def forces(th, w, sigma):  # the floor force lambda and the acceleration
    lam = m * (g - l * math.sin(th) * w * w) / (
        1 + 3 * math.cos(th) ** 2 + 3 * sigma * mu * math.sin(th) * math.cos(th))
    return lam
def deriv(s):
    x, th, v, w = s
    lam = forces(th, w, 1)
    return [v, w, -mu * lam / m, -3 * lam * (math.cos(th) + mu * math.sin(th)) / (m * l)]
def rk4(s, h):
    k1 = deriv(s)
    k2 = deriv([a + h / 2 * b for a, b in zip(s, k1)])
    k3 = deriv([a + h / 2 * b for a, b in zip(s, k2)])
    k4 = deriv([a + h * b for a, b in zip(s, k3)])
    return [a + h / 6 * (b + 2 * c + 2 * d + e) for a, b, c, d, e in zip(s, k1, k2, k3, k4)]
slip = lambda s: s[2] + l * math.sin(s[1]) * s[3]
s, t, h = [0.0, math.atan(2.0), 1.0, 0.0], 0.0, 1e-5
while slip(rk4(s, h)) > 0:
    s, t = rk4(s, h), t + h
lo, hi = 0.0, h  # the crossing inside the last step
for _ in range(60):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if slip(rk4(s, mid)) > 0 else (lo, mid)
t, s = t + lo, rk4(s, lo)
rows = list(csv.DictReader(open(W + "/rod.csv")))
assert [r["event"] for r in rows] == ["slide sticks"], rows
r = rows[0]
assert abs(float(r["t"]) - t) <= 1e-9, (r["t"], t)
assert abs(float(r["th"]) - s[1]) <= 1e-9 and abs(float(r["x"]) - s[0]) <= 1e-9, (r, s)
for r in csv.DictReader(open(W + "/rod_run.csv")):
    if float(r["t"]) >= t:
        continue
    th, w = float(r["th"]), float(r["th\x27"])
    lam = forces(th, w, 1)
    assert abs(float(r["tip"]) - lam) <= 1e-9 * lam, (r, lam)
    assert abs(float(r["slide"]) + mu * lam) <= 1e-9 * lam, (r, lam)
    assert abs(float(r["y"]) - l * math.sin(th)) <= 1e-12, r
'

# --- c. Painleve's paradox -------------------------------------------------------------
expect "mu = 1.34 > 4/3 at tan(th) = 2, sliding back: no contact force" 1 "$mech" simulate \
  painleve_rod.mech --set mu=1.34 --until 0.1
contains "names the contact, the friction and the paradox" err \
  "error: the force of contact 'tip' has no unique value with friction 'slide' (slip < 0) sliding"
contains "names the criterion" err "its gap's acceleration does not grow with the force (Painleve's paradox"
contains "gives the state and the time" err "the state: x = 0, y = 0.8944271909999159, th = 1.1071487177940904, x' = -1"
contains "at the start" err "th' = 0 at t = 0"
expect "mu = 1.33 < 4/3: the floor's force is unique (and large)" 0 "$mech" simulate \
  painleve_rod.mech --set mu=1.33 --until 0.1 -o low.csv
check_py "the floor force at the start is the hand-derived lambda" '
th, mu = math.atan(2.0), 1.33
lam = 9.81 / (1 + 3 * math.cos(th) ** 2 - 3 * mu * math.sin(th) * math.cos(th))
r = next(csv.DictReader(open(W + "/low.csv")))
assert abs(float(r["tip"]) - lam) <= 1e-9 * lam and lam > 1000, (r["tip"], lam)
'
expect "the same rod sliding forward is consistent" 0 "$mech" simulate painleve_rod.mech \
  --set mu=1.34,v0=1 --until 0.01
expect "the rod lands sliding where the paradox holds" 1 "$mech" simulate painleve_rod.mech \
  --set v0=0,w0=-2,th0=1.3962634 --init "y'=0" --until 1 --events landing.csv
check_py "it lands at rest (e = 0) at a th where 1 + 3 cos^2 - 3 mu sin cos < 0" '
text = open(W + "/err").read()
m = re.search(r"th = ([-\d.e]+),.*at t = ([\d.e-]+)", text)
th, t = float(m.group(1)), float(m.group(2))
assert 1 + 3 * math.cos(th) ** 2 - 3 * 1.5 * math.sin(th) * math.cos(th) < 0, th
rows = list(csv.DictReader(open(W + "/landing.csv")))
assert [r["event"] for r in rows] == ["tip", "tip rests"] and float(rows[0]["t"]) == t, rows
'

# --- d. the cached derivation --------------------------------------------------------
expect "a first run derives" 0 "$mech" simulate painleve_rod.mech --set v0=1 --until 1 \
  --events first.csv
expect "a second run reads the derivation" 0 "$mech" simulate painleve_rod.mech --set v0=1 \
  --until 1 --events second.csv
contains "from the cache" err "(cached)"
check_py "the same switches" '
assert open(W + "/first.csv").read() == open(W + "/second.csv").read()
assert len(open(W + "/first.csv").read().splitlines()) >= 3
'

# --- e. declarations -----------------------------------------------------------------
cat >unit.mech <<'EOF'
model Wheel {
  param m = 1 [kg], r = 0.5 [m], g = 9.81 [m/s^2]
  coord x [m], th [rad]
  kinetic m/2*x'^2 + m*r^2/4*th'^2
  potential m*g*x
  contact stop: x >= 0 restitution 0
  friction pivot: slip th' normal stop static 0.5
}
EOF
expect "a contact's force of another unit" 1 "$mech" check unit.mech
contains "says the units" err \
  "unit.mech:7:35: error: the force of contact 'stop' is in kg*m/s^2, not a force along the slip"
contains "shows the line" err "friction pivot: slip th' normal stop static 0.5"
cat >notcontact.mech <<'EOF'
model Block {
  param m = 1 [kg], g = 9.81 [m/s^2]
  coord x [m]
  kinetic m/2*x'^2
  event hit: x == 1
  friction belt: slip x' normal hit static 0.5
}
EOF
expect "an event is no normal force" 1 "$mech" check notcontact.mech
contains "located" err "notcontact.mech:6:"
expect "equations name the contact" 0 "$mech" equations painleve_rod.mech
contains "N is the contact's force" out "N = the force of contact 'tip' (acting while it rests)"

# --- f. built libraries ----------------------------------------------------------------
helpers="$root/tests/cli/library"
# library NAME MODEL: libNAME.so and run_NAME; same NAME UNTIL DT STATES TOLERANCE: the
# library's rows and events against mech simulate's.
library() {
  expect "build $1" 0 "$mech" build "$2" -o "$work/lib$1.so" --header "$work/$1.h"
  expect "compile run_events for $1" 0 cc -std=c99 -Wall -Wextra -O1 -I"$helpers" \
    -include "$work/$1.h" "$helpers/run_events.c" -o "$work/run_$1" "$work/lib$1.so" \
    -Wl,-rpath,"$work" -lm
}
same() {
  expect "mech simulate $1" 0 "$mech" simulate "$1.mech" --until "$2" --dt "$3" --rtol 1e-10 \
    --atol 1e-10 -o "$1.cli.csv" --events "$1.cli.ev"
  expect "the library runs $1" 0 "./run_$1" "$2" "$3" 1e-10 1e-10 "$1.lib.ev"
  cp out "$1.lib.csv"
  expect "$1: the library agrees with mech simulate" 0 python3 "$helpers/compare_events.py" \
    "$1.cli.csv" "$1.cli.ev" "$1.lib.csv" "$1.lib.ev" "$3" "$4" "$5"
}
library floor_belt floor_belt.mech
same floor_belt 100 0.5 2 1e-11
sed 's/v0 = -1 \[m\/s\]/v0 = 1 [m\/s]/' painleve_rod.mech >forward.mech
library forward forward.mech
# The floor's force reaches 60 N as the rod falls: its rows agree to 1e-11 relative.
same forward 1 0.01 3 1e-9
library rod painleve_rod.mech
expect "the paradox in the library (mu = 1.34)" 1 ./run_rod 0.1 0.01 1e-10 1e-10 rod.lib.ev mu=1.34
contains "FRICTION_PARADOX" err "status 16 after 0 rows"
expect "the header names the code" 0 grep -q "MECH_FRICTION_PARADOX 16" rod.h
expect "no paradox at mu = 1.33" 0 ./run_rod 0.1 0.01 1e-10 1e-10 rod.lib.ev mu=1.33

# --- g. chattering beside a contact ------------------------------------------------------
cat >dry.mech <<'EOF'
model FloorDry {
  param m = 1 [kg], g = 9.81 [m/s^2], k = 1 [N/m], mu = 0.4
  coord x [m], y [m]
  kinetic m * (x'^2 + y'^2) / 2
  potential k * x^2 / 2 + m * g * y
  generalized -mu * m * g * sign(x') on x
  contact floor: y >= 0 restitution 0
  init x = 10, x' = 0, y = 0, y' = 0
}
EOF
expect "sign(x') on a block resting on a floor" 1 "$mech" simulate dry.mech --until 10 -o dry.csv
contains "located at the force" err "dry.mech:6:3: error: the force with sign(x') switches back and forth: 20 times"
contains "where it stops" err "between t = 3.14159"
contains "points to friction" err "write the force as a friction that sticks and slips"
contains "the run ends there" err "error: the run stopped at t = 3.14159"
check_py "the rows up to there are kept: x = mu g + (10 - mu g) cos t" '
rows = list(csv.DictReader(open(W + "/dry.csv")))
assert 3.1 < float(rows[-1]["t"]) <= math.pi, rows[-1]
for r in rows[1:]:  # at the default tolerances
    t, x = float(r["t"]), float(r["x"])
    assert abs(x - (3.924 + 6.076 * math.cos(t))) <= 1e-5, r
'

finish
