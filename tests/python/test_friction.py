"""Friction from Python: the stick-slip oscillator's phases in the summary
and the events, against the closed form (tests/cli/test_friction.sh has
the rest)."""
import math

import mech


def test_stick_slip_phases(root):
    model = mech.load(str(root / "examples" / "stick_slip.mech"))
    r = model.simulate(until=100, dt=0.5, rtol=1e-12, atol=1e-12)
    belt = r.summary["frictions"]["belt"]
    assert belt["sticks"] == 4 and belt["slips"] == 3, belt
    # Stuck 0..39.24, then 19.62 s in each cycle after a slip of tau.
    tau = 3.3447644644689096
    stuck = 39.24 + 2 * 19.62 + (100 - (39.24 + 3 * tau + 2 * 19.62))
    assert abs(belt["stuck_time"] - stuck) <= 1e-8, belt
    events = r.summary["events"]
    assert list(events["name"][:3]) == ["belt sticks", "belt slips", "belt sticks"]
    assert abs(events["t"][2] - (39.24 + tau)) <= 1e-9
    # The friction force column holds the spring while stuck: k x.
    x, force = r["x"], r["belt"]
    t = r.t
    for i in range(len(t)):
        if 1 < t[i] < 39:
            assert math.isclose(force[i], x[i], abs_tol=1e-9)


def test_contact_normal_and_paradox(root):
    models = root / "tests" / "cli" / "models"
    belt = mech.load(str(models / "floor_belt.mech")).simulate(until=50, dt=0.5)
    assert belt.summary["frictions"]["belt"]["slips"] == 1
    assert all(math.isclose(n, 9.81, abs_tol=1e-9) for n in belt["floor"])
    # Painleve's rod at tan(th) = 2 with mu = 1.5 > 4/3, sliding back.
    rod = mech.load(str(models / "painleve_rod.mech")).simulate(until=0.1)
    failure = rod.summary["failure"]
    assert "contact 'tip' has no unique value" in failure and "Painleve" in failure, failure
    assert failure.endswith("at t = 0"), failure
