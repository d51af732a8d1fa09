"""The simplest walker's period-one gait by shooting in SciPy, as a user
without mech writes it: the published equations of Garcia et al. (1998) by
hand, solve_ivp (DOP853, rtol = atol = 1e-12) with a terminal heel-strike
event, Newton's method on the return map with its Jacobian by forward
differences (4 more integrations per iteration), and with --sweep the
continuation in the slope from the previous fixed point. Prints JSON: the
fixed point, period, multipliers' moduli and the seconds the solve took
(imports excluded). bench/periodic.sh runs it beside `mech periodic`."""
import argparse
import json
import math
import time

import numpy as np
from scipy.integrate import solve_ivp

TOL = dict(method="DOP853", rtol=1e-12, atol=1e-12)


def rhs(gamma):
    def f(t, s):
        th, ph, thd, phd = s
        return [thd, phd, math.sin(th - gamma),
                math.sin(ph) * (thd * thd - math.cos(th - gamma)) + math.sin(th - gamma)]
    return f


def heel(t, s):
    return s[1] - 2 * s[0]


heel.terminal, heel.direction = True, 1


def step(x, gamma):
    """The state after the next heel strike (and the strike's time)."""
    # The start lies on the section: half a time unit without the event first.
    early = solve_ivp(rhs(gamma), (0, 0.5), x, **TOL)
    sol = solve_ivp(rhs(gamma), (0.5, 20), early.y[:, -1], events=heel, **TOL)
    t, s = sol.t_events[0][0], sol.y_events[0][0]
    th, ph, thd, phd = s
    c = math.cos(2 * th)
    return np.array([-th, -2 * th, c * thd, c * (1 - c) * thd]), t


def jacobian(x, px, gamma):
    """dP/dx by forward differences, P(x) = px given."""
    J = np.zeros((4, 4))
    for j in range(4):
        h = 1e-7 * max(1.0, abs(x[j]))
        xp = x.copy()
        xp[j] += h
        J[:, j] = (step(xp, gamma)[0] - px) / h
    return J


def fixed_point(x, gamma):
    for _ in range(30):
        px, period = step(x, gamma)
        r = px - x
        if np.max(np.abs(r)) <= 1e-10 * max(1.0, np.max(np.abs(x))):
            break
        x = x + np.linalg.lstsq(jacobian(x, px, gamma) - np.eye(4), -r, rcond=None)[0]
    J = jacobian(x, px, gamma)
    return x, period, sorted(np.abs(np.linalg.eigvals(J)), reverse=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gamma", type=float, default=0.009)
    parser.add_argument("--sweep", type=int, default=0, help="points from gamma to 0.02")
    a = parser.parse_args()
    x = np.array([0.2, 0.4, -0.2, -0.016])
    start = time.perf_counter()
    if a.sweep:
        moduli = []
        for g in np.linspace(a.gamma, 0.02, a.sweep):
            x, period, mods = fixed_point(x, g)
            moduli.append(mods[0])
        out = dict(points=a.sweep, largest_moduli=[float(m) for m in moduli])
    else:
        x, period, mods = fixed_point(x, a.gamma)
        out = dict(fixed_point=list(map(float, x)), period=float(period),
                   moduli=[float(m) for m in mods])
    out["seconds"] = time.perf_counter() - start
    print(json.dumps(out))


if __name__ == "__main__":
    main()
