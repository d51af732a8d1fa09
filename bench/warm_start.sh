#!/usr/bin/env bash
# The warm start, whole process, side by side in one run (bench/README.md,
# "Warm start"): `mech simulate` of the chain at n = 20 (until 10, rtol =
# atol = 1e-8, CSV to a file) against bench_integrate_chain, the same run
# written by hand; the double pendulum's warm simulate against `mech
# --version`; each the median of 20 runs after one that fills the caches.
# Then the cold compile of the chain at n = 40 (--no-cache).
# Usage: bench/warm_start.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
ninja -C "$build" -j2 mech bench_integrate_chain >/dev/null
mech="$build/mech"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
export XDG_CACHE_HOME="$scratch/cache"

# median_ms CMD...: the median wall time of 20 runs, in ms.
median_ms() {
  python3 - "$@" <<'PY'
import statistics, subprocess, sys, time
times = []
for _ in range(20):
    start = time.perf_counter()
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.median(times):.1f}")
PY
}

chain=("$mech" simulate "$root/examples/chain.mech" --set n=20 --until 10 --rtol 1e-8 --atol 1e-8
  -o "$scratch/mech.csv")
pendulum=("$mech" simulate "$root/examples/double_pendulum.mech" -o "$scratch/dp.csv")
"${chain[@]}" 2>/dev/null
"${pendulum[@]}" 2>/dev/null
"${chain[@]}" 2>&1 | grep "time:"
hand=$(median_ms "$build/bench/bench_integrate_chain" "$scratch/hand.csv")
warm=$(median_ms "${chain[@]}")
version=$(median_ms "$mech" --version)
dp=$(median_ms "${pendulum[@]}")
python3 - "$scratch/mech.csv" "$scratch/hand.csv" <<'PY'
import csv, sys
a = list(csv.reader(open(sys.argv[1])))
b = list(csv.reader(open(sys.argv[2])))
assert a[0] == b[0] and len(a) == len(b), (a[0][:3], b[0][:3], len(a), len(b))
worst = max(abs(float(x) - float(y)) for r, s in zip(a[1:], b[1:]) for x, y in zip(r, s))
print(f"mech's CSV and the hand-written one: {len(a) - 1} rows, largest difference {worst:.2g}")
PY
cold=$("$mech" simulate "$root/examples/chain.mech" --set n=40 --until 1 --no-cache \
  -o "$scratch/c40.csv" 2>&1 | grep "time:")
echo "| run | ms (median of 20) | ratio |"
echo "|---|---|---|"
echo "| hand-written chain n = 20 (bench_integrate_chain) | $hand | 1 |"
echo "| mech simulate chain n = 20, warm | $warm | $(python3 -c "print(f'{$warm/$hand:.2f}')") |"
echo "| mech --version | $version | |"
echo "| mech simulate double pendulum, warm | $dp | --version + $(python3 -c "print(f'{$dp-$version:.1f}')") ms |"
echo
echo "cold chain n = 40: $cold"
