# Sizes that used to exhaust the machine: a family of 10,000 coordinates
# (over 6 GB for `check`), 100,000 unknown names (quadratic "did you mean"
# searches, over 120 s), kernels too large to compile in reasonable time.
# Each is refused or bounded with a message naming the limit; no timing is
# asserted, the timeouts only keep a regression from hanging the suite.
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"

# family N: N separate particles on a line, one coordinate each.
family() {
  printf 'model Fam {\n  param m = 1 [kg]\n  coord q[1..%s] [m]\n' "$1"
  printf '  for k in 1..%s {\n    particle p[k] mass m at [q[k], 0]\n  }\n}\n' "$1"
}

# Coordinates: at most 1000, refused before the mass matrix is allocated.
family 10000 >fam.mech
expect "10000 coordinates are refused" 1 timeout 120 "$mech" check fam.mech
contains "10000 coordinates: located at the family" err "fam.mech:3:9: error: the model has 10000"
contains "10000 coordinates: names the limit" err "more than the limit of 1000"
contains "10000 coordinates: counts the mass matrix" err "100000000 entries"
family 100000 >fam.mech
expect "100000 coordinates are refused" 1 timeout 120 "$mech" check fam.mech
contains "100000 coordinates: names the limit" err "more than the limit of 1000"
family 1001 >fam.mech
expect "1001 coordinates are refused" 1 timeout 120 "$mech" equations fam.mech
contains "1001 coordinates: names the limit" err "1001 coordinates, more than the limit of 1000"
# Coordinates of several declarations count together.
printf 'model Two {\n  param m = 1 [kg]\n  coord a[1..600] [m], b[1..600] [m]\n' >two.mech
printf '  for k in 1..600 {\n    particle p[k] mass m at [a[k], b[k]]\n  }\n}\n' >>two.mech
expect "600 + 600 coordinates are refused" 1 timeout 120 "$mech" check two.mech
contains "600 + 600: names the limit" err "1200 coordinates, more than the limit of 1000"
family 200 >fam.mech
expect "200 coordinates are within the limit" 0 timeout 120 "$mech" check fam.mech
contains "200 coordinates: summary" out "Fam: 200 coordinates"

# Constraints: at most 1000 (the Jacobian has m*n entries).
printf 'model K {\n  param m = 1 [kg]\n  coord x [m], y [m]\n  particle p mass m at [x, y]\n' >k.mech
printf '  for k in 1..1001 {\n    constraint c[k]: x == y\n  }\n}\n' >>k.mech
expect "1001 constraints are refused" 1 timeout 120 "$mech" check k.mech
contains "1001 constraints: names the limit" err "1001 constraints, more than the limit of 1000"

# unknown N: N lets each naming an unknown name. Only the first 100
# errors are reported, then a note; the rest are not searched for hints.
unknown() {
  printf 'model U {\n  param m = 1 [kg]\n  coord x [m]\n  particle p mass m at [x, 0]\n'
  local i=0
  while [ "$i" -lt "$1" ]; do
    printf '  let a%d = b%d + 1\n' "$i" "$i"
    i=$((i + 1))
  done
  printf '}\n'
}
unknown 20000 >u.mech
expect "20000 unknown names fail" 1 timeout 200 "$mech" check u.mech
contains "unknown names: located, with a hint" err "u.mech:15:13: error: unknown name 'b10' (did you mean 'a10'?)"
contains "unknown names: a note says the rest are not shown" err "mech: note: too many diagnostics; the rest are not shown (at most 100 errors"
errors=$(grep -c ": error: " "$work/err")
if [ "$errors" -eq 100 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1))
  echo "FAIL: unknown names: $errors errors reported, expected 100"
fi
unknown 100 >u.mech
expect "100 unknown names fail" 1 "$mech" check u.mech
lacks "100 unknown names: all shown, no note" err "too many diagnostics"
# 20,000 names that are all known check too.
awk 'BEGIN { print "model N {\n  param m = 1 [kg]\n  coord x [m]\n  particle p mass m at [x, 0]";
             for (i = 0; i < 20000; i++) printf "  let a%d = %d * x\n", i, i; print "}" }' >n.mech
expect "20000 known lets check" 0 timeout 200 "$mech" check n.mech

# The JIT budget: a model that derives fast but whose kernels have more
# operations than the budget is simulated with the interpreter, and says so
# (with --backend jit: a tiered run's budget is larger).
printf 'model Wide {\n  param m = 1 [kg], k = 1 [N/m]\n  coord x [m]\n' >w.mech
printf '  particle p mass m at [x, 0]\n' >>w.mech
printf '  potential V = k * sum(i in 1..15000, cos(i * x / 1 [m]) / i^4) * 1 [m^2]\n' >>w.mech
printf '  init x = 0.1\n}\n' >>w.mech
expect "a wide model simulates" 0 timeout 200 "$mech" simulate w.mech --until 0.01 --dt 0.01 \
  --backend jit
contains "wide model: the budget note" err "operations, more than the JIT budget of"
contains "wide model: falls back to the interpreter" err "; using the interpreter"
contains "wide model: no cache without the JIT" err "(cache off)"
contains "wide model: the trajectory is written" out "0.01,"
# Below the budget the JIT is used without a note.
expect "a small model simulates" 0 "$mech" simulate "$root/examples/chain.mech" --set n=2 --until 0.01 --dt 0.01
lacks "small model: no budget note" err "JIT budget"

finish
