# steady: steady motions and their stability, against closed forms.
# - Conical pendulum (th from the downward vertical): phi'^2 = g/(l cos th),
#   and small oscillations about the circle at Omega^2 = phi'^2 (1 + 3 cos^2 th).
# - Kepler (V = -k/r): at the momentum p, the circle r = p^2/(m k); at the
#   rate w, r^3 = k/(m w^2); the radial oscillation has the orbit's
#   frequency (closed orbits); the amended potential's Hessian is k/r^3.
# - Heavy top (z-x-z, I1 about the tip): steady precession at phi', psi'
#   needs cos(th) phi'^2 (I1 - I3) = I3 psi' phi' - m g d; the nutation
#   about it has Omega^2 = U''(th)/I1, U the amended potential
#   m g d cos th + (p_phi - p_psi cos th)^2 / (2 I1 sin^2 th) (its second
#   derivative by central differences of the closed form).
# - Sleeping top: upright at the spin w3 the eigenvalues solve
#   I1 s^2 -+ i I3 w3 s - m g d = 0: stable (gyroscopically, the amended
#   potential has a maximum) iff I3^2 w3^2 > 4 I1 m g d, with frequencies
#   (I3 w3 -+ sqrt(I3^2 w3^2 - 4 I1 m g d))/(2 I1); below, Re = sqrt(4 I1 m g
#   d - I3^2 w3^2)/(2 I1).
# - Rolling coin (thin disk, nonholonomic): upright rolling at the spin w is
#   stable iff w^2 > g/(3 r), the lean oscillating at Omega^2 = 4/5 (3 w^2 -
#   g/r) (from (A + m r^2) lean'' + ((C + m r^2) C w^2/A - m g r) lean = 0).
# - Whipple bicycle: upright straight running at 5 m/s has the benchmark's
#   eigenvalues (Meijaard et al. 2007, Table 2).
# - Misuse: a coordinate that is not cyclic, a model without cyclic
#   coordinates, velocity constraints without rates, a rate and a momentum
#   for one coordinate, a momentum of the wrong unit.
source "$(dirname "$0")/lib.sh" "$@"

close='def close(a, b, tol=1e-9): assert abs(a - b) <= tol * max(1, abs(b)), (a, b)'

pendulum="$root/examples/spherical_pendulum.mech"
expect "conical pendulum" 0 "$mech" steady "$pendulum" --rates "phi'=4" --in "th=0..1.5" --json
check_json "conical pendulum: circle and oscillation" "$close
g, l, w = 9.81, 1.0, 4.0
[s] = j['steady_motions']
c = g / (l * w * w)
close(s['q']['th'], math.acos(c))
assert s['q']['phi'] == 'arbitrary' and s['qd']['phi'] == w
assert s['verdict'] == 'stable' and s['criterion'].startswith('Routh'), s
close(s['frequencies'][0], w * math.sqrt(1 + 3 * c * c))
assert s['reduced_states'] == ['th', \"th'\"]"
expect "conical pendulum: text" 0 "$mech" steady "$pendulum" --rates "phi'=4" --in "th=0..1.5"
contains "headline" out "SphericalPendulum: 1 steady motion with phi' = 4, searching th = 0..1.5"
contains "verdict" out "stable -- Routh: at fixed momenta the amended potential"

kepler="$root/examples/central_field.mech"
expect "Kepler by momentum" 0 "$mech" steady "$kepler" --momenta "p_phi=0.8 [kg*m^2/s]" --in "r=0.1..10" --json
check_json "Kepler: r = p^2/(m k)" "$close
[s] = j['steady_motions']
r = 0.8 ** 2
close(s['q']['r'], r)
close(s['qd']['phi'], 0.8 / r ** 2)
close(s['amended_hessian_eigenvalues'][0], 1 / r ** 3)
close(s['frequencies'][0], s['qd']['phi'])"
expect "Kepler by rate" 0 "$mech" steady "$kepler" --rates "phi'=2" --in "r=0.1..10" --json
check_json "Kepler: r^3 = k/(m w^2)" "$close
[s] = j['steady_motions']
close(s['q']['r'], 0.25 ** (1 / 3))
close(s['momenta']['p_phi'], 2 * 0.25 ** (2 / 3))"

top="$root/examples/heavy_top.mech"
expect "steady precession" 0 "$mech" steady "$top" --set d=0.08 --rates "phi'=10, psi'=20" --in "theta=0.01..3.1" --json
check_json "steady precession and nutation" "$close
m, r, d, g, wp, ws = 0.5, 0.1, 0.08, 9.81, 10.0, 20.0
I1, I3 = m * r * r / 4 + m * d * d, m * r * r / 2
[s] = j['steady_motions']
th = s['q']['theta']
close(th, math.acos((I3 * ws * wp - m * g * d) / (wp * wp * (I1 - I3))))
pp, ps = s['momenta']['p_phi'], s['momenta']['p_psi']
U = lambda x: m * g * d * math.cos(x) + (pp - ps * math.cos(x)) ** 2 / (2 * I1 * math.sin(x) ** 2)
h = 1e-4
U2 = (U(th + h) - 2 * U(th) + U(th - h)) / h ** 2
close(s['amended_hessian_eigenvalues'][0], U2, 1e-6)
close(s['frequencies'][0], math.sqrt(U2 / I1), 1e-6)"

sleeping="$root/examples/sleeping_top.mech"
limit='m, r, d, h, g = 0.5, 0.1, 0.05, 0.02, 9.81
I1, I3 = m * (3 * r * r + h * h) / 12 + m * d * d, m * r * r / 2'
expect "sleeping top, fast" 0 "$mech" steady "$sleeping" --rates "s'=40" --in "tx=-1..1, ty=-1..1" --json
check_json "sleeping top above the limit" "$close
$limit
w = 40.0
assert I3 ** 2 * w ** 2 > 4 * I1 * m * g * d
[s] = j['steady_motions']
assert abs(s['q']['tx']) < 1e-12 and abs(s['q']['ty']) < 1e-12
assert s['verdict'] == 'linearly stable (neutral), nonlinear stability undecided', s['verdict']
assert 'gyroscopic' in s['criterion'] and 'no minimum' in s['criterion'], s['criterion']
assert all(x < 0 for x in s['amended_hessian_eigenvalues'])
D = math.sqrt(I3 ** 2 * w ** 2 - 4 * I1 * m * g * d)
close(s['frequencies'][0], (I3 * w - D) / (2 * I1))
close(s['frequencies'][1], (I3 * w + D) / (2 * I1))"
expect "sleeping top, slow" 0 "$mech" steady "$sleeping" --rates "s'=15" --in "tx=-1..1, ty=-1..1" --json
check_json "sleeping top below the limit" "$close
$limit
w = 15.0
[s] = j['steady_motions']
assert s['verdict'] == 'unstable'
re = max(z[0] for z in s['eigenvalues'])
close(re, math.sqrt(4 * I1 * m * g * d - I3 ** 2 * w ** 2) / (2 * I1))"

coin="$root/examples/rolling_coin.mech"
expect "coin rolling fast" 0 "$mech" steady "$coin" --rates "spin'=10" --in "lean=-1..1" --json
check_json "coin above g/(3r)" "$close
g, r, w = 9.81, 0.05, 10.0
[s] = j['steady_motions']
assert abs(s['q']['lean']) < 1e-12 and s['q']['heading'] == 'arbitrary' and s['q']['x'] == 'arbitrary'
close(s['qd']['x'], r * w)
assert s['stable'] is True and s['verdict'].startswith('linearly stable'), s
close(s['frequencies'][0], math.sqrt(0.8 * (3 * w * w - g / r)))"
expect "coin rolling slowly" 0 "$mech" steady "$coin" --rates "spin'=7" --in "lean=-1..1" --json
check_json "coin below g/(3r)" "[s] = j['steady_motions']
assert 7 ** 2 < 9.81 / (3 * 0.05)
assert s['verdict'] == 'unstable', s"

bicycle="$root/examples/whipple_bicycle.mech"
expect "bicycle running straight" 0 "$mech" steady "$bicycle" --rates "thR'=-5 [m/s] / rR" \
  --in "yaw=-0.1..0.1, lean=-0.1..0.1, pitch=-0.1..0.1, steer=-0.1..0.1" --json
check_json "bicycle: Table 2 at v = 5 m/s" "[s] = j['steady_motions']
for c in ['lean', 'steer', 'pitch']: assert abs(s['q'][c]) < 1e-12, s['q']
# Each eigenvalue z solves det(M z^2 + v C1 z + g K0 + v^2 K2) = 0 with the
# paper's matrices (Table 2).
M = [[80.81722, 2.31941332208709], [2.31941332208709, 0.29784188199686]]
K0 = [[-80.95, -2.59951685249872], [-2.59951685249872, -0.80329488458618]]
K2 = [[0, 76.59734589573222], [0, 2.65431523794604]]
C1 = [[0, 33.86641391492494], [-0.85035641456978, 1.68540397397560]]
g, v = 9.81, 5.0
assert len(s['eigenvalues']) == 4, s['eigenvalues']
for re, im in s['eigenvalues']:
    z = complex(re, im)
    P = [[M[a][b] * z * z + v * C1[a][b] * z + g * K0[a][b] + v * v * K2[a][b] for b in range(2)] for a in range(2)]
    det = P[0][0] * P[1][1] - P[0][1] * P[1][0]
    size = max(abs(P[a][b]) for a in range(2) for b in range(2)) ** 2
    assert abs(det) <= 1e-12 * size, (z, det, size)
assert s['verdict'] == 'asymptotically stable', s['verdict']"

expect "not cyclic" 1 "$mech" steady "$pendulum" --rates "th'=1"
contains "why" err "error: 'th' is not cyclic (it appears in L), so it cannot turn at a constant rate in a steady motion"
contains "which are" err "note: the cyclic coordinates of SphericalPendulum: phi"
expect "no cyclic coordinate" 1 "$mech" steady "$root/examples/double_pendulum.mech"
contains "see equilibria" err "has no cyclic coordinate, so its steady motions are its states of rest: see mech equilibria"
expect "velocity constraints need rates" 2 "$mech" steady "$coin"
contains "usage" err "steady: give the rates of the coordinates that turn"
expect "rate and momentum" 1 "$mech" steady "$kepler" --rates "phi'=2" --momenta "p_phi=1"
contains "one of them" err "'phi' has a rate and a momentum; give one"
expect "momentum unit" 1 "$mech" steady "$kepler" --momenta "p_phi=1 [m/s]"
expect "a rate that is a position" 1 "$mech" steady "$kepler" --rates "phi=1"
contains "primed" err "--rates takes the rates of coordinates"

finish
