#!/usr/bin/env bash
# Simulation benchmark: 10 s of the double pendulum at rtol = atol = 1e-10,
# sampled every 0.01 s (mech's default --dt) and written to a CSV, as a whole
# process:
#   mech simulate examples/double_pendulum.mech --until 10 --method dop853
#        --rtol 1e-10 --atol 1e-10 -o out.csv           (and --method dopri5)
# with a cold compiled-kernel cache (fresh XDG_CACHE_HOME) and warm (second
# run, same directory), next to SciPy's solve_ivp (DOP853, and RK45, the same
# Dormand-Prince 5(4) pair as dopri5) on the same equations written by hand
# (bench/scipy_double_pendulum.py), also writing its CSV. For SciPy both the
# whole python process (interpreter start and imports included) and the
# solve_ivp call alone are timed, and a row gives the interpreter start with
# the imports alone. Every time is the minimum of MECH_BENCH_RUNS
# (default 5) rounds; the runs are interleaved within a round.
#
# Agreement: every run's samples are compared with SciPy DOP853 at
# rtol = atol = 1e-13 (the reference, not timed); mech dop853 at 1e-13 is
# compared with the same reference to check that the hand-written equations
# are mech's.
#
# Environment: MECH (default build-bench/mech, built with -j2 if missing),
# MECH_BENCH_RUNS, PYTHON (default /usr/bin/python3, Debian's, with SciPy).
# If SciPy is not importable the SciPy rows are skipped, with a note.
# Prints a Markdown table for bench/README.md.
set -euo pipefail
source "$(dirname "$0")/mech.sh"

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-5}" PYTHON="$python" "$driver" - <<'EOF'
import csv, json, os, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from timing import mech_summary, timed  # noqa: E402

mech, root, python = os.environ["MECH"], os.environ["ROOT"], os.environ["PYTHON"]
runs = int(os.environ["RUNS"])
model = f"{root}/examples/double_pendulum.mech"
scipy_script = f"{root}/bench/scipy_double_pendulum.py"
work = tempfile.mkdtemp(prefix="mech-vs-scipy-")





def run_mech(method, csv_path, cache, tol="1e-10"):
    argv = [mech, "simulate", model, "--until", "10", "--method", method,
            "--rtol", tol, "--atol", tol, "-o", csv_path]
    wall, cpu, _, err = timed(argv, dict(os.environ, XDG_CACHE_HOME=cache))
    s = mech_summary(err)
    return dict(wall=wall, cpu=cpu, nfev=s["nfev"], steps=f"{s['accepted']} + {s['rejected']} rejected",
                integrate=s["integrate"], first=s["first"], cache=s["cache"])


def run_scipy(method, csv_path, tol="1e-10"):
    wall, cpu, out, _ = timed([python, scipy_script, "--method", method, "--rtol", tol,
                               "--atol", tol, "-o", csv_path])
    info = json.loads(out)
    return dict(wall=wall, cpu=cpu, nfev=info["nfev"], integrate=info["seconds"])


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(v) for v in row] for row in rows[1:]]


def max_diff(a, b):
    """Largest |difference| over all samples and columns but t, and at the
    last sample; the grids must be the same."""
    (ha, ra), (hb, rb) = read_csv(a), read_csv(b)
    assert ha == hb and len(ra) == len(rb), (ha, hb, len(ra), len(rb))
    assert all(abs(x[0] - y[0]) < 1e-12 for x, y in zip(ra, rb)), "sampling grids differ"
    every = max(abs(x - y) for p, q in zip(ra, rb) for x, y in zip(p[1:], q[1:]))
    last = max(abs(x - y) for x, y in zip(ra[-1][1:], rb[-1][1:]))
    return every, last


have_scipy = subprocess.run([python, "-c", "import numpy, scipy.integrate"],
                            capture_output=True).returncode == 0

configs = [("mech", "dop853", "cold"), ("mech", "dop853", "warm"),
           ("mech", "dopri5", "cold"), ("mech", "dopri5", "warm")]
if have_scipy:
    configs += [("scipy", "DOP853", "-"), ("scipy", "RK45", "-"), ("imports", "-", "-")]
best, last = {}, {}
csv_of = lambda c: os.path.join(work, "-".join(c) + ".csv")
try:
    for _ in range(runs):
        caches = {}
        for config in configs:
            tool, method, state = config
            if tool == "mech":
                if state == "cold":
                    caches[method] = tempfile.mkdtemp(dir=work)
                r = run_mech(method, csv_of(config), caches[method])
                expected = "miss" if state == "cold" else "hit"
                if r["cache"] != expected:
                    print(f"warning: mech {method} {state}: cache {r['cache']}", file=sys.stderr)
            elif tool == "scipy":
                r = run_scipy(method, csv_of(config))
            else:  # the fixed cost of the SciPy column: interpreter start and imports
                wall, cpu, _, _ = timed([python, "-c", "import numpy, scipy.integrate"])
                r = dict(wall=wall, cpu=cpu, nfev="-")
            last[config] = r
            b = best.setdefault(config, {})
            for key in ("wall", "cpu", "integrate", "first"):
                if key in r:
                    b[key] = min(b.get(key, 1e9), r[key])
        for cache in caches.values():
            shutil.rmtree(cache)

    ref = os.path.join(work, "reference.csv")
    check = os.path.join(work, "mech-1e-13.csv")
    if have_scipy:
        run_scipy("DOP853", ref, tol="1e-13")
        check_run = run_mech("dop853", check, tempfile.mkdtemp(dir=work), tol="1e-13")

    ms = lambda s: f"{s * 1000:.0f}" if s >= 0.0095 else f"{s * 1000:.1f}"
    print(f"machine: {os.cpu_count()} cores, "
          + next(l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
                 if l.startswith('model name'))
          + f"; {time.strftime('%Y-%m-%d')}; minimum of {runs} runs")
    print()
    print("| run | cache | whole process (ms) | CPU (ms) | integration alone (ms; mech's summary prints whole ms) "
          "| rhs evaluations | steps | max abs. difference from reference, all samples / t = 10 |")
    print("|---|---|---|---|---|---|---|---|")
    for config in configs:
        tool, method, state = config
        b, r = best[config], last[config]
        if tool == "imports":
            print(f"| python3 -c 'import numpy, scipy.integrate' (no solve) | - | {ms(b['wall'])} "
                  f"| {ms(b['cpu'])} | - | - | - | - |")
            continue
        name = f"mech simulate --method {method}" if tool == "mech" else \
            f"SciPy solve_ivp {method}"
        alone = ms(b["integrate"]) if tool == "scipy" else \
            f"{b['integrate'] * 1000:.0f}"
        diff = "-"
        if have_scipy:
            every, end = max_diff(csv_of(config), ref)
            diff = f"{every:.1e} / {end:.1e}"
        print(f"| {name} | {state} | {ms(b['wall'])} | {ms(b['cpu'])} | {alone} | {r['nfev']} "
              f"| {r.get('steps', '-')} | {diff} |")
    print()
    if have_scipy:
        every, end = max_diff(check, ref)
        print(f"Equations check: mech dop853 and SciPy DOP853, both at rtol = atol = 1e-13, "
              f"differ by at most {every:.1e} over all 1001 samples ({end:.1e} at t = 10).")
        every, end = max_diff(csv_of(("mech", "dop853", "cold")), csv_of(("scipy", "DOP853", "-")))
        print(f"At 1e-10, mech dop853 and SciPy DOP853 differ by at most {every:.1e} "
              f"({end:.1e} at t = 10).")
    else:
        print(f"SciPy is not importable with {python}: the SciPy rows are skipped.")
finally:
    shutil.rmtree(work)
EOF
