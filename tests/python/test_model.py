# The Python package against answers from elsewhere: the double pendulum's
# accelerations written out by hand (Lagrange's equations of two point
# masses on rods), the harmonic oscillator's exact trajectory, and the
# located errors of a broken model.
import math

import numpy as np
import pytest

import mech


def double_pendulum_accelerations(m1, m2, l1, l2, g, a, b, wa, wb):
    # The textbook closed form (e.g. Goldstein's problem, solved for q''):
    d = a - b
    den = 2 * m1 + m2 - m2 * math.cos(2 * d)
    a1 = (-g * (2 * m1 + m2) * math.sin(a) - m2 * g * math.sin(a - 2 * b)
          - 2 * math.sin(d) * m2 * (wb**2 * l2 + wa**2 * l1 * math.cos(d))) / (l1 * den)
    a2 = (2 * math.sin(d) * (wa**2 * l1 * (m1 + m2) + g * (m1 + m2) * math.cos(a)
          + wb**2 * l2 * m2 * math.cos(d))) / (l2 * den)
    return a1, a2


def test_double_pendulum_accelerations(root):
    m = mech.load(str(root / "examples/double_pendulum.mech"), set={"m1": 2.0})
    assert m.coordinates == ["th1", "th2"]
    assert m.params["m1"] == (2.0, "kg")
    assert m.params["l2"] == (0.8, "m")
    e = m.eval(q=[0.7, -1.1], qd={"th1": 0.3, "th2": -2.0})
    expected = double_pendulum_accelerations(2.0, 1.0, 1.0, 0.8, 9.81, 0.7, -1.1, 0.3, -2.0)
    assert e["qdd"] == pytest.approx(expected, rel=1e-12)
    M = e["M"]
    assert M.shape == (2, 2)
    assert M[0, 0] == pytest.approx((2.0 + 1.0) * 1.0**2, rel=1e-14)
    assert M[0, 1] == pytest.approx(1.0 * 1.0 * 0.8 * math.cos(0.7 + 1.1), rel=1e-14)
    assert M[0, 1] == M[1, 0]


def test_set_keeps_model_and_changes_numbers(root):
    m = mech.load(str(root / "examples/double_pendulum.mech"))
    before = m.eval(q=[0.7, -1.1], qd=[0.3, -2.0])["qdd"]
    m.set(m1=2.0)
    after = m.eval(q=[0.7, -1.1], qd=[0.3, -2.0])["qdd"]
    expected = double_pendulum_accelerations(2.0, 1.0, 1.0, 0.8, 9.81, 0.7, -1.1, 0.3, -2.0)
    assert after == pytest.approx(expected, rel=1e-12)
    assert before[0] != after[0]
    m.set(l2="80 [cm]")
    assert m.params["l2"][0] == pytest.approx(0.8)


def test_harmonic_oscillator_trajectory(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    r = m.simulate(until=5, dt=0.05, rtol=1e-12, atol=1e-12)
    w = 2.0  # sqrt(k/m)
    exact = np.cos(w * r.t) + np.sin(w * r.t) / w
    assert len(r) == 101
    assert r.columns[:3] == ["t", "x", "x'"]
    assert np.max(np.abs(r["x"] - exact)) < 1e-9
    assert np.max(np.abs(r["x'"] - (-w * np.sin(w * r.t) + np.cos(w * r.t)))) < 1e-9
    assert r.summary["failure"] is None
    assert r.summary["energy_drift"] < 1e-9
    assert r.summary["steps"] > 0


def test_result_arrays_are_views_of_the_result(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    r = m.simulate(until=1)
    x = r["x"]
    assert x.base is r
    assert r.t.base is r
    assert not x.flags.writeable
    del r
    assert x[0] == 1.0  # the view keeps its result alive


def test_simulate_init_and_method(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    r = m.simulate(until=2, init={"x": 0.5, "x'": 0}, method="radau", rtol=1e-10, atol=1e-12)
    assert np.max(np.abs(r["x"] - 0.5 * np.cos(2.0 * r.t))) < 1e-7
    assert r.summary["method"] == "radau"


def test_stop_when_is_the_calls_own(root):
    # x = 0.5 cos(2t) first crosses zero downwards at t = pi/4; the next
    # call without stop_when runs to its end again.
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    r = m.simulate(until=3, init={"x": 0.5, "x'": 0}, rtol=1e-12, atol=1e-12,
                   stop_when="x == 0, down")
    assert r.t[-1] == pytest.approx(np.pi / 4, abs=1e-9)
    assert abs(r["x"][-1]) < 1e-9
    assert r.summary["stopped_by"]
    again = m.simulate(until=3, init={"x": 0.5, "x'": 0})
    assert again.t[-1] == 3
    with pytest.raises(mech.ModelError) as raised:
        m.simulate(until=1, stop_when="nosuch == 0")
    assert "nosuch" in str(raised.value)
    assert m.simulate(until=1).t[-1] == 1


def test_model_error_is_located():
    with pytest.raises(mech.ModelError) as raised:
        mech.loads("model M {\n  coord x [m]\n  kinetic T = m / 2 * x'^2\n}\n", name="broken.mech")
    error = raised.value
    assert "broken.mech:3:" in str(error)
    assert "error:" in str(error)
    file, line, column, message = error.diagnostics[0]
    assert (file, line) == ("broken.mech", 3)
    assert column > 0 and "m" in message


def test_usage_errors_are_value_errors(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    with pytest.raises(ValueError, match="until"):
        m.simulate(until="soon")
    with pytest.raises(ValueError, match="no_such_option|--no-such-option"):
        m.simulate(no_such_option=1)
    with pytest.raises(ValueError, match="'o'"):
        m.simulate(o="out.csv")
    with pytest.raises(mech.ModelError, match="nosuch"):
        mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"), set={"nosuch": 1})


def test_equations_text(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    assert "x''" in str(m.equations)


def test_set_takes_one_value_per_param(root):
    # A value's text is one expression: "1, m2=5" must not also set m2.
    m = mech.load(str(root / "examples/double_pendulum.mech"))
    with pytest.raises(ValueError) as raised:
        m.set(m1="1, m2=5")
    assert "more than one value" in str(raised.value)
    assert m.params["m2"][0] == 1.0
    m.set(m1="2 * 1.5")
    assert m.params["m1"][0] == 3.0
