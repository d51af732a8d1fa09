#!/usr/bin/env bash
# Command-line tests of piecewise laws (`if(cond, a, b)`, `min`, `max`,
# `clamp`, `smooth`, and `abs` of a coordinate; docs/language.md "Piecewise
# laws"), every number against a closed form worked out by hand in
# tests/cli/piecewise_reference.py:
#  a. a mass dropped onto a spring that only pushes, max(0 [N], -k*y): the
#     trajectory over 3 periods, each contact and release time, exactly one
#     switch per crossing; with rk4 and radau too; a start on the switch
#  b. the same spring as a piecewise potential: the same motion, the energy
#     kept
#  c. a rotor under a saturating speed controller, clamp(...): the
#     saturated and the unsaturated phase and the switch between them, from
#     below and from above the reference speed
#  d. a dead zone of two if(...) springs: each law's switch times and the
#     trajectory
#  e. a V-shaped potential c*abs(x), quadratic drag c*abs(x')*x', a force
#     switched on and off in time with `and` / `not`, two laws crossing at
#     the same instant
#  f. located errors: units of branches, comparisons, min, clamp, a vector
#     in a comparison, arity; a sliding mode stops the run at its law
#  g. equations prints max, min, if and cases; fmt keeps the laws
#  h. smooth(...) is the law itself, not switched
#  i. a branch undefined past its switch (sqrt) does not stop the run
#  j. a built library: its entry points evaluate the law as written;
#     PREFIX_simulate_with holds it on its branch and switches at the closed
#     form's times (one MECH_EVENT_SWITCH record each), the trajectory the
#     closed form's (dopri5 and radau); with a contact too, the run of
#     mech simulate; a sliding mode ends after 64 quick switches
# Usage: test_piecewise.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
models="$root/tests/cli/models"
ref="$root/tests/cli/piecewise_reference.py"
export PYTHONPATH="$root/tests/cli${PYTHONPATH:+:$PYTHONPATH}"
tight=(--rtol 1e-12 --atol 1e-12)

# keep NAME: keeps the last command's stderr (its summary) as NAME.err.
keep() { cp "$work/err" "$work/$1.err"; }

# count_switches FILE: the switches of all the laws the summary in FILE lists.
count_switches() {
  sed -n 's/^piecewise law at [0-9:]*, where .* = 0: \([0-9]*\) switch.*/\1/p' "$1" | awk '{s += $1} END {print s + 0}'
}

# brackets NAME MODEL CASE PARAM...: for each switch time t_k of the closed
# form (CASE and PARAMs, until=T among them), a run to t_k - 1e-8 counts
# k - 1 switches and a run to t_k + 1e-8 counts k: the switches happen at
# the closed form's times, one at each.
brackets() {
  local name="$1" model="$2" case="$3" law t side end n k=0 bad=""
  shift 3
  while read -r law t; do
    k=$((k + 1))
    for side in -1 1; do
      end=$(awk -v t="$t" -v s="$side" 'BEGIN {printf "%.17g", t + s * 1e-8}')
      "$mech" simulate "$model" --until "$end" --dt 1 "${tight[@]}" >/dev/null 2>"$work/bracket.err"
      n=$(count_switches "$work/bracket.err")
      [ "$n" -eq $((side < 0 ? k - 1 : k)) ] || bad+=" to t = $end ($law): $n switches;"
    done
  done < <(python3 "$ref" switches "$case" "$@")
  if [ -z "$bad" ] && [ "$k" -gt 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name: $k switch times;$bad"
  fi
}

# --- a. the one-sided spring ----------------------------------------------------
cp "$models/one_sided_spring.mech" spring.mech
bounce=(m=1 k=100 g=9.81 h=1)
# three periods, 2 t1 + tau_c each (piecewise_reference.py)
periods3=$(awk -v p="$(python3 "$ref" period "${bounce[@]}")" 'BEGIN {printf "%.17g", 3 * p}')
expect "the dropped mass" 0 "$mech" simulate spring.mech --until "$periods3" --dt 0.001 "${tight[@]}" \
  -o spring.csv
keep spring
check_py "it follows the closed form over 3 periods, switching at each crossing" '
from piecewise_reference import compare, switches, laws
compare("bounce", W + "/spring.csv", 1e-8, m=1, k=100, g=9.81, h=1)
want = switches("bounce", '"$periods3"', m=1, k=100, g=9.81, h=1)
assert len(want) == 6, want  # a contact and a release each period
(law,) = laws(W + "/spring.err")
assert law[0] == "10:15" and law[1] == len(want), law
assert abs(law[2] - math.sqrt(2 / 9.81)) <= 1e-10, law  # t1 = sqrt(2 h / g)
'
brackets "each contact and release at the closed form's time" spring.mech bounce "${bounce[@]}" \
  until="$periods3"
expect "the first release, as an event" 0 "$mech" simulate spring.mech --until 3 --dt 1 "${tight[@]}" \
  --stop-when "y == 0, up" --events release.csv
check_py "leaves the spring at t1 + tau_c with the speed it came in" '
from piecewise_reference import bounce_times
t1, tau_c = bounce_times(dict(m=1, k=100, g=9.81, h=1))
v1 = math.sqrt(2 * 9.81)
rows = list(csv.DictReader(open(W + "/release.csv")))
assert [r["event"] for r in rows] == ["law at 10:15 switches", "--stop-when"], rows
contact, row = rows
assert abs(float(contact["t"]) - t1) <= 1e-10 and abs(float(contact["y"])) <= 1e-12, contact
assert abs(float(row["t"]) - (t1 + tau_c)) <= 1e-10, (row, t1 + tau_c)
assert abs(float(row["y\x27"]) - v1) <= 1e-9, row
'
expect "--events of a model whose only switches are its piecewise law" 0 "$mech" simulate spring.mech \
  --until "$periods3" --dt 1 "${tight[@]}" --events switches.json
check_py "--events lists every switch of the law at the closed form's time, on y = 0" '
from piecewise_reference import switches
want = switches("bounce", '"$periods3"', m=1, k=100, g=9.81, h=1)
rows = json.load(open(W + "/switches.json"))["events"]
assert len(rows) == len(want) == 6, (rows, want)
for r, (law, t) in zip(rows, want):
    assert r["event"] == "law at 10:15 switches", r
    assert abs(r["t"] - t) <= 1e-10 and abs(r["values"]["y"]) <= 1e-12, (r, t)
'
# method_run METHOD TOLERANCE OPTION...: the three periods with another
# method, against the closed form to TOLERANCE.
method_run() {
  local method="$1" tol="$2"
  shift 2
  expect "the dropped mass, $method" 0 "$mech" simulate spring.mech --until "$periods3" --dt 0.01 \
    --method "$method" "$@" -o "spring_$method.csv"
  keep "spring_$method"
  check_py "$method restarts at each crossing" '
from piecewise_reference import compare, laws
compare("bounce", W + "/spring_'"$method"'.csv", '"$tol"', m=1, k=100, g=9.81, h=1)
(law,) = laws(W + "/spring_'"$method"'.err")
assert law[1] == 6 and abs(law[2] - math.sqrt(2 / 9.81)) <= 1e-10, law
'
}
method_run rk4 1e-8 --step 0.0005
method_run radau 1e-9 --rtol 1e-11 --atol 1e-11
# From y = 0 moving down at 1 m/s: in contact at once (no switch at the
# start), the drop from h = 1/(2g) shifted by its fall time 1/g.
expect "a start on the switch" 0 "$mech" simulate spring.mech --init "y = 0, y' = -1" --until 1.5 \
  --dt 0.001 "${tight[@]}" -o start.csv
keep start
check_py "takes the branch the motion enters" '
from piecewise_reference import compare, switches, laws
p = dict(m=1, k=100, g=9.81, h=1 / (2 * 9.81), shift=1 / 9.81)
compare("bounce", W + "/start.csv", 1e-8, **p)
want = switches("bounce", 1.5, **p)
(law,) = laws(W + "/start.err")
assert law[1] == len(want) == 4, (law, want)
assert abs(law[2] - want[0][1]) <= 1e-10, (law, want)  # the release comes first
'

# --- b. the one-sided potential -------------------------------------------------
cp "$models/one_sided_potential.mech" potential.mech
expect "the dropped mass, by a potential" 0 "$mech" simulate potential.mech --until "$periods3" \
  --dt 0.001 "${tight[@]}" -o potential.csv
keep potential
check_py "the same motion, and its energy kept" '
from piecewise_reference import compare, drift, laws
compare("bounce", W + "/potential.csv", 1e-8, m=1, k=100, g=9.81, h=1)
(law,) = laws(W + "/potential.err")
assert law[0] == "8:25" and law[1] == 6 and abs(law[2] - math.sqrt(2 / 9.81)) <= 1e-10, law
assert drift(W + "/potential.err") <= 1e-9
assert drift(W + "/potential.err", "conserved h: drift ") <= 1e-9
'

# --- c. the saturating rotor --------------------------------------------------------
cp "$models/saturated_rotor.mech" rotor.mech
expect "the rotor spun up" 0 "$mech" simulate rotor.mech --until 6 --dt 0.001 "${tight[@]}" -o up.csv
keep up
expect "the rotor spun down" 0 "$mech" simulate rotor.mech --init "th = 0, th' = 20" --until 6 \
  --dt 0.001 "${tight[@]}" -o down.csv
keep down
check_py "accelerates at Tmax/J until |th' - wref| = Tmax/kp, then approaches wref" '
from piecewise_reference import compare, laws
p = dict(J=0.5, kp=2, Tmax=1.5, wref=10)
ts = 0.5 * (10 - 1.5 / 2) / 1.5  # J (|wref - w0| - Tmax/kp) / Tmax, 37/12 from either side
compare("rotor", W + "/up.csv", 1e-8, w0=0, **p)
compare("rotor", W + "/down.csv", 1e-8, w0=20, **p)
# clamp is min(max(x, lo), hi): two laws at the clamp (the summary does
# not say which bound is which); the bound that holds at the start lets go
# at ts, the other one never acts
for run in ("up", "down"):
    ls = sorted(laws(W + "/" + run + ".err"), key=lambda l: l[1])
    assert [l[0] for l in ls] == ["8:15", "8:15"], ls
    assert ls[0][1:] == (0, None) and ls[1][1] == 1 and abs(ls[1][2] - ts) <= 1e-10, (run, ls)
'

# --- d. the dead zone -----------------------------------------------------------------
cp "$models/dead_zone.mech" dead.mech
expect "the dead zone" 0 "$mech" simulate dead.mech --until 3 --dt 0.001 "${tight[@]}" -o dead.csv
keep dead
check_py "free inside |x| < d, a half swing outside, each side its law" '
from piecewise_reference import compare, switches, laws
p = dict(m=2, k=50, d=0.1, v0=0.5)
compare("deadzone", W + "/dead.csv", 1e-8, **p)
want = switches("deadzone", 3, **p)
ls = laws(W + "/dead.err")
assert [l[0] for l in ls] == ["8:21", "8:47"], ls
for (loc, n, first), side in zip(ls, ("right", "left")):
    times = [t for law, t in want if law == side]
    assert n == len(times) and abs(first - times[0]) <= 1e-10, (loc, n, first, times)
assert [l[1] for l in ls] == [4, 2], ls
'
brackets "each side engages and lets go at the closed form's time" dead.mech deadzone \
  m=2 k=50 d=0.1 v0=0.5 until=3

# --- e. abs, a law of time, simultaneous switches ----------------------------------------
cat >vee.mech <<'M'
model Vee {
  param m = 1 [kg], c = 2 [N]
  coord x [m]
  kinetic m / 2 * x'^2
  potential c * abs(x)
  init x = 1, x' = 0
}
M
expect "a V-shaped potential" 0 "$mech" simulate vee.mech --until 4.5 --dt 0.001 "${tight[@]}" -o vee.csv
keep vee
check_py "x0 - (c/m) t^2/2, mirrored, switching at x = 0, its energy kept" '
from piecewise_reference import compare, drift, laws
compare("vee", W + "/vee.csv", 1e-8, m=1, c=2, x0=1)
(law,) = laws(W + "/vee.err")
assert law[0] == "5:17" and law[1] == 2 and abs(law[2] - 1) <= 1e-10, law  # at t0 = 1 and 3
assert drift(W + "/vee.err") <= 1e-9
'
cat >pulse.mech <<'M'
model Pulse {
  param m = 2 [kg], F = 3 [N]
  coord x [m]
  kinetic m / 2 * x'^2
  generalized if(t > 1 [s] and not (t >= 2 [s]), F, 0 [N]) on x
  init x = 0, x' = 0
}
M
expect "a force on between t = 1 and 2" 0 "$mech" simulate pulse.mech --until 3 --dt 0.001 \
  "${tight[@]}" -o pulse.csv
keep pulse
check_py "at rest, then F/m, then coasting; each comparison switches once" '
from piecewise_reference import compare, laws
compare("pulse", W + "/pulse.csv", 1e-10, m=2, F=3, t1=1, t2=2)
ls = laws(W + "/pulse.err")
assert [l[:2] for l in ls] == [("5:15", 1), ("5:15", 1)], ls
times = sorted(l[2] for l in ls)
assert abs(times[0] - 1) <= 1e-10 and abs(times[1] - 2) <= 1e-10, ls
'
# Quadratic drag, abs of a speed in a force: m x'' = -c |x'| x' from x' = v0
# > 0 never switches, x = (m/c) ln(1 + c v0 t/m), x' = v0/(1 + c v0 t/m).
cat >drag.mech <<'M'
model Drag {
  param m = 1 [kg], c = 0.5 [kg/m]
  coord x [m]
  kinetic m / 2 * x'^2
  generalized -c * abs(x') * x' on x
  init x = 0, x' = 2
}
M
expect "quadratic drag" 0 "$mech" simulate drag.mech --until 10 --dt 0.01 "${tight[@]}" -o drag.csv
keep drag
check_py "x = (m/c) ln(1 + c v0 t/m), no switch" '
from piecewise_reference import laws
assert laws(W + "/drag.err") == [("5:20", 0, None)]
for r in csv.DictReader(open(W + "/drag.csv")):
    t = float(r["t"])
    assert abs(float(r["x"]) - math.log(1 + t) / 0.5) <= 1e-9, r
    assert abs(float(r["x\x27"]) - 2 / (1 + t)) <= 1e-9, r
'
sed 's/generalized max(0 \[N\], -k \* y) on y/generalized max(0 [N], -k \/ 3 * y) + max(0 [N], -2 * k \/ 3 * y) on y/' \
  spring.mech >twice.mech
expect "two springs of k/3 and 2k/3" 0 "$mech" simulate twice.mech --until "$periods3" --dt 0.001 \
  "${tight[@]}" -o twice.csv
keep twice
check_py "their laws cross together, the motion is the spring of k" '
from piecewise_reference import compare, laws
compare("bounce", W + "/twice.csv", 1e-8, m=1, k=100, g=9.81, h=1)
ls = laws(W + "/twice.err")
assert [l[1] for l in ls] == [6, 6] and len({l[0] for l in ls}) == 2, ls
assert all(abs(l[2] - math.sqrt(2 / 9.81)) <= 1e-10 for l in ls), ls
'

# --- f. errors ------------------------------------------------------------------------------
# bad NAME LAW MESSAGE: a model whose force on y is LAW fails to check with
# exit 1 and the located error MESSAGE (the law is on line 6, from column 15).
bad() {
  cat >"$1.mech" <<M
model Bad {
  param m = 1 [kg], k = 100 [N/m]
  coord y [m]
  coord z [m]
  kinetic m / 2 * (y'^2 + z'^2)
  generalized $2 on y
}
M
  expect "$1 is an error" 1 "$mech" check "$1.mech"
  contains "$1 is located" err "$1.mech:$3"
}
bad branches "if(y < 0 [m], 1 [N], 2 [m])" "6:36: error: if's values mix dimensions kg*m/s^2 and m"
bad compare "if(y < 1 [s], 1 [N], 2 [N])" "6:18: error: this comparison mixes dimensions m and s"
bad min_units "min(k * y, y)" "6:26: error: min's values mix dimensions kg*m/s^2 and m"
bad max_units "max(k * y, 1 [N], y)" "6:33: error: max's values mix dimensions kg*m/s^2 and m"
bad clamp_units "clamp(k * y, 1 [N], 2 [m])" "6:35: error: clamp's values mix dimensions kg*m/s^2 and m"
bad vector "if([y, z] < [0 [m], 0 [m]], 1 [N], 2 [N])" \
  "6:18: error: a comparison (<) needs scalars, found a 2-vector"
bad min_vector "min([y, z], [z, y])" "6:19: error: min expects scalars, found a 2-vector"
bad if_two "if(y < 0 [m], 1 [N])" "6:34: error: unexpected ')', expected ','"
bad if_four "if(y < 0 [m], 1 [N], 2 [N], 3 [N])" "6:41: error: unexpected ',', expected ')'"
bad clamp_two "clamp(k * y, 1 [N])" "6:15: error: clamp takes 3 arguments, 2 given"
bad min_one "min(k * y)" "6:15: error: min takes 2 or more scalars, 1 given"
bad smooth_two "smooth(k * y, k * z)" "6:15: error: smooth takes 1 argument, 2 given"
bad no_comparison "if(y, 1 [N], 0 [N])" "6:19: error: unexpected ',', expected '>=', '<=', '<' or '>'"
bad equality "if(y == 0 [m], 1 [N], 0 [N])" "6:20: error: unexpected '==', expected '>=', '<=', '<' or '>'"
bad condition_value "k * (y < 0 [m])" "6:22: error: unexpected '<', expected ')'"

# A constant force against the velocity, alone: x' = 1 - (F/m) t reaches 0
# at t = m/F = 0.5 with x = 0.25, where neither branch lets it move.
cat >slide.mech <<'M'
model Slide {
  param m = 1 [kg], F = 2 [N]
  coord x [m]
  kinetic m / 2 * x'^2
  generalized -F * if(x' > 0, 1, -1) on x
  init x = 0, x' = 1
}
M
for method in dopri5 rk4; do
  expect "a sliding mode, $method" 1 "$mech" simulate slide.mech --until 2 --dt 0.125 --method "$method" \
    -o "slide_$method.csv"
  contains "the error is at the law ($method)" err \
    "slide.mech:5:20: error: the piecewise law switches back and forth where x' = 0"
  keep "slide_$method"
  check_py "it stops where x' reaches 0 ($method)" '
stop = re.search(r"the run stopped at t = (\S+), where a piecewise law chatters",
                 open(W + "/slide_'"$method"'.err").read())
assert stop and abs(float(stop[1]) - 0.5) <= 1e-9, stop
rows = list(csv.DictReader(open(W + "/slide_'"$method"'.csv")))
assert [float(r["t"]) for r in rows] == [0.125 * i for i in range(5)], rows
for r in rows:
    t = float(r["t"])
    assert abs(float(r["x"]) - (t - t * t)) <= 1e-9 and abs(float(r["x\x27"]) - (1 - 2 * t)) <= 1e-9, r
'
done

# --- g. printed forms -----------------------------------------------------------------------
expect "equations of the one-sided spring" 0 "$mech" equations spring.mech
contains "max in the force" out "Qnc[y] = max(0, -k*y)  [N]"
contains "max in the equation" out "y: m*y'' = -m*g + max(0, -k*y)"
expect "equations --latex of the one-sided spring" 0 "$mech" equations --latex spring.mech
contains "\\max in LaTeX" out 'm \ddot{y} &= -m g + \max\left(0, -k y\right)'
expect "equations of the one-sided potential" 0 "$mech" equations potential.mech
contains "if in the potential" out "V = m*g*y + if(y < 0, k*y^2/2, 0)"
contains "if in the equation" out "y: m*y'' = -m*g - if(y < 0, k*y, 0)"
expect "equations --latex of the one-sided potential" 0 "$mech" equations --latex potential.mech
contains "cases in the potential" out \
  'V &= m g y + \begin{cases} \frac{k y^{2}}{2} & y < 0 \\ 0 & \text{otherwise} \end{cases}'
contains "cases in the equation" out \
  'm \ddot{y} &= -m g - \begin{cases} k y & y < 0 \\ 0 & \text{otherwise} \end{cases}'
expect "equations of the dead zone" 0 "$mech" equations dead.mech
contains "an if of x - d is a max" out "x: m*x'' = -(max(-d + x, 0) + min(d + x, 0))*k"
expect "equations of the pulse" 0 "$mech" equations pulse.mech
contains "and / not as nested ifs" out "x: m*x'' = if(t - 1 > 0, if(t - 2 < 0, F, 0), 0)"
expect "equations --json of the one-sided potential" 0 "$mech" equations --json potential.mech
check_json "if in the JSON" '
assert j["V"] == "m*g*y + if(y < 0, k*y^2/2, 0)" and j["conservative"] is True, j
'
for f in spring potential rotor dead; do
  expect "fmt keeps $f.mech" 0 "$mech" fmt --check "$f.mech"
done
# fmt drops the parentheses of not (t >= 2 [s]): not binds looser than a
# comparison; the printed model means the same
expect "fmt of the pulse" 0 "$mech" fmt pulse.mech
contains "and / not printed" out "generalized if(t > 1 [s] and not t >= 2 [s], F, 0 [N]) on x"
cp "$work/out" pulse_fmt.mech
expect "equations of the printed pulse" 0 "$mech" equations pulse_fmt.mech
contains "the same law" out "x: m*x'' = if(t - 1 > 0, if(t - 2 < 0, F, 0), 0)"

# --- h. smooth --------------------------------------------------------------------------------
sed 's/max(0 \[N\], -k \* y)/smooth(max(0 [N], -k * y))/' spring.mech >soft.mech
expect "smooth checks" 0 "$mech" check soft.mech
expect "smooth in the equations" 0 "$mech" equations soft.mech
contains "smooth is printed" out "y: m*y'' = -m*g + smooth(max(0, -k*y))"
expect "the dropped mass, smooth" 0 "$mech" simulate soft.mech --until "$periods3" --dt 0.001 \
  "${tight[@]}" -o soft.csv
lacks "a smooth law is not switched" err "piecewise law"
check_py "the same motion, integrated over the kinks" '
from piecewise_reference import compare
compare("bounce", W + "/soft.csv", 1e-6, m=1, k=100, g=9.81, h=1)
'

# --- i. a branch undefined past its switch ------------------------------------------------------
# sqrt(x) of the held branch is NaN once the step crosses x = 0: the law
# chosen by the state stands in there, so the crossing is found. The mass
# leaves x = 1 from rest under -10 sqrt(x): at x = 0, x'^2/2 = (20/3) x^(3/2)
# from 1 to 0, x' = -sqrt(40/3), kept after it.
cat >root.mech <<'MECH'
model Root {
  coord x
  kinetic x'^2 / 2
  generalized -10 * if(x > 0, sqrt(x), 0) on x
  init x = 1, x' = 0
}
MECH
expect "a branch undefined past its switch" 0 "$mech" simulate root.mech --until 1 --dt 0.5 \
  "${tight[@]}" -o root.csv
check_py "the speed after the switch is the closed form's" '
import csv, math
rows = list(csv.DictReader(open(W + "/root.csv")))
assert abs(float(rows[-1]["x\x27"]) + math.sqrt(40 / 3)) < 1e-8, rows[-1]
'

# --- j. a built library -----------------------------------------------------------------------
expect "build a library of the dropped mass" 0 "$mech" build spring.mech -o libspring.so \
  --header spring.h
contains "the header lists the law" spring.h " *   law[0]  law at 10:15, where k*y = 0"
contains "the header names the switch records" spring.h "#define MECH_EVENT_SWITCH 6"
check_py "the library's functions evaluate the law as written" '
import ctypes
lib = ctypes.CDLL(W + "/libspring.so")
D = ctypes.c_double
P = ctypes.POINTER(D)
for f in (lib.mech_rhs, lib.mech_jacobian):
    f.argtypes = [D, P, P, P]
m, k, g = 1.0, 100.0, 9.81
p = (D * 3)(m, k, g)
for y in (0.5, 1e-9, -1e-9, -0.03):
    x, xdot, J = (D * 2)(y, -1.5), (D * 2)(), (D * 4)()
    assert lib.mech_rhs(0.0, x, p, xdot) == 0 and lib.mech_jacobian(0.0, x, p, J) == 0
    want = -g + (max(0, -k * y)) / m
    assert xdot[0] == -1.5 and abs(xdot[1] - want) <= 1e-12, (y, xdot[1], want)
    assert J[2] == (-k / m if y < 0 else 0), (y, J[2])
'
for method in 0 1; do
  check_py "simulate_with (method $method) switches at the closed form's times" '
import ctypes
from piecewise_reference import bounce, switches
lib = ctypes.CDLL(W + "/libspring.so")
D, Z = ctypes.c_double, ctypes.c_size_t
P = ctypes.POINTER(D)
class Record(ctypes.Structure):
    _fields_ = [("t", D), ("kind", ctypes.c_int), ("index", ctypes.c_int), ("impulse", D),
                ("energy_lost", D)]
class Options(ctypes.Structure):
    _fields_ = [("size", Z), ("t0", D), ("multipliers", ctypes.c_int), ("outputs", ctypes.c_int),
                ("inputs", ctypes.c_void_p), ("inputs_context", ctypes.c_void_p),
                ("method", ctypes.c_int), ("events", ctypes.POINTER(Record)), ("max_events", Z),
                ("events_found", ctypes.POINTER(Z)), ("event_states", P)]
records, found = (Record * 32)(), Z()
o = Options(ctypes.sizeof(Options), 0, 0, 0, None, None, '"$method"', records, 32,
            ctypes.pointer(found), None)
lib.mech_simulate_with.argtypes = [P, P, D, D, D, D, ctypes.POINTER(Options), P, Z, ctypes.POINTER(Z)]
until = '"$periods3"'
rows_max = int(until / 0.01) + 2
out, rows = (D * (3 * rows_max))(), Z()
status = lib.mech_simulate_with((D * 2)(1.0, 0.0), (D * 3)(1, 100, 9.81), until, 0.01, 1e-12, 1e-12,
                                ctypes.byref(o), out, rows_max, ctypes.byref(rows))
assert status == 0, status
want = switches("bounce", until, m=1, k=100, g=9.81, h=1)
got = [records[i] for i in range(found.value)]
assert len(got) == len(want) == 6, (len(got), want)
for r, (law, t) in zip(got, want):
    assert r.kind == 6 and r.index == 0 and abs(r.t - t) <= 1e-10, (r.kind, r.index, r.t, t)
name, state, _ = bounce(dict(m=1, k=100, g=9.81, h=1))
worst = max(max(abs(out[3 * i + 1] - state(out[3 * i])[0]), abs(out[3 * i + 2] - state(out[3 * i])[1]))
            for i in range(rows.value))
assert worst <= 1e-8, worst
'
done
cp "$models/piecewise_contact.mech" mixed.mech
expect "a law and a contact in one run" 0 "$mech" simulate mixed.mech --until 3 --dt 0.01 \
  "${tight[@]}" -o mixed.csv
contains "8 impacts" err "contact floor: 8 impacts"
contains "13 switches" err "piecewise law at 11:16, where (2*y - 1)*k/2 = 0: 13 switches"
expect "build a library of it" 0 "$mech" build mixed.mech -o libmixed.so
check_py "the library runs it as mech simulate does: impacts and switches in one run" '
import ctypes
lib = ctypes.CDLL(W + "/libmixed.so")
D, Z = ctypes.c_double, ctypes.c_size_t
out, rows = (D * (3 * 400))(), Z()
assert lib.mech_simulate((D * 2)(1.0, 0.0), (D * 4)(0.1, 9.81, 50, 0.8), D(3), D(0.01), D(1e-12),
                         D(1e-12), out, Z(400), ctypes.byref(rows)) == 0
cli = {round(float(r["t"]), 9): float(r["y"]) for r in csv.DictReader(open(W + "/mixed.csv"))}
assert rows.value == 301, rows.value
worst = max(abs(out[3 * i + 1] - cli[round(out[3 * i], 9)]) for i in range(rows.value))
assert worst <= 1e-10, worst
'
expect "build a library of the sliding mode" 0 "$mech" build slide.mech -o libslide.so
check_py "the library ends a sliding mode after 64 quick switches, as mech simulate does" '
import ctypes
lib = ctypes.CDLL(W + "/libslide.so")
D, Z = ctypes.c_double, ctypes.c_size_t
class Options(ctypes.Structure):
    _fields_ = [("size", Z), ("t0", D), ("multipliers", ctypes.c_int), ("outputs", ctypes.c_int),
                ("inputs", ctypes.c_void_p), ("inputs_context", ctypes.c_void_p),
                ("method", ctypes.c_int), ("events", ctypes.c_void_p), ("max_events", Z),
                ("events_found", ctypes.POINTER(Z)), ("event_states", ctypes.c_void_p)]
found = Z()
o = Options(ctypes.sizeof(Options), 0, 0, 0, None, None, 0, None, 0, ctypes.pointer(found), None)
out, rows = (D * (3 * 40))(), Z()
status = lib.mech_simulate_with((D * 2)(0.0, 1.0), (D * 2)(1, 2), D(2), D(0.125), D(1e-10),
                                D(1e-10), ctypes.byref(o), out, Z(40), ctypes.byref(rows))
assert status == 14, status  # MECH_TOO_MANY_SWITCHES
assert rows.value == 5 and out[3 * 4] == 0.5, (rows.value, out[3 * 4])  # up to x = 0 at t = 0.5
assert 64 <= found.value <= 66, found.value
'

finish
