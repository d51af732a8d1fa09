#!/usr/bin/env bash
# No output replaces a file the command reads: the model, its imports, the
# tables --input names, or another output. Every model command, every
# output option (the command table's Path options) and the REPL's verbs go
# through one check (driver/CommandFiles.h) before anything is written; a
# refused command is a usage error (exit 2) and every file stays byte for
# byte as it was. Also: -o through a dangling symbolic link writes the
# link's target, as cli.md says, and the REPL's :save does not replace an
# import of the model.
# Usage: test_file_safety.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
cp "$root/examples/driven_oscillator.mech" d.mech
printf 't,F\n0,0\n1,1\n2,0\n' >drive.csv
cat >lib.mech <<'MODEL'
def spring_energy(k, x) = k * x^2 / 2
MODEL
cat >uses.mech <<'MODEL'
import "lib.mech"
model UsesLib {
  param m = 1 [kg], k = 4 [N/m]
  coord x [m]
  kinetic m * x'^2 / 2
  potential spring_energy(k, x)
  init x = 0.1, x' = 0
}
MODEL
for f in d.mech drive.csv lib.mech uses.mech; do cp "$f" "keep.$f"; done

# unchanged NAME: every input is byte for byte as it was.
unchanged() {
  local f
  for f in d.mech drive.csv lib.mech uses.mech; do
    if cmp -s "$f" "keep.$f"; then passed=$((passed + 1)); else
      failed=$((failed + 1)); echo "FAIL: $1: $f changed"; cp "keep.$f" "$f"; fi
  done
}

# refused NAME TEXT COMMAND...: exit 2, TEXT said, no input changed.
refused() {
  local name="$1" text="$2"
  shift 2
  expect "$name is refused" 2 "$@"
  contains "$name says why" err "$text"
  unchanged "$name"
}

refused "linearize --sweep --plot over the model" "--plot 'd.mech' would overwrite the model file" \
  "$mech" linearize d.mech --at x=0 --sweep k=1..2:3 --plot d.mech
refused "linearize --sweep --plot over an import" "would overwrite an import of the model 'lib.mech'" \
  "$mech" linearize uses.mech --at x=0 --sweep k=1..2:3 --plot lib.mech
refused "simulate -o over its --input table" "-o 'drive.csv' would overwrite the --input table 'drive.csv'" \
  "$mech" simulate d.mech --input F=drive.csv -o drive.csv --until 1
refused "simulate --plot over its --input table" "would overwrite the --input table" \
  "$mech" simulate d.mech --input "F = drive.csv" --plot drive.csv --until 1
refused "simulate --events over its --input table" "would overwrite the --input table" \
  "$mech" simulate d.mech --input F=drive.csv --stop-when "x == 0.5" --events ./drive.csv --until 1
refused "equilibria --plot over its --input table" "would overwrite the --input table" \
  "$mech" equilibria d.mech --input F=drive.csv --plot drive.csv
refused "linearize --plot over its --input table" "would overwrite the --input table" \
  "$mech" linearize d.mech --input F=drive.csv --at x=0 --sweep k=1..2:3 --plot drive.csv
ln -s drive.csv link.html
refused "animate -o through a link to its --input table" "would overwrite the --input table" \
  "$mech" animate d.mech --input F=drive.csv -o link.html --until 1
refused "sweep --plot over an import" "would overwrite an import of the model" \
  "$mech" sweep uses.mech --grid "k=1..2:2" --until 0.1 --summary "max(x)" --plot lib.mech
refused "build -o over an import" "would overwrite an import of the model" \
  "$mech" build uses.mech -o lib.mech.so --header lib.mech
refused "two outputs in one file" "name the same file" \
  "$mech" simulate d.mech --until 1 -o out.csv --events ./out.csv --stop-when "x == 0.5"
# The same commands write where they may.
expect "simulate with a table writes elsewhere" 0 "$mech" simulate d.mech --input F=drive.csv -o run.csv --until 1
unchanged "simulate with a table"

# The REPL: :sim, :linearize and :plot go through the same check; :save
# does not replace an import.
cat >session.in <<'REPL'
:sim 1 --input F=drive.csv -o drive.csv
:linearize --at x=0 --sweep k=1..2:3 --plot d.mech
:sim 1 --input F=drive.csv
:plot drive.csv
REPL
"$mech" repl d.mech <session.in >"$work/out" 2>"$work/err"
contains "REPL :sim -o over its table is refused" err "-o 'drive.csv' would overwrite the --input table"
contains "REPL :linearize --plot over the model is refused" err "--plot 'd.mech' would overwrite the model file"
unchanged "REPL :sim, :linearize"
printf ':save lib.mech\n' | "$mech" repl uses.mech >"$work/out" 2>"$work/err"
contains "REPL :save over an import is refused" err ":save 'lib.mech' would overwrite an import of the model 'lib.mech'"
unchanged "REPL :save"
printf ':save uses.mech\n' | "$mech" repl uses.mech >"$work/out" 2>"$work/err"
contains "REPL :save over the loaded model still writes" out "wrote uses.mech"
cp keep.uses.mech uses.mech

# -o through a dangling symbolic link writes its target and keeps the link.
mkdir -p results
ln -s results/run.csv dangling.csv
expect "simulate -o through a dangling link" 0 "$mech" simulate d.mech --until 0.5 -o dangling.csv
if [ -L dangling.csv ] && [ -s results/run.csv ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: -o through a dangling link replaced the link"; fi
only_hidden() {
  if [ -z "$(ls -A results | grep '^\.' || true)" ] && [ -z "$(ls -A . | grep '^\.' || true)" ]; then
    passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1 left a temporary file"; fi
}
only_hidden "the write through a dangling link"

finish
