#!/usr/bin/env bash
# Time from the end of the derivation to the first step for the n-link Chain
# (`examples/chain.mech --set n=N`), the figure the JIT budget is for: past
# kJitBudget operations the kernels are interpreted, and what remains between
# the derivation and the first step is building the kernel programs, the
# initial state and the summary's conserved quantities.
#
# Runs `mech simulate examples/chain.mech --set n=N --until 0.01 -o /dev/null`
# (the first output interval: the integration itself is a few steps) and
# reads mech's summary line "time: derive D s, compile C s ...; first step F s
# after start"; the gap is F - D (both from mech's clock, so the process
# start-up before main is in neither). Whole process, CPU (user + system) and
# peak RSS come from wait4 on the child. Each figure is the minimum of
# MECH_BENCH_RUNS (default 1) runs.
#
# Exits 1, after the table, when a gap exceeds MECH_BENCH_GAP_LIMIT seconds
# (default 2), so that a gross regression shows as a failure of the script.
# Environment: MECH (default build/mech), MECH_BENCH_RUNS, MECH_BENCH_SIZES
# (default "80 120 160 200"), MECH_BENCH_GAP_LIMIT. Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mech="${MECH:-$root/build/mech}"
if [ ! -x "$mech" ]; then
  echo "first_step.sh: no mech binary at $mech (set MECH)" >&2
  exit 2
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-1}" SIZES="${MECH_BENCH_SIZES:-80 120 160 200}" \
  LIMIT="${MECH_BENCH_GAP_LIMIT:-2}" "$py" - <<'EOF'
import os, re, subprocess, sys, tempfile, time

mech, root = os.environ["MECH"], os.environ["ROOT"]
runs, limit = int(os.environ["RUNS"]), float(os.environ["LIMIT"])
sizes = [int(s) for s in os.environ["SIZES"].split()]

SUMMARY = re.compile(r"derive ([\d.]+) s, compile ([\d.]+) s .*; first step ([\d.]+) s after start")
BUDGET = re.compile(r"the kernels have (\d+) operations, more than the JIT budget")


def run(n, cache):
    """One process: a dict of the figures of one run."""
    argv = [mech, "simulate", f"{root}/examples/chain.mech", "--set", f"n={n}",
            "--until", "0.01", "-o", "/dev/null"]
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"first_step.sh: {' '.join(argv)} failed:\n{text}")
    match = SUMMARY.search(text)
    if not match:
        sys.exit(f"first_step.sh: no time line in the summary of n = {n}:\n{text}")
    derive, compile_, first = (float(g) for g in match.groups())
    budget = BUDGET.search(text)
    return dict(derive=derive, compile=compile_, gap=first - derive, wall=wall,
                cpu=usage.ru_utime + usage.ru_stime, rss=usage.ru_maxrss / 1024,
                backend=f"interpreter ({budget.group(1)} operations)" if budget else "JIT")


best = {}
for _ in range(runs):
    for n in sizes:
        with tempfile.TemporaryDirectory() as cache:
            figures = run(n, cache)
        entry = best.setdefault(n, figures)
        for key in ("derive", "compile", "gap", "wall", "cpu", "rss"):
            entry[key] = min(entry[key], figures[key])

model = next(l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name'))
print(f"machine: {os.cpu_count()} cores, {model}; {time.strftime('%Y-%m-%d')}; "
      f"load average {os.getloadavg()[0]:.1f}; minimum of {runs} runs")
print()
print("| n | kernels | derive (s) | compile (s) | derivation end to first step (s) "
      "| whole process (s) | CPU (s) | peak RSS (MiB) |")
print("|---|---|---|---|---|---|---|---|")
for n in sizes:
    e = best[n]
    print(f"| {n} | {e['backend']} | {e['derive']:.2f} | {e['compile']:.2f} | {e['gap']:.2f} "
          f"| {e['wall']:.2f} | {e['cpu']:.2f} | {e['rss']:.0f} |")
slow = [n for n in sizes if best[n]["gap"] > limit]
if slow:
    sys.exit(f"first_step.sh: the first step comes more than {limit:g} s after the derivation "
             f"for n = {', '.join(map(str, slow))}")
EOF
