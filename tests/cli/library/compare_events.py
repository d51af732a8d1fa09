"""Compares a built library's run with events (run_events.c) to `mech simulate`'s.

Usage: compare_events.py CLI.csv CLI_EVENTS.csv LIB.csv LIB_EVENTS.csv DT STATE TOLERANCE
The CLI's table also has rows at the events (before and after each switch):
its rows on the grid 0, DT, 2 DT, ... (and its last) are compared with the
library's rows, every column, to TOLERANCE; the events must have the same
names in the same order, their times agreeing to TOLERANCE and the STATE
(2 nq) values before them to 100 TOLERANCE (an event that does not stop is
located to 1e-12 max(1, |t|) only, and its state moves with its time).
Prints one line; exits 1 on a mismatch."""
import csv
import sys


def numbers(path, header):
    rows = []
    with open(path) as f:
        for i, line in enumerate(csv.reader(f)):
            if header and i == 0:
                continue
            rows.append(line)
    return rows


def on_grid(t, dt):
    """Whether t is a point k dt of the grid (as computed there, exactly)."""
    return t == round(t / dt) * dt


def main():
    cli_rows, cli_events, lib_rows, lib_events = sys.argv[1:5]
    dt, state, tol = float(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
    lib = [[float(v) for v in r] for r in numbers(lib_rows, False)]
    cli, seen = [], set()
    table = [[float(v) for v in r] for r in numbers(cli_rows, True)]
    for r in table:
        if (on_grid(r[0], dt) or r is table[-1]) and r[0] not in seen:
            seen.add(r[0])
            cli.append(r)
    if len(cli) != len(lib):
        print(f"{len(cli)} grid rows from mech simulate, {len(lib)} from the library")
        return 1
    worst, states = 0.0, 0.0
    for a, b in zip(cli, lib):
        worst = max([worst] + [abs(x - y) for x, y in zip(a, b)])
    ce = numbers(cli_events, True) if cli_events != "-" else []
    le = numbers(lib_events, False)
    if [e[0] for e in ce] != [e[0] for e in le]:
        print(f"events differ: {[e[0] for e in ce][:8]} vs {[e[0] for e in le][:8]}")
        return 1
    times = 0.0
    for a, b in zip(ce, le):
        times = max(times, abs(float(a[1]) - float(b[1])))
        pairs = zip(a[2:2 + state], b[2:2 + state])
        states = max([states] + [abs(float(x) - float(y)) for x, y in pairs])
    if worst > tol or times > tol or states > 100 * tol:
        print(f"largest difference {worst:.3g} in the rows, {times:.3g} in event times, "
              f"{states:.3g} in the states at events (tolerance {tol:g})")
        return 1
    print(f"{len(lib)} rows and {len(le)} events agree: rows to {worst:.2g}, times to "
          f"{times:.2g}, states at events to {states:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
