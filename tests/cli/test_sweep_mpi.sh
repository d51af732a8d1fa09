#!/usr/bin/env bash
# Command-line tests of `mech sweep` over the ranks of an MPI job (4 ranks of
# Open MPI's mpirun on this machine, loopback only):
#  a. the same file, bit for bit, as one process on one thread: a chaotic
#     double pendulum's basin (CSV and JSON), --random samples, and a grid
#     with more ranks than chunks of runs
#  b. a rank's failed runs are rows with their status and message
#  c. only rank 0 speaks: an error is printed once
#  d. Ctrl-C to mpirun keeps the rows done, whole and in order, and leaves
#     no staging file
# Skipped (exit 77) when Open MPI or the MPI module is not there; labelled
# heavy, so the sanitizer pass (Open MPI trips LeakSanitizer) skips it.
# Usage: test_sweep_mpi.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

if ! command -v mpirun >/dev/null; then
  echo "skipped: no mpirun (Open MPI's openmpi-bin, scripts/install-deps.sh)"
  exit 77
fi
if [ ! -e "$(dirname "$mech")/libmech_mpi.so" ]; then
  echo "skipped: this mech was built without its MPI module (no libopenmpi-dev when built)"
  exit 77
fi
cd "$root"
models=tests/cli/models
# Shared memory between the ranks, no network; root may run the job.
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi=(mpirun --allow-run-as-root --oversubscribe -n 4)

basin=(examples/double_pendulum.mech --grid "th1=-3..3:9, th2=-3..3:8" --init "th1'=0, th2'=0"
  --until 10 --summary "at_end(th2), flipped = any(abs(th2) > pi), first_time(abs(th2) > pi)")

# --- a. The same file as one process. ---------------------------------------
for format in csv json; do
  expect "basin, one process, $format" 0 "$mech" sweep "${basin[@]}" --threads 1 \
    -o "$work/one.$format"
  expect "basin, 4 ranks, $format" 0 "${mpi[@]}" "$mech" sweep "${basin[@]}" \
    -o "$work/four.$format"
  contains "the report names the ranks" err "sweep: 72 of 72 runs on 4 ranks of"
  empty "rank 0 writes the file, not stdout" out
  expect "4 ranks and one process, bit for bit, $format" 0 cmp "$work/one.$format" \
    "$work/four.$format"
done

random=($models/harmonic_oscillator.mech --random "k=uniform(1,4):37, m=normal(1,0.1):37"
  --seed 11 --until 5 --summary "max(x), min(x)")
expect "random samples, one process" 0 "$mech" sweep "${random[@]}" --threads 2 -o "$work/r1.csv"
expect "random samples, 4 ranks" 0 "${mpi[@]}" "$mech" sweep "${random[@]}" --threads 1 \
  -o "$work/r4.csv"
expect "random samples, bit for bit" 0 cmp "$work/r1.csv" "$work/r4.csv"

expect "two runs on four ranks" 0 "${mpi[@]}" "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..4:2" --until 5 --summary "max(x)" -o "$work/small4.csv"
expect "two runs, one process" 0 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..4:2" --until 5 --summary "max(x)" -o "$work/small1.csv"
expect "two runs, bit for bit" 0 cmp "$work/small1.csv" "$work/small4.csv"

# --- b. Failed runs are rows. -------------------------------------------------
failing=($models/harmonic_oscillator.mech --grid "m=0..1:3, k=1..4:7" --summary "max(x)" --until 1)
expect "failing runs, 4 ranks" 0 "${mpi[@]}" "$mech" sweep "${failing[@]}" -o "$work/f4.csv"
contains "counted" err "14 ok, 0 stopped, 7 failed"
expect "failing runs, one process" 0 "$mech" sweep "${failing[@]}" -o "$work/f1.csv"
expect "failing runs, bit for bit" 0 cmp "$work/f1.csv" "$work/f4.csv"
check_py "each failed row has its status and message" '
rows = list(csv.reader(open(W + "/f4.csv")))
failed = [r for r in rows[1:] if r[3] == "failed"]
assert len(failed) == 7 and all(r[0] == "0" for r in failed), rows
assert all("mass matrix is singular" in r[4] for r in failed), failed
'

# --- c. Only rank 0 speaks. ---------------------------------------------------
expect "an error under mpirun" 1 "${mpi[@]}" "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "nosuch=1..2:2" --summary "max(x)"
check_py "printed once" '
err = open(W + "/err").read()
assert err.count("error:") == 1 and "nosuch" in err, err
'

# --- d. Ctrl-C keeps the rows done. -------------------------------------------
"${mpi[@]}" "$mech" sweep examples/double_pendulum.mech --grid "th1=-3..3:300, th2=-3..3:300" \
  --until 10 --summary "at_end(th2)" -o "$work/cut.csv" >"$work/cut.out" 2>"$work/cut.err" &
pid=$!
for _ in $(seq 600); do
  [ "$(cat "$work"/.cut.csv.tmp-* 2>/dev/null | wc -c)" -gt 2000 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid
expect "interrupted: mpirun fails" 0 test $? -ne 0
contains "says so" cut.err "sweep: interrupted; the"
expect "no staging file left" 0 test -z "$(ls -A "$work" | grep '^\.cut')"
check_kept_rows "the rows kept are the first runs, whole, in order"

finish
