#!/usr/bin/env bash
# Sweep benchmark: the double pendulum from rest over an N x N grid of
# (th1, th2) in [-3, 3]^2 (default N = 100: 10,000 runs), 10 s each at
# rtol = atol = 1e-8, reduced to at_end(th2) and any(|th2| > pi) over the
# samples every 0.01 s, written as CSV, as whole processes on 2 threads:
#   mech sweep examples/double_pendulum.mech --grid ... --summary ...
# against bench_sweep_loop, the same sweep written by hand (sweep_loop.cpp:
# the closed-form equations, mech's DOPRI5, a loop split over threads).
# Minimum of MECH_BENCH_RUNS (default 3) runs each, interleaved; the cache
# is warm for mech (its kernels compiled once before). Agreement: the
# fraction of runs that flip in each (the runs are chaotic: single runs may
# differ by rounding). Prints a Markdown table for bench/README.md.
set -euo pipefail
source "$(dirname "$0")/mech.sh"
n="${MECH_BENCH_GRID:-100}"
runs="${MECH_BENCH_RUNS:-3}"
loop="$(dirname "$mech")/bench/bench_sweep_loop"
[ -x "$loop" ] || ninja -C "$(dirname "$mech")" -j2 bench_sweep_loop >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
mech_cmd=("$mech" sweep "$root/examples/double_pendulum.mech" --grid "th1=-3..3:$n, th2=-3..3:$n"
  --init "th1'=0, th2'=0" --until 10 --rtol 1e-8 --atol 1e-8 --threads 2
  --summary "at_end(th2), flipped = any(abs(th2) > pi)" -o "$work/mech.csv")
loop_cmd=("$loop" "$n" 10 2 1e-8 "$work/loop.csv")
"${mech_cmd[@]}" 2>/dev/null # warms the kernel cache

best() { # best_seconds VAR COMMAND...
  local start end
  start=$(date +%s%N)
  "${@:2}" >/dev/null 2>&1
  end=$(date +%s%N)
  local s=$(((end - start) / 1000000))
  if [ -z "${!1}" ] || [ "$s" -lt "${!1}" ]; then printf -v "$1" '%s' "$s"; fi
}
mech_ms="" loop_ms=""
for _ in $(seq "$runs"); do
  best mech_ms "${mech_cmd[@]}"
  best loop_ms "${loop_cmd[@]}"
done
flips() { awk -F, 'NR > 1 { s += $4; n++ } END { printf "%.4f", s / n }' "$1"; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
echo
echo "| runs | mech sweep, 2 threads (s) | hand-written loop, 2 threads (s) | mech / loop | per run, mech (ms) | flipped, mech | flipped, loop |"
echo "|---|---|---|---|---|---|---|"
awk -v r=$((n * n)) -v m="$mech_ms" -v l="$loop_ms" -v fm="$(flips "$work/mech.csv")" \
  -v fl="$(flips "$work/loop.csv")" 'BEGIN {
  printf "| %d | %.2f | %.2f | %.2fx | %.3f | %s | %s |\n", r, m / 1000, l / 1000, m / l, 2 * m / r, fm, fl }'
