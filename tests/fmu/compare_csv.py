"""Compares an FMU's trajectory with `mech simulate`'s, at their common times.

    compare_csv.py REFERENCE.csv FMU.csv [--tol T] [--floor F] [--label TEXT]

REFERENCE is `mech simulate`'s CSV (t, coordinates, velocities q', then
multipliers and outputs); FMU the CSV of tests/fmu/fmu_run or of fmpy (t,
then variables by name). Rows are paired by time, so the FMU may sample a
subset of the reference's times (and a few more, at events). Each
column's difference counts against the column's magnitude in the
reference (max |value|, at least FLOOR), so that one tolerance serves
angles, lengths and forces alike.
The coordinates and velocities must all be in the FMU's columns (as `q'`
or `der(q)`); other columns are compared where both have them. The two
runs must also end at the same time (to T relative to max(1, t)): a stop
event ends both.

Exit status 0 when every difference is within T, 1 otherwise (with the
largest differences), 2 for unreadable files. Standard library only: the
test scripts run it with the system python3. Also imported by
tests/python/test_fmu.py (compare()).
"""
import argparse
import csv
import math
import sys

# Rows whose times differ by less than this (relative to max(1, |t|)) are
# paired: the output grids agree to rounding, and a located event time
# to far better than the grid's spacing.
TIME_MATCH = 1e-8


class Mismatch(Exception):
    pass


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0][0] != "t":
        raise ValueError(f"{path}: no CSV header starting with t")
    return rows[0], [[float(v) for v in r] for r in rows[1:] if r]


def state_columns(header):
    """The reference's coordinates and velocities: names q with a column q'."""
    names = set(header)
    coords = [n for n in header[1:] if n + "'" in names]
    return coords + [c + "'" for c in coords]


def column_map(ref_header, fmu_header):
    """For each reference column, the FMU's column index (by name, or der(q) for q')."""
    index = {name: i for i, name in enumerate(fmu_header)}
    mapping = {}
    for j, name in enumerate(ref_header[1:], start=1):
        if name in index:
            mapping[j] = index[name]
        elif name.endswith("'") and f"der({name[:-1]})" in index:
            mapping[j] = index[f"der({name[:-1]})"]
    return mapping


def pair_rows(ref_rows, fmu_rows):
    """(FMU row, the reference rows at its time) for each FMU row that has some."""
    pairs, i = [], 0
    for row in fmu_rows:
        t = row[0]
        width = TIME_MATCH * max(1.0, abs(t))
        while i < len(ref_rows) and ref_rows[i][0] < t - width:
            i += 1
        same = []
        k = i
        while k < len(ref_rows) and ref_rows[k][0] <= t + width:
            same.append(ref_rows[k])
            k += 1
        if same:
            pairs.append((row, same))
    return pairs


def differences(ref_header, ref_rows, fmu_header, fmu_rows, end_tol, floor=1e-3):
    """The scaled differences at the paired rows, largest first, each
    (difference, column, t, reference value, FMU value), and a summary;
    raises Mismatch when the two cannot be compared."""
    mapping = column_map(ref_header, fmu_header)
    missing = [n for n in state_columns(ref_header) if ref_header.index(n) not in mapping]
    if missing:
        raise Mismatch(f"the FMU has no column for {', '.join(missing)} (it has {', '.join(fmu_header)})")
    if not fmu_rows or not ref_rows:
        raise Mismatch("no rows")
    # The end: STOP, or a stop event's time, which each run locates to its
    # own accuracy; the rows there are compared even where their times
    # differ by more than TIME_MATCH.
    t_ref, t_fmu = ref_rows[-1][0], fmu_rows[-1][0]
    if not abs(t_ref - t_fmu) <= end_tol * max(1.0, abs(t_ref)):
        raise Mismatch(f"the runs end at different times: {t_ref!r} (mech simulate), {t_fmu!r} (FMU)")
    pairs = pair_rows(ref_rows, fmu_rows)
    if not pairs or pairs[-1][0] is not fmu_rows[-1]:
        pairs.append((fmu_rows[-1], [ref_rows[-1]]))
    # The FMU's rows off the reference's grid are those at events (fmpy
    # records them): a few. Fewer pairs means the grids do not match, and
    # the comparison would say little.
    if len(pairs) < max(2, 0.9 * len(fmu_rows)):
        raise Mismatch(f"only {len(pairs)} of the FMU's {len(fmu_rows)} rows share a time with "
                       f"the reference's")
    scale = {j: max(floor, max(abs(r[j]) for r in ref_rows)) for j in mapping}
    worst = []
    for row, candidates in pairs:
        # At an event the reference has the rows before and after it at one
        # time: the FMU's row is held to the nearer of them.
        rows = [[(abs(row[i] - ref[j]) / scale[j], ref_header[j], row[0], ref[j], row[i])
                 for j, i in mapping.items()] for ref in candidates]
        worst.extend(min(rows, key=lambda diffs: max(_key(d) for d in diffs)))
    worst.sort(key=_key, reverse=True)
    compared = ", ".join(ref_header[j] for j in sorted(mapping))
    others = [ref_header[j] for j in range(1, len(ref_header)) if j not in mapping]
    summary = (f"{len(pairs)} rows, columns {compared}" + (f" (not in the FMU: {', '.join(others)})"
               if others else "") + f"; largest scaled difference {worst[0][0]:.3g} "
               f"({worst[0][1]} at t = {worst[0][2]:.17g})")
    return worst, summary


def _key(difference):
    """A difference's size for sorting, a NaN the largest."""
    return math.inf if math.isnan(difference[0]) else difference[0]


def compare(ref_header, ref_rows, fmu_header, fmu_rows, tol, floor=1e-3):
    """Returns a one-line summary; raises Mismatch saying what differs."""
    worst, summary = differences(ref_header, ref_rows, fmu_header, fmu_rows, tol, floor)
    if _key(worst[0]) <= tol:
        return summary
    # Where it began to differ says more than where it differs most.
    first = min((d for d in worst if _key(d) > tol), key=lambda d: d[2])
    summary += (f"; first above {tol:g} at t = {first[2]:.17g} ({first[1]}: {first[3]:.17g} "
                f"against {first[4]:.17g})")
    lines = [f"  {name} at t = {t:.17g}: mech simulate {a:.17g}, FMU {b:.17g}, "
             f"difference {abs(a - b):.3g} (scaled {d:.3g})" for d, name, t, a, b in worst[:5]]
    raise Mismatch(f"{summary}, above the tolerance {tol:g}:\n" + "\n".join(lines))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("reference")
    parser.add_argument("fmu")
    parser.add_argument("--tol", type=float, default=1e-6)
    parser.add_argument("--floor", type=float, default=1e-3,
                        help="the least magnitude a column is measured against")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    label = f"{args.label}: " if args.label else ""
    try:
        ref_header, ref_rows = read_csv(args.reference)
        fmu_header, fmu_rows = read_csv(args.fmu)
    except (OSError, ValueError) as error:
        print(f"{label}{error}")
        return 2
    try:
        print(label + compare(ref_header, ref_rows, fmu_header, fmu_rows, args.tol, args.floor))
    except Mismatch as mismatch:
        print(f"{label}{mismatch}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
