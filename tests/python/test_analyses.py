# The analyses and the equations through the Python package, against
# closed forms: the double pendulum's normal modes (det(K - w^2 M) = 0 by
# hand), its equilibria, its energy integral; the equations in SymPy
# evaluated at numbers against the textbook mass matrix; the right-hand
# side against the accelerations written out by hand.
import math

import numpy as np
import pytest

import mech
from test_model import double_pendulum_accelerations


@pytest.fixture
def pendulum(root):
    return mech.load(str(root / "examples/double_pendulum.mech"))


def normal_mode_frequencies(m1, m2, l1, l2, g):
    mu = m2 / (m1 + m2)
    root_ = math.sqrt((l1 + l2) ** 2 - 4 * (1 - mu) * l1 * l2)
    scale = g / (2 * (1 - mu) * l1 * l2)
    return math.sqrt(scale * (l1 + l2 - root_)), math.sqrt(scale * (l1 + l2 + root_))


def test_linearize_normal_modes(pendulum):
    lin = pendulum.linearize(at={"th1": 0, "th2": 0})
    assert lin["state"] == ["th1", "th2", "th1'", "th2'"]
    assert lin["A"].shape == (4, 4)
    assert lin["M"] == pytest.approx(np.array([[2.0, 0.8], [0.8, 0.64]]))
    frequencies = sorted(set(np.round(np.abs(lin["eigenvalues"].imag), 9)))
    assert frequencies == pytest.approx(normal_mode_frequencies(1, 1, 1, 0.8, 9.81), rel=1e-9)
    assert np.max(np.abs(lin["eigenvalues"].real)) < 1e-9


def test_equilibria(pendulum):
    found = pendulum.equilibria(box={"th1": (-3.2, 3.2), "th2": (-3.2, 3.2)})
    stable = [e for e in found if e["stable"]]
    assert len(stable) == 1 and stable[0]["q"] == {"th1": 0, "th2": 0}
    assert sorted(stable[0]["frequencies"]) == pytest.approx(
        normal_mode_frequencies(1, 1, 1, 0.8, 9.81), rel=1e-9)
    assert "Lagrange-Dirichlet" in stable[0]["criterion"]
    assert len(found) == 4


def test_conserved(pendulum):
    c = pendulum.conserved()
    assert c["energy_is_T_plus_V"] is True
    assert c["cyclic"] == []


def test_equations_text_latex_and_sympy(pendulum):
    eq = pendulum.equations
    assert eq.coordinates == ["th1", "th2"]
    assert "mass matrix M" in str(eq)
    assert str(eq.M[0][1]) == "m2*l1*l2*cos(th1 - th2)"
    assert eq.M[0][1]._repr_latex_().startswith("$") and "\\cos" in eq.M[0][1].latex
    assert "\\begin{pmatrix}" in eq._repr_latex_()
    sympy = pytest.importorskip("sympy", reason="SymPy is not installed (python3-sympy)")
    values = {"m1": 1.3, "m2": 0.7, "l1": 1.1, "l2": 0.9, "g": 9.81, "th1": 0.4, "th2": -0.9,
              "th1'": 0.25, "th2'": -1.5}
    subs = {sympy.Symbol(k): v for k, v in values.items()}
    M01 = float(eq.M[0][1].to_sympy().subs(subs))
    assert M01 == pytest.approx(0.7 * 1.1 * 0.9 * math.cos(0.4 + 0.9), rel=1e-14)
    # f and M in SymPy give the textbook accelerations.
    M = np.array([[float(e.to_sympy().subs(subs)) for e in row] for row in eq.M])
    f = np.array([float(e.to_sympy().subs(subs)) for e in eq.f])
    expected = double_pendulum_accelerations(1.3, 0.7, 1.1, 0.9, 9.81, 0.4, -0.9, 0.25, -1.5)
    assert np.linalg.solve(M, f) == pytest.approx(expected, rel=1e-12)
    T = eq.T.to_sympy()
    assert sympy.Symbol("th1'") in T.free_symbols


def test_rhs_callable(pendulum):
    rhs = pendulum.rhs
    assert rhs.states == 4
    x = np.array([0.7, -1.1, 0.3, -2.0])
    xdot = rhs(0.0, x)
    assert xdot[:2] == pytest.approx([0.3, -2.0])
    expected = double_pendulum_accelerations(1, 1, 1, 0.8, 9.81, 0.7, -1.1, 0.3, -2.0)
    assert xdot[2:] == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError):
        rhs(0.0, np.zeros(3))


def test_rhs_with_solve_ivp(pendulum):
    integrate = pytest.importorskip("scipy.integrate",
                                    reason="SciPy is not installed (python3-scipy)")
    solution = integrate.solve_ivp(pendulum.rhs, (0, 2), [0.5, -0.3, 0, 0], rtol=1e-10,
                                   atol=1e-12, t_eval=[2.0])
    r = pendulum.simulate(until=2, rtol=1e-12, atol=1e-12)
    assert solution.y[0, -1] == pytest.approx(r["th1"][-1], abs=1e-7)


def test_build_library(pendulum, tmp_path):
    import ctypes

    path = pendulum.build(tmp_path / "libdp.so", prefix="dp")
    lib = ctypes.CDLL(path)
    x = (ctypes.c_double * 4)(0.7, -1.1, 0.3, -2.0)
    p = (ctypes.c_double * 5)(1, 1, 1, 0.8, 9.81)
    out = (ctypes.c_double * 4)()
    assert lib.dp_rhs(ctypes.c_double(0), x, p, out) == 0
    expected = double_pendulum_accelerations(1, 1, 1, 0.8, 9.81, 0.7, -1.1, 0.3, -2.0)
    assert list(out)[2:] == pytest.approx(expected, rel=1e-12)


def test_analysis_errors(pendulum):
    with pytest.raises(mech.ModelError) as raised:
        pendulum.linearize(at={"nosuch": 1})
    assert "nosuch" in str(raised.value)
