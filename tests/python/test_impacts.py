# Impacts through the Python package: the arrays of r.summary["impacts"]
# against two carts colliding, worked out by hand (momentum and Newton's
# law of restitution), and a ball's rest time against the accumulation time
# of its bounces, t1 + 2 v1 e / (g (1 - e)).
import math

import numpy as np
import pytest

import mech

BALL = """
model ball {
  param m = 1 [kg], g = 9.81 [m/s^2], e = 0.8
  coord y [m]
  kinetic m * y'^2 / 2
  potential m * g * y
  contact floor: y >= 0 restitution e
  init y = 1
}
"""


def load(tmp_path, text, name):
    path = tmp_path / f"{name}.mech"
    path.write_text(text)
    return mech.load(str(path))


def test_two_carts_impact_arrays(root):
    r = mech.load(str(root / "tests/cli/models/two_carts.mech")).simulate(until=1, dt=0.5)
    impacts = r.summary["impacts"]
    assert impacts["count"] == 1
    assert impacts["t"].shape == (1,)
    assert impacts["t"][0] == pytest.approx(1 / 3, abs=1e-12)
    e, m1, m2, u1, u2 = 0.5, 1.0, 3.0, 2.0, -1.0
    v1 = (m1 * u1 + m2 * u2 + m2 * e * (u2 - u1)) / (m1 + m2)
    v2 = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2)
    assert impacts["velocities_before"].shape == (1, 2)
    assert np.allclose(impacts["velocities_before"][0], [u1, u2], atol=1e-12)
    assert np.allclose(impacts["velocities_after"][0], [v1, v2], atol=1e-12)
    assert impacts["contacts"] == [["bump"]]
    # The impulse on the gap x2 - x1: m2 (v2 - u2).
    assert impacts["impulses"][0][0] == pytest.approx(m2 * (v2 - u2), abs=1e-12)
    lost = 0.5 * (m1 * u1**2 + m2 * u2**2 - m1 * v1**2 - m2 * v2**2)
    assert impacts["energy_lost"][0] == pytest.approx(lost, abs=1e-12)
    assert r.summary["contacts"]["bump"]["impacts"] == 1
    # The events as arrays: the impact, with the state before it.
    events = r.summary["events"]
    assert events["name"] == ["bump"]
    assert events["t"][0] == pytest.approx(1 / 3, abs=1e-12)
    assert events["values"].shape == (1, len(r.columns) - 1)
    assert events["values"][0][r.columns.index("x1'") - 1] == pytest.approx(u1)
    # Two samples at the impact's time: before and after.
    at = np.flatnonzero(np.abs(r.t - 1 / 3) < 1e-12)
    assert len(at) == 2
    assert r["x1'"][at[0]] == pytest.approx(u1) and r["x1'"][at[1]] == pytest.approx(v1)


def test_ball_comes_to_rest(tmp_path):
    r = load(tmp_path, BALL, "ball").simulate(until=5, dt=1, rtol=1e-12, atol=1e-12)
    g, e = 9.81, 0.8
    v1, t1 = math.sqrt(2 * g), math.sqrt(2 / g)
    rests = r.summary["contacts"]["floor"]["rests_at"]
    assert len(rests) == 1
    assert rests[0] == pytest.approx(t1 + 2 * v1 * e / (g * (1 - e)), abs=1e-9)
    assert r["floor"][-1] == pytest.approx(g)
    assert r.summary["energy_lost_at_impacts"] == pytest.approx(g, abs=1e-12)
    names = r.summary["events"]["name"]
    assert names.count("floor rests") == 1 and names[-1] == "floor rests"
    assert names.count("floor") == r.summary["contacts"]["floor"]["impacts"]
