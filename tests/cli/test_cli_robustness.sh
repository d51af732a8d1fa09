#!/usr/bin/env bash
# Command-line robustness: bad option values give a clear message and exit
# status 2 (usage) or 1 (model errors, located where there is a location),
# never an abort; nothing is written before they are found; the CSV stays
# valid for every column name and prints no -0.
# Usage: test_cli_robustness.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
pendulum=examples/double_pendulum.mech

# Time grids too fine for the span (were an uncaught exception, exit 134).
expect "tiny --dt" 2 "$mech" simulate "$pendulum" --dt 1e-20
contains "tiny --dt names the option" err "simulate: --dt 1e-20 is too small for the time span"
empty "tiny --dt writes no CSV" out
expect "huge --until" 2 "$mech" simulate "$pendulum" --until 1e300
contains "huge --until names the span" err "to --until 1e+300"
expect "tiny rk4 --step" 2 "$mech" simulate "$pendulum" --method rk4 --step 1e-300
contains "tiny --step names the option" err "simulate: --step 1e-300 is too small"
expect "tiny midpoint --step" 2 "$mech" simulate "$pendulum" --method midpoint --step 1e-300
expect "start time far from --until" 2 "$mech" simulate "$pendulum" --init "t=1e300"
contains "start time in the message" err "from t = 1e+300"
empty "far start writes no CSV" out
# A tiny first step guess is fine for the adaptive methods.
expect "tiny dopri5 --step" 0 "$mech" simulate "$pendulum" --until 0.01 --step 1e-300

# --max-steps is a whole number in range (0.5 was truncated to 0, 1e30 wrapped).
expect "fractional --max-steps" 2 "$mech" simulate "$pendulum" --max-steps 0.5
contains "fractional --max-steps message" err "--max-steps needs a positive whole number"
expect "huge --max-steps" 2 "$mech" simulate "$pendulum" --max-steps 1e30
expect "zero --max-steps" 2 "$mech" simulate "$pendulum" --max-steps 0
expect "--max-steps in exponent form" 0 "$mech" simulate "$pendulum" --until 0.01 --max-steps 1e6
expect "small --max-steps still stops the run" 1 "$mech" simulate "$pendulum" --max-steps 3
contains "max steps reached" err "maximum number of steps (3) reached"

# --plot-vars is checked before the CSV header and before -o is truncated.
echo "keep me" >"$work/kept.csv"
expect "unknown --plot-vars" 1 "$mech" simulate "$pendulum" --plot-vars foo
contains "plot-vars message" err "--plot-vars: 'foo' is not a coordinate"
empty "no header before the plot-vars error" out
expect "unknown --plot-vars with -o" 1 "$mech" simulate "$pendulum" --plot-vars foo -o "$work/kept.csv"
contains "-o left alone" kept.csv "keep me"

# --plot is checked up front, like -o: no run, no CSV.
expect "unwritable --plot" 1 "$mech" simulate "$pendulum" --plot "$work/none/p.svg"
contains "plot path message" err "cannot write '$work/none/p.svg'"
empty "no CSV before the plot error" out
expect "unwritable --plot with -o" 1 "$mech" simulate "$pendulum" --plot "$work/none/p.svg" -o "$work/kept.csv"
contains "-o left alone by --plot" kept.csv "keep me"
# The check of the plot path creates no file when a later check fails.
expect "unwritable -o after --plot" 1 "$mech" simulate "$pendulum" --plot "$work/fresh.svg" -o "$work/none/x.csv"
if [ -e "$work/fresh.svg" ]; then
  failed=$((failed + 1))
  echo "FAIL: a failed run left $work/fresh.svg behind"
else
  passed=$((passed + 1))
fi

# Header names holding a comma are quoted (RFC 4180); the rest is unchanged.
cat >"$work/two_index.mech" <<'EOF'
model TwoIndex {
  param n = 2, m = 1 [kg], k = 1 [N/m]
  coord x[1..n] [m]
  for i in 1..n {
    particle p[i] mass m at [x[i], 0]
    for j in 1..n {
      output d[i, j] = x[i] - x[j]
    }
  }
  potential V = k/2 * (x[1] - x[2])^2
  init x[1] = 1
}
EOF
expect "two-index outputs" 0 "$mech" simulate "$work/two_index.mech" --until 0.02 --plot-vars "d[1,2],d[2, 1]" --plot "$work/two.svg"
contains "quoted header" out 't,x[1],x[2],x[1]'"'"',x[2]'"'"',"d[1, 1]","d[1, 2]","d[2, 1]","d[2, 2]"'
save
expect "the CSV parses with one field per column" 0 python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][5:] == ["d[1, 1]", "d[1, 2]", "d[2, 1]", "d[2, 2]"], rows[0]
assert all(len(r) == len(rows[0]) for r in rows), rows
assert float(rows[1][6]) == 1 and float(rows[1][7]) == -1, rows[1]
' "$work/saved"
expect "plain headers are not quoted" 0 "$mech" simulate examples/cartesian_pendulum.mech --until 0.01
contains "plain header" out "t,x,y,x',y',rod,tension"

# --init messages name --init (they said <--at> and "--at sets ...").
expect "--init unknown name" 1 "$mech" simulate "$pendulum" --init "foo=1"
contains "--init location" err "<--init>:1:1: error: 'foo' is not a coordinate of DoublePendulum"
expect "--init acceleration" 1 "$mech" simulate "$pendulum" --init "th1''=1"
contains "--init acceleration message" err "--init sets coordinates and velocities, not accelerations"
lacks "no --at in --init messages" err "--at"
expect "--at acceleration" 1 "$mech" eval "$pendulum" --at "th1''=1"
contains "--at still named" err "<--at>:1:1: error: --at sets coordinates and velocities"

# Dimensions of --at and --init values, time included (t=1[m] was accepted).
expect "--at time in metres" 1 "$mech" eval "$pendulum" --at "t=1[m]"
contains "--at time dimension" err "<--at>:1:1: error: 't' has dimension s, the value given has m"
expect "--at time in ms" 0 "$mech" eval "$pendulum" --at "t=1[ms]"
contains "--at time converted" out "at t = 0.001"
expect "--init time in metres" 1 "$mech" simulate "$pendulum" --init "t=1[m]"
contains "--init time dimension" err "<--init>:1:1: error: 't' has dimension s"
expect "--init velocity dimension" 1 "$mech" simulate "$pendulum" --init "th1'=1[m]"
contains "--init velocity message" err "'th1'' has dimension 1/s, the value given has m"
expect "--init non-finite" 1 "$mech" simulate "$pendulum" --init "t=0/0"
contains "--init non-finite message" err "<--init>:1:3: error: the value of 't' is not finite"
expect "--set non-finite" 1 "$mech" eval "$pendulum" --set "m1=1[kg]/0"
contains "--set non-finite message" err "<--set>:1:4: error: the value of 'm1' is not finite"

# --in: velocities and bounds of the wrong dimension.
expect "--in velocity" 1 "$mech" equilibria "$pendulum" --in "th1'=0..1"
contains "--in velocity message" err "--in takes coordinates, not velocities ('th1'')"
expect "--in in metres" 1 "$mech" equilibria "$pendulum" --in "th1=0[m]..1[m]"
contains "--in dimension message" err "<--in>:1:1: error: 'th1' has dimension 1, the value given has m"
expect "--in in degrees" 0 "$mech" equilibria "$pendulum" --in "th1=0[deg]..90[deg]"
contains "--in degrees converted" out "th1 = 0..1.5708"
expect "--in non-finite" 1 "$mech" equilibria "$pendulum" --in "th1=0..1/0"

# midpoint and constraints: the message lists every method that works.
expect "midpoint refuses constraints" 1 "$mech" simulate examples/cartesian_pendulum.mech --method midpoint
contains "midpoint message" err "examples/cartesian_pendulum.mech:10:14: error: --method midpoint does not handle constraints; use dopri5, dop853 or rk4"
empty "no CSV for midpoint" out
expect "rk4 runs constraints" 0 "$mech" simulate examples/cartesian_pendulum.mech --method rk4 --until 0.01

# No -0 in the CSV (knife edge: sideways is -0 at t = 0).
expect "knife edge" 0 "$mech" simulate examples/knife_edge.mech --until 0.02
contains "zero multiplier" out "0,0,0,0,0,0,1,0"
lacks "no negative zero" out ",-0,"
save
expect "no -0 field at all" 0 python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert not any(f == "-0" for r in rows for f in r), rows
' "$work/saved"

finish
