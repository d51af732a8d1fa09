# `--constraints augmented` (the augmented Lagrangian iteration on
# M + alpha C^T C, runtime/AugmentedSolve.h) against answers worked out by
# hand, on the linkages test_linkages.sh checks with the default solve:
# - examples/parallelogram_linkage.mech (redundant constraints, rank 2 of
#   4): the cranks turn as one pendulum of the combined inertia, and the
#   reaction on each crank (C^T lambda, unique) is its inertia times theta''
#   less its gravity torque; the two back ends give the same bits;
# - the N-four-bar (IFToMM A02, N = 4) through its 20 singular positions
#   against the one-degree-of-freedom reduction, with dopri5 and radau;
#   N = 12, where the factorization runs within the envelope
#   (runtime/EnvelopeSolve.h), likewise for its first 5 s;
# - examples/slider_crank_flywheel.mech through 10 dead centres, its speed
#   from the energy integral;
# - a built library of the N-four-bar (N = 12) keeps the dense solve;
# - a conflicting set is still an error; contacts are refused with the
#   option that runs them.
source "$(dirname "$0")/lib.sh" "$@"
source "$(dirname "$0")/linkage_answers.sh"
cd "$root" || exit 1

expect "the redundant parallelogram runs" 0 "$mech" simulate \
  examples/parallelogram_linkage.mech --until 3 --dt 0.01 --rtol 1e-11 --atol 1e-13 \
  --constraints augmented -o "$work/par.csv"
check_py "parallelogram: the combined pendulum and the reactions by hand" "$parallelogram_answer"'
worst = parallelogram_errors(W + "/par.csv")
assert worst["equal"] < 1e-9 and worst["energy"] < 1e-7 and worst["reaction"] < 1e-7, worst
'
expect "the interpreter runs it too" 0 "$mech" simulate \
  examples/parallelogram_linkage.mech --until 3 --dt 0.01 --rtol 1e-11 --atol 1e-13 \
  --constraints augmented --backend interp -o "$work/par_interp.csv"
identical "both back ends call the same solve: the same bits" par.csv par_interp.csv

# The reduction of the N-four-bar (as in test_linkages.sh): all cranks at
# theta, I theta'' = -K cos(theta), by RK4; the largest error of the tips
# B_i (position and speed) and of the couplers' level, and the level
# crank positions passed.
reduction='
def reduction_error(path, N):
    rows = list(csv.DictReader(open(path)))
    g = 9.81
    I, K = (N + 1) / 3 + N, ((N + 1) / 2 + N) * g
    f = lambda th, w: (w, -K / I * math.cos(th))
    th, w, steps, h, worst = math.pi / 2, -1.0, 0, 2e-4, 0.0
    for r in rows:
        while steps < round(float(r["t"]) / h):
            steps += 1
            k1 = f(th, w); k2 = f(th + h / 2 * k1[0], w + h / 2 * k1[1])
            k3 = f(th + h / 2 * k2[0], w + h / 2 * k2[1]); k4 = f(th + h * k3[0], w + h * k3[1])
            th += h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
            w += h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        for i in range(N + 1):
            q, v = float(r["th[%d]" % i]), float(r["th[%d]\x27" % i])
            worst = max(worst, abs(math.cos(q) - math.cos(th)), abs(math.sin(q) - math.sin(th)),
                        abs(v - w))
        for i in range(1, N + 1):
            worst = max(worst, abs(math.sin(float(r["ph[%d]" % i]))))
    return float(rows[-1]["t"]), int(math.floor((math.pi / 2 - th) / math.pi + 0.5)), worst
'
expect "the N-four-bar runs through its singular positions" 0 "$mech" simulate \
  tests/cli/models/n_four_bar.mech --until 20 --dt 0.05 --rtol 1e-10 --atol 1e-12 \
  --constraints augmented -o "$work/nfb.csv"
contains "and notes them" err "the run passed 20 singular positions of the constraints"
check_py "N-four-bar (N = 4) against its one-degree-of-freedom reduction" "$reduction"'
end, singular, worst = reduction_error(W + "/nfb.csv", 4)
assert end == 20 and singular == 20, (end, singular)
assert worst < 1e-4, worst     # measured 5e-6; the benchmark asks 1e-3
'
expect "radau runs it with the augmented solve" 0 "$mech" simulate \
  tests/cli/models/n_four_bar.mech --until 20 --dt 0.05 --rtol 1e-10 --atol 1e-12 \
  --method radau --constraints augmented -o "$work/nfb_radau.csv"
check_py "radau: the N-four-bar on its reduction" "$reduction"'
end, singular, worst = reduction_error(W + "/nfb_radau.csv", 4)
assert end == 20 and singular == 20, (end, singular)
assert worst < 1e-3, worst
'
expect "N = 12: the envelope's factorization" 0 "$mech" simulate \
  tests/cli/models/n_four_bar.mech --set N=12 --until 5 --dt 0.05 --rtol 1e-10 --atol 1e-12 \
  --constraints augmented -o "$work/nfb12.csv"
check_py "N-four-bar (N = 12) against its reduction" "$reduction"'
end, singular, worst = reduction_error(W + "/nfb12.csv", 12)
assert end == 5 and singular == 5, (end, singular)
assert worst < 1e-4, worst
'

expect "the slider-crank with a flywheel runs through its dead centres" 0 "$mech" simulate \
  examples/slider_crank_flywheel.mech --until 4.5 --dt 0.01 --rtol 1e-10 --atol 1e-12 \
  --constraints augmented -o "$work/crank.csv"
check_py "slider-crank: on its branch, its speed from the energy integral" "$slider_crank_answer"'
worst, passed = slider_crank_errors(W + "/crank.csv")
assert passed >= 10, passed
assert worst < 1e-7, worst
'

# A built library needs no runtime beyond libc: its kernels keep the dense
# solve where the CLI's call the envelope solve (N = 12).
expect "the N-four-bar builds as a library" 0 "$mech" build tests/cli/models/n_four_bar.mech \
  --set N=12 -o "$work/libnfb.so"
if command -v nm >/dev/null; then
  nm -D --undefined-only "$work/libnfb.so" >"$work/out"
  lacks "the library calls no solve of mech's runtime" out "mech_solve"
else
  skip "the library's symbols (no nm on this machine)"
fi

expect "conflicting constraints are still an error" 1 "$mech" simulate \
  tests/cli/models/conflicting.mech --until 1 --constraints augmented -o "$work/conflict.csv"
contains "with the residual" err "violates the constraints (largest residual 1) and cannot be projected"
expect "contacts are refused" 1 "$mech" simulate examples/bouncing_ball.mech --until 1 \
  --constraints augmented -o "$work/contact.csv"
contains "saying what runs them" err "give --constraints projection"
expect "an unknown form is a usage error" 2 "$mech" simulate examples/knife_edge.mech \
  --constraints penalty -o "$work/none.csv"

finish
