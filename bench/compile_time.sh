#!/usr/bin/env bash
# JIT compile time against model size, for mech and (optionally) a baseline
# binary in the same run: the n-link Chain (examples/chain.mech), a dense
# mass matrix (every entry of M nonzero: few instructions, n² outputs), the
# IFToMM N-four-bar (tests/cli/models/n_four_bar.mech) and a potential of
# many terms (one sum of thousands of operands). Each row runs
# `mech simulate MODEL --set ... --until 0.01 --no-cache --backend jit
# -o /dev/null` (compiled before the run, not tiered) and reads the
# summary's "compile C s": the time from the kernel programs to native
# code (emission, LLVM's optimizer and code generation, linking).
# A binary that interprets the model (past its JIT budget) shows
# "interpreted". The growth exponent is log(C2/C1) / log(n2/n1) between
# consecutive rows of a family. Peak RSS of the whole process from wait4.
# Each figure is the minimum of MECH_BENCH_RUNS (default 1) runs.
# Environment: MECH (default build/mech), MECH_BASELINE (another mech, for
# the "before" columns), MECH_BENCH_RUNS. Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mech="${MECH:-$root/build/mech}"
if [ ! -x "$mech" ]; then
  echo "compile_time.sh: no mech binary at $mech (set MECH)" >&2
  exit 2
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3

MECH="$mech" BASELINE="${MECH_BASELINE:-}" ROOT="$root" RUNS="${MECH_BENCH_RUNS:-1}" "$py" - <<'EOF'
import math, os, re, subprocess, tempfile

mech, baseline, root = os.environ["MECH"], os.environ["BASELINE"], os.environ["ROOT"]
runs = int(os.environ["RUNS"])
work = tempfile.mkdtemp()

WIDE = """model Wide {
  param m = 1 [kg], k = 1 [N/m]
  coord x [m]
  particle p mass m at [x, 0]
  potential V = k * sum(i in 1..TERMS, cos(i * x / 1 [m]) / i^4) * 1 [m^2]
  init x = 0.1
}
"""
families = [
    ("chain", f"{root}/examples/chain.mech", "n", [10, 20, 40, 80]),
    ("dense M", f"{root}/tests/cli/models/dense_mass.mech", "n", [50, 100, 200]),
    ("N-four-bar", f"{root}/tests/cli/models/n_four_bar.mech", "N", [10, 20, 40]),
]
SUMMARY = re.compile(r"compile ([\d.]+) s")
BUDGET = re.compile(r"more than the JIT budget")


def run(binary, model, setting):
    """(compile seconds or None when interpreted, peak RSS MB), best of runs."""
    best = None
    for _ in range(runs):
        argv = [binary, "simulate", model, "--until", "0.01", "--no-cache", "--backend", "jit",
                "-o", "/dev/null"]
        if setting:
            argv += ["--set", setting]
        with tempfile.TemporaryFile() as err:
            child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
            _, status, usage = os.wait4(child.pid, 0)
            err.seek(0)
            text = err.read().decode()
        if status != 0:
            raise SystemExit(f"compile_time.sh: {' '.join(argv)} failed:\n{text}")
        compile_s = None if BUDGET.search(text) else float(SUMMARY.search(text).group(1))
        rss = usage.ru_maxrss / 1024
        if best is None or (compile_s or 0) < (best[0] or 0):
            best = (compile_s, rss)
    return best


def cell(value):
    return "interpreted" if value is None else f"{value:.2f}"


def exponent(prev, cur, n0, n1):
    if prev is None or cur is None or prev <= 0:
        return ""
    return f"{math.log(cur / prev) / math.log(n1 / n0):.2f}"


head = "| model | size | compile (s) | growth | peak RSS (MB) |"
rule = "|---|---|---|---|---|"
if baseline:
    head += " baseline compile (s) | baseline growth | ratio |"
    rule += "---|---|---|"
print(head)
print(rule)
for name, model, param, sizes in families:
    previous = None
    for n in sizes:
        now = run(mech, model, f"{param}={n}")
        row = f"| {name} | {param} = {n} | {cell(now[0])} | "
        row += (exponent(previous[1][0], now[0], previous[0], n) if previous else "") + " | "
        row += f"{now[1]:.0f} |"
        if baseline:
            before = run(baseline, model, f"{param}={n}")
            row += f" {cell(before[0])} | "
            row += (exponent(previous[2][0], before[0], previous[0], n) if previous else "")
            ratio = before[0] / now[0] if before[0] and now[0] else None
            row += f" | {ratio:.1f}× |" if ratio else " | |"
        print(row)
        previous = (n, now, before if baseline else None)
for terms in (2000, 6000):
    path = f"{work}/wide{terms}.mech"
    open(path, "w").write(WIDE.replace("TERMS", str(terms)))
    now = run(mech, path, "")
    row = f"| potential of many terms | {terms} terms | {cell(now[0])} | | {now[1]:.0f} |"
    if baseline:
        before = run(baseline, path, "")
        ratio = before[0] / now[0] if before[0] and now[0] else None
        row += f" {cell(before[0])} | | " + (f"{ratio:.1f}× |" if ratio else "|")
    print(row)
EOF
