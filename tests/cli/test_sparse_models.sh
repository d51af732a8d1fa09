# A model of many coordinates with a sparse mass matrix and sparse forces
# (tests/cli/models/spring_chain.mech, 100 masses on springs, stiff) with
# the implicit methods: their Newton matrices go to the sparse LU (runtime/
# NewtonLu.h; the summary says so) and M q'' = f is solved within M's
# envelope (runtime/EnvelopeSolve.h), on both back ends alike. The motion
# against the exact one by normal modes: the chain fixed at one end and
# free at the other has the modes v_j(i) = sin(i theta_j), theta_j =
# (2j - 1) pi / (2n + 1), omega_j = 2 sqrt(k/m) sin(theta_j / 2), with
# sum_i v_j(i)^2 = (2n + 1) / 4.
source "$(dirname "$0")/lib.sh" "$@"
cd "$root" || exit 1

exact='
def worst_error(path):
    n, k, m = 100, 1e6, 1.0
    modes = []
    for j in range(1, n + 1):
        theta = (2 * j - 1) * math.pi / (2 * n + 1)
        # x0 = 0.01 at the last mass: its share of mode j.
        share = 0.01 * math.sin(n * theta) / ((2 * n + 1) / 4)
        modes.append((theta, 2 * math.sqrt(k / m) * math.sin(theta / 2), share))
    rows = list(csv.DictReader(open(path)))
    worst = 0.0
    for r in rows:
        t = float(r["t"])
        for i in range(1, n + 1):
            x = sum(share * math.sin(i * theta) * math.cos(w * t) for theta, w, share in modes)
            worst = max(worst, abs(float(r["x[%d]" % i]) - x))
    return float(rows[-1]["t"]), worst
'
for method in radau bdf; do
  expect "$method runs the chain of 100 masses" 0 "$mech" simulate \
    tests/cli/models/spring_chain.mech --until 0.05 --dt 0.005 --method "$method" \
    --rtol 1e-9 --atol 1e-12 -o "$work/$method.csv"
  contains "$method: its Newton matrices by the sparse LU" err "factorizations (sparse LU)"
done
check_py "radau: the normal modes' motion" "$exact"'
end, worst = worst_error(W + "/radau.csv")
assert end == 0.05 and worst < 1e-10, worst   # measured 3.8e-13
'
check_py "bdf: the normal modes' motion" "$exact"'
end, worst = worst_error(W + "/bdf.csv")
assert end == 0.05 and worst < 1e-8, worst    # measured 7e-10
'
expect "the interpreter runs it too" 0 "$mech" simulate tests/cli/models/spring_chain.mech \
  --until 0.05 --dt 0.005 --method radau --rtol 1e-9 --atol 1e-12 --backend interp \
  -o "$work/radau_interp.csv"
identical "both back ends call the same envelope solve: the same bits" radau.csv radau_interp.csv
expect "a small chain keeps the dense LU" 0 "$mech" simulate tests/cli/models/spring_chain.mech \
  --set n=10 --until 0.01 --method radau -o "$work/small.csv"
lacks "no sparse LU below the size" err "sparse LU"

finish
