"""Compares a compiled model (through the compare_rhs helper) with `mech eval`
at random states: q'', T, V, the multipliers, the outputs and the mass matrix
must agree to 1e-10 * (1 + ||a||_inf) in the max norm, and so must the
library's forcing f with M q'' - C^T lambda and its C^T lambda with eval's
reaction (using eval's M, q'' and reaction).

Usage: compare_eval.py MECH MODEL.mech HELPER [--states N] [--seed S] [--set p=v ...]
The helper must be compare_rhs.c built against the model's library; --set
values (plain numbers, SI) go to both mech eval and the helper. The helper is
called at the state mech eval reports (its q, qd and t), which is the state
given unless eval put it onto the model's constraints first.
Prints one summary line; exits 1 on a mismatch."""
import argparse
import json
import random
import subprocess
import sys


def mech_eval(mech, model, at, sets):
    args = [mech, "eval", model, "--json"] + sets
    if at is not None:
        args += ["--at", at]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def max_norm(v):
    return max((abs(x) for x in v), default=0.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mech")
    ap.add_argument("model")
    ap.add_argument("helper")
    ap.add_argument("--states", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
    sets = [s for p in a.set for s in ("--set", p)]

    names = list(mech_eval(a.mech, a.model, None, sets)["q"])
    rng = random.Random(a.seed)
    states = []
    for _ in range(a.states):
        t = rng.uniform(0, 2)
        q = [rng.uniform(-1.5, 1.5) for _ in names]
        qd = [rng.uniform(-2, 2) for _ in names]
        states.append((t, q, qd))

    refs, evaluated = [], []
    for t, q, qd in states:
        at = ", ".join([f"{n}={v!r}" for n, v in zip(names, q)] +
                       [f"{n}'={v!r}" for n, v in zip(names, qd)] + [f"t={t!r}"])
        ref = mech_eval(a.mech, a.model, at, sets)
        refs.append((at, ref))
        evaluated.append([ref["t"]] + [ref["q"][n] for n in names] + [ref["qd"][n] for n in names])
    lines = "".join(" ".join(repr(v) for v in state) + "\n" for state in evaluated)
    got = subprocess.run([a.helper] + a.set, input=lines, check=True, capture_output=True,
                         text=True).stdout.splitlines()

    nq, worst, failures = len(names), 0.0, 0
    for (at, ref), line in zip(refs, got):
        lib = [float(v) for v in line.split()]
        nc, nout = len(ref["lambda"]), len(ref["outputs"])
        sizes = [("xdot", 2 * nq), ("T, V", 2), ("lambda", nc), ("outputs", nout),
                 ("M", nq * nq), ("f", nq), ("residuals", 2 * nc), ("C", nc * nq)]
        got_parts, at_value = {}, 0
        for what, size in sizes:
            got_parts[what] = lib[at_value:at_value + size]
            at_value += size
        if at_value != len(lib):
            print(f"{a.model}: the helper printed {len(lib)} values, expected {at_value}")
            failures += 1
            continue
        M = [v for row in ref["mass_matrix"] for v in row]
        qdd = list(ref["qdd"].values())
        reaction = [ref["reaction"].get(n, 0.0) for n in names]
        C, lam = got_parts["C"], got_parts["lambda"]
        pieces = {
            "q'": (got_parts["xdot"][:nq], [ref["qd"][n] for n in names]),
            "q''": (got_parts["xdot"][nq:], qdd),
            "T, V": (got_parts["T, V"], [ref["T"], ref["V"]]),
            "lambda": (lam, list(ref["lambda"].values())),
            "outputs": (got_parts["outputs"], list(ref["outputs"].values())),
            "mass matrix": (got_parts["M"], M),
            "forcing = M q'' - C^T lambda": (
                got_parts["f"],
                [sum(M[i * nq + j] * qdd[j] for j in range(nq)) - reaction[i]
                 for i in range(nq)]),
            "C^T lambda = reaction": (
                [sum(C[k * nq + i] * lam[k] for k in range(nc)) for i in range(nq)], reaction),
        }
        for what, (x, y) in pieces.items():
            if len(x) != len(y):
                print(f"{a.model}: {what} at {at}: {len(x)} values from the library, "
                      f"{len(y)} from mech eval")
                failures += 1
                continue
            err = max_norm([u - v for u, v in zip(x, y)])
            scale = 1 + max_norm(y)
            worst = max(worst, err / scale)
            if err > 1e-10 * scale:
                print(f"{a.model}: {what} at {at}:\n  library   {x}\n  mech eval {y}\n"
                      f"  difference {err:.3g}")
                failures += 1
    if len(got) < len(states) or failures:
        print(f"{a.model}: {failures} mismatches")
        return 1
    print(f"{a.model}: {len(states)} states agree, largest relative difference {worst:.2g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
