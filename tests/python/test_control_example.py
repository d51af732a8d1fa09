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
