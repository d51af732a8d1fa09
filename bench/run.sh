#!/usr/bin/env bash
# Runs the derivation benchmark: mech's bench_derive_chain and, where Debian's
# python3-sympy is installed, SymPy's LagrangesMethod on the same chains, in
# the same run. A SymPy size is skipped (with every larger one) once a size
# takes longer than 120 s. Prints a Markdown table for bench/README.md.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
sizes=(${MECH_BENCH_SIZES:-5 10 20 40 80})
"$root/scripts/build.sh" release >/dev/null
ninja -C "$root/build" -j2 bench_derive_chain >/dev/null

mech_out="$("$root/build/bench/bench_derive_chain" "${sizes[@]}")"

declare -A sympy
if /usr/bin/python3 -c "import sympy" 2>/dev/null; then
  for n in "${sizes[@]}"; do
    if line="$(timeout 120 /usr/bin/python3 "$root/bench/sympy_chain.py" "$n")"; then
      sympy[$n]="$(echo "$line" | awk '{print $2}')"
    else
      break
    fi
  done
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%Y-%m-%d)"
echo
echo "| n | mech check (s) | mech derive M, f (s) | mech CSE (s) | mech total (s) | nodes as trees | nodes after CSE | SymPy LagrangesMethod (s) | SymPy / mech |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "$mech_out" | tail -n +2 | while read -r n check derive cse total tree cse_nodes; do
  s="${sympy[$n]:-}"
  if [ -n "$s" ]; then
    ratio="$(awk -v a="$s" -v b="$total" 'BEGIN { printf "%.0fx", a / b }')"
  else
    s="skipped (> 120 s)"; ratio="-"
  fi
  echo "| $n | $check | $derive | $cse | $total | $tree | $cse_nodes | $s | $ratio |"
done
