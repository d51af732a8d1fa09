#!/usr/bin/env bash
# The heavy symmetric top of examples/heavy_top.mech as a textbook writes
# it (Goldstein, Classical Mechanics, 3rd ed., section 5.7): `mech
# equations` and `mech conserved` print T, V, the mass matrix, the momenta
# of the cyclic phi and psi and the Jacobi integral h in a few lines, with
# neither phi nor psi inside a sine or cosine, and each printed right-hand
# side, parsed back, equals the closed form written out below at random
# points:
#   I1 = m*r^2/4 + m*d^2 (about the tip), I3 = m*r^2/2,
#   T = I1/2*(theta'^2 + phi'^2*sin(theta)^2) + I3/2*(psi' + phi'*cos(theta))^2,
#   V = m*g*d*cos(theta), M[phi,phi] = I1 sin^2(theta) + I3 cos^2(theta),
#   M[phi,psi] = I3 cos(theta), M[theta,theta] = I1, M[psi,psi] = I3,
#   M[phi,theta] = M[theta,psi] = 0, p_phi = dT/dphi',
#   p_psi = I3 (psi' + phi' cos(theta)), h = T + V.
# Usage: test_heavy_top_textbook.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
model=examples/heavy_top.mech

expect "equations" 0 "$mech" equations "$model"
cp "$work/out" "$work/equations.txt"
expect "equations --json" 0 "$mech" equations "$model" --json
cp "$work/out" "$work/equations.json"
expect "conserved" 0 "$mech" conserved "$model"
cp "$work/out" "$work/conserved.txt"
expect "conserved --json" 0 "$mech" conserved "$model" --json
cp "$work/out" "$work/conserved.json"

# Short, and phi and psi never the argument of a sine or cosine (they are
# cyclic: nothing depends on them).
for file in equations.txt equations.json conserved.txt conserved.json; do
  size=$(wc -c <"$work/$file")
  if [ "$size" -lt 3000 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $file is $size bytes, expected under 3000"
  fi
  for text in "sin(phi" "cos(phi" "sin(psi" "cos(psi"; do
    lacks "$file: no $text" "$file" "$text"
  done
done
# The vanishing entries are omitted from the text.
lacks "no M[phi, theta]" equations.txt "M[phi, theta] ="
lacks "no M[theta, psi]" equations.txt "M[theta, psi] ="

# The printed right-hand sides, parsed back, against the closed forms.
cat >"$work/textbook.py" <<'EOF'
import json, math, random, re, sys
work = sys.argv[1]
text = open(work + "/equations.txt").read()
conserved_text = open(work + "/conserved.txt").read()
eqs = json.load(open(work + "/equations.json"))
cons = json.load(open(work + "/conserved.json"))

# parse(expr): tests/cli/printed_expressions.py.
from printed_expressions import parse

# The right-hand side of "NAME = ..." on a line of the text.
def line(text, name):
    found = re.findall(r"^\s*" + re.escape(name) + r" = (.*?)\s*$", text, re.M)
    assert len(found) == 1, (name, found)
    return found[0]

coords = eqs["coordinates"]
assert coords == ["phi", "theta", "psi"], coords
M = eqs["mass_matrix"]
ix = {c: i for i, c in enumerate(coords)}
momenta = {c["coordinate"]: c["momentum"] for c in cons["cyclic"]}
assert set(momenta) == {"phi", "psi"}, momenta
assert cons["energy_is_T_plus_V"] is True

# The vanishing entries are exactly 0 in the JSON.
for a, b in (("phi", "theta"), ("theta", "psi")):
    assert M[ix[a]][ix[b]] == "0" and M[ix[b]][ix[a]] == "0", (a, b, M)

def textbook(at):
    m, r, d, g = at["m"], at["r"], at["d"], at["g"]
    th, phd, thd, psd = at["theta"], at["phi_d"], at["theta_d"], at["psi_d"]
    I1 = m * r**2 / 4 + m * d**2
    I3 = m * r**2 / 2
    T = I1 / 2 * (thd**2 + phd**2 * math.sin(th)**2) + I3 / 2 * (psd + phd * math.cos(th))**2
    V = m * g * d * math.cos(th)
    return {
        "T": T, "V": V,
        "M[phi,phi]": I1 * math.sin(th)**2 + I3 * math.cos(th)**2,
        "M[phi,psi]": I3 * math.cos(th),
        "M[theta,theta]": I1, "M[psi,psi]": I3,
        "p_phi": I1 * math.sin(th)**2 * phd + I3 * math.cos(th) * (psd + phd * math.cos(th)),
        "p_psi": I3 * (psd + phd * math.cos(th)),
        "h": T + V,
    }

# Each quantity from the JSON, and the text's line for it, which must agree.
printed = {
    "T": (eqs["T"], line(text, "T")),
    "V": (eqs["V"], line(text, "V")),
    "M[phi,phi]": (M[0][0], line(text, "M[phi, phi]")),
    "M[phi,psi]": (M[0][2], line(text, "M[phi, psi]")),
    "M[theta,theta]": (M[1][1], line(text, "M[theta, theta]")),
    "M[psi,psi]": (M[2][2], line(text, "M[psi, psi]")),
    "p_phi": (momenta["phi"], line(conserved_text, "phi: p_phi")),
    "p_psi": (momenta["psi"], line(conserved_text, "psi: p_psi")),
    "h": (cons["energy_integral"],
          line(conserved_text, "energy (Jacobi) integral, conserved: h = T2 - T0 + V")),
}
assert M[2][0] == M[0][2], M
for name, (from_json, from_text) in printed.items():
    assert from_json == from_text, (name, from_json, from_text)
functions = {name: parse(expr) for name, (expr, _) in printed.items()}

rng = random.Random(20261203)
for _ in range(20):
    at = {"m": rng.uniform(0.1, 2), "r": rng.uniform(0.05, 1), "d": rng.uniform(0.05, 1),
          "g": rng.uniform(1, 10)}
    for q in coords:
        at[q] = rng.uniform(-math.pi, math.pi)
        at[q + "_d"] = rng.uniform(-5, 5)
    want = textbook(at)
    # Relative to the size of the quantities at this point, so that a value
    # near zero (cos(theta) near pi/2) is not held to more digits than its
    # terms carry.
    scale = at["m"] * (at["r"]**2 + at["d"]**2) * (1 + sum(at[q + "_d"]**2 for q in coords)) \
        + at["m"] * at["g"] * at["d"]
    for name, f in functions.items():
        got = f(at)
        assert abs(got - want[name]) <= 1e-13 * max(abs(want[name]), scale), \
            (name, got, want[name], at)
print("ok")
EOF
expect "textbook closed forms" 0 env PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$root/tests/cli" python3 "$work/textbook.py" "$work"
contains "textbook checks ran" out "ok"

finish
