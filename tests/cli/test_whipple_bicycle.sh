#!/usr/bin/env bash
# The Whipple bicycle of examples/whipple_bicycle.mech against the benchmark
# of Meijaard, Papadopoulos, Ruina and Schwab, Proc. R. Soc. A 463 (2007)
# 1955-1982: the static front normal force from a hand calculation, the
# linearized equations of the paper's Table 2 (from finite differences of
# `mech eval` at states near upright straight running), the paper's weave
# and capsize speeds, and self-stability in simulation. The
# expected numbers are the paper's or are computed here from Table 1, never
# taken from mech.
# Usage: test_whipple_bicycle.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
model=examples/whipple_bicycle.mech

expect "checks" 0 "$mech" check "$model"
contains "checks: size" out "8 coordinates (x, y, yaw, lean, pitch, steer, ...), 26 parameters, 5 constraints, 4 bodies"
expect "is formatted" 0 "$mech" fmt --check "$model"

# Python helpers: eval(at, extra) runs `mech eval --json`; the Table 1
# numbers; Table 2, the matrices of M q'' + v C1 q' + (g K0 + v^2 K2) q = 0
# for q = (lean, steer) at the benchmark.
cat >"$work/bike.py" <<'EOF'
import json, math, subprocess, sys
mech, model = sys.argv[1], sys.argv[2]
def eval_(at, *extra):
    out = subprocess.run([mech, "eval", model, "--at", at, "--json", *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)
def close(got, want, rel, what=''):
    assert abs(got - want) <= rel * abs(want), (what, got, want)
g, w = 9.81, 1.02
mR, mB, mH, mF = 2, 85, 4, 3
xB, xH = 0.3, 0.9
rR, rF = 0.3, 0.35
M = [[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]]
K0 = [[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]]
K2 = [[0, 76.59734589573222], [0, 2.65431523794604]]
C1 = [[0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]]
# The state near upright straight running at the rear-wheel speed v (the
# paper's forward speed, v = -thR'*rR here), with lean, steer and their
# rates given; eval puts the other coordinates and velocities (pitch, yaw',
# y', x', thF', ...) onto the constraints, replacing the init's values.
def state(v, lean=0.0, steer=0.0, leand=0.0, steerd=0.0):
    return (f"lean={lean!r}, steer={steer!r}, lean'={leand!r}, "
            f"steer'={steerd!r}, thR'={-v / rR!r}")
# The linearized map from (lean, steer, lean', steer') to (lean'', steer'')
# at the speed v, by central differences of mech eval.
def measured(v, eps=1e-6):
    cols = []
    for k in ("lean", "steer", "leand", "steerd"):
        p = eval_(state(v, **{k: eps}))["qdd"]
        m = eval_(state(v, **{k: -eps}))["qdd"]
        cols.append([(p[c] - m[c]) / (2 * eps) for c in ("lean", "steer")])
    return cols
# The same map from Table 2: -M^-1 (g K0 + v^2 K2) and -M^-1 v C1.
def table2(v):
    det = M[0][0] * M[1][1] - M[0][1] * M[1][0]
    Mi = [[M[1][1] / det, -M[0][1] / det], [-M[1][0] / det, M[0][0] / det]]
    K = [[g * K0[i][j] + v * v * K2[i][j] for j in range(2)] for i in range(2)]
    C = [[v * C1[i][j] for j in range(2)] for i in range(2)]
    return [[-(Mi[i][0] * B[0][j] + Mi[i][1] * B[1][j]) for i in range(2)]
            for B in (K, C) for j in range(2)]
# Routh-Hurwitz for q'' = P q + Q q' (P, Q given by columns): the quartic
# det(s^2 - Q s - P) = s^4 + a3 s^3 + a2 s^2 + a1 s + a0 has all its roots in
# the left half plane iff a3, a1, a0 > 0, a3 a2 > a1 and
# a3 a2 a1 > a1^2 + a3^2 a0. Returns (stable, a0): a0 < 0 means a real
# root in the right half plane (capsize), otherwise an unstable pair (weave).
def hurwitz(cols):
    P = [[cols[0][0], cols[1][0]], [cols[0][1], cols[1][1]]]
    Q = [[cols[2][0], cols[3][0]], [cols[2][1], cols[3][1]]]
    def mul(a, b):
        r = [0.0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                r[i + j] += x * y
        return r
    def sub(a, b):
        return [x - y for x, y in zip(a, b)]
    # polynomials in s, constant term first
    d00, d11 = [-P[0][0], -Q[0][0], 1.0], [-P[1][1], -Q[1][1], 1.0]
    d01, d10 = [-P[0][1], -Q[0][1]], [-P[1][0], -Q[1][0]]
    a0, a1, a2, a3, a4 = sub(mul(d00, d11), mul(d01, d10) + [0.0, 0.0])
    assert a4 == 1.0
    stable = (a3 > 0 and a1 > 0 and a0 > 0 and a3 * a2 > a1
              and a3 * a2 * a1 > a1 * a1 + a3 * a3 * a0)
    return stable, a0
EOF
bike() { expect "$1" 0 python3 -c "exec(open('$work/bike.py').read())
$2" "$mech" "$model"; }

# (a) Upright, straight ahead at v = 4 m/s (x' = v, thR' = -v/rR,
# thF' = -v/rF, pitch = 0, and no lean rate, which the init has): a steady motion, every acceleration is zero and
# the state already satisfies the five constraints (no projection note).
bike "straight running is steady" "
d = eval_(\"x'=4, thR'=-4/0.3, thF'=-4/0.35, lean'=0\")
assert d['notes'] == [], d['notes']
for c, a in d['qdd'].items():
    assert abs(a) < 1e-9, (c, a)
for c in ('rear_x', 'rear_y', 'front_x', 'front_y'):
    assert abs(d['lambda'][c]) < 1e-9, (c, d['lambda'])"

# (b) At rest upright, the moments of the weights about the rear contact
# balance the front normal force N_F at the wheelbase w (mR is at x = 0):
#   N_F = g*(mB*xB + mH*xH + mF*w)/w = 9.81*(85*0.3 + 4*0.9 + 3*1.02)/1.02
#       = 9.81*32.16/1.02 = 309.3035294117647 N.
# The constraint is written as (height of the front contact) == 0, so its
# multiplier is the upward force of the ground on the front wheel in N, with
# no conversion. Nothing drives the wheels, so there is no friction.
bike "front normal force at rest" "
d = eval_(\"x'=0, thR'=0, thF'=0, lean'=0\")
assert d['notes'] == [], d['notes']
nf = g * (mR * 0 + mB * xB + mH * xH + mF * w) / w
close(nf, 309.3035294117647, 1e-12, 'hand calculation')
close(d['lambda']['front_contact'], nf, 1e-9, 'N_F')
close(d['outputs']['normal_front'], nf, 1e-9, 'output')
for c in ('rear_x', 'rear_y', 'front_x', 'front_y'):
    assert abs(d['lambda'][c]) < 1e-9, (c, d['lambda'])
for c, a in d['qdd'].items():
    assert abs(a) < 1e-9, (c, a)"
# The same moment balance with the rider moved forward to xB = 0.5 m and a
# heavier front wheel.
bike "front normal force follows the mass centre" "
d = eval_(\"x'=0, thR'=0, thF'=0, lean'=0\", '--set', 'xB=0.5', '--set', 'mF=5')
nf = g * (mB * 0.5 + mH * xH + 5 * w) / w
close(d['lambda']['front_contact'], nf, 1e-9, 'N_F')"

# (c) Table 2. At rest, the stiffness of mech linearize in (lean, steer) is
# g*K0: upright, lean and steer do not move the front contact to first
# order, so they span the constraints' tangent space there.
expect "linearize at rest" 0 "$mech" linearize "$model" --at "x'=0, thR'=0, thF'=0, lean'=0" --json
save
expect "static stiffness is g*K0" 0 python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
K0 = [[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]]
ix = {'lean': 3, 'steer': 5}
assert list(d['q']) == ['x', 'y', 'yaw', 'lean', 'pitch', 'steer', 'thR', 'thF'], d['q']
for i, a in enumerate(('lean', 'steer')):
    for j, b in enumerate(('lean', 'steer')):
        got, want = d['K'][ix[a]][ix[b]], 9.81 * K0[i][j]
        assert abs(got - want) <= 1e-9 * abs(want), (a, b, got, want)
# upright: M[lean, lean] is the total moment of inertia about the ground line
assert abs(d['M'][3][3] - 80.81722) <= 1e-9 * 80.81722, d['M'][3][3]" "$work/saved"

# The full dynamics near upright straight running, linearized by central
# differences of mech eval, against -M^-1 (g K0 + v^2 K2) and -M^-1 v C1
# from Table 2, at rest and at 3 and 5 m/s (which separates K0, K2 and C1).
for v in 0 3 5; do
  bike "Table 2 at v = $v m/s" "
got, want = measured($v), table2($v)
for j, name in enumerate(('lean', 'steer', \"lean'\", \"steer'\")):
    for i in range(2):
        assert abs(got[j][i] - want[j][i]) <= 1e-7 * (abs(want[j][i]) + 1e-6), (name, i, got[j][i], want[j][i])"
done

# The paper: the benchmark bicycle is self-stable between the
# weave speed v_w = 4.292 m/s and the capsize speed v_c = 6.024 m/s. The
# linearized map measured from mech is unstable through an oscillatory pair
# just below v_w, stable just above it and just below v_c, and unstable
# through a real root just above v_c.
bike "weave below 4.292 m/s" "
stable, a0 = hurwitz(measured(4.28))
assert not stable and a0 > 0, (stable, a0)"
bike "self-stable from 4.292 m/s" "
assert hurwitz(measured(4.30))[0]"
bike "self-stable up to 6.024 m/s" "
assert hurwitz(measured(6.02))[0]"
bike "capsize above 6.024 m/s" "
stable, a0 = hurwitz(measured(6.03))
assert not stable and a0 < 0, (stable, a0)"

# (d) mech linearize itself, about upright straight running with lean,
# steer and the rear-wheel rate as independent speeds: its second-order
# form in those speeds is Table 2's M, v C1 and g K0 + v^2 K2 (to 1e-10
# relative, 1e-12 absolute for the entries that are exactly 0), its
# eigenvalues are the roots of the benchmark's characteristic polynomial
# det(M s^2 + v C1 s + g K0 + v^2 K2) (with one zero per ignorable
# coordinate and for the rear-wheel rate), and at the paper's weave and
# capsize speeds the weave pair and the capsize root have zero real part.
cat >>"$work/bike.py" <<'EOF'
def linearize(v):
    at = f"x'={v!r}, thR'={-v / rR!r}, thF'={-v / rF!r}, lean'=0, lean=0, steer=0"
    out = subprocess.run([mech, "linearize", model, "--at", at, "--independent",
                          "lean', steer', thR'", "--json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)
def same(got, want, what):
    if want == 0:
        assert abs(got) <= 1e-12, (what, got)
    else:
        assert abs(got - want) <= 1e-10 * abs(want), (what, got, want)
def lean_steer(d, name, columns):
    # rows lean', steer' of the speeds; columns lean, steer of `columns`
    rows = [d['independent']['speeds'].index(u) for u in ("lean'", "steer'")]
    cols = [columns.index(c) for c in ('lean', 'steer')] if columns else rows
    return [[d[name][r][c] for c in cols] for r in rows]
def characteristic(v, s):
    a = [[M[i][j] * s * s + v * C1[i][j] * s + g * K0[i][j] + v * v * K2[i][j]
          for j in range(2)] for i in range(2)]
    scale = [[abs(M[i][j]) * abs(s) ** 2 + v * abs(C1[i][j]) * abs(s) + g * abs(K0[i][j])
              + v * v * abs(K2[i][j]) for j in range(2)] for i in range(2)]
    return (a[0][0] * a[1][1] - a[0][1] * a[1][0],
            scale[0][0] * scale[1][1] + scale[0][1] * scale[1][0])
EOF
bike "linearize: Table 2 in the independent speeds" "
rest, moving = linearize(0.0), linearize(5.0)
assert rest['independent']['speeds'] == [\"lean'\", \"steer'\", \"thR'\"], rest['independent']
coords = rest['independent']['coordinates']
for d in (rest, moving):
    for i in range(2):
        for j in range(2):
            same(lean_steer(d, 'Mr', None)[i][j], M[i][j], ('M', i, j))
Cr, K5, Kg = lean_steer(moving, 'Cr', None), lean_steer(moving, 'Kr', coords), lean_steer(rest, 'Kr', coords)
for i in range(2):
    for j in range(2):
        same(Cr[i][j] / 5.0, C1[i][j], ('C1', i, j))
        same(Kg[i][j] / g, K0[i][j], ('K0', i, j))
        same((K5[i][j] - Kg[i][j]) / 25.0, K2[i][j], ('K2', i, j))"
bike "linearize: the eigenvalues are the benchmark's" "
for v in (1.0, 3.0, 5.0, 8.0):
    d = linearize(v)
    values = [complex(re, im) for re, im in d['eigenvalues']]
    zeros = [s for s in values if abs(s) < 1e-9]
    roots = [s for s in values if abs(s) >= 1e-9]
    assert len(zeros) == 6 and len(roots) == 4, (v, values)
    for s in roots:
        residual, scale = characteristic(v, s)
        assert abs(residual) <= 1e-12 * scale, (v, s, residual, scale)"
bike "linearize: the weave and capsize speeds" "
weave = linearize(4.29238253634111)
pair = [complex(*e) for e in weave['eigenvalues'] if abs(e[1]) > 1e-6]
assert len(pair) == 2 and all(abs(s.real) < 1e-8 for s in pair), pair
capsize = linearize(6.02426201538837)
real = sorted(abs(e[0]) for e in capsize['eigenvalues'] if abs(e[1]) < 1e-9)
assert real[6] < 1e-8 and real[7] > 1e-3, real  # six zero modes, then the capsize root
for v, stable in ((4.28, False), (4.30, True), (6.02, True), (6.03, False)):
    d = linearize(v)
    assert (max(e[0] for e in d['eigenvalues']) < 1e-9) == stable, (v, d['eigenvalues'])"

# The nonlinear model in simulation, from upright straight running with a
# small lean rate: at 5 m/s the lean dies away, at 3 m/s the weave grows.
lean_peaks='rows = [[float(x) for x in line.split(",")] for line in open(sys.argv[1]).read().split()[1:]]
def peak(t0, t1):
    return max(abs(r[4]) for r in rows if t0 <= r[0] <= t1)'
expect "simulate at 5 m/s" 0 "$mech" simulate "$model" --until 8 --dt 0.05 --init "x'=5, thR'=-5[m/s]/rR, thF'=-5[m/s]/rF, lean'=0.01" -o "$work/v5.csv"
contains "simulate at 5 m/s: on the constraints" err "largest constraint residual"
# Rolling without slipping does no work and nothing drives the bicycle, so
# T + V stays constant.
cp "$work/err" "$work/v5.err"
expect "energy is conserved" 0 python3 -c "import re, sys
drift = float(re.search(r'energy drift max\|E\(t\) - E\(0\)\|/\|E\(0\)\| = (\S+)', open(sys.argv[1]).read()).group(1))
assert drift < 1e-8, drift" "$work/v5.err"
expect "self-stable at 5 m/s" 0 python3 -c "import sys
$lean_peaks
assert peak(6, 8) < 0.1 * peak(0, 2), (peak(0, 2), peak(6, 8))" "$work/v5.csv"
expect "simulate at 3 m/s" 0 "$mech" simulate "$model" --until 4 --dt 0.05 --init "x'=3, thR'=-3[m/s]/rR, thF'=-3[m/s]/rF, lean'=0.001" -o "$work/v3.csv"
expect "weave grows at 3 m/s" 0 python3 -c "import sys
$lean_peaks
assert peak(2, 4) > 3 * peak(0, 2), (peak(0, 2), peak(2, 4))" "$work/v3.csv"

finish
