#!/usr/bin/env bash
# The gallery of textbook models in examples/: every file checks and runs,
# and each gallery model reproduces at least one closed-form result of the
# textbooks. The expected numbers are computed here, in Python from the
# formula, never taken from mech itself.
# Usage: test_gallery.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

# py NAME CODE: runs CODE with `d` (the JSON of the last saved output) or
# `rows` (its CSV rows as floats, header dropped), math and sys at hand.
py() {
  expect "$1" 0 python3 -c "import json, math, sys
text = open(sys.argv[1]).read()
d = json.loads(text) if text.lstrip().startswith('{') else None
rows = None if d else [[float(x) for x in line.split(',')] for line in text.split()[1:]]
def close(got, want, rel, what=''):
    assert abs(got - want) <= rel * abs(want), (what, got, want, abs(got - want) / abs(want))
$2" "$work/saved"
}
g=9.81

# (a) Every example checks, is canonically formatted (except
# double_pendulum, the README's hand-aligned first model, which run.sh needs
# unformatted, and two older non-gallery examples), and runs for half a
# second; the statics models also solve.
for example in examples/*.mech; do
  name="$(basename "$example" .mech)"
  expect "$name checks" 0 "$mech" check "$example"
  case "$name" in
    double_pendulum | driven_rod | moving_support) ;;
    *) expect "$name is formatted" 0 "$mech" fmt --check "$example" ;;
  esac
  expect "$name simulates" 0 "$mech" simulate "$example" --until 0.5 -o "$work/$name.csv"
done
expect "slider-crank solves" 0 "$mech" solve examples/slider_crank.mech --at "phi = 60 [deg]" --for M
expect "toggle press solves" 0 "$mech" solve examples/toggle_press.mech --at "alpha = 10 [deg]" --for F

# (b) Closed forms, model by model.

# Bead on a swinging (massless) rod: polar coordinates of a free particle,
# so s'' = s*phi'^2 + g*cos(phi) and phi'' = -(2*s'*phi' + g*sin(phi))/s
# (Newton's law in polar coordinates: radial and transverse acceleration),
# and a bead released at rest falls straight down: y = y0 - g*t^2/2.
expect "bead eval" 0 "$mech" eval examples/bead_on_rod.mech --at "s=0.5, phi=0.4, s'=0.3, phi'=1.1" --json
save
py "bead accelerations" "
s, p, sd, pd = 0.5, 0.4, 0.3, 1.1
close(d['qdd']['s'], s * pd**2 + $g * math.cos(p), 1e-9, 's')
close(d['qdd']['phi'], -(2 * sd * pd + $g * math.sin(p)) / s, 1e-9, 'phi')"
expect "bead falls" 0 "$mech" simulate examples/bead_on_rod.mech --until 0.3 --dt 0.1 --rtol 1e-10 --atol 1e-12
save
py "bead free fall" "
t, s, p = rows[-1][:3]
assert t == 0.3, rows
close(s * math.sin(p), 0.5 * math.sin(0.4), 1e-7, 'x')
close(-s * math.cos(p), -0.5 * math.cos(0.4) - $g * t**2 / 2, 1e-7, 'y')"

# Plank on a fixed cylinder (the classic rocking plank): its centre is at
# height (R + h)*cos(th) + R*th*sin(th) = R + h + (R - h)*th^2/2 + ..., so
# the level position is stable iff the half thickness h < R, with
# omega^2 = m*g*(R - h)/(I + m*h^2) (the centre moves by h*th at first).
expect "plank" 0 "$mech" equilibria examples/plank_on_cylinder.mech --in "th=-1..1" --json
save
py "plank oscillation" "
m, L, h, R = 1, 1, 0.02, 0.3
[e] = [e for e in d['equilibria'] if abs(e['q']['th']) < 1e-9]
assert e['stable'] is True, e
close(e['frequencies'][0], math.sqrt(m * $g * (R - h) / (m * (L**2 + 4 * h**2) / 12 + m * h**2)), 1e-9)"
expect "thick plank" 0 "$mech" equilibria examples/plank_on_cylinder.mech --in "th=-1..1" --set h=0.4 --json
save
py "thick plank tips over" "
[e] = [e for e in d['equilibria'] if abs(e['q']['th']) < 1e-9]
assert e['stable'] is False, e
close(e['hessian_eigenvalues'][0], 1 * $g * (0.3 - 0.4), 1e-9)"

# Compound pendulum: T = 2*pi*sqrt(I/(m*g*d)), I = m*a^2/12 + m*d^2 about
# the pivot (Huygens-Steiner; any mechanics text).
for dist in 0.3 0.1; do
  expect "compound pendulum d=$dist" 0 "$mech" equilibria examples/compound_pendulum.mech --set d=$dist --json
  save
  py "compound pendulum period d=$dist" "
m, a, dd = 2, 1, $dist
[e] = [e for e in d['equilibria'] if e['stable']]
close(2 * math.pi / e['frequencies'][0], 2 * math.pi * math.sqrt((m * a**2 / 12 + m * dd**2) / (m * $g * dd)), 1e-9)"
done

# Disk rolling down an incline: a = g*sin(alpha)/(1 + I/(m*R^2)) =
# 2/3*g*sin(alpha), held by the friction m*g*sin(alpha)/3 up the slope.
for alpha in 30 12; do
  expect "rolling disk $alpha deg" 0 "$mech" eval examples/rolling_disk.mech --set "alpha=$alpha [deg]" --json
  save
  py "rolling disk acceleration $alpha deg" "
sa = math.sin(math.radians($alpha))
close(d['qdd']['x'], 2 / 3 * $g * sa, 1e-9, 'a')
close(d['lambda']['roll'], -$g * sa / 3, 1e-9, 'lambda')
close(d['outputs']['friction'], $g * sa / 3, 1e-9, 'friction')"
done
expect "rolling disk run" 0 "$mech" simulate examples/rolling_disk.mech --until 1 --dt 0.5
save
py "rolling disk distance" "
t, x, phi = rows[-1][:3]
close(x, 2 / 3 * $g * 0.5 * t**2 / 2, 1e-6, 'x')
close(phi, x / 0.2, 1e-6, 'rolling')"

# Double pendulum: det(K - w^2 M) = 0 gives
# w^2 = g/(2*(1 - mu)*l1*l2) * (l1 + l2 -+ sqrt((l1 + l2)^2 - 4*(1 - mu)*l1*l2)),
# mu = m2/(m1 + m2) (the double pendulum of Landau-Lifshitz, Mechanics,
# section 23).
expect "double pendulum modes" 0 "$mech" equilibria examples/double_pendulum.mech --json
save
py "double pendulum frequencies" "
m1, m2, l1, l2 = 1, 1, 1, 0.8
mu = m2 / (m1 + m2)
root = math.sqrt((l1 + l2)**2 - 4 * (1 - mu) * l1 * l2)
want = [math.sqrt($g / (2 * (1 - mu) * l1 * l2) * (l1 + l2 + s * root)) for s in (-1, 1)]
[e] = [e for e in d['equilibria'] if e['stable']]
got = sorted(e['frequencies'])
close(got[0], want[0], 1e-9); close(got[1], want[1], 1e-9)"

# Kapitza's pendulum: the inverted position is stable when a^2*w^2 > 2*g*l,
# and the slow swing about it has Omega^2 = a^2*w^2/(2*l^2) - g/l (Landau-
# Lifshitz, Mechanics, section 30, problem 1). The fast motion is averaged
# out over one period 2*pi/w before timing the slow swing.
# The period is timed with a faster, smaller drive than the file's (the
# same a*w), where the averaging is sharper; samples are 1/200 of the
# drive's period apart.
expect "kapitza" 0 "$mech" simulate examples/kapitza_pendulum.mech --until 10 --dt 0.01
save
py "kapitza stays up" "
assert 0.18**2 * 35**2 > 2 * $g * 1
assert max(abs(r[1] - math.pi) for r in rows) < 0.3, 'fell'"
step="$(python3 -c "import math; print(2 * math.pi / 70 / 200)")"
expect "kapitza fast" 0 "$mech" simulate examples/kapitza_pendulum.mech --set w=70 --set a=0.09 --until 12 --dt "$step"
save
py "kapitza slow period" "
l, a, w, h = 1, 0.09, 70, $step
assert max(abs(r[1] - math.pi) for r in rows) < 0.3, 'fell'
sums = [0]
for r in rows:
    sums.append(sums[-1] + r[1])
mean = [(sums[i + 200] - sums[i]) / 200 for i in range(len(rows) - 200)]
t = [rows[i][0] + 199 * h / 2 for i in range(len(mean))]
up = [t[i - 1] + (math.pi - mean[i - 1]) / (mean[i] - mean[i - 1]) * h
      for i in range(1, len(mean)) if mean[i - 1] < math.pi <= mean[i]]
assert len(up) >= 5, up
close((up[-1] - up[0]) / (len(up) - 1), 2 * math.pi / math.sqrt(a**2 * w**2 / (2 * l**2) - $g / l), 0.02)"
expect "kapitza too slow" 0 "$mech" simulate examples/kapitza_pendulum.mech --until 10 --dt 0.01 --set w=20
save
py "kapitza falls when a^2*w^2 < 2*g*l" "
assert 0.18**2 * 20**2 < 2 * $g * 1
assert max(abs(r[1] - math.pi) for r in rows) > 1, 'stayed up'"

# Spherical pendulum: th'' = sin(th)*cos(th)*phi'^2 - g/l*sin(th), and the
# conical pendulum phi'^2 = g/(l*cos(th)) keeps th constant.
expect "spherical pendulum" 0 "$mech" eval examples/spherical_pendulum.mech --at "th=0.8, th'=0.3, phi'=2" --json
save
py "spherical pendulum accelerations" "
th, thd, pd = 0.8, 0.3, 2
close(d['qdd']['th'], math.sin(th) * math.cos(th) * pd**2 - $g * math.sin(th), 1e-9, 'th')
close(d['qdd']['phi'], -2 * thd * pd * math.cos(th) / math.sin(th), 1e-9, 'phi')"
conical="$(python3 -c "import math; print(math.sqrt($g / math.cos(0.8)))")"
expect "conical pendulum" 0 "$mech" simulate examples/spherical_pendulum.mech --until 2 --dt 1 --init "th=0.8, phi'=$conical" --rtol 1e-10 --atol 1e-12
save
py "conical pendulum keeps its angle" "
t, th, phi = rows[-1][:3]
assert abs(th - 0.8) < 1e-7, th
close(phi, $conical * t, 1e-7, 'phi')"

# Heavy symmetric top (Goldstein 5.7): with I1 about the tip, I3 and the
# spin w3 = psi' + phi'*cos(theta),
#   I1*theta'' = I1*phi'^2*sin*cos - I3*w3*phi'*sin + m*g*d*sin (of theta),
# and steady precession at theta0 needs I1*cos*phi'^2 - I3*w3*phi' + m*g*d = 0.
top="m, r, dd = 0.5, 0.1, 0.05
I1, I3 = m * r**2 / 4 + m * dd**2, m * r**2 / 2
def steady(th, w3):
    c = I1 * math.cos(th)
    return (I3 * w3 - math.sqrt((I3 * w3)**2 - 4 * c * m * $g * dd)) / (2 * c)"
expect "top eval" 0 "$mech" eval examples/heavy_top.mech --at "theta=0.7, phi'=3, theta'=0.4, psi'=80" --json
save
py "top nutation equation" "$top
th, pd, psd = 0.7, 3, 80
w3 = psd + pd * math.cos(th)
want = (I1 * pd**2 * math.sin(th) * math.cos(th) - I3 * w3 * pd * math.sin(th) + m * $g * dd * math.sin(th)) / I1
close(d['qdd']['theta'], want, 1e-8)"
state="$(python3 -c "import math
$top
p = steady(0.5, 100)
print(f\"theta=0.5, phi'={p!r}, psi'={100 - p * math.cos(0.5)!r}\")")"
expect "top steady precession" 0 "$mech" simulate examples/heavy_top.mech --until 1 --dt 0.5 --init "$state" --rtol 1e-11 --atol 1e-12
save
py "top precesses steadily" "$top
p = steady(0.5, 100)
t, phi, th = rows[-1][:3]
assert t == 1 and abs(th - 0.5) < 1e-6, rows
close(phi, p * t, 1e-6, 'precession')"
expect "top conserved" 0 "$mech" conserved examples/heavy_top.mech --json
save
py "top has two cyclic angles" "
assert [k['coordinate'] for k in d['cyclic']] == ['phi', 'psi'], d['cyclic']"

# Central field V = -k/r: phi is cyclic, m*r^2*phi' is conserved (Kepler's
# second law), and the orbit closes after T = 2*pi*sqrt(m*a^3/k) with the
# semi-major axis a = -k/(2*E) (Kepler's third law).
expect "central field conserved" 0 "$mech" conserved examples/central_field.mech
contains "angular momentum is conserved" out "phi: p_phi = m*r^2*phi'"
expect "kepler orbit" 0 "$mech" simulate examples/central_field.mech --until 5 --dt 0.001 --rtol 1e-11 --atol 1e-12
save
py "kepler second and third laws" "
m, k, r0, pd0 = 1, 1, 1, 0.8
L0 = m * r0**2 * pd0
assert max(abs(m * r[1]**2 * r[4] - L0) for r in rows) < 1e-8 * L0
a = -k / (2 * (m * (r0 * pd0)**2 / 2 - k / r0))
[i] = [i for i in range(1, len(rows)) if rows[i - 1][2] < 2 * math.pi <= rows[i][2]]
t0, p0, t1, p1 = rows[i - 1][0], rows[i - 1][2], rows[i][0], rows[i][2]
period = t0 + (2 * math.pi - p0) / (p1 - p0) * (t1 - t0)
close(period, 2 * math.pi * math.sqrt(m * a**3 / k), 1e-6)"

# Bead on a rotating hoop: W = V - T0 = -m*g*R*cos(th) - m*R^2*w^2*sin(th)^2/2
# has side minima at cos(th) = g/(w^2*R), where W'' = m*R^2*w^2*sin(th)^2,
# so omega = w*sin(th).
expect "hoop" 0 "$mech" equilibria examples/rotating_hoop.mech --json
save
py "hoop side equilibria" "
R, w = 0.5, 6
th0 = math.acos($g / (w**2 * R))
side = [e for e in d['equilibria'] if abs(abs(e['q']['th']) - th0) < 1e-6]
assert len(side) == 2 and all(e['stable'] for e in side), d
for e in side:
    close(abs(e['q']['th']), th0, 1e-9); close(e['frequencies'][0], w * math.sin(th0), 1e-9)"

# Atwood machine: a = (m1 - m2)*g/(m1 + m2 + J/r^2), J = mp*r^2/2 for a
# disk pulley; the string pulls m1 with m1*(g - a).
for mp in 1 0; do
  expect "atwood mp=$mp" 0 "$mech" eval examples/atwood_machine.mech --set mp=$mp --json
  save
  py "atwood acceleration mp=$mp" "
m1, m2, mp = 3, 2, $mp
a = (m1 - m2) * $g / (m1 + m2 + mp / 2)
close(d['qdd']['x'], a, 1e-9, 'a')
close(d['outputs']['tension1'], m1 * $g * (2 * m2 + mp / 2) / (m1 + m2 + mp / 2), 1e-9, 'tension')"
done

# Cart with a pendulum (the pendulum on a freely moving support of
# Landau-Lifshitz, Mechanics, section 5): with the horizontal momentum zero
# the cart recoils by x = -m*l*th/(M + m), and the swing has
# omega^2 = (M + m)*g/(M*l); the centre of mass stays still:
# (M*x + m*(x + l*sin(th)))/(M + m) = const.
expect "cart linearize" 0 "$mech" linearize examples/cart_pendulum.mech --at "x=0, th=0" --json
save
py "cart pendulum frequency" "
M, m, l = 2, 0.5, 0.6
close(-d['A'][3][1], (M + m) * $g / (M * l), 1e-9, 'omega^2')
close(d['A'][2][1], m * $g / M, 1e-9, 'recoil')"
expect "cart run" 0 "$mech" simulate examples/cart_pendulum.mech --until 1 --dt 0.1 --rtol 1e-10 --atol 1e-12
save
py "cart centre of mass stays" "
M, m, l = 2, 0.5, 0.6
for r in rows:
    assert abs((M * r[1] + m * (r[1] + l * math.sin(r[2]))) - m * l * math.sin(0.3)) < 1e-8, r"
# The equilibria across the family x = arbitrary: the same swing, with the
# cart's recoil in the mode shape.
expect "cart equilibria" 0 "$mech" equilibria examples/cart_pendulum.mech --json
save
py "cart swing with recoil" "
M, m, l = 2, 0.5, 0.6
bottom = [e for e in d['equilibria'] if e['stable']][0]
close(bottom['frequencies'][0], math.sqrt((M + m) * $g / (M * l)), 1e-9, 'omega')
close(bottom['modes'][0][0] / bottom['modes'][0][1], -m * l / (M + m), 1e-9, 'recoil')"

# Slider-crank: M = -P*r*sin(phi + beta)/cos(beta), sin(beta) =
# r*sin(phi)/l (virtual work on the crank and slider).
expect "slider-crank 100 deg" 0 "$mech" solve examples/slider_crank.mech --at "phi = 100 [deg]" --for M --json
save
py "slider-crank couple" "
r, l, P, phi = 0.1, 0.4, 100, math.radians(100)
beta = math.asin(r * math.sin(phi) / l)
close(d['solution']['M'], -P * r * math.sin(phi + beta) / math.cos(beta), 1e-9)"

# Toggle press: F = P/(2*tan(alpha)) (virtual work: P*l*cos(alpha) =
# F*2*l*sin(alpha)).
expect "toggle 25 deg" 0 "$mech" solve examples/toggle_press.mech --at "alpha = 25 [deg]" --for F --json
save
py "toggle press force" "
close(d['solution']['F'], 20 / (2 * math.tan(math.radians(25))), 1e-9)"

# Centrifugal (Porter) governor: W = -2*(m + M)*g*l*cos(th) -
# m*w^2*l^2*sin(th)^2 has its minimum at cos(th) = (m + M)*g/(m*w^2*l),
# with omega^2 = m*w^2*sin(th)^2/(m + 2*M*sin(th)^2); below the critical
# speed th = 0 is stable with omega^2 = (m + M)*g/(m*l) - w^2.
expect "governor" 0 "$mech" equilibria examples/centrifugal_governor.mech --json
save
py "governor opens" "
m, M, l, w = 1, 2, 0.25, 12
th0 = math.acos((m + M) * $g / (m * w**2 * l))
side = [e for e in d['equilibria'] if e['stable']]
assert len(side) == 2, d
for e in side:
    s2 = math.sin(th0)**2
    close(abs(e['q']['th']), th0, 1e-9); close(e['frequencies'][0], math.sqrt(m * w**2 * s2 / (m + 2 * M * s2)), 1e-9)"
expect "governor slow" 0 "$mech" equilibria examples/centrifugal_governor.mech --set w=5 --json
save
py "governor closed below the critical speed" "
[e] = [e for e in d['equilibria'] if e['stable']]
assert e['q']['th'] == 0, e
close(e['frequencies'][0], math.sqrt(3 * $g / 0.25 - 25), 1e-9)"

# n-link chain: one link is the simple pendulum, sqrt(g/l); two equal
# links have omega^2 = (2 -+ sqrt(2))*g/l (the double pendulum with
# m1 = m2, l1 = l2).
expect "chain n=1" 0 "$mech" equilibria examples/chain.mech --set n=1 --json
save
py "chain of one" "
[e] = [e for e in d['equilibria'] if e['stable']]
close(e['frequencies'][0], math.sqrt($g), 1e-9)"
expect "chain n=2" 0 "$mech" equilibria examples/chain.mech --set n=2 --json
save
py "chain of two" "
[e] = [e for e in d['equilibria'] if e['stable']]
got = sorted(e['frequencies'])
close(got[0], math.sqrt((2 - math.sqrt(2)) * $g), 1e-9); close(got[1], math.sqrt((2 + math.sqrt(2)) * $g), 1e-9)"

finish
