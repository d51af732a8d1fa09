#!/usr/bin/env bash
# Two examples after SymPy's physics.mechanics suite, against numbers that
# do not come from mech:
#
# examples/chaos_pendulum.mech (PyDy's chaos pendulum: a rod swinging about
# a horizontal axis, a plate turning about the rod). By hand, with
# J(phi) = mA*lA^2/3 + mB*lB^2 + mB*(h^2 + w^2*cos(phi)^2)/12 (the rod about
# its end, the plate by Huygens-Steiner plus its own moment about the swing
# axis), Jz = mB*w^2/12 and G = g*(mA*lA/2 + mB*lB):
#   T = J(phi)*theta'^2/2 + Jz*phi'^2/2,  V = -G*cos(theta),
#   theta'' = (-G*sin(theta) + 2*Jz*sin(phi)*cos(phi)*theta'*phi')/J(phi),
#   phi'' = -sin(phi)*cos(phi)*theta'^2,
# and the swing about the hanging state at a fixed phi has
# omega^2 = G/J(phi). The frequencies below are these formulas, computed
# here in Python; the literal numbers are the same formulas worked out by
# NumPy beside a NumPy model that differentiates the rotation matrices
# numerically (omega = vee(R^T R')), agreeing to 1e-8.
#
# examples/pendulum_cart.mech (SymPy's n_link_pendulum_on_cart: point
# masses m[k] on massless links l[k] below a free cart M). By hand about
# q = 0, with mu[i] = m[i] + ... + m[n]: M[x, x] = M + sum(m),
# M[x, q[i]] = l[i]*mu[i], M[q[i], q[j]] = l[i]*l[j]*mu[max(i, j)],
# K = diag(0, g*l[i]*mu[i]) (built here in Python). Its frequencies are
# the roots of det(K - omega^2 M) = 0, computed outside the suite with
# scipy.linalg.eigh(K, M) and, the same to 1e-13, numpy.linalg.eigvalsh of
# the Cholesky-symmetrized Schur complement after eliminating x; M and K
# agree with finite differences of T and V. n = 1 has the closed form
# omega^2 = (M + m)*g/(M*l) (the pendulum on a free support, Landau-
# Lifshitz, Mechanics, section 5).
# Usage: test_peer_examples.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

# py NAME CODE: runs CODE with `d` (the JSON of the last saved output) or
# `rows` (its CSV rows as floats, header dropped), `err` (the last
# command's stderr), math and close() at hand.
py() {
  expect "$1" 0 python3 -c "import json, math, sys
text = open(sys.argv[1]).read()
err = open(sys.argv[2]).read()
d = json.loads(text) if text.lstrip().startswith('{') else None
rows = None if d else [[float(x) for x in line.split(',')] for line in text.split()[1:]]
def close(got, want, rel, what=''):
    assert abs(got - want) <= rel * abs(want), (what, got, want, abs(got - want) / abs(want))
def drift(line):
    [v] = [l.split()[-1] for l in err.splitlines() if l.startswith(line)]
    return float(v)
$2" "$work/saved" "$work/saved_err"
}
save_all() { save; cp "$work/err" "$work/saved_err"; }
g=9.81

# --- the chaos pendulum ---
chaos=examples/chaos_pendulum.mech
plate="g = $g
def swing(mA=0.01, mB=0.1, lB=0.2, w=0.2, h=0.1, phi=0.0):
    lA = lB - h / 2
    J = mA * lA**2 / 3 + mB * lB**2 + mB * (h**2 + w**2 * math.cos(phi)**2) / 12
    return J, g * (mA * lA / 2 + mB * lB), mB * w**2 / 12
def imag(d):
    return sorted(abs(e[1]) for e in d['eigenvalues'])[-1]"

expect "chaos: linearize, plate in the swing plane" 0 "$mech" linearize $chaos --at "theta=0, phi=0" --json
save_all
py "chaos: M, K and omega at phi = 0" "$plate
J, G, Jz = swing()
close(d['M'][0][0], J, 1e-12, 'J'); close(d['M'][1][1], Jz, 1e-12, 'Jz')
assert d['M'][0][1] == 0 and d['M'][1][0] == 0, d['M']
close(d['K'][0][0], G, 1e-12, 'G'); assert d['K'][1][1] == 0, d['K']
close(imag(d), math.sqrt(G / J), 1e-9, 'formula')
close(imag(d), 6.73193314978763, 1e-9, 'numpy')  # 2.44269/0.0539 = omega^2"
expect "chaos: linearize, plate across the swing" 0 "$mech" linearize $chaos --at "theta=0, phi=90 [deg]" --json
save_all
py "chaos: omega at phi = 90 deg" "$plate
J, G, Jz = swing(phi=math.pi / 2)
close(imag(d), math.sqrt(G / J), 1e-9, 'formula')
close(imag(d), 6.99654939286600, 1e-9, 'numpy')  # 2.44269/0.0499 = omega^2"
expect "chaos: equilibria" 0 "$mech" equilibria $chaos --json
save_all
py "chaos: hangs at any phi, the phi = 0 swing" "$plate
J, G, Jz = swing()
[e] = [e for e in d['equilibria'] if e['stable']]
assert e['q'] == {'theta': 0, 'phi': 'arbitrary'}, e['q']
close(e['frequencies'][0], math.sqrt(G / J), 1e-9)"
# A lighter plate; a longer rod, whose length follows lB (lA = lB - h/2 is
# recomputed from the value set).
expect "chaos: --set mB" 0 "$mech" linearize $chaos --at "theta=0, phi=0" --set mB=0.05 --json
save_all
py "chaos: lighter plate" "$plate
J, G, Jz = swing(mB=0.05)
close(imag(d), math.sqrt(G / J), 1e-9, 'formula'); close(imag(d), 6.79601106704202, 1e-9, 'numpy')"
expect "chaos: --set lB" 0 "$mech" linearize $chaos --at "theta=0, phi=90 [deg]" --set lB=0.3 --json
save_all
py "chaos: longer rod, lA follows" "$plate
J, G, Jz = swing(lB=0.3, phi=math.pi / 2)
close(imag(d), math.sqrt(G / J), 1e-9, 'formula'); close(imag(d), 5.74397715373250, 1e-9, 'numpy')"
expect "chaos: eval" 0 "$mech" eval $chaos --at "theta=0.3, phi=0.7, theta'=1.3, phi'=-2.1" --json
save_all
py "chaos: accelerations and outputs by hand" "$plate
th, ph, thd, phd = 0.3, 0.7, 1.3, -2.1
J, G, Jz = swing(phi=ph)
s, c = math.sin(ph), math.cos(ph)
close(d['qdd']['theta'], (-G * math.sin(th) + 2 * Jz * s * c * thd * phd) / J, 1e-9, 'theta')
close(d['qdd']['phi'], -s * c * thd**2, 1e-9, 'phi')
close(d['T'], J * thd**2 / 2 + Jz * phd**2 / 2, 1e-9, 'T')
close(d['V'], -G * math.cos(th), 1e-9, 'V')
close(d['outputs']['spin'], phd, 1e-12, 'spin'); close(d['outputs']['swing'], thd, 1e-12, 'swing')"
expect "chaos: conserved" 0 "$mech" conserved $chaos --json
save_all
py "chaos: no cyclic coordinate, the energy integral is T + V" "
assert d['cyclic'] == [] and d['energy_is_T_plus_V'] is True, d"
# PyDy's start (90 deg, at rest) has h = 0 exactly: the rod stays below the
# horizontal. (The summary's relative energy drift divides by E(0) =
# -G*cos(pi/2) = -1.2e-17 here; the h line is the meaningful one.)
expect "chaos: simulate" 0 "$mech" simulate $chaos --until 5 --dt 0.01 --rtol 1e-10 --atol 1e-12
save_all
py "chaos: energy integral, |theta| <= 90 deg, outputs" "$plate
J0, G, Jz = swing()
assert rows[-1][0] == 5, rows[-1]
for t, th, ph, thd, phd, spin, sw in rows:
    J = swing(phi=ph)[0]
    h = J * thd**2 / 2 + Jz * phd**2 / 2 - G * math.cos(th)
    assert abs(h) < 1e-8 * G, (t, h)
    assert abs(th) <= math.pi / 2 + 1e-7, (t, th)
    assert abs(spin - phd) < 1e-9 and abs(sw - thd) < 1e-9, (t, spin, sw)
assert max(abs(r[2]) for r in rows) > 1, 'the plate did not tumble'
assert drift('conserved h: drift') < 1e-6, err"

# --- the n-link pendulum on a cart ---
cart=examples/pendulum_cart.mech
links="g = $g
def hand(M, m, l):
    n = len(m)
    mu = [sum(m[i:]) for i in range(n)]
    Mm = [[0.0] * (n + 1) for _ in range(n + 1)]
    K = [[0.0] * (n + 1) for _ in range(n + 1)]
    Mm[0][0] = M + sum(m)
    for i in range(n):
        Mm[0][i + 1] = Mm[i + 1][0] = l[i] * mu[i]
        K[i + 1][i + 1] = g * l[i] * mu[i]
        for j in range(n):
            Mm[i + 1][j + 1] = l[i] * l[j] * mu[max(i, j)]
    return Mm, K
def same(got, want, rel=1e-12):
    for a, b in zip(got, want):
        for x, y in zip(a, b):
            assert abs(x - y) <= rel * max(1, abs(y)), (got, want)
def freqs(d, want):
    [e] = [e for e in d['equilibria'] if e['stable']]
    assert e['q']['x'] == 'arbitrary' and all(v == 0 for k, v in e['q'].items() if k != 'x'), e['q']
    got = sorted(e['frequencies'])
    assert len(got) == len(want), got
    for a, b in zip(got, want):
        close(a, b, 1e-9)
    return e"

expect "cart: linearize" 0 "$mech" linearize $cart --at "x=0, q=0" --json
save_all
py "cart: M and K by hand, omega from numpy" "$links
Mm, K = hand(2, [1.0, 0.8, 0.6], [0.6, 0.5, 0.4])
same(d['M'], Mm); same(d['K'], K)
assert all(v == 0 for row in d['D'] for v in row), d['D']
got = sorted(abs(e[1]) for e in d['eigenvalues'] if abs(e[1]) > 0)
want = [3.85147851121965, 7.01819922996242, 9.97460489674494]
for a, b in zip(got[1::2], want):
    close(a, b, 1e-9)"
expect "cart: equilibria" 0 "$mech" equilibria $cart --in "q=-0.5..0.5" --json
save_all
py "cart: hanging, x arbitrary, three modes" "$links
freqs(d, [3.85147851121965, 7.01819922996242, 9.97460489674494])"
expect "cart: --set a family by a list" 0 "$mech" equilibria $cart --in "q=-0.5..0.5" --set "m=[0.5, 1, 1.5]" --json
save_all
py "cart: m = [0.5, 1, 1.5]" "$links
freqs(d, [4.04865907267853, 8.66770273528509, 15.4779452449590])"
expect "cart: --set one member" 0 "$mech" linearize $cart --at "x=0, q=0" --set "l[2]=0.8" --json
save_all
py "cart: l[2] = 0.8, M and K by hand" "$links
Mm, K = hand(2, [1.0, 0.8, 0.6], [0.6, 0.8, 0.4])
same(d['M'], Mm); same(d['K'], K)"
expect "cart: --set one member, equilibria" 0 "$mech" equilibria $cart --in "q=-0.5..0.5" --set "l[2]=0.8" --json
save_all
py "cart: l[2] = 0.8" "$links
freqs(d, [3.42042654912324, 6.94941903307708, 8.96726727184814])"
# n = 1 from the command line: the list given whole replaces the default
# of three entries.
expect "cart: n = 1" 0 "$mech" equilibria $cart --set n=1 --set "l=[0.6]" --in "q=-0.5..0.5" --json
save_all
py "cart: n = 1, omega^2 = (M + m)*g/(M*l), the cart recoils" "$links
M, m, l = 2, 1.0, 0.6
e = freqs(d, [math.sqrt((M + m) * g / (M * l))])
close(e['frequencies'][0], 4.95227220576575, 1e-9, 'numpy')
close(e['modes'][0][0] / e['modes'][0][1], -m * l / (M + m), 1e-9, 'recoil')"
# A list of another length that does not give the whole family is still
# an error at the default.
expect "cart: n = 1 without l" 1 "$mech" equations $cart --set n=1
contains "the list's length" err "the family 'l' has 1 members, the list gives 3 values"
expect "cart: simulate" 0 "$mech" simulate $cart --until 5 --dt 0.01 --rtol 1e-10 --atol 1e-12
save_all
py "cart: energy and p_x by hand" "$links
M, m, l = 2, [1.0, 0.8, 0.6], [0.6, 0.5, 0.4]
def energy_momentum(r):
    x, q, xd, qd = r[1], r[2:5], r[5], r[6:9]
    E, p = M * xd**2 / 2, M * xd
    vx, y = xd, 0.0
    vy = 0.0
    for k in range(3):
        vx += l[k] * math.cos(q[k]) * qd[k]; vy += l[k] * math.sin(q[k]) * qd[k]
        y -= l[k] * math.cos(q[k])
        E += m[k] * (vx**2 + vy**2) / 2 + m[k] * g * y
        p += m[k] * vx
    return E, p
E0, p0 = energy_momentum(rows[0])
assert rows[-1][0] == 5 and p0 == 0, rows[0]
for r in rows:
    E, p = energy_momentum(r)
    assert abs(E - E0) < 1e-8 * abs(E0) and abs(p) < 1e-8, (r[0], E - E0, p)
assert drift('energy drift') < 1e-7, err"
finish
