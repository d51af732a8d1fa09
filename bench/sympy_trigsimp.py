"""SymPy's simplifiers on the expressions `mech equations` prints, for
bench/README.md: the heavy top's kinetic energy and mass matrix built from
z-x-z Euler angles (as examples/heavy_top.mech does), simplified with
trigsimp and simplify; each timed once, skipped past 120 s (run under
`timeout`). Prints one Markdown row per expression."""
import signal
import time

import sympy as sp


class Timeout(Exception):
    pass


def alarm(_signum, _frame):
    raise Timeout()


def rot_z(a):
    return sp.Matrix([[sp.cos(a), -sp.sin(a), 0], [sp.sin(a), sp.cos(a), 0], [0, 0, 1]])


def rot_x(a):
    return sp.Matrix([[1, 0, 0], [0, sp.cos(a), -sp.sin(a)], [0, sp.sin(a), sp.cos(a)]])


def heavy_top():
    t = sp.symbols("t")
    m, r, d = sp.symbols("m r d", positive=True)
    phi, theta, psi = [sp.Function(n)(t) for n in ("phi", "theta", "psi")]
    R = rot_z(phi) * rot_x(theta) * rot_z(psi)
    omega_body = R.T * R.diff(t)  # skew matrix of the body angular velocity
    w = sp.Matrix([omega_body[2, 1], omega_body[0, 2], omega_body[1, 0]])
    inertia = sp.diag(m * r**2 / 4, m * r**2 / 4, m * r**2 / 2)
    centre = d * R * sp.Matrix([0, 0, 1])
    v = centre.diff(t)
    T = (w.T * inertia * w)[0] / 2 + m * (v.T * v)[0] / 2
    qd = [q.diff(t) for q in (phi, theta, psi)]
    M = sp.Matrix(3, 3, lambda i, j: sp.diff(T, qd[i], qd[j]))
    return [("heavy top T", sp.expand(T)), ("heavy top M[phi, phi]", sp.expand(M[0, 0])),
            ("heavy top M[phi, theta]", sp.expand(M[0, 1]))]


def main():
    signal.signal(signal.SIGALRM, alarm)
    print("| expression | SymPy trigsimp (s) | its size (chars) | SymPy simplify (s) |")
    print("|---|---|---|---|")
    for name, e in heavy_top():
        cells = []
        for f in (sp.trigsimp, sp.simplify):
            signal.alarm(120)
            start = time.perf_counter()
            try:
                result = f(e)
                cells.append("%.2f" % (time.perf_counter() - start))
                if f is sp.trigsimp:
                    cells.append(str(len(str(result))))
            except Timeout:
                cells.append("skipped (> 120 s)")
                if f is sp.trigsimp:
                    cells.append("-")
            finally:
                signal.alarm(0)
        print("| %s | %s | %s | %s |" % (name, cells[0], cells[1], cells[2]))


if __name__ == "__main__":
    main()
