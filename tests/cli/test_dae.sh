# Constrained models as DAEs: --method radau integrates the stabilised
# index-2 form (q' = v + C^T mu, M v' = f + C^T lambda, 0 = psi, 0 = Phi)
# and keeps the constraints to the tolerance without projection. Against
# closed forms:
# - the Cartesian pendulum from x = 0.6, y = -0.8 at rest crosses x = 0 at
#   the odd quarter periods (2k+1) K(sin(th0/2)) sqrt(l/g), th0 = asin(0.6);
# - a bead on the paraboloid x^2 + y^2 = 2 a z at r = 0.3 with the speed
#   r sqrt(g/a) circles at z = r^2/(2a) with angular rate sqrt(g/a);
# - a bead on a rod turning at w from r = 0.1 at rest along the rod slides
#   out as r = 0.1 cosh(w t) (a rheonomic constraint);
# - the knife edge (a nonholonomic constraint) as with projection.
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
residual='
def residual():
    text = open(W + "/err").read()
    return float(re.search(r"largest constraint residual (\S+) in the output, (\S+) before", text).group(1))'

cat >"$work/pendulum.mech" <<'MECH'
model CartesianPendulum {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle bob mass m at [x, y]
  gravity [0, -g]
  constraint rod: x^2 + y^2 == l^2
  init x = 0.6, y = -0.8
  event crossing: x == 0
}
MECH
expect "Cartesian pendulum, radau as a DAE" 0 "$mech" simulate "$work/pendulum.mech" --method radau \
  --until 5 --rtol 1e-10 --atol 1e-12 --events "$work/events.csv" -o "$work/out.csv"
contains "the DAE form is named" err "note: the constraints are kept by the DAE form (index 2, with the position and velocity constraints), without projection"
check_py "x = 0 at the odd quarter periods, constraint at the tolerance without projection" "$residual
def K(k):
    a, b = 1.0, math.sqrt(1 - k * k)
    for _ in range(8):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)
q = K(math.sin(math.asin(0.6) / 2)) * math.sqrt(1 / 9.81)
times = [float(r['t']) for r in csv.DictReader(open(W + '/events.csv'))]
assert len(times) == 5, times
worst = max(abs(t - (2 * k + 1) * q) for k, t in enumerate(times))
assert worst < 1e-9, worst
assert residual() < 1e-9, residual()"

cp "$root/tests/cli/models/point_on_paraboloid.mech" "$work/paraboloid.mech"
speed=$(python3 -c "import math; print(repr(0.3 * math.sqrt(9.81 / 0.5)))")
expect "paraboloid, radau as a DAE" 0 "$mech" simulate "$work/paraboloid.mech" --method radau \
  --init "y'=$speed" --until 5 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv"
check_py "the bead circles at z = r^2/(2a) with rate sqrt(g/a)" "$residual
w = math.sqrt(9.81 / 0.5)
worst = 0
for r in csv.DictReader(open(W + '/out.csv')):
    t = float(r['t'])
    worst = max(worst, abs(float(r['x']) - 0.3 * math.cos(w * t)), abs(float(r['y']) - 0.3 * math.sin(w * t)), abs(float(r['z']) - 0.09))
assert worst < 1e-7, worst
assert residual() < 1e-9, residual()"

cat >"$work/rod.mech" <<'MECH'
model BeadOnRotatingRod {
  param m = 0.1 [kg], w = 2 [rad/s]
  coord x [m], y [m]
  particle bead mass m at [x, y]
  constraint rod: -x * sin(w * t) + y * cos(w * t) == 0
  init x = 0.1, y = 0, x' = 0, y' = 0.2
}
MECH
expect "bead on a turning rod, radau as a DAE" 0 "$mech" simulate "$work/rod.mech" --method radau \
  --until 2 --rtol 1e-10 --atol 1e-12 -o "$work/out.csv"
check_py "the bead slides out as r = 0.1 cosh(w t), on the rod" "$residual
worst = 0
for r in csv.DictReader(open(W + '/out.csv')):
    t = float(r['t'])
    R = 0.1 * math.cosh(2 * t)
    worst = max(worst, abs(float(r['x']) - R * math.cos(2 * t)) / R, abs(float(r['y']) - R * math.sin(2 * t)) / R)
assert worst < 1e-8, worst
assert residual() < 1e-8, residual()"

expect "knife edge, radau as a DAE" 0 "$mech" simulate examples/knife_edge.mech --method radau \
  --until 5 --rtol 1e-10 --atol 1e-12 -o "$work/dae.csv"
cp "$work/err" "$work/dae.err"
expect "knife edge, dop853 with projection" 0 "$mech" simulate examples/knife_edge.mech --method dop853 \
  --until 5 --rtol 1e-12 --atol 1e-12 -o "$work/dop853.csv"
check_py "the nonholonomic DAE follows dop853" "
a = list(csv.reader(open(W + '/dae.csv')))[1:]
b = list(csv.reader(open(W + '/dop853.csv')))[1:]
assert len(a) == len(b)
d = max(abs(float(x) - float(y)) for ra, rb in zip(a, b) for x, y in zip(ra[1:7], rb[1:7]))
assert d < 1e-7, d
text = open(W + '/dae.err').read()
r = float(re.search(r'largest constraint residual (\S+)', text).group(1))
assert r < 1e-9, r"

# --constraints projection: radau as before, the state projected.
expect "radau with --constraints projection" 0 "$mech" simulate "$work/pendulum.mech" --method radau \
  --constraints projection --until 1 -o /dev/null
lacks "no DAE note" err "DAE form"
contains "projected samples" err "before projection"

expect "--constraints dae needs radau" 1 "$mech" simulate "$work/pendulum.mech" --constraints dae
contains "says so" err "--constraints dae needs --method radau"
expect "--baumgarte with the DAE form" 1 "$mech" simulate "$work/pendulum.mech" --method radau --baumgarte 1,1
contains "says what to do" err "give --constraints projection"
expect "--no-projection with the DAE form" 1 "$mech" simulate "$work/pendulum.mech" --method radau --no-projection
contains "names the option" err "--no-projection: radau integrates a constrained model as a DAE"
expect "--constraints on an unconstrained model is harmless" 0 "$mech" simulate examples/double_pendulum.mech --method radau --constraints dae --until 0.1 -o /dev/null
finish
