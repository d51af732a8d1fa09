#!/usr/bin/env bash
# Command-line tests of `mech periodic` (periodic motions as fixed points of
# a return map), against closed forms and short computations written here:
#  a. a family: the pendulum of tests/cli/models/pendulum_turn.mech through
#     its turning point; without --energy/--fix a located error naming
#     both; with --fix th or --energy its period 4 sqrt(l/g) K(sin(a/2))
#     (K by the arithmetic-geometric mean); --energy/--fix on van der Pol's
#     isolated cycle is an error
#  b. impacts in a stroboscopic map: a ball on a table oscillating as
#     A sin(w t) (tests/cli/models/bouncing_table*.mech); the period-one
#     orbit in closed form (A w cos(phi) = g T (1 - e) / (2 (1 + e)), flights
#     of g T / 2 up and down), its multipliers from the impact map written
#     out here (explicit flights, bisection for the next impact, central
#     differences); the same ball seen from the table, and with a force
#     B cos(w t) on it as well
#  c. errors and usage: exit statuses, the first line of stderr, nothing on
#     stdout
#  d. --sweep on the simplest walker: its period doubling, --plot, and the
#     model file refused as the plot's name
#  e. --json's keys, and :periodic in the REPL
# Usage: test_periodic.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
models="$root/tests/cli/models"
vdp="$root/examples/van_der_pol.mech"
cp "$models/pendulum_turn.mech" "$models/cartesian_pendulum_turn.mech" "$models/bouncing_table.mech" "$models/bouncing_table_frame.mech" \
  "$models/bouncing_table_forced.mech" .

# first_line NAME PATTERN WHAT: the last command wrote nothing on stdout
# and the first line of its stderr matches PATTERN (it is WHAT).
first_line() {
  empty "$1: nothing on stdout" out
  if head -1 "$work/err" | grep -qE "$2"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: not $3"
    sed 's/^/  | /' "$work/err" | head -5
  fi
}
# located NAME: a located error (FILE:LINE:COL: error: ...).
located() { first_line "$1" '^[^:]+:[0-9]+:[0-9]+: error: ' "a located error"; }
# usage NAME: a usage error (mech: ...).
usage() { first_line "$1" '^mech: ' "a usage error"; }

# --- a. a family: the pendulum -----------------------------------------------------
# The period from rest at amplitude a = 1 rad, l = 1, g = 9.81:
# 4 sqrt(l/g) K(k), k = sin(a/2), K(k) = pi / (2 AGM(1, sqrt(1 - k^2))).
pendulum_period='
def agm(a, b):
    for _ in range(40):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return a
k = math.sin(0.5)
period = 4 * math.sqrt(1 / 9.81) * math.pi / (2 * agm(1, math.sqrt(1 - k * k)))
'
expect "a conservative model without --energy or --fix" 1 "$mech" periodic pendulum_turn.mech \
  --section turn --guess "th=1, th'=0"
located "the family's error"
contains "says the motions come in families" err "its periodic motions come in families"
contains "names --energy" err "--energy E"
contains "names --fix" err "--fix NAME"

expect "--fix th from rest at th = 1" 0 "$mech" periodic pendulum_turn.mech --section turn \
  --guess "th=1, th'=0" --fix th --json
check_json "the period is 4 sqrt(l/g) K(sin(1/2)); the family's multiplier 1 is dropped" "
$pendulum_period
assert abs(j['period'] - period) <= 1e-9 * period, (j['period'], period)
assert abs(j['fixed_point'][0] - 1) <= 1e-9 and abs(j['fixed_point'][1]) <= 1e-9, j['fixed_point']
assert any(d.startswith('1 ') and 'family' in d for d in j['dropped']), j['dropped']
assert j['multipliers'] == [], j['multipliers']
"

E=$(python3 -c 'import math; print(repr(-1 * 9.81 * 1 * math.cos(1)))')
expect "--energy -m g l cos(1), from th = 0.9" 0 "$mech" periodic pendulum_turn.mech \
  --section turn --guess "th=0.9, th'=0" --energy "$E" --json
check_json "the member of amplitude 1: the same period" "
$pendulum_period
assert abs(j['period'] - period) <= 1e-9 * period, (j['period'], period)
assert abs(j['fixed_point'][0] - 1) <= 1e-9, j['fixed_point']
assert abs(j['energy'] - $E) <= 1e-9 * abs($E), j['energy']
assert any(d.startswith('1 ') and 'family' in d for d in j['dropped']), j['dropped']
"

# The same pendulum with the bob's Cartesian coordinates and the rod as a
# constraint: Newton's method holds the constraints, the multipliers are
# taken on their tangent space (nothing but the family's 1 is left).
expect "--fix x on the Cartesian pendulum from rest at th = 1" 0 "$mech" periodic \
  cartesian_pendulum_turn.mech --section turn --guess "x=0.8414709848078965, y=-0.5403023058681398" \
  --fix x --json
check_json "the Cartesian pendulum: the same period, on the constraint" "
$pendulum_period
assert abs(j['period'] - period) <= 1e-9 * period, (j['period'], period)
x, y = j['fixed_point'][:2]
assert abs(x * x + y * y - 1) <= 1e-10 and abs(x - math.sin(1)) <= 1e-9, j['fixed_point']
assert j['multipliers'] == [], j['multipliers']
"

expect "--energy on van der Pol's isolated cycle" 1 "$mech" periodic "$vdp" --section up \
  --guess "x=0, x'=2" --energy 2
located "--energy on an isolated orbit"
contains "says the orbits are isolated" err "its periodic motions are isolated, so leave it out"
expect "--fix on van der Pol's isolated cycle" 1 "$mech" periodic "$vdp" --section up \
  --guess "x=0, x'=2" --fix x
located "--fix on an isolated orbit"
contains "says the orbits are isolated (--fix)" err "its periodic motions are isolated"

# --- b. impacts in a stroboscopic map: the bouncing ball ---------------------------------
# g = 9.81, A = 0.3, w = 2 pi (T = 1), e = 0.5: cos(phi) = g T (1 - e) /
# (2 (1 + e) A w) = 0.867, phi = +-0.5209. The guesses are at t = phi/w + 0.1,
# 0.1 s into the flight after the impact at phase phi; the orbit's state
# there is the flight's A sin(phi) + v s - g s^2 / 2, v - g s (v = g T / 2).
# bounce.py: the impact map (t_k, v_k) -> (t_k+1 - T, v_k+1) with explicit
# flights (an optional force B cos(w t) as well), its fixed point by Newton
# and its multipliers' moduli by central differences; the flight clears the
# table between impacts.
cat >bounce.py <<'PY'
import math, sys
g, A, w, e = 9.81, 0.3, 2 * math.pi, 0.5
B = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
T = 2 * math.pi / w
c = g * T * (1 - e) / (2 * (1 + e)) / (A * w)
assert 0 < c < 1

def flight(tk, vk, s):
    # height and velocity s after leaving the table at tk with velocity vk
    y = (A * math.sin(w * tk) + vk * s - g * s * s / 2
         - B / w ** 2 * (math.cos(w * (tk + s)) - math.cos(w * tk)) - B / w * math.sin(w * tk) * s)
    v = vk - g * s + B / w * (math.sin(w * (tk + s)) - math.sin(w * tk))
    return y, v

def gap(tk, vk, s):
    return flight(tk, vk, s)[0] - A * math.sin(w * (tk + s))

def step(tk, vk):
    h, s = T / 1000, T / 1000
    while gap(tk, vk, s) > 0:
        s += h
    lo, hi = s - h, s
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(tk, vk, mid) > 0 else (lo, mid)
    s = (lo + hi) / 2
    u = A * w * math.cos(w * (tk + s))
    return tk + s - T, (1 + e) * u - e * flight(tk, vk, s)[1]  # Newton: v+ - u = -e (v- - u)

def jacobian(x, h=1e-6):
    J = [[0.0, 0.0], [0.0, 0.0]]
    for j in range(2):
        p = list(x); p[j] += h; fp = step(*p)
        p = list(x); p[j] -= h; fm = step(*p)
        for i in range(2):
            J[i][j] = (fp[i] - fm[i]) / (2 * h)
    return J

def orbit(sign):
    # the period-one orbit from the closed form (B = 0), polished by Newton
    x = [sign * math.acos(c) / w, g * T / 2]
    for _ in range(40):
        f, J = step(*x), jacobian(x)
        r = [f[0] - x[0], f[1] - x[1]]
        a, b, cc, d = J[0][0] - 1, J[0][1], J[1][0], J[1][1] - 1
        det = a * d - b * cc
        dx = [-(d * r[0] - b * r[1]) / det, -(a * r[1] - cc * r[0]) / det]
        x = [x[0] + dx[0], x[1] + dx[1]]
        if max(abs(dx[0]), abs(dx[1])) < 1e-14:
            break
    J = jacobian(x)
    tr, det = J[0][0] + J[1][1], J[0][0] * J[1][1] - J[0][1] * J[1][0]
    disc = tr * tr - 4 * det
    moduli = ([math.sqrt(det)] * 2 if disc < 0 else
              sorted([abs((tr + math.sqrt(disc)) / 2), abs((tr - math.sqrt(disc)) / 2)], reverse=True))
    # the flight clears the table: the gap over s (T - s) stays positive
    clear = min(gap(x[0], x[1], s) / (s * (T - s)) for s in [k * T / 1000 for k in range(1, 1000)])
    assert clear > 0.1, clear
    return x, moduli

def state(x, s, frame=False):
    # the state s after the impact (y, y'), or seen from the table (z, z')
    y, v = flight(x[0], x[1], s)
    t = x[0] + s
    return (y - A * math.sin(w * t), v - A * w * math.cos(w * t)) if frame else (y, v)
PY
read -r t_plus t_minus < <(python3 -c '
import math
c = 9.81 * 0.5 / (2 * 1.5 * 0.3 * 2 * math.pi)
print(repr(math.acos(c) / (2 * math.pi) + 0.1), repr(-math.acos(c) / (2 * math.pi) + 0.1))')

# check_bounce NAME SIGN FRAME B T0: the last command's JSON is the orbit
# with impact phase SIGN*phi, in the table's frame or not, with the force B,
# at the time T0 of its guess.
check_bounce() {
  check_json "$1" "
sys.argv = ['bounce.py', '$4']
exec(open('$work/bounce.py').read())
x, moduli = orbit($2)
if $4 == 0:  # the closed form itself
    assert abs(x[0] - $2 * math.acos(c) / w) <= 1e-12 and abs(x[1] - g * T / 2) <= 1e-12, x
want = state(x, ($5 - x[0]) % T, $3)
got = j['fixed_point']
assert abs(got[0] - want[0]) <= 1e-8 and abs(got[1] - want[1]) <= 1e-8, (got, want)
assert j['map'] == 'stroboscopic' and j['forcing_period'] == 1 and j['period'] == 1, j
assert j['impacts'] == 1 and j['resets'] == 0, (j['impacts'], j['resets'])
mu = sorted((math.hypot(*z) for z in j['multipliers']), reverse=True)
assert len(mu) == 2 and all(abs(a - b) <= 1e-5 for a, b in zip(mu, moduli)), (mu, moduli)
assert j['stable'] == (moduli[0] < 1), (j['stable'], moduli)
"
}

# The ball on the table in the lab frame: the contact's gap is the model's
# only dependence on t, which the stroboscopic map must see.
expect "--period on the ball on the moving table" 0 "$mech" periodic bouncing_table.mech \
  --period 1 --guess "t=$t_plus, y=0.5, y'=3.5" --json
check_bounce "the fixed point of phase +phi (the table rising, slowing), closed form" 1 False 0 "$t_plus"
# A section through a model whose contact moves with t is refused: a return
# to the section at another phase of the table does not repeat the motion.
expect "--section on a model whose contact moves with t" 1 "$mech" periodic bouncing_table.mech \
  --section apex --guess "y=1.5, y'=0"

# The same ball seen from the table (t in the equations): the converged
# motions are the closed form's, with phase +phi (stable: a complex pair of
# modulus e) and -phi (a saddle), each from a guess near it.
expect "--period from the table's frame, near +phi" 0 "$mech" periodic bouncing_table_frame.mech \
  --period 1 --guess "t=$t_plus, z=0.3, z'=3" --json
check_bounce "phase +phi: closed form, 1 impact, multipliers of the impact map" 1 True 0 "$t_plus"
expect "--period from the table's frame, near -phi" 0 "$mech" periodic bouncing_table_frame.mech \
  --period 1 --guess "t=$t_minus, z=0.2, z'=2" --json
check_bounce "phase -phi: closed form, 1 impact, multipliers of the impact map (a saddle)" -1 True 0 "$t_minus"

# With a force B cos(w t) as well: both the equations and the gap depend on
# t (the gap's own rate in the impact's saltation); the orbit is
# bounce.py's Newton on the explicit impact map.
expect "--period on the forced ball on the moving table" 0 "$mech" periodic \
  bouncing_table_forced.mech --period 1 --guess "t=$t_plus, y=0.5, y'=4" --json
check_bounce "the forced orbit and its multipliers, against the impact map" 1 False 2 "$t_plus"
expect "the forced ball's text" 0 "$mech" periodic bouncing_table_forced.mech --period 1 \
  --guess "t=$t_plus, y=0.5, y'=4"
contains "says the stroboscopic map" out "a periodic motion of the forcing's period 1"
contains "counts the impact" out "on the way: 0 resets, 1 impact"

# --- c. errors and usage -----------------------------------------------------------------
expect "neither --section nor --period" 2 "$mech" periodic "$vdp" --guess "x=0, x'=2"
usage "no map"
contains "names both" err "--section EVENT"
expect "both --section and --period" 2 "$mech" periodic "$vdp" --section up --period 1 \
  --guess "x=0, x'=2"
usage "two maps"
expect "--section nosuch" 1 "$mech" periodic "$vdp" --section nosuch --guess "x=0, x'=2"
located "an unknown section"
contains "lists the events" err "'nosuch' is not an event of VanDerPol (its events: up)"
expect "--period on a model without t" 1 "$mech" periodic pendulum_turn.mech --period 1 \
  --guess "th=1, th'=0"
located "--period without t"
contains "explains --period" err "does not depend on t, so every time is a period's start"
expect "--section on a t-dependent model" 1 "$mech" periodic bouncing_table_frame.mech \
  --section apex --guess "z=1, z'=0"
located "--section with t"
contains "explains --section" err "depends on t, so a return to the section need not repeat"
expect "--plot without --sweep" 2 "$mech" periodic "$vdp" --section up --guess "x=0, x'=2" \
  --plot p.svg
usage "--plot alone"
if [ -e p.svg ]; then failed=$((failed + 1)); echo "FAIL: p.svg written"; else passed=$((passed + 1)); fi
# An option's unknown name is not a place in the file: `mech: error:`, as
# for simulate --plot-vars.
expect "--fix nosuch" 1 "$mech" periodic pendulum_turn.mech --section turn \
  --guess "th=1, th'=0" --fix nosuch
empty "--fix nosuch: nothing on stdout" out
contains "--fix names the name" err "mech: error: --fix: 'nosuch' is not a coordinate or velocity"
expect "a guess that does not return within --until 1" 1 "$mech" periodic "$vdp" --section up \
  --guess "x=0, x'=2" --until 1
located "no return"
contains "names --until" err "does not cross section 'up' again within t = 1 (--until)"
expect "a section whose resets break the constraints" 1 "$mech" periodic "$models/rod.mech" \
  --section bottom --guess "x=-0.6, y=-0.8"
located "constraints broken"
contains "says why" err "the resets of section 'bottom' at t = "
contains "says what they break" err "break the constraints"
expect "van der Pol from the rest point x' = 0" 1 "$mech" periodic "$vdp" --section up \
  --guess "x=0, x'=0"
located "from rest"
contains "the motion never crosses" err "does not cross section 'up' again"
# From rest at th = 3.2 (past the top) the pendulum swings about 2 pi,
# between 3.2 and 4 pi - 3.2, and its th' falls through 0 only at
# 4 pi - 3.2: no fixed point with th held at 3.2.
expect "Newton without a fixed point" 1 "$mech" periodic pendulum_turn.mech --section turn \
  --guess "th=3.2, th'=0" --fix th
located "Newton fails"
contains "says Newton stalls" err "Newton's method stalls"
expect "a guess naming no coordinate" 1 "$mech" periodic pendulum_turn.mech --section turn \
  --guess "nosuch=1"
located "a bad guess"

# --- d. --sweep and --plot on the simplest walker --------------------------------------
cp "$root/examples/simplest_walker.mech" walker.mech
walk=(--section heel --guess "th=0.2, ph=0.4, th'=-0.2, ph'=-0.016" --sweep "gamma=0.009..0.02:12")
expect "the walker's sweep with --plot" 0 "$mech" periodic walker.mech "${walk[@]}" --plot out.svg
# The period doubling from SciPy (tests/python/test_periodic.py's shooting
# and brentq): gamma = 0.01508844.
check_py "period doubling near gamma = 0.01508844" '
text = open(W + "/out").read()
m = re.search(r"stability lost at gamma = ([0-9.e-]+): period doubling", text)
assert m, text
assert abs(float(m.group(1)) - 0.01508844) <= 2e-8, m.group(1)
assert text.count("\n   gamma = ") == 12, text
'
check_py "the plot is an SVG" '
svg = open(W + "/out.svg").read()
assert svg.startswith("<?xml") and "<svg" in svg and svg.rstrip().endswith("</svg>"), svg[:200]
'
for name in walker.mech ./walker.mech "$work/walker.mech"; do
  expect "--plot onto the model file ($name)" 2 "$mech" periodic walker.mech "${walk[@]}" \
    --plot "$name"
  usage "--plot onto the model"
  contains "says it would overwrite the model" err "would overwrite the model file"
done
expect "the model file is unchanged" 0 cmp walker.mech "$root/examples/simplest_walker.mech"

# --- e. --json's keys ----------------------------------------------------------------
expect "van der Pol's cycle, --json" 0 "$mech" periodic "$vdp" --section up --guess "x=0, x'=2" \
  --json
check_json "the keys, and a stable cycle" "
for k in ['model', 'map', 'section', 'state', 'fixed_point', 'period', 'multipliers',
          'dropped', 'verdict', 'stable', 'criterion']:
    assert k in j, k
assert j['model'] == 'VanDerPol' and j['map'] == 'section' and j['section'] == 'up', j
assert j['state'] == ['x', \"x'\"] and j['stable'] is True, j
"
cp out periodic.json
expect "json.tool reads it" 0 python3 -m json.tool periodic.json

printf '%s\n' ":load $vdp" ":periodic --section up --guess \"x=0, x'=2\"" >repl.in
expect "the REPL's :periodic" 0 "$mech" repl <repl.in
contains "the REPL finds van der Pol's cycle" out "period 6.66328685932"

# --returns counts from 1 to 1000.
for k in 0 1001; do
  expect "--returns $k" 2 "$mech" periodic "$vdp" --section up --guess "x=0, x'=2" --returns "$k"
  usage "--returns $k"
done
# Van der Pol's cycle twice round: the same start, twice the period, the
# multiplier squared (8.596951e-4 once round: exp of the integral of
# mu (1 - x^2) over the cycle, by SciPy in tests/python/test_periodic.py).
expect "--returns 2 on van der Pol" 0 "$mech" periodic "$vdp" --section up --guess "x=0, x'=2" \
  --returns 2 --json
check_json "twice the period, the multiplier squared" "
assert j['returns'] == 2 and len(j['return_states']) == 1, j
assert abs(j['period'] - 2 * 6.6632868593231301897) <= 2e-9, j['period']
mu = j['multipliers'][0][0]
assert abs(mu - 8.596951e-4 ** 2) <= 1e-6 * 8.596951e-4 ** 2 + 1e-12, mu
"

# A section without a direction would end at the crossing back.
sed 's/ direction up//' "$vdp" >both_ways.mech
expect "a section without a direction" 1 "$mech" periodic both_ways.mech --section up \
  --guess "x=0, x'=2"
contains "asks for a direction" err "give it a direction"

finish
