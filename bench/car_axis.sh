#!/usr/bin/env bash
# The error of the implicit methods on a stiff DAE: the car axis problem
# (bench/car_axis.mech) to t = 3 with --method bdf and radau at
# rtol = atol = 1e-4 ... 1e-10, against the reference solution of the test
# set for IVP solvers (Mazzia and Magherini, computed there with RADAU5 at
# tolerances near machine precision). Prints a Markdown table: per run the
# largest error of the positions and velocities at t = 3, that error
# divided by the tolerance, and the steps taken.
# Environment: MECH (default build-bench/mech).
set -euo pipefail
source "$(dirname "$0")/mech.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"

echo "| method | tolerance | steps | max error at t = 3 | error / tolerance |"
echo "|---|---:|---:|---:|---:|"
for method in bdf radau; do
  for tol in 1e-4 1e-5 1e-6 1e-7 1e-8 1e-9 1e-10; do
    "$mech" simulate "$root/bench/car_axis.mech" --method "$method" --until 3 --dt 0.01 \
      --rtol "$tol" --atol "$tol" -o "$work/run.csv" 2>"$work/err"
    steps="$(sed -n 's/.*: \([0-9]*\) steps accepted.*/\1/p' "$work/err" | head -1)"
    python3 - "$work/run.csv" "$method" "$tol" "$steps" <<'PY'
import csv, sys
path, method, tol, steps = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
# xl, yl, xr, yr, xl', yl', xr', yr' at t = 3 (the test set's reference).
reference = [0.493455784275402809122e-1, 0.496989460230171153861,
             0.104174252488542151681e1, 0.373911027265361256927,
             -0.770583684040972357970e-1, 0.744686658723778553466e-2,
             0.175568157537232222276e-1, 0.770341043779251976571]
rows = list(csv.reader(open(path)))
last = [float(v) for v in rows[-1]]
assert abs(last[0] - 3) < 1e-12, last[0]
error = max(abs(a - b) for a, b in zip(last[1:9], reference))
print(f"| {method} | {tol:g} | {steps} | {error:.2g} | {error / tol:.3g} |")
PY
  done
done
