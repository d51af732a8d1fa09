#!/usr/bin/env bash
# The REPL accepts every declaration a file accepts: one of each kind that
# docs/language.md's section 3 documents (its "### kind" headings, read
# here, so that a kind added to the language without the REPL fails this
# test) is typed at the prompt; none is refused, and `:show` prints each
# in the model as `mech fmt` would.
# Usage: test_repl_declarations.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

cd "$work"
cat >r.mech <<'M'
model R {
  param m = 1 [kg], g = 9.81 [m/s^2]
  coord x [m], y [m]
  kinetic m * (x'^2 + y'^2) / 2
}
M
# One of each kind, as a file would write it.
cat >typed.txt <<'M'
param k = 2 [N/m]
input u [N]
coord z [m], phi
let h = y + 1 [m]
def sq(a) = a * a
kinetic kz = m * z'^2 / 2
potential m * g * y
dissipation 0.1 [N*s/m] * x'^2 / 2
force [u, 0 [N]] at [x, y]
torque u * 1 [m] on phi
generalized u on z
particle p mass m at [x, y]
body wheel mass m at [x, 0 [m]] angle phi inertia 2 [kg*m^2]
gravity [0 [m/s^2], -g]
spring k between [x, y] and [0 [m], 0 [m]] rest 1 [m]
constraint c: z == x
init x = 1
output e = x + y
event hit: y == 0 direction down then y' = -y'
contact floor: y >= -5 [m] restitution 0.5
friction drag: slip x' normal m * g static 0.5 kinetic 0.3
draw point([x, y])
table tq(w [rad/s]) [N*m] = [[0, 1], [10, 2]] cubic
for i in 1..2 { output o[i] = i * x }
M
check_py "every declaration kind of language.md section 3 is typed" '
doc = open("'"$root"'/docs/language.md").read()
section = doc[doc.index("## 3. Declarations"):doc.index("## 4. ")]
kinds = set()
for heading in re.findall(r"^### (.*?)(?::|$)", section, re.M):
    kinds.update(w for w in re.split(r",\s*|\s+and\s+", heading) if w)
typed = {line.split()[0] for line in open(W + "/typed.txt") if line.strip()}
assert kinds and kinds <= typed, sorted(kinds - typed)
'
{ cat typed.txt; echo ":show"; } >session.in
expect "the REPL takes every declaration" 0 "$mech" repl r.mech <session.in
lacks "no declaration is refused" err "error"
lacks "no declaration is refused (stdout)" out "error:"
while IFS= read -r line; do
  case "$line" in
  def*) contains "the def is kept: $line" out "$line" ;;
  for*) contains "the for block is kept" out "  for i in 1..2 {" ;;
  *) contains "shown in the model: $line" out "  $line" ;;
  esac
done <typed.txt
finish
