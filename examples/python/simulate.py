#!/usr/bin/env python3
"""Drives a model compiled by `mech build` from Python, with ctypes only.

Loads the shared library (default ./libdouble_pendulum.so), reads its model
info struct, simulates from the model's init state with PREFIX_simulate
(asking for the number of rows first), prints a few rows and checks that the
relative energy drift |E(end) - E(0)| / |E(0)| is below 1e-6 (exit 1 if not).

Usage: simulate.py [LIBRARY] [--prefix NAME] [--until T] [--dt H]
See README.md for the commands that build the library.
"""
import argparse
import ctypes
import math
import os
import sys

ABI_VERSION = 3
OK = 0
BUFFER_TOO_SMALL = 5
STATUS_NAMES = {
    0: "OK", 1: "SINGULAR_MASS_MATRIX", 3: "REDUNDANT_CONSTRAINTS", 4: "NON_FINITE",
    5: "BUFFER_TOO_SMALL", 6: "NULL_POINTER", 7: "INVALID_ARGUMENT", 8: "STEP_FAILED",
    9: "OUT_OF_MEMORY", 10: "PROJECTION_FAILED", 11: "CONTACT_VIOLATED", 12: "IMPACT_FAILED",
    13: "RESET_FAILED", 14: "TOO_MANY_SWITCHES", 15: "NORMAL_NEGATIVE",
}

c_double_p = ctypes.POINTER(ctypes.c_double)
c_names = ctypes.POINTER(ctypes.c_char_p)


class ModelInfo(ctypes.Structure):
    """Mirrors PREFIX_model_info in the generated header."""
    _fields_ = [
        ("abi_version", ctypes.c_int),
        ("name", ctypes.c_char_p),
        ("nq", ctypes.c_int),
        ("np", ctypes.c_int),
        ("nc", ctypes.c_int),
        ("nout", ctypes.c_int),
        ("coord_names", c_names),
        ("param_names", c_names),
        ("constraint_names", c_names),
        ("output_names", c_names),
        ("param_defaults", c_double_p),
        ("init_state", c_double_p),
        ("nu", ctypes.c_int),
        ("nevents", ctypes.c_int),
        ("ncontacts", ctypes.c_int),
        ("event_names", c_names),
        ("contact_names", c_names),
        ("nfrictions", ctypes.c_int),
        ("friction_names", c_names),
    ]


class MechError(Exception):
    pass


def check(status, call):
    if status != OK:
        raise MechError(f"{call} failed: {STATUS_NAMES.get(status, 'unknown')} ({status})")


def bind(lib, prefix):
    """Looks the functions up under PREFIX_ and declares their signatures."""
    def fn(name, restype, *argtypes):
        f = getattr(lib, f"{prefix}_{name}")
        f.restype, f.argtypes = restype, list(argtypes)
        return f

    return {
        "model": fn("model", ctypes.POINTER(ModelInfo)),
        "abi_version": fn("abi_version", ctypes.c_int),
        "energy": fn("energy", ctypes.c_int, ctypes.c_double, c_double_p, c_double_p,
                     c_double_p),
        "simulate": fn("simulate", ctypes.c_int, c_double_p, c_double_p, ctypes.c_double,
                       ctypes.c_double, ctypes.c_double, ctypes.c_double, c_double_p,
                       ctypes.c_size_t, ctypes.POINTER(ctypes.c_size_t)),
    }


def names(array, count):
    return [array[i].decode() for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", nargs="?", default="./libdouble_pendulum.so",
                        help="the library built by mech build (default: ./libdouble_pendulum.so)")
    parser.add_argument("--prefix", default="double_pendulum",
                        help="the --prefix given to mech build (default: double_pendulum)")
    parser.add_argument("--until", type=float, default=10.0, help="end time in s (10)")
    parser.add_argument("--dt", type=float, default=0.5, help="sampling interval in s (0.5)")
    args = parser.parse_args()
    rtol, atol = 1e-10, 1e-12

    try:
        # A path, not a name for the dynamic linker to search for.
        path = os.path.abspath(args.library) if os.path.exists(args.library) else args.library
        lib = ctypes.CDLL(path)
        f = bind(lib, args.prefix)
    except (OSError, AttributeError) as e:
        print(f"simulate.py: {e}", file=sys.stderr)
        return 1
    if f["abi_version"]() != ABI_VERSION:
        print(f"simulate.py: ABI version {f['abi_version']()}, expected {ABI_VERSION}",
              file=sys.stderr)
        return 1

    info = f["model"]().contents
    nq, np_ = info.nq, info.np
    coords = names(info.coord_names, nq)
    params = names(info.param_names, np_)
    print(f"model {info.name.decode()}: {nq} coordinates, {np_} params, "
          f"{info.nc} constraints, {info.nout} outputs")
    print("coordinates:", ", ".join(coords))
    print("params:", ", ".join(f"{n} = {info.param_defaults[i]:g}" for i, n in enumerate(params)))

    x0 = (ctypes.c_double * (2 * nq))(*info.init_state[:2 * nq])
    p = (ctypes.c_double * max(np_, 1))(*info.param_defaults[:np_])
    rows = ctypes.c_size_t(0)
    try:
        # Ask for the number of rows: max_rows = 0 gives BUFFER_TOO_SMALL with *rows set.
        status = f["simulate"](x0, p, args.until, args.dt, rtol, atol, None, 0,
                               ctypes.byref(rows))
        if status != BUFFER_TOO_SMALL:
            check(status, f"{args.prefix}_simulate (size query)")
        width = 1 + 2 * nq
        out = (ctypes.c_double * (rows.value * width))()
        check(f["simulate"](x0, p, args.until, args.dt, rtol, atol, out, rows.value,
                            ctypes.byref(rows)), f"{args.prefix}_simulate")
        table = [out[r * width:(r + 1) * width] for r in range(rows.value)]

        print(f"\n{rows.value} rows; the first and the last three:")
        header = ["t"] + coords + [c + "'" for c in coords]
        print(" ".join(f"{h:>12}" for h in header))
        shown = table if len(table) <= 6 else table[:3] + [None] + table[-3:]
        for row in shown:
            print(" " * 11 + "..." if row is None else " ".join(f"{v:12.6f}" for v in row))

        def energy(row):
            x = (ctypes.c_double * (2 * nq))(*row[1:])
            t_v = (ctypes.c_double * 2)()
            check(f["energy"](row[0], x, p, t_v), f"{args.prefix}_energy")
            return t_v[0] + t_v[1]

        e0, e1 = energy(table[0]), energy(table[-1])
    except MechError as e:
        print(f"simulate.py: {e}", file=sys.stderr)
        return 1

    drift = abs(e1 - e0) / abs(e0) if e0 != 0 else abs(e1 - e0)
    print(f"\nenergy: E(0) = {e0:.12g} J, E({table[-1][0]:g}) = {e1:.12g} J")
    print(f"relative energy drift = {drift:.3e}")
    if not (math.isfinite(drift) and drift < 1e-6):
        print("simulate.py: the energy drift is above 1e-6", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
