#!/usr/bin/env bash
# `mech equations` omits an entry that the zero test (symbolic/ZeroTest.h)
# proves identically zero, as it omits every exact zero: the heavy top's
# M[phi, theta] and M[theta, psi] vanish (a textbook's M has only phi-phi,
# phi-psi, theta-theta and psi-psi entries) though the derivation leaves
# them as long sums of products of sines and cosines.
# Usage: test_zero_entries.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"

expect "heavy top" 0 "$mech" equations examples/heavy_top.mech
lacks "M[phi, theta] omitted" out "M[phi, theta] ="
lacks "M[theta, psi] omitted" out "M[theta, psi] ="
contains "M[phi, phi] shown" out "M[phi, phi] ="
contains "M[phi, psi] shown" out "M[phi, psi] ="
contains "M[theta, theta] shown" out "M[theta, theta] ="
contains "M[psi, psi] shown" out "M[psi, psi] ="

finish
