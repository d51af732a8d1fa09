# Outputs that use other outputs, in any order, against values by hand: the
# Cartesian pendulum at rest at (0.6, -0.8) holds its bob with the tension
# m g cos(a) = 1 * 9.81 * 0.8 = 7.848 N; an output declared before the
# tension doubles it, one after squares the rod's length.
source "$(dirname "$0")/lib.sh" "$@"

sed 's/^  output tension = -2 \* l \* rod$/  output twice = 2 * tension\n  output tension = -2 * l * rod\n  output l2 = length^2\n  output length = sqrt(x^2 + y^2)/' \
  "$root/examples/cartesian_pendulum.mech" >"$work/outputs.mech"
expect "outputs using outputs" 0 "$mech" eval "$work/outputs.mech" --json
check_json "by hand" "o = j['outputs']
assert abs(o['tension'] - 7.848) < 1e-12, o
assert abs(o['twice'] - 15.696) < 1e-12, o
assert abs(o['l2'] - 1) < 1e-12 and abs(o['length'] - 1) < 1e-12, o"
expect "fmt keeps them" 0 "$mech" fmt --check "$work/outputs.mech"
expect "simulate writes them" 0 "$mech" simulate "$work/outputs.mech" --until 0
contains "columns" out "twice,tension,l2,length"
finish
