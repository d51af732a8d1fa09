#!/usr/bin/env bash
# Stiff models: mech simulate --method radau and bdf (the compiled symbolic
# Jacobian) next to SciPy's solve_ivp(method="Radau") and ("BDF") with an
# analytic Jacobian written by hand, on the same equations and tolerances,
# 10 s sampled every 0.01 s:
#   - examples/overdamped_oscillator.mech (m x'' + c x' + k x = F0 sin t,
#     k = 1e9, c = 1e6): rtol 1e-6, atol 1e-15;
#   - examples/stiff_spring_pendulum.mech (polar r, th; k = 1e6, radial
#     damper c = 2000): rtol 1e-8, atol 1e-10;
#   - examples/stiff_chain.mech (n = 10 masses on stiff damped springs, 20
#     coordinates, its equations and Jacobian derived by SymPy and
#     lambdified for SciPy): rtol 1e-6, atol 1e-8.
# mech is timed as a whole process with a warm kernel cache (its own
# integrate time is shown too); SciPy as the solve_ivp call alone, which
# favours SciPy. Every time is the minimum of MECH_BENCH_RUNS (default 3)
# rounds. Agreement: the largest difference of mech's samples from SciPy
# Radau's at rtol 1e-12 (not timed). DOPRI5's steps show the stiffness.
# Environment: MECH (default build-bench/mech), MECH_BENCH_RUNS, PYTHON
# (default /usr/bin/python3 with SciPy). Prints a Markdown table.
set -euo pipefail
source "$(dirname "$0")/mech.sh"
python="${PYTHON:-/usr/bin/python3}"

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-3}" "$python" - <<'PY'
import csv, math, os, re, subprocess, tempfile, time
import numpy as np
from scipy.integrate import solve_ivp

mech, root, runs = os.environ["MECH"], os.environ["ROOT"], int(os.environ["RUNS"])
work = tempfile.mkdtemp(prefix="mech-stiff-")
env = dict(os.environ, XDG_CACHE_HOME=work + "/cache")
t_eval = np.linspace(0, 10, 1001)

def oscillator():
    m, k, c = 1.0, 1e9, 1e6
    f = lambda t, x: [x[1], (math.sin(t) - c * x[1] - k * x[0]) / m]
    jac = lambda t, x: [[0, 1], [-k / m, -c / m]]
    return f, jac, [0.0, 0.0], 1e-6, 1e-15

def spring_pendulum():
    m, k, c, l0, g = 1.0, 1e6, 2000.0, 1.0, 9.81
    def f(t, x):
        r, th, rd, thd = x
        return [rd, thd, r * thd**2 + g * math.cos(th) - k / m * (r - l0) - c / m * rd,
                -(g * math.sin(th) + 2 * rd * thd) / r]
    def jac(t, x):
        r, th, rd, thd = x
        return [[0, 0, 1, 0], [0, 0, 0, 1],
                [thd**2 - k / m, -g * math.sin(th), -c / m, 2 * r * thd],
                [(g * math.sin(th) + 2 * rd * thd) / r**2, -g * math.cos(th) / r,
                 -2 * thd / r, -2 * rd / r]]
    return f, jac, [l0 + m * g / k, 0.5, 0.0, 0.0], 1e-8, 1e-10

def stiff_chain(n=10):
    # examples/stiff_chain.mech: SymPy derives M, f and the parts of the
    # Jacobian, lambdified with common subexpressions; not timed.
    import sympy as sp
    m, l0, k, c, g = 0.1, 0.1, 1e5, 400.0, 9.81
    r, th = sp.symbols(f"r1:{n + 1}"), sp.symbols(f"th1:{n + 1}")
    rd, thd = sp.symbols(f"rd1:{n + 1}"), sp.symbols(f"thd1:{n + 1}")
    acc = sp.symbols(f"a1:{2 * n + 1}")
    q, qd = list(r) + list(th), list(rd) + list(thd)
    T = V = vx = vy = py = 0
    for j in range(n):
        py += -r[j] * sp.cos(th[j])
        vx += rd[j] * sp.sin(th[j]) + r[j] * sp.cos(th[j]) * thd[j]
        vy += -rd[j] * sp.cos(th[j]) + r[j] * sp.sin(th[j]) * thd[j]
        T += m / 2 * (vx**2 + vy**2)
        V += m * g * py + k / 2 * (r[j] - l0)**2
    D = sum(c / 2 * v**2 for v in rd)
    Tqd = sp.Matrix([T]).jacobian(qd)
    M = Tqd.jacobian(qd)
    f = (sp.Matrix([T]).jacobian(q) - sp.Matrix([V]).jacobian(q) - sp.Matrix([D]).jacobian(qd)).T \
        - Tqd.jacobian(q) * sp.Matrix(qd)
    residual = f - M * sp.Matrix(acc)  # its derivatives with the accelerations held
    args = q + qd
    M_f = sp.lambdify(args, M, cse=True)
    f_f = sp.lambdify(args, f, cse=True)
    dq_f = sp.lambdify(args + list(acc), residual.jacobian(q), cse=True)
    dqd_f = sp.lambdify(args + list(acc), residual.jacobian(qd), cse=True)
    N = 2 * n
    def rhs(t, x):
        a = np.linalg.solve(np.array(M_f(*x), dtype=float), np.array(f_f(*x), dtype=float).ravel())
        return np.concatenate([x[N:], a])
    def jac(t, x):
        Mx = np.array(M_f(*x), dtype=float)
        a = np.linalg.solve(Mx, np.array(f_f(*x), dtype=float).ravel())
        J = np.zeros((2 * N, 2 * N))
        J[:N, N:] = np.eye(N)
        J[N:, :N] = np.linalg.solve(Mx, np.array(dq_f(*x, *a), dtype=float))
        J[N:, N:] = np.linalg.solve(Mx, np.array(dqd_f(*x, *a), dtype=float))
        return J
    x0 = [l0 + (n - j) * m * g / k for j in range(n)] + [0.5] * n + [0.0] * N
    return rhs, jac, x0, 1e-6, 1e-8

cases = [("overdamped oscillator (k = 1e9)", "overdamped_oscillator", oscillator),
         ("stiff spring pendulum (k = 1e6)", "stiff_spring_pendulum", spring_pendulum),
         ("stiff chain, n = 10 (k = 1e5)", "stiff_chain", stiff_chain)]
SUMMARY = re.compile(r"(\d+) steps accepted, \d+ rejected, (\d+) rhs evaluations.*?\n\s+(\d+) "
                     r"Jacobian evaluations.*?integrate ([\d.]+) s", re.S)

print("| model | solver | steps | rhs calls | Jacobians | time (s) | SciPy / mech (process; integrate) | max diff. from reference |")
print("|---|---|---|---|---|---|---|---|")
for title, name, make in cases:
    f, jac, x0, rtol, atol = make()
    ref = solve_ivp(f, (0, 10), x0, method="Radau", jac=jac, rtol=1e-12, atol=atol * 1e-3,
                    t_eval=t_eval).y.T
    model = f"{root}/examples/{name}.mech"
    mech_time, mech_integrate = {}, {}
    for mech_method in ("radau", "bdf"):
        argv = [mech, "simulate", model, "--method", mech_method, "--until", "10", "--rtol",
                str(rtol), "--atol", str(atol), "-o", work + "/out.csv"]
        subprocess.run(argv, env=env, capture_output=True, check=True)  # warm the cache
        best, integrate = math.inf, math.inf
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
            best = min(best, time.perf_counter() - start)
            steps, calls, jacs, seconds = SUMMARY.search(done.stderr).groups()
            integrate = min(integrate, float(seconds))
        rows = np.array([[float(v) for v in row[1:1 + len(x0)]]
                         for row in list(csv.reader(open(work + "/out.csv")))[1:]])
        print(f"| {title} | mech {mech_method} | {steps} | {calls} | {jacs} | {best:.3f} process, "
              f"{integrate:.4f} integrate | - | {np.max(np.abs(rows - ref)):.1e} |")
        mech_time[mech_method], mech_integrate[mech_method] = best, integrate
    for method in ("Radau", "BDF"):
        best = math.inf
        for _ in range(runs):
            start = time.perf_counter()
            sol = solve_ivp(f, (0, 10), x0, method=method, jac=jac, rtol=rtol, atol=atol,
                            t_eval=t_eval)
            best = min(best, time.perf_counter() - start)
        mine = "radau" if method == "Radau" else "bdf"
        print(f"| {title} | SciPy {method} | - | {sol.nfev} | {sol.njev} | {best:.3f} call | "
              f"{best / mech_time[mine]:.1f}x; {best / max(mech_integrate[mine], 1e-4):.0f}x "
              f"(against mech {mine}) | {np.max(np.abs(sol.y.T - ref)):.1e} |")
    dopri = subprocess.run([mech, "simulate", model, "--until", "1", "--rtol", str(rtol), "--atol",
                            str(atol), "-o", "/dev/null"], env=env, capture_output=True, text=True)
    dsteps = re.search(r"(\d+) steps accepted", dopri.stderr).group(1)
    print(f"| {title} | mech dopri5, first second only | {dsteps} | - | - | - | - | - |")
PY
