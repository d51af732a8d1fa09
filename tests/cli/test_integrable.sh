# Integrable velocity constraints: an exact form a(q, t).q' + b = 0 is
# d/dt Phi = 0 and is treated as the holonomic constraint Phi = const.
# - A disk (mass m, radius r, J = m r^2/2) rolling on an incline of angle
#   alpha, s' == r*phi': with V = -m g sin(alpha) s there is no rest; with a
#   spring k s^2/2 the rest point is s = m g sin(alpha)/k (phi = s/r, the
#   constant s - r*phi being 0 at the init), stable, with
#   omega^2 = k/(m + J/r^2) = 2k/(3m); linearized, one coordinate and one
#   speed (not two coordinates), with eigenvalues +-i omega.
# - x' == cos(th)*th' is an exact form (of x - sin(th)) with varying
#   coefficients: recognised, and its equilibria are sought on the init's
#   level set (x - sin th = 0.3, through the line integral of the
#   coefficients), against the reduced problem in th; x' == x*th' is not
#   exact (d(x)/dx != d(0)/dth) and stays nonholonomic.
source "$(dirname "$0")/lib.sh" "$@"

close='def close(a, b, tol=1e-10): assert abs(a - b) <= tol * max(1, abs(b)), (a, b)'
cat >"$work/incline.mech" <<'MODEL'
model RollingOnIncline {
  param m = 2 [kg], r = 0.3 [m], alpha = 0.4 [rad], g = 9.81 [m/s^2], k = 0 [N/m]
  coord s [m], phi [rad]
  kinetic m * s'^2 / 2 + m * r^2 / 4 * phi'^2
  potential -m * g * sin(alpha) * s + k * s^2 / 2
  constraint roll: s' == r * phi'
}
MODEL
incline="$work/incline.mech"

expect "equations" 0 "$mech" equations "$incline"
contains "recognised" out "roll: integrable, Phi = -r*phi' + s'"
contains "its integral" out "'roll' integrates to -r*phi + s = const: treated as holonomic"
expect "down the incline: no rest" 0 "$mech" equilibria "$incline" --json
check_json "no equilibrium" "assert j['equilibria'] == [], j
assert any('integrates to -r*phi + s' in n for n in j['notes']), j['notes']"
expect "down the incline: text" 0 "$mech" equilibria "$incline"
contains "says so" out "RollingOnIncline: no equilibrium in s = -10..10, phi = -3.14159..3.14159"

expect "with a spring" 0 "$mech" equilibria "$incline" --set k=50 --json
check_json "the spring's rest point" "$close
m, r, a, g, k = 2.0, 0.3, 0.4, 9.81, 50.0
[e] = j['equilibria']
s = m * g * math.sin(a) / k
close(e['q']['s'], s)
close(e['q']['phi'], s / r)
assert e['stable'] is True and e['criterion'].startswith('Lagrange-Dirichlet'), e
close(e['frequencies'][0], math.sqrt(2 * k / (3 * m)))"

s_star=$(python3 -c 'import math; print(repr(2 * 9.81 * math.sin(0.4) / 50))')
expect "linearized on the level set" 0 "$mech" linearize "$incline" --set k=50 \
  --at "s=$s_star, phi=$s_star/0.3" --json
check_json "one coordinate, one speed, +-i omega" "$close
w = math.sqrt(2 * 50.0 / 6.0)
assert len(j['state']) == 2, j['state']
ev = sorted(j['eigenvalues'], key=lambda z: z[1])
close(ev[0][0], 0); close(ev[1][0], 0)
close(ev[0][1], -w); close(ev[1][1], w)
assert any('integrates to' in n for n in j['notes'])"

cat >"$work/exact.mech" <<'MODEL'
model Exact {
  coord x, th
  kinetic x'^2 / 2 + th'^2 / 2
  potential x^2 / 2 + th^2 / 2
  constraint tie: x' == cos(th) * th'
  init x = 0.3
}
MODEL
expect "an exact form with varying coefficients" 0 "$mech" equations "$work/exact.mech"
contains "recognised" out "tie: integrable"
contains "not written out" out "'tie' is an exact form, the time derivative of a function of the coordinates"
# On the init's level set x = 0.3 + sin(th): V(th) = (c + sin th)^2/2 +
# th^2/2 has its minimum where (c + sin th) cos th + th = 0, and the mass
# along the set is 1 + cos^2 th: omega^2 = V''/(1 + cos^2 th).
expect "its equilibrium on the init's level set" 0 "$mech" equilibria "$work/exact.mech" \
  --in "x=-1..1, th=-1..1" --json
check_json "against the reduced one-coordinate problem" "$close
c = 0.3
g = lambda th: (c + math.sin(th)) * math.cos(th) + th
lo, hi = -1.0, 0.0
for _ in range(200):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if g(mid) < 0 else (lo, mid)
th = (lo + hi) / 2
[e] = j['equilibria']
close(e['q']['th'], th, 1e-9)
close(e['q']['x'], c + math.sin(th), 1e-9)
V2 = math.cos(th) ** 2 - (c + math.sin(th)) * math.sin(th) + 1
close(e['frequencies'][0], math.sqrt(V2 / (1 + math.cos(th) ** 2)), 1e-8)
assert any('line integral' in n for n in j['notes']), j['notes']"
sed 's/cos(th) \* th/x * th/' "$work/exact.mech" >"$work/inexact.mech"
expect "not exact" 0 "$mech" equations "$work/inexact.mech"
contains "stays nonholonomic" out "tie: nonholonomic"
expect "refused by equilibria" 1 "$mech" equilibria "$work/inexact.mech"
contains "says why" err "it is not an exact form"
finish
