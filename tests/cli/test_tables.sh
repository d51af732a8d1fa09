#!/usr/bin/env bash
# Command-line tests of tables (`table drive(w [rad/s]) [N*m] from "x.csv"`
# or `= [[x1, y1], ...]`, linear or `cubic`, `extrapolate linear`), every
# number against an answer worked out without mech (tests/cli/table_reference.py):
#  a. a flywheel under a tabulated linear torque-speed law: its trajectory
#     is the one under the law written as an expression, and the closed form
#     w = 200 (1 - exp(-t/(100 J))); the knot at 100 rad/s is one switch, at
#     the closed form's time. A curve with a kink: the piecewise exponential
#     closed form, one switch at its crossing time
#  b. monotone cubic tables against PCHIP written from the published
#     algorithm (and SciPy's PchipInterpolator where SciPy is found), inside
#     and beyond both ends, held and linearly extrapolated; a cubic table is
#     not switched
#  c. inline rows give what the CSV gives
#  d. units: rpm, N*mm, deg, N*cm converted to SI
#  e. located errors, in the CSV or at the declaration or call
#  f. the derivation cache keys on the CSV's bytes; -o onto the table refused
#  g. equations prints drive(th'); fmt prints tables canonically
#  h. Python's mech.load(...).simulate(...); a built library's mech_rhs
#     carries the rows (the CSV gone after the build)
# Usage: test_tables.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

[ -z "$build" ] || build="$(readlink -f "$build")" # absolute: the script changes directory
cd "$work" || exit 1
models="$root/tests/cli/models"
export PYTHONPATH="$root/tests/cli${PYTHONPATH:+:$PYTHONPATH}"
tight=(--rtol 1e-12 --atol 1e-12)
# Copies: part f edits a CSV.
cp "$models"/table_*.mech "$models"/table_*.csv "$work/"

# keep NAME: keeps the last command's stderr (its summary) as NAME.err.
keep() { cp "$work/err" "$work/$1.err"; }

# first_line NAME TEXT: the first line of the last command's stderr is TEXT.
first_line() {
  local got
  got="$(head -1 "$work/err")"
  if [ "$got" = "$2" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: first line"
    echo "  | got:  $got"
    echo "  | want: $2"
  fi
}

# --- a. the flywheel ------------------------------------------------------------
# J w' = 2 - 0.01 w from rest: w = 200 (1 - e^(-t/tau)), tau = 100 J = 5 s,
# th = 200 (t - tau (1 - e^(-t/tau))); w = 100 at t = tau ln 2.
for m in table_flywheel table_flywheel_expr table_flywheel_inline; do
  expect "the flywheel, $m" 0 "$mech" simulate "$m.mech" --until 10 --dt 0.05 "${tight[@]}" -o "$m.csv"
  keep "$m"
done
check_py "the tabulated law moves the flywheel as the expression does, and as the closed form" '
from table_reference import rows, flywheel
table, expr = rows(W + "/table_flywheel.csv"), rows(W + "/table_flywheel_expr.csv")
assert len(table) == len(expr) == 201 and table[-1]["t"] == 10, (len(table), table[-1])
# th reaches 1135 rad: 1e-10 relative to the values (measured 3e-13)
for a, b in zip(table, expr):
    assert a["t"] == b["t"], (a, b)
    for k in ("th", "th\x27"):
        assert abs(a[k] - b[k]) <= 1e-10 * max(1, abs(b[k])), (k, a, b)
for run in (table, expr):
    for r in run:
        th, w = flywheel(r["t"], 0.05, [(2, 0.01, 200)])
        assert abs(r["th"] - th) <= 1e-10 * max(1, th) and abs(r["th\x27"] - w) <= 1e-10 * max(1, w), (r, th, w)
'
check_py "inline rows move it as the CSV's rows do" '
from table_reference import rows, laws
csv_rows, inline = rows(W + "/table_flywheel.csv"), rows(W + "/table_flywheel_inline.csv")
assert len(csv_rows) == 201 and inline == csv_rows, [(a, b) for a, b in zip(csv_rows, inline) if a != b][:2]
# and switch at the same knots at the same times (the declaration is on
# line 8 of one model, 7 of the other)
switches = lambda name: {w: law[1:] for w, law in laws(W + "/" + name + ".err").items()}
assert switches("table_flywheel_inline") == switches("table_flywheel"), (switches("table_flywheel_inline"), switches("table_flywheel"))
'
check_py "the knot at 100 rad/s is one switch, at tau ln 2; the end at 200 is never reached" '
from table_reference import laws, crossing
ls = laws(W + "/table_flywheel.err")
assert sorted(ls) == [0, 100, 200], ls
assert all(loc == "8:15" for loc, n, first in ls.values()), ls
loc, n, first = ls[100]
assert n == 1 and abs(first - crossing(0.05, 2, 0.01, 100)) <= 1e-9, (ls, crossing(0.05, 2, 0.01, 100))
assert abs(first - 5 * math.log(2)) <= 1e-9, first
assert ls[200][1:] == (0, None), ls
'
# The run starts on the knot at 0 (th' = 0) and moves into the first
# segment: as with a start on any switch (docs/language.md, "Piecewise
# laws"), that is no switch.
check_py "a start on the first knot is no switch" '
from table_reference import laws
ls = laws(W + "/table_flywheel.err")
assert ls[0][1:] == (0, None), ls[0]
'

# The kinked curve (table_kink.csv: rows at -50, 100, 300 rad/s):
# 3 - 0.02 w below 100, 1.5 - 0.005 w above, J = 0.1: w = 150 (1 - e^(-t/5))
# until t1 = 5 ln 3, then w = 300 - 200 e^(-(t - t1)/20).
expect "the kinked curve" 0 "$mech" simulate table_kink.mech --until 20 --dt 0.05 "${tight[@]}" -o kink.csv
keep kink
check_py "the kinked curve: the piecewise exponential, one switch at t1 = 5 ln 3" '
from table_reference import rows, flywheel, laws, crossing
run = rows(W + "/kink.csv")
assert len(run) == 401, len(run)
for r in run:
    th, w = flywheel(r["t"], 0.1, [(3, 0.02, 100), (1.5, 0.005, 300)])
    assert abs(r["th"] - th) <= 1e-10 * max(1, th) and abs(r["th\x27"] - w) <= 1e-10 * max(1, w), (r, th, w)
t1 = crossing(0.1, 3, 0.02, 100)
assert abs(t1 - 5 * math.log(3)) <= 1e-14, t1
w15 = [r["th\x27"] for r in run if r["t"] == 15][0]
assert abs(w15 - (300 - 200 * math.exp(-(15 - t1) / 20))) <= 1e-9, w15
ls = laws(W + "/kink.err")
assert sorted(ls) == [-50, 100, 300], ls
assert ls[100][0] == "9:15" and ls[100][1] == 1 and abs(ls[100][2] - t1) <= 1e-9, (ls, t1)
assert ls[-50][1] == 0 and ls[300][1] == 0, ls
'

# --- b, c. monotone cubic tables ------------------------------------------------------
# Outputs read the tables along w = -50 + 300 t rad/s, t = 0..1 (every
# 0.6 rad/s), past both ends (rows from 0 to 200 rad/s).
expect "cubic tables along a sweep" 0 "$mech" simulate table_cubic.mech --until 1 --dt 0.002 -o cubic.csv
keep cubic
lacks "a cubic table is smooth, not switched" cubic.err "piecewise law"
cubic_rows='x = [0, 10, 20, 45, 80, 120, 150, 200]
y = [0, 0.1, -0.9, -0.3, 1.2, 1.2, 3.2, 3.6]'
check_py "held: PCHIP inside the rows, the end values beyond them" "
from table_reference import rows, pchip
$cubic_rows
run = rows(W + '/cubic.csv')
assert len(run) == 501 and min(-50 + 300 * r['t'] for r in run) < 0 and max(-50 + 300 * r['t'] for r in run) > 200
for r in run:
    w = -50 + 300 * r['t']
    assert abs(r['held'] - pchip(x, y, w)) <= 1e-12, (w, r['held'], pchip(x, y, w))
"
check_py "inline cubic rows give what the CSV gives" '
from table_reference import rows
run = rows(W + "/cubic.csv")
assert all(r["inline"] == r["held"] for r in run), [r for r in run if r["inline"] != r["held"]][:3]
'
check_py "extrapolate linear, a constant: the end knot's tangent line" "
from table_reference import rows, pchip
$cubic_rows
th0 = rows(W + '/cubic.csv')[0]['th']  # init th = drive_ext(-40 [rad/s]) / 1 [N*m/rad]
assert abs(th0 - pchip(x, y, -40, 'linear')) <= 1e-12 and abs(th0 + 1.2) <= 1e-12, th0
"
check_py "extrapolate linear, in a run: PCHIP inside, the end knot's tangent line beyond" "
from table_reference import rows, pchip
$cubic_rows
bad = []
for r in rows(W + '/cubic.csv'):
    w = -50 + 300 * r['t']
    if abs(r['extended'] - pchip(x, y, w, 'linear')) > 1e-12:
        bad.append((w, r['extended'], pchip(x, y, w, 'linear')))
assert not bad, (len(bad), bad[:2], bad[-2:])
"
# SciPy, where some python3 here has it, for the reference itself and the run.
scipy_python=""
for py in python3 /usr/bin/python3; do
  if "$py" -c "import scipy.interpolate" 2>/dev/null; then scipy_python="$py" && break; fi
done
if [ -n "$scipy_python" ]; then
  expect "PCHIP by hand and the held outputs are SciPy's PchipInterpolator" 0 "$scipy_python" -c "
import random, sys
sys.path.insert(0, '$root/tests/cli')
from scipy.interpolate import PchipInterpolator
from table_reference import rows, pchip, pchip_slopes
$cubic_rows
p = PchipInterpolator(x, y)
slope = p.derivative()
assert all(abs(a - b) <= 1e-15 for a, b in zip(pchip_slopes(x, y), slope(x))), (pchip_slopes(x, y), slope(x))
def scipy_value(w, ext):  # beyond the rows: the end value or the end knot's tangent line
    if 0 <= w <= 200:
        return float(p(w))
    k = 0 if w < 0 else -1
    return y[k] + (float(slope(x[k])) * (w - x[k]) if ext == 'linear' else 0)
rng = random.Random(7)
for w in [rng.uniform(-60, 260) for _ in range(2000)] + x:
    for ext in ('hold', 'linear'):
        assert abs(pchip(x, y, w, ext) - scipy_value(w, ext)) <= 1e-13, (w, ext)
for r in rows('$work/cubic.csv'):
    w = -50 + 300 * r['t']
    assert abs(r['held'] - scipy_value(w, 'hold')) <= 1e-12, (w, r)
"
else
  echo "note: no python3 here imports scipy; PCHIP is checked against table_reference.py alone"
fi

# --- d. units ------------------------------------------------------------------------
# drive: 2000 N*mm at 0 rpm to 0 at 3000 rpm; at 100 rad/s = 3000/pi rpm,
# 2 (1 - 1/pi) N*m. twist (table_twist.csv): 100 N*cm at 90 deg; at 0.5 rad
# = 90/pi deg, 100/pi N*cm = 1/pi N*m. th'' = (drive - twist)/J.
expect "tables in rpm, N*mm, deg, N*cm" 0 "$mech" eval table_units.mech --at "th = 0.5, th' = 100" --json
check_json "converted to SI" '
d, s = 2 * (1 - 1 / math.pi), 1 / math.pi
assert abs(j["outputs"]["d"] - d) <= 1e-14 and abs(j["outputs"]["s"] - s) <= 1e-14, j["outputs"]
assert abs(j["qdd"]["th"] - (d - s) / 0.5) <= 1e-13, j["qdd"]
'
expect "below the rows in deg: held" 0 "$mech" eval table_units.mech --at "th = -2, th' = 400" --json
check_json "the end values, in SI" '
assert abs(j["outputs"]["s"] + 0.5) <= 1e-15 and abs(j["outputs"]["d"]) <= 1e-15, j["outputs"]
'

# --- e. located errors -------------------------------------------------------------------
mkdir -p errors/folder.csv
cd errors || exit 1
cat >bad.mech <<'M'
model Bad {
  param J = 0.05 [kg*m^2]
  coord th [rad]
  kinetic J / 2 * th'^2
  table drive(w [rad/s]) [N*m] from "bad.csv"
  generalized drive(th') on th
}
M
# bad_csv NAME LINE:COL MESSAGE ROWS: with bad.csv holding ROWS (printf's
# format), `mech check bad.mech` fails with bad.csv:LINE:COL: error: MESSAGE.
bad_csv() {
  # shellcheck disable=SC2059
  printf "$4" >bad.csv
  expect "$1" 1 "$mech" check bad.mech
  first_line "$1" "bad.csv:$2: error: $3"
}
bad_csv "unsorted abscissae" 4:1 \
  "the abscissa 50 is below the row before's: the rows must be in increasing order of w" \
  'w,drive\n0,2\n100,1\n50,0\n'
bad_csv "a duplicate abscissa" 5:1 "this row repeats the abscissa 100 of the row before" \
  'w,drive\n0,2\n# a comment\n100,1\n100,0\n'
bad_csv "a NaN cell" 3:5 "'nan' is not a finite number" 'w,drive\n0,2\n100,nan\n200,0\n'
bad_csv "a NaN cell, capitalized" 4:6 "'NaN' is not a finite number" 'w,drive\n0,2\n\n100, NaN\n'
bad_csv "an infinite cell" 2:1 "'inf' is not a finite number" 'w,drive\ninf,2\n100,1\n'
bad_csv "a missing cell" 3:5 "a missing cell" 'w,drive\n0,2\n100,\n200,0\n'
bad_csv "a row of 3 cells" 3:1 "a table's row has 2 cells (w, drive), found 3" 'w,drive\n0,2\n100,1,3\n200,0\n'
bad_csv "a header for another table" 1:1 \
  "the header names the columns 'speed' and 'torque'; table drive(w) reads 'w' and 'drive' (a unit in brackets may follow each name)" \
  'speed,torque\n0,2\n100,1\n'
bad_csv "a header in other units" 1:1 \
  "the header gives w in [rpm], the declaration in [rad/s]: the numbers are read in the declaration's units" \
  'w [rpm],drive [N*m]\n0,2\n100,1\n'
# A byte order mark (spreadsheets write one), header units as declared and
# a leading + are fine.
printf '\xEF\xBB\xBFw [rad/s],drive [N * m]\n0,+2\n100,1\n' >bad.csv
expect "a header with a byte order mark and units, a leading +" 0 "$mech" check bad.mech
bad_csv "no header" 1:1 \
  "the header names the columns '0' and '2'; table drive(w) reads 'w' and 'drive' (a unit in brackets may follow each name)" \
  '0,2\n100,1\n'
# bad_model NAME LINE:COL MESSAGE DECLARATION [USE]: a model with the
# declaration on line 5 and `generalized USE on th` on line 6 fails with
# bad_model.mech:LINE:COL: error: MESSAGE.
bad_model() {
  local use="drive(th')"
  [ $# -lt 5 ] || use="$5"
  printf 'model Bad {\n  param J = 0.05 [kg*m^2]\n  coord th [rad]\n  kinetic J / 2 * th%s^2\n  %s\n  generalized %s on th\n}\n' \
    "'" "$4" "$use" >bad_model.mech
  expect "$1" 1 "$mech" check bad_model.mech
  first_line "$1" "bad_model.mech:$2: error: $3"
}
printf 'w,drive\n0,2\n' >one.csv
bad_model "one row" 5:9 "table 'drive' has 1 row; it needs at least 2" \
  'table drive(w [rad/s]) [N*m] from "one.csv"'
printf '# only a comment\n\n' >empty.csv
bad_model "no header line at all" 5:37 "'empty.csv' has no header line ('w,drive')" \
  'table drive(w [rad/s]) [N*m] from "empty.csv"'
bad_model "a missing file" 5:37 "cannot open 'missing.csv': No such file or directory" \
  'table drive(w [rad/s]) [N*m] from "missing.csv"'
bad_model "a folder" 5:37 "'folder.csv' is a directory, not a file" \
  'table drive(w [rad/s]) [N*m] from "folder.csv"'
printf 'w,drive\n0,2\n100,1\n' >good.csv
good='table drive(w [rad/s]) [N*m] from "good.csv"'
bad_model "called with a vector" 6:21 "table drive expects a scalar, found a 2-vector" "$good" "drive([th', th'])"
bad_model "called with 2 arguments" 6:15 "table drive takes 1 argument, 2 given" "$good" "drive(th', th')"
bad_model "an argument of the wrong dimension" 6:21 \
  "the argument of table drive (w) mixes dimensions 1/s and 1" "$good" "drive(th)"
bad_model "inline rows with a unit" 5:39 \
  "a table's cells are numbers in its declared units, found kg*m^2/s^2" \
  'table drive(w [rad/s]) [N*m] = [[0, 2 [N*m]], [100, 1]]'
bad_model "inline rows unsorted" 5:54 \
  "the abscissa 50 is below the row before's: the rows must be in increasing order of w" \
  'table drive(w [rad/s]) [N*m] = [[0, 2], [100, 1], [50, 0]]'
# Accepted: CRLF line ends, units after the header's names, spaces.
printf 'w [rad/s] , drive [N*m]\r\n# speed, torque\r\n\r\n0, 2\r\n100 ,1\r\n' >crlf.csv
printf 'model Crlf {\n  coord th [rad]\n  kinetic 1 [kg*m^2] / 2 * th%s^2\n  table drive(w [rad/s]) [N*m] from "crlf.csv"\n  generalized drive(th%s) on th\n}\n' "'" "'" >crlf.mech
expect "a CSV with CRLF line ends" 0 "$mech" eval crlf.mech --at "th' = 25" --json
check_json "is read" 'assert abs(j["qdd"]["th"] - 1.75) <= 1e-15, j["qdd"]'
bad_model "a table in a for block" 5:19 "table declarations are not allowed inside a for block" \
  'for i in 1..2 { table drive(w [rad/s]) [N*m] = [[0, 2], [100, 1]] }' "0 [N*m]"
cd "$work" || exit 1

# --- f. the derivation cache and the table file ------------------------------------------------
# From rest for 1 s, w stays below 100 rad/s: on the first segment,
# J w' = a - c w. The CSV edited to start at 2.5 N*m gives c = 0.015.
for run in first again; do
  expect "the flywheel, $run" 0 "$mech" simulate table_flywheel.mech --until 1 --dt 0.25 -o "cache_$run.csv"
  keep "cache_$run"
done
contains "the second run takes the cached derivation" cache_again.err " s (cached), compile"
sed -i 's/^0,2$/0,2.5/' table_drive.csv
expect "the flywheel after the CSV changed" 0 "$mech" simulate table_flywheel.mech --until 1 --dt 0.25 -o cache_edited.csv
keep cache_edited
lacks "the edited CSV is derived anew" cache_edited.err "(cached)"
check_py "the runs follow the CSV: 2 - 0.01 w, then 2.5 - 0.015 w" '
from table_reference import rows, flywheel
for name, a, c in (("first", 2, 0.01), ("again", 2, 0.01), ("edited", 2.5, 0.015)):
    run = rows(W + "/cache_" + name + ".csv")
    assert len(run) == 5, (name, run)
    for r in run:
        th, w = flywheel(r["t"], 0.05, [(a, c, 100)])
        assert abs(r["th"] - th) <= 1e-6 and abs(r["th\x27"] - w) <= 1e-6 * max(1, w), (name, r, th, w)
'
expect "equations after the edit" 0 "$mech" equations table_flywheel.mech
contains "still the table's call" out "th: J*th'' = drive(th')"
cp table_drive.csv drive.before
expect "-o onto the table's CSV" 2 "$mech" simulate table_flywheel.mech --until 1 -o table_drive.csv
contains "says why" err "would overwrite a table of the model"
expect "the CSV is left as it was" 0 cmp drive.before table_drive.csv
expect "--events onto the table's CSV, by another path" 2 "$mech" simulate table_flywheel.mech --until 1 \
  --stop-when "th == 1, up" --events "$work/./table_drive.csv"
expect "the CSV is still as it was" 0 cmp drive.before table_drive.csv

# --- g. equations and fmt ------------------------------------------------------------------
expect "equations of the flywheel" 0 "$mech" equations "$models/table_flywheel.mech"
contains "the generalized force is the call" out "Q[th] = drive(th')  [N*m]"
contains "the equation of motion" out "th: J*th'' = drive(th')"
expect "LaTeX of the flywheel" 0 "$mech" equations "$models/table_flywheel.mech" --latex
contains "the call in LaTeX" out '\operatorname{drive}\left(\dot{\theta}\right)'
lacks "no \\mathrm of the call's text" out "mathrm{drive"
cat >messy.mech <<'M'
model Messy {
  coord th [rad]
  kinetic 1[kg*m^2]/2*th'^2
  table   drive( w[rad/s] )[N*m]   from "table_drive.csv"   cubic   extrapolate   linear
  table d2(w [rad/s]) [N*m] = [[0,2],[100, 1],
      [200,0]] extrapolate hold
  table d3(w) = [ [0,2], [1,1] ] linear
  generalized drive(th')+d2(th') + d3(th') *1 [N*m] on th
}
M
cat >messy_expected.mech <<'M'
model Messy {
  coord th [rad]
  kinetic 1 [kg*m^2] / 2 * th'^2
  table drive(w [rad/s]) [N*m] from "table_drive.csv" cubic extrapolate linear
  table d2(w [rad/s]) [N*m] = [[0, 2],
                               [100, 1],
                               [200, 0]]
  table d3(w) = [[0, 2], [1, 1]]
  generalized drive(th') + d2(th') + d3(th') * 1 [N*m] on th
}
M
expect "fmt of tables" 0 "$mech" fmt messy.mech
save
expect "the declarations in canonical form (defaults dropped)" 0 cmp "$work/saved" messy_expected.mech
expect "the canonical form is formatted" 0 "$mech" fmt --check messy_expected.mech
expect "the test's models are formatted" 0 "$mech" fmt --check "$models"/table_*.mech

# --- h. Python and a built library -------------------------------------------------------------
if [ -n "$build" ] && [ -d "$build/python/mech" ]; then
  expect "mech.load(...).simulate(...)" 0 env PYTHONPATH="$build/python:$root/tests/cli" /usr/bin/python3 -c "
import mech
from table_reference import rows, flywheel
r = mech.load('$work/table_kink.mech').simulate(until=20, dt=0.05, rtol=1e-12, atol=1e-12)
cli = rows('$work/kink.csv')
assert len(r['t']) == len(cli) == 401, len(r['t'])
for i, row in enumerate(cli):
    th, w = flywheel(row['t'], 0.1, [(3, 0.02, 100), (1.5, 0.005, 300)])
    assert abs(r['t'][i] - row['t']) <= 1e-12, (i, r['t'][i], row)
    assert abs(r['th'][i] - row['th']) <= 1e-12 * max(1, th), (i, r['th'][i], row)
    assert abs(r[\"th'\"][i] - row[\"th'\"]) <= 1e-12 * max(1, w), (i, r[\"th'\"][i], row)
    assert abs(r['th'][i] - th) <= 1e-10 * max(1, th) and abs(r[\"th'\"][i] - w) <= 1e-10 * max(1, w), (i, th, w)
"
else
  skip "the Python package (not built in '$build')"
fi

mkdir -p lib
cp "$models/table_flywheel.mech" "$models/table_drive.csv" lib/
expect "build a library of the flywheel" 0 "$mech" build lib/table_flywheel.mech -o lib/libflywheel.so \
  --header lib/flywheel.h
contains "the header declares mech_rhs" lib/flywheel.h "int mech_rhs(double t, const double *x, const double *p, double *xdot);"
# rhs_check NAME: mech_rhs at speeds inside and beyond the rows is
# (th', drive(th')/J) with drive the linear interpolant of table_drive.csv.
rhs_check() {
  check_py "$1" '
import ctypes
from table_reference import linear
lib = ctypes.CDLL(W + "/lib/libflywheel.so")
D = ctypes.c_double
lib.mech_rhs.argtypes = [D, ctypes.POINTER(D), ctypes.POINTER(D), ctypes.POINTER(D)]
lib.mech_rhs.restype = ctypes.c_int
J = 0.05
for w in (-50, 0, 12.5, 99.999, 100, 137.25, 199, 200, 250, 1e6):
    x, p, xdot = (D * 2)(1.0, w), (D * 1)(J), (D * 2)()
    assert lib.mech_rhs(0.0, x, p, xdot) == 0
    want = linear([0, 100, 200], [2, 1, 0], w)
    assert want == min(2, max(0, 2 - 0.01 * w))
    assert xdot[0] == w and abs(xdot[1] - want / J) <= 1e-12, (w, xdot[1], want / J)
'
}
rhs_check "mech_rhs returns the table's value"
mv lib/table_drive.csv lib/moved.csv
expect "the model cannot be read without its CSV" 1 "$mech" check lib/table_flywheel.mech
rhs_check "mech_rhs, the CSV gone: the rows are in the library"

finish
