#!/usr/bin/python3
"""SciPy baseline for the friction benchmark (bench/friction.sh): the
stick-slip oscillator of examples/stick_slip.mech integrated the way SciPy
users write friction that sticks: solve_ivp in one mode at a time, with
terminal events at the switches and a loop that restarts in the next mode.

The equations are written here by hand, not taken from mech: a block of
mass m on a belt running at vb, held by a spring k. Slipping (x' != vb),
m x'' = -k x - mu_k m g sign(x' - vb), until x' = vb; there it sticks when
the spring's pull |k x| is at most mu_s m g, else it slips on the other way.
Sticking, x' = vb (x'' = 0) until |k x| = mu_s m g, where it slips back.

Usage: scipy_stick_slip.py [--until T] [--dt h] [--method DOP853|RK45]
           [--rtol r] [--atol a] [-o out.csv] [--events ev.csv]
Writes t,x,x' on the grid 0, dt, ..., T and the switches as `belt sticks`
and `belt slips` rows (event,t,x,x'), as mech simulate does. Prints one
JSON line: the solve loop's own time in seconds (not the CSV), nfev and
the switches. Exits with status 3 if SciPy is not importable."""
import argparse
import json
import sys
import time

from scipy_files import add_run_arguments, write_events, write_samples

M, K, G, VB, MUS, MUK = 1.0, 1.0, 9.81, 0.1, 0.4, 0.3


def main():
    try:
        import numpy as np
        from scipy.integrate import solve_ivp
    except ImportError as error:
        print(f"scipy_stick_slip.py: SciPy is not available ({error})", file=sys.stderr)
        sys.exit(3)
    parser = argparse.ArgumentParser()
    add_run_arguments(parser, until=100.0)
    args = parser.parse_args()

    def slipping(sigma):
        def rhs(t, y):
            return [y[1], (-K * y[0] - sigma * MUK * M * G) / M]

        def stops(t, y):  # back at the belt's speed
            return y[1] - VB
        stops.terminal, stops.direction = True, -sigma
        return rhs, stops

    def stick_rhs(t, y):
        return [VB, 0.0]

    def breaks(t, y):  # the spring beyond what the static friction holds
        return MUS * M * G - abs(K * y[0])
    breaks.terminal, breaks.direction = True, -1

    grid = np.linspace(0.0, args.until, int(round(args.until / args.dt)) + 1)
    start = time.perf_counter()
    t, y, mode = 0.0, [0.0, VB], 0  # at the belt's speed with no pull: stuck
    pieces, switches, nfev = [], [("belt sticks", 0.0, 0.0, VB)], 0
    while True:
        t_eval = grid[grid >= t] if t == 0.0 else grid[grid > t]
        rhs, event = (stick_rhs, breaks) if mode == 0 else slipping(mode)
        sol = solve_ivp(rhs, (t, args.until), y, method=args.method, t_eval=t_eval,
                        events=event, rtol=args.rtol, atol=args.atol)
        nfev += sol.nfev
        if sol.status < 0:
            sys.exit(f"scipy_stick_slip.py: solve_ivp failed: {sol.message}")
        # A piece with no grid time inside has an empty sol.y (a list).
        pieces.append(np.column_stack([sol.t, np.asarray(sol.y).reshape(2, -1).T]))
        if sol.status != 1:
            break
        t, y = float(sol.t_events[0][0]), [float(v) for v in sol.y_events[0][0]]
        if mode == 0:  # slips the way the friction cannot hold the spring
            mode = -1 if K * y[0] > 0 else 1
            switches.append(("belt slips", t, y[0], y[1]))
        elif abs(K * y[0]) <= MUS * M * G:
            mode, y = 0, [y[0], VB]
            switches.append(("belt sticks", t, y[0], y[1]))
        else:
            mode = -mode
            switches.append(("belt slips", t, y[0], y[1]))
    seconds = time.perf_counter() - start

    if args.output:
        write_samples(args.output, ["x", "x'"], pieces)
    if args.events:
        write_events(args.events, ["x", "x'"], switches)
    print(json.dumps(dict(method=args.method, seconds=seconds, nfev=nfev,
                          switches=len(switches))))


if __name__ == "__main__":
    main()
