#!/usr/bin/env bash
# Command-line tests that the numbers the analyses print are the system's,
# checked against closed forms and against another command's independent
# result: the modes of a state of rest with a free (cyclic) coordinate and
# with damping or gyroscopic forces, explicit time that cancels from L, the
# energy drift of a run that starts at E = 0, symmetric steady motions, the
# notes of a linearize sweep, and the sweep's summary columns.
# Usage: test_trust_answers.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"

# --- equilibria: a free cart under a damped pendulum ----------------------
# x is cyclic: the cart recoils as the bob swings. With th's damping c, the
# swing obeys Meff th'' + c th' + m g l th = 0, Meff = m l^2 M/(M + m), so
# lambda = -c/(2 Meff) +- i sqrt(m g l/Meff - (c/(2 Meff))^2), and x adds a
# double zero (it drifts at constant momentum). Clamping x instead gives
# Meff = m l^2 (-0.556 +- 4.005i), which is what must not be printed.
sed 's/  init th = 0.3/  param c = 0.2 [N*m*s]\n  dissipation D = c\/2*th'"'"'^2\n  init th = 0.3/' \
  examples/cart_pendulum.mech >"$work/damped_cart.mech"
expect "damped cart: equilibria" 0 "$mech" equilibria "$work/damped_cart.mech" --json
save
check_py "damped cart: eigenvalues and mode of the free system (closed form)" '
import cmath
e = json.load(open(W + "/saved"))["equilibria"]
bottom = [q for q in e if abs(q["q"]["th"]) < 1e-9][0]
M, m, l, g, c = 2, 0.5, 0.6, 9.81, 0.2
Meff = m * l * l * M / (M + m)
want = complex(-c / (2 * Meff), math.sqrt(m * g * l / Meff - (c / (2 * Meff)) ** 2))
got = [complex(*z) for z in bottom["eigenvalues"]]
assert bottom["family_zero_eigenvalues"] == 2, bottom
assert all(abs(z) < 1e-9 for z in got[:2]), got
assert any(abs(z - want) < 1e-9 for z in got), (got, want)
assert any(abs(z - want.conjugate()) < 1e-9 for z in got), (got, want)
assert len(bottom["frequencies"]) == 1, bottom
assert abs(bottom["frequencies"][0] - want.imag) < 1e-9, bottom["frequencies"]
assert abs(bottom["natural_frequencies"][0] - abs(want)) < 1e-9, bottom
assert abs(bottom["damping_ratios"][0] - (-want.real / abs(want))) < 1e-9, bottom
assert bottom["modes"] == [], bottom["modes"]
'
expect "damped cart: linearize" 0 "$mech" linearize "$work/damped_cart.mech" --at "x=0, th=0, th'=0" --json
cp "$work/out" "$work/lin.json"
check_py "damped cart: equilibria's eigenvalues are linearize's" '
e = json.load(open(W + "/saved"))["equilibria"]
bottom = [q for q in e if abs(q["q"]["th"]) < 1e-9][0]
lin = json.load(open(W + "/lin.json"))
key = lambda z: (round(z.real, 9), round(z.imag, 9))
got = sorted((complex(*z) for z in bottom["eigenvalues"]), key=key)
want = sorted((complex(*z) for z in lin["eigenvalues"]), key=key)
assert len(got) == len(want) and all(abs(a - b) < 1e-9 for a, b in zip(got, want)), (got, want)
'
expect "damped cart: text" 0 "$mech" equilibria "$work/damped_cart.mech"
contains "damped cart: one line per mode" out "mode 1: omega = 4.46713 rad/s (period 1.40654 s), natural frequency |lambda| = 4.52079 rad/s, damping ratio 0.153611"
contains "damped cart: the zeros are the family's" out "the first 2 eigenvalues of A are 0; they belong to the family (x free"
lacks "damped cart: no clamped eigenvalue" out "0.555556"
lacks "damped cart: no separate damping ratios" out "damping ratios:"

# Without damping the normal mode keeps its shape and the recoil:
# omega^2 = (M + m) g/(M l).
expect "free cart: equilibria" 0 "$mech" equilibria examples/cart_pendulum.mech --json
check_json "free cart: omega^2 = (M + m) g/(M l), no eigenvalues of A" '
bottom = [q for q in j["equilibria"] if abs(q["q"]["th"]) < 1e-9][0]
assert abs(bottom["frequencies"][0] - math.sqrt(2.5 * 9.81 / (2 * 0.6))) < 1e-9, bottom
assert bottom["eigenvalues"] == [] and len(bottom["modes"]) == 1, bottom
'

# --- equilibria: gyroscopic and circulatory forces (a linear bicycle) -----
# The Whipple bicycle's lean and steer near upright running at v = 5 m/s,
# M q'' + v C1 q' + (g K0 + v^2 K2) q = 0 with Meijaard et al.'s (2007)
# Table 2 matrices. Every mode comes from this characteristic polynomial,
# solved here on its own: weave -0.775 +- 4.46i (damping ratio 0.171).
cat >"$work/linear_bicycle.mech" <<'MODEL'
model LinearBicycle {
  param v = 5, g = 9.81
  param M11 = 80.81722, M12 = 2.31941332208709, M22 = 0.29784188199686
  param K11 = -80.95, K12 = -2.59951685249872, K22 = -0.80329488458618
  param L12 = 76.59734589573222, L22 = 2.65431523794604
  param C12 = 33.86641391492494, C21 = -0.85035641456978, C22 = 1.68540397397560
  coord lean, steer
  kinetic T = M11/2*lean'^2 + M12*lean'*steer' + M22/2*steer'^2
  potential V = g/2*(K11*lean^2 + 2*K12*lean*steer + K22*steer^2)
  generalized -(v^2*L12*steer + v*C12*steer') on lean
  generalized -(v^2*L22*steer + v*(C21*lean' + C22*steer')) on steer
}
MODEL
cat >"$work/quartic.py" <<'PY'
# The roots of det(M s^2 + v C1 s + g K0 + v^2 K2) by Durand-Kerner.
def roots(v, g=9.81):
    M = [[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]]
    K0 = [[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]]
    K2 = [[0, 76.59734589573222], [0, 2.65431523794604]]
    C1 = [[0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]]
    def det(s):
        a = [[M[i][j] * s * s + v * C1[i][j] * s + g * K0[i][j] + v * v * K2[i][j]
              for j in range(2)] for i in range(2)]
        return a[0][0] * a[1][1] - a[0][1] * a[1][0]
    lead = M[0][0] * M[1][1] - M[0][1] * M[1][0]
    z = [(0.4 + 0.9j) ** k for k in range(4)]
    for _ in range(500):
        new = []
        for i, zi in enumerate(z):
            p = lead
            for j, zj in enumerate(z):
                if j != i:
                    p *= zi - zj
            new.append(zi - det(zi) / p)
        z = new
    return z
PY
expect "linear bicycle: equilibria" 0 "$mech" equilibria "$work/linear_bicycle.mech" --json
save
check_py "linear bicycle: one mode per complex pair of the quartic's roots" '
import sys
sys.path.insert(0, W)
from quartic import roots
e = json.load(open(W + "/saved"))["equilibria"][0]
want = sorted((z for z in roots(5) if z.imag > 1e-9), key=abs)
assert e["stable"] is True and e["asymptotic"] is True, e
assert len(e["frequencies"]) == len(want) == 1, (e, want)
z = want[0]
assert abs(e["frequencies"][0] - z.imag) < 1e-7, (e["frequencies"], z)
assert abs(e["natural_frequencies"][0] - abs(z)) < 1e-7, (e, z)
assert abs(e["damping_ratios"][0] + z.real / abs(z)) < 1e-7, (e, z)
got = [complex(*x) for x in e["eigenvalues"]]
assert len(got) == 4, got
for z in roots(5):
    assert min(abs(z - x) for x in got) < 1e-7, (z, got)
'
expect "linear bicycle: text" 0 "$mech" equilibria "$work/linear_bicycle.mech"
contains "linear bicycle: the weave line" out "mode 1: omega = 4.46"
contains "linear bicycle: its damping ratio on the same line" out "damping ratio 0.171"
lacks "linear bicycle: no undamped frequency" out "23.8"

# --- explicit t that cancels from L: a body turned at a prescribed rate ----
# A bead (a small sphere) on a hoop turned about the vertical at the rate
# Om: its orientation rot_z(Om t) rot_x(b) has t, L does not. Relative
# equilibria cos b = g/(Om^2 R), where the bead oscillates with
# omega^2 = m R^2 Om^2 sin^2 b/(m R^2 + J), J = 2/5 m r^2; the Jacobi
# integral h = T2 - T0 + V = (m R^2 + J)/2 b'^2 - (m R^2 sin^2 b + J) Om^2/2
# - m g R cos b is conserved.
cat >"$work/turned_hoop.mech" <<'MODEL'
import "spatial.mech"
import "inertia.mech"
model TurnedHoop {
  param m = 0.1 [kg], R = 0.5 [m], r = 0.05 [m], Om = 6 [1/s], g = 9.81 [m/s^2]
  coord b [rad]
  body bead mass m at rot_z(Om*t) * rot_x(b) * [0, 0, -R] rotation rot_z(Om*t) * rot_x(b) inertia sphere_tensor(m, r)
  gravity [0, 0, -g]
  init b = 0.3
}
MODEL
hoop="$work/turned_hoop.mech"
expect "turned hoop: the equations do not depend on t" 0 "$mech" --dump=eom "$hoop"
contains "turned hoop: no explicit t" out "explicit t in L: no"
expect "turned hoop: equilibria without --time" 0 "$mech" equilibria "$hoop" --json
check_json "turned hoop: cos b = g/(Om^2 R), omega from the closed form" '
m, R, r, Om, g = 0.1, 0.5, 0.05, 6, 9.81
J = 0.4 * m * r * r
b = math.acos(g / (Om * Om * R))
side = [e for e in j["equilibria"] if abs(abs(e["q"]["b"]) - b) < 1e-9]
assert len(side) == 2, j
w = math.sqrt(m * R * R * Om * Om * math.sin(b) ** 2 / (m * R * R + J))
for e in side:
    assert e["stable"] is True and abs(e["frequencies"][0] - w) < 1e-9, e
'
# steady sends a model without cyclic coordinates to equilibria, not to --time.
expect "turned hoop: steady" 1 "$mech" steady "$hoop"
contains "turned hoop: steady says why" err "no cyclic coordinate, so its steady motions are its states of rest"
lacks "turned hoop: steady does not ask for --time" err "--time"
expect "turned hoop: simulate" 0 "$mech" simulate "$hoop" --until 5 --dt 0.01 -o "$work/hoop.csv"
contains "turned hoop: the Jacobi integral is followed" err "conserved h: drift"
check_py "turned hoop: h constant along the run (closed form)" '
m, R, r, Om, g = 0.1, 0.5, 0.05, 6, 9.81
J = 0.4 * m * r * r
rows = list(csv.reader(open(W + "/hoop.csv")))[1:]
h = [(m * R * R + J) / 2 * float(x[2]) ** 2 - (m * R * R * math.sin(float(x[1])) ** 2 + J) * Om * Om / 2
     - m * g * R * math.cos(float(x[1])) for x in rows]
assert max(h) - min(h) < 1e-6 * abs(h[0]), (min(h), max(h))
drift = float(re.search(r"conserved h: drift (\S+)", open(W + "/err").read()).group(1))
assert drift < 1e-6, drift
'

# --- simulate: the energy drift of a run that starts at E = 0 -------------
# The rod horizontal at rest: T = 0 and V = m g y = 0. The drift is then
# relative to the largest |T| + |V|, computed here from the samples.
expect "E(0) = 0: simulate" 0 "$mech" simulate examples/cartesian_pendulum.mech --init "x=1, y=0" --until 5 --dt 0.01 -o "$work/cp.csv"
contains "E(0) = 0: the drift against the terms" err "energy drift max|E(t) - E(0)| of the largest |T| + |V| = "
check_py "E(0) = 0: the printed drift is the samples' (not 0)" '
m, g = 1, 9.81
rows = [[float(v) for v in r] for r in list(csv.reader(open(W + "/cp.csv")))[1:]]
T = [m / 2 * (r[3] ** 2 + r[4] ** 2) for r in rows]
V = [m * g * r[2] for r in rows]
E = [a + b for a, b in zip(T, V)]
want = max(abs(e - E[0]) for e in E) / max(abs(a) + abs(b) for a, b in zip(T, V))
got = float(re.search(r"largest \|T\| \+ \|V\| = (\S+)", open(W + "/err").read()).group(1))
assert want > 0 and abs(got - want) <= 0.01 * want, (got, want)
'

# --- linearize --sweep: the state a single linearize would use, and its notes
# The bicycle's init has lean' = 0.5: an --at without lean' takes it, as a
# single linearize does, and the state is then no equilibrium at any speed.
bike=examples/whipple_bicycle.mech
moving="x'=v, thR'=-v/rR, thF'=-v/rF, lean=0, steer=0"
expect "sweep without lean'" 0 "$mech" linearize "$bike" --at "$moving" \
  --independent "lean', steer', thR'" --sweep "v=4..6 [m/s]:3"
contains "sweep: the init's velocity is said" out "note: about a motion (at v = 4): "
contains "sweep: lean' = 0.5" out "lean' = 0.5"
contains "sweep: not an equilibrium" out "note: not an equilibrium (f + C^T lambda = ["
contains "sweep: at every value" out "so at every value); K and D are the derivatives of f there"
expect "sweep without lean', json" 0 "$mech" linearize "$bike" --at "$moving" \
  --independent "lean', steer', thR'" --sweep "v=4..6 [m/s]:3" --json
cp "$work/out" "$work/sweep.json"
expect "single linearize at v = 5" 0 "$mech" linearize "$bike" \
  --at "x'=(5 [m/s]), thR'=-(5 [m/s])/rR, thF'=-(5 [m/s])/rF, lean=0, steer=0" \
  --independent "lean', steer', thR'"
contains "single: the same note" out "note: not an equilibrium"
contains "single: the same velocity" out "lean' = 0.5"
expect "single linearize at v = 5, json" 0 "$mech" linearize "$bike" \
  --at "x'=(5 [m/s]), thR'=-(5 [m/s])/rR, thF'=-(5 [m/s])/rF, lean=0, steer=0" \
  --independent "lean', steer', thR'" --json
check_py "sweep at v = 5: the single linearize's eigenvalues, all values off equilibrium" '
sweep = json.load(open(W + "/sweep.json"))
single = json.load(open(W + "/out"))
assert sweep["not_equilibrium"] == sweep["values"] == [4, 5, 6], sweep
mine = [complex(*z) for z in sweep["eigenvalues"][1]]
theirs = [complex(*z) for z in single["eigenvalues"]]
for z in mine:
    assert min(abs(z - w) for w in theirs) < 1e-9 * max(1, abs(z)), (z, theirs)
'
upright="x'=v, thR'=-v/rR, thF'=-v/rF, lean'=0, lean=0, steer=0"
expect "sweep of upright running" 0 "$mech" linearize "$bike" --at "$upright" \
  --independent "lean', steer', thR'" --sweep "v=4..6 [m/s]:3"
lacks "upright running is an equilibrium" out "not an equilibrium"

# --- sweep: summary columns --------------------------------------------------
dp=examples/double_pendulum.mech
expect "a summary named as a swept name" 2 "$mech" sweep "$dp" --grid "th1=0..1:2" \
  --summary "th1 = max(th2)" --until 0.1
contains "the clash is named" err "'th1' is also a swept name"
expect "a summary named status" 2 "$mech" sweep "$dp" --grid "th1=0..1:2" \
  --summary "status = max(th2)" --until 0.1
contains "status is a built-in column" err "'status' is the name of a built-in column"
expect "a summary named message" 2 "$mech" sweep "$dp" --grid "th1=0..1:2" \
  --summary "message = max(th2)" --until 0.1
expect "the status summary may be called status" 0 "$mech" sweep "$dp" --grid "th1=0..1:2" \
  --summary "status = status" --until 0.1
# Finite bounds whose width overflows draw infinite values (the runs would
# fail at a mass matrix of NaN): a usage error instead.
expect "a uniform range that overflows" 2 "$mech" sweep "$dp" \
  --random "th1 = uniform(-1e308, 1e308):3" --summary "max(th2)" --until 0.1
contains "overflowing uniform named" err "uniform() of 'th1' draws values that are not finite"
expect "a normal spread that overflows" 2 "$mech" sweep "$dp" \
  --random "th1 = normal(0, 1e308):3" --summary "max(th2)" --until 0.1
contains "overflowing normal named" err "normal() of 'th1' draws values that are not finite"
expect "a grid range that overflows" 2 "$mech" sweep "$dp" --grid "th1=-1e308..1e308:3" \
  --summary "max(th2)" --until 0.1
contains "overflowing grid named" err "the range of 'th1' overflows"
# acos(th2 + 2) is NaN (th2 stays near 0): the summary is empty, the run
# ok, and its message says why.
expect "a NaN summary" 0 "$mech" sweep "$dp" --grid "th1=0..0.5:2" \
  --summary "root = max(acos(th2 + 2)), m = max(th2)" --until 0.1
check_py "a NaN summary: the message says so" '
rows = list(csv.reader(open(W + "/out")))
assert rows[0] == ["th1", "root", "m", "status", "message"], rows[0]
for r in rows[1:]:
    assert r[1] == "" and r[2] != "" and r[3] == "ok", r
    assert r[4] == "not a number (NaN among the samples): root", r
'

# --- steady --momenta: both symmetric circular orbits -----------------------
# Kepler in spherical coordinates (th from the pole): at the momentum p the
# circle r = p^2/(m k) lies in the plane th = pi/2, reached as th = pi/2 and
# as th = -pi/2 (the same plane, phi turned by pi); both are steady states
# of these coordinates, with phi' = p/(m r^2) and, at fixed p, the radial
# and the tilting oscillations both at omega = phi'.
cat >"$work/spherical_kepler.mech" <<'MODEL'
model SphericalKepler {
  param m = 1 [kg], k = 1 [N*m^2]
  coord r [m], th [rad], phi [rad]
  particle planet mass m at r * [sin(th) * cos(phi), sin(th) * sin(phi), cos(th)]
  potential V = -k / r
  init r = 1, th = 1.5707963267948966, phi' = 1
}
MODEL
for p in 0.5 0.8 1.2; do
  expect "spherical Kepler, p = $p" 0 "$mech" steady "$work/spherical_kepler.mech" \
    --momenta "p_phi=$p [kg*m^2/s]" --in "r=0.1..10" --json
  check_json "spherical Kepler, p = $p: th = +-pi/2, r = p^2/(m k), phi' = p/(m r^2)" "
p = $p
r = p * p
w = p / r ** 2
ths = sorted(s['q']['th'] for s in j['steady_motions'])
assert len(ths) == 2 and all(abs(a - b) < 1e-8 for a, b in zip(ths, [-math.pi / 2, math.pi / 2])), j
for s in j['steady_motions']:
    assert abs(s['q']['r'] - r) < 1e-8 * r and abs(s['qd']['phi'] - w) < 1e-8 * w, s
    assert all(abs(f - w) < 1e-6 * w for f in s['frequencies']), s
"
done

finish
