#!/usr/bin/env bash
# The built-ins omega(R) (world components, the axial vector of R' R^T) and
# omega_body(R) (body components, of R^T R') against the textbook formulas
# for Euler angles, at five fixed random states through `mech eval --at`:
#
# z-x-z, R = rot_z(phi) rot_x(theta) rot_z(psi) (Goldstein, Classical
# Mechanics, 3rd ed., eqs. 4.87 and 4.110):
#   body:  phi' sin(theta) sin(psi) + theta' cos(psi),
#          phi' sin(theta) cos(psi) - theta' sin(psi),
#          phi' cos(theta) + psi'
#   world: theta' cos(phi) + psi' sin(phi) sin(theta),
#          theta' sin(phi) - psi' cos(phi) sin(theta),
#          phi' + psi' cos(theta)
# z-y-x, R = rot_z(yaw) rot_y(pitch) rot_x(roll), derived by hand as the sum
# of the three rates about their axes, omega = yaw' e_z + pitch' rot_z(yaw) e_y
# + roll' rot_z(yaw) rot_y(pitch) e_x in world components, and its image
# under R^T in body components:
#   body:  roll' - yaw' sin(pitch),
#          pitch' cos(roll) + yaw' sin(roll) cos(pitch),
#          yaw' cos(roll) cos(pitch) - pitch' sin(roll)
#   world: roll' cos(yaw) cos(pitch) - pitch' sin(yaw),
#          roll' sin(yaw) cos(pitch) + pitch' cos(yaw),
#          yaw' - roll' sin(pitch)
# (all four formulas were checked beforehand against central finite
# differences of R, vee(R' R^T) and vee(R^T R'), at 200 random states: they
# agree to 3e-9, the differences' own error).
# Also: the symmetric top's T written through omega_body prints as the short
# textbook T, free of psi; omega of a 2x2 matrix, a vector, two arguments and
# a rotation of an input are located errors; omega and omega_body are not
# reserved names.
# Usage: test_omega.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"

cat >omega.mech <<'EOF'
import "spatial.mech"

model Omega {
  param J = 1 [kg*m^2]
  coord phi [rad], theta [rad], psi [rad]
  coord yaw [rad], pitch [rad], roll [rad]
  kinetic T = J / 2 * (phi'^2 + theta'^2 + psi'^2 + yaw'^2 + pitch'^2 + roll'^2)
  let wb = omega_body(euler_zxz(phi, theta, psi))
  let ww = omega(euler_zxz(phi, theta, psi))
  let vb = omega_body(euler_zyx(yaw, pitch, roll))
  let vw = omega(euler_zyx(yaw, pitch, roll))
  output zxz_body_1 = wb.x - (phi' * sin(theta) * sin(psi) + theta' * cos(psi))
  output zxz_body_2 = wb.y - (phi' * sin(theta) * cos(psi) - theta' * sin(psi))
  output zxz_body_3 = wb.z - (phi' * cos(theta) + psi')
  output zxz_world_1 = ww.x - (theta' * cos(phi) + psi' * sin(phi) * sin(theta))
  output zxz_world_2 = ww.y - (theta' * sin(phi) - psi' * cos(phi) * sin(theta))
  output zxz_world_3 = ww.z - (phi' + psi' * cos(theta))
  output zyx_body_1 = vb.x - (roll' - yaw' * sin(pitch))
  output zyx_body_2 = vb.y - (pitch' * cos(roll) + yaw' * sin(roll) * cos(pitch))
  output zyx_body_3 = vb.z - (yaw' * cos(roll) * cos(pitch) - pitch' * sin(roll))
  output zyx_world_1 = vw.x - (roll' * cos(yaw) * cos(pitch) - pitch' * sin(yaw))
  output zyx_world_2 = vw.y - (roll' * sin(yaw) * cos(pitch) + pitch' * cos(yaw))
  output zyx_world_3 = vw.z - (yaw' - roll' * sin(pitch))
  output wb1 = wb.x
  output ww3 = ww.z
  output vb3 = vb.z
  output vw1 = vw.x
}
EOF
expect "the model checks" 0 "$mech" check omega.mech

# Five states drawn once from uniform(-3, 3) (Python, random.Random(20240517));
# the z-y-x angles are the z-x-z ones with their order reversed.
points=(
  "-2.0301 -2.3191 -2.3866 0.3893 0.9561 1.7109"
  "2.6690 -0.1241 -2.3681 -1.9051 -0.4264 2.9407"
  "2.3851 -1.5523 -2.8545 1.9164 0.2557 -2.0447"
  "1.6376 2.7901 2.7734 2.4661 -1.0586 -2.4167"
  "0.6179 -2.9062 -0.8854 0.1208 2.8400 -2.6924"
)
for point in "${points[@]}"; do
  read -r a b c ad bd cd <<<"$point"
  at="phi=$a, theta=$b, psi=$c, phi'=$ad, theta'=$bd, psi'=$cd"
  at="$at, yaw=$c, pitch=$b, roll=$a, yaw'=$cd, pitch'=$bd, roll'=$ad"
  expect "eval at $point" 0 "$mech" eval omega.mech --at "$at" --json
  check_json "textbook formulas at $point" "
a, b, c, ad, bd, cd = $a, $b, $c, $ad, $bd, $cd
o = j['outputs']
bad = {k: v for k, v in o.items() if k.startswith(('zxz', 'zyx')) and not abs(v) < 1e-12}
assert len([k for k in o if k.startswith(('zxz', 'zyx'))]) == 12, o
assert not bad, bad
# Not vacuous: the components themselves, from the formulas in Python.
s, co = math.sin, math.cos
want = {'wb1': ad * s(b) * s(c) + bd * co(c), 'ww3': ad + cd * co(b),
        'vb3': cd * co(a) * co(b) - bd * s(a), 'vw1': ad * co(c) * co(b) - bd * s(c)}
assert all(abs(o[k] - v) < 1e-12 for k, v in want.items()), (o, want)
assert max(abs(v) for v in want.values()) > 0.5, want"
done

# A symmetric top, T = (A w1^2 + A w2^2 + C w3^2)/2 in body components:
# the printed T is the textbook one, with no psi left (only psi').
cat >top.mech <<'EOF'
import "spatial.mech"

model SymmetricTop {
  param A = 2 [kg*m^2], C = 3 [kg*m^2]
  coord phi [rad], theta [rad], psi [rad]
  let w = omega_body(euler_zxz(phi, theta, psi))
  kinetic (A * w.x^2 + A * w.y^2 + C * w.z^2) / 2
}
EOF
expect "top equations" 0 "$mech" equations top.mech
contains "the textbook T" out \
  "T = ((C - A)*cos(theta)^2 + A)*phi'^2/2 + A*theta'^2/2 + C*cos(theta)*phi'*psi' + C*psi'^2/2"
grep '^T = ' "$work/out" | sed "s/psi'//g" >"$work/T_without_rates"
lacks "T has no psi" T_without_rates "psi"
contains "M[phi, psi]" out "M[phi, psi] = C*cos(theta)"
contains "M[psi, psi]" out "M[psi, psi] = C"
lacks "no M[phi, theta]" out "M[phi, theta] ="

# Errors: exit 1, located at the argument or the call.
error_case() { # NAME LINE EXPECTED-MESSAGE
  printf 'import "spatial.mech"\nmodel A {\n  input u\n  coord a [rad]\n  %s\n}\n' "$2" >"$1.mech"
  expect "$1: exit 1" 1 "$mech" check "$1.mech"
  contains "$1: message" err "$1.mech:$3"
}
error_case planar 'let w = omega([[cos(a), -sin(a)], [sin(a), cos(a)]])' \
  "5:17: error: omega expects a 3x3 rotation matrix, found a 2x2 matrix; in the plane, the angular velocity of a rotation by the angle a is a'"
error_case planar_body 'let w = omega_body(rot_z(a)[1, :])' \
  "5:22: error: omega_body expects a 3x3 rotation matrix, found a 3-vector"
error_case vector 'let w = omega([cos(a), sin(a), 0])' \
  "5:17: error: omega expects a 3x3 rotation matrix, found a 3-vector"
error_case scalar 'let w = omega(a)' \
  "5:17: error: omega expects a 3x3 rotation matrix, found a scalar; in the plane, the angular velocity of a rotation by the angle a is a'"
error_case two_arguments 'let w = omega(rot_z(a), rot_z(a))' "5:11: error: omega takes 1 argument, 2 given"
error_case input 'output w = omega_body(rot_z(a + u)).z' \
  "5:25: error: omega_body differentiates its argument, which uses an input (its rate is not known)"
error_case input_let 'let w = omega(rot_z(u))' \
  "5:17: error: omega differentiates its argument, which uses an input (its rate is not known)"

# omega and omega_body are not reserved: a param, a let and the built-ins in
# one model. At a = 0.4, a' = 1.5: omega(rot_z(a)).z = a' = 1.5,
# omega_body(rot_x(a)).x = a' = 1.5.
cat >names.mech <<'EOF'
import "spatial.mech"

model Names {
  param omega = 2 [1/s]
  coord a [rad]
  kinetic T = 1 [kg*m^2] * a'^2 / 2
  let omega_body = 3 * omega
  output p = omega
  output q = omega_body
  output r = omega(rot_z(a)).z
  output s = omega_body(rot_x(a)).x
}
EOF
expect "omega as a param name" 0 "$mech" eval names.mech --at "a=0.4, a'=1.5" --json
check_json "the param, the let and the built-ins" "o = j['outputs']
assert o == {'p': 2, 'q': 6, 'r': 1.5, 's': 1.5}, o"
cat >let_name.mech <<'EOF'
import "spatial.mech"

model LetName {
  coord a [rad]
  kinetic T = 1 [kg*m^2] * a'^2 / 2
  let omega = 5 * a'
  output p = omega
  output r = omega(rot_z(a)).z
}
EOF
expect "omega as a let name" 0 "$mech" eval let_name.mech --at "a=0.4, a'=1.5" --json
check_json "the let and the built-in" "o = j['outputs']
assert o == {'p': 7.5, 'r': 1.5}, o"

# The REPL has them too, on a loaded model's coordinates: the z-x-z body
# components are Goldstein's, and a constant rotation does not turn.
printf 'import "spatial.mech"\nsimplify(omega_body(euler_zxz(a, a, a)))\nomega(rot_x(a))\nomega(rot_x(1))\nomega([1, 2])\n' >repl.in
expect "omega in the repl" 0 "$mech" repl let_name.mech <repl.in
cp "$work/out" "$work/repl.out"
contains "repl: world components of rot_x" repl.out "[a', 0, 0]"
contains "repl: a constant rotation" repl.out "[0, 0, 0]"
contains "repl: a vector is refused" err "omega expects a 3x3 rotation matrix, found a vector"

finish
