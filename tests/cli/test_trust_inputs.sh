# What mech trusts of its inputs, and what it keeps while it runs:
# - --input tables: only regular files are read (a FIFO would block, a
#   link to /dev/zero would fill memory), columns are picked by their
#   header names (t anywhere), a byte-order mark is skipped, a first row
#   that is neither numbers nor a header naming t and the input is an
#   error, and numbers in messages are printed as written (0.1, not
#   0.100000);
# - memory that does not grow with the run: animate's page samples, the
#   event counts without --events, the REPL's table guard read from the
#   options as simulate reads them (--dt=VALUE, the start time of --init);
# - an event that crosses zero several times within one integrator step
#   (sin(w t) against a slowly moving oscillator) is counted exactly, with
#   a warning that it chatters;
# - diagnostics escape the terminal controls of a user's text (a file
#   name, a table's cell), and check --json stays valid UTF-8;
# - a unit with a fractional exponent gets a message that says so, and
#   `mech build` splits CC into words as make does.
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
cat >push.mech <<'MODEL'
model Push {
  input F [N]
  coord x [m]
  particle p mass 1 [kg] at [x, 0]
  generalized F on x
  output push = F
}
MODEL

# Columns by name: F before t, and a third column not used.
printf 'F,t,G\n0,0,9\n2,1,9\n2,3,9\n-2,4,9\n' >swapped.csv
expect "a header F,t,G" 0 "$mech" simulate push.mech --input "F=swapped.csv" --until 5 --dt 0.5
check_py "F is read from its column, t from its" '
rows = list(csv.reader(open(W + "/out")))[1:]
got = {float(r[0]): float(r[-1]) for r in rows}
want = {0: 0, 0.5: 1, 1: 2, 2: 2, 3.5: 0, 4: -2, 5: -2}
assert all(abs(got[t] - v) < 1e-15 for t, v in want.items()), got'

# A byte-order mark before a first row of numbers: the row is kept.
printf '\xef\xbb\xbf0,4\n1,2\n' >bom.csv
expect "a byte-order mark" 0 "$mech" simulate push.mech --input "F=bom.csv" --until 1 --dt 1
check_py "the first row (F = 4 at t = 0) is not lost" '
rows = list(csv.reader(open(W + "/out")))[1:]
assert [float(r[-1]) for r in rows] == [4.0, 2.0], rows'
printf '\xef\xbb\xbft,F\n0,3\n1,3\n' >bomheader.csv
expect "a byte-order mark before a header" 0 "$mech" simulate push.mech --input "F=bomheader.csv" \
  --until 1 --dt 1
check_py "the header is read as one" '
rows = list(csv.reader(open(W + "/out")))[1:]
assert [float(r[-1]) for r in rows] == [3.0, 3.0], rows'

# A first row that is not numbers and does not name t and F.
printf 'time,force\n0,1\n1,2\n' >unnamed.csv
expect "a header without t" 1 "$mech" simulate push.mech --input "F=unnamed.csv" --until 1
contains "says what a header must name" err \
  "unnamed.csv:1: the header line (time, force) must name the time column 't' and the input's column 'F'"
printf '0,1\nx,2\n1,2\n' >word.csv
expect "a word in a later row" 1 "$mech" simulate push.mech --input "F=word.csv" --until 1
contains "names the line" err "word.csv:2: 'x' is not a finite number"
printf 't,F\n0,0\n0.1,2\n0.1,3\n' >repeated.csv
expect "times that repeat" 1 "$mech" simulate push.mech --input "F=repeated.csv" --until 1
contains "the times as written" err "repeated.csv:4: the times must increase (0.1 follows 0.1)"

# Not regular files: refused at once, not read.
mkfifo fifo.csv
expect "a FIFO" 1 timeout 20 "$mech" simulate push.mech --input "F=fifo.csv" --until 1
contains "FIFO refused" err "'fifo.csv' is not a regular file"
ln -s /dev/zero zero.csv
expect "a link to /dev/zero" 1 timeout 20 "$mech" simulate push.mech --input "F=zero.csv" --until 1
contains "device refused" err "'zero.csv' is not a regular file"
expect "a missing table" 1 "$mech" simulate push.mech --input "F=none.csv" --until 1
contains "missing" err "cannot open 'none.csv': No such file or directory"

# A cell with terminal controls is echoed escaped.
printf 't,F\n0,0\n1,\033[31mred\n' >escape.csv
expect "a cell with an escape sequence" 1 "$mech" simulate push.mech --input "F=escape.csv" \
  --until 1
contains "ESC shown as \\e" err "escape.csv:3: '\\e[31mred' is not a finite number"
check_py "no raw ESC reaches the terminal" '
assert "\x1b" not in open(W + "/err").read()'

# A chattering event: sin(w t) crosses zero at t = k pi/w, 190 times up
# to t = 10 for w = 60, while the slow oscillator lets the steps span
# several crossings.
cat >chatter.mech <<'MODEL'
model Chatter {
  param m [kg] = 1, k [N/m] = 1, w [1/s] = 60
  coord x [m]
  kinetic m * x'^2 / 2
  potential k * x^2 / 2
  init x = 1
  event tick: sin(w * t) == 0
}
MODEL
expect "a chattering event" 0 "$mech" simulate chatter.mech --until 10 --dt 1 --events ticks.csv \
  -o /dev/null
contains "counted whole" err "event tick: fired 190 times"
contains "warned of" err "warning: event tick re-fired"
check_py "every crossing at k pi/w" '
times = [float(r["t"]) for r in csv.DictReader(open(W + "/ticks.csv"))]
assert len(times) == 190, len(times)
for k, t in enumerate(times, 1):
    assert abs(t - k * math.pi / 60) < 1e-9, (k, t)'
# A smooth event, x = cos t crossing 0 at t = pi/2 + k pi, is not warned of.
sed -e 's/event tick: .*/event zero: x == 0/' chatter.mech >smooth.mech
expect "a smooth event" 0 "$mech" simulate smooth.mech --until 10 --dt 1 -o /dev/null
contains "three crossings up to t = 10" err "event zero: fired 3 times"
lacks "no warning" err "chatters"

# Memory bounded by counts: without --events the log keeps no rows (unit
# test [bounds]); animate thins while running, so a run of 4e6 samples
# fits in an address space of 200 MB (a short run needs less) that would
# not hold them all (kept whole they take some 290 MB).
cat >slow.mech <<'MODEL'
model Slow {
  param m [kg] = 1, k [N/m] = 1
  coord x [m]
  particle p mass m at [x, 0]
  potential k * x^2 / 2
  init x = 1
}
MODEL
# Not under the sanitizers: AddressSanitizer's shadow memory needs more
# address space than ulimit -v allows.
if [ -z "${MECH_SANITIZER_PASS:-}" ]; then
  ( ulimit -v 200000 && exec "$mech" animate slow.mech --until 400 --dt 1e-4 -o slow.html \
    >"$work/out" 2>"$work/err" )
  status=$?
  if [ "$status" -eq 0 ]; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: animate of 4e6 samples under ulimit -v: exit $status"
    sed 's/^/  | /' "$work/err" | head -5; fi
  contains "the page says it thinned" err "animate: 15626 frames of"
else
  skip "animate of 4e6 samples under ulimit -v (AddressSanitizer cannot run under it)"
fi

# File names with terminal controls or bytes that are not UTF-8.
bad="$(printf 'a\033]0;title\007b.mech')"
printf 'model M {\n  coord x [m]\n  kinetic x\x27^2\n  potential oops\n}\n' >"$bad"
expect "an error in a file with controls in its name" 1 "$mech" check "$bad"
contains "the name escaped" err 'a\e]0;title\x07b.mech:'
check_py "no raw control reaches the terminal" '
text = open(W + "/err", encoding="utf-8").read()
assert "\x1b" not in text and "\x07" not in text, repr(text)'
latin="$(printf 'caf\351.mech')"
cp push.mech "$latin"
expect "check --json of a name that is not UTF-8" 0 "$mech" check "$latin" --json
check_py "valid UTF-8 JSON, the byte replaced" '
j = json.loads(open(W + "/out", "rb").read().decode("utf-8"))
assert "caf\ufffd.mech" in json.dumps(j, ensure_ascii=False), j'

# A fractional unit exponent says what a unit may hold, whether the
# brackets follow a param's value or a let's (where the param m makes them
# read as an entry of 1).
for decl in 'param k = 1 [m^(1/2)]' 'let a = 1 [m^(1/2)]' 'let a = 2 [kg*m^(-1/2)/s]'; do
  printf 'model U {\n  param m [kg] = 1\n  coord x [m]\n  kinetic m*x\x27^2/2\n  %s\n}\n' "$decl" >frac.mech
  expect "$decl" 1 "$mech" check frac.mech
  contains "$decl: what a unit is" err "] is not a unit: a unit's exponents are whole numbers (m^2, s^-1)"
  contains "$decl: what to write" err "raise a quantity to the power instead, as in (1 [m])^(1/2)"
  lacks "$decl: not an entry" err "is a scalar"
done

# CC with flags is split into words, as make splits it: the first word is
# run with the rest before mech's own arguments.
if command -v cc >/dev/null; then
  printf '#!/bin/sh\necho "$1" >"%s/cc-first"\nshift\nexec cc "$@"\n' "$work" >fakecc
  chmod +x fakecc
  CC="$work/fakecc   --marker" expect "CC with a flag" 0 "$mech" build push.mech -o libpush.so
  contains "the flag is the first argument" cc-first "--marker"
  check_py "the library was linked" 'import os; assert os.path.getsize(W + "/libpush.so") > 0'
else
  echo "SKIP: no C compiler (cc) for mech build"
fi

# The REPL's table holds at most a million rows; the guard reads --dt=VALUE
# and the start time of --init as simulate does. Each run here has 1.1e6
# samples: the summary is shown, and no table.
for options in "1.1 --dt=1e-6" "0.1 --init t=-1 --dt 1e-6"; do
  printf ':sim %s\n' "$options" >guard.in
  expect ":sim $options" 0 "$mech" repl slow.mech <guard.in
  contains ":sim $options: summary" err "1100001 samples"
  lacks ":sim $options: no table" out "           x"
done
printf ':sim 0.5 --dt=0.25\n' >small.in
expect ":sim with a small table" 0 "$mech" repl slow.mech <small.in
contains "a small table is shown" out "           x"

finish
