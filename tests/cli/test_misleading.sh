#!/usr/bin/env bash
# No answer misleads: a solved value no mechanism can have, an unmet
# equilibrium condition, a model that is not finite at a state, a mass
# matrix that overflows or is indefinite, and a simulation whose energy
# drifts are each said in words, never printed as a plain answer or as
# nan/inf. Expected values are worked by hand in the comments.
source "$(dirname "$0")/lib.sh" "$@"
cd "$work"

# --- solve: impossible values -------------------------------------------
# Double pendulum (m2 = 1, l1 = 1, l2 = 0.8) at th1 = 0.1, th2 = 0.2: f1 =
# -g(m1 + m2) l1 sin th1 vanishes at m1 = -1; f2 = -g m2 l2 sin th2 =
# -9.81*0.8*sin(0.2) = -1.55916 N*m whatever m1. With m1 = -1, M = [[0,
# 0.796], [0.796, 0.64]] has the eigenvalue -0.538 along th2' = -0.676 th1'.
expect "double pendulum m1" 0 "$mech" solve "$root/examples/double_pendulum.mech" \
  --at "th1=0.1, th2=0.2" --for m1
contains "value shown" out "m1 = -1 kg"
contains "impossible" out "impossible: with m1 = -1 kg the kinetic energy is negative for th1' = 1, th2' = -0.676"
contains "verdict" out "not an equilibrium for any value of m1"
contains "unmet condition" out "equilibrium conditions not met by the solution (f on each coordinate):"
contains "th2 off" out "  th2: -1.55916 N*m"
lacks "th1 met" out "  th1: "
contains "located warning" err "double_pendulum.mech:9:7: warning: impossible solution: with m1 = -1 kg"
expect "double pendulum json" 0 "$mech" solve "$root/examples/double_pendulum.mech" \
  --at "th1=0.1, th2=0.2" --for m1 --json
contains "json admissible" out '"admissible": false'
contains "json unbalanced" out '"unbalanced": {"th2": -1.5591569'
contains "json reason" out '"reason": "with m1 = -1 kg the kinetic energy is negative'

# A bead hanging from a spring (rest length 1 m) held at y = -0.5: the
# spring is compressed and pushes down, as gravity does, so f = -m g -
# k (0.5 - 1)(-1) = 0 needs k = -2 m g = -1.962 N/m, or m = -k/(2 g) =
# -0.509684 kg with k = 10 N/m. Either is impossible; exactly determined.
cat >hang.mech <<'M'
model Hanging {
  param m = 0.1 [kg], k = 10 [N/m], g = 9.81 [m/s^2]
  coord y [m]
  particle P mass m at [0, y]
  gravity [0, -g]
  spring k between [0, 0] and [0, y] rest 1 [m]
  init y = -1.2
}
M
expect "negative stiffness" 0 "$mech" solve hang.mech --at "y=-0.5" --for k
contains "k value" out "k = -1.962 N/m"
contains "k impossible" out "impossible: k = -1.962 N/m is the stiffness of the spring, which cannot be negative"
contains "k verdict" out "the configuration is not an equilibrium for any admissible value of k"
contains "k at the spring" err "hang.mech:6:3: warning: impossible solution: k = -1.962 N/m"
lacks "k balanced: no unmet list" out "not met"
expect "negative mass" 0 "$mech" solve hang.mech --at "y=-0.5" --for m --json
contains "m json" out '"solution": {"m": -0.5096839959'
contains "m reason" out "m = -0.509684 kg is the mass of particle 'P', which cannot be negative"
contains "m at the particle" err "hang.mech:4:3: warning: impossible solution"
# Hanging below its rest length (y = -1.5): k = m g / 0.5 = 1.962 N/m is fine.
expect "admissible stiffness" 0 "$mech" solve hang.mech --at "y=-1.5" --for k
contains "k positive" out "k = 1.962 N/m"
lacks "no impossible" out "impossible"
empty "no warning" err

# A lever of mass 2m and inertia m l^2/6 held level by an upward F at its
# tip: 2 m g l/2 = F l, m = F/g = 0.30581 kg; with F = -3 N, m = -0.30581
# makes the mass -0.611621 kg and the inertia -0.0509684 kg*m^2.
cat >lever.mech <<'M'
model Lever {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2], F = 3 [N]
  coord th [rad]
  body B mass 2 * m at [l/2 * cos(th), l/2 * sin(th)] angle th inertia m * l^2 / 6
  gravity [0, -g]
  force [0, F] at [l * cos(th), l * sin(th)]
  init th = 0
}
M
expect "lever admissible" 0 "$mech" solve lever.mech --at "th=0" --for m
contains "lever m" out "m = 0.30581 kg"
lacks "lever fine" out "impossible"
expect "lever impossible" 0 "$mech" solve lever.mech --at "th=0" --for m --set "F=-3"
contains "body mass" out "the mass of body 'B' would be -0.611621 kg, and it cannot be negative"
contains "body inertia" out "the moment of inertia of body 'B' would be -0.0509684 kg*m^2"

# --- a model that is not finite at a state ------------------------------
# V = k sqrt(x) is not defined at x = -1: eval and linearize refuse to
# print q'' or K there; at x = 1, f = -k/(2 sqrt x) = -1, K = k/4 x^-3/2 ... = -0.5.
cat >root.mech <<'M'
model Root {
  param k = 2 [N]
  coord x [m]
  particle P mass 1 [kg] at [x, 0]
  potential V = k * sqrt(x * 1 [m])
  init x = 1
}
M
expect "eval nan" 1 "$mech" eval root.mech --at "x=-1"
contains "eval names V" err "root.mech:1:7: error: the model is not finite at this state (V = nan, Q[x] = nan, f[x] = nan)"
empty "eval prints nothing" out
expect "eval nan json" 1 "$mech" eval root.mech --at "x=-1" --json
empty "eval json prints nothing" out
expect "linearize nan" 1 "$mech" linearize root.mech --at "x=-1"
contains "linearize names K" err "the model is not finite at this state (f[x] = nan, K[x,x] = nan): it has no linearization there"
lacks "no raw nan" out "nan"
expect "linearize nan json" 1 "$mech" linearize root.mech --at "x=-1" --json
empty "linearize json nothing" out
expect "linearize finite" 0 "$mech" linearize root.mech --at "x=1"
contains "K at 1" out "[ -0.5 ]"
expect "solve nan" 1 "$mech" solve root.mech --at "x=-1" --for k
contains "solve names f" err "the model is not finite at this configuration (f[x] = nan)"

# The same with a constraint: q'' of y is not 0, it is undefined.
cat >rootline.mech <<'M'
model RootOnLine {
  param m = 1 [kg], k = 2 [N]
  coord x [m], y [m]
  particle P mass m at [x, y]
  potential V = k * sqrt(x * 1 [m])
  constraint line: y == 0
  init x = 1
}
M
expect "constrained eval nan" 1 "$mech" eval rootline.mech --at "x=-1"
contains "constrained names f" err "the model is not finite at this state (V = nan, Q[x] = nan, f[x] = nan)"

# --- the mass matrix: overflow, negative, infinite ----------------------
# m * 1e10 with m = 1e300 overflows: M[x,x] = inf is not "no inertia".
cat >big.mech <<'M'
model BigMass {
  param m = 1e300 [kg], k = 3 [N/m]
  coord x [m], y [m]
  particle P mass m * 1e10 at [x, y]
  potential V = k/2 * (x^2 + y^2)
  init x = 1
}
M
expect "overflow eval" 1 "$mech" eval big.mech
contains "overflow named" err "(M[x,x] = inf, M[y,y] = inf)"
lacks "not no inertia" err "no inertia"
expect "overflow simulate" 1 "$mech" simulate big.mech --until 0.1 -o sim.csv
contains "simulate names M" err "the mass matrix is not finite at the initial state (M[x,x] = inf)"
lacks "simulate not no inertia" err "no inertia"

# A negative mass: T = -(x'^2 + y'^2)/2 < 0 for x' = 1.
cat >neg.mech <<'M'
model NegMass {
  param m = -1 [kg], k = 3 [N/m]
  coord x [m], y [m]
  particle P mass m at [x, y]
  potential V = k/2 * (x^2 + y^2)
  init x = 1
}
M
expect "negative mass eval" 1 "$mech" eval neg.mech
contains "negative named" err "the mass matrix is not positive definite at this state: the kinetic energy is negative for x' = 1"
lacks "negative not singular" err "singular"
expect "negative mass simulate" 1 "$mech" simulate neg.mech --until 0.1 -o sim.csv
contains "simulate negative" err "the kinetic energy is negative for"
# On a line y = x the mass m at [x, y] moves along (1, 1): T = m (x'^2 + y'^2)/2 < 0 there.
cat >negline.mech <<'M'
model NegOnLine {
  param m = -1 [kg]
  coord x [m], y [m]
  particle P mass m at [x, y]
  constraint line: y == x
  init x = 1, y = 1
}
M
expect "negative on line" 1 "$mech" simulate negline.mech --until 0.1 -o line.csv
contains "negative along the line" err "the kinetic energy is negative for x' = 1, y' = 1"

# Position sqrt(x): T = m x'^2 / (8 x), infinite at x = 0.
cat >rootmass.mech <<'M'
model RootMass {
  param m = 1 [kg]
  coord x [m]
  particle P mass m at [sqrt(x * 1 [m]), 0]
  init x = 1
}
M
expect "infinite inertia" 1 "$mech" eval rootmass.mech --at "x=0"
contains "infinite named" err "M[x,x] = inf"
lacks "infinite not no inertia" err "no inertia"

# --- overflowing constants: equations and conserved ----------------------
cat >huge.mech <<'M'
model Huge {
  param m = 1 [kg]
  coord x [m]
  kinetic T = m * 1e200 * 1e200 * x'^2 / 2
  init x = 1
}
M
expect "conserved overflow" 1 "$mech" conserved huge.mech
contains "conserved names T" err "huge.mech:1:7: error: the derived equations hold a number that is not finite (in T, M[x,x])"
empty "conserved prints no inf" out
expect "conserved overflow json" 1 "$mech" conserved huge.mech --json
empty "conserved json no inf" out
expect "equations overflow" 1 "$mech" equations huge.mech
empty "equations no inf" out
expect "conserved finite" 0 "$mech" conserved "$root/examples/double_pendulum.mech"
lacks "finite no inf" out "inf"

# --- simulate: energy drift past the documented 1e-2 --------------------
# k = 1e9 N/m on 1 kg: omega = 31623 rad/s, so omega*h = 31.6 for the
# default step 0.001: the fixed-step midpoint rule does not follow the
# nonlinear (rest length 1 m) spring; its energy drift is far above 1e-2.
cat >stiff.mech <<'M'
model StiffPendulum {
  param m = 1 [kg], k = 1e9 [N/m], g = 9.81 [m/s^2]
  coord x [m], y [m]
  particle P mass m at [x, y]
  gravity [0, -g]
  spring k between [0, 0] and [x, y] rest 1 [m]
  init x = 1.01, y = 0
}
M
expect "midpoint stiff" 0 "$mech" simulate stiff.mech --method midpoint --until 1 -o stiff.csv
contains "drift warning" err "warning: energy drift (of the largest |T| + |V|) "
contains "drift advice" err "exceeds 0.01; the step is too large for this model (try a smaller --step or an adaptive method)"
contains "data written" stiff.csv "t,x,y,x',y'"
# A soft spring (k = 10 N/m) with the same step: E(0) = 5e-4 J is small
# against the swing's T and V (about m g = 9.81 J), so the drift over
# |E(0)| is above 1e-2 while the drift against the terms is far below.
expect "midpoint soft" 0 "$mech" simulate stiff.mech --method midpoint --until 1 --set "k=10" -o soft.csv
lacks "no drift warning" err "warning"
# dopri5 keeps the stiff one within its tolerance: no warning.
expect "dopri5 stiff" 0 "$mech" simulate stiff.mech --until 0.01 -o stiff.csv
lacks "dopri5 no warning" err "warning"

finish
