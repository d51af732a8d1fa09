#!/usr/bin/env bash
# Every form `mech equations --json` prints for the gallery equals what
# `mech eval --json` computes from the derivation at random states
# (check_printed_forms.py: the printed text is parsed back and evaluated
# in Python, never by mech). Then the checker itself is shown to catch a
# wrong printed form: a coefficient, a sign and an angle edited in a
# captured JSON (T, M and f) each make it fail.
# Usage: test_printed_forms.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
checker="$root/tests/cli/check_printed_forms.py"

expect "every gallery model's printed forms" 0 python3 "$checker" "$mech" "$root" --states 3
contains "all models checked" out "0 failed"
lacks "no model failed" out "FAIL"

# mutate NAME PYTHON_EXPRESSION: the double pendulum's JSON with one
# printed string edited; the checker must fail on it.
"$mech" equations examples/double_pendulum.mech --json >"$work/dp.json"
mutate() {
  python3 - "$work/dp.json" "$work/bad.json" "$2" <<'PY'
import json, sys
eq = json.load(open(sys.argv[1]))
text = json.dumps(eq)
old, new = sys.argv[3].split(" -> ")
assert old in text, old
open(sys.argv[2], "w").write(text.replace(old, new, 1))
PY
  expect "$1 is caught" 1 python3 "$checker" "$mech" "$root" --only double_pendulum \
    --equations-json "double_pendulum=$work/bad.json"
}
mutate "a coefficient of M" "(m1 + m2)*l1^2 -> (m1 + 1.0000001*m2)*l1^2"
mutate "a sign in M" "m2*l1*l2*cos(th1 - th2) -> -m2*l1*l2*cos(th1 - th2)"
mutate "an angle in f" "sin(th1 - th2) -> sin(th1 + th2)"
expect "the unedited JSON passes" 0 python3 "$checker" "$mech" "$root" --only double_pendulum \
  --equations-json "double_pendulum=$work/dp.json"

finish
