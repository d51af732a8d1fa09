# One table of commands: docs/cli.md's option tables are what `mech help CMD
# --markdown` prints; `mech help CMD`, `mech CMD --help` and the REPL's
# :help CMD come from the same table, and the REPL's commands parse their
# options with the CLI's parser.
source "$(dirname "$0")/lib.sh" "$@"

expect "docs agree with the command table" 0 \
  python3 "$root/scripts/cli-option-tables.py" "$mech" "$root/docs/cli.md" --check
contains "every table checked" out "16 option tables checked, 0 differ"

expect "help for a command" 0 "$mech" help simulate
contains "usage line" out "usage: mech simulate FILE [--until T]"
contains "an option with its default" out "(default: 0.01)"
contains "choices shown" out "--method M"
expect "--help after a command" 0 "$mech" linearize --help
contains "linearize's damping matrix is D" out "D = -df/dq'"
expect "markdown table" 0 "$mech" help eval --markdown
contains "table header" out "| option | default | accepted values | meaning |"
expect "help for an unknown command" 2 "$mech" help simulat
contains "says which" err "help: unknown command 'simulat'"
expect "usage text" 0 "$mech" --help
contains "lists build" out "  build FILE -o libNAME.so|NAME.o"
lacks "no damping matrix called C" out "C = -df/dq'"

# Values refused by their option's type, worded once for every command.
expect "bad choice" 2 "$mech" build "$root/examples/double_pendulum.mech" -o x.so --cpu pentium
contains "choice listed" err "build: --cpu takes generic or native, not 'pentium'"
expect "flag with a value" 2 "$mech" eval "$root/examples/double_pendulum.mech" --json=1
contains "flag message" err "eval: --json takes no value"
expect "number refused" 2 "$mech" equilibria "$root/examples/double_pendulum.mech" --time soon
contains "number message" err "equilibria: --time needs a number, got 'soon'"

# The REPL: :help CMD from the table, and the same parser for :commands.
cat >"$work/session.in" <<INPUT
:load $root/examples/double_pendulum.mech
:help sim
:eval --json=1
:sim 1 --method euler
:help nothing
INPUT
expect "repl help and options" 0 "$mech" repl <"$work/session.in"
contains "repl help from the table" out "usage: mech simulate FILE"
contains "repl help says the model is the session's" out "(in the REPL: :sim on the session's model"
contains "repl option error" err "mech: eval: --json takes no value"
contains "repl choice error" err "mech: simulate: --method takes dopri5, dop853, rk4, midpoint, radau, bdf or auto"
contains "repl hint" err "(:help lists the commands and their options)"
contains "repl help of an unknown command" err ":help takes a command that runs on the model"

# :set then :eval reuses the session's derivation and agrees with the CLI
# (a leading state is the --at text, options may follow it).
cat >"$work/set.in" <<INPUT
:load $root/examples/double_pendulum.mech
:set m2 = 2.5
:eval th1=0.3, th2=-0.2 --json
INPUT
expect "repl eval after set" 0 "$mech" repl <"$work/set.in"
grep '^{' "$work/out" >"$work/repl.json"
expect "cli eval with the same set" 0 "$mech" eval "$root/examples/double_pendulum.mech" \
  --set m2=2.5 --at "th1=0.3, th2=-0.2" --json
cp "$work/out" "$work/cli.json"
contains "the cli printed json" cli.json '"qdd"'
expect "the two agree" 0 cmp "$work/cli.json" "$work/repl.json"
# --dump=program: the CSE'd programs, with named inputs and outputs. For the
# cartesian pendulum (M = m I, f = [0, -m g], C = [2x, 2y], gamma =
# -2(x'^2 + y'^2)) the dynamics program shares one instruction for both
# diagonal entries of M and computes gamma from squared velocities.
expect "dump program" 0 "$mech" --dump=program "$root/examples/cartesian_pendulum.mech"
contains "kernel heading" out "dynamics (M q'' = f, C q'' = gamma):"
contains "input by name" out "%0 = m"
contains "M shared" out "M[x,x] = %0"
contains "M[y,y] the same instruction" out "M[y,y] = %0"
contains "gamma from the velocities" out "%15 = -2*%14 + -2*%12"
contains "outputs named" out "tension = %3"
expect "--set with --dump=ast" 2 "$mech" --dump=ast "$root/examples/cartesian_pendulum.mech" --set m=2
contains "--set only where it matters" err "--set applies to the eom, program or llvm stages"
finish
