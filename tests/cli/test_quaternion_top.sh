# examples/quaternion_top.mech: a free symmetric rigid body in unit
# quaternions (vectors of 4 components, stdlib quat_rot and
# quat_omega_body, the unit norm as a holonomic constraint) against the
# torque-free symmetric top in closed form over 10 s: in the body, w3
# constant and (w1, w2) turning at (C - A)/A w3 (Euler's equations); in
# space, the angular momentum constant and the symmetry axis turning about
# it at |L|/A (so at a constant nutation angle), to 1e-9; |q| - 1 to the
# constraint tolerance.
source "$(dirname "$0")/lib.sh" "$@"
cd "$root" || exit 1

expect "the top runs" 0 "$mech" simulate examples/quaternion_top.mech --until 10 --dt 0.05 \
  --rtol 1e-12 --atol 1e-14 -o "$work/top.csv"
check_py "closed form of the torque-free symmetric top" '
rows = list(csv.DictReader(open(W + "/top.csv")))
assert float(rows[-1]["t"]) == 10 and len(rows) == 201
A, C, w1, w3 = 0.5, 0.8, 1.0, 6.0
lam = (C - A) / A * w3
L = (A * w1, 0.0, C * w3)         # the start is the identity: L = I w
size = math.sqrt(sum(x * x for x in L))
axis, rate = [x / size for x in L], size / A
def turned(v, k, a):              # v turned by a about the unit axis k
    c, s = math.cos(a), math.sin(a)
    kv = sum(k[i] * v[i] for i in range(3))
    kxv = (k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0])
    return [v[i] * c + kxv[i] * s + k[i] * kv * (1 - c) for i in range(3)]
nutation = math.acos(C * w3 / size)
worst = 0
for r in rows:
    t = float(r["t"])
    expected = {"wx": w1 * math.cos(lam * t), "wy": w1 * math.sin(lam * t), "wz": w3,
                "Lx": L[0], "Ly": L[1], "Lz": L[2]}
    expected.update(zip(("e3x", "e3y", "e3z"), turned((0.0, 0.0, 1.0), axis, rate * t)))
    for name, value in expected.items():
        worst = max(worst, abs(float(r[name]) - value))
    e3 = [float(r[k]) for k in ("e3x", "e3y", "e3z")]
    angle = math.acos(max(-1, min(1, sum(e3[i] * axis[i] for i in range(3)))))
    worst = max(worst, abs(angle - nutation))
    norm = sum(float(r[q]) ** 2 for q in ("q0", "q1", "q2", "q3"))
    assert abs(norm - 1) < 1e-12, (t, norm)
assert worst < 1e-9, worst
'

# Vectors of any size: a 4-vector let, a 4x4 matrix times it.
cat >"$work/four.mech" <<'MECH'
model Four {
  param m = 1 [kg], k = 1 [N/m]
  coord a [m], b [m], c [m], d [m]
  let q = [a, b, c, d]
  let W = [[2, 1, 0, 0], [1, 2, 1, 0], [0, 1, 2, 1], [0, 0, 1, 2]]
  kinetic T = m * dot(q', q') / 2
  potential V = k * dot(q, W * q) / 2
}
MECH
expect "a 4-vector model" 0 "$mech" equations "$work/four.mech"
contains "its stiffness through the 4x4 matrix" out "f[b] = -(a + 2*b + c)*k"
cat >"$work/one.mech" <<'MECH'
model One {
  coord x [m]
  let a = [x]
}
MECH
expect "a one-component vector" 1 "$mech" check "$work/one.mech"
contains "said so" err "error: a vector has at least 2 components, found 1"
# A family named without an index is the vector of its members: q of
# coord q[1..4] and w of param w[1..4].
cat >"$work/family.mech" <<'MECH'
model Family {
  param k = 1 [N/m], w[1..4] = [1, 2, 3, 4]
  coord q[1..4] [m]
  kinetic T = 1 [kg] * dot(q', q') / 2
  potential V = k * dot(w, q)^2 / 2
}
MECH
expect "families as vectors" 0 "$mech" equations "$work/family.mech"
contains "the param family as a vector" out "f[q[1]] = -(w[1]*q[1] + w[2]*q[2] + w[3]*q[3] + w[4]*q[4])*k*w[1]"
# A param given as a list is the same family.
sed 's/w\[1..4\] = \[1, 2, 3, 4\]/w = [1, 2, 3, 4]/' "$work/family.mech" >"$work/list.mech"
expect "a list-valued param" 0 "$mech" equations "$work/list.mech"
contains "is the family w[1..4]" out "f[q[1]] = -(w[1]*q[1] + w[2]*q[2] + w[3]*q[3] + w[4]*q[4])*k*w[1]"
finish
