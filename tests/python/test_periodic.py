# Periodic orbits through the Python package (m.periodic, `mech periodic
# --json`): fixed points of return maps, periods and Floquet multipliers
# against references computed here with SciPy from the published equations
# (never from mech) and against closed forms:
# - van der Pol's limit cycle (section x = 0 rising): the period for mu = 1,
#   6.6632868593231301897 (published), and the one multiplier,
#   exp(integral of mu (1 - x^2) dt) over a period (Liouville);
# - Kapitza's pendulum (stroboscopic map over the drive's period): the
#   inverted position and the monodromy matrix of the Mathieu equation
#   psi'' = (g - a w^2 cos(w t)) psi / l about it, stable at w = 35,
#   unstable at w = 20;
# - the rimless wheel (section: the step): McGeer's closed form for the
#   speed, the multiplier cos(2 alpha)^2, the stance time by quadrature;
# - the simplest walker of Garcia, Chatterjee, Ruina and Coleman (1998):
#   the fixed point by shooting, its multipliers by finite differences, and
#   the period doubling in the slope gamma (near 0.015, the paper says).
# Needs SciPy (python3-scipy, installed by scripts/install-deps.sh); skipped
# with the reason without it.
import math

import numpy as np
import pytest

import mech

integrate = pytest.importorskip("scipy.integrate", reason="SciPy is not installed (python3-scipy)")
optimize = pytest.importorskip("scipy.optimize", reason="SciPy is not installed (python3-scipy)")

TIGHT = dict(method="DOP853", rtol=1e-12, atol=1e-12)


def load(root, name):
    return mech.load(str(root / "examples" / f"{name}.mech"))


def complex_values(values):
    """Multipliers as a complex array, whether given complex or as [re, im] pairs."""
    values = np.asarray(values)
    if not np.iscomplexobj(values) and values.ndim == 2 and values.shape[1] == 2:
        values = values[:, 0] + 1j * values[:, 1]
    return np.asarray(values, dtype=complex)


def complex_value(value):
    """One multiplier, given complex or as [re, im]."""
    value = np.asarray(value)
    if not np.iscomplexobj(value) and value.shape == (2,):
        return complex(value[0], value[1])
    return complex(value)


def assert_same_multipliers(got, expected, tol):
    # The same values as a set (a conjugate pair has two orders of equal modulus).
    got, expected = complex_values(got), complex_values(expected)
    assert got.shape == expected.shape, (got, expected)
    for a, b in [(got, expected), (expected, got)]:
        for z in a:
            assert np.min(np.abs(b - z)) < tol, (got, expected)


def assert_sorted_by_modulus(values):
    moduli = np.abs(complex_values(values))
    assert np.all(np.diff(moduli) <= 1e-9), moduli


def first_event_after(solution, t_min):
    times, states = solution.t_events[0], solution.y_events[0]
    k = np.flatnonzero(times > t_min)[0]
    return times[k], states[k]


# --- van der Pol: x'' - mu (1 - x^2) x' + x = 0 ------------------------------

VDP_PERIOD_MU_1 = 6.6632868593231301897  # the published period for mu = 1


def van_der_pol_cycle(mu):
    """The limit cycle through x = 0 rising, by Newton on the return map of
    x': (x' there, the period, exp(integral of mu (1 - x^2) dt))."""
    def f(t, y):
        return [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0], mu * (1 - y[0] ** 2)]

    def up(t, y):
        return y[0]
    up.direction = 1

    def turn(v):
        solution = integrate.solve_ivp(f, (0, 50), [0, v, 0], events=up, **TIGHT)
        return first_event_after(solution, 1.0)

    v = 2.0
    for _ in range(20):
        h = 1e-6
        slope = (turn(v + h)[1][1] - turn(v - h)[1][1]) / (2 * h)
        step = (turn(v)[1][1] - v) / (1 - slope)
        v += step
        if abs(step) < 1e-13:
            break
    T, y = turn(v)
    return v, T, math.exp(y[2])


@pytest.mark.parametrize("mu", [1.0, 0.5])
def test_van_der_pol_limit_cycle(root, mu):
    m = load(root, "van_der_pol")
    if mu != 1.0:
        m.set(mu=mu)
    found = m.periodic(section="up", guess={"x": 0, "x'": 2})
    v, T, multiplier = van_der_pol_cycle(mu)
    assert found["model"] == "VanDerPol"
    assert found["map"] == "section"
    assert found["state"] == ["x", "x'"]
    # The state just after the section: on x = 0, rising at v.
    assert found["fixed_point"] == pytest.approx([0, v], abs=1e-8)
    assert found["period"] == pytest.approx(T, rel=1e-9)
    if mu == 1.0:
        assert T == pytest.approx(VDP_PERIOD_MU_1, rel=1e-11)  # the reference itself
        assert found["period"] == pytest.approx(VDP_PERIOD_MU_1, rel=1e-9)
    # The flow's direction (multiplier 0 of the section map) is dropped: one
    # multiplier is left, real, Liouville's exp(integral of div f).
    multipliers = found["multipliers"]
    assert np.iscomplexobj(multipliers) and multipliers.shape == (1,)
    assert abs(multipliers[0].imag) < 1e-12
    assert multipliers[0].real == pytest.approx(multiplier, rel=1e-6)
    assert len(found["dropped"]) == 1
    assert found["stable"] is True
    assert isinstance(found["verdict"], str) and found["verdict"]
    assert isinstance(found["criterion"], str) and found["criterion"]
    assert isinstance(found["iterations"], int) and found["iterations"] >= 1
    assert found["residual"] < 1e-8


# --- Kapitza's pendulum: the stroboscopic map --------------------------------

def kapitza_monodromy(w, l=1.0, a=0.18, g=9.81):
    """The monodromy matrix over 2 pi / w of the linearisation about th = pi.
    The model's bob at (l sin th, a cos(w t) - l cos th) under gravity g has
    l th'' = (a w^2 cos(w t) - g) sin th; with th = pi + psi, sin th ~ -psi:
    psi'' = (g - a w^2 cos(w t)) psi / l."""
    def f(t, y):
        k = (g - a * w ** 2 * math.cos(w * t)) / l
        return [y[2], y[3], k * y[0], k * y[1]]  # two columns: (psi, psi') per start

    solution = integrate.solve_ivp(f, (0, 2 * math.pi / w), [1, 0, 0, 1], **TIGHT)
    psi, psi_, dpsi, dpsi_ = solution.y[:, -1]
    return np.array([[psi, psi_], [dpsi, dpsi_]])


def kapitza_full_map(w, state, l=1.0, a=0.18, g=9.81):
    def f(t, y):
        return [y[1], (a * w ** 2 * math.cos(w * t) - g) * math.sin(y[0]) / l]
    return integrate.solve_ivp(f, (0, 2 * math.pi / w), state, method="DOP853", rtol=1e-13,
                               atol=1e-14).y[:, -1]


def test_kapitza_linearisation_is_the_full_equations():
    # The reference's linearisation against central differences of the full
    # equation's map about (pi, 0) (error h^2 from the cubic term of sin).
    w, h = 35.0, 1e-4
    J = np.column_stack([(kapitza_full_map(w, [math.pi + h * e[0], h * e[1]]) -
                          kapitza_full_map(w, [math.pi - h * e[0], -h * e[1]])) / (2 * h)
                         for e in np.eye(2)])
    assert J == pytest.approx(kapitza_monodromy(w), abs=1e-6)


@pytest.mark.parametrize("w", [35.0, 20.0])
def test_kapitza_inverted_position(root, w):
    m = load(root, "kapitza_pendulum")
    if w != 35.0:
        m.set(w=w)
    period = 2 * math.pi / w
    found = m.periodic(period=period, guess={"th": math.pi, "th'": 0})
    assert found["map"] == "stroboscopic"
    assert found["state"] == ["th", "th'"]
    assert found["fixed_point"] == pytest.approx([math.pi, 0], abs=1e-9)
    assert found["period"] == pytest.approx(period, rel=1e-12)
    expected = np.linalg.eigvals(kapitza_monodromy(w))
    multipliers = found["multipliers"]
    assert np.iscomplexobj(multipliers)
    assert_sorted_by_modulus(multipliers)
    assert_same_multipliers(multipliers, expected, 1e-7)
    # Hamiltonian: the product of the two multipliers is 1.
    assert np.prod(multipliers) == pytest.approx(1, abs=1e-7)
    if w == 35.0:
        # a^2 w^2 > 2 g l: a conjugate pair on the unit circle. Linearly
        # stable (an elliptic point, which the linear test cannot call
        # asymptotically stable: True, or None for undecided).
        assert np.all(np.abs(multipliers) <= 1 + 1e-9)
        assert abs(multipliers[0].imag) > 0.1
        assert found["stable"] is not False
    else:
        # Two real multipliers, one outside the unit circle: it falls.
        assert np.max(np.abs(multipliers)) > 1.5
        assert found["stable"] is False


def test_kapitza_in_cartesian_coordinates(root):
    # The bob's Cartesian coordinates relative to the support, the rod a
    # constraint: the multipliers on the constraints' tangent space are the
    # Mathieu monodromy's, as in the angle.
    m = mech.load(str(root / "tests" / "cli" / "models" / "cartesian_kapitza.mech"))
    w = 35.0
    found = m.periodic(period="2*pi/w", guess={"x": 0.001, "y": 0.999, "x'": 0, "y'": 0})
    x, y, xd, yd = found["fixed_point"]
    assert [x, y, xd, yd] == pytest.approx([0, 1, 0, 0], abs=1e-9)
    assert len(found["multipliers"]) == 2
    assert_same_multipliers(found["multipliers"], np.linalg.eigvals(kapitza_monodromy(w)), 1e-7)


def test_kapitza_stability_threshold(root):
    # The drive frequency above which the inverted position is stable: where
    # the Mathieu monodromy's trace leaves [-2, 2], bisected here with SciPy
    # (the high-frequency estimate a^2 w^2 = 2 g l gives 24.61 rad/s).
    lo, hi = 24.0, 25.0
    for _ in range(45):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if abs(np.trace(kapitza_monodromy(mid))) > 2 else (lo, mid)
    m = load(root, "kapitza_pendulum")
    branch = m.periodic(period="2*pi/w", guess={"th": math.pi, "th'": 0}, sweep="w=20..30:11")
    changes = branch["changes"]
    assert len(changes) == 1
    assert changes[0]["kind"] == "through +1"
    assert changes[0]["loses_stability"] is False
    assert changes[0]["at"] == pytest.approx((lo + hi) / 2, rel=1e-7)
    assert (lo + hi) / 2 > math.sqrt(2 * 9.81 * 1.0) / 0.18


# --- The rimless wheel: McGeer's closed form ---------------------------------

def test_rimless_wheel_step(root):
    m = load(root, "rimless_wheel")
    g, l, alpha, gamma = 9.81, 1.0, math.pi / 8, 0.08
    c = math.cos(2 * alpha)
    # Energy balance over a step (per m l^2): the impact takes
    # (1 - c^2) w-^2 / 2, the hub's descent 2 l sin(alpha) sin(gamma) gives
    # (g / l) 2 sin(alpha) sin(gamma).
    w_before = math.sqrt(4 * g * math.sin(gamma) * math.sin(alpha) / (l * (1 - c ** 2)))
    w_after = c * w_before
    # The stance time from phi = gamma - alpha to gamma + alpha at the energy
    # E = phi'^2 / 2 + (g / l) cos(phi).
    E = w_after ** 2 / 2 + g / l * math.cos(gamma - alpha)
    stance, _ = integrate.quad(lambda p: 1 / math.sqrt(2 * (E - g / l * math.cos(p))),
                               gamma - alpha, gamma + alpha, epsabs=1e-14, epsrel=1e-13)
    found = m.periodic(section="step", guess={"phi": gamma - alpha, "phi'": 1.2})
    assert found["map"] == "section"
    assert found["state"] == ["phi", "phi'"]
    assert found["fixed_point"] == pytest.approx([gamma - alpha, w_after], rel=1e-9)
    assert found["period"] == pytest.approx(stance, rel=1e-8)
    multipliers = found["multipliers"]
    assert multipliers.shape == (1,)
    assert multipliers[0] == pytest.approx(c ** 2, abs=1e-8)
    assert found["stable"] is True


# --- The simplest walker (Garcia, Chatterjee, Ruina, Coleman 1998) -----------

# The paper's period-one gait for gamma = 0.009 just after heel strike,
# printed to 14 digits and good to about 1e-10: the shooting below,
# converged in its tolerance, differs by 5e-11 in th and 9e-11 in th'. Its
# printed ph' = -0.01530358955270 is not on the heel strike's image (ph' =
# (1 - cos(2 th)) th', the paper's own transition, gives -0.0158230000,
# which the shooting confirms), so ph' is checked against the transition.
GARCIA_FIXED_POINT = {"th": 0.20031090049483, "ph": 0.40062180098966, "th'": -0.19983247291764}


def walker_rates(t, y, gamma):
    th, ph, dth, dph = y
    return [dth, dph, math.sin(th - gamma),
            math.sin(ph) * (dth ** 2 - math.cos(th - gamma)) + math.sin(th - gamma)]


def heel(t, y, gamma):
    return y[1] - 2 * y[0]


# Rising: the strike (falling, mid-step, is the scuffing the model ignores).
heel.direction = 1


def walker_step(y, gamma):
    """The return map on the state just after heel strike (th, ph, th', ph')
    and the step's time."""
    solution = integrate.solve_ivp(walker_rates, (0, 10), y, args=(gamma,), events=heel, **TIGHT)
    T, (th, ph, dth, dph) = first_event_after(solution, 1.0)
    c = math.cos(2 * th)
    return np.array([-th, -2 * th, c * dth, c * (1 - c) * dth]), T


def on_strike_image(z):
    # A state just after a strike, from its th and th'.
    th, dth = z
    return np.array([th, 2 * th, dth, (1 - math.cos(2 * th)) * dth])


def jacobian(F, z, h=1e-6):
    columns = []
    for e in np.eye(len(z)):
        columns.append((F(z + h * e) - F(z - h * e)) / (2 * h))
    return np.column_stack(columns)


def walker_fixed_point(gamma, z):
    """Newton on the reduced map (th, th') -> (th, th') after the next strike
    (the strike's image is two-dimensional); returns (th, th') and the
    reduced map's Jacobian."""
    z = np.array(z, dtype=float)

    def F(z):
        return walker_step(on_strike_image(z), gamma)[0][[0, 2]]
    for _ in range(20):
        step = np.linalg.solve(jacobian(F, z) - np.eye(2), z - F(z))
        z += step
        if np.max(np.abs(step)) < 1e-13:
            break
    return z, jacobian(F, z)


WALKER_GUESS = {"th": 0.2, "ph": 0.4, "th'": -0.2, "ph'": -0.016}


def test_simplest_walker_gait(root):
    gamma = 0.009
    z, _ = walker_fixed_point(gamma, [0.2, -0.2])
    y = on_strike_image(z)
    after, T = walker_step(y, gamma)
    assert after == pytest.approx(y, abs=1e-9)
    # The reference against the published gait.
    assert [y[0], y[1], y[2]] == pytest.approx(
        [GARCIA_FIXED_POINT[k] for k in ("th", "ph", "th'")], abs=2e-10)
    # The full map's Jacobian in (th, ph, th', ph'): two zeros (the flow's
    # direction and the strike's two-dimensional image) and a stable pair.
    expected = np.linalg.eigvals(jacobian(lambda y: walker_step(y, gamma)[0], y))
    expected = expected[np.argsort(-np.abs(expected))]
    assert np.abs(expected[2:]) == pytest.approx([0, 0], abs=1e-6)

    m = load(root, "simplest_walker")
    found = m.periodic(section="heel", guess=WALKER_GUESS)
    assert found["map"] == "section"
    assert found["state"] == ["th", "ph", "th'", "ph'"]
    point = found["fixed_point"]
    assert point == pytest.approx(y, abs=1e-8)
    assert list(point[:3]) == pytest.approx([GARCIA_FIXED_POINT[k] for k in ("th", "ph", "th'")],
                                            abs=1e-9)
    assert point[3] == pytest.approx((1 - math.cos(2 * point[0])) * point[2], abs=1e-9)
    assert found["period"] == pytest.approx(T, rel=1e-9)
    # At least the flow's direction is dropped; a zero that stays (the
    # strike's image) is still a zero.
    multipliers = complex_values(found["multipliers"])
    assert 2 <= len(multipliers) <= 3
    assert_sorted_by_modulus(multipliers)
    assert np.abs(multipliers) == pytest.approx(np.abs(expected[:len(multipliers)]), abs=1e-5)
    assert_same_multipliers(multipliers[:2], expected[:2], 1e-5)
    assert found["stable"] is True


def test_simplest_walker_period_doubling(root):
    # The SciPy side: the smallest real multiplier of the period-one gait,
    # continued in gamma, crosses -1 between 0.015 and 0.016.
    guess = {"z": np.array([0.237, -0.232])}

    def smallest_real_plus_one(gamma):
        guess["z"], J = walker_fixed_point(gamma, guess["z"])
        multipliers = np.linalg.eigvals(J)
        assert np.all(np.abs(multipliers.imag) < 1e-9)  # the pair has turned real
        return np.min(multipliers.real) + 1

    assert smallest_real_plus_one(0.015) > 0 > smallest_real_plus_one(0.016)
    doubling = optimize.brentq(smallest_real_plus_one, 0.015, 0.016, xtol=1e-10)
    assert doubling == pytest.approx(0.0150884, abs=1e-6)  # the value found when written

    m = load(root, "simplest_walker")
    found = m.periodic(section="heel", guess=WALKER_GUESS, sweep="gamma=0.009..0.02:12")
    assert found["model"] == "SimplestWalker"
    assert found["parameter"] == "gamma"
    points = found["points"]
    assert [p["value"] for p in points] == pytest.approx(np.linspace(0.009, 0.02, 12), abs=1e-12)
    assert [p["stable"] for p in points] == [p["value"] < doubling for p in points]
    first = points[0]
    assert np.asarray(first["fixed_point"])[:3] == pytest.approx(
        [GARCIA_FIXED_POINT[k] for k in ("th", "ph", "th'")], abs=1e-8)
    assert first["period"] > 0
    changes = found["changes"]
    assert len(changes) == 1
    assert changes[0]["kind"] == "period doubling"
    assert changes[0]["at"] == pytest.approx(doubling, abs=1e-5)
    assert complex_value(changes[0]["multiplier"]) == pytest.approx(-1, abs=1e-3)


def test_simplest_walker_period_two_gait(root):
    # Past the period doubling the gait alternates two steps: the fixed
    # point of the map's second iterate (--returns 2), against SciPy's
    # Newton on the reduced map composed with itself.
    gamma = 0.016

    def twice(z):
        once = walker_step(on_strike_image(z), gamma)[0][[0, 2]]
        return walker_step(on_strike_image(once), gamma)[0][[0, 2]]
    z = np.array([0.2357, -0.2313])
    for _ in range(20):
        step = np.linalg.solve(jacobian(twice, z) - np.eye(2), z - twice(z))
        z += step
        if np.max(np.abs(step)) < 1e-13:
            break
    other = walker_step(on_strike_image(z), gamma)[0]
    assert abs(other[0] - z[0]) > 1e-3  # two different steps
    expected_moduli = sorted(np.abs(np.linalg.eigvals(jacobian(twice, z))), reverse=True)
    m = load(root, "simplest_walker")
    m.set(gamma=gamma)
    found = m.periodic(section="heel", returns=2,
                       guess={"th": 0.247, "ph": 0.494, "th'": -0.25, "ph'": -0.03})
    assert found["returns"] == 2
    starts = [found["fixed_point"], found["return_states"][0]]
    # Either step may come first.
    if abs(starts[0][0] - z[0]) > abs(starts[1][0] - z[0]):
        starts.reverse()
    assert starts[0] == pytest.approx(on_strike_image(z), abs=1e-8)
    assert starts[1] == pytest.approx(other, abs=1e-8)
    moduli = np.abs(found["multipliers"])
    assert moduli[:2] == pytest.approx(expected_moduli, abs=1e-5)
    assert found["stable"] is True


def test_duffing_fold_ends_the_branch(root):
    # The large motion of a hardening Duffing oscillator ends at a fold as w
    # grows (the jump of its frequency response): mech's sweep loses it
    # between two values and bisects where it ends; a fold (saddle-node) is
    # where a real multiplier reaches +1, so the last motion found there has
    # one at 1 to the square root of the bisection's width.
    m = mech.load(str(root / "tests" / "cli" / "models" / "duffing.mech"))
    m.set(w=1.2)
    branch = m.periodic(period="2*pi/w", guess={"x": 1.79, "x'": 1.378}, sweep="w=1.2..2.5:27")
    fold = branch["ends_at"]
    assert fold is not None and 1.55 < fold < 1.6, fold
    assert branch["points"][-1]["value"] == pytest.approx(1.55)
    assert complex_value(branch["end_multiplier"]) == pytest.approx(1, abs=1e-3)


# --- Errors ------------------------------------------------------------------

def test_periodic_errors(root):
    m = load(root, "van_der_pol")
    with pytest.raises((mech.ModelError, ValueError)) as raised:
        m.periodic(section="nonexistent", guess={"x": 0, "x'": 2})
    assert "nonexistent" in str(raised.value)
    with pytest.raises((mech.ModelError, ValueError)) as raised:
        m.periodic(section="up", guess={"nosuch": 0, "x'": 2})
    assert "nosuch" in str(raised.value)
