#!/usr/bin/env bash
# equilibria with non-conservative forces that depend on the coordinates
# only: a constant torque on a pendulum gets the verdicts and frequency of
# the same load written as the potential -tau*theta (Lagrange-Dirichlet,
# with a note), a symmetric positional force the normal modes of its
# stiffness; a circulatory one is no potential and flutters; a force that
# depends on velocities is left to the eigenvalues. With gyroscopic or
# circulatory forces the frequencies are those of A without damping. Every
# number is worked out by hand below.
# Usage: test_positional_forces.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"

pendulum() { # NAME LOAD_LINE
  cat >"$work/$1.mech" <<MECH
model $1 {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2], tau = 2 [N*m], c = 0.1 [N*m*s]
  coord th [rad]
  particle bob mass m at l * [sin(th), -cos(th)]
  gravity [0, -g]
  $2
}
MECH
}
pendulum Torque "torque tau on th"
pendulum Potential "potential -tau * th"
pendulum DampedTorque "torque tau on th
  dissipation c/2 * th'^2"

# The pendulum's rest: m g l sin(th) = tau, stable where cos(th) > 0 with
# omega^2 = g cos(th) / l, unstable at pi - th.
check_pendulum() { # NAME DAMPED
  expect "$1 json" 0 "$mech" equilibria "$work/$1.mech" --json
  save
  expect "$1: hand values" 0 python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
damped = sys.argv[2] == "1"
eq = sorted(d["equilibria"], key=lambda e: e["q"]["th"])
assert len(eq) == 2, eq
low, high = eq
th = math.asin(2 / 9.81)
assert abs(low["q"]["th"] - th) < 1e-9, low
assert abs(high["q"]["th"] - (math.pi - th)) < 1e-9, high
assert low["stable"] is True and high["stable"] is False, eq
assert low["criterion"].startswith("Lagrange-Dirichlet"), low["criterion"]
omega = math.sqrt(9.81 * math.cos(th))
if not damped:
    assert abs(low["frequencies"][0] - omega) < 1e-6 * omega, (low["frequencies"], omega)
else:
    # c/(m l^2) = 0.1: lambda = -0.05 +- i sqrt(omega^2 - 0.05^2), the mode
    # at that damped frequency, with |lambda| = omega.
    z = low["eigenvalues"][0]
    assert abs(z[0] + 0.05) < 1e-9 and abs(abs(z[1]) - math.sqrt(omega**2 - 0.0025)) < 1e-6, z
    damped_omega = math.sqrt(omega**2 - 0.0025)
    assert abs(low["frequencies"][0] - damped_omega) < 1e-6, (low["frequencies"], damped_omega)
    assert abs(low["natural_frequencies"][0] - omega) < 1e-6, low["natural_frequencies"]
    assert abs(low["damping_ratios"][0] - 0.05 / omega) < 1e-9, low["damping_ratios"]
' "$work/saved" "$2"
}
check_pendulum Torque 0
contains "torque: the note says why" saved "gradient of a potential"
check_pendulum Potential 0
lacks "potential: no note" saved "gradient of a potential"
check_pendulum DampedTorque 1
contains "damped torque: the note says why" saved "gradient of a potential"

expect "torque, text" 0 "$mech" equilibria "$work/Torque.mech"
contains "torque stable" out "stable -- Lagrange-Dirichlet (Hessian of W positive definite)"
contains "top unstable" out "unstable -- negative eigenvalue of the Hessian of W"
lacks "no undetermined verdict" out "undetermined"

# Unit masses, Q = -k K q. Symmetric K = [[3, -1], [-1, 2]]: omega^2 are
# its eigenvalues (5 -+ sqrt(5))/2. K = [[3, -1], [1, 2]] is circulatory:
# lambda^2 = -(5/2 -+ i sqrt(3)/2), a pair with Re > 0 (flutter).
twodof() { # NAME LINE... : unit masses x, y with the lines added
  local name="$1"
  shift
  {
    echo "model $name {"
    echo "  param m = 1 [kg], k = 1 [N/m], c = 0.1 [N*s/m], b = 1 [N*s/m]"
    echo "  coord x [m], y [m]"
    echo "  kinetic T = m/2 * (x'^2 + y'^2)"
    printf '  %s\n' "$@"
    echo "}"
  } >"$work/$name.mech"
}
twodof Symmetric "generalized -k*(3*x - y) on x" "generalized -k*(2*y - x) on y"
twodof Circulatory "generalized -k*(3*x - y) on x" "generalized -k*(2*y + x) on y"
expect "symmetric json" 0 "$mech" equilibria "$work/Symmetric.mech" --json
save
expect "symmetric: normal modes of K" 0 python3 -c '
import json, math, sys
e = json.load(open(sys.argv[1]))["equilibria"][0]
assert e["stable"] is True and e["criterion"].startswith("Lagrange-Dirichlet"), e
want = sorted(math.sqrt((5 + s * math.sqrt(5)) / 2) for s in (-1, 1))
got = sorted(e["frequencies"])
assert all(abs(a - b) < 1e-9 for a, b in zip(got, want)), (got, want)
assert any("symmetric Jacobian" in n for n in e["notes"]), e["notes"]
' "$work/saved"
expect "circulatory json" 0 "$mech" equilibria "$work/Circulatory.mech" --json
save
expect "circulatory: flutter" 0 python3 -c '
import cmath, json, math, sys
e = json.load(open(sys.argv[1]))["equilibria"][0]
assert e["stable"] is False and "flutter" in e["criterion"], e["criterion"]
assert not any("potential" in n for n in e["notes"]), e["notes"]
want = sorted((r * cmath.sqrt(-(2.5 + s * 1j * math.sqrt(3) / 2)) for r in (-1, 1) for s in (-1, 1)),
              key=lambda z: (z.real, z.imag))
got = sorted((complex(*z) for z in e["eigenvalues"]), key=lambda z: (z.real, z.imag))
assert all(abs(a - b) < 1e-9 for a, b in zip(got, want)), (got, want)
' "$work/saved"

# Circulatory but stable with damping: K = [[3, 0.2], [-0.2, 1]], D = 0.1 I.
# The modes are A's, lambda = -0.05 +- i sqrt(mu - 0.0025) for K's
# eigenvalues mu = 2 -+ sqrt(0.96): natural frequencies |lambda| = sqrt(mu)
# (not the symmetric part's sqrt(3) and 1), damped frequencies
# sqrt(mu - 0.0025) and damping ratios 0.05/sqrt(mu), one mode each.
twodof DampedCirculatory "dissipation c/2 * (x'^2 + y'^2)" \
  "generalized -k*(3*x + 0.2*y) on x" "generalized -k*(y - 0.2*x) on y"
expect "damped circulatory json" 0 "$mech" equilibria "$work/DampedCirculatory.mech" --json
save
expect "damped circulatory: frequencies of A" 0 python3 -c '
import json, math, sys
e = json.load(open(sys.argv[1]))["equilibria"][0]
assert e["stable"] is True and e["asymptotic"] is True, e
mu = [2 - math.sqrt(0.96), 2 + math.sqrt(0.96)]
checks = [("natural_frequencies", [math.sqrt(x) for x in mu]),
          ("frequencies", [math.sqrt(x - 0.0025) for x in mu]),
          ("damping_ratios", [0.05 / math.sqrt(x) for x in mu])]
for key, want in checks:
    assert len(e[key]) == 2, (key, e[key])
    assert all(abs(a - b) < 1e-9 for a, b in zip(e[key], want)), (key, e[key], want)
assert e["modes"] == [], e["modes"]
assert any("eigenvalues of A" in n for n in e["notes"]), e["notes"]
' "$work/saved"

# A force that depends on a velocity is no potential: no note. Here it is
# gyroscopic (Q = G q', G skew), so Lagrange-Dirichlet still holds, and the
# frequencies are (sqrt(b^2 + 4 k m) -+ b)/(2 m) = (sqrt(5) -+ 1)/2.
twodof Velocity "potential k/2 * (x^2 + y^2)" "generalized -b * y' on x" \
  "generalized b * x' on y"
expect "velocity-dependent force" 0 "$mech" equilibria "$work/Velocity.mech"
lacks "velocity: no potential note" out "gradient of a potential"
contains "gyroscopic: stable" out "stable -- Lagrange-Dirichlet"
contains "gyroscopic: slow mode" out "mode 1: omega = 0.618034 rad/s"
contains "gyroscopic: fast mode" out "mode 2: omega = 1.61803 rad/s"

finish
