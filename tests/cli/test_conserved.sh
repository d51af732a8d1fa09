#!/usr/bin/env bash
# `mech conserved`: cyclic coordinates with their momenta and the energy
# (Jacobi) integral, as text and JSON; usage and model errors; and the drift
# lines `mech simulate` adds to its summary for every conserved quantity.
# Usage: test_conserved.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

# Text.
expect "spherical pendulum" 0 "$mech" conserved examples/spherical_pendulum.mech
contains "phi is cyclic" out "phi: p_phi = m*l^2*sin(th)^2*phi'"
contains "th is not cyclic" out "th is not cyclic: it appears in L"
contains "energy integral" out "energy (Jacobi) integral, conserved: h = T2 - T0 + V ="
contains "h is T + V" out "h = T + V (T1 = T0 = 0)"
contains "T2 shown" out "T2 = "
expect "central field" 0 "$mech" conserved examples/central_field.mech
contains "angular momentum" out "p_phi = m*r^2*phi'"
expect "moving support" 0 "$mech" conserved examples/moving_support.mech
contains "h is not T + V" out "h is not T + V"
contains "no cyclic coordinates" out "cyclic coordinates: none"
expect "driven rod" 0 "$mech" conserved examples/driven_rod.mech
contains "no energy integral" out "no energy integral:"
contains "damping" out "the non-conservative forces do work"
expect "cartesian pendulum" 0 "$mech" conserved examples/cartesian_pendulum.mech
contains "rod acts on x" out "x is not cyclic: constraint 'rod' acts on it"
# Params stay symbols: --set changes no decision, but is accepted.
expect "--set" 0 "$mech" conserved examples/moving_support.mech --set v=30[cm/s]
contains "--set keeps the symbolic T1" out "T1 = m*l*v*cos(th)*th'"

# JSON, checked by a parser.
expect "json" 0 "$mech" conserved examples/spherical_pendulum.mech --json
save
expect "json parses" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"model", "cyclic", "energy_integral", "energy_is_T_plus_V", "T2", "T1", "T0"}, d
assert d["model"] == "SphericalPendulum", d
assert d["cyclic"] == [{"coordinate": "phi", "momentum": "m*l^2*sin(th)^2*phi'"'"'"}], d
assert isinstance(d["energy_integral"], str) and d["energy_is_T_plus_V"] is True, d
assert d["T1"] == "0" and d["T0"] == "0", d
' "$work/saved"
expect "json without integral" 0 "$mech" conserved examples/driven_rod.mech --json
save
expect "json null integral" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["energy_integral"] is None and d["energy_is_T_plus_V"] is False and d["cyclic"] == [], d
' "$work/saved"

# Usage and model errors.
expect "no file" 2 "$mech" conserved
expect "two files" 2 "$mech" conserved examples/central_field.mech examples/chain.mech
expect "unknown option" 2 "$mech" conserved examples/central_field.mech --latex
contains "unknown option named" err "unknown option '--latex'"
expect "--set without value" 2 "$mech" conserved examples/central_field.mech --set
expect "missing file" 1 "$mech" conserved "$work/none.mech"
contains "missing file message" err "cannot open"
printf 'model X {\n  coord x [m]\n  potential V = x\n}\n' >"$work/dim.mech"
expect "model error" 1 "$mech" conserved "$work/dim.mech"
contains "diagnostic located" err "dim.mech:3:17: error:"

# The simulation summary reports the drift of every conserved quantity.
expect "simulate" 0 "$mech" simulate examples/spherical_pendulum.mech --until 5 -o "$work/out.csv"
contains "p_phi drift" err "conserved p_phi: drift"
contains "h drift" err "conserved h: drift"
# In a rotating frame dL/dt is one product whose factor sin^2 + cos^2 - 1
# cancels; the summary still finds the energy integral that `mech
# conserved` reports (h = T2 - T0 + V for the bead on the spinning hoop and
# the governor).
for model in rotating_hoop centrifugal_governor; do
  expect "simulate $model" 0 "$mech" simulate "examples/$model.mech" --until 1 -o "$work/out.csv"
  contains "$model h drift" err "conserved h: drift"
done

finish
