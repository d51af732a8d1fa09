# Linkages with redundant constraints, through a singular position, and
# assembled from rough values, against answers worked out by hand:
# - examples/parallelogram_linkage.mech (three parallel cranks, four
#   constraint equations of rank 2): all cranks turn alike as one pendulum
#   of the combined inertia, theta'^2 = 2 k (sin theta0 - sin theta) with
#   k = g (3m/2 + mt) / ((m + mt) l); the reaction on each crank is its own
#   inertia times theta'' less its own gravity torque;
# - radau's DAE form refuses them and says what runs them;
# - a conflicting pair of constraints is an error;
# - the N-four-bar (IFToMM A02, N = 4) for the benchmark's 20 s through
#   its 20 singular positions (all links level, first at t = 0.72 s)
#   against the one-degree-of-freedom reduction written out here and
#   integrated by RK4, to the benchmark's high-precision bound (1e-3 on
#   the reference point) and far below it;
# - examples/slider_crank_flywheel.mech (crank and rod equally long)
#   through 10 singular positions, on its branch, its speed from the energy
#   integral;
# - the same linkage assembled from rough values (only the first crank
#   given) lands on the branch the benchmark means, on the given turn.
source "$(dirname "$0")/lib.sh" "$@"
cd "$root" || exit 1

expect "the redundant parallelogram runs" 0 "$mech" simulate \
  examples/parallelogram_linkage.mech --until 3 --dt 0.01 --rtol 1e-11 --atol 1e-13 \
  -o "$work/par.csv"
contains "the run says the constraints are redundant" err \
  "constraints 'c1', 'c2', 'c3' and 'c4' are redundant here"
contains "and which split of the multipliers it shows" err \
  "the constraints that a pivoted factorization finds dependent on the others carry none"
check_py "parallelogram against the single pendulum of the combined inertia" '
rows = list(csv.DictReader(open(W + "/par.csv")))
assert float(rows[-1]["t"]) == 3 and len(rows) == 301
l, m, mt, g, th0 = 1.0, 1.0, 0.5, 9.81, 0.3
k = g * (1.5 * m + mt) / ((m + mt) * l)
worst = {"equal": 0, "energy": 0, "reaction": 0}
for r in rows:
    th, w = float(r["th1"]), float(r["th1\x27"])
    for c in ("th2", "th3"):
        worst["equal"] = max(worst["equal"], abs(float(r[c]) - th),
                             abs(float(r[c + "\x27"]) - w))
    worst["energy"] = max(worst["energy"], abs(w * w - 2 * k * (math.sin(th0) - math.sin(th))))
    acc = -k * math.cos(th)
    expected = ((m * l * l / 3 + mt * l * l) * acc + (m / 2 + mt) * g * l * math.cos(th),
                m * l * l / 3 * acc + m * g * l / 2 * math.cos(th),
                m * l * l / 3 * acc + m * g * l / 2 * math.cos(th))
    for i, e in enumerate(expected):
        worst["reaction"] = max(worst["reaction"], abs(float(r["reaction%d" % (i + 1)]) - e))
assert worst["equal"] < 1e-9 and worst["energy"] < 1e-7 and worst["reaction"] < 1e-7, worst
'
expect "the interpreter gives the same run" 0 "$mech" simulate \
  examples/parallelogram_linkage.mech --until 3 --dt 0.01 --rtol 1e-11 --atol 1e-13 \
  --backend interp -o "$work/par_interp.csv"
check_py "interpreter and generated code agree on the motion and the reactions" '
a = list(csv.DictReader(open(W + "/par.csv")))
b = list(csv.DictReader(open(W + "/par_interp.csv")))
assert len(a) == len(b)
# The multipliers themselves (one split of the reaction) carry the
# regularized solve rounding, about 1e-9 of their size: not compared.
names = [c for c in a[0] if c.startswith(("th", "reaction"))]
worst = max(abs(float(ra[c]) - float(rb[c])) for ra, rb in zip(a, b) for c in names)
assert worst < 1e-9, worst
'
moving="th1=1, th2=1, th3=1, th1'=2, th2'=2, th3'=2"
expect "eval of the parallelogram in motion" 0 "$mech" eval \
  examples/parallelogram_linkage.mech --at "$moving"
contains "eval says the multipliers are one split" out "are redundant here"
check_py "eval: the reactions by hand" '
text = open(W + "/out").read()
def value(name):
    return float(re.search(r"^\s*" + re.escape(name) + r"\s*=\s*(\S+)", text, re.M).group(1))
l, m, mt, g, th = 1.0, 1.0, 0.5, 9.81, 1.0
acc = -g * (1.5 * m + mt) / ((m + mt) * l) * math.cos(th)
for c in ("th1", "th2", "th3"):           # the table: q, q\x27, q\x27\x27, Q
    row = re.search(r"^\s*" + c + r"\s+\S+\s+\S+\s+(\S+)", text, re.M)
    assert abs(float(row.group(1)) - acc) < 1e-9, row.group(0)
r1 = (m * l * l / 3 + mt * l * l) * acc + (m / 2 + mt) * g * l * math.cos(th)
r2 = m * l * l / 3 * acc + m * g * l / 2 * math.cos(th)
assert abs(value("reaction1") - r1) < 1e-9 and abs(value("reaction2") - r2) < 1e-9
assert abs(value("reaction3") - r2) < 1e-9
'

expect "radau's DAE form refuses redundant constraints, saying what runs them" 1 "$mech" \
  simulate examples/parallelogram_linkage.mech --until 1 --method radau
contains "the refusal names the constraints and the way" err \
  "constraints 'c1', 'c2', 'c3' and 'c4' are redundant at the start, which the DAE form"
expect "radau with the projection form runs them" 0 "$mech" simulate \
  examples/parallelogram_linkage.mech --until 1 --method radau --constraints projection \
  --rtol 1e-10 --atol 1e-12 -o "$work/par_radau.csv"
check_py "radau: the energy integral of the combined pendulum" '
rows = list(csv.DictReader(open(W + "/par_radau.csv")))
k = 9.81 * 2.0 / 1.5
worst = max(abs(float(r["th1\x27"]) ** 2 - 2 * k * (math.sin(0.3) - math.sin(float(r["th1"]))))
            for r in rows)
assert float(rows[-1]["t"]) == 1 and worst < 1e-6, worst
'

expect "conflicting constraints are an error" 1 "$mech" simulate tests/cli/models/conflicting.mech \
  --until 1 -o "$work/conflict.csv"
contains "with the residual" err "violates the constraints (largest residual 1) and cannot be projected"

expect "the N-four-bar runs through its singular positions" 0 "$mech" simulate \
  tests/cli/models/n_four_bar.mech --until 20 --dt 0.05 --rtol 1e-10 --atol 1e-12 \
  -o "$work/nfb.csv"
check_py "N-four-bar against its one-degree-of-freedom reduction" '
rows = list(csv.DictReader(open(W + "/nfb.csv")))
assert float(rows[-1]["t"]) == 20
N, g = 4, 9.81
I = (N + 1) / 3 + N                  # cranks about their pivots, couplers translating
K = ((N + 1) / 2 + N) * g            # their weights times their arms over cos(theta)
f = lambda th, w: (w, -K / I * math.cos(th))
th, w, steps, h, worst, singular = math.pi / 2, -1.0, 0, 2e-4, 0.0, 0
for r in rows:
    while steps < round(float(r["t"]) / h):   # counted: summed steps drift
        steps += 1
        k1 = f(th, w); k2 = f(th + h / 2 * k1[0], w + h / 2 * k1[1])
        k3 = f(th + h / 2 * k2[0], w + h / 2 * k2[1]); k4 = f(th + h * k3[0], w + h * k3[1])
        th += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        w += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    singular = int(math.floor((math.pi / 2 - th) / math.pi + 0.5))  # level cranks passed
    for i in range(N + 1):            # the tips B_i: x = i + cos, y = sin
        q, v = float(r["th[%d]" % i]), float(r["th[%d]\x27" % i])
        worst = max(worst, abs(math.cos(q) - math.cos(th)), abs(math.sin(q) - math.sin(th)),
                    abs(v - w))
    for i in range(1, N + 1):
        worst = max(worst, abs(math.sin(float(r["ph[%d]" % i]))))
assert singular == 20, singular
assert worst < 1e-4, worst     # measured 5e-6; the benchmark asks 1e-3
'

expect "radau (projection form) runs the N-four-bar through them too" 0 "$mech" simulate \
  tests/cli/models/n_four_bar.mech --until 20 --dt 0.05 --rtol 1e-10 --atol 1e-12 \
  --method radau --constraints projection -o "$work/nfb_radau.csv"
check_py "radau: the first crank on the one-degree-of-freedom solution" '
rows = list(csv.DictReader(open(W + "/nfb_radau.csv")))
a = {r["t"]: float(r["th[0]"]) for r in csv.DictReader(open(W + "/nfb.csv"))}
assert float(rows[-1]["t"]) == 20
# Against the dopri5 run checked above (5e-6 from the reduction): the two
# methods agree to their tolerances (measured 5e-5).
worst = max(abs(math.sin(float(r["th[0]"]) - a[r["t"]])) for r in rows)
assert worst < 1e-3, worst
'

expect "the slider-crank with a flywheel runs through its dead centres" 0 "$mech" simulate \
  examples/slider_crank_flywheel.mech --until 4.5 --dt 0.01 --rtol 1e-10 --atol 1e-12 \
  -o "$work/crank.csv"
check_py "slider-crank: on its branch, its speed from the energy integral" '
rows = list(csv.DictReader(open(W + "/crank.csv")))
r, J, mr, ms = 0.1, 0.05, 1.0, 2.0
inertia = lambda p: (J + mr * r * r * (9 * math.sin(p) ** 2 + math.cos(p) ** 2) / 4
                     + mr * r * r / 12 + 4 * ms * r * r * math.sin(p) ** 2)
p0 = float(rows[0]["phi"])
energy = inertia(p0) * float(rows[0]["phi\x27"]) ** 2 / 2
worst, passed = 0.0, 0
for r0 in rows:
    p, w = float(r0["phi"]), float(r0["phi\x27"])
    worst = max(worst, abs(float(r0["psi"]) + p), abs(float(r0["x"]) - 2 * r * math.cos(p)),
                abs(w - math.sqrt(2 * energy / inertia(p))))
    passed = int(math.floor((p - math.pi / 2) / math.pi)) + 1  # dead centres passed
assert passed >= 10, passed
assert worst < 1e-7, worst
'

# The model's init with only the first crank upright: the others start
# level (0), the singular position, and must still be assembled upright.
python3 -c "
import sys
text = open(sys.argv[1]).read()
upright = '  for i in 0..N {\n    init th[i] = pi/2\n  }\n'
assert upright in text
open(sys.argv[2], 'w').write(text.replace(upright, '  init th[0] = pi/2\n'))
" tests/cli/models/n_four_bar.mech "$work/rough.mech"
expect "a rough start is assembled on the branch and turn given" 0 "$mech" simulate \
  "$work/rough.mech" --until 0.01 -o "$work/rough.csv"
check_py "the rough start lands upright, on the turn given" '
r = next(csv.DictReader(open(W + "/rough.csv")))
for i in range(5):
    assert abs(float(r["th[%d]" % i]) - math.pi / 2) < 1e-9, r
for i in range(1, 5):
    assert abs(float(r["ph[%d]" % i])) < 1e-9, r
'
finish
