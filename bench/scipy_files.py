"""What the SciPy baselines of the switching benchmarks (bench/impacts.sh,
bench/friction.sh) share: their run's options, and what they write: mech
simulate's CSV of samples and its events file, 17 significant digits."""


def add_run_arguments(parser, until):
    """--until (default `until`), --dt, --method, --rtol, --atol, -o and
    --events, as the baselines take them."""
    parser.add_argument("--until", type=float, default=until)
    parser.add_argument("--dt", type=float, default=0.01)
    parser.add_argument("--method", default="DOP853")
    parser.add_argument("--rtol", type=float, default=1e-10)
    parser.add_argument("--atol", type=float, default=1e-10)
    parser.add_argument("-o", dest="output")
    parser.add_argument("--events", dest="events")


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
