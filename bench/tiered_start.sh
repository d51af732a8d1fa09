#!/usr/bin/env bash
# Tiered execution against compiling first: the n-link Chain
# (examples/chain.mech) run for a short and a long time without the cache,
# `mech simulate ... --no-cache -o /dev/null` with the default backend
# (auto: tiered for kernels of 3000 operations or more), and the same with
# MECH_BASELINE (another mech, run with its own default) in the same run.
# Columns: the summary's "first step ... after start", the whole process
# (wall, from wait4) and peak RSS, and the tiers: line's hand-over (the t
# of native code's first call and the seconds LLVM took on the other
# thread), or "interpreter" when the run ended first.
# Environment: MECH (default build/mech), MECH_BASELINE, MECH_BENCH_SIZES
# (default "10 20 40 80 120"), MECH_BENCH_UNTIL (default "1 10").
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mech="${MECH:-$root/build/mech}"
if [ ! -x "$mech" ]; then
  echo "tiered_start.sh: no mech binary at $mech (set MECH)" >&2
  exit 2
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3

MECH="$mech" BASELINE="${MECH_BASELINE:-}" ROOT="$root" SIZES="${MECH_BENCH_SIZES:-10 20 40 80 120}" \
  UNTIL="${MECH_BENCH_UNTIL:-1 10}" "$py" - <<'EOF'
import os, re, subprocess, tempfile, time

mech, baseline, root = os.environ["MECH"], os.environ["BASELINE"], os.environ["ROOT"]
sizes = [int(s) for s in os.environ["SIZES"].split()]
spans = [float(s) for s in os.environ["UNTIL"].split()]
FIRST = re.compile(r"first step ([\d.]+) s after start")
TIERS = re.compile(r"the interpreter until t = ([\d.e+-]+), native code from there \(compiled in ([\d.]+) s")
BUDGET = re.compile(r"more than the JIT budget")


def run(binary, n, until):
    argv = [binary, "simulate", f"{root}/examples/chain.mech", "--set", f"n={n}",
            "--until", str(until), "--no-cache", "-o", "/dev/null"]
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode()
    if status != 0:
        raise SystemExit(f"tiered_start.sh: {' '.join(argv)} failed:\n{text}")
    tiers = TIERS.search(text)
    if tiers:
        how = f"native from t = {float(tiers.group(1)):.3g} ({float(tiers.group(2)):.2f} s)"
    elif "tiers: the interpreter throughout" in text or BUDGET.search(text):
        how = "interpreter"
    else:
        how = "compiled first"
    return float(FIRST.search(text).group(1)), wall, usage.ru_maxrss / 1024, how


head = "| n | motion (s) | first step (s) | whole process (s) | peak RSS (MB) | back end |"
rule = "|---|---|---|---|---|---|"
if baseline:
    head += " baseline first step (s) | baseline whole process (s) | baseline back end |"
    rule += "---|---|---|"
print(head)
print(rule)
for n in sizes:
    for until in spans:
        first, wall, rss, how = run(mech, n, until)
        row = f"| {n} | {until:g} | {first:.3f} | {wall:.2f} | {rss:.0f} | {how} |"
        if baseline:
            bfirst, bwall, _, bhow = run(baseline, n, until)
            row += f" {bfirst:.3f} | {bwall:.2f} | {bhow} |"
        print(row)
EOF
