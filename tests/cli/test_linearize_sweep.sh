# linearize --sweep: eigenvalues of A against a param or a name --at uses,
# the structural zero modes dropped, and the values where stability
# changes, against published and closed-form values:
# - the Whipple bicycle's weave and capsize speeds (Meijaard et al. 2007,
#   Proc. R. Soc. A 463: 4.29238253634111 and 6.02426201538837 m/s), from
#   one command sweeping the forward speed;
# - Ziegler's column with a follower force (masses 2m and m, springs k,
#   rods l): flutter at P = (7/2 - sqrt(2)) k/l;
# - an inverted pendulum on a torsion spring k: stable exactly when
#   k > m g l, swept with a unit of its own (N*mm/rad).
source "$(dirname "$0")/lib.sh" "$@"

bike="$root/examples/whipple_bicycle.mech"
upright="x'=v, thR'=-v/rR, thF'=-v/rF, lean'=0, lean=0, steer=0"
expect "bicycle against speed" 0 "$mech" linearize "$bike" --at "$upright" \
  --independent "lean', steer', thR'" --sweep "v=0..10 [m/s]:21" --json --plot "$work/bike.svg"
check_json "bicycle: weave and capsize speeds" "
assert j['dropped'] == ['x', 'y', 'yaw', 'thR', 'thF', \"thR'\"], j['dropped']
assert j['state'] == ['lean', 'steer', \"lean'\", \"steer'\"], j['state']
(weave, capsize) = j['changes']
assert abs(weave['at'] - 4.29238253634111) <= 1e-8 * 4.29, weave
assert abs(capsize['at'] - 6.02426201538837) <= 1e-8 * 6.02, capsize
assert (weave['below'], weave['above']) == ('unstable', 'asymptotically stable'), weave
assert (capsize['below'], capsize['above']) == ('asymptotically stable', 'unstable'), capsize
assert len(j['values']) == 21 and all(len(e) == 4 for e in j['eigenvalues'])"
contains "the plot" bike.svg "<svg"
contains "the plot's axis" bike.svg "v [m/s]"

cat >"$work/ziegler.mech" <<'MODEL'
# Ziegler's column: rods of length l, a mass 2m at the joint and m at the
# tip, rotational springs k at the base and the joint, and a follower
# force P at the tip along the upper rod.
model Ziegler {
  param m = 1 [kg], l = 2 [m], k = 3 [N*m/rad], P = 0 [N]
  coord th1 [rad], th2 [rad]
  let joint = l * [sin(th1), cos(th1)]
  let tip = joint + l * [sin(th2), cos(th2)]
  particle middle mass 2 * m at joint
  particle end mass m at tip
  potential springs = k / 2 * th1^2 + k / 2 * (th2 - th1)^2
  force -P * [sin(th2), cos(th2)] at tip
}
MODEL
expect "Ziegler's column" 0 "$mech" linearize "$work/ziegler.mech" --at "th1=0, th2=0" --sweep "P=0..4:9" --json
check_json "flutter load (7/2 - sqrt 2) k/l" "
(flutter,) = j['changes']
want = (3.5 - math.sqrt(2)) * 3 / 2
assert abs(flutter['at'] - want) <= 1e-9 * want, (flutter, want)
assert (flutter['below'], flutter['above']) == ('stable (neutral)', 'unstable'), flutter"

cat >"$work/inverted.mech" <<'MODEL'
model Inverted {
  param m = 1 [kg], l = 1 [m], g = 9.81 [m/s^2], k = 0 [N*m/rad]
  coord th [rad]
  particle bob mass m at l * [sin(th), cos(th)]
  gravity [0, -g]
  potential Vs = k / 2 * th^2
}
MODEL
expect "inverted pendulum against k" 0 "$mech" linearize "$work/inverted.mech" --at "th=0" \
  --sweep "k=0..20000 [N*mm/rad]:11" --json
check_json "stable above m g l = 9810 N*mm/rad" "
(change,) = j['changes']
assert abs(change['at'] - 9810) <= 1e-10 * 9810, change
assert (change['below'], change['above']) == ('unstable', 'stable (neutral)'), change
assert j['unit'] == 'N*mm/rad' and j['values'][5] == 10000"

expect "--plot without --sweep" 2 "$mech" linearize "$work/inverted.mech" --at "th=0" --plot "$work/p.svg"
contains "what --plot needs" err "linearize: --plot draws a sweep: give --sweep"
expect "--independent without constraints" 1 "$mech" linearize "$work/inverted.mech" --at "th=0" --independent "th'"
contains "nothing to choose" err "--independent: Inverted has no constraints"
expect "a bad range" 2 "$mech" linearize "$work/inverted.mech" --at "th=0" --sweep "k=5..1"
contains "the form" err "--sweep: expected NAME=LO..HI[:N] with numbers LO < HI"
expect "an unknown name" 1 "$mech" linearize "$work/inverted.mech" --at "th=0" --sweep "z=0..1"
contains "neither" err "--sweep: 'z' is neither a param of Inverted nor a name the --at text uses"
expect "a unit of another dimension" 1 "$mech" linearize "$work/inverted.mech" --at "th=0" --sweep "k=0..1 [m]"
contains "dimension" err "--sweep: 'k' has dimension"
expect "a bad --at" 1 "$mech" linearize "$work/inverted.mech" --at "x=0" --sweep "k=0..1"
contains "located once" err "<--at>:1:1: error: 'x' is not a coordinate of Inverted"
lacks "no second headline" err "A is not formed"
expect "a structural param" 1 "$mech" linearize "$root/examples/chain.mech" --at "th[1]=0" --sweep "n=1..3:3"
contains "structural" err "--sweep: 'n' is structural"
finish
