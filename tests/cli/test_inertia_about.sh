# `inertia I about P`: a body's inertia given about a point P fixed in the
# body instead of about its centre of mass (docs/language.md §3, particle
# and body). The compiler shifts it back with the parallel-axis theorem, so
# a model written either way has the same T and V. The small-oscillation
# frequencies are computed here from the params (python3), not from mech:
#   compound pendulum, pivot at the distance d from the centre of mass:
#     omega = sqrt(m g d / (Jc + m d^2));
#   uniform rod of length l pivoted at one end (J = m l^2/3 about the end):
#     omega = sqrt(3 g / (2 l)).
# The heavy symmetric top (examples/heavy_top.mech) given its tensor about
# the fixed tip, disk_tensor(m, r) + diag(m d^2, m d^2, 0), has the T of the
# example. Errors: a point not fixed in the body, of the wrong shape or
# dimension, or using a velocity, each located at P.
source "$(dirname "$0")/lib.sh" "$@"
cd "$work" || exit 1

# sames NAME A B: the T, V and mass-matrix lines of two `mech equations`
# outputs (saved in $work/A and $work/B) are equal.
sames() {
  grep -E '^(T|V) = |^  M\[' "$work/$2" >"$work/$2.tv"
  grep -E '^(T|V) = |^  M\[' "$work/$3" >"$work/$3.tv"
  if [ -s "$work/$2.tv" ] && cmp -s "$work/$2.tv" "$work/$3.tv"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $1: T, V and M differ"
    diff "$work/$2.tv" "$work/$3.tv" | head -20
  fi
}

# --- The compound pendulum: J about the pivot [0, 0] against Jc about the
# centre of mass.
m=2 d=0.3 Jc=0.05 g=9.81
cat >pivot.mech <<MODEL
model Compound {
  param m = $m [kg], d = $d [m], Jc = $Jc [kg*m^2], g = $g [m/s^2]
  coord th [rad]
  body rod mass m at d*[sin(th), -cos(th)] angle th inertia Jc + m*d^2 about [0, 0]
  gravity [0, -g]
}
MODEL
sed 's| inertia Jc + m\*d^2 about \[0, 0\]| inertia Jc|' pivot.mech >centre.mech
lacks "centre.mech has no about" centre.mech "about"
expect "the pivot form checks" 0 "$mech" check pivot.mech
expect "equations about the pivot" 0 "$mech" equations pivot.mech
cp out pivot.eq
expect "equations about the centre" 0 "$mech" equations centre.mech
cp out centre.eq
sames "pivot and centre give one T and V" pivot.eq centre.eq
contains "T with the pivot's moment" pivot.eq "T = (m*d^2 + Jc)*th'^2/2"
contains "V" pivot.eq "V = -m*d*g*cos(th)"


omega_check() { # omega_check NAME FORMULA: A's eigenvalues are +-i*FORMULA
  check_json "$1" "w = $2
ev = j['eigenvalues']
assert len(ev) == 2 and all(abs(e[0]) < 1e-9 for e in ev), ev
assert abs(max(e[1] for e in ev) - w) < 1e-9 * w and abs(min(e[1] for e in ev) + w) < 1e-9 * w, (ev, w)"
}
expect "linearize about the pivot" 0 "$mech" linearize pivot.mech --at "th=0" --json
omega_check "omega = sqrt(m g d/(Jc + m d^2))" "math.sqrt($m*$g*$d/($Jc + $m*$d**2))"
expect "linearize with other params" 0 "$mech" linearize pivot.mech --at "th=0" --set m=3 --set d=0.5 --json
omega_check "omega at m = 3, d = 0.5" "math.sqrt(3*$g*0.5/($Jc + 3*0.5**2))"

# The moment about the pivot as a param of its own: Jp = Jc + m d^2.
Jp=$(python3 -c "print($Jc + $m*$d**2)")
cat >jp.mech <<MODEL
model Compound {
  param m = $m [kg], d = $d [m], Jp = $Jp [kg*m^2], g = $g [m/s^2]
  coord th [rad]
  body rod mass m at d*[sin(th), -cos(th)] angle th inertia Jp about [0, 0]
  gravity [0, -g]
}
MODEL
expect "Jp as a param" 0 "$mech" equations jp.mech
contains "T = Jp/2 th'^2" out "T = Jp*th'^2/2"
expect "linearize with Jp" 0 "$mech" linearize jp.mech --at "th=0" --json
omega_check "omega with Jp = $Jp" "math.sqrt($m*$g*$d/$Jp)"

# --- A uniform rod pivoted at one end: m l^2/3 about the end, written out
# and as rod_end of inertia.mech.
mr=1.2 l=0.9
cat >rod_end.mech <<MODEL
import "inertia.mech"
model RodEnd {
  param m = $mr [kg], l = $l [m], g = $g [m/s^2]
  coord th [rad]
  body rod mass m at l/2*[sin(th), -cos(th)] angle th inertia m*l^2/3 about [0, 0]
  gravity [0, -g]
}
MODEL
expect "rod about its end" 0 "$mech" linearize rod_end.mech --at "th=0" --json
omega_check "omega = sqrt(3 g/(2 l))" "math.sqrt(3*$g/(2*$l))"
sed 's|inertia m\*l^2/3 about|inertia rod_end(m, l) about|' rod_end.mech >rod_end2.mech
contains "rod_end2.mech uses rod_end" rod_end2.mech "inertia rod_end(m, l) about"
expect "rod_end(m, l) about the end" 0 "$mech" linearize rod_end2.mech --at "th=0" --json
omega_check "omega with rod_end" "math.sqrt(3*$g/(2*$l))"
expect "rod about its end: equations" 0 "$mech" equations rod_end.mech
contains "T = m l^2/6 th'^2" out "T = m*l^2*th'^2/6"

# --- Points that move in the world but are fixed in the body.
# A pendulum hanging from a cart: P = the support [x, 0].
cat >cart.mech <<MODEL
model Cart {
  param M = 3 [kg], m = $m [kg], d = $d [m], Jc = $Jc [kg*m^2], g = $g [m/s^2]
  coord x [m], th [rad]
  particle cart mass M at [x, 0]
  body rod mass m at [x, 0] + d*[sin(th), -cos(th)] angle th inertia Jc + m*d^2 about [x, 0]
  gravity [0, -g]
}
MODEL
sed 's| inertia Jc + m\*d^2 about \[x, 0\]| inertia Jc|' cart.mech >cart_centre.mech
lacks "cart_centre.mech has no about" cart_centre.mech "about"
expect "a support moving with a coordinate" 0 "$mech" equations cart.mech
cp out cart.eq
expect "the same cart about the centre" 0 "$mech" equations cart_centre.mech
cp out cart_centre.eq
sames "cart: one T and V" cart.eq cart_centre.eq
contains "cart: coupling term" cart.eq "m*d*cos(th)*x'*th'"

# A support driven in time: P = [A sin(w t), 0].
cat >driven.mech <<MODEL
model Driven {
  param m = $m [kg], d = $d [m], Jc = $Jc [kg*m^2], g = $g [m/s^2], A = 0.1 [m], w = 3 [1/s]
  coord th [rad]
  let support = [A*sin(w*t), 0]
  body rod mass m at support + d*[sin(th), -cos(th)] angle th inertia Jc + m*d^2 about support
  gravity [0, -g]
}
MODEL
sed 's| inertia Jc + m\*d^2 about support| inertia Jc|' driven.mech >driven_centre.mech
lacks "driven_centre.mech has no about" driven_centre.mech "about"
expect "a support moving with t" 0 "$mech" equations driven.mech
cp out driven.eq
expect "the same driven pendulum about the centre" 0 "$mech" equations driven_centre.mech
cp out driven_centre.eq
sames "driven: one T and V" driven.eq driven_centre.eq

# A double compound pendulum: rod 2 given about the joint, the end of rod 1.
cat >double.mech <<'MODEL'
model DoubleRod {
  param m1 = 1 [kg], m2 = 1.5 [kg], l1 = 1 [m], l2 = 0.8 [m], g = 9.81 [m/s^2]
  coord th1 [rad], th2 [rad]
  let joint = l1 * [sin(th1), -cos(th1)]
  body rod1 mass m1 at joint/2 angle th1 inertia m1*l1^2/3 about [0, 0]
  body rod2 mass m2 at joint + l2/2 * [sin(th2), -cos(th2)] angle th2 inertia m2*l2^2/3 about joint
  gravity [0, -g]
}
MODEL
sed 's|m1\*l1^2/3 about \[0, 0\]|m1*l1^2/12|; s|m2\*l2^2/3 about joint|m2*l2^2/12|' double.mech >double_centre.mech
lacks "double_centre.mech has no about" double_centre.mech "about"
expect "about a moving joint" 0 "$mech" equations double.mech
cp out double.eq
expect "the double rod about the centres" 0 "$mech" equations double_centre.mech
cp out double_centre.eq
sames "double rod: one T and V" double.eq double_centre.eq

# The plane's parallel_axis of inertia.mech gives the same as Jc + m*d^2.
sed 's|^model|import "inertia.mech"\nmodel|; s|inertia Jc + m\*d^2 about|inertia parallel_axis(Jc, m, [0, d]) about|' pivot.mech >pa.mech
contains "pa.mech uses parallel_axis" pa.mech "inertia parallel_axis(Jc, m, [0, d]) about [0, 0]"
expect "parallel_axis(Jc, m, [0, d]) about the pivot" 0 "$mech" equations pa.mech
cp out pa.eq
sames "parallel_axis: one T and V" pa.eq centre.eq

# --- The heavy symmetric top, its tensor about the fixed tip [0, 0, 0].
top="$root/examples/heavy_top.mech"
expect "heavy top about its centre (the example)" 0 "$mech" equations "$top"
cp out top.eq
sed 's|inertia disk_tensor(m, r)$|inertia disk_tensor(m, r) + diag(m*d^2, m*d^2, 0) about [0, 0, 0]|' "$top" >top_tip.mech
contains "the tip form was written" top_tip.mech "about [0, 0, 0]"
expect "heavy top about the tip" 0 "$mech" equations top_tip.mech
cp out top_tip.eq
sames "heavy top: one T and V" top_tip.eq top.eq
sed 's|inertia disk_tensor(m, r)$|inertia parallel_axis_tensor(disk_tensor(m, r), m, [0, 0, -d]) about [0, 0, 0]|' "$top" >top_pat.mech
contains "the parallel_axis_tensor form was written" top_pat.mech "parallel_axis_tensor"
expect "heavy top with parallel_axis_tensor" 0 "$mech" equations top_pat.mech
cp out top_pat.eq
sames "parallel_axis_tensor: one T and V" top_pat.eq top.eq
# disk_tensor(m, r) given about the point 2d up the axle (the offset d e3 in
# body axes): I1 about the tip is then m r^2/4 (the m d^2 cancels), I3 =
# m r^2/2, so T = m r^2/8 ((1 + cos^2) phi'^2 + theta'^2 + 2 psi'^2 + 4 cos phi' psi').
sed 's|inertia disk_tensor(m, r)$|inertia disk_tensor(m, r) about 2*d * axle * [0, 0, 1]|' "$top" >top_up.mech
contains "top_up.mech was written" top_up.mech "about 2*d"
expect "a point on the axle, moving with the body" 0 "$mech" equations top_up.mech
contains "T with I1 = m r^2/4 about the tip" out \
  "T = ((cos(theta)^2 + 1)*phi'^2 + 4*cos(theta)*phi'*psi' + theta'^2 + 2*psi'^2)*m*r^2/8"

# --- Errors, each at P (line 4, column 69 in these models).
bad() { # bad NAME BODY_TAIL: a pendulum (coords th, x) whose body ends in BODY_TAIL
  cat >"$1.mech" <<MODEL
model E {
  param m = 2 [kg], d = 0.3 [m], J = 0.2 [kg*m^2], g = 9.81 [m/s^2]
  coord th [rad], x [m]
  body rod mass m at d*[sin(th), -cos(th)] angle th inertia J about $2
  gravity [0, -g]
}
MODEL
}
bad not_fixed "[x, 0]"
expect "a point that follows another coordinate" 1 "$mech" check not_fixed.mech
contains "not fixed, at P" err "not_fixed.mech:4:69: error: the point is not fixed in body 'rod': its offset from the centre of mass, in body axes, changes with the motion"
bad not_fixed_t "[t * 1 [m/s], 0]"
expect "a point that moves with t" 1 "$mech" check not_fixed_t.mech
contains "not fixed in time, at P" err "not_fixed_t.mech:4:69: error: the point is not fixed in body 'rod'"
bad three "[0, 0, 0]"
expect "a 3-vector point for a planar body" 1 "$mech" check three.mech
contains "shape, at P" err "three.mech:4:69: error: the point is a 3-vector and the body's position a 2-vector"
bad scalar "0 [m]"
expect "a scalar point for a planar body" 1 "$mech" check scalar.mech
contains "scalar, at P" err "scalar.mech:4:69: error: the point of a planar body's inertia must be a 2-vector (a point, as its position), found a scalar"
bad seconds "[0, 0 [s]]"
expect "a point in seconds" 1 "$mech" check seconds.mech
contains "dimension s, at P" err "seconds.mech:4:69: error: the point has dimension s, a length (m) was expected"
bad radians "[0 [rad], 0]"
expect "a dimensionless point" 1 "$mech" check radians.mech
contains "dimension 1, at P" err "radians.mech:4:69: error: the point has dimension 1, a length (m) was expected"
bad plain "[1, 0]"
expect "a point of plain numbers (they take the length), off the body" 1 "$mech" check plain.mech
contains "an error at P" err "plain.mech:4:69: error: the point"
bad velocity "[th', 0]"
expect "a point using a velocity" 1 "$mech" check velocity.mech
contains "th' has dimension 1/s, at P" err "velocity.mech:4:69: error: the point has dimension 1/s, a length (m) was expected"
bad velocity_m "[x' * 1 [s], 0]"
expect "a point using a velocity, of length dimension" 1 "$mech" check velocity_m.mech
contains "velocities, at P" err "velocity_m.mech:4:69: error: the point of a body's inertia depends on velocities; it may depend only on the coordinates and t"
sed 's|inertia disk_tensor(m, r)$|inertia disk_tensor(m, r) about [0, 0]|' "$top" >top_two.mech
contains "top_two.mech was written" top_two.mech "about [0, 0]"
expect "a 2-vector point for a spatial body" 1 "$mech" check top_two.mech
contains "spatial shape, at P" err "top_two.mech:20:89: error: the point of a spatial body's inertia must be a 3-vector (a point, as its position), found a 2-vector"
sed 's|inertia disk_tensor(m, r)$|inertia disk_tensor(m, r) about [0, 0, d]|' "$top" >top_off.mech
contains "top_off.mech was written" top_off.mech "about [0, 0, d]"
expect "a spatial point off the body" 1 "$mech" check top_off.mech
contains "spatial not fixed, at P" err "top_off.mech:20:89: error: the point is not fixed in body 'top'"

# --- mech fmt prints `inertia ... about P` and round-trips; `about` is
# still a name.
cat >fmt.mech <<'MODEL'
model F {
  param m=2 [kg],d=0.3 [m],Jc=0.05 [kg*m^2],g=9.81 [m/s^2]
  param about = 2
  coord th [rad]
  let arm = about*d
  body rod mass m at d*[sin(th),-cos(th)] angle th inertia Jc+m*d^2   about   [0,0]
  gravity [0,-g]
}
MODEL
expect "fmt" 0 "$mech" fmt fmt.mech
cp out fmt2.mech
contains "canonical about" fmt2.mech "  body rod mass m at d * [sin(th), -cos(th)] angle th inertia Jc + m * d^2 about [0, 0]"
contains "about as a param" fmt2.mech "  param about = 2"
contains "about in an expression" fmt2.mech "  let arm = about * d"
expect "fmt twice" 0 "$mech" fmt fmt2.mech
identical "fmt round-trips" out fmt2.mech
expect "fmt --check on the canonical form" 0 "$mech" fmt --check fmt2.mech
expect "the formatted model checks" 0 "$mech" check fmt2.mech

# A param named about, as the inertia and after it.
cat >about_name.mech <<'MODEL'
model A {
  param m = 2 [kg], d = 0.3 [m], about = 0.05 [kg*m^2], g = 9.81 [m/s^2]
  coord th [rad]
  body rod mass m at d*[sin(th), -cos(th)] angle th inertia about + m*d^2 about [0, 0]
  gravity [0, -g]
}
MODEL
expect "a param named about, about the pivot" 0 "$mech" equations about_name.mech
contains "T as about the centre" out "T = (m*d^2 + about)*th'^2/2"
sed 's|inertia about + m\*d^2 about \[0, 0\]|inertia about|' about_name.mech >about_only.mech
lacks "about_only.mech has no about clause" about_only.mech "[0, 0]"
expect "inertia about (the param)" 0 "$mech" equations about_only.mech
contains "about is the centroidal moment" out "T = (m*d^2 + about)*th'^2/2"
sed 's|inertia about + m\*d^2 about \[0, 0\]|inertia about about [0, 0]|' about_name.mech >about_about.mech
contains "about_about.mech was written" about_about.mech "inertia about about [0, 0]"
expect "inertia about about [0, 0]" 0 "$mech" equations about_about.mech
contains "about is the pivot's moment" out "T = about*th'^2/2"
expect "fmt keeps inertia about about" 0 "$mech" fmt about_about.mech
contains "printed" out "inertia about about [0, 0]"
finish
