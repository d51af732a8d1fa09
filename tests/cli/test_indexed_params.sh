#!/usr/bin/env bash
# Families of params (param m[k in 1..n] = e(k), c[1..5] = [list],
# d[1..n] = one value) on examples/spring_damper_chain.mech: five masses
# m[k] = 1 + 0.25*(k - 1) kg in a line, springs c = [50, 40, 30, 20, 10] N/m
# (c[1] to the wall) and dampers d[k] = 0.2 N*s/m beside them.
# By hand: M = diag(m), K[i, i] = c[i] + c[i+1], K[i, i+1] = K[i+1, i] =
# -c[i+1], K[5, 5] = c[5], and C the same with d.
# The modal numbers were computed outside the suite with NumPy 1.24.2 and
# SciPy 1.10.1 (never taken from mech):
#   omega = sqrt(eigh(M^-1/2 K M^-1/2)) (numpy.linalg.eigh; scipy.linalg.eigh(K, M)
#     agrees to 1e-15), the mode shapes from scipy.linalg.eigh(K, M) scaled to
#     a largest component of +1, and the damped eigenvalues from
#     numpy.linalg.eigvals of A = [[0, I], [-M^-1 K, -M^-1 C]].
# Then every --set form for a family, the header of `mech build`, `mech fmt`
# and the REPL's :save of a family.
# Usage: test_indexed_params.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
chain=examples/spring_damper_chain.mech

# NumPy's numbers (see above), to 17 digits.
numpy="omega = [1.2032531688601191, 2.9493516316592294, 4.896307452614902, 7.27500946995583, 10.697200932120905]
shape1 = [0.12860154976867497, 0.28469869540932097, 0.4756535583710418, 0.7104363623256167, 1.0]
damped = [(-0.006475968272369431, 1.2032669567392018), (-0.06312853319740114, 2.949053183602759),
          (-0.12441694047650437, 4.894456428008151), (-0.18344810243299103, 7.272203078234246),
          (-0.28014950323978427, 10.693201053071308)]
def close(got, want, rel, what=''):
    assert abs(got - want) <= rel * abs(want), (what, got, want)
def tri(s):
    n = len(s)
    return [[s[i] + (s[i + 1] if i + 1 < n else 0) if i == j else -s[max(i, j)] if abs(i - j) == 1 else 0
             for j in range(n)] for i in range(n)]
def masses():
    return [j['M'][i][i] for i in range(len(j['M']))]"

# (a) M, K and C from the params, against the matrices built by hand.
expect "linearize" 0 "$mech" linearize "$chain" --at "x=0" --json
check_json "M, K, C by hand" "$numpy
m = [1 + 0.25 * (k - 1) for k in range(1, 6)]
assert j['M'] == [[m[i] if i == k else 0 for k in range(5)] for i in range(5)], j['M']
assert j['K'] == tri([50, 40, 30, 20, 10]) == [[90, -40, 0, 0, 0], [-40, 70, -30, 0, 0],
    [0, -30, 50, -20, 0], [0, 0, -20, 30, -10], [0, 0, 0, -10, 10]], j['K']
C = tri([0.2] * 5)
assert all(abs(j['D'][i][k] - C[i][k]) < 1e-15 for i in range(5) for k in range(5)), j['D']"
check_json "damped eigenvalues are NumPy's" "$numpy
got = sorted([e for e in j['eigenvalues'] if e[1] > 0], key=lambda e: e[1])
assert len(got) == 5 and len(j['eigenvalues']) == 10, j['eigenvalues']
for (re, im), (wre, wim) in zip(got, damped):
    close(re, wre, 1e-9, 're'); close(im, wim, 1e-9, 'im')"

# (b) Undamped (d = 0 sets every damper): the modal frequencies.
expect "linearize without damping" 0 "$mech" linearize "$chain" --at "x=0" --set "d=0" --json
check_json "modal frequencies are NumPy's" "$numpy
assert j['D'] == [[0] * 5] * 5, j['D']
got = sorted(e[1] for e in j['eigenvalues'] if e[1] > 0)
assert len(got) == 5, j['eigenvalues']
for g, w in zip(got, omega):
    close(g, w, 1e-9, 'omega')
assert all(abs(e[0]) < 1e-9 for e in j['eigenvalues']), j['eigenvalues']"
expect "equilibria without damping" 0 "$mech" equilibria "$chain" --set "d=0" --json
check_json "frequencies and the slowest mode" "$numpy
[e] = j['equilibria']
assert e['stable'] is True, e
for g, w in zip(sorted(e['frequencies']), omega):
    close(g, w, 1e-9, 'omega')
assert max(abs(a - b) for a, b in zip(e['modes'][0], shape1)) < 1e-9, e['modes'][0]"

# (c) --set: a member, the family, a list, and a member against its family
# in either order (the member wins).
setm() { # setm NAME MASSES... -- SET_OPTIONS...: the diagonal of M.
  local name="$1" want="$2"
  shift 2
  expect "$name" 0 "$mech" linearize "$chain" --at "x=0" --json "$@"
  check_json "$name: masses" "$numpy
assert masses() == $want, masses()"
}
setm "one member" "[1, 3, 1.5, 1.75, 2]" --set "m[2]=3"
setm "a member in another unit" "[1, 0.3, 1.5, 1.75, 2]" --set "m[2]=300 [g]"
setm "the family" "[2, 2, 2, 2, 2]" --set "m=2"
setm "a list" "[1, 2, 3, 4, 5]" --set "m=[1, 2, 3, 4, 5]"
setm "member, then family" "[2, 3, 2, 2, 2]" --set "m[2]=3" --set "m=2"
setm "family, then member" "[2, 3, 2, 2, 2]" --set "m=2" --set "m[2]=3"
setm "member and family in one option" "[2, 3, 2, 2, 2]" --set "m[2]=3, m=2"
setm "member, then list" "[1, 2, 3, 9, 5]" --set "m[4]=9" --set "m=[1, 2, 3, 4, 5]"
setm "list, then member" "[1, 2, 3, 9, 5]" --set "m=[1, 2, 3, 4, 5]" --set "m[4]=9"
# n = 3 re-derives the model; the list then has three entries, and the
# order of the two settings does not matter.
setm "n, then a list" "[7, 8, 9]" --set "n=3" --set "m=[7, 8, 9]"
setm "a list, then n" "[7, 8, 9]" --set "m=[7, 8, 9]" --set "n=3"
expect "a list of springs" 0 "$mech" linearize "$chain" --at "x=0" --json --set "c=[5, 4, 3, 2, 1]"
check_json "K of the springs set" "$numpy
assert j['K'] == tri([5, 4, 3, 2, 1]), j['K']"
expect "one damper" 0 "$mech" linearize "$chain" --at "x=0" --json --set "d[3]=1"
check_json "C of the dampers set" "$numpy
C = tri([0.2, 0.2, 1, 0.2, 0.2])
assert all(abs(j['D'][i][k] - C[i][k]) < 1e-15 for i in range(5) for k in range(5)), j['D']"

# The user's errors: exit 1, located in the option.
expect "a list too short" 1 "$mech" linearize "$chain" --at "x=0" --set "m=[1, 2]"
contains "list length" err "<--set>:1:1: error: the family 'm' has 5 members, the list gives 2 values"
contains "list length: the option" err "  m=[1, 2]"
expect "a list too long" 1 "$mech" eval "$chain" --set "c=[1, 2, 3, 4, 5, 6]"
contains "list too long" err "error: the family 'c' has 5 members, the list gives 6 values"
expect "a list of five for n = 3" 1 "$mech" eval "$chain" --set "m=[1, 2, 3, 4, 5]" --set "n=3"
contains "the list against n" err "error: the family 'm' has 3 members, the list gives 5 values"
expect "no member 6" 1 "$mech" eval "$chain" --set "m[6]=1"
contains "member 6" err "<--set>:1:1: error: 'm[6]' does not exist: the index of 'm' runs over 1..5"
expect "no member 0" 1 "$mech" eval "$chain" --set "m[0]=1"
contains "member 0" err "error: 'm[0]' does not exist: the index of 'm' runs over 1..5"
expect "a list on one param" 1 "$mech" eval "$chain" --set "n=[1, 2]"
contains "one param" err "<--set>:1:1: error: 'n' is one param; a list of values sets a family of params"
expect "a family with the wrong dimension" 1 "$mech" eval "$chain" --set "m=2 [s]"
contains "family dimension" err "error: 'm' has dimension kg, the value given has s"
expect "a member with the wrong dimension" 1 "$mech" eval "$chain" --set "c[2]=2 [kg]"
contains "member dimension" err "error: 'c[2]' has dimension kg/s^2, the value given has kg"
expect "a list with the wrong dimension" 1 "$mech" eval "$chain" --set "d=[1, 1, 1, 1, 1 [m]]"
contains "list dimension" err "error: 'd' has dimension kg/s, the value given has m"

# (d) A compiled library: each member is a parameter of its own, named in
# the header and in the model info, and p[k] reaches the right place:
# f = -K q at q = (1, 0, 0, 0, 0) is (-(c[1] + c[2]), c[2], 0, 0, 0).
expect "build" 0 "$mech" build "$chain" -o "$work/libchain.so" --header "$work/chain.h" --set "m[2]=3"
for line in "m[1] [kg] = 1" "m[2] [kg] = 3" "m[5] [kg] = 2" "c[1] [N/m] = 50" "c[5] [N/m] = 10" \
  "d[1] [N*s/m] = 0.2" "d[5] [N*s/m] = 0.2"; do
  contains "header: $line" chain.h "$line"
done
contains "header: np" chain.h "Parameters p (np = 16)"
cat >"$work/info.c" <<'C'
#include <stdio.h>
#include <string.h>
int main(void) {
  const mech_model_info *info = mech_model();
  double p[64], x[10] = {1}, f[5], M[25];
  for (int i = 0; i < info->np; ++i)
    printf("%s=%g\n", info->param_names[i], info->param_defaults[i]);
  memcpy(p, info->param_defaults, sizeof(double) * info->np);
  for (int i = 0; i < info->np; ++i)
    if (strcmp(info->param_names[i], "c[2]") == 0) p[i] = 7;
    else if (strcmp(info->param_names[i], "m[4]") == 0) p[i] = 6;
  if (mech_forcing(0, x, p, f) || mech_mass_matrix(0, x, p, M)) return 1;
  printf("f = %g %g %g\nM44 = %g\n", f[0], f[1], f[2], M[18]);
  return 0;
}
C
expect "compile against the header" 0 cc -include "$work/chain.h" "$work/info.c" -o "$work/info" \
  "$work/libchain.so" -Wl,-rpath,"$work"
expect "model info" 0 "$work/info"
for line in "m[1]=1" "m[2]=3" "m[3]=1.5" "m[4]=1.75" "m[5]=2" "c[1]=50" "c[3]=30" "d[4]=0.2" \
  "f = -57 7 0" "M44 = 6"; do
  contains "model info: $line" out "$line"
done

# (e) mech fmt: the three forms canonically, a round trip, and the example
# as it is formatted.
cat >"$work/families.mech" <<'MODEL'
model F {
  param n=5
  param m[k in 1..n][kg]=k
  param c[1..5] [N/m]=[10,20,30,  40,50]
  param d[1..n]   [N*s/m] = 0.2
  coord x[1..n] [m]
  kinetic T = sum(k in 1..n, m[k]/2*x[k]'^2)
  potential V = c[1]/2*x[1]^2 + sum(k in 2..n, c[k]/2*(x[k] - x[k-1])^2)
  dissipation D = sum(k in 1..n, d[k]/2*x[k]'^2)
}
MODEL
expect "fmt" 0 "$mech" fmt "$work/families.mech"
cp "$work/out" "$work/formatted.mech"
contains "fmt: a formula of k" formatted.mech "  param m[k in 1..n] [kg] = k"
contains "fmt: a list" formatted.mech "  param c[1..5] [N/m] = [10, 20, 30, 40, 50]"
contains "fmt: one value" formatted.mech "  param d[1..n] [N*s/m] = 0.2"
expect "fmt of the formatted text" 0 "$mech" fmt "$work/formatted.mech"
cp "$work/out" "$work/again.mech"
expect "the round trip is identical" 0 cmp "$work/formatted.mech" "$work/again.mech"
expect "fmt --check of the formatted text" 0 "$mech" fmt --check "$work/formatted.mech"
expect "the formatted model" 0 "$mech" linearize "$work/formatted.mech" --at "x=0" --json
check_json "the same params after fmt" "$numpy
assert masses() == [1, 2, 3, 4, 5], masses()
assert j['K'][0][:2] == [30, -20] and j['K'][4][4] == 50, j['K']"
expect "the example is formatted" 0 "$mech" fmt --check "$chain"

# (f) The REPL: after :set of one member, :save writes the family as the
# list of its members' values; the saved file checks, is formatted and has
# the value. Likewise for a list set on the springs.
printf ':set m[2]=3\n:save %s\n:set c=[5, 4, 3, 2, 1]\n:save %s\n' \
  "$work/member.mech" "$work/list.mech" >"$work/save.in"
expect "repl :set and :save" 0 "$mech" repl "$chain" <"$work/save.in"
contains "repl: saved" out "wrote $work/member.mech"
contains ":save writes the members" member.mech "  param m[1..n] [kg] = [1, 3, 1.5, 1.75, 2]"
contains ":save keeps the other families" member.mech "  param c[1..5] [N/m] = [50, 40, 30, 20, 10]"
contains ":save keeps one value" member.mech "  param d[1..5] [N*s/m] = 0.2"
expect "the saved model is formatted" 0 "$mech" fmt --check "$work/member.mech"
expect "the saved model" 0 "$mech" linearize "$work/member.mech" --at "x=0" --json
check_json "the saved model has m[2] = 3" "$numpy
assert masses() == [1, 3, 1.5, 1.75, 2], masses()
assert j['K'] == tri([50, 40, 30, 20, 10]), j['K']"
contains ":save of a list set" list.mech "  param c[1..5] [N/m] = [5, 4, 3, 2, 1]"
expect "the second saved model" 0 "$mech" linearize "$work/list.mech" --at "x=0" --json
check_json "the saved model has both settings" "$numpy
assert masses() == [1, 3, 1.5, 1.75, 2], masses()
assert j['K'] == tri([5, 4, 3, 2, 1]), j['K']"

finish
