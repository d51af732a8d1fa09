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

finish
