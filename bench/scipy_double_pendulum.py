#!/usr/bin/python3
"""SciPy baseline for the simulation benchmark: the double pendulum of
examples/double_pendulum.mech integrated with scipy.integrate.solve_ivp.

The equations are written by hand from the textbook closed form for two point
masses m1, m2 on massless rods l1, l2, angles th1, th2 from the downward
vertical (not derived from mech's output); the parameters and the initial
state are read from the .mech file's `param` and `init` lines.

Usage: scipy_double_pendulum.py [--model FILE] [--until T] [--dt h]
           [--method DOP853|RK45] [--rtol r] [--atol a] [-o out.csv]
Writes t,th1,th2,th1',th2' on the grid 0, dt, 2 dt, ..., T (like mech
simulate's CSV, 17 significant digits) and prints one JSON line on stdout:
the solve_ivp call's own time in seconds, nfev, the steps and the final state.
Exits with status 3 if SciPy is not importable."""
import argparse
import json
import math
import os
import re
import sys
import time

try:
    import numpy as np
    from scipy.integrate import solve_ivp
except ImportError as error:  # the CI machine may not have SciPy
    print(f"scipy_double_pendulum.py: SciPy is not available ({error})", file=sys.stderr)
    sys.exit(3)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"


def read_model(path):
    """m1, m2, l1, l2, g and (th1, th2, th1', th2') at t = 0 from the .mech
    file. The values are in SI units there, so the unit brackets are dropped."""
    text = re.sub(r"#.*", "", open(path).read())
    params = {}
    for line in re.findall(r"^\s*param\s+(.*)$", text, re.M):
        for name, value in re.findall(rf"(\w+)\s*=\s*({NUMBER})", line):
            params[name] = float(value)
    init = {}
    for line in re.findall(r"^\s*init\s+(.*)$", text, re.M):
        for name, value in re.findall(rf"(\w+'?)\s*=\s*({NUMBER})", line):
            init[name] = float(value)
    p = tuple(params[k] for k in ("m1", "m2", "l1", "l2", "g"))
    y0 = [init.get(k, 0.0) for k in ("th1", "th2", "th1'", "th2'")]
    return p, y0


def make_rhs(m1, m2, l1, l2, g):
    """y = (th1, th2, w1, w2); the closed-form accelerations of the planar
    double pendulum of point masses (Lagrange's equations solved for the
    two angular accelerations)."""
    sin, cos = math.sin, math.cos

    def rhs(t, y):
        th1, th2, w1, w2 = y
        d = th1 - th2
        den = 2 * m1 + m2 - m2 * cos(2 * d)
        a1 = (-g * (2 * m1 + m2) * sin(th1) - m2 * g * sin(th1 - 2 * th2)
              - 2 * sin(d) * m2 * (w2 * w2 * l2 + w1 * w1 * l1 * cos(d))) / (l1 * den)
        a2 = (2 * sin(d) * (w1 * w1 * l1 * (m1 + m2) + g * (m1 + m2) * cos(th1)
                            + w2 * w2 * l2 * m2 * cos(d))) / (l2 * den)
        return [w1, w2, a1, a2]

    return rhs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=os.path.join(ROOT, "examples/double_pendulum.mech"))
    parser.add_argument("--until", type=float, default=10.0)
    parser.add_argument("--dt", type=float, default=0.01)
    parser.add_argument("--method", default="DOP853")
    parser.add_argument("--rtol", type=float, default=1e-10)
    parser.add_argument("--atol", type=float, default=1e-10)
    parser.add_argument("-o", dest="output")
    args = parser.parse_args()

    params, y0 = read_model(args.model)
    rhs = make_rhs(*params)
    samples = int(round(args.until / args.dt))
    t_eval = np.linspace(0.0, args.until, samples + 1)

    start = time.perf_counter()
    sol = solve_ivp(rhs, (0.0, args.until), y0, method=args.method, t_eval=t_eval,
                    rtol=args.rtol, atol=args.atol)
    seconds = time.perf_counter() - start
    if not sol.success:
        sys.exit(f"scipy_double_pendulum.py: solve_ivp failed: {sol.message}")

    if args.output:
        with open(args.output, "w") as out:
            out.write("t,th1,th2,th1',th2'\n")
            np.savetxt(out, np.column_stack([sol.t, sol.y.T]), fmt="%.17g", delimiter=",")
    print(json.dumps(dict(method=args.method, seconds=seconds, nfev=int(sol.nfev),
                          samples=len(sol.t), params=params, y0=y0,
                          final=[float(v) for v in sol.y[:, -1]])))


if __name__ == "__main__":
    main()
