# examples/python/cart_pole_lqr.py: an LQR gain designed from mech's A and B
# of the cart pole (SciPy's Riccati solver), then the closed loop written in
# the .mech file (examples/cart_pole_lqr.mech, the gains as params):
# mech's linearization of the closed loop has the eigenvalues of A - B K
# (the feedback law derived symbolically there, the matrix product here),
# all in the left half-plane, and its simulation brings the pole up.
import importlib.util
import sys

import numpy as np
import pytest

pytest.importorskip("scipy.linalg", reason="SciPy is not installed (python3-scipy)")


def test_lqr_closed_loop(root):
    path = root / "examples" / "python" / "cart_pole_lqr.py"
    spec = importlib.util.spec_from_file_location("cart_pole_lqr", path)
    example = importlib.util.module_from_spec(spec)
    sys.modules["cart_pole_lqr"] = example
    spec.loader.exec_module(example)
    K, designed, simulated, run = example.main()
    np.testing.assert_allclose(simulated, designed, rtol=1e-9, atol=1e-9)
    assert np.all(designed.real < -0.5)
    assert abs(run["th"][0] - 0.2) < 1e-12
    assert abs(run["x"][-1]) < 1e-3 and abs(run["th"][-1]) < 1e-3
    # The model's default gains are the design's (to their printed digits).
    model = (root / "examples" / "cart_pole_lqr.mech").read_text()
    for k in K[0]:
        assert f"{k:.8g}"[:8] in model, k


@pytest.mark.fmpy
def test_lqr_through_the_fmu(root):
    """examples/python/cart_pole_fmu.py: the plant as an FMU stepped by fmpy
    under the sampled controller stays within a few percent of mech's
    continuous closed loop and settles; the FMU's start state is the one set."""
    pytest.importorskip(
        "fmpy", reason="fmpy is not installed (scripts/install-python-extras.sh puts it in .venv)")
    path = root / "examples" / "python" / "cart_pole_fmu.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("cart_pole_fmu", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    times, states, reference = example.main()
    assert times[-1] == pytest.approx(8.0)
    assert states[0, 1] == pytest.approx(0.2, abs=1e-12)
    assert np.max(np.abs(states[:, 0] - reference[:, 0])) < 0.05 * np.max(np.abs(reference[:, 0]))
    assert np.max(np.abs(states[:, 1] - reference[:, 1])) < 0.05 * 0.2
    assert abs(states[-1, 0]) < 1e-3 and abs(states[-1, 1]) < 1e-3


def test_lqr_as_a_python_callable(root):
    """The controller given to simulate as a Python function of (t, x): its
    loop is the one the model writes with the gains as params (to
    rounding), a law of t alone is an expression of t, and a law's errors
    reach the caller."""
    import mech

    K = np.array([-3.16227766, -42.4794289, -4.62922091, -10.61067235])
    plant = mech.load(str(root / "examples" / "cart_pole.mech"))
    calls = []

    def law(t, x):
        calls.append(t)
        assert x.shape == (4,)
        return -K @ x

    run = plant.simulate(until=8, dt=0.01, init={"th": 0.2}, input={"F": law})
    written = mech.load(str(root / "examples" / "cart_pole_lqr.mech")).simulate(until=8, dt=0.01)
    for name in ("x", "th", "x'", "th'"):
        np.testing.assert_allclose(run[name], written[name], rtol=0, atol=1e-12)
    assert len(calls) > 100
    timed = plant.simulate(until=2, dt=0.1, input={"F": lambda t: np.cos(1.5 * t)})
    text = plant.simulate(until=2, dt=0.1, input={"F": "cos(1.5*t)"})
    np.testing.assert_allclose(timed["x"], text["x"], rtol=0, atol=1e-12)

    def failing(t, x):
        if t > 0.5:
            raise RuntimeError("sensor lost")
        return 1.0

    with pytest.raises(RuntimeError, match="sensor lost") as raised:
        plant.simulate(until=1, input={"F": failing})
    note = raised.value.__notes__[0]
    assert note.startswith("raised by the input law of F at t = ")
    assert float(note.rsplit("= ", 1)[1]) > 0.5
    with pytest.raises(TypeError, match="the input law of F returned 'push' at t = 0, not a number"):
        plant.simulate(until=1, input={"F": lambda t, x: "push"})
    with pytest.raises(TypeError, match=r"returned array\(\[1\., 2\.\]\)"):
        plant.simulate(until=1, input={"F": lambda t, x: np.array([1.0, 2.0])})
    with pytest.raises(ValueError, match="the input law of F returned nan at t = 0"):
        plant.simulate(until=1, input={"F": lambda t, x: float("nan")})
    with pytest.raises(ValueError, match="'G' is not an input of the model"):
        plant.simulate(until=1, input={"G": lambda t, x: 0.0})
    # The laws are the call's own: the next run has the input at 0 again.
    assert plant.simulate(until=1, dt=0.5)["x"][-1] == 0
