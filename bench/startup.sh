#!/usr/bin/env bash
# Start-up benchmark: how long `mech simulate MODEL --until 1 -o /dev/null`
# takes as a whole process, and the "first step ... after start" figure from
# its summary, with a cold compiled-kernel cache (a fresh XDG_CACHE_HOME) and
# warm (the second run on the same cache directory). Models: the double
# pendulum and the n-link chain for n = 2, 10, 20, 40. Each figure is the
# minimum of MECH_BENCH_RUNS (default 5) rounds, each round using a new cache
# directory; the models are interleaved within a round so that load from other
# processes on the machine spreads over all of them.
#
# Whole-process wall time is measured outside mech (time.perf_counter around
# the child process); CPU is the child's user + system time (wait4 rusage).
# The first row, `mech --version`, is the fixed cost of starting the binary
# (dynamic loading of libLLVM) with no model at all.
#
# Environment: MECH (the binary; default build-bench/mech, built with
# -j2 if missing), MECH_BENCH_RUNS, MECH_BENCH_SIZES (default "2 10 20 40").
# Prints a Markdown table for bench/README.md.
set -euo pipefail
source "$(dirname "$0")/mech.sh"
# Only the standard library is needed; any python3 will do.
py=/usr/bin/python3
[ -x "$py" ] || py=python3

MECH="$mech" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-5}" SIZES="${MECH_BENCH_SIZES:-2 10 20 40}" \
  "$py" - <<'EOF'
import os, re, shutil, subprocess, sys, tempfile, time

mech, root = os.environ["MECH"], os.environ["ROOT"]
runs = int(os.environ["RUNS"])
sizes = [int(s) for s in os.environ["SIZES"].split()]

models = [("double pendulum", "-", [f"{root}/examples/double_pendulum.mech"])]
models += [("chain", str(n), [f"{root}/examples/chain.mech", "--set", f"n={n}"]) for n in sizes]

SUMMARY = re.compile(r"derive ([\d.]+) s, compile ([\d.]+) s \(cache (\w+)\), "
                     r"integrate ([\d.]+) s; first step ([\d.]+) s after start")


def run(argv, cache):
    """One process: wall (s), CPU (s), and the parsed summary (or None)."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode()
    if child.returncode != 0:
        sys.exit(f"startup.sh: {' '.join(argv)} failed ({child.returncode}):\n{text}")
    match = SUMMARY.search(text)
    summary = None
    if match:
        d, c, state, i, first = match.groups()
        summary = dict(derive=float(d), compile=float(c), cache=state, integrate=float(i),
                       first=float(first))
    return wall, usage.ru_utime + usage.ru_stime, summary


best = {}  # (model index, "cold"/"warm") -> dict of minima


def record(key, wall, cpu, summary):
    entry = best.setdefault(key, dict(wall=1e9, cpu=1e9, first=1e9, derive=1e9, compile=1e9,
                                      cache=set()))
    entry["wall"] = min(entry["wall"], wall)
    entry["cpu"] = min(entry["cpu"], cpu)
    if summary:
        for field in ("first", "derive", "compile"):
            entry[field] = min(entry[field], summary[field])
        entry["cache"].add(summary["cache"])


for _ in range(runs):
    with tempfile.TemporaryDirectory() as cache:
        record(("version", "-"), *run([mech, "--version"], cache))
    for index, (_, _, args) in enumerate(models):
        cache = tempfile.mkdtemp(prefix="mech-startup-")
        try:
            argv = [mech, "simulate", *args, "--until", "1", "-o", "/dev/null"]
            record((index, "cold"), *run(argv, cache))
            record((index, "warm"), *run(argv, cache))
        finally:
            shutil.rmtree(cache)

ms = lambda s: f"{s * 1000:.0f}"  # the summary prints milliseconds
v = best[("version", "-")]
print(f"machine: {os.cpu_count()} cores, "
      + next(l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name'))
      + f"; {time.strftime('%Y-%m-%d')}; minimum of {runs} runs")
print()
print("| model | n | cold: whole process (ms) | cold: CPU (ms) | cold: first step after start (ms) "
      "| cold: derive / compile (ms) | warm: whole process (ms) | warm: CPU (ms) "
      "| warm: first step after start (ms) | warm: derive / compile (ms) |")
print("|---|---|---|---|---|---|---|---|---|---|")
print(f"| `mech --version` (no model) | - | {ms(v['wall'])} | {ms(v['cpu'])} | - | - | - | - | - | - |")
for index, (name, n, _) in enumerate(models):
    cells = []
    for state in ("cold", "warm"):
        e = best[(index, state)]
        expected = "miss" if state == "cold" else "hit"
        if e["cache"] != {expected}:
            print(f"warning: {name} n={n} {state}: cache {sorted(e['cache'])}", file=sys.stderr)
        cells += [ms(e["wall"]), ms(e["cpu"]), ms(e["first"]),
                  f"{ms(e['derive'])} / {ms(e['compile'])}"]
    print(f"| {name} | {n} | " + " | ".join(cells) + " |")
EOF
