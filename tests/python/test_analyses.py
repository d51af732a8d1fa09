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


def test_equations_text_and_latex(pendulum):
    eq = pendulum.equations
    assert eq.coordinates == ["th1", "th2"]
    assert "mass matrix M" in str(eq)
    assert str(eq.M[0][1]) == "m2*l1*l2*cos(th1 - th2)"
    assert eq.M[0][1]._repr_latex_().startswith("$") and "\\cos" in eq.M[0][1].latex
    assert "\\begin{pmatrix}" in eq._repr_latex_()


@pytest.mark.optional
def test_equations_to_sympy(pendulum):
    eq = pendulum.equations
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


def test_rhs_every_call_form_agrees(pendulum):
    # The fast call (float t, contiguous float64 x) and pybind11's (any
    # other form) give the same numbers: a list, a strided view, float32,
    # an int or NumPy float t, keywords.
    rhs = pendulum.rhs
    x = np.array([0.7, -1.1, 0.3, -2.0])
    expected = rhs(0.0, x)
    wide = np.zeros(8)
    wide[::2] = x
    for t, y in [(0, x), (np.float64(0), x), (0.0, list(x)), (0.0, wide[::2]), (0.0, tuple(x))]:
        assert np.array_equal(rhs(t, y), expected)
    assert np.array_equal(rhs(t=0.0, x=x), expected)
    assert rhs(0.0, x.astype(np.float32)) == pytest.approx(expected, rel=1e-6)
    assert rhs(0.0, x) is not rhs(0.0, x)  # a new array each call
    for bad in [np.zeros(5), np.zeros((2, 2)), "abc"]:
        with pytest.raises((ValueError, TypeError)):
            rhs(0.0, bad)
    with pytest.raises(TypeError):
        rhs(0.0)
    with pytest.raises(TypeError):
        rhs("now", x)


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


def test_steady_conical_pendulum(root):
    # A spherical pendulum turning at w about the vertical keeps the polar
    # angle th0 with cos(th0) = g/(l w^2); small oscillations about that
    # motion have w_osc^2 = w^2 (1 + 3 cos^2(th0)) (the textbook result).
    m = mech.load(str(root / "examples/spherical_pendulum.mech"))
    w, g = 3.7524, 9.81
    found = m.steady(rates={"phi'": w})
    assert found["turning"] == ["phi"]
    motions = [s for s in found["steady_motions"] if s["q"]["th"] > 0]
    assert len(motions) == 1
    th0 = math.acos(g / w**2)
    assert motions[0]["q"]["th"] == pytest.approx(th0, rel=1e-9)
    assert motions[0]["stable"] is True
    expected = w * math.sqrt(1 + 3 * math.cos(th0) ** 2)
    assert motions[0]["frequencies"] == pytest.approx([expected], rel=1e-9)
    assert "Routh" in motions[0]["criterion"]


def test_input_force_steady_state(root):
    # A driven damped oscillator m x'' + c x' + k x = F0 cos(w t): once the
    # transient (exp(-c t / 2m)) has died, x = A cos(w t - phi) with
    # A = F0 / sqrt((k - m w^2)^2 + (c w)^2), phi = atan2(c w, k - m w^2).
    m = mech.load(str(root / "examples/driven_oscillator.mech"))
    r = m.simulate(until=80, dt=0.05, rtol=1e-10, atol=1e-12, input={"F": "cos(1.5*t)"})
    mass, k, c, w = 1.0, 4.0, 0.4, 1.5
    A = 1 / math.hypot(k - mass * w**2, c * w)
    phi = math.atan2(c * w, k - mass * w**2)
    late = r.t >= 70
    assert r["x"][late] == pytest.approx(A * np.cos(w * r.t[late] - phi), abs=1e-5)
    # The input's matrix B = [0, 1/m] of the linearization.
    lin = m.linearize(at={"x": 0})
    assert lin["B"] == pytest.approx(np.array([[0.0], [1 / mass]]))
    with pytest.raises(mech.ModelError):
        m.simulate(until=1, input={"G": "1"})
    # eval: m x'' = F - k x - c x', the input given as a value or a signal
    # read at t; a call's inputs are its own (0 in the next call).
    q, qd = {"x": 0.1}, {"x": 0.2}
    assert m.eval(q=q, qd=qd, input={"F": 2.0})["qdd"] == pytest.approx([2 - 0.4 - 0.08])
    at_1 = m.eval(q=q, qd=qd, t=1.0, input={"F": "cos(1.5*t)"})["qdd"]
    assert at_1 == pytest.approx([math.cos(1.5) - 0.48], rel=1e-14)
    assert m.eval(q=q, qd=qd)["qdd"] == pytest.approx([-0.48], rel=1e-14)
    assert m.rhs(0.0, np.array([0.1, 0.2])) == pytest.approx([0.2, -0.48], rel=1e-14)


@pytest.mark.optional
def test_to_pandas(pendulum):
    pd = pytest.importorskip("pandas", reason="pandas is not installed (python3-pandas)")
    r = pendulum.simulate(until=1, dt=0.1)
    frame = r.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == r.columns
    assert len(frame) == len(r) == 11
    assert np.array_equal(frame["th1"].to_numpy(), r["th1"])
    assert np.array_equal(frame["t"].to_numpy(), r.t)


def test_linearize_state_space_with_outputs(root):
    # The cart pole upright: C and D of the pole's tip and of th'', from the
    # hand-derived [[M + m, m l], [m l, m l^2 + I]] [x''; th''] = [F; m g l th].
    m = mech.load(str(root / "examples" / "cart_pole.mech"))
    lin = m.linearize(at={"x": 0, "th": 0}, output=["x + 2*l*sin(th)", "th''"])
    space = lin["state_space"]
    assert space["A"].shape == (4, 4) and space["B"].shape == (4, 1)
    assert space["C"].shape == (2, 4) and space["D"].shape == (2, 1)
    M, mp, l, g = 1.0, 0.1, 0.5, 9.81
    a, b, d = M + mp, mp * l, mp * l * l + mp * (2 * l) ** 2 / 12
    det = a * d - b * b
    np.testing.assert_allclose(space["C"], [[1, 2 * l, 0, 0], [0, a * mp * g * l / det, 0, 0]],
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(space["D"], [[0], [-b / det]], rtol=1e-12, atol=1e-12)
    # Without outputs and inputs the shapes stay: B is 4 x 0, C and D 0 x ....
    plain = mech.load(str(root / "examples" / "double_pendulum.mech"))
    empty = plain.linearize(at={"th1": 0, "th2": 0})["state_space"]
    assert empty["B"].shape == (4, 0) and empty["C"].shape == (0, 4)
    assert empty["D"].shape == (0, 0)


@pytest.mark.optional  # python-control: an optional extra, not installed by install-deps
def test_state_space_as_python_control(root):
    control = pytest.importorskip("control", reason="python-control is not installed")
    m = mech.load(str(root / "examples" / "cart_pole.mech"))
    system = m.state_space(at={"x": 0, "th": 0}, output="th")
    assert isinstance(system, control.StateSpace)
    assert system.nstates == 4 and system.ninputs == 1 and system.noutputs == 1


def test_transfer_function_as_complex_arrays(root):
    # The cart pole's F -> th: -b/det / (s^2 - a m g l / det), the free
    # cart's double pole at 0 cancelled (unobservable in th).
    m = mech.load(str(root / "examples" / "cart_pole.mech"))
    tf = m.linearize(at={"x": 0, "th": 0}, tf="F -> th")["transfer_function"]
    M, mp, l, g = 1.0, 0.1, 0.5, 9.81
    a, b, d = M + mp, mp * l, mp * l * l + mp * (2 * l) ** 2 / 12
    det = a * d - b * b
    w = math.sqrt(a * mp * g * l / det)
    assert np.iscomplexobj(tf["poles"]) and tf["zeros"].shape == (0,)
    np.testing.assert_allclose(np.sort_complex(tf["poles"]), [-w, w], rtol=1e-10)
    assert tf["gain"] == pytest.approx(-b / det, rel=1e-10)
    assert [c["unobservable"] for c in tf["cancelled"]] == [True, True]


def cart_pole_by_hand(x, F, M=1.0, m=0.1, l=0.5, g=9.81):
    """x'' and th'' of examples/cart_pole.mech written out: a cart of mass M
    pushed by F, a uniform pole of mass m and half-length l (inertia
    m (2l)^2/12 about its centre) hinged on it, th from the upright."""
    _, th, xd, thd = x
    J = m * (2 * l) ** 2 / 12
    A = np.array([[M + m, m * l * np.cos(th)], [m * l * np.cos(th), J + m * l ** 2]])
    b = np.array([F + m * l * np.sin(th) * thd ** 2, m * g * l * np.sin(th)])
    return np.linalg.solve(A, b)


def test_rhs_and_jacobian_with_inputs(root):
    """m.rhs(t, x, u) takes the inputs (the accelerations written out by
    hand), and m.jacobian(t, x, u) is dF/dx, against central differences of
    the hand-written equations."""
    plant = mech.load(str(root / "examples" / "cart_pole.mech"))
    x, F = np.array([0.1, 0.2, 0.3, -0.4]), 1.5
    xdot = plant.rhs(0.0, x, [F])
    np.testing.assert_allclose(xdot[:2], x[2:], rtol=0, atol=0)
    np.testing.assert_allclose(xdot[2:], cart_pole_by_hand(x, F), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(plant.rhs(0.0, x), plant.rhs(0.0, x, [0.0]))
    h = 1e-6

    def F_by_hand(state):
        return np.concatenate([state[2:], cart_pole_by_hand(state, F)])

    J = plant.jacobian(0.0, x, u=[F])
    by_differences = np.column_stack(
        [(F_by_hand(x + h * e) - F_by_hand(x - h * e)) / (2 * h) for e in np.eye(4)])
    assert J.shape == (4, 4)
    np.testing.assert_allclose(J, by_differences, rtol=0, atol=1e-8)
    with pytest.raises(ValueError, match="u has the model's 1 inputs"):
        plant.rhs(0.0, x, [1.0, 2.0])
    with pytest.raises(ValueError, match="the state has 4 entries"):
        plant.jacobian(0.0, x[:3])
