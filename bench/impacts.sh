#!/usr/bin/env bash
# Impacts benchmark (bench/README.md, "Impacts"), side by side in one run:
#
# 1. The bouncing ball (bench/bouncing_ball.mech: m = 1 kg, g = 9.81, dropped
#    from 1 m onto a floor with restitution e = 0.8) until it rests (at
#    9 sqrt(2 h / g) = 4.0637 s) and beyond, to 5 s, against the free fall of
#    the same ball without the floor (bench/free_fall.mech) over the same time
#    and output grid:
#      mech simulate MODEL --until 5 -o out.csv
#    as whole processes, warm (the kernel cache filled by a first run).
#
# 2. The rimless wheel (examples/rimless_wheel.mech) for 100 steps at
#    rtol = atol = 1e-10, sampled every 0.01 s, its impacts written to a file:
#      mech simulate examples/rimless_wheel.mech --until T --method dop853
#           --rtol 1e-10 --atol 1e-10 -o out.csv --events ev.csv
#    (and --method dopri5), cold (fresh XDG_CACHE_HOME) and warm, against
#    SciPy's solve_ivp (DOP853, and RK45 for dopri5's pair) with a terminal
#    event at phi = gamma + alpha (direction up) and a loop that applies the
#    reset and restarts, on the same equations written by hand
#    (bench/scipy_rimless_wheel.py), writing the same CSV and event rows.
#    T is chosen by a first (untimed) mech run: halfway between the 100th
#    and the 101st impact, rounded to 0.1 s; every timed run must make 100
#    impacts. SciPy is timed as a whole process and its solve loop alone
#    (every solve_ivp call and the resets, timed inside the process); a row
#    gives the interpreter start with the imports alone. mech's "integration
#    alone" is its summary's integrate figure, which includes sampling and
#    writing the CSV rows; two more mech rows run with --dt T (two samples)
#    to time the integration and the impacts without them.
#
# Agreement: the impact times of each mech run against SciPy's run of the
# same pair (dop853 / DOP853, dopri5 / RK45) and against the exact ones: the
# flight between two impacts is the quadrature of dt = dphi / phi' from the
# energy (Gauss-Legendre, 40 points: to 1e-14), given the speed after the
# reset, so the exact impact times follow from the initial state alone.
#
# Every time is the minimum of MECH_BENCH_RUNS (default 20) rounds; the runs
# are interleaved within a round.
# Environment: MECH (default build-bench/mech, built with -j2 if missing),
# MECH_BENCH_RUNS, PYTHON (default /usr/bin/python3, Debian's, with SciPy:
# apt-get install python3-scipy). If SciPy is not importable the SciPy rows
# are skipped, with a note. Prints Markdown tables for bench/README.md.
set -euo pipefail
source "$(dirname "$0")/mech.sh"

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-20}" PYTHON="$python" "$driver" - <<'EOF'
import csv, json, math, os, re, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from timing import mech_summary, timed  # noqa: E402

mech, root, python = os.environ["MECH"], os.environ["ROOT"], os.environ["PYTHON"]
runs = int(os.environ["RUNS"])
ball, fall = f"{root}/bench/bouncing_ball.mech", f"{root}/bench/free_fall.mech"
wheel = f"{root}/examples/rimless_wheel.mech"
scipy_script = f"{root}/bench/scipy_rimless_wheel.py"
work = tempfile.mkdtemp(prefix="mech-impacts-")
STEPS = 100
TOL = "1e-10"

CONTACT = re.compile(r"contact floor: (\d+) impacts.*?came to rest at t = ([\d.eE+-]+)")




def run_mech(argv, cache):
    wall, cpu, _, err = timed([mech, "simulate"] + argv, dict(os.environ, XDG_CACHE_HOME=cache))
    s = mech_summary(err)
    r = dict(wall=wall, cpu=cpu, nfev=s["nfev"], steps=f"{s['accepted']} + {s['rejected']} rejected",
             integrate=s["integrate"], cache=s["cache"], stderr=err)
    c = CONTACT.search(err)
    if c:
        r["impacts"], r["rest"] = int(c.group(1)), float(c.group(2))
    return r


def wheel_argv(method, until, csv_path, events, tol=TOL, dt="0.01"):
    return [wheel, "--until", until, "--dt", dt, "--method", method, "--rtol", tol,
            "--atol", tol, "-o", csv_path, "--events", events]


def run_scipy(method, until, csv_path, events, tol=TOL):
    wall, cpu, out, _ = timed([python, scipy_script, "--method", method, "--until", until,
                               "--rtol", tol, "--atol", tol, "-o", csv_path,
                               "--events", events])
    info = json.loads(out)
    return dict(wall=wall, cpu=cpu, nfev=info["nfev"], integrate=info["seconds"],
                impacts=info["impacts"])


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def impact_times(path):
    """The times of the `step` rows of an --events file."""
    _, rows = read_csv(path)
    return [float(r[1]) for r in rows if r[0] == "step"]


def wheel_params():
    """m, l, g, alpha, gamma and (phi, phi') at t = 0, read from the .mech
    file by the SciPy script's reader (importable without SciPy)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("scipy_rimless_wheel", scipy_script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.read_model(wheel)


def exact_impact_times(count):
    """The exact impact times: each flight from phi = gamma - alpha with speed
    w to phi = gamma + alpha lasts the integral of dphi / sqrt(w^2 +
    2 g / l (cos(gamma - alpha) - cos(phi))) (the speed stays positive); the
    speed before the impact follows from the energy, the one after it from
    the reset. None without numpy."""
    try:
        import numpy as np
    except ImportError:
        return None
    (m, l, g, alpha, gamma), (phi0, w) = wheel_params()
    lo, hi = gamma - alpha, gamma + alpha
    assert abs(phi0 - lo) < 1e-15, "the wheel must start on a fresh stance spoke"
    x, weight = np.polynomial.legendre.leggauss(40)
    phi = lo + (hi - lo) * (x + 1) / 2
    t, times = 0.0, []
    for _ in range(count):
        speed = np.sqrt(w * w + 2 * g / l * (math.cos(lo) - np.cos(phi)))
        t += float(np.sum(weight / speed)) * (hi - lo) / 2
        times.append(t)
        w = math.cos(2 * alpha) * math.sqrt(w * w + 2 * g / l * (math.cos(lo) - math.cos(hi)))
    return times


def max_dt(a, b):
    assert len(a) == len(b), (len(a), len(b))
    return max(abs(x - y) for x, y in zip(a, b))


have_scipy = subprocess.run([python, "-c", "import numpy, scipy.integrate"],
                            capture_output=True).returncode == 0

load_before = os.getloadavg()[0]
try:
    # The span of 100 steps, from an untimed run (which also fills the warm
    # cache of the wheel's dop853 kernels).
    warm_cache = tempfile.mkdtemp(dir=work)
    probe = os.path.join(work, "probe-events.csv")
    run_mech(wheel_argv("dop853", "130", os.path.join(work, "probe.csv"), probe), warm_cache)
    t = impact_times(probe)
    until = f"{round((t[STEPS - 1] + t[STEPS]) / 2, 1):.1f}"
    assert t[STEPS - 1] < float(until) < t[STEPS], (t[STEPS - 1], until, t[STEPS])

    # The first runs of the ball and the free fall fill their caches.
    ball_csv, fall_csv = os.path.join(work, "ball.csv"), os.path.join(work, "fall.csv")
    ball_events = os.path.join(work, "ball-events.csv")
    run_mech([ball, "--until", "5", "-o", ball_csv, "--events", ball_events], warm_cache)
    run_mech([fall, "--until", "5", "-o", fall_csv], warm_cache)

    configs = [("ball", "-", "warm"), ("fall", "-", "warm"),
               ("mech", "dop853", "cold"), ("mech", "dop853", "warm"),
               ("mech", "dopri5", "cold"), ("mech", "dopri5", "warm"),
               ("mech", "dop853", "warm, 2 samples"), ("mech", "dopri5", "warm, 2 samples")]
    if have_scipy:
        configs += [("scipy", "DOP853", "-"), ("scipy", "RK45", "-"), ("imports", "-", "-")]
    best, last = {}, {}
    name_of = lambda c: os.path.join(work, "-".join(c))
    for _ in range(runs):
        caches = {}
        for config in configs:
            tool, method, state = config
            csv_path, events = name_of(config) + ".csv", name_of(config) + "-events.csv"
            if tool == "ball":
                r = run_mech([ball, "--until", "5", "-o", csv_path], warm_cache)
            elif tool == "fall":
                r = run_mech([fall, "--until", "5", "-o", csv_path], warm_cache)
            elif tool == "mech":
                if state == "cold":
                    caches[method] = tempfile.mkdtemp(dir=work)
                dt = until if "2 samples" in state else "0.01"
                # warm: the directory of this round's cold run
                r = run_mech(wheel_argv(method, until, csv_path, events, dt=dt), caches[method])
                r["impacts"] = len(impact_times(events))
            elif tool == "scipy":
                r = run_scipy(method, until, csv_path, events)
            else:  # the fixed cost of the SciPy column: interpreter start and imports
                wall, cpu, _, _ = timed([python, "-c", "import numpy, scipy.integrate"])
                r = dict(wall=wall, cpu=cpu)
            if tool in ("ball", "fall", "mech"):
                expected = "hit" if state.startswith("warm") else "miss"
                if r["cache"] != expected:
                    print(f"warning: {config}: cache {r['cache']}", file=sys.stderr)
            if tool in ("mech", "scipy") and r["impacts"] != STEPS:
                raise RuntimeError(f"{config}: {r['impacts']} impacts, not {STEPS}")
            last[config] = r
            b = best.setdefault(config, {})
            for key in ("wall", "cpu", "integrate"):
                if key in r:
                    b[key] = min(b.get(key, 1e9), r[key])
        for cache in caches.values():
            shutil.rmtree(cache)

    ms = lambda s: f"{s * 1000:.0f}" if s >= 0.0095 else f"{s * 1000:.1f}"
    model = next(l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
                 if l.startswith('model name'))
    print(f"machine: {os.cpu_count()} cores, {model}; {time.strftime('%Y-%m-%d')}; "
          f"minimum of {runs} rounds; load average {load_before:.2f} before, "
          f"{os.getloadavg()[0]:.2f} after")
    print()

    # 1. The ball against the free fall.
    h, g, e = 1.0, 9.81, 0.8
    t0 = math.sqrt(2 * h / g)
    rest_exact = t0 * (1 + 2 * e / (1 - e))
    b_ball, b_fall = best[("ball", "-", "warm")], best[("fall", "-", "warm")]
    r_ball, r_fall = last[("ball", "-", "warm")], last[("fall", "-", "warm")]
    print("| run (warm, --until 5, samples every 0.01 s) | whole process (ms) | CPU (ms) "
          "| integrate (ms; summary, whole ms) | steps | impacts | at rest from t (s) "
          "| ball / free fall: whole process; CPU |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| free fall (bench/free_fall.mech) | {ms(b_fall['wall'])} | {ms(b_fall['cpu'])} "
          f"| {b_fall['integrate'] * 1000:.0f} | {r_fall['steps']} | - | - | 1 |")
    print(f"| bouncing ball, e = 0.8 (bench/bouncing_ball.mech) | {ms(b_ball['wall'])} "
          f"| {ms(b_ball['cpu'])} | {b_ball['integrate'] * 1000:.0f} | {r_ball['steps']} "
          f"| {r_ball['impacts']} | {r_ball['rest']:.10f} "
          f"| {b_ball['wall'] / b_fall['wall']:.2f}x; {b_ball['cpu'] / b_fall['cpu']:.2f}x |")
    print()
    (_, rows_b), (_, rows_f) = read_csv(name_of(("ball", "-", "warm")) + ".csv"), \
        read_csv(name_of(("fall", "-", "warm")) + ".csv")
    before = [(p, q) for p, q in zip(rows_b, rows_f) if float(p[0]) < t0 - 1e-9]
    flight = max(abs(float(x) - float(y)) for p, q in before for x, y in zip(p[:3], q[:3]))
    end = rows_b[-1]
    print(f"Ball: at rest from t = {r_ball['rest']:.12g} s (closed form "
          f"9 sqrt(2 h / g) = {rest_exact:.12g} s, difference "
          f"{abs(r_ball['rest'] - rest_exact):.1e}); at t = 5 y = {float(end[1]):.1e} m, "
          f"y' = {float(end[2]):.1e} m/s, floor force {float(end[3]):.6g} N (m g = 9.81 N); "
          f"{len(rows_b)} CSV rows against the free fall's {len(rows_f)} (two per impact); "
          f"before the first impact the two CSVs differ by at most {flight:.1e}.")
    print()

    # 2. The rimless wheel against SciPy.
    exact = exact_impact_times(STEPS)
    pair = {"dop853": "DOP853", "dopri5": "RK45"}
    times = {c: impact_times(name_of(c) + "-events.csv")
             for c in configs if c[0] in ("mech", "scipy")}
    print(f"Rimless wheel: --until {until} (the 100th impact at t = {t[STEPS - 1]:.4f}, "
          f"the 101st at {t[STEPS]:.4f}), rtol = atol = {TOL}, samples every 0.01 s.")
    print()
    print("| run | cache | whole process (ms) | CPU (ms) | integration alone (ms; mech's "
          "summary prints whole ms) | rhs evaluations | steps | impacts "
          "| impact times: max difference from the other tool's run | from the exact times "
          "| SciPy / mech warm, whole process: wall; CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for config in configs:
        tool, method, state = config
        if tool in ("ball", "fall"):
            continue
        b, r = best[config], last[config]
        if tool == "imports":
            print(f"| python3 -c 'import numpy, scipy.integrate' (no solve) | - | {ms(b['wall'])} "
                  f"| {ms(b['cpu'])} | - | - | - | - | - | - | - |")
            continue
        other = "-"
        if have_scipy:
            match = ("scipy", pair[method], "-") if tool == "mech" else \
                ("mech", {v: k for k, v in pair.items()}[method], "warm")
            other = f"{max_dt(times[config], times[match]):.1e}"
        vs_exact = f"{max_dt(times[config], exact):.1e}" if exact else "-"
        if tool == "mech":
            name, alone, speedup = f"mech simulate --method {method}", \
                f"{b['integrate'] * 1000:.0f}", "-"
            if "2 samples" in state:
                name += f" --dt {until}"
        else:
            name, alone = f"SciPy solve_ivp {method}, event + restart loop", ms(b["integrate"])
            mine = best[("mech", {v: k for k, v in pair.items()}[method], "warm")]
            speedup = f"{b['wall'] / mine['wall']:.1f}x; {b['cpu'] / mine['cpu']:.1f}x"
        print(f"| {name} | {state} | {ms(b['wall'])} | {ms(b['cpu'])} | {alone} | {r['nfev']} "
              f"| {r.get('steps', '-')} | {r['impacts']} | {other} | {vs_exact} | {speedup} |")
    print()
    if have_scipy:
        for m, s in pair.items():
            sp, me = best[("scipy", s, "-")], best[("mech", m, "warm")]
            print(f"SciPy {s} against mech {m} (warm): whole process {sp['wall'] / me['wall']:.1f}x "
                  f"(CPU {sp['cpu'] / me['cpu']:.1f}x); SciPy's solve loop alone against mech's "
                  f"whole process {sp['integrate'] / me['wall']:.1f}x, against mech's integrate "
                  f"{sp['integrate'] / max(me['integrate'], 5e-4):.0f}x.")
        for m, s in pair.items():
            sp, me = best[("scipy", s, "-")], best[("mech", m, "warm, 2 samples")]
            print(f"SciPy {s}'s solve loop against mech {m}'s integrate with 2 samples "
                  f"(the integration and the impacts, no CSV rows to format): "
                  f"{sp['integrate'] / max(me['integrate'], 5e-4):.0f}x.")
        for m, s in pair.items():
            d = max_dt(times[("mech", m, "warm")], times[("scipy", s, "-")])
            print(f"Impact times, mech {m} against SciPy {s}: largest difference {d:.1e} "
                  f"({'within' if d <= 1e-8 else 'NOT within'} 1e-8).")
    else:
        print(f"SciPy is not importable with {python}: the SciPy rows are skipped "
              f"(Debian: apt-get install python3-scipy).")
    if exact:
        _, rows = read_csv(name_of(("mech", "dop853", "warm")) + "-events.csv")
        (m_, l_, g_, alpha, gamma), _ = wheel_params()
        late = max(float(r[2]) - (gamma + alpha) for r in rows)
        print(f"mech dop853: the largest phi - (gamma + alpha) at an impact is {late:.1e} rad "
              f"(the event's residual).")
        # Untimed: both dop853 at 1e-13, against the exact times.
        tight = {}
        m_csv, m_ev = os.path.join(work, "tight-mech.csv"), os.path.join(work, "tight-mech-ev.csv")
        run_mech(wheel_argv("dop853", until, m_csv, m_ev, tol="1e-13"), warm_cache)
        tight["mech dop853"] = max_dt(impact_times(m_ev), exact)
        if have_scipy:
            s_csv, s_ev = os.path.join(work, "tight-scipy.csv"), os.path.join(work, "tight-scipy-ev.csv")
            run_scipy("DOP853", until, s_csv, s_ev, tol="1e-13")
            tight["SciPy DOP853"] = max_dt(impact_times(s_ev), exact)
        print("At rtol = atol = 1e-13 (untimed), impact times against the exact ones: "
              + ", ".join(f"{k} {v:.1e}" for k, v in tight.items()) + ".")
finally:
    shutil.rmtree(work)
EOF
