"""Compares two CSV tables of simulation samples column by column.

Usage: compare_csv.py REFERENCE.csv GOT.csv COLUMNS TOLERANCE
Both tables may have a header line (skipped when it does not parse). The
first COLUMNS columns (t, q, q') of every row must agree to TOLERANCE in
absolute value, and both must have the same number of rows. Prints one line;
exits 1 on a mismatch."""
import sys


def rows(path, columns):
    table = []
    for line in open(path):
        try:
            table.append([float(v) for v in line.split(",")[:columns]])
        except ValueError:
            continue  # the header
    return table


def main():
    ref_path, got_path, columns, tol = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    ref, got = rows(ref_path, columns), rows(got_path, columns)
    if len(ref) != len(got) or not ref:
        print(f"{len(ref)} rows in {ref_path}, {len(got)} in {got_path}")
        return 1
    worst, where = 0.0, None
    for r, g in zip(ref, got):
        for i, (a, b) in enumerate(zip(r, g)):
            if abs(a - b) > worst:
                worst, where = abs(a - b), (r[0], i)
    if worst > tol:
        print(f"largest difference {worst:.3g} > {tol:g} at t = {where[0]:g}, column {where[1]}")
        return 1
    print(f"{len(ref)} rows agree, largest difference {worst:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
