#!/usr/bin/env bash
# Command-line tests of `mech build` (a model compiled to a shared library
# or an object with a C ABI, and its header), driven from C and Python:
#  a. libraries for unconstrained and constrained examples; examples/c/simulate.c
#     built and run as examples/c/README.md says
#  b. PREFIX_rhs, _energy, _multipliers, _outputs against `mech eval --json`
#     at random states
#  c. PREFIX_simulate against `mech simulate` with the same dt and tolerances
#  d. PREFIX_simulate against the exact solution of a harmonic oscillator
#  e. two models (prefixes dp, cp) in one process, called from two threads;
#     two default-prefix libraries side by side through dlopen(RTLD_LOCAL)
#  f. bad calls return the header's status codes instead of crashing
#  g. -o NAME.o: only PREFIX_* exported, links statically into a program
#  h. the shared libraries export only PREFIX_* symbols
#  i. usage errors (exit 2), model errors (exit 1), --cpu native, --set
#  j. examples/python/simulate.py against a freshly built library
#  k. PREFIX_simulate_with: a start time t0 against closed forms (a driven
#     oscillator, a bead on a spinning rod) and against mech simulate
#     --init "t=t0"; the multiplier and output columns against mech eval
#  l. PREFIX_jacobian against central differences of PREFIX_rhs (every
#     example, in b); the Radau method of PREFIX_simulate_with against the
#     stiff oscillator's exact solution and against mech simulate --method
#     radau, with and without constraints
# The C helpers and Python comparers are in tests/cli/library/.
# Usage: test_build.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
helpers="$root/tests/cli/library"
cflags=(-std=c99 -Wall -Wextra -O1)
mkdir -p "$work/lib" "$work/bin" "$work/c" "$work/mech"

# helper OUT SOURCE NAME PREFIX: compiles tests/cli/library/SOURCE into
# $work/bin/OUT against $work/lib/libNAME.so and its header NAME.h.
helper() {
  local out="$1" source="$2" name="$3" prefix="$4"
  expect "compile $out" 0 cc "${cflags[@]}" -I"$helpers" -include "$work/lib/$name.h" \
    -DPREFIX="$prefix" -DUPREFIX="${prefix^^}" "$helpers/$source" -o "$work/bin/$out" \
    "$work/lib/lib$name.so" -Wl,-rpath,"$work/lib" -lm
}

# check_jacobian NAME DIR [FLAGS]: PREFIX_jacobian of DIR/libNAME.so against
# central differences of its PREFIX_rhs (tests/cli/library/check_jacobian.c).
check_jacobian() {
  local name="$1" dir="$2"
  shift 2
  expect "compile check_jacobian for $name" 0 cc "${cflags[@]}" -I"$helpers" \
    -include "$dir/$name.h" "$@" "$helpers/check_jacobian.c" -o "$dir/jacobian_$name" \
    "$dir/lib$name.so" -Wl,-rpath,"$dir" -lm
  expect "jacobian of $name is the rhs's derivative" 0 "$dir/jacobian_$name" 4 17
}

# only_prefixed NAME PREFIX FILE: FILE (nm output, one symbol a line) is not
# empty and names only PREFIX_* symbols.
only_prefixed() {
  if [ -s "$3" ] && ! grep -qv "^$2_" "$3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: symbols other than $2_*:"
    grep -v "^$2_" "$3" | sed 's/^/  | /' | head -20
  fi
}

# --- a. Libraries for several examples; the C example program. -------------
models=(double_pendulum cartesian_pendulum knife_edge chain)
for m in "${models[@]}"; do
  expect "build $m" 0 "$mech" build "examples/$m.mech" -o "$work/lib/lib$m.so" \
    --header "$work/lib/$m.h" --prefix "$m"
  contains "build $m message" err "wrote $work/lib/lib$m.so and $work/lib/$m.h"
done
contains "chain header" lib/chain.h "q[9]  th[10]"
contains "knife edge header" lib/knife_edge.h "lambda[0]  sideways [N]  (nonholonomic)"
contains "cartesian pendulum header" lib/cartesian_pendulum.h "out[0]  tension"
expect "headers compile as C++" 0 c++ -fsyntax-only -x c++ -include "$work/lib/chain.h" \
  -include "$work/lib/knife_edge.h" /dev/null

# The commands of examples/c/README.md, run in a copy of examples/c.
build_example_c() (
  cd "$work/c" &&
    "$mech" build "$root/examples/double_pendulum.mech" -o libdouble_pendulum.so \
      --header double_pendulum.h --prefix double_pendulum &&
    cc simulate.c -o simulate -L. -ldouble_pendulum -Wl,-rpath,'$ORIGIN' -lm
)
cp examples/c/simulate.c "$work/c/"
expect "examples/c builds" 0 build_example_c
expect "examples/c runs" 0 "$work/c/simulate"
save
cp "$work/out" "$work/c/output"
contains "simulate.c model" saved "model DoublePendulum: 2 coordinates, 5 params, 0 constraints"
contains "simulate.c coordinates" saved "coordinates: th1 th2"
contains "simulate.c params" saved "m1 = 1, m2 = 1, l1 = 1, l2 = 0.8, g = 9.81"
contains "simulate.c first row" saved "  0.00     0.500000    -0.300000"
contains "simulate.c last row" saved " 10.00 "
expect "simulate.c 21 rows" 0 test "$(grep -cE '^ *[0-9]+\.[0-9]{2} ' "$work/saved")" -eq 21
expect "simulate.c energy drift below 1e-8" 0 awk '/energy drift/ { found = 1; if ($NF + 0 >= 1e-8) exit 1 }
  END { exit !found }' "$work/saved"
expect "examples/c is warning-free" 0 cc -std=c99 -Wall -Wextra -pedantic -Werror -fsyntax-only \
  -I"$work/c" "$work/c/simulate.c"

# --- b. rhs, energy, multipliers and outputs against mech eval. -------------
for m in "${models[@]}"; do
  helper "compare_$m" compare_rhs.c "$m" "$m"
  expect "rhs of $m matches mech eval" 0 python3 "$helpers/compare_eval.py" "$mech" \
    "examples/$m.mech" "$work/bin/compare_$m" --states 5 --seed 7
done
# Params other than the defaults: the parameter vector against --set.
expect "rhs of double_pendulum with params" 0 python3 "$helpers/compare_eval.py" "$mech" \
  examples/double_pendulum.mech "$work/bin/compare_double_pendulum" --states 3 \
  --set m1=0.3 --set l2=1.7 --set g=3.7
expect "rhs of cartesian_pendulum with params" 0 python3 "$helpers/compare_eval.py" "$mech" \
  examples/cartesian_pendulum.mech "$work/bin/compare_cartesian_pendulum" --states 3 \
  --set m=3 --set l=2
# Every other example at two states (forces, dissipation, rigid bodies in
# space, time-dependent and rolling constraints).
mkdir -p "$work/all"
# The sanitizer pass (scripts/test.sh sets MECH_SANITIZER_PASS) takes every
# third example and those the later sections use: the code under test is
# the same for each, and all of them under ASan take minutes.
every=1
[ -n "${MECH_SANITIZER_PASS:-}" ] && every=3
index=0
for example in examples/*.mech; do
  m="$(basename "$example" .mech)"
  case " ${models[*]} " in *" $m "*) continue ;; esac
  index=$((index + 1))
  case " kapitza_pendulum overdamped_oscillator rolling_disk " in
  *" $m "*) ;;
  *) [ $((index % every)) -eq 0 ] || continue ;;
  esac
  expect "build $m" 0 "$mech" build "$example" -o "$work/all/lib$m.so" --header "$work/all/$m.h"
  expect "compile compare_rhs for $m" 0 cc "${cflags[@]}" -I"$helpers" -include "$work/all/$m.h" \
    "$helpers/compare_rhs.c" -o "$work/all/compare_$m" "$work/all/lib$m.so" \
    -Wl,-rpath,"$work/all" -lm
  expect "rhs of $m matches mech eval" 0 python3 "$helpers/compare_eval.py" "$mech" "$example" \
    "$work/all/compare_$m" --states 2 --seed 11
  check_jacobian "$m" "$work/all"
done
for m in "${models[@]}"; do
  check_jacobian "$m" "$work/lib" -DPREFIX="$m" -DUPREFIX="${m^^}"
done
# The constraint residuals and Jacobians in closed form: Phi = x^2 + y^2 - l^2,
# psi = 2 x x' + 2 y y', C = [2x, 2y] for the pendulum (off the rod here);
# Phi = 0, psi = x' sin(phi) - y' cos(phi), C = [sin(phi), -cos(phi), 0]
# for the knife edge; Phi = x - R phi, psi = x' - R phi', C = [1, -R] for
# the rolling disk (R = 0.2).
echo "0.5 0.3 -0.7 0.2 -0.4" | "$work/bin/compare_cartesian_pendulum" >"$work/cp.values"
echo "0.5 0.3 -0.7 0.9 0.2 -0.4 1.5" | "$work/bin/compare_knife_edge" >"$work/ke.values"
echo "0.5 0.3 1.1 0.2 -0.4" | "$work/all/compare_rolling_disk" >"$work/rd.values"
expect "constraint residuals and Jacobians" 0 python3 -c '
import math, sys
def tail(path, n):
    return [float(v) for v in open(path).read().split()][-n:]
def close(name, got, want):
    assert all(abs(a - b) <= 1e-14 * (1 + abs(b)) for a, b in zip(got, want)), (name, got, want)
x, y, vx, vy = 0.3, -0.7, 0.2, -0.4
close("pendulum", tail(sys.argv[1], 4), [x*x + y*y - 1, 2*x*vx + 2*y*vy, 2*x, 2*y])
x, y, phi, vx, vy, w = 0.3, -0.7, 0.9, 0.2, -0.4, 1.5
close("knife edge", tail(sys.argv[2], 5),
      [0, vx*math.sin(phi) - vy*math.cos(phi), math.sin(phi), -math.cos(phi), 0])
x, phi, vx, w = 0.3, 1.1, 0.2, -0.4
close("rolling disk", tail(sys.argv[3], 4), [x - 0.2*phi, vx - 0.2*w, 1, -0.2])
' "$work/cp.values" "$work/ke.values" "$work/rd.values"

# --- c. simulate against mech simulate (same dt, rtol, atol). -------------
tolerances=(--rtol 1e-10 --atol 1e-12)
helper simulate_double_pendulum run_simulate.c double_pendulum double_pendulum
helper simulate_cartesian_pendulum run_simulate.c cartesian_pendulum cartesian_pendulum
helper simulate_knife_edge run_simulate.c knife_edge knife_edge
# simulate_same NAME MODEL COLUMNS INIT X0...: both over 2 s with dt = 0.1,
# the same steps (the same first step and controller), so the rows agree to
# the kernels' roundings: 1e-11.
simulate_same() {
  local name="$1" model="$2" columns="$3" init="$4"
  shift 4
  expect "mech simulate $name" 0 "$mech" simulate "examples/$model.mech" --until 2 --dt 0.1 \
    "${tolerances[@]}" --init "$init" -o "$work/$name.ref.csv"
  expect "${model}_simulate $name" 0 "$work/bin/simulate_$model" 2 0.1 1e-10 1e-12 "$@"
  cp "$work/out" "$work/$name.csv"
  expect "simulate $name agrees" 0 python3 "$helpers/compare_csv.py" "$work/$name.ref.csv" \
    "$work/$name.csv" "$columns" 1e-11
}
simulate_same "double pendulum, small angles" double_pendulum 5 "th1=0.1, th2=-0.05, th2'=0.1" \
  0.1 -0.05 0 0.1
simulate_same "cartesian pendulum" cartesian_pendulum 5 "x=0.6, y=-0.8" 0.6 -0.8 0 0
simulate_same "knife edge" knife_edge 7 "phi'=1" 0 0 0 0 0 1
# An initial state off the constraints: the library moves it by the least
# change (M = m I here), q radially onto the circle of radius l = 1 and q'
# onto its tangent, and then runs as mech simulate does from that state.
read -r -a onto < <(python3 -c 'import math; x, y, vx = 0.7, -0.8, 0.3
r = math.hypot(x, y); x, y = x / r, y / r; radial = vx * x
print(*map(repr, [x, y, vx - radial * x, -radial * y]))')
simulate_same "cartesian pendulum, projected" cartesian_pendulum 5 \
  "x=${onto[0]}, y=${onto[1]}, x'=${onto[2]}, y'=${onto[3]}" 0.7 -0.8 0.3 0
expect "the library's start is the least-change projection" 0 python3 -c '
import sys
first = [float(v) for v in open(sys.argv[1]).readline().split(",")]
want = [0.0] + [float(v) for v in sys.argv[2:]]
assert all(abs(a - b) <= 1e-12 for a, b in zip(first, want)), (first, want)
' "$work/cartesian pendulum, projected.csv" "${onto[@]}"
# A time-dependent model (the support of the Kapitza pendulum is driven).
expect "compile run_simulate for kapitza_pendulum" 0 cc "${cflags[@]}" -I"$helpers" \
  -include "$work/all/kapitza_pendulum.h" "$helpers/run_simulate.c" \
  -o "$work/bin/simulate_kapitza_pendulum" "$work/all/libkapitza_pendulum.so" \
  -Wl,-rpath,"$work/all" -lm
simulate_same "kapitza pendulum" kapitza_pendulum 3 "th=0.2" 0.2 0

# The info struct's init_state is the model's init put onto the constraints,
# the first row of mech simulate (read through examples/python's struct).
sed "s/init x = 0.6, y = -0.8/init x = 0.7, y = -0.8, x' = 0.3/" examples/cartesian_pendulum.mech \
  >"$work/mech/off_rod.mech"
expect "build a model whose init is off the rod" 0 "$mech" build "$work/mech/off_rod.mech" \
  -o "$work/lib/liboff_rod.so"
expect "mech simulate from an init off the rod" 0 "$mech" simulate "$work/mech/off_rod.mech" \
  --until 0 -o "$work/off_rod.csv"
expect "init_state is projected" 0 python3 -B -c '
import ctypes, sys
sys.path.insert(0, sys.argv[1])
from simulate import ModelInfo
lib = ctypes.CDLL(sys.argv[2])
lib.mech_model.restype = ctypes.POINTER(ModelInfo)
info = lib.mech_model().contents
got = info.init_state[:4]
want = [float(v) for v in open(sys.argv[3]).read().split()[1].split(",")[1:5]]
assert all(abs(a - b) <= 1e-12 for a, b in zip(got, want)) and abs(got[0] - 0.7) > 0.01, (got, want)
' examples/python "$work/lib/liboff_rod.so" "$work/off_rod.csv"

# Along the pendulum's path the multiplier and the output (the rod's
# tension) of cartesian_pendulum_multipliers and _outputs, at the library's
# states, are those mech simulate writes.
tr , '\t ' <"$work/cartesian pendulum.csv" | "$work/bin/compare_cartesian_pendulum" \
  >"$work/cp.along"
expect "multipliers along the path" 0 python3 -c '
import sys
ref = [line.split(",") for line in open(sys.argv[1]).read().split()[1:]]
got = [line.split() for line in open(sys.argv[2])]
assert len(ref) == len(got) == 21, (len(ref), len(got))
for r, g in zip(ref, got):
    rod, tension = float(r[5]), float(r[6])
    lam, out = float(g[6]), float(g[7])
    assert abs(lam - rod) <= 1e-7 * (1 + abs(rod)) and abs(out - tension) <= 1e-7 * (1 + abs(tension)), (r, g)
' "$work/cartesian pendulum.ref.csv" "$work/cp.along"

# --- d. The exact solution of a harmonic oscillator. ------------------------
cat >"$work/mech/oscillator.mech" <<'MODEL'
model Oscillator {
  param m = 2 [kg], k = 8 [N/m]
  coord x [m]
  kinetic T = m/2 * x'^2
  potential V = k/2 * x^2
  init x = 1
}
MODEL
expect "oscillator checks" 0 "$mech" check "$work/mech/oscillator.mech"
expect "build oscillator" 0 "$mech" build "$work/mech/oscillator.mech" \
  -o "$work/lib/liboscillator.so" --header "$work/lib/oscillator.h" --prefix osc
helper simulate_oscillator run_simulate.c oscillator osc
expect "osc_simulate" 0 "$work/bin/simulate_oscillator" 10 0.25 1e-10 1e-12
save
# x = cos(w t), x' = -w sin(w t) with w = sqrt(k/m) = 2 rad/s.
expect "oscillator matches cos(w t)" 0 python3 -c '
import math, sys
rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1])]
assert len(rows) == 41 and rows[-1][0] == 10, (len(rows), rows[-1])
for i, (t, x, v) in enumerate(rows):
    assert abs(t - 0.25 * i) < 1e-12, (i, t)
    assert abs(x - math.cos(2 * t)) <= 1e-6 and abs(v + 2 * math.sin(2 * t)) <= 1e-6, (t, x, v)
' "$work/saved"

# --- e. Two models in one process, from two threads. ------------------------
for pair in double_pendulum:dp cartesian_pendulum:cp; do
  m="${pair%%:*}" prefix="${pair##*:}"
  mkdir -p "$work/$prefix" "$work/$prefix.mech"
  expect "build $m as $prefix" 0 "$mech" build "examples/$m.mech" -o "$work/$prefix/lib$prefix.so" \
    --header "$work/$prefix/$prefix.h" --prefix "$prefix"
  expect "build $m as mech" 0 "$mech" build "examples/$m.mech" -o "$work/$prefix.mech/libmodel.so"
done
expect "compile two_models" 0 cc "${cflags[@]}" -I"$work/dp" -I"$work/cp" \
  "$helpers/two_models.c" -o "$work/bin/two_models" "$work/dp/libdp.so" "$work/cp/libcp.so" \
  -Wl,-rpath,"$work/dp" -Wl,-rpath,"$work/cp" -pthread -ldl -lm
expect "two models, two threads, two dlopened libraries" 0 "$work/bin/two_models" \
  "$work/dp.mech/libmodel.so" "$work/cp.mech/libmodel.so"
contains "two threads" out "ok dp and cp from two threads"
contains "dlopen side by side" out "ok two mech-prefixed libraries via dlopen(RTLD_LOCAL)"

# --- f. Bad calls: status codes, no crash. ----------------------------------
helper bad_calls_cartesian_pendulum bad_calls.c cartesian_pendulum cartesian_pendulum
helper bad_calls_knife_edge bad_calls.c knife_edge knife_edge
expect "bad calls (cartesian pendulum)" 0 "$work/bin/bad_calls_cartesian_pendulum"
expect "bad calls (knife edge)" 0 "$work/bin/bad_calls_knife_edge"
helper bad_calls_double_pendulum bad_calls.c double_pendulum double_pendulum
expect "bad calls (double pendulum)" 0 "$work/bin/bad_calls_double_pendulum"

# --- g. -o NAME.o: an object with only PREFIX_* exported, linked statically.
mkdir -p "$work/object"
expect "build object" 0 "$mech" build examples/double_pendulum.mech \
  -o "$work/object/double_pendulum.o" --header "$work/object/double_pendulum.h" \
  --prefix double_pendulum
readelf -h "$work/object/double_pendulum.o" >"$work/object/elf"
contains "object is relocatable" object/elf "REL (Relocatable file)"
nm -g --defined-only "$work/object/double_pendulum.o" | awk '{ print $NF }' >"$work/object/symbols"
only_prefixed "object symbols" double_pendulum "$work/object/symbols"
expect "object exports the API" 0 grep -qx double_pendulum_simulate "$work/object/symbols"
cp examples/c/simulate.c "$work/object/"
expect "link the object statically" 0 cc "$work/object/simulate.c" "$work/object/double_pendulum.o" \
  -o "$work/object/simulate" -lm
expect "statically linked program runs" 0 "$work/object/simulate"
contains "statically linked energy drift" out "energy drift"
cp "$work/out" "$work/object/output"
expect "same output as with the shared library" 0 cmp "$work/object/output" "$work/c/output"

# --- h. The shared libraries export only PREFIX_* symbols. -----------------
for m in "${models[@]}"; do
  nm -D --defined-only "$work/lib/lib$m.so" | awk '{ print $NF }' >"$work/lib/$m.symbols"
  only_prefixed "exports of lib$m.so" "$m" "$work/lib/$m.symbols"
done
nm -D --defined-only "$work/dp.mech/libmodel.so" | awk '{ print $NF }' >"$work/mech.symbols"
only_prefixed "exports with the default prefix" mech "$work/mech.symbols"
expect "all twelve functions exported" 0 test "$(wc -l <"$work/mech.symbols")" -eq 12
contains "the Jacobian is exported" mech.symbols "mech_jacobian"

# --- i. Usage and model errors, --cpu native, --set. -----------------------
expect "missing -o" 2 "$mech" build examples/double_pendulum.mech
contains "missing -o message" err "-o"
expect "missing file name" 2 "$mech" build -o "$work/x.so"
expect "bad prefix (digit first)" 2 "$mech" build examples/double_pendulum.mech -o "$work/x.so" --prefix 1dp
contains "bad prefix message" err "--prefix '1dp'"
expect "bad prefix (dash)" 2 "$mech" build examples/double_pendulum.mech -o "$work/x.so" --prefix d-p
expect "bad cpu" 2 "$mech" build examples/double_pendulum.mech -o "$work/x.so" --cpu pentium
contains "bad cpu message" err "--cpu"
expect "unknown option" 2 "$mech" build examples/double_pendulum.mech -o "$work/x.so" --frob
expect "nothing written on usage errors" 1 test -e "$work/x.so"
printf 'model Broken {\n  coord x [m]\n  kinetic T = m/2 * x^2\n}\n' >"$work/mech/broken.mech"
expect "model error" 1 "$mech" build "$work/mech/broken.mech" -o "$work/broken.so"
contains "model error location" err "broken.mech:3:15: error: unknown name 'm'"
expect "no library from a broken model" 1 test -e "$work/broken.so"
mkdir -p "$work/native"
expect "--cpu native" 0 "$mech" build examples/double_pendulum.mech -o "$work/native/libnative.so" \
  --header "$work/native/native.h" --prefix native --cpu native
expect "--cpu native library works" 0 /usr/bin/python3 examples/python/simulate.py \
  "$work/native/libnative.so" --prefix native
expect "--cpu generic" 0 "$mech" build examples/double_pendulum.mech -o "$work/native/libgeneric.so" \
  --cpu generic
expect "--set changes the defaults" 0 "$mech" build examples/double_pendulum.mech \
  -o "$work/native/libset.so" --header "$work/native/set.h" --set l2=0.5 --set "m1=300 [g]"
contains "--set l2" native/set.h "p[3]  l2 [m] = 0.5"
contains "--set m1 in SI" native/set.h "p[0]  m1 [kg] = 0.3"
expect "--set a structural param" 0 "$mech" build examples/chain.mech -o "$work/native/libchain3.so" \
  --header "$work/native/chain3.h" --set n=3
contains "chain of 3" native/chain3.h "(nq = 3)"

# --- j. examples/python/simulate.py. ------------------------------------------
expect "simulate.py" 0 /usr/bin/python3 examples/python/simulate.py "$work/c/libdouble_pendulum.so"
contains "simulate.py model" out "model DoublePendulum: 2 coordinates, 5 params"
contains "simulate.py rows" out "21 rows"
contains "simulate.py drift" out "relative energy drift"
expect "simulate.py, default prefix" 0 /usr/bin/python3 examples/python/simulate.py \
  "$work/dp.mech/libmodel.so" --prefix mech
expect "simulate.py, default library in the working directory" 0 sh -c \
  "cd '$work/c' && /usr/bin/python3 '$root/examples/python/simulate.py'"
# The knife edge is pushed: its energy grows, and the check must say so.
expect "simulate.py fails on a drift" 1 /usr/bin/python3 examples/python/simulate.py \
  "$work/lib/libknife_edge.so" --prefix knife_edge
contains "simulate.py drift message" err "energy drift is above 1e-6"
expect "simulate.py, wrong prefix" 1 /usr/bin/python3 examples/python/simulate.py \
  "$work/c/libdouble_pendulum.so" --prefix nope

# --- k. PREFIX_simulate_with: t0, multiplier and output columns. ------------
contains "header: the options struct" lib/oscillator.h "} osc_sim_options;"
contains "header: the initializer" lib/oscillator.h \
  "#define OSC_SIM_OPTIONS_INIT {sizeof(osc_sim_options), 0.0, 0, 0, 0, 0, OSC_METHOD_DOPRI5, 0, 0, 0, 0}"
contains "header: ABI version 3" lib/oscillator.h "#define OSC_ABI_VERSION 3"
# A driven oscillator, m x'' + k x = F cos(W t): x = cos(2 t) + C cos(3 t)
# with w = sqrt(k/m) = 2 and C = (F/m)/(w^2 - W^2) = -0.3, started at
# t0 = 1.3 in that solution's state. The forcing depends on t, so a run
# whose clock started at 0 would leave the solution.
cat >"$work/mech/driven.mech" <<'MODEL'
model DrivenOscillator {
  param m = 2 [kg], k = 8 [N/m], F = 3 [N], W = 3 [1/s]
  coord x [m]
  kinetic T = m/2 * x'^2
  potential V = k/2 * x^2
  generalized F * cos(W * t) on x
  output v = x'
}
MODEL
expect "build driven oscillator" 0 "$mech" build "$work/mech/driven.mech" \
  -o "$work/lib/libdriven.so" --header "$work/lib/driven.h" --prefix driven
helper simulate_with_driven run_simulate_with.c driven driven
read -r x0 v0 < <(python3 -c 'import math; t = 1.3
print(repr(math.cos(2*t) - 0.3*math.cos(3*t)), repr(-2*math.sin(2*t) + 0.9*math.sin(3*t)))')
expect "driven_simulate_with from t0 = 1.3" 0 "$work/bin/simulate_with_driven" 1.3 6.3 0.25 \
  1e-10 1e-12 outputs "$x0" "$v0"
save
expect "driven oscillator from t0 matches its closed form" 0 python3 -c '
import math, sys
rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1])]
assert len(rows) == 21 and all(len(r) == 4 for r in rows), (len(rows), rows[0])
for i, (t, x, v, out) in enumerate(rows):
    assert t == (1.3 + 0.25 * i if i < 20 else 6.3), (i, t)
    X = math.cos(2*t) - 0.3*math.cos(3*t)
    V = -2*math.sin(2*t) + 0.9*math.sin(3*t)
    assert abs(x - X) <= 1e-7 and abs(v - V) <= 1e-7 and out == v, (t, x, X, v, V, out)
' "$work/saved"
# The default options are those of PREFIX_simulate: the same rows, bit for bit.
helper simulate_driven run_simulate.c driven driven
expect "driven_simulate" 0 "$work/bin/simulate_driven" 3 0.25 1e-10 1e-12 "$x0" "$v0"
cp "$work/out" "$work/driven.simulate.csv"
expect "driven_simulate_with, default options" 0 "$work/bin/simulate_with_driven" 0 3 0.25 \
  1e-10 1e-12 state "$x0" "$v0"
cp "$work/out" "$work/driven.with.csv"
expect "simulate is simulate_with with the defaults" 0 cmp "$work/driven.with.csv" \
  "$work/driven.simulate.csv"

# The Kapitza pendulum (a driven support) from t0 = 0.7 against mech simulate
# started at the same time.
expect "compile run_simulate_with for kapitza_pendulum" 0 cc "${cflags[@]}" -I"$helpers" \
  -include "$work/all/kapitza_pendulum.h" "$helpers/run_simulate_with.c" \
  -o "$work/bin/simulate_with_kapitza" "$work/all/libkapitza_pendulum.so" \
  -Wl,-rpath,"$work/all" -lm
expect "mech simulate kapitza from t = 0.7" 0 "$mech" simulate examples/kapitza_pendulum.mech \
  --init "t=0.7, th=0.2, th'=0.5" --until 2.7 --dt 0.1 "${tolerances[@]}" -o "$work/kap.ref.csv"
expect "mech_simulate_with kapitza from t0 = 0.7" 0 "$work/bin/simulate_with_kapitza" 0.7 2.7 \
  0.1 1e-10 1e-12 state 0.2 0.5
cp "$work/out" "$work/kap.csv"
expect "kapitza from t0 agrees with mech simulate" 0 python3 "$helpers/compare_csv.py" \
  "$work/kap.ref.csv" "$work/kap.csv" 3 1e-11

# A bead on a rod spinning at w about the origin (a moving constraint), no
# gravity: from rest on the rod at r0 = 0.1 at t0 = 0.6, r = r0 cosh(w (t - t0))
# and the rod's normal force, the multiplier of a unit-normal constraint, is
# 2 m w r' = 2 m w^2 r0 sinh(w (t - t0)) (the Coriolis force), pushing the
# bead forwards, along the rod's normal (-sin(w t), cos(w t)), the gradient
# of Phi = -x sin(w t) + y cos(w t): lambda = +2 m w^2 r0 sinh(w (t - t0)).
cat >"$work/mech/spinning_rod.mech" <<'MODEL'
model BeadOnSpinningRod {
  param m = 100 [g], w = 2 [rad/s]
  coord x [m], y [m]
  particle bead mass m at [x, y]
  constraint rod: -x * sin(w * t) + y * cos(w * t) == 0
  output r = sqrt(x^2 + y^2)
  init x = 0.1, y = 0, x' = 0, y' = 0.2
}
MODEL
expect "build spinning rod" 0 "$mech" build "$work/mech/spinning_rod.mech" \
  -o "$work/lib/libspin.so" --header "$work/lib/spin.h" --prefix spin
helper simulate_with_spin run_simulate_with.c spin spin
# The header lists SI values: a unit declared in SI as written, else base units.
contains "header: a param declared in grams, in kg" lib/spin.h "p[0]  m [kg] = 0.1"
contains "header: a param in rad/s as declared" lib/spin.h "p[1]  w [rad/s] = 2"
contains "header: N/m as declared" lib/oscillator.h "p[1]  k [N/m] = 8"
contains "header: a coordinate in rad" lib/double_pendulum.h "q[0]  th1 [rad]"
read -r -a spin0 < <(python3 -c 'import math; t, r, w = 0.6, 0.1, 2
print(*map(repr, [r*math.cos(w*t), r*math.sin(w*t), -r*w*math.sin(w*t), r*w*math.cos(w*t)]))')
for columns in all multipliers outputs state; do
  expect "spin_simulate_with ($columns)" 0 "$work/bin/simulate_with_spin" 0.6 1.6 0.1 1e-10 \
    1e-12 "$columns" "${spin0[@]}"
  cp "$work/out" "$work/spin.$columns.csv"
done
expect "spinning rod from t0 matches its closed form" 0 python3 -c '
import math, sys
m, w, r0, t0 = 0.1, 2, 0.1, 0.6
rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1])]
assert len(rows) == 11 and all(len(r) == 7 for r in rows), (len(rows), rows[0])
for t, x, y, vx, vy, lam, r in rows:
    R = r0 * math.cosh(w * (t - t0))
    assert abs(x - R * math.cos(w * t)) <= 1e-8 and abs(y - R * math.sin(w * t)) <= 1e-8, (t, x, y)
    assert abs(r - R) <= 1e-8, (t, r, R)
    L = 2 * m * w**2 * r0 * math.sinh(w * (t - t0))
    assert abs(lam - L) <= 1e-7, (t, lam, L)
' "$work/spin.all.csv"
# The columns asked for, in the order of mech simulate: the state columns of
# every run are the same, lambda alone and the output alone are those of "all".
expect "spinning rod: columns by option" 0 python3 -c '
import sys
table = lambda c: [line.strip().split(",") for line in open(sys.argv[1] + "." + c + ".csv")]
full, lam, out, state = table("all"), table("multipliers"), table("outputs"), table("state")
assert [len(r) for r in (full[0], lam[0], out[0], state[0])] == [7, 6, 6, 5]
for f, l, o, s in zip(full, lam, out, state):
    assert f[:5] == l[:5] == o[:5] == s, (f, l, o, s)
    assert l[5] == f[5] and o[5] == f[6], (f, l, o)
' "$work/spin"
# The multiplier and output columns at the rows' own states against mech eval
# (the cartesian pendulum: its rod force and the tension output).
expect "compile run_simulate_with for cartesian_pendulum" 0 cc "${cflags[@]}" -I"$helpers" \
  -include "$work/lib/cartesian_pendulum.h" -DPREFIX=cartesian_pendulum \
  -DUPREFIX=CARTESIAN_PENDULUM "$helpers/run_simulate_with.c" \
  -o "$work/bin/simulate_with_cp" "$work/lib/libcartesian_pendulum.so" -Wl,-rpath,"$work/lib" -lm
expect "cartesian_pendulum_simulate_with from t0 = 0.4" 0 "$work/bin/simulate_with_cp" 0.4 1.4 \
  0.25 1e-10 1e-12 all 0.6 -0.8 0.4 0.3
cp "$work/out" "$work/cp.with.csv"
cp "$work/spin.all.csv" "$work/spin.with.csv"
expect "multiplier and output columns match mech eval" 0 python3 -c '
import json, subprocess, sys
mech = sys.argv[1]
for model, path, names in ((sys.argv[2], sys.argv[3], ["x", "y"]),
                           (sys.argv[4], sys.argv[5], ["x", "y"])):
    rows = [[float(v) for v in line.split(",")] for line in open(path)]
    assert len(rows) >= 5, (path, len(rows))
    for row in rows:
        t, q, qd, rest = row[0], row[1:3], row[3:5], row[5:]
        at = ", ".join([f"{n}={v!r}" for n, v in zip(names, q)] +
                       [f"{n}\x27={v!r}" for n, v in zip(names, qd)] + [f"t={t!r}"])
        ref = json.loads(subprocess.run([mech, "eval", model, "--json", "--at", at], check=True,
                                        capture_output=True, text=True).stdout)
        want = list(ref["lambda"].values()) + list(ref["outputs"].values())
        assert len(want) == len(rest), (model, want, rest)
        for a, b in zip(rest, want):
            assert abs(a - b) <= 1e-9 * (1 + abs(b)), (model, t, rest, want)
' "$mech" examples/cartesian_pendulum.mech "$work/cp.with.csv" "$work/mech/spinning_rod.mech" \
  "$work/spin.with.csv"

# --- l. Radau IIA in PREFIX_simulate_with. ---------------------------------
# The stiff oscillator (k = 1e9, c = 1e6, forced) for 10 s, where DOPRI5
# would take 3e6 steps: its exact solution (examples/overdamped_oscillator.mech)
# and the rows of mech simulate --method radau, the same method.
expect "compile run_simulate_with for overdamped_oscillator" 0 cc "${cflags[@]}" -I"$helpers" \
  -include "$work/all/overdamped_oscillator.h" "$helpers/run_simulate_with.c" \
  -o "$work/bin/simulate_with_stiff" "$work/all/liboverdamped_oscillator.so" \
  -Wl,-rpath,"$work/all" -lm
expect "stiff oscillator with the library's radau" 0 env METHOD=radau \
  "$work/bin/simulate_with_stiff" 0 10 0.1 1e-6 1e-15 state
cp "$work/out" "$work/stiff.radau.csv"
expect "mech simulate --method radau, stiff oscillator" 0 "$mech" simulate \
  examples/overdamped_oscillator.mech --method radau --until 10 --dt 0.1 --rtol 1e-6 \
  --atol 1e-15 -o "$work/stiff.ref.csv"
# Not bit for bit: the library's kernels are compiled for the generic CPU and
# mech's for this one (fused multiply-adds), and x'' = (F0 sin(w t) - c x'
# - k x)/m cancels terms of order 1 to 1e-9, so their roundings differ by
# 1e-7 relative; the rows agree to a fifth of the error tolerance.
expect "library radau is mech simulate's" 0 python3 "$helpers/compare_csv.py" \
  "$work/stiff.ref.csv" "$work/stiff.radau.csv" 2 2e-16
expect "library radau against the exact solution" 0 python3 -c '
import cmath, math, sys
m, k, c, F0, w = 1.0, 1e9, 1e6, 1.0, 1.0
G = F0 / complex(k - m * w * w, c * w)
fast = (-c - math.sqrt(c * c - 4 * m * k)) / (2 * m)
slow = k / (m * fast)
A = (fast * G.imag - w * G.real) / (slow - fast)
B = -G.imag - A
rows = [[float(v) for v in line.split(",")] for line in open(sys.argv[1])]
assert len(rows) == 101, len(rows)
for t, x, v in rows:
    exact = (G * cmath.exp(1j * w * t)).imag + A * math.exp(slow * t) + B * math.exp(fast * t)
    assert abs(x - exact) <= 1e-14, (t, x, exact)
' "$work/stiff.radau.csv"
# With a constraint: the Cartesian pendulum, projected after every step and
# at every row as mech simulate --method radau --constraints projection
# does: the same steps, the rows to rounding.
expect "cartesian pendulum with the library's radau" 0 env METHOD=radau \
  "$work/bin/simulate_with_cp" 0 2 0.25 1e-10 1e-12 state 0.6 -0.8 0.4 0.3
cp "$work/out" "$work/cp.radau.csv"
expect "mech simulate --method radau --constraints projection" 0 "$mech" simulate \
  examples/cartesian_pendulum.mech --init "x=0.6, y=-0.8, x'=0.4, y'=0.3" --method radau \
  --constraints projection --until 2 --dt 0.25 --rtol 1e-10 --atol 1e-12 -o "$work/cp.ref.csv"
expect "constrained library radau is mech simulate's" 0 python3 "$helpers/compare_csv.py" \
  "$work/cp.ref.csv" "$work/cp.radau.csv" 5 1e-11

finish
