#!/usr/bin/env bash
# The derivation cache (driver/DerivationCache.h): a second run of the same
# model reads its derived equations instead of deriving them, and finds its
# compiled kernels through the sources' index without generating IR; every
# command then prints what it printed after deriving. The key covers what
# the derivation depends on: an edit of the model or of an imported file
# and another build of mech each miss, a --set value of a param does not; --no-cache neither reads
# nor writes; a corrupt entry is reported, derived again and replaced.
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

derived="$work/cache/mech-derivations"
sim() { "$mech" simulate "$@" --until 1; }

# --- Warm runs read the derivation. -------------------------------------------
expect "first run derives" 0 sim examples/double_pendulum.mech
cp "$work/out" "$work/first.csv"
lacks "not from the cache" err "(cached)"
expect "second run reads the derivation" 0 sim examples/double_pendulum.mech
contains "says so" err "time: derive"
contains "from the cache" err "(cached), compile"
contains "and its kernels through the index" err "(cache hit)"
cp "$work/out" "$work/second.csv"
expect "the same trajectory, byte for byte" 0 cmp "$work/first.csv" "$work/second.csv"
expect "a derivation entry was stored" 0 test -n "$(ls "$derived")"

# --- Every command prints the same from a read derivation. ----------------------
# (The codec itself is checked on every example, field by field, by
# DerivationCodecTest; the sanitizer pass takes every fourth example here.)
every=1
[ -n "${MECH_SANITIZER_PASS:-}" ] && every=4
index=0
for model in examples/*.mech; do
  index=$((index + 1))
  [ $((index % every)) -eq 0 ] || continue
  for command in "equations" "conserved" "eval" "linearize"; do
    rm -rf "$work/cache"
    "$mech" $command "$model" >"$work/derived.out" 2>"$work/derived.err"
    status=$?
    "$mech" $command "$model" >"$work/read.out" 2>"$work/read.err"
    if [ $? -eq $status ] && cmp -s "$work/derived.out" "$work/read.out" &&
      cmp -s "$work/derived.err" "$work/read.err"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $command $model: the output from a read derivation differs"
      diff "$work/derived.out" "$work/read.out" | head -5
    fi
  done
done

# --- What misses. ---------------------------------------------------------------
rm -rf "$work/cache"
mkdir -p "$work/model"
cat >"$work/model/arm.mech" <<'MECH'
import "parts.mech"
model Arm {
  param m = 1 [kg], k = 3 [N/m]
  coord x [m]
  kinetic T = m / 2 * x'^2
  potential V = elastic(k, x)
  init x = 1
}
MECH
printf 'def elastic(k, x) = k / 2 * x^2\n' >"$work/model/parts.mech"
expect "arm, first" 0 sim "$work/model/arm.mech"
expect "arm, again" 0 sim "$work/model/arm.mech"
contains "hit" err "(cached)"
# A param's value is a symbol in the equations: another value hits (the
# structural values that do miss are test_trust_crashes.sh's).
expect "arm with --set" 0 sim "$work/model/arm.mech" --set k=5
contains "a value of a param hits" err "(cached)"
check_py "with the value set: x = cos(sqrt(k/m) t)" '
import math
rows = list(csv.reader(open(W + "/out")))
for r in rows[1:]:
    assert abs(float(r[1]) - math.cos(math.sqrt(5) * float(r[0]))) < 1e-5, r
'
printf 'def elastic(k, x) = k / 2 * x^2 + k / 4 * x^4 / (1 [m^2])\n' >"$work/model/parts.mech"
expect "arm after an edit of its import" 0 sim "$work/model/arm.mech"
lacks "an imported file's edit misses" err "(cached)"
check_py "and the new potential is in the motion" '
rows = list(csv.reader(open(W + "/out")))
x = [float(r[1]) for r in rows[1:]]
# x'' = -(k x + k x^3)/m from x = 1 at rest: faster than the linear spring.
assert x[0] == 1 and min(x) < 0.5, x[:5]
import math
assert abs(x[10] - math.cos(math.sqrt(3) * 0.1)) > 1e-4
'
sed -i 's/init x = 1/init x = 0.5/' "$work/model/arm.mech"
expect "arm after an edit of itself" 0 sim "$work/model/arm.mech"
lacks "misses" err "(cached)"
expect "--no-cache" 0 sim "$work/model/arm.mech" --no-cache
lacks "--no-cache reads nothing" err "(cached)"
before="$(ls "$derived" | wc -l)"
expect "--no-cache on a new setting" 0 sim "$work/model/arm.mech" --no-cache --set k=7
expect "and writes nothing" 0 test "$(ls "$derived" | wc -l)" -eq "$before"

# A copy of this build (the same build-id, another file) reads what it
# stored; another build-id misses (test_trust_crashes.sh).
mkdir -p "$work/other"
cp "$mech" "$work/other/mech"
expect "a copy of the build" 0 "$work/other/mech" simulate "$work/model/arm.mech" --until 1
contains "reads the derivation" err "(cached)"
contains "and the kernels" err "(cache hit)"

# --- A corrupt entry. -----------------------------------------------------------
rm -rf "$work/cache"
expect "fill" 0 sim examples/double_pendulum.mech
for entry in "$derived"/*; do
  printf 'garbage' | dd of="$entry" bs=1 seek=100 conv=notrunc 2>/dev/null
done
expect "a corrupt derivation entry" 0 sim examples/double_pendulum.mech
contains "is reported" err "warning: derivation cache:"
lacks "is not read" err "(cached)"
cp "$work/out" "$work/corrupt.csv"
expect "the model's own trajectory" 0 cmp "$work/first.csv" "$work/corrupt.csv"
expect "and replaced" 0 sim examples/double_pendulum.mech
contains "the next run reads it" err "(cached)"
lacks "without a warning" err "warning:"

finish
