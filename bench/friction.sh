#!/usr/bin/env bash
# Friction benchmark (bench/README.md, "Friction"), side by side in one run:
# the stick-slip oscillator of examples/stick_slip.mech (a block on a belt at
# vb = 0.1 m/s held by a spring; mu_s = 0.4, mu_k = 0.3) over 1000 s, about
# 43 stick-slip cycles and 87 switches, rtol = atol = 1e-10, samples every
# 0.1 s, the switches written to a file:
#   mech simulate examples/stick_slip.mech --until 1000 --dt 0.1
#        --method M --rtol 1e-10 --atol 1e-10 -o out.csv --events ev.csv
# with dop853 and dopri5, warm (the kernel cache filled by a first run), and
# with --dt 1000 (two samples: the integration and the switches alone),
# against SciPy's solve_ivp (DOP853 and RK45) one mode at a time with
# terminal events and a restart loop (bench/scipy_stick_slip.py, the
# equations written by hand), as a whole process and its solve loop alone.
# The switch times of every run are compared with the closed form: the block
# sticks until k x = mu_s m g (x = 3.924 m), slips for the tau that solves
# -A w sin(w tau) + vb cos(w tau) = vb (A = (mu_s - mu_k) m g / k, w = 1), and
# sticks again at x = 3.924 - 2 A for (2 A) / vb.
# Every time is the minimum of MECH_BENCH_RUNS (default 10) interleaved rounds.
# Environment: MECH, MECH_BENCH_RUNS, PYTHON (as bench/impacts.sh).
set -euo pipefail
source "$(dirname "$0")/mech.sh"

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-10}" PYTHON="$python" "$driver" - <<'EOF2'
import csv, json, math, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from timing import mech_summary, timed  # noqa: E402

mech, root, python = os.environ["MECH"], os.environ["ROOT"], os.environ["PYTHON"]
runs = int(os.environ["RUNS"])
model, scipy_script = f"{root}/examples/stick_slip.mech", f"{root}/bench/scipy_stick_slip.py"
work = tempfile.mkdtemp(prefix="mech-friction-")
UNTIL, TOL = "1000", "1e-10"


def exact_switches():
    m, k, g, vb, mus, muk = 1.0, 1.0, 9.81, 0.1, 0.4, 0.3
    A, xs = (mus - muk) * m * g / k, mus * m * g / k
    f = lambda tau: -A * math.sin(tau) + vb * math.cos(tau) - vb
    lo, hi = 1.0, 6.0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(lo) * f(mid) > 0 else (lo, mid)
    tau, times, t = (lo + hi) / 2, [0.0], xs / vb
    while t < float(UNTIL):
        times.append(t)
        if t + tau < float(UNTIL):
            times.append(t + tau)
        t += tau + 2 * A / vb
    return times


def switch_times(path):
    with open(path) as f:
        return [float(r["t"]) for r in csv.DictReader(f)]


def run(config, cache):
    tool, method, dt = config
    out, events = os.path.join(work, "-".join(config) + ".csv"), os.path.join(work, "-".join(config) + "-ev.csv")
    if tool == "mech":
        wall, cpu, _, err = timed([mech, "simulate", model, "--until", UNTIL, "--dt", dt, "--method",
                                   method, "--rtol", TOL, "--atol", TOL, "-o", out, "--events", events],
                                  dict(os.environ, XDG_CACHE_HOME=cache))
        s = mech_summary(err)
        if s["cache"] != "hit":
            print(f"warning: {config}: cache {s['cache']}", file=sys.stderr)
        return dict(wall=wall, cpu=cpu, alone=s["integrate"], nfev=s["nfev"],
                    steps=f"{s['accepted']} + {s['rejected']} rejected", times=switch_times(events))
    if tool == "scipy":
        wall, cpu, text, _ = timed([python, scipy_script, "--method", method, "--until", UNTIL,
                                    "--dt", dt, "--rtol", TOL, "--atol", TOL, "-o", out, "--events", events])
        info = json.loads(text)
        return dict(wall=wall, cpu=cpu, alone=info["seconds"], nfev=info["nfev"], steps="-",
                    times=switch_times(events))
    wall, cpu, _, _ = timed([python, "-c", "import numpy, scipy.integrate"])
    return dict(wall=wall, cpu=cpu)


have_scipy = subprocess.run([python, "-c", "import numpy, scipy.integrate"], capture_output=True).returncode == 0
cache = tempfile.mkdtemp(dir=work)
configs = [("mech", "dop853", "0.1"), ("mech", "dopri5", "0.1"), ("mech", "dop853", UNTIL),
           ("mech", "dopri5", UNTIL)]
if have_scipy:
    configs += [("scipy", "DOP853", "0.1"), ("scipy", "RK45", "0.1"), ("scipy", "DOP853", UNTIL),
                ("scipy", "RK45", UNTIL), ("imports", "-", "-")]
for config in configs[:4]:  # fill the cache
    run(config, cache)
load_before = os.getloadavg()[0]
best = {}
for _ in range(runs):
    for config in configs:
        r = run(config, cache)
        b = best.setdefault(config, r)
        for key in ("wall", "cpu", "alone"):
            if key in r:
                b[key] = min(b[key], r[key])
exact = exact_switches()
ms = lambda s: f"{1000 * s:.0f}"
print(f"Stick-slip oscillator, --until {UNTIL} (exact: {len(exact)} switches), rtol = atol = {TOL}; "
      f"load {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
print()
print("| run | whole process (ms) | CPU (ms) | integration alone (ms) | rhs evaluations | steps | "
      "switches | switch times: max from the exact |")
print("|---|---|---|---|---|---|---|---|")
for config, r in best.items():
    tool, method, dt = config
    if tool == "imports":
        print(f"| python3 -c 'import numpy, scipy.integrate' | {ms(r['wall'])} | {ms(r['cpu'])} | - | - | - | - | - |")
        continue
    name = f"mech simulate --method {method}" if tool == "mech" else f"SciPy solve_ivp {method}, events + restarts"
    if dt == UNTIL:
        name += f" --dt {UNTIL} (2 samples)"
    n = min(len(r["times"]), len(exact))
    worst = max(abs(a - b) for a, b in zip(r["times"][:n], exact[:n]))
    print(f"| {name} | {ms(r['wall'])} | {ms(r['cpu'])} | {1000 * r['alone']:.1f} | {r['nfev']} | "
          f"{r['steps']} | {len(r['times'])} | {worst:.1e} |")
print()
if have_scipy:
    for m, s in (("dop853", "DOP853"), ("dopri5", "RK45")):
        me, sp = best[("mech", m, "0.1")], best[("scipy", s, "0.1")]
        two, sp_two = best[("mech", m, UNTIL)], best[("scipy", s, UNTIL)]
        print(f"SciPy {s} / mech {m}: whole process {sp['wall'] / me['wall']:.1f}x (CPU "
              f"{sp['cpu'] / me['cpu']:.1f}x); solve loop / integrate {sp['alone'] / max(me['alone'], 1e-4):.0f}x "
              f"(10,001 samples; mech also formats and writes them), "
              f"{sp_two['alone'] / max(two['alone'], 1e-4):.0f}x (two samples each; mech's "
              f"integrate is printed to 0.1 ms)")
else:
    print(f"SciPy is not importable with {python}: the SciPy rows are skipped")
EOF2
