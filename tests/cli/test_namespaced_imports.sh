# `import "file.mech" as N` and calls N.f(...) (docs/language.md §1), with
# inertia.mech's renamed defs (disk_axis, ring_axis, box_tensor) and its
# parallel-axis shifts. Values are checked against the hand formulas, for
# m = 2, r = 0.3, a = 0.1, b = 0.2, c = 0.4:
#   disk_axis(m, r) = m r^2/2 = 0.09
#   box_tensor(m, a, b, c) = diag(m(b^2+c^2)/12, m(a^2+c^2)/12, m(a^2+b^2)/12)
#     = diag(0.0333.., 0.02833.., 0.008333..), off-diagonal 0
#   parallel_axis(disk_axis(m, r), m, [a, b]) = 0.09 + m(a^2+b^2) = 0.19
#   parallel_axis_tensor(disk_tensor(m, r), m, [a, b, c]): entry (1, 2) is
#     -m a b = -0.04, entry (3, 3) is m r^2/2 + m(a^2+b^2) = 0.19
# (computed in python3 below from the same numbers). Also: the clash of a
# plain import with a model's name, the old names, an unknown namespace,
# two files under one alias, a library importing another under a name,
# mech fmt, `as` as a name, and the REPL.
source "$(dirname "$0")/lib.sh" "$@"
cd "$work" || exit 1
unset MECH_PATH

m=2 r=0.3 a=0.1 b=0.2 c=0.4
cat >values.mech <<MODEL
import "inertia.mech" as I
model Values {
  param m = $m [kg], r = $r [m], a = $a [m], b = $b [m], c = $c [m]
  coord th [rad]
  let box = I.box_tensor(m, a, b, c)
  let shifted = I.parallel_axis_tensor(I.disk_tensor(m, r), m, [a, b, c])
  output Jd = I.disk_axis(m, r)
  output Jr = I.ring_axis(m, r)
  output B11 = box[1, 1]
  output B22 = box[2, 2]
  output B33 = box[3, 3]
  output B12 = box[1, 2]
  output Jp = I.parallel_axis(I.disk_axis(m, r), m, [a, b])
  output S12 = shifted[1, 2]
  output S33 = shifted[3, 3]
  body disk mass m at [0, 0] angle th inertia I.disk_axis(m, r)
}
MODEL
expect "eval through the alias I" 0 "$mech" eval values.mech --at "th=0, th'=2" --json
check_json "I.f values against the hand formulas" "o = j['outputs']
m, r, a, b, c = $m, $r, $a, $b, $c
want = {'Jd': m*r**2/2, 'Jr': m*r**2, 'B11': m*(b**2 + c**2)/12, 'B22': m*(a**2 + c**2)/12,
        'B33': m*(a**2 + b**2)/12, 'B12': 0, 'Jp': m*r**2/2 + m*(a**2 + b**2),
        'S12': -m*a*b, 'S33': m*r**2/2 + m*(a**2 + b**2)}
for k, v in want.items():
    assert abs(o[k] - v) < 1e-12, (k, o[k], v)
# the body named disk: M = disk_axis(m, r), T = M/2 th'^2 at th' = 2
assert abs(j['mass_matrix'][0][0] - m*r**2/2) < 1e-12, j['mass_matrix']
assert abs(j['T'] - m*r**2/2/2*4) < 1e-12, j['T']"
expect "a body named disk, with I.disk_axis: equations" 0 "$mech" equations values.mech
contains "T" out "T = m*r^2*th'^2/4"

# --- A plain import whose def has a name the model declares.
cat >shadow_body.mech <<'MODEL'
import "inertia.mech"
model S {
  param m = 2 [kg], r = 0.3 [m]
  coord th [rad]
  body disk_axis mass m at [0, 0] angle th inertia disk_axis(m, r)
}
MODEL
expect "a body named like an imported def" 1 "$mech" check shadow_body.mech
contains "the error says what to do" err "shadow_body.mech:5:8: error: 'disk_axis' is already a def, imported from inertia.mech; import it under a name (import \"inertia.mech\" as N) and call N.disk_axis(...)"
line=$(grep -n '^def disk_axis' "$root/stdlib/inertia.mech" | cut -d: -f1)
contains "a note in the stdlib" err "stdlib/inertia.mech:$line:5: note: the def is here"
cat >shadow_let.mech <<'MODEL'
import "inertia.mech"
model S {
  param m = 2 [kg], r = 0.3 [m]
  coord th [rad]
  let disk_axis = m*r^2/2
  body wheel mass m at [0, 0] angle th inertia m*r^2
}
MODEL
expect "a let named like an imported def" 1 "$mech" check shadow_let.mech
contains "the let's error" err "shadow_let.mech:5:7: error: 'disk_axis' is already a def, imported from inertia.mech; import it under a name (import \"inertia.mech\" as N) and call N.disk_axis(...)"
contains "the let's note" err "stdlib/inertia.mech:$line:5: note: the def is here"
# The fix the message suggests works.
sed 's|^import "inertia.mech"$|import "inertia.mech" as N|; s|inertia disk_axis(m, r)|inertia N.disk_axis(m, r)|' shadow_body.mech >shadow_fixed.mech
contains "the fix was written" shadow_fixed.mech "inertia N.disk_axis(m, r)"
expect "imported under a name, the body keeps its name" 0 "$mech" equations shadow_fixed.mech
contains "M = disk_axis" out "M[th, th] = m*r^2/2"

# --- The old names say what they are called now.
for old in "disk:disk_axis:(m, r)" "ring:ring_axis:(m, r)" "box:box_tensor:(m, r, r, r)"; do
  IFS=: read -r name new args <<<"$old"
  cat >"old_$name.mech" <<MODEL
import "inertia.mech"
model S {
  param m = 2 [kg], r = 0.3 [m]
  coord th [rad]
  body wheel mass m at [0, 0] angle th inertia $name$args
}
MODEL
  expect "the old name $name" 1 "$mech" check "old_$name.mech"
  contains "$name is now $new" err "old_$name.mech:5:48: error: unknown function '$name' (inertia.mech's '$name' is now '$new')"
done
sed 's|^import "inertia.mech"$|import "inertia.mech" as I|; s|inertia disk(m, r)|inertia I.disk(m, r)|' old_disk.mech >old_alias.mech
expect "the old name through an alias" 1 "$mech" check old_alias.mech
contains "I.disk is now disk_axis" err "old_alias.mech:5:48: error: unknown function 'I.disk' (inertia.mech's 'disk' is now 'disk_axis')"

# --- A namespace that no import declares.
cat >unknown_ns.mech <<'MODEL'
import "inertia.mech" as I
model S {
  param m = 2 [kg], r = 0.3 [m]
  coord th [rad]
  body wheel mass m at [0, 0] angle th inertia m*r^2 + 0*J.foo(1)
}
MODEL
expect "J.foo without an import as J" 1 "$mech" check unknown_ns.mech
contains "no file is imported as J" err "unknown_ns.mech:5:58: error: unknown function 'J.foo': no file is imported as 'J' (import \"file.mech\" as J)"
cat >unknown_def.mech <<'MODEL'
import "inertia.mech" as I
model S {
  param m = 2 [kg], r = 0.3 [m]
  coord th [rad]
  body wheel mass m at [0, 0] angle th inertia I.foo(m, r)
}
MODEL
expect "I.foo, not in inertia.mech" 1 "$mech" check unknown_def.mech
contains "unknown I.foo" err "unknown_def.mech:5:48: error: unknown function 'I.foo'"

# --- Two files under one alias.
cat >a.mech <<'LIB'
def f(x) = 2*x
def only_a(x) = x
LIB
cat >b.mech <<'LIB'
def f(x) = 3*x
def only_b(x) = x
LIB
cat >twice.mech <<'MODEL'
import "a.mech" as L
import "b.mech" as L
model M {
  param k = 1 [N/m]
  coord x [m]
  kinetic T = 1 [kg]/2*x'^2
  potential V = k/2*L.f(x)^2
}
MODEL
expect "L.f from two files" 1 "$mech" check twice.mech
contains "defined twice, at the second import" err "twice.mech:2:8: error: def 'L.f' is defined twice (in a.mech and in b.mech)"
contains "the other definition" err "a.mech:1:5: note: the other definition is here"
# Two files under one alias whose names differ: each name is found.
cat >disjoint.mech <<'MODEL'
import "a.mech" as A
import "b.mech" as B
model M {
  param k = 1 [N/m]
  coord x [m]
  kinetic T = 1 [kg]/2*x'^2
  potential V = k/2*A.f(x)*B.f(x)
}
MODEL
expect "A.f and B.f under two aliases" 0 "$mech" equations disjoint.mech
contains "2x * 3x" out "V = 3*k*x^2"
# The same file imported plainly and under an alias.
cat >both.mech <<'MODEL'
import "a.mech"
import "a.mech" as A
model M {
  param k = 1 [N/m]
  coord x [m]
  kinetic T = 1 [kg]/2*x'^2
  potential V = k/2*f(x)*A.f(x)
}
MODEL
expect "a.mech plainly and as A" 0 "$mech" equations both.mech
contains "2x * 2x" out "V = 2*k*x^2"

# --- A library importing inertia.mech under a name, imported by a model
# under another name; the library's alias is not visible to the model.
mkdir -p lib
cat >lib/wheels.mech <<'LIB'
import "inertia.mech" as I
def wheel(m, r) = I.disk_axis(m, r)
def hoop(m, r) = I.ring_axis(m, r)
LIB
cat >lib/roll.mech <<MODEL
import "wheels.mech" as W
model Roll {
  param m = $m [kg], r = $r [m]
  coord th [rad]
  body disk mass m at [0, 0] angle th inertia W.wheel(m, r)
  output J = W.hoop(m, r)
}
MODEL
expect "W.wheel through a library's I.disk_axis" 0 "$mech" eval lib/roll.mech --json
check_json "wheel = m r^2/2, hoop = m r^2" "m, r = $m, $r
assert abs(j['mass_matrix'][0][0] - m*r**2/2) < 1e-12, j['mass_matrix']
assert abs(j['outputs']['J'] - m*r**2) < 1e-12, j['outputs']"
expect "the library checks" 0 "$mech" check lib/wheels.mech
sed 's|W.hoop(m, r)|I.ring_axis(m, r)|' lib/roll.mech >lib/roll_leak.mech
expect "the library's alias is not the model's" 1 "$mech" check lib/roll_leak.mech
contains "I is not imported here" err "roll_leak.mech:6:14: error: unknown function 'I.ring_axis': no file is imported as 'I'"

# --- mech fmt: the alias and the qualified call in canonical form.
cat >fmt.mech <<'MODEL'
import   "inertia.mech"   as   I
import "planar.mech"
model F {
  param m=2 [kg],r=0.3 [m]
  param as = 1
  coord th [rad]
  let J = I . disk_axis( m,r )
  body disk mass m at [0,0] angle th inertia I.disk_axis(m,r)*as
}
MODEL
expect "fmt" 0 "$mech" fmt fmt.mech
cp out fmt2.mech
contains "canonical import" fmt2.mech 'import "inertia.mech" as I'
contains "canonical call" fmt2.mech "  let J = I.disk_axis(m, r)"
contains "as as a param" fmt2.mech "  param as = 1"
contains "as in an expression" fmt2.mech "inertia I.disk_axis(m, r) * as"
expect "fmt twice" 0 "$mech" fmt fmt2.mech
if cmp -s "$work/out" "$work/fmt2.mech"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: fmt does not round-trip"; diff "$work/fmt2.mech" "$work/out"; fi
expect "fmt --check on the canonical form" 0 "$mech" fmt --check fmt2.mech
expect "the formatted model checks" 0 "$mech" check fmt2.mech

# `as` as a name: a def, and an alias itself; an alias may share a name
# with a param (I.f is a call, I alone the param).
cat >as_names.mech <<'MODEL'
import "inertia.mech" as as
def twice(x) = 2*x
model A {
  param m = 1 [kg], r = 1 [m], I = 3
  coord x [m]
  let as2 = twice(I)
  kinetic T = as2 * as.disk_axis(m, r) / r^2 / 2 * x'^2
}
MODEL
expect "as as an alias, I as a param" 0 "$mech" equations as_names.mech
contains "T = 2I * m r^2/2 / r^2 / 2 x'^2" out "T = m*I*x'^2/2"
cat >as_def.mech <<'MODEL'
def as(x) = 2*x
model A {
  param m = 1 [kg]
  coord x [m]
  kinetic T = as(m) / 2 * x'^2
}
MODEL
expect "a def named as" 0 "$mech" equations as_def.mech
contains "T = m x'^2" out "T = m*x'^2"

# --- The REPL: an import under a name at the prompt, a call, and a model
# whose body is named disk (disk_axis(2, 3) = 2*9/2 = 9; at th' = 2 with
# m = 2, r = 0.5: M = 0.25, T = 0.5).
cat >repl.in <<'INPUT'
import "inertia.mech" as I
I.disk_axis(2, 3)
param m = 2 [kg], r = 0.5 [m]
coord th [rad]
body disk mass m at [0, 0] angle th inertia I.disk_axis(m, r)
:eom
:show
:eval th=0, th'=2
INPUT
export HOME="$work/home"
mkdir -p "$HOME"
expect "REPL with an aliased import" 0 "$mech" repl --echo <repl.in
contains "the defs under I" out "defs: I.box_tensor, I.cylinder_axis"
if [ "$(grep -A1 -F 'mech> I.disk_axis(2, 3)' "$work/out" | sed -n 2p)" = 9 ]; then
  passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: I.disk_axis(2, 3) is not 9"; sed 's/^/  | /' "$work/out" | head; fi
contains ":eom" out "M[th, th] = m*r^2/2"
contains ":show keeps the alias" out 'import "inertia.mech" as I'
contains ":eval" out "T = 0.5, V = 0, T + V = 0.5"
empty "no errors" err
finish
