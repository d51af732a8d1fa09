"""An LQR controller for the cart pole, designed from mech's linearization
and checked in mech's simulation of the closed loop.

1. `m.linearize(...)["state_space"]` gives A and B of examples/cart_pole.mech
   at the upright state (x, th, x', th').
2. SciPy's `solve_continuous_are` gives the LQR gain K for Q = diag(10, 100,
   1, 1) and R = 1: F = -K x minimises the integral of x'Qx + F'RF.
3. examples/cart_pole_lqr.mech writes F = -K x as a generalized force with
   the gains as params; `mech linearize` of that model gives the closed
   loop's A, whose eigenvalues must be those of A - B K, and `simulate` from
   a tilt of 0.2 rad must bring the pole up and the cart back.

Run from the repository's root with the Python package built:
    PYTHONPATH=build/python /usr/bin/python3 examples/python/cart_pole_lqr.py
"""
import pathlib

import numpy as np
from scipy.linalg import solve_continuous_are

import mech

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAINS = ("k_x", "k_th", "k_xd", "k_thd")


def lqr_gain():
    plant = mech.load(str(ROOT / "examples" / "cart_pole.mech"))
    space = plant.linearize(at={"x": 0, "th": 0})["state_space"]
    A, B = space["A"], space["B"]
    Q, R = np.diag([10.0, 100.0, 1.0, 1.0]), np.array([[1.0]])
    P = solve_continuous_are(A, B, Q, R)
    K = np.linalg.solve(R, B.T @ P)
    return A, B, K


def closed_loop(K):
    loop = mech.load(str(ROOT / "examples" / "cart_pole_lqr.mech"))
    loop.set(**{name: float(k) for name, k in zip(GAINS, K[0])})
    A_loop = loop.linearize(at={"x": 0, "th": 0})["state_space"]["A"]
    run = loop.simulate(until=8, dt=0.01)
    return loop, A_loop, run


def main():
    A, B, K = lqr_gain()
    _, A_loop, run = closed_loop(K)
    designed = np.sort_complex(np.linalg.eigvals(A - B @ K))
    simulated = np.sort_complex(np.linalg.eigvals(A_loop))
    print("K =", np.array2string(K[0], precision=6))
    print("eigenvalues of A - B K:", np.array2string(designed, precision=4))
    print("eigenvalues of the closed loop's A (mech):", np.array2string(simulated, precision=4))
    print(f"after 8 s: x = {run['x'][-1]:.2e} m, th = {run['th'][-1]:.2e} rad")
    return K, designed, simulated, run


if __name__ == "__main__":
    main()
