#!/usr/bin/env bash
# `mech equilibria` over a box given for a whole coordinate family: the
# hanging chain of examples/chain.mech at n = 10 with every link within
# 0.5 rad of the vertical (--in "th=-0.5..0.5") has exactly one equilibrium
# there, hanging straight (all th[k] = 0), stable by Lagrange-Dirichlet.
# Independent numbers, by hand: with x[k] = l sum_{i<=k} sin th[i] and
# y[k] = -l sum_{i<=k} cos th[i], V = m g sum_k y[k]
# = -m g l sum_i (n + 1 - i) cos th[i], so the Hessian of V at rest is
# diag(m g l (n + 1 - i)): eigenvalues m g l k for k = 1..n (9.81 k), and
# T = m/2 sum_k |p[k]'|^2 gives the mass matrix at rest
# M[i, j] = m l^2 (n + 1 - max(i, j)); every reported frequency w and mode
# v must solve (K - w^2 M) v = 0 with K = diag(m g l (n + 1 - i)).
# The search has 64 n = 640 start points; it takes well under a second.
# Usage: test_family_box.sh MECH_BINARY SOURCE_ROOT [BUILD_DIR]
source "$(dirname "$0")/lib.sh" "$@"
cd "$root"
chain=examples/chain.mech

start=$(date +%s)
expect "the family box" 0 "$mech" equilibria "$chain" --set n=10 --in "th=-0.5..0.5"
elapsed=$(($(date +%s) - start))
if [ "$elapsed" -le 20 ]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL: equilibria over the n = 10 box took ${elapsed} s (over 20 s)"; fi
contains "one equilibrium in the box" out "Chain: 1 equilibrium in th[1] = -0.5..0.5, th[2] = -0.5..0.5,"
contains "the box's last member" out "th[10] = -0.5..0.5"
contains "hanging straight" out \
  "1. th[1] = 0, th[2] = 0, th[3] = 0, th[4] = 0, th[5] = 0, th[6] = 0, th[7] = 0, th[8] = 0, th[9] = 0, th[10] = 0"
contains "stable" out "stable -- Lagrange-Dirichlet (Hessian of W positive definite)"
lacks "no second equilibrium" out "2. th[1]"
lacks "nothing unstable" out "unstable"

expect "the family box, JSON" 0 "$mech" equilibria "$chain" --set n=10 --in "th=-0.5..0.5" --json
check_json "exactly the hanging chain, with the hand-derived Hessian and modes" "
n, m, l, g = 10, 1.0, 1.0, 9.81
eqs = j['equilibria']
assert len(eqs) == 1, [e['q'] for e in eqs]
[e] = eqs
assert e['q'] == {'th[%d]' % k: 0 for k in range(1, n + 1)}, e['q']
assert e['stable'] is True and e['criterion'].startswith('Lagrange-Dirichlet'), e
hess = sorted(e['hessian_eigenvalues'])
assert all(abs(h - m * g * l * k) < 1e-9 for h, k in zip(hess, range(1, n + 1))), hess
M = [[m * l * l * (n - max(i, k)) for k in range(n)] for i in range(n)]  # 0-based: n+1-max(i+1,k+1)
K = [m * g * l * (n - i) for i in range(n)]
w, modes = e['frequencies'], e['modes']
assert len(w) == n and len(modes) == n and all(a < b for a, b in zip(w, w[1:])), w
for om, v in zip(w, modes):
    Mv = [sum(M[i][k] * v[k] for k in range(n)) for i in range(n)]
    r = [K[i] * v[i] - om * om * Mv[i] for i in range(n)]
    scale = max(abs(K[i] * v[i]) + om * om * abs(Mv[i]) for i in range(n))
    assert max(map(abs, r)) < 1e-9 * scale, (om, r)
# The slowest mode: all links swing the same way, the lowest link most.
assert all(x > 0 for x in modes[0]) and modes[0][-1] == 1, modes[0]"

finish
