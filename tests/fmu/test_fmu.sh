# `mech build --fmu` (FMI 2.0, Model Exchange and Co-Simulation in one
# FMU), run by an importer written from the standard (fmu_run.c) in both
# modes and compared with `mech simulate` at the common output times, over
# models of each kind the FMU accepts: unconstrained (double pendulum),
# holonomic (Cartesian pendulum), an input (driven oscillator, F held at
# 0.5), nonholonomic (rolling coin, upright and leaning), an event with a
# reset (rimless wheel) and events that record and stop (projectile). Then
# the refusals: contacts and friction, which an FMU cannot carry, and an
# output name that is not .fmu.
#
# Arguments: MECH_BINARY SOURCE_ROOT BUILD_DIR FMU_RUN (tests/fmu/CMakeLists.txt).
source "$(dirname "$0")/../cli/lib.sh" "$@"
fmu_run="$(readlink -f "${4:-$build/tests/fmu/fmu_run}")"
here="$(cd "$(dirname "$0")" && pwd)"
cd "$root"

# The reference: DOP853 far tighter than either mode's error, so that a
# difference measures the FMU (and the importer), not the reference.
reference=(--method dop853 --rtol 1e-12 --atol 1e-14)
step=0.01
# Co-Simulation: the FMU's own DOPRI5 at its default tolerances (rtol
# 1e-8, atol 1e-10, as mech simulate's), whose global error over these few
# seconds is at most of order 1e-8 of the motion (measured: 2e-10); 1e-6
# leaves room for the growth of errors in the double pendulum and the coin.
cs_tol=1e-6
# Model Exchange: fmu_run's classic RK4 at STEP/10 = 1e-3 s. Its global
# error is about T w^5 h^4 / 120 for a motion of frequency w: 1e-9 or
# less for these models (w of about 10 rad/s, T <= 6 s; measured: at most
# 4e-9, the leaning coin). Events are located by bisection to 1e-10 s, so
# a reset or a stop adds about |q'| * 1e-10. Nothing keeps a constrained
# state on its constraints between the FMU's projections in Model
# Exchange, but their drift is of the integration error's size. 1e-6 is
# then a wide margin that still catches a wrong equation, a missed or
# misplaced event, or a reset applied wrongly (each an error of 1e-3 or
# more).
me_tol=1e-6

# build_fmu MODEL: builds examples/MODEL.mech into $work/MODEL.fmu and
# unzips it (with Python's zipfile: unzip may be missing) into $work/MODEL;
# checks the archive's layout. Fails (1) when it could not.
build_fmu() {
  local model="$1" before=$failed
  expect "$model: build --fmu" 0 "$mech" build "examples/$model.mech" --fmu -o "$work/$model.fmu"
  [ "$failed" -eq "$before" ] || return 1
  expect "$model: unzip" 0 python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
    "$work/$model.fmu" "$work/$model"
  check_py "$model: the FMU's modelDescription.xml and binary" "
import os, xml.etree.ElementTree as ET
d = W + '/$model'
root = ET.parse(d + '/modelDescription.xml').getroot()
assert root.tag == 'fmiModelDescription' and root.get('fmiVersion') == '2.0', root.attrib
for kind in ('ModelExchange', 'CoSimulation'):
    element = root.find(kind)
    assert element is not None, kind
    so = d + '/binaries/linux64/' + element.get('modelIdentifier') + '.so'
    assert os.path.isfile(so), so"
  [ "$failed" -eq "$before" ]
}

# run_case LABEL MODEL STOP "FMU_SETS" "SIMULATE_ARGS": the reference run,
# then fmu_run in cs and me with the same values, each compared with it.
run_case() {
  local label="$1" model="$2" stop="$3" sets simulate_args mode tol before
  read -ra sets <<<"$4"
  read -ra simulate_args <<<"$5"
  before=$failed
  expect "$label: mech simulate" 0 "$mech" simulate "examples/$model.mech" --until "$stop" --dt "$step" \
    "${reference[@]}" "${simulate_args[@]}" -o "$work/$label.ref.csv"
  [ "$failed" -eq "$before" ] || return
  for mode in cs me; do
    tol=$cs_tol
    [ "$mode" = me ] && tol=$me_tol
    before=$failed
    expect "$label $mode: fmu_run" 0 "$fmu_run" "$work/$model" "$mode" "$stop" "$step" "${sets[@]}"
    [ "$failed" -eq "$before" ] || continue
    cp "$work/out" "$work/$label.$mode.csv"
    expect "$label $mode: against mech simulate" 0 python3 "$here/compare_csv.py" \
      "$work/$label.ref.csv" "$work/$label.$mode.csv" --tol "$tol" --label "$label $mode"
    [ "$failed" -eq "$before" ] && sed 's/^/  /' "$work/out"
  done
}

for model in double_pendulum cartesian_pendulum driven_oscillator rolling_coin rimless_wheel projectile; do
  build_fmu "$model" || continue
  case "$model" in
    driven_oscillator) run_case "$model" "$model" 6 "F=0.5" "--input F=0.5" ;;
    rolling_coin)
      # Upright, the coin rolls straight (its init, off the constraints, is
      # projected by both: x' = r spin'); leaning, it also turns and the
      # lean oscillates (spin' = 10 is above the 8.09 rad/s it needs to stay
      # up). The leaning start is on the constraints: a start off them is
      # projected by simulate keeping what --init gives, by the FMU as the
      # built library projects, which may differ.
      run_case "$model" "$model" 2 "" ""
      run_case "${model}_leaning" "$model" 2 "lean=0.1 x'=0.5" "--init lean=0.1,x'=0.5" ;;
    # The events fire at t = 0.84 ... 3.74 (four resets); the projectile
    # stops where it lands, at t = 2.452, before STOP.
    projectile) run_case "$model" "$model" 4 "" "" ;;
    cartesian_pendulum) run_case "$model" "$model" 3 "" "" ;;
    *) run_case "$model" "$model" 4 "" "" ;;
  esac
done

# Refused: a contact's impacts and a friction's sticking have no FMI 2.0
# form here; the message names which. Nothing is written.
expect "a contact is refused" 1 "$mech" build examples/bouncing_ball.mech --fmu -o "$work/ball.fmu"
contains "the refusal is an error" err "error:"
contains "the refusal names the contact" err "contact"
expect "nothing written for the contact model" 1 test -e "$work/ball.fmu"
expect "friction is refused" 1 "$mech" build examples/stick_slip.mech --fmu -o "$work/slip.fmu"
contains "the refusal is an error" err "error:"
contains "the refusal names the friction" err "friction"
expect "nothing written for the friction model" 1 test -e "$work/slip.fmu"
# An FMU is a zip named .fmu: -o x.so with --fmu is a usage error.
expect "--fmu with -o x.so" 2 "$mech" build examples/double_pendulum.mech --fmu -o "$work/x.so"
expect "nothing written for -o x.so" 1 test -e "$work/x.so"

finish
