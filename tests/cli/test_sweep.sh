#!/usr/bin/env bash
# Command-line tests of `mech sweep`:
#  a. summaries against closed forms: the simple pendulum's half period over
#     a sweep of amplitudes (the complete elliptic integral, by the AGM),
#     stopped by --stop-when; a harmonic oscillator's amplitude and invariant
#     over a sweep of stiffness and mass
#  b. the same rows, bit for bit, on 1, 2 and 4 threads (a chaotic double
#     pendulum, which would show any difference), CSV and JSON alike
#  c. runs that fail are rows with their status and message
#  d. --random: the same seed gives the same samples, another seed others;
#     the samples' moments against the laws'
#  e. Ctrl-C stops the sweep and keeps the rows done, in order
#  f. --plot: a 1-D sweep as lines against the swept name, a 2-D one as a
#     heat map whose cells cover the grid, coloured by the summary
#  g. errors: located in the option (names, dimensions, summaries), usage
#     errors for the option's shape, a param that shapes the model, an init
#     that depends on a swept param
#  h. a mech without its MPI module, started as one of several processes of
#     an MPI job, says so (once, on rank 0) instead of running the whole
#     sweep in every process
# Usage: test_sweep.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$root"
models=tests/cli/models

# --- a. Closed forms. -------------------------------------------------------
expect "pendulum half periods" 0 "$mech" sweep $models/simple_pendulum.mech \
  --grid "th=0.1..3:12" --stop-when "th' == 0, up" --summary "half = at_end(t), status" \
  --until 20 --rtol 1e-12 --atol 1e-12 -o "$work/half.csv"
contains "the summary line" err "sweep: 12 of 12 runs on"
contains "every run stopped" err "0 ok, 12 stopped, 0 failed"
check_py "half periods are 2 sqrt(l/g) K(sin(A/2))" '
def K(k):  # the complete elliptic integral of the first kind, by the AGM
    a, b = 1.0, math.sqrt(1 - k * k)
    for _ in range(60):
        a, b = (a + b) / 2, math.sqrt(a * b)
    return math.pi / (2 * a)
rows = list(csv.DictReader(open(W + "/half.csv")))
assert [r["status"] for r in rows] == ["stopped"] * 12, rows
for i, r in enumerate(rows):
    A = 0.1 + (3 - 0.1) * i / 11
    assert abs(float(r["th"]) - A) <= 1e-15, (r["th"], A)
    exact = 2 * math.sqrt(1 / 9.81) * K(math.sin(A / 2))
    assert abs(float(r["half"]) - exact) <= 1e-9 * exact, (A, r["half"], exact)
    assert r["message"] == "stopped by event --stop-when at t = " + r["half"], r
'
expect "oscillator amplitudes" 0 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..16:4, m=0.5..2 [kg]:3" --until 10 --dt 0.001 --rtol 1e-11 --atol 1e-12 \
  --summary "max(x), min(x), invariant = at_end(x^2 + m/k*x'^2), mean(x^2), energy_drift" \
  -o "$work/osc.csv"
check_py "amplitude sqrt(1 + m/k) and the invariant" '
rows = list(csv.DictReader(open(W + "/osc.csv")))
assert [(r["k"], r["m"]) for r in rows[:4]] == [("1", "0.5"), ("1", "1.25"), ("1", "2"), ("6", "0.5")]
assert len(rows) == 12
for r in rows:
    k, m = float(r["k"]), float(r["m"])
    w, A = math.sqrt(k / m), math.sqrt(1 + m / k)
    # The samples (dt) miss the peak by at most A (1 - cos(w dt / 2)).
    slack = A * (w * 0.001) ** 2 / 8 + 1e-9
    assert A - slack <= float(r["max(x)"]) <= A + 1e-9, (r, A)
    assert -A - 1e-9 <= float(r["min(x)"]) <= -A + slack, (r, A)
    assert abs(float(r["invariant"]) - A * A) <= 1e-8, (r, A * A)
    # x = A sin(w t + phi): the mean of x^2 over [0, 4] in closed form.
    phi, T = math.atan2(1, 1 / w), 10.0
    mean = A * A / 2 * (1 - (math.sin(2 * (w * T + phi)) - math.sin(2 * phi)) / (2 * w * T))
    assert abs(float(r["mean(x^2)"]) - mean) <= 1e-6, (r, mean)
    assert float(r["energy_drift"]) < 1e-9, r
'

# With a constraint, each start is put onto it keeping the swept value (as
# simulate keeps what --init gives): x as swept, y = -sqrt(l^2 - x^2).
expect "a constrained sweep keeps the swept start" 0 "$mech" sweep examples/cartesian_pendulum.mech \
  --grid "x=0.2..0.8:4" --until 0.5 --summary "start_y = max(y), constraint_drift"
check_py "the starts on the circle" '
rows = list(csv.DictReader(open(W + "/out")))
assert len(rows) == 4, rows
for r in rows:
    x = float(r["x"])
    assert abs(float(r["start_y"]) + math.sqrt(1 - x * x)) <= 1e-12, r
    assert float(r["constraint_drift"]) < 1e-7, r
' 

# --- b. Deterministic whatever the threads. ---------------------------------
for threads in 1 2 4; do
  expect "basin on $threads threads" 0 "$mech" sweep examples/double_pendulum.mech \
    --grid "th1=-3..3:7, th2=-3..3:6" --init "th1'=0, th2'=0" --until 10 \
    --summary "at_end(th2), flipped = any(abs(th2) > pi), first_time(abs(th2) > pi)" \
    --threads $threads -o "$work/basin.$threads.csv"
  expect "basin on $threads threads, JSON" 0 "$mech" sweep examples/double_pendulum.mech \
    --grid "th1=-3..3:7, th2=-3..3:6" --init "th1'=0, th2'=0" --until 10 \
    --summary "at_end(th2), flipped = any(abs(th2) > pi), first_time(abs(th2) > pi)" \
    --threads $threads -o "$work/basin.$threads.json"
done
contains "the threads asked for" err "on 4 threads"
# The interpreter keeps scratch memory: each worker has its own.
for threads in 1 2; do
  expect "interpreted on $threads threads" 0 "$mech" sweep examples/double_pendulum.mech \
    --grid "th1=-3..3:4, th2=-3..3:3" --until 3 --backend interp --summary "at_end(th2)" \
    --threads $threads -o "$work/interp.$threads.csv"
done
expect "interpreted, 1 and 2 threads, bit for bit" 0 cmp "$work/interp.1.csv" "$work/interp.2.csv"
expect "1 and 2 threads, bit for bit" 0 cmp "$work/basin.1.csv" "$work/basin.2.csv"
expect "1 and 4 threads, bit for bit" 0 cmp "$work/basin.1.csv" "$work/basin.4.csv"
expect "JSON, 1 and 4 threads" 0 cmp "$work/basin.1.json" "$work/basin.4.json"
check_py "the JSON holds the CSV's rows; empty first_time is null" '
rows = list(csv.reader(open(W + "/basin.1.csv")))
j = json.load(open(W + "/basin.1.json"))
assert j["columns"] == rows[0], (j["columns"], rows[0])
assert len(j["rows"]) == len(rows) - 1 == 42
flips = 0
for c, r in zip(rows[1:], j["rows"]):
    assert [float(v) for v in c[:3]] == r[:3], (c, r)
    assert (c[4] == "") == (r[4] is None), (c, r)
    assert c[3] in ("0", "1") and (c[3] == "1") == (r[4] is not None), c
    flips += c[3] == "1"
assert 0 < flips < 42, flips
'

# --- c. Failed runs are rows. -------------------------------------------------
expect "a sweep with failing runs" 0 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "m=0..1:3" --summary "max(x)" --until 1
contains "the failed run's row" out "0,,failed,mass matrix is singular at the start: coordinate 'x' has no inertia"
contains "the others" out "1,1.1180"
contains "counted" err "2 ok, 0 stopped, 1 failed"

# --- d. Random samples. -------------------------------------------------------
for seed in 5 5 6; do
  expect "random samples, seed $seed" 0 "$mech" sweep $models/harmonic_oscillator.mech \
    --random "k=normal(4, 0.5):2000, m=uniform(1, 2):2000" --seed $seed --until 0.1 \
    --summary "at_end(x)" -o "$work/random.$seed.csv"
  [ -f "$work/random.$seed.a.csv" ] || cp "$work/random.$seed.csv" "$work/random.$seed.a.csv"
done
expect "the same seed, the same samples" 0 cmp "$work/random.5.csv" "$work/random.5.a.csv"
check_py "the samples follow their laws; another seed draws others" '
rows = list(csv.DictReader(open(W + "/random.5.csv")))
other = list(csv.DictReader(open(W + "/random.6.csv")))
assert len(rows) == len(other) == 2000
k = [float(r["k"]) for r in rows]
m = [float(r["m"]) for r in rows]
n = len(k)
mean = sum(k) / n
sd = math.sqrt(sum((v - mean) ** 2 for v in k) / (n - 1))
assert abs(mean - 4) <= 5 * 0.5 / math.sqrt(n), mean
assert abs(sd - 0.5) <= 5 * 0.5 / math.sqrt(2 * n), sd
assert all(1 <= v < 2 for v in m) and abs(sum(m) / n - 1.5) <= 5 * (1 / math.sqrt(12)) / math.sqrt(n)
assert sum(r["k"] != s["k"] for r, s in zip(rows, other)) == n
'
expect "grid and samples together" 0 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "x=1..2:2" --random "k=uniform(1, 2):3" --until 0.1 --summary "at_end(x)"
check_py "the sample varies fastest, the same draws at every grid point" '
rows = list(csv.reader(open(W + "/out")))
assert rows[0][:2] == ["x", "k"], rows[0]
assert [r[0] for r in rows[1:]] == ["1"] * 3 + ["2"] * 3, rows
assert [r[1] for r in rows[1:4]] == [r[1] for r in rows[4:7]], rows
'

# --- e. Ctrl-C keeps the rows done. -------------------------------------------
"$mech" sweep examples/double_pendulum.mech --grid "th1=-3..3:300, th2=-3..3:300" --until 10 \
  --summary "at_end(th2)" --threads 2 -o "$work/cut.csv" >"$work/cut.out" 2>"$work/cut.err" &
pid=$!
# Once some rows are in the staging file (a slow build compiles longer).
for _ in $(seq 600); do
  [ "$(cat "$work"/.cut.csv.tmp-* 2>/dev/null | wc -c)" -gt 2000 ] && break
  sleep 0.1
done
kill -INT $pid
wait $pid
status=$?
expect "interrupted: exit 130" 0 test $status -eq 130
contains "says so" cut.err "sweep: interrupted; the"
check_kept_rows "the rows kept are the first runs, whole, in order"

# --- f. Pictures. -------------------------------------------------------------
expect "a 1-D sweep's plot" 0 "$mech" sweep $models/harmonic_oscillator.mech --grid "k=1..16:6" \
  --until 10 --summary "max(x), status, min(x)" --plot "$work/line.svg" -o "$work/line.csv"
check_py "one line per numeric summary against k" '
import xml.etree.ElementTree as ET
svg = ET.parse(W + "/line.svg").getroot()
texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
assert "k" in texts and "max(x)" in texts and "min(x)" in texts and "status" not in texts, texts
'
expect "a 2-D sweep's heat map" 0 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=-3..3:12, th2=-3..3:10" --init "th1'=0, th2'=0" --until 5 \
  --summary "flip = first_time(abs(th2) > pi)" --plot "$work/map.svg" -o "$work/map.csv"
check_py "the cells cover the grid, coloured by the flip time, grey without one" '
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(W + "/map.svg").getroot()
groups = {g.get("class"): g for g in svg.iter(ns + "g")}
cells = list(groups["cells"].iter(ns + "rect"))
bar = list(groups["colour-bar"].iter(ns + "rect"))
assert len(bar) == 64, len(bar)
area = sum(float(r.get("width")) * float(r.get("height")) for r in cells)
xs = [float(r.get("x")) for r in cells]; ys = [float(r.get("y")) for r in cells]
right = max(float(r.get("x")) + float(r.get("width")) for r in cells)
bottom = max(float(r.get("y")) + float(r.get("height")) for r in cells)
assert abs(area - (right - min(xs)) * (bottom - min(ys))) <= 0.01 * area, area
rows = list(csv.DictReader(open(W + "/map.csv")))
missing = sum(r["flip"] == "" for r in rows)
grey = [r for r in cells if r.get("fill") == "#bdbdbd"]
assert (missing > 0) == (len(grey) > 0), (missing, len(grey))
texts = [t.text for t in svg.iter(ns + "text")]
assert "th1" in texts and "th2" in texts and "flip" in texts, texts
assert ("no value" in texts) == (missing > 0), texts
'
expect "--plot of a random sweep" 2 "$mech" sweep $models/harmonic_oscillator.mech \
  --random "k=uniform(1, 2):3" --summary "max(x)" --plot "$work/no.svg"
expect "--plot of three names" 2 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..2:2, m=1..2:2, x=1..2:2" --summary "max(x)" --plot "$work/no.svg"
expect "--plot with only status" 2 "$mech" sweep $models/harmonic_oscillator.mech \
  --grid "k=1..2:2" --summary "status" --plot "$work/no.svg"

# --- g. Errors. ---------------------------------------------------------------
expect "an unknown name" 1 "$mech" sweep examples/double_pendulum.mech --grid "foo=0..1:3" \
  --summary "at_end(th1)"
contains "located in --grid" err "<--grid>:1:1: error: 'foo' is not a param or a coordinate of DoublePendulum"
expect "a value of the wrong dimension" 1 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:3, l1=0..1 [s]:3" --summary "at_end(th1)"
contains "the dimension" err "'l1' has dimension m, the value given has s"
expect "an unknown name in a summary" 1 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:3" --summary "at_end(th1), max(foo + 1)"
contains "located in --summary" err "--summary:1:18: error: unknown name 'foo'"
expect "a condition mixing dimensions" 1 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:3" --summary "any(th1 > l1)"
contains "the mixed condition" err "mixes dimensions"
expect "a param that shapes the model" 1 "$mech" sweep examples/chain.mech --grid "n=2..3:2" \
  --summary status
contains "why" err "param 'n' shapes the model"
expect "an init read from a swept param" 1 "$mech" sweep $models/init_from_param.mech \
  --grid "A=0..1:3" --summary "max(th)"
contains "the init" err "the model's init of th depends on param 'A'"
expect "... unless the start is swept too" 0 "$mech" sweep $models/init_from_param.mech \
  --grid "A=0..1:2" --init "th=0.2" --summary "max(th)" --until 0.1
expect "no --summary" 2 "$mech" sweep examples/double_pendulum.mech --grid "th1=0..1:2"
contains "says what is missing" err "sweep: --summary is required"
expect "nothing swept" 2 "$mech" sweep examples/double_pendulum.mech --summary "max(th1)"
expect "points not a whole number" 2 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:2.5" --summary "max(th1)"
expect "an equality" 2 "$mech" sweep examples/double_pendulum.mech --grid "th1=0..1:2" \
  --summary "any(th1 == 1)"
expect "a value reducer given a condition" 2 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:2" --summary "max(th1 > 1)"
expect "an unknown reducer" 2 "$mech" sweep examples/double_pendulum.mech --grid "th1=0..1:2" \
  --summary "median(th1)"
contains "the reducers" err "is not one of at_end, max, min, mean, any, all, first_time"
expect "swept twice" 2 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:2" --random "th1=uniform(0, 1):3" --summary "max(th1)"
expect "samples that disagree" 2 "$mech" sweep examples/double_pendulum.mech \
  --random "th1=uniform(0, 1):3, th2=uniform(0, 1):4" --summary "max(th1)"
expect "a bad sd" 2 "$mech" sweep examples/double_pendulum.mech \
  --random "th1=normal(0, 0):3" --summary "max(th1)"
expect "energy_drift of a damped model" 1 "$mech" sweep examples/driven_oscillator.mech \
  --grid "x=0..1:2" --summary "energy_drift"
contains "why not" err "so its drift measures nothing"
expect "two summaries of one name" 2 "$mech" sweep examples/double_pendulum.mech \
  --grid "th1=0..1:2" --summary "a = max(th1), a = min(th1)"

# --- h. Under an MPI launcher without the MPI module. --------------------------
mkdir -p "$work/nompi"
ln "$mech" "$work/nompi/mech" 2>/dev/null || cp "$mech" "$work/nompi/mech"
expect "rank 0 of 4, no MPI module" 1 env OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=0 \
  "$work/nompi/mech" sweep $models/harmonic_oscillator.mech --grid "k=1..2:2" --summary "max(x)"
contains "says why" err "sweep: started as one of 4 processes of an MPI job, but this mech was built without MPI"
empty "no rows" out
expect "rank 2 of 4, no MPI module" 1 env OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=2 \
  "$work/nompi/mech" sweep $models/harmonic_oscillator.mech --grid "k=1..2:2" --summary "max(x)"
empty "the other ranks are silent" err
expect "one process of one: a plain sweep" 0 env OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_RANK=0 \
  "$work/nompi/mech" sweep $models/harmonic_oscillator.mech --grid "k=1..2:2" --summary "max(x)"

finish
