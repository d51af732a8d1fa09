# Shared by the command-line test scripts: `source lib.sh "$@"` with the
# arguments MECH_BINARY SOURCE_ROOT [BUILD_DIR]. Defines $mech, $root,
# $build, a scratch folder $work (removed at exit, also the kernel cache's
# home), counters, and the checks expect, save, contains, lacks, empty,
# check_json, check_py and golden; a script ends with `finish`.
set -u
mech="$(readlink -f "$1")" # absolute: scripts change directory
root="$2"
build="${3:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Compiled kernels are cached under the test's own directory.
export XDG_CACHE_HOME="$work/cache"
passed=0
failed=0

# expect NAME EXPECTED_EXIT COMMAND...: runs the command, checks the exit code.
expect() {
  local name="$1" expected="$2"
  shift 2
  "$@" >"$work/out" 2>"$work/err"
  local status=$?
  if [ "$status" -eq "$expected" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name: exit $status, expected $expected"
    sed 's/^/  | /' "$work/out" "$work/err" | head -20
  fi
}

# check_json NAME PYTHON: runs the Python statements (asserts) with j, the
# JSON the last command printed, and math imported.
check_json() {
  if python3 -c "
import json, math, sys
j = json.load(open('$work/out'))
$2
" 2>"$work/py"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: $1"; sed 's/^/  | /' "$work/py" | tail -5; fi
}

# check_py NAME PYTHON: runs the Python statements (asserts) with csv,
# json, math and re imported and W the scratch folder (files written by
# the commands, compared with exact answers).
check_py() {
  if python3 -c "
import csv, json, math, re
W = '$work'
$2
" 2>"$work/py"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "FAIL: $1"; sed 's/^/  | /' "$work/py" | tail -5; fi
}

# check_kept_rows NAME: the rows cut.csv kept when a sweep of the double
# pendulum over th1, th2 = -3..3:300 was interrupted (cut.err its stderr)
# are its first runs, whole, in order, as many as it says it kept.
check_kept_rows() {
  check_py "$1" '
rows = list(csv.reader(open(W + "/cut.csv")))
assert rows[0] == ["th1", "th2", "at_end(th2)", "status", "message"], rows[0]
body = rows[1:]
assert 0 < len(body) < 90000, len(body)
for i, r in enumerate(body):
    assert len(r) == 5 and r[3] == "ok", r
    assert abs(float(r[0]) - (-3 + 6 * (i // 300) / 299)) <= 1e-12, (i, r)
    assert abs(float(r[1]) - (-3 + 6 * (i % 300) / 299)) <= 1e-12, (i, r)
kept = re.search(r"the (\d+) rows done are kept", open(W + "/cut.err").read())
assert kept and int(kept.group(1)) == len(body), (kept, len(body))
'
}

# save: keeps the output of the last command for a later check.
save() { cp "$work/out" "$work/saved"; }

# contains NAME FILE TEXT: the output of the last command contains TEXT.
contains() {
  if grep -qF -- "$3" "$work/$2"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: '$3' not in $2"
    sed 's/^/  | /' "$work/$2" | head -20
  fi
}

# empty NAME FILE: the output FILE of the last command is empty.
empty() {
  if [ ! -s "$work/$2" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: $2 is not empty"
    sed 's/^/  | /' "$work/$2" | head -5
  fi
}

# lacks NAME FILE TEXT: the output of the last command does not contain TEXT.
lacks() {
  if grep -qF -- "$3" "$work/$2"; then
    failed=$((failed + 1))
    echo "FAIL: $1: '$3' in $2"
    sed 's/^/  | /' "$work/$2" | head -5
  else
    passed=$((passed + 1))
  fi
}

# golden NAME ACTUAL GOLDEN: the file ACTUAL equals the golden file GOLDEN.
# The one update mode of the golden files: with MECH_UPDATE_GOLDEN=1 (see
# scripts/update-goldens.sh) GOLDEN is rewritten instead; review the diff.
golden() {
  if [ "${MECH_UPDATE_GOLDEN:-0}" = 1 ]; then
    cmp -s "$2" "$3" || { cp "$2" "$3" && echo "updated: $3"; }
    passed=$((passed + 1))
  elif cmp -s "$2" "$3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1 differs from ${3#"$root"/}"
    diff "$3" "$2" | head -40
  fi
}

# skip REASON: a part of the script that cannot run here, said with its
# reason; the script then ends as skipped (exit 77, which ctest reports as
# Skipped) unless a check failed, so that a part not run never reads as
# passed.
# identical NAME A B: the files $work/A and $work/B are equal, byte for byte.
identical() {
  if cmp -s "$work/$2" "$work/$3"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1"
    diff "$work/$2" "$work/$3" | head -20
  fi
}

skipped=0
skip() {
  echo "skipped: $1"
  skipped=$((skipped + 1))
}

# Prints the counts; the exit status says whether every check passed: 1
# when one failed, 77 when none failed but a part was skipped, else 0.
finish() {
  echo "$passed passed, $failed failed, $skipped skipped"
  [ "$failed" -eq 0 ] || return 1
  [ "$skipped" -eq 0 ] || exit 77
}
