#!/usr/bin/env bash
# Small inputs that used to hang mech or exhaust the machine end at once
# with an answer: defs that call one another twice over (a 2.3 KB file that
# `check` took minutes on, ×4 per two levels; a valid 3.5 KB one that
# `equations` ran past 100 s and 900 MB on), a dense mass matrix of 200
# coordinates (108 s in LLVM; now compiled in seconds, and `build`, whose
# Jacobian doubles the estimate, refuses it naming the estimate and the
# budget), and the REPL's 60th derivative of
# exp(sin(x)*x^2) (past 2 GB; now an error, the session goes on). Each
# command runs under `timeout` so that a regression fails instead of
# hanging the suite; what is tested is the decision, not the time.
# Usage: test_small_inputs.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
# defs LEVELS LEAF: a{i} = a{i+1} + b{i+1}, b{i} = a{i+1} * b{i+1}, the
# leaf a{LEVELS}(x) = LEAF; the model uses a0 in its potential.
defs() {
  python3 - "$1" "$2" <<'PY'
import sys
levels, leaf = int(sys.argv[1]), sys.argv[2]
for i in range(levels):
    print(f"def a{i}(x) = a{i+1}(x) + b{i+1}(x)")
    print(f"def b{i}(x) = a{i+1}(x) * b{i+1}(x)")
print(f"def a{levels}(x) = {leaf}")
print(f"def b{levels}(x) = x")
print("""model Deep {
  param m = 1 [kg], k = 1 [N/m]
  coord x [m]
  kinetic m/2*x'^2
  potential k/2*x^2 + k*(1 [m])^2*0.001*a0(x/(1 [m]))
  init x = 0.1, x' = 0
}""")
PY
}

# One dimension error at the bottom of 40 levels: reported once, at once.
defs 40 "x + 1 [s]" >bad.mech
expect "40 levels of defs with an error" 1 timeout 60 "$mech" check bad.mech
contains "the error is located" err "bad.mech:81:18: error: this sum mixes dimensions 1 and s"
contains "with the call that reached it" err "note: in the call of 'a40' here"
if [ "$(grep -c "error:" "$work/err")" -eq 1 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: the def's error is reported $(grep -c "error:" "$work/err") times"; fi

# 60 valid levels: the expression as a tree passes 2^24 nodes, an error at
# the def where it does (the equations would take hours to derive).
defs 60 "x" >deep.mech
expect "60 levels of defs" 1 timeout 60 "$mech" equations deep.mech
contains "the tree limit is named" err "expands to more than 16777216 nodes as a tree"
contains "at a def of the chain" err "deep.mech:"
# 12 levels are fine, and their equations are right: a0 of 12 levels at
# x = u is a polynomial the Python below evaluates by the same recursion.
defs 12 "x" >fine.mech
expect "12 levels of defs derive" 0 timeout 60 "$mech" eval fine.mech --at "x=0.3, x'=0" --json
check_json "the force of 12 levels of defs" '
def ab(level, u):
    if level == 12: return u, u
    a, b = ab(level + 1, u)
    return a + b, a * b
u, h = 0.3, 1e-6
V = lambda u: 0.5 * u * u + 0.001 * ab(0, u)[0]
dV = (V(u + h) - V(u - h)) / (2 * h)
acc = j["qdd"]["x"]
assert abs(acc + dV) <= 1e-6 * max(1, abs(dV)), (acc, -dV)
'

# A dense mass matrix of 200 coordinates: few instructions, 40000 entries
# of M (LLVM took 108 s on them in one function). The JIT stores an entry
# that many places share by a loop over a table of its places: compiled in
# seconds, without a note. Build, whose Jacobian doubles the estimate, is
# over the budget and refuses, naming the estimate and the budget; at 300
# coordinates simulate with --backend jit is too, and runs on the
# interpreter with the note (a tiered run's budget is larger).
cp "$root/tests/cli/models/dense_mass.mech" dense.mech
expect "dense n = 200 simulates" 0 timeout 120 "$mech" simulate dense.mech --until 0.01 -o out.csv --no-cache
lacks "dense n = 200: compiled" err "JIT budget"
expect "dense n = 300 simulates" 0 timeout 120 "$mech" simulate dense.mech --set n=300 --until 0.01 -o out.csv \
  --backend jit
contains "on the interpreter, with the note" err "operations, more than the JIT budget of 60000; using the interpreter"
expect "dense n = 200 does not build" 1 timeout 120 "$mech" build dense.mech -o libdense.so
contains "build names the estimate and the budget" err "operations, more than the JIT budget of 60000"
if [ ! -e libdense.so ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: build wrote a library"; fi
expect "dense n = 10 simulates" 0 timeout 120 "$mech" simulate dense.mech --set n=10 --until 0.01 -o out.csv
lacks "small dense: compiled" err "JIT budget"

# The REPL: an evaluation that grows without bound is stopped; the session
# goes on.
printf 'diff(diff(diff(exp(sin(x)*x^2), x, 20), x, 20), x, 20)\n1 + 1\n' >grow.in
expect "the 60th derivative ends" 0 timeout 120 "$mech" repl <grow.in
contains "it is stopped with a reason" err "error: the evaluation grows past 1000000 new expression nodes and was stopped"
contains "the session goes on" out "2"

finish
