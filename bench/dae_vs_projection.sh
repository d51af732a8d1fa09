#!/usr/bin/env bash
# Constrained models with radau: the stabilised index-2 DAE form (the
# default, no projection) next to radau and dop853 on the equations of the
# first kind with a projection after each step, at rtol 1e-9, atol 1e-11
# over 10 s sampled every 0.01 s: steps, rhs and Jacobian evaluations,
# integrate time (mech's summary, 1 ms resolution), the largest constraint
# residual of the samples before any projection of theirs, and the largest
# difference of the coordinates from dop853 at rtol 1e-13 (not timed).
# Environment: MECH (default build-bench/mech), PYTHON. Prints a Markdown
# table.
set -euo pipefail
source "$(dirname "$0")/mech.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
cat >"$work/paraboloid.mech" <<'MECH'
model PointOnParaboloid {
  param m = 0.2 [kg], a = 0.5 [m], g = 9.81 [m/s^2]
  coord x [m], y [m], z [m]
  particle P mass m at [x, y, z]
  gravity [0, 0, -g]
  constraint surface: x^2 + y^2 == 2 * a * z
  init x = 0.3, y = 0, z = 0.09, x' = 0.5, y' = 1.0
}
MECH
models=("$root/examples/cartesian_pendulum.mech" "$work/paraboloid.mech" "$root/examples/rolling_disk.mech" "$root/examples/knife_edge.mech")
echo "| model | form | steps | rhs | Jacobians | integrate (s) | constraint residual | max diff from dop853 1e-13 |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for model in "${models[@]}"; do
  name=$(basename "$model" .mech)
  "$mech" simulate "$model" --method dop853 --rtol 1e-13 --atol 1e-13 -o "$work/ref.csv" 2>/dev/null || true
  for form in "radau DAE:--method radau" "radau + projection:--method radau --constraints projection" "dop853 + projection:--method dop853"; do
    label="${form%%:*}"
    args="${form#*:}"
    # shellcheck disable=SC2086
    "$mech" simulate "$model" $args --rtol 1e-9 --atol 1e-11 -o "$work/run.csv" 2>"$work/err" >/dev/null || true
    "${PYTHON:-python3}" - "$work/err" "$work/run.csv" "$work/ref.csv" "$name" "$label" <<'PY'
import csv, re, sys
err, run, ref, name, label = sys.argv[1:]
text = open(err).read()
steps = re.search(r"(\d+) steps accepted, \d+ rejected, (\d+) rhs", text)
jac = re.search(r"(\d+) Jacobian evaluations", text)
integ = re.search(r"integrate ([\d.]+) s", text)
res = re.search(r"largest constraint residual \S+ in the output, (\S+) before projection", text)
a = list(csv.reader(open(run)))
b = list(csv.reader(open(ref)))
n = sum(1 for h in a[0] if h.endswith("'"))
coords = range(1, n + 1)
diff = max(abs(float(x[i]) - float(y[i])) for x, y in zip(a[1:], b[1:]) for i in coords) if len(a) == len(b) else float("nan")
print(f"| {name} | {label} | {steps.group(1) if steps else '-'} | {steps.group(2) if steps else '-'} | "
      f"{jac.group(1) if jac else '-'} | {integ.group(1) if integ else '-'} | {res.group(1) if res else '-'} | {diff:.1e} |")
PY
  done
done
