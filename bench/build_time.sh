#!/usr/bin/env bash
# Wall time of `mech build` (model to shared library and header) for the
# double pendulum and the n-link Chain, generic and native CPU, against the
# time of `mech simulate --until 0 --no-cache` on the same model (parse,
# derive, JIT-compile, no integration): the difference is what the object
# emission for a file and the link by cc add. Minimum of MECH_BENCH_RUNS
# (default 3) runs each. Environment: MECH (default build/mech),
# MECH_BENCH_SIZES (default "10 20"). Prints a Markdown table.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mech="${MECH:-$root/build/mech}"
runs="${MECH_BENCH_RUNS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"

# best_ms COMMAND...: the fastest of $runs runs, in ms.
best_ms() {
  local best=""
  for _ in $(seq "$runs"); do
    local start end ms
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    ms=$(((end - start) / 1000000))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

echo "| model | mech build, generic CPU (ms) | mech build, native CPU (ms) | mech simulate --until 0, JIT, no cache (ms) | library size (KiB) |"
echo "|---|---|---|---|---|"
row() {
  local label="$1"
  shift
  local generic native jit size
  generic=$(best_ms "$mech" build "$@" -o "$work/lib.so" --header "$work/lib.h")
  native=$(best_ms "$mech" build "$@" -o "$work/libn.so" --cpu native)
  jit=$(best_ms "$mech" simulate "$@" --until 0 --no-cache -o /dev/null)
  size=$(( $(stat -c %s "$work/lib.so") / 1024 ))
  echo "| $label | $generic | $native | $jit | $size |"
}
row "double pendulum" "$root/examples/double_pendulum.mech"
for n in ${MECH_BENCH_SIZES:-10 20}; do
  row "chain, n = $n" "$root/examples/chain.mech" --set "n=$n"
done
