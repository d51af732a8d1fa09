#!/usr/bin/env bash
# Linkage benchmark (bench/README.md, "Linkages: the IFToMM N-four-bar"):
# the IFToMM N-four-bar (benchmark A02: N = 40 loops, 81 coordinates, 80 constraints, 20 s
# through its singular positions; tests/cli/models/n_four_bar.mech) with
# dopri5 (on the back end mech picks, and forced onto the JIT) and radau,
# each with the default solve and with `--constraints augmented`,
# each as a whole process, warm (caches filled by a first run); the error
# of the reference point B0 (the first crank's tip, position and velocity)
# against the one-degree-of-freedom solution on the branch, integrated here
# by SciPy's DOP853 at 1e-13. Every time is the minimum of MECH_BENCH_RUNS
# (default 3) rounds.
# Environment: MECH, MECH_BENCH_RUNS, PYTHON (as bench/impacts.sh).
set -euo pipefail
source "$(dirname "$0")/mech.sh"

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-3}" "$python" - <<'EOF2'
import csv, math, os, sys, tempfile
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from timing import timed  # noqa: E402
from scipy.integrate import solve_ivp

mech, root, runs = os.environ["MECH"], os.environ["ROOT"], int(os.environ["RUNS"])
model = f"{root}/tests/cli/models/n_four_bar.mech"
work = tempfile.mkdtemp(prefix="mech-linkages-")
env = dict(os.environ, XDG_CACHE_HOME=work)
N, g = 40, 9.81
I, K = (N + 1) / 3 + N, ((N + 1) / 2 + N) * g
reference = solve_ivp(lambda t, y: [y[1], -K / I * math.cos(y[0])], [0, 20], [math.pi / 2, -1.0],
                      method="DOP853", rtol=1e-13, atol=1e-13, dense_output=True)

def error(path):
    worst = 0.0
    for row in csv.DictReader(open(path)):
        th, w = reference.sol(float(row["t"]))
        q, v = float(row["th[0]"]), float(row["th[0]'"])
        # B0 = (cos q, sin q), its velocity v (-sin q, cos q): metres and m/s.
        worst = max(worst, math.hypot(math.cos(q) - math.cos(th), math.sin(q) - math.sin(th)),
                    abs(v - w))
    return worst

print("| run | whole process (s) | CPU (s) | steps | B0 error (m, m/s) |")
print("|---|---|---|---|---|")
for name, extra in (("dopri5", []), ("dopri5, --backend jit", ["--backend", "jit"]),
                    ("dopri5, --constraints augmented", ["--constraints", "augmented"]),
                    ("radau, --constraints projection",
                     ["--method", "radau", "--constraints", "projection"]),
                    ("radau, --constraints augmented",
                     ["--method", "radau", "--constraints", "augmented"])):
    out = f"{work}/run.csv"
    argv = [mech, "simulate", model, "--set", "N=40", "--until", "20", "--dt", "0.05",
            "--rtol", "1e-10", "--atol", "1e-12", "-o", out] + extra
    timed(argv, env)  # fills the caches
    best = min((timed(argv, env) for _ in range(runs)), key=lambda r: r[0])
    steps = next(l for l in best[3].splitlines() if "steps accepted" in l).split(":")[1].split(",")[0]
    print(f"| {name} | {best[0]:.2f} | {best[1]:.2f} | {steps.strip()} | {error(out):.1e} |")
EOF2
