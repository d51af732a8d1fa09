#!/usr/bin/python3
"""SciPy baseline for the impacts benchmark (bench/impacts.sh): the rimless
wheel of examples/rimless_wheel.mech integrated the way SciPy users write
impacts: solve_ivp with a terminal event at the impact, and a loop that
applies the reset and restarts the integration from the event.

The equations are written here by hand, not taken from mech: with phi the
stance spoke's angle from the vertical, T = m l^2 phi'^2 / 2 and
V = m g l cos(phi) give phi'' = (g / l) sin(phi). The next spoke touches
the slope at phi = gamma + alpha (phi rising); the reset makes it the
stance spoke, phi = gamma - alpha, and keeps the angular momentum about the
new foot, phi' = cos(2 alpha) phi'. The parameters and the initial state are
read from the .mech file's `param` and `init` lines (their values may be
expressions of numbers, pi and earlier params).

Usage: scipy_rimless_wheel.py [--model FILE] [--until T] [--dt h]
           [--method DOP853|RK45] [--rtol r] [--atol a] [-o out.csv]
           [--events ev.csv]
Writes t,phi,phi' on the grid 0, dt, 2 dt, ..., T with two rows at each
impact, before and after the reset, as mech simulate's CSV does (17
significant digits), and the impacts as `step,t,phi,phi'` rows (the state
before the reset), as mech's --events file does. Prints one JSON line on
stdout: the solve loop's own time in seconds (every solve_ivp call and the
resets, not the CSV), nfev, the number of impacts and the final state.
Exits with status 3 if SciPy is not importable. read_model is importable
without SciPy (bench/impacts.sh reads the parameters with it)."""
import argparse
import json
import math
import os
import re
import sys
import time

from scipy_files import add_run_arguments, write_events, write_samples

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def evaluate(text, names):
    """A param or init value: an arithmetic expression of numbers, pi and
    names already read, with its unit bracket dropped (SI units)."""
    text = re.sub(r"\[[^\]]*\]", "", text).replace("^", "**")
    if not re.fullmatch(r"[\w\s.+\-*/()]*", text):
        raise ValueError(f"cannot read the value {text!r}")
    return float(eval(text, {"__builtins__": {}}, dict(names, pi=math.pi, cos=math.cos,
                                                       sin=math.sin, sqrt=math.sqrt)))


def read_model(path):
    """(m, l, g, alpha, gamma) and (phi, phi') at t = 0 from the .mech file."""
    text = re.sub(r"#.*", "", open(path).read())
    params = {}
    for line in re.findall(r"^\s*param\s+(.*)$", text, re.M):
        for item in line.split(","):
            name, value = item.split("=", 1)
            params[name.strip()] = evaluate(value, params)
    init = {}
    for line in re.findall(r"^\s*init\s+(.*)$", text, re.M):
        for item in line.split(","):
            name, value = item.split("=", 1)
            init[name.strip()] = evaluate(value, params)
    p = tuple(params[k] for k in ("m", "l", "g", "alpha", "gamma"))
    return p, [init["phi"], init["phi'"]]


def main():
    try:
        import numpy as np
        from scipy.integrate import solve_ivp
    except ImportError as error:  # the CI machine may not have SciPy
        print(f"scipy_rimless_wheel.py: SciPy is not available ({error})", file=sys.stderr)
        sys.exit(3)

    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=os.path.join(ROOT, "examples/rimless_wheel.mech"))
    add_run_arguments(parser, until=20.0)
    args = parser.parse_args()

    (m, l, g, alpha, gamma), y0 = read_model(args.model)
    sin, cos = math.sin, math.cos
    g_over_l = g / l
    phi_hit, phi_new, keep = gamma + alpha, gamma - alpha, cos(2 * alpha)

    def rhs(t, y):
        return [y[1], g_over_l * sin(y[0])]

    def step(t, y):  # the next spoke touches the slope
        return y[0] - phi_hit
    step.terminal = True
    step.direction = 1

    samples = int(round(args.until / args.dt))
    grid = np.linspace(0.0, args.until, samples + 1)

    start = time.perf_counter()
    t, y = 0.0, list(y0)
    pieces, impacts, nfev = [], [], 0
    while True:
        t_eval = grid[grid >= t] if t == 0.0 else grid[grid > t]
        sol = solve_ivp(rhs, (t, args.until), y, method=args.method, t_eval=t_eval,
                        events=step, rtol=args.rtol, atol=args.atol)
        nfev += sol.nfev
        if sol.status < 0:
            sys.exit(f"scipy_rimless_wheel.py: solve_ivp failed: {sol.message}")
        pieces.append(np.column_stack([sol.t, sol.y.T]))
        if sol.status != 1:  # reached the end
            break
        te, ye = float(sol.t_events[0][0]), sol.y_events[0][0]
        after = [phi_new, keep * ye[1]]
        impacts.append((te, float(ye[0]), float(ye[1])))
        pieces.append(np.array([[te, ye[0], ye[1]], [te, after[0], after[1]]]))
        t, y = te, after
    seconds = time.perf_counter() - start

    if args.output:
        write_samples(args.output, ["phi", "phi'"], pieces)
    if args.events:
        write_events(args.events, ["phi", "phi'"], [("step",) + row for row in impacts])
    final = pieces[-1][-1]
    print(json.dumps(dict(method=args.method, seconds=seconds, nfev=nfev,
                          impacts=len(impacts), segments=len(impacts) + 1,
                          final=[float(v) for v in final])))


if __name__ == "__main__":
    main()
