#!/usr/bin/env bash
# Tiered execution (`--backend auto`, the default of simulate and animate):
# kernels of 3000 operations or more start on the interpreter at once and
# native code takes over when LLVM, on another thread, has compiled them.
# The two back ends perform the same operations in the same order, so the
# output is the interpreter's, bit for bit, whichever back end ran which
# part: that is what is checked, not the timing. Whether the hand-over
# happened within the run depends on the machine; when it did not, the
# checks that need it are reported as skipped. A run shorter than the
# compile ends without waiting for it, its output complete.
# Usage: test_tiering.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
export XDG_CACHE_HOME="$work/cache"
chain="$root/examples/chain.mech"

run=(simulate "$chain" --set n=20 --until 40 --dt 0.01)
expect "a tiered run" 0 "$mech" "${run[@]}" -o "$work/tiered.csv"
contains "it says which back end ran when" err "tiers: the interpreter"
cp "$work/err" "$work/tiered.err"
expect "the interpreter alone" 0 "$mech" "${run[@]}" -o "$work/interp.csv" --backend interp
lacks "no tiers with --backend interp" err "tiers:"
expect "the JIT alone" 0 "$mech" "${run[@]}" -o "$work/jit.csv" --backend jit --no-cache
lacks "no tiers with --backend jit" err "tiers:"
identical "tiered run = interpreter, bit for bit" tiered.csv interp.csv
identical "tiered run = JIT, bit for bit" tiered.csv jit.csv
if grep -q "native code from there" "$work/tiered.err"; then
  passed=$((passed + 1))
  # The compiled code was stored: the next run starts on it.
  expect "a warm run" 0 "$mech" "${run[@]}" -o "$work/warm.csv"
  contains "the warm run found the code" err "(cache hit)"
  lacks "the warm run is not tiered" err "tiers:"
  identical "warm run = tiered run" warm.csv tiered.csv
else
  skip "LLVM did not finish before the 40 s run ended on this machine: the hand-over and the warm run were not exercised"
fi

# A run shorter than the compile of its kernels: exit 0 at once, the
# samples all written, nothing cached.
expect "a short run of a large model" 0 "$mech" simulate "$chain" --set n=60 --until 0.02 \
  --dt 0.01 -o "$work/short.csv" --no-cache
contains "the short run says how it ran" err "tiers: the interpreter"
if [ "$(wc -l <"$work/short.csv")" -eq 4 ] && tail -1 "$work/short.csv" | grep -q '^0.02,'; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  echo "FAIL: the short run's samples are not all written"
  cat "$work/short.csv" | cut -c1-80
fi

# Small kernels compile first, as every other command does.
expect "a small model" 0 "$mech" simulate "$root/examples/double_pendulum.mech" --until 1 \
  -o "$work/small.csv" --no-cache
lacks "no tiers for small kernels" err "tiers:"
expect "animate is tiered too" 0 "$mech" animate "$chain" --set n=20 --until 1 \
  -o "$work/chain.html" --no-cache
contains "animate says how it ran" err "tiers: the interpreter"
finish
