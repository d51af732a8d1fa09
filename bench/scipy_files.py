"""What the SciPy baselines of the switching benchmarks (bench/impacts.sh,
bench/friction.sh) write: mech simulate's CSV of samples and its events
file, 17 significant digits."""


def write_samples(path, columns, pieces):
    """The header t,COLUMNS..., then the rows of the pieces (numpy arrays)."""
    import numpy as np
    with open(path, "w") as out:
        out.write(",".join(["t"] + columns) + "\n")
        np.savetxt(out, np.vstack(pieces), fmt="%.17g", delimiter=",")


def write_events(path, columns, rows):
    """The header event,t,COLUMNS..., then each (name, t, values...) row."""
    with open(path, "w") as out:
        out.write(",".join(["event", "t"] + columns) + "\n")
        for name, *values in rows:
            out.write(name + "," + ",".join(f"{v:.17g}" for v in values) + "\n")
