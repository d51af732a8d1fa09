"""The cost of an input given to simulate as a Python callable: the same
run of the cart pole (examples/cart_pole.mech) with F = 0 written as text
and as `lambda t, x: 0.0`, the law's calls counted in a third run. The
overhead per call is the difference of the two runs' times over the number
of calls; the callable's own body (a constant) costs about what a Python
call costs, which is reported beside it (a bare call of the lambda from
Python, timed with timeit). Run from the repository's root with the Python
package built:
    PYTHONPATH=build/python /usr/bin/python3 bench/python_input_law.py [RUNS]
"""
import pathlib
import sys
import time
import timeit

import numpy as np

import mech

ROOT = pathlib.Path(__file__).resolve().parents[1]


def best_of(runs, run):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    plant = mech.load(str(ROOT / "examples" / "cart_pole.mech"))
    options = dict(until=20, dt=0.01, init={"th": 0.2})
    zero = lambda t, x: 0.0  # noqa: E731
    calls = [0]

    def counted(t, x):
        calls[0] += 1
        return 0.0

    plant.simulate(input={"F": "0"}, **options)  # compile once (the kernel cache)
    text = best_of(runs, lambda: plant.simulate(input={"F": "0"}, **options))
    law = best_of(runs, lambda: plant.simulate(input={"F": zero}, **options))
    plant.simulate(input={"F": counted}, **options)
    state = np.zeros(4)
    bare = min(timeit.repeat(lambda: zero(0.0, state), number=100000, repeat=5)) / 100000
    per_call = (law - text) / calls[0]
    print(f"cart pole, 20 s of motion: {calls[0]} calls of the law")
    print(f"  input as text:     {text * 1e3:8.2f} ms")
    print(f"  input as callable: {law * 1e3:8.2f} ms")
    print(f"  per call: {per_call * 1e6:.2f} us in all, of which a bare Python call of the "
          f"lambda {bare * 1e6:.2f} us: mech's own overhead {(per_call - bare) * 1e6:.2f} us")


if __name__ == "__main__":
    main()
