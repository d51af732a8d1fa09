# Command-line values for a whole coordinate family: --in, --at and --init
# name the family (th for th[1..n]) to set every member; a member named
# explicitly wins wherever it is written; diagnostics echo the whole option.
# Checked on the chain (examples/chain.mech): at n = 10 its only rest with
# every link within 0.5 rad of hanging is hanging straight, stable.
source "$(dirname "$0")/lib.sh" "$@"

chain="$root/examples/chain.mech"
expect "a family box at n = 10" 0 "$mech" equilibria "$chain" --set n=10 --in "th=-0.5..0.5" --json
check_json "hanging straight, stable" "[e] = j['equilibria']
assert all(e['q']['th[%d]' % k] == 0 for k in range(1, 11)), e['q']
assert e['stable'] is True"
expect "a member wins over its family" 0 "$mech" equilibria "$chain" --set n=3 \
  --in "th[2]=2..4, th=-0.5..0.5" --json
check_json "th[2] inverted" "[e] = j['equilibria']
assert abs(e['q']['th[2]'] - math.pi) < 1e-9 and e['q']['th[1]'] == 0, e['q']"
expect "--at for a family" 0 "$mech" eval "$chain" --set n=3 --at "th[3]=0.3, th=0.1, th'=0.2" --json
check_json "every member, the explicit one kept" "q, qd = j['q'], j['qd']
assert (q['th[1]'], q['th[2]'], q['th[3]']) == (0.1, 0.1, 0.3), q
assert all(v == 0.2 for v in qd.values()), qd"
expect "--init for a family" 0 "$mech" simulate "$chain" --set n=3 --init "th=0.2" --until 0
contains "first row" out "0,0.20000000000000001,0.20000000000000001,0.20000000000000001,"
expect "the whole option is echoed" 1 "$mech" equilibria "$chain" --set n=3 --in "th=-0.5..0.5, x=1..2"
contains "caret line" err "  th=-0.5..0.5, x=1..2"
contains "message" err "<--in>:1:15: error: 'x' is not a coordinate of Chain"
finish
