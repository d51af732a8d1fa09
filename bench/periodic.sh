#!/usr/bin/env bash
# Periodic-motion benchmark (bench/README.md, "Periodic motions"), side by
# side in one run: the simplest walker's period-one gait (examples/
# simplest_walker.mech, gamma = 0.009) to |P(x) - x| <= 1e-10 by
#   mech periodic examples/simplest_walker.mech --section heel
#        --guess "th=0.2, ph=0.4, th'=-0.2, ph'=-0.016" --json
# warm (caches filled by a first run) and cold (a fresh cache directory
# each run: derivation and compilation included), and its continuation in
# the slope over 50 values from 0.009 to 0.02 (--sweep, with the period
# doubling located), against SciPy shooting as a user writes it by hand
# (bench/scipy_walker.py: solve_ivp DOP853 at 1e-12, Newton with a
# forward-difference Jacobian, the same 50 values), as whole processes and
# the solve alone. The fixed points and the largest multipliers are
# compared between the two.
# Every time is the minimum of MECH_BENCH_RUNS (default 10) interleaved rounds.
# Environment: MECH, MECH_BENCH_RUNS, PYTHON (as bench/impacts.sh).
set -euo pipefail
source "$(dirname "$0")/mech.sh"

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-10}" PYTHON="$python" "$driver" - <<'EOF2'
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
from timing import timed  # noqa: E402

mech, root, python = os.environ["MECH"], os.environ["ROOT"], os.environ["PYTHON"]
runs = int(os.environ["RUNS"])
model, scipy_script = f"{root}/examples/simplest_walker.mech", f"{root}/bench/scipy_walker.py"
work = tempfile.mkdtemp(prefix="mech-periodic-")
warm = tempfile.mkdtemp(dir=work)
base = [mech, "periodic", model, "--section", "heel", "--guess", "th=0.2, ph=0.4, th'=-0.2, ph'=-0.016",
        "--json"]
SWEEP = ["--sweep", "gamma=0.009..0.02:50"]


def run(config):
    env = dict(os.environ, XDG_CACHE_HOME=warm)
    if config == "mech cold":
        env["XDG_CACHE_HOME"] = tempfile.mkdtemp(dir=work)
    if config.startswith("mech"):
        wall, cpu, out, _ = timed(base + (SWEEP if "sweep" in config else []), env)
        return dict(wall=wall, cpu=cpu, result=json.loads(out))
    if config == "imports":
        wall, cpu, _, _ = timed([python, "-c", "import numpy, scipy.integrate"])
        return dict(wall=wall, cpu=cpu)
    wall, cpu, out, _ = timed([python, scipy_script] + (["--sweep", "50"] if "sweep" in config else []))
    result = json.loads(out)
    return dict(wall=wall, cpu=cpu, alone=result["seconds"], result=result)


have_scipy = subprocess.run([python, "-c", "import numpy, scipy.integrate"], capture_output=True).returncode == 0
configs = ["mech warm", "mech cold", "mech sweep"]
if have_scipy:
    configs += ["scipy", "scipy sweep", "imports"]
run("mech warm")  # fill the caches
load_before = os.getloadavg()[0]
best = {}
for _ in range(runs):
    for config in configs:
        r = run(config)
        b = best.setdefault(config, r)
        for key in ("wall", "cpu", "alone"):
            if key in r:
                b[key] = min(b[key], r[key])
ms = lambda s: f"{1000 * s:.0f}"
print(f"Simplest walker, gamma = 0.009 (fixed point to 1e-10) and 50 values to 0.02; "
      f"load {load_before:.2f} before, {os.getloadavg()[0]:.2f} after")
print()
print("| run | whole process (ms) | CPU (ms) | solve alone (ms) |")
print("|---|---|---|---|")
names = {"mech warm": "mech periodic, warm", "mech cold": "mech periodic, cold (fresh cache)",
         "mech sweep": "mech periodic --sweep 50 values, warm",
         "scipy": "SciPy shooting (solve_ivp DOP853, FD Jacobian)",
         "scipy sweep": "SciPy shooting, 50 values", "imports": "python3 -c 'import numpy, scipy.integrate'"}
for config, r in best.items():
    alone = f"{1000 * r['alone']:.1f}" if "alone" in r else "-"
    print(f"| {names[config]} | {ms(r['wall'])} | {ms(r['cpu'])} | {alone} |")
print()
me = best["mech warm"]["result"]
changes = best["mech sweep"]["result"]["changes"]
print(f"mech: fixed point {me['fixed_point']}, period {me['period']:.12f}, "
      f"largest |multiplier| {abs(complex(*me['multipliers'][0])):.9f}; period doubling at gamma = "
      f"{changes[0]['at']:.10f}" if changes else "mech: no change of stability found")
if have_scipy:
    sp = best["scipy"]["result"]
    worst = max(abs(a - b) for a, b in zip(sp["fixed_point"], me["fixed_point"]))
    print(f"SciPy: fixed point {sp['fixed_point']}, period {sp['period']:.12f}, largest |multiplier| "
          f"{sp['moduli'][0]:.9f} (forward differences); max |difference| of the fixed points {worst:.1e}")
    print(f"SciPy / mech: one fixed point {best['scipy']['wall'] / best['mech warm']['wall']:.1f}x whole "
          f"process ({best['scipy']['alone'] / best['mech warm']['wall']:.1f}x SciPy's solve alone against "
          f"mech's whole process); 50 values {best['scipy sweep']['wall'] / best['mech sweep']['wall']:.1f}x "
          f"(mech also locates the period doubling by bisection, SciPy does not)")
else:
    print(f"SciPy is not importable with {python}: the SciPy rows are skipped")
EOF2
