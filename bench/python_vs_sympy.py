#!/usr/bin/python3
"""The Python package against what a Python user does today: SymPy's
LagrangesMethod for the equations, lambdify for the right-hand side, SciPy's
solve_ivp for the motion, all on the double pendulum of
examples/double_pendulum.mech, side by side in one run:

1. derivation: mech.load + the equations, against LagrangesMethod +
   form_lagranges_equations + the mass matrix and forcing, both from the
   model (mech from its .mech file, SymPy from the same physics written in
   sympy.physics.mechanics);
2. one right-hand-side call from Python: m.rhs(t, y) against the lambdified
   solve of M q'' = f, median over many calls with y a contiguous float64
   array; and the kernel's own time, measured by calling m.rhs's kernel
   many times inside one call (mech.sweep is not used: simulate's rhs count
   and time give it), so that the call overhead is the difference;
3. a 10 s simulation at rtol = atol = 1e-8: m.simulate against solve_ivp
   (DOP853, the same tolerances) on the lambdified right-hand side;
4. 1000 runs of 10 s from starts over th1 in [0.1, 3]: mech.sweep on 2
   threads against 1000 solve_ivp calls.

Usage: PYTHONPATH=build/python bench/python_vs_sympy.py
Prints a Markdown table (seconds, and the ratio SymPy+SciPy / mech)."""
import os
import statistics
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "examples/double_pendulum.mech")

try:
    import sympy as sp
    import sympy.physics.mechanics as me
    from scipy.integrate import solve_ivp
except ImportError as error:
    print(f"python_vs_sympy.py: needs SymPy and SciPy ({error})", file=sys.stderr)
    sys.exit(3)

import mech


def best(f, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - start)
    return min(times), result


def sympy_derivation():
    q1, q2 = me.dynamicsymbols("q1 q2")
    m1, m2, l1, l2, g = sp.symbols("m1 m2 l1 l2 g")
    N = me.ReferenceFrame("N")
    O = me.Point("O")
    O.set_vel(N, 0)
    P1 = O.locatenew("P1", l1 * (sp.sin(q1) * N.x - sp.cos(q1) * N.y))
    P2 = P1.locatenew("P2", l2 * (sp.sin(q2) * N.x - sp.cos(q2) * N.y))
    P1.set_vel(N, P1.pos_from(O).dt(N))
    P2.set_vel(N, P2.pos_from(O).dt(N))
    b1, b2 = me.Particle("b1", P1, m1), me.Particle("b2", P2, m2)
    b1.potential_energy = m1 * g * P1.pos_from(O).dot(N.y)
    b2.potential_energy = m2 * g * P2.pos_from(O).dot(N.y)
    L = me.Lagrangian(N, b1, b2)
    lm = me.LagrangesMethod(L, [q1, q2])
    lm.form_lagranges_equations()
    return lm, (q1, q2), (m1, m2, l1, l2, g)


def sympy_rhs(lm, q, p):
    M, f = lm.mass_matrix, lm.forcing
    qd = [sp.diff(x, "t") for x in q]
    ys = sp.symbols("y0:4")
    subs = {q[0]: ys[0], q[1]: ys[1], qd[0]: ys[2], qd[1]: ys[3]}
    Mf = sp.lambdify([ys, p], M.subs(subs), "numpy")
    ff = sp.lambdify([ys, p], f.subs(subs), "numpy")
    values = (1.0, 1.0, 1.0, 0.8, 9.81)

    def rhs(t, y):
        a = np.linalg.solve(np.asarray(Mf(y, values), dtype=float),
                            np.asarray(ff(y, values), dtype=float).ravel())
        return np.array([y[2], y[3], a[0], a[1]])

    return rhs


def main():
    rows = []
    t_mech, m = best(lambda: (lambda model: (model, model.equations))(mech.load(MODEL))[0], 3)
    t_sympy, (lm, q, p) = best(sympy_derivation, 3)
    t_lambdify, rhs_sympy = best(lambda: sympy_rhs(lm, q, p), 3)
    rows.append(("derivation (load + equations; LagrangesMethod)", t_mech, t_sympy))
    rows.append(("... + right-hand side ready (lambdify)", t_mech, t_sympy + t_lambdify))

    rhs = m.rhs
    y = np.array([0.5, -0.3, 0.1, 0.2])
    assert np.allclose(rhs(0.0, y), rhs_sympy(0.0, y), rtol=1e-12)
    calls = 200_000

    def per_call(f, n):
        samples = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(n):
                f(0.0, y)
            samples.append((time.perf_counter() - start) / n)
        return statistics.median(samples)

    c_mech = per_call(rhs, calls)
    c_sympy = per_call(rhs_sympy, calls // 20)
    rows.append(("one rhs(t, y) call from Python", c_mech, c_sympy))

    y0 = [0.5, -0.3, 0.0, 0.0]
    grid = np.linspace(0, 10, 1001)
    t_sim, r = best(lambda: m.simulate(until=10, dt=0.01, rtol=1e-8, atol=1e-8))
    t_ivp, sol = best(lambda: solve_ivp(rhs_sympy, (0, 10), y0, method="DOP853", rtol=1e-8,
                                        atol=1e-8, t_eval=grid), 3)
    assert abs(sol.y[0, -1] - r["th1"][-1]) < 1e-5
    rows.append(("10 s simulation, rtol = atol = 1e-8", t_sim, t_ivp))
    kernel = r.summary["integrate_seconds"] / max(r.summary["rhs_evaluations"], 1)

    th1 = np.linspace(0.1, 3.0, 1000)
    t_sweep, s = best(lambda: mech.sweep(m, grid={"th1": th1}, summary=["at_end(th1)"],
                                         until=10, rtol=1e-8, atol=1e-8, threads=2,
                                         init={"th2": 0, "th1'": 0, "th2'": 0},
                                         progress=False), 3)
    sample = th1[::50]
    start = time.perf_counter()
    for a in sample:
        solve_ivp(rhs_sympy, (0, 10), [a, 0, 0, 0], method="DOP853", rtol=1e-8, atol=1e-8,
                  t_eval=grid)
    t_loop = (time.perf_counter() - start) * len(th1) / len(sample)
    rows.append(("1000 runs of 10 s (mech.sweep on 2 threads; solve_ivp loop, "
                 "extrapolated from 20)", t_sweep, t_loop))

    print("| step | mech (s) | SymPy + SciPy (s) | ratio |")
    print("|---|---|---|---|")
    for name, a, b in rows:
        print(f"| {name} | {a:.3g} | {b:.3g} | {b / a:.0f}x |")
    print()
    print(f"rhs call from Python: {c_mech * 1e9:.0f} ns; the integration's own time per rhs "
          f"evaluation (kernel and integrator): {kernel * 1e9:.0f} ns; overhead about "
          f"{(c_mech - kernel) * 1e9:.0f} ns")


if __name__ == "__main__":
    main()
