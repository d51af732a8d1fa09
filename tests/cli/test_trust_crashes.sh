#!/usr/bin/env bash
# What a run must never lose, leave behind or crash on:
#  a. sweep --threads has an upper bound; threads the system cannot start
#     (a memory limit) cost time, never the rows, from the CLI or Python
#  b. SIGHUP keeps a sweep's finished rows, as SIGINT and SIGTERM do; a
#     sweep stopped before its first row leaves an existing file as it was
#  c. simulate -o stopped by SIGINT, SIGTERM or SIGHUP leaves no temporary
#     file and the old output as it was
#  d. a stale MPI rank in the environment (no launcher) runs the sweep as
#     one process, with a note
#  e. the derivation cache: a --set value of a param shares the entry, a
#     structural size does not; an entry with a valid checksum whose body
#     is another derivation's is a miss and is replaced, never a crash
#  f. MECH_CACHE_SIZE caps the cache folders; a bad value is a warning
#  g. no cache folder is made in another user's folder (root with a
#     user's HOME); the build identity is the linker's build-id
# Usage: test_trust_crashes.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
models=tests/cli/models
derived="$work/cache/mech-derivations"

# Waits (up to 60 s) until a staging file matching the glob has at least
# $2 bytes.
wait_for_staging() {
  for _ in $(seq 600); do
    for f in $1; do
      [ -e "$f" ] && [ "$(wc -c <"$f")" -ge "$2" ] && return 0
    done
    sleep 0.1
  done
  return 1
}

# Runs the command with SIGINT at its default action: a background job of
# a script starts with SIGINT ignored. (Python's own executable, so that
# the command keeps the pid `$!` names rather than run under a wrapper.)
python="$(python3 -c 'import sys; print(sys.executable)')"
with_sigint() {
  exec "$python" -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}

# --- a. Threads. ---------------------------------------------------------------
expect "--threads above its bound" 2 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..2:2" --until 1 --summary "max(x)" --threads 1025
contains "says the bound" err "sweep: --threads takes at most 1024, got '1025'"
expect "--threads at its bound" 0 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..2:2" --until 1 --summary "max(x)" --threads 1024
# 1000 threads of 8 MiB stacks do not fit in 2 GB of address space. Not
# under the sanitizers: AddressSanitizer reserves terabytes of address
# space for its shadow memory, which ulimit -v forbids.
if [ -z "${MECH_SANITIZER_PASS:-}" ]; then
  (
    ulimit -v 2000000
    "$mech" sweep $models/harmonic_oscillator.mech --grid "k=1..4:1200" --until 2 \
      --summary "max(x)" --threads 1000 -o "$work/limited.csv" 2>"$work/limited.err"
    echo $? >"$work/status"
  )
  expect "a thread limit: the sweep completes" 0 test "$(cat "$work/status")" -eq 0
  contains "and says how many threads ran" limited.err "threads asked for could be started"
  contains "every run done" limited.err "sweep: 1200 of 1200 runs on"
  check_py "every row, amplitude sqrt(1 + m/k)" '
import math
rows = list(csv.reader(open(W + "/limited.csv")))[1:]
assert len(rows) == 1200, len(rows)
for r in rows:
    k = float(r[0])
    assert abs(float(r[1]) - math.sqrt(1 + 1 / k)) < 1e-3, r
'
  expect "no staging file left" 0 test -z "$(ls -A "$work" | grep '^\.limited')"
else
  skip "the sweep under a thread limit (ulimit -v, which AddressSanitizer cannot run under)"
fi
# The same from Python, whose interpreter the abort ended.
if [ -n "$build" ] && [ -d "$build/python/mech" ]; then
  (
    ulimit -v 3000000
    PYTHONPATH="$build/python" /usr/bin/python3 -c '
import math, mech, sys
m = mech.load(sys.argv[1])
r = mech.sweep(m, {"k": [1 + i * 3 / 1199 for i in range(1200)]}, ["max(x)"], until=2,
               threads=1000, progress=False)
assert len(r["max(x)"]) == 1200
for k, x in zip(r["k"], r["max(x)"]):
    assert abs(x - math.sqrt(1 + 1 / k)) < 1e-3, (k, x)
' "$root/$models/harmonic_oscillator.mech" >"$work/py.out" 2>&1
    echo $? >"$work/status"
  )
  expect "Python: a thread limit, every row" 0 test "$(cat "$work/status")" -eq 0
  empty "Python: no abort" py.out
else
  skip "the sweep from Python under a thread limit (no Python package in the build)"
fi

# --- b. Signals to a sweep. ----------------------------------------------------
"$mech" sweep examples/double_pendulum.mech --grid "th1=-3..3:300, th2=-3..3:300" --until 10 \
  --summary "at_end(th2)" --threads 2 -o "$work/cut.csv" >"$work/cut.out" 2>"$work/cut.err" &
pid=$!
wait_for_staging "$work/.cut.csv.tmp-*" 2000
kill -HUP $pid
wait $pid
status=$?
expect "SIGHUP: exit 130" 0 test $status -eq 130
contains "says so" cut.err "sweep: interrupted; the"
check_kept_rows "SIGHUP keeps the rows done, whole, in order"

printf 'an earlier result\n' >"$work/old.csv"
"$mech" sweep examples/double_pendulum.mech --grid "th1=1..2:2" --until 1e7 --max-steps 1e9 \
  --summary "at_end(th2)" --threads 1 -o "$work/old.csv" >"$work/early.out" 2>"$work/early.err" &
pid=$!
wait_for_staging "$work/.old.csv.tmp-*" 0
sleep 1
kill -TERM $pid
wait $pid
status=$?
expect "stopped before a row: exit 130" 0 test $status -eq 130
expect "the earlier file is as it was" 0 test "$(cat "$work/old.csv")" = "an earlier result"
contains "says so" early.err "interrupted before any run was done; '$work/old.csv' is not written"
expect "no staging file left" 0 test -z "$(ls -A "$work" | grep '^\.old\.csv')"

# --- c. Signals to simulate -o. ------------------------------------------------
for signal in INT TERM HUP; do
  printf 'an earlier trajectory\n' >"$work/run.csv"
  launch=()
  [ $signal = INT ] && launch=(with_sigint)
  # A sample a second of a long run: the file grows slowly.
  "${launch[@]}" "$mech" simulate examples/double_pendulum.mech --until 1e7 --dt 1 \
    --max-steps 1e9 -o "$work/run.csv" >"$work/sim.out" 2>"$work/sim.err" &
  pid=$!
  wait_for_staging "$work/.run.csv.tmp-*" 10000
  kill -$signal $pid
  wait $pid
  status=$?
  expect "simulate -o, SIG$signal: ended by the signal" 0 test $status -gt 128
  expect "simulate -o, SIG$signal: no staging file left" 0 \
    test -z "$(ls -A "$work" | grep '^\.run\.csv')"
  expect "simulate -o, SIG$signal: the earlier file is as it was" 0 \
    test "$(cat "$work/run.csv")" = "an earlier trajectory"
done

# --- d. A stale MPI rank. -------------------------------------------------------
if [ -e "$(dirname "$mech")/libmech_mpi.so" ]; then
  expect "a stale rank 1 of 2" 0 env OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "$mech" sweep \
    $models/harmonic_oscillator.mech --grid "k=1..4:4" --until 5 --summary "max(x)" \
    -o "$work/stale.csv"
  contains "says so" err "names this process rank 1 of an MPI job of 2, but MPI finds no such job"
  check_py "and writes every row" '
import math
rows = list(csv.reader(open(W + "/stale.csv")))[1:]
assert [float(r[0]) for r in rows] == [1, 2, 3, 4], rows
for r in rows:
    assert abs(float(r[1]) - math.sqrt(1 + 1 / float(r[0]))) < 1e-4, r
'
else
  skip "a stale MPI rank (this mech was built without its MPI module)"
fi

# --- e. The derivation cache's keys and malformed entries. ----------------------
# The derivation entries (not the index entries beside them), one per line.
derivations() { grep -l "^derivation of " "$derived"/*.o 2>/dev/null | sort; }
rm -rf "$work/cache"
expect "chain, m = 2" 0 "$mech" simulate examples/chain.mech --set n=3 --set m=2 --until 0.5
expect "chain, m = 3" 0 "$mech" simulate examples/chain.mech --set n=3 --set m=3 --until 0.5
contains "another mass reads the derivation" err "(cached)"
expect "two masses, one entry" 0 test "$(derivations | wc -l)" -eq 1
derivations >"$work/three"
expect "chain, n = 4" 0 "$mech" simulate examples/chain.mech --set n=4 --until 0.5
lacks "another size derives" err "(cached)"
expect "two sizes, two entries" 0 test "$(derivations | wc -l)" -eq 2
"$mech" simulate examples/chain.mech --set n=4 --until 0.5 --no-cache >"$work/four.csv" 2>/dev/null
four="$(derivations | grep -vxF -f "$work/three")"
# n = 3's body under n = 4's key, with the checksum made right: the entry
# is whole and checked, but it is not n = 4's derivation.
python3 - "$(cat "$work/three")" "$four" <<'PY'
import hashlib, sys
def parts(path):
    data = open(path, "rb").read()
    head, rest = data.split(b"\n", 1)
    return head, rest
_, three = parts(sys.argv[1])
_, four = parts(sys.argv[2])
key = four.split(b"\n", 1)[0]
body = key + b"\n" + three.split(b"\n", 1)[1]
with open(sys.argv[2], "wb") as out:
    out.write(b"mech-object 2 " + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
PY
expect "n = 4 with n = 3's derivation in its entry" 0 "$mech" simulate examples/chain.mech \
  --set n=4 --until 0.5
contains "is reported" err "warning: derivation cache: an entry that is not a derivation"
lacks "is not used" err "(cached)"
cp "$work/out" "$work/replaced.csv"
expect "n = 4's own motion" 0 cmp "$work/replaced.csv" "$work/four.csv"
expect "and replaced" 0 "$mech" simulate examples/chain.mech --set n=4 --until 0.5
contains "the next run reads it" err "(cached)"
lacks "without a warning" err "warning:"

# --- f. The size of the caches. -------------------------------------------------
rm -rf "$work/cache"
expect "a default-sized cache keeps its entries" 0 "$mech" simulate \
  $models/harmonic_oscillator.mech --until 1
expect "kernel entries kept" 0 test -n "$(ls "$work/cache/mech")"
expect "derivation entries kept" 0 test -n "$(ls "$derived")"
expect "a cache of one byte" 0 env MECH_CACHE_SIZE=1 "$mech" simulate \
  examples/double_pendulum.mech --until 1
lacks "no warning" err "warning:"
expect "keeps no kernel entry" 0 test -z "$(ls "$work/cache/mech")"
expect "and no derivation entry" 0 test -z "$(ls "$derived")"
expect "not a size" 0 env MECH_CACHE_SIZE=lots "$mech" simulate \
  $models/harmonic_oscillator.mech --until 1
contains "is a warning" err "warning: the derivation cache is not used: MECH_CACHE_SIZE='lots' is not a size"
contains "for both caches" err "warning: the kernel cache is not used: MECH_CACHE_SIZE='lots'"

# --- g. Cache folders of another user, and the build identity. -------------------
if [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$work/userhome"
  chown 4242:4242 "$work/userhome"
  expect "root with a user's HOME" 0 env -u XDG_CACHE_HOME HOME="$work/userhome" "$mech" simulate \
    $models/harmonic_oscillator.mech --until 1
  lacks "without a warning" err "warning:"
  expect "makes nothing in that user's home" 0 test ! -e "$work/userhome/.cache"
else
  skip "another user's cache root (needs root to give a folder to another uid)"
fi
if command -v readelf >/dev/null; then
  linked="$(readelf -n "$mech" | sed -n 's/.*Build ID: *//p')"
  expect "mech --version" 0 "$mech" --version
  contains "shows the linker's build-id" out "build-id $linked"
  expect "the build has one" 0 test -n "$linked"
else
  skip "the build-id against readelf's (no readelf)"
fi
rm -rf "$work/cache"
mkdir -p "$work/other"
cp "$mech" "$work/other/mech"
touch -d "2001-01-01" "$work/other/mech"
expect "fill" 0 "$mech" simulate $models/harmonic_oscillator.mech --until 1
expect "a copy of the same build" 0 "$work/other/mech" simulate \
  $models/harmonic_oscillator.mech --until 1
contains "reads what it stored" err "(cached)"
# The copy's build-id changed in place: another build, whatever its file.
python3 - "$work/other/mech" "$("$mech" --version | sed -n 's/^build-id //p')" <<'PY'
import sys
path, hexid = sys.argv[1], bytes.fromhex(sys.argv[2])
data = bytearray(open(path, "rb").read())
at = data.find(hexid)
assert at > 0 and data.find(hexid, at + 1) < 0
data[at + len(hexid) - 1] ^= 0xff
open(path, "wb").write(bytes(data))
PY
expect "another build" 0 "$work/other/mech" simulate $models/harmonic_oscillator.mech --until 1
lacks "misses the derivation" err "(cached)"
contains "and the kernels" err "(cache miss)"

finish
