# The REPL's imports resolve as the CLI's: a command run on the session's
# copy of the model (:eom, :eval, ...) finds what the typed text imports from
# the working directory, and a file loaded earlier leaves no folder in the
# search path for the imports of a file loaded later.
source "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$work/run" "$work/a" "$work/b"
unset MECH_PATH
cat >"$work/run/lib.mech" <<'MODEL'
def half_square(m, v) = m / 2 * v^2
MODEL

# Typed at the prompt: the import resolves from the working directory, and
# :eom and :eval on the session's copy find it there too (T = m/2 x'^2:
# M = m; :eval at x = 0.5 gives V = 8/2 * 0.25 = 1).
cat >"$work/typed.in" <<'INPUT'
import "lib.mech"
param m = 2 [kg], k = 8 [N/m]
coord x [m]
kinetic half_square(m, x')
potential half_square(k, x)
:eom
:eval x = 0.5
INPUT
(cd "$work/run" && "$mech" repl <"$work/typed.in" >"$work/out" 2>"$work/err")
lacks "typed import found by :eom" err "cannot find 'lib.mech'"
contains ":eom derived" out "M[x, x] = m"
contains ":eval: V = k/2 x^2 = 1" out "T = 0, V = 1, T + V = 1"

# A file loaded first (a/first.mech, next to a/helper.mech), then one in
# another folder importing helper.mech: that import fails, as in mech check.
cat >"$work/a/helper.mech" <<'MODEL'
def double(v) = 2 * v
MODEL
cat >"$work/a/first.mech" <<'MODEL'
import "helper.mech"
model First {
  param m = 1 [kg]
  coord x [m]
  kinetic m / 2 * x'^2
  potential m * double(x) * 1 [m/s^2]
}
MODEL
cat >"$work/b/second.mech" <<'MODEL'
import "helper.mech"
model Second {
  param m = 1 [kg]
  coord y [m]
  kinetic m / 2 * y'^2
  potential m * double(y) * 1 [m/s^2]
}
MODEL
expect "mech check: helper.mech is not beside second.mech" 1 "$mech" check "$work/b/second.mech"
contains "the CLI's error" err "cannot find 'helper.mech'"
printf ':load %s\n:load %s\n:show\n' "$work/a/first.mech" "$work/b/second.mech" >"$work/two.in"
expect "two loads" 0 "$mech" repl <"$work/two.in"
contains "the first loads" out "First: 1 coordinate (x), 1 parameter"
contains "the second does not find helper.mech" err "cannot find 'helper.mech'"
lacks "the second is not loaded" out "Second:"
contains "the first stays" out "model First"

# The loaded file's folder still serves the session's copy: a declaration
# typed after :load, then :eom (the import beside the file is found).
printf ':load %s\nlet z = double(x)\n:eom\n' "$work/a/first.mech" >"$work/beside.in"
expect "import beside a loaded file" 0 "$mech" repl <"$work/beside.in"
lacks "helper.mech found by :eom" err "cannot find"
contains ":eom derived" out "M[x, x] = m"
finish
