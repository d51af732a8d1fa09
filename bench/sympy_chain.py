#!/usr/bin/python3
"""SymPy baseline for the derivation benchmark: Lagrange's equations of the
n-link chain of point masses with sympy.physics.mechanics.LagrangesMethod,
timed like bench_derive_chain (mass matrix and forcing).
Usage: sympy_chain.py N [N ...]; prints one line per N: n seconds."""
import sys
import time

import sympy as sp
from sympy.physics import mechanics as me


def derive(n):
    q = me.dynamicsymbols(f"th1:{n + 1}")
    qd = [me.dynamicsymbols(f"th{i + 1}", 1) for i in range(n)]
    m, l, g, t = sp.symbols("m l g t")
    frame = me.ReferenceFrame("N")
    origin = me.Point("O")
    origin.set_vel(frame, 0)
    point = origin
    particles = []
    for i in range(n):
        nxt = point.locatenew(f"P{i}", l * sp.sin(q[i]) * frame.x - l * sp.cos(q[i]) * frame.y)
        nxt.set_vel(frame, nxt.pos_from(origin).dt(frame))
        bob = me.Particle(f"B{i}", nxt, m)
        bob.potential_energy = m * g * nxt.pos_from(origin).dot(frame.y)
        particles.append(bob)
        point = nxt
    lagrangian = me.Lagrangian(frame, *particles)
    method = me.LagrangesMethod(lagrangian, q)
    method.form_lagranges_equations()
    return method.mass_matrix, method.forcing


def main():
    for arg in sys.argv[1:]:
        n = int(arg)
        start = time.perf_counter()
        derive(n)
        print(f"{n} {time.perf_counter() - start:.4f}", flush=True)


if __name__ == "__main__":
    main()
