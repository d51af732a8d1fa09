#!/usr/bin/env bash
# Whole-process `mech equations` (derivation, display forms, printing)
# against `mech eval` of the same model (derivation and one evaluation),
# with the peak memory and the printed size; with MECH_BASELINE set to an
# older mech binary, its equations time and size side by side in the same
# run. Minimum of MECH_BENCH_RUNS (default 3) runs. Prints a Markdown table.
# usage: bench/equations_display.sh   (MECH defaults to build/mech)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mech="${MECH:-$root/build/mech}"
baseline="${MECH_BASELINE:-}"
runs="${MECH_BENCH_RUNS:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"

# best BINARY ARGS...: "seconds peak_kB bytes" of the fastest run.
best() {
  local binary="$1" best_s="" kb="" bytes=""
  shift
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$work/time" timeout 300 "$binary" "$@" >"$work/out" 2>/dev/null || true
    read -r s m <"$work/time"
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s kb=$m bytes=$(wc -c <"$work/out")
    fi
  done
  echo "$best_s $kb $bytes"
}

echo "| model | equations (s) | eval (s) | equations / eval | peak (MB) | printed (bytes) |$([ -n "$baseline" ] && echo " baseline equations (s) | baseline printed (bytes) |")"
echo "|---|---|---|---|---|---|$([ -n "$baseline" ] && echo "---|---|")"
row() {
  local label="$1"
  shift
  read -r es ekb ebytes < <(best "$mech" equations "$@")
  read -r vs _ _ < <(best "$mech" eval "$@")
  local ratio
  ratio=$(awk -v a="$es" -v b="$vs" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')
  local line="| $label | $es | $vs | ${ratio}x | $((ekb / 1024)) | $ebytes |"
  if [ -n "$baseline" ]; then
    read -r bs _ bbytes < <(best "$baseline" equations "$@")
    line="$line $bs | $bbytes |"
  fi
  echo "$line"
}
cd "$root"
row "heavy top" examples/heavy_top.mech
row "double pendulum" examples/double_pendulum.mech
row "chain, n = 40" examples/chain.mech --set n=40
row "chain, n = 80" examples/chain.mech --set n=80
row "Whipple bicycle" examples/whipple_bicycle.mech
