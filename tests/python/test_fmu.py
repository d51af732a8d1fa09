# The FMUs of `mech build --fmu` in fmpy, an FMI importer independent of
# mech and of tests/fmu/fmu_run.c: fmpy's validation of each FMU (the
# modelDescription.xml against the standard's schema and rules), and its
# simulations in Model Exchange (its own CVode) and Co-Simulation (the
# FMU's integrator) against `mech simulate`, over the models of
# tests/fmu/test_fmu.sh; and the driven oscillator with a time-varying
# input given as fmpy's input table. Run by ctest's python_fmu_tests
# (tests/fmu/run_fmpy_tests.sh) under the Python that has fmpy (.venv).
import ctypes
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

try:
    import fmpy
    import fmpy.validation
except ImportError:
    pytest.skip("fmpy is not installed (scripts/install-python-extras.sh installs it into .venv)",
                allow_module_level=True)

pytestmark = pytest.mark.fmpy

# As conftest.py's fixtures, for the module-scoped fixture below.
ROOT = pathlib.Path(os.environ.get("MECH_SOURCE", pathlib.Path(__file__).parents[2]))
MECH = os.environ.get("MECH_BINARY", str(ROOT / "build" / "mech"))
sys.path.insert(0, str(ROOT / "tests" / "fmu"))
import compare_csv  # noqa: E402  (tests/fmu/compare_csv.py, shared with test_fmu.sh)

STEP = 0.01
# Each model: the end time, fmpy's start values, simulate's options for
# the same run.
CASES = {
    "double_pendulum": (4, {}, []),
    "cartesian_pendulum": (3, {}, []),
    "driven_oscillator": (6, {"F": 0.5}, ["--input", "F=0.5"]),
    "rolling_coin": (2, {}, []),
    "rimless_wheel": (4, {}, []),
    "projectile": (4, {}, []),
}
# ME: fmpy's CVode (BDF) at relative tolerance 1e-10 (absolute 1e-10 times
# the states' nominals, 1) keeps its global error over these few seconds
# to a few 1e-8 of the motion (measured: at most 4e-8), events located by
# its root finding. CS: the FMU's DOPRI5 at the tolerance fmpy passes to
# fmi2SetupExperiment, also 1e-10 (measured: at most 5e-11). The
# reference, DOP853 at 1e-12, is exact at this scale. 1e-6 of each
# column's magnitude leaves a margin of 25 over CVode's error, and still
# catches a wrong equation or a missed or misplaced event (1e-3 or more).
TOLERANCE = 1e-6
FMPY_RTOL = 1e-10


def run(*args):
    """Runs mech with ARGS; a failure fails the test with mech's stderr."""
    done = subprocess.run([MECH, *map(str, args)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"mech {' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")


@pytest.fixture(scope="module")
def fmu(tmp_path_factory):
    """fmu(model): the path of examples/MODEL.mech built as an FMU (once)."""
    folder = tmp_path_factory.mktemp("fmu")
    built = {}

    def build(model):
        if model not in built:
            path = folder / f"{model}.fmu"
            run("build", ROOT / "examples" / f"{model}.mech", "--fmu", "-o", path)
            built[model] = str(path)
        return built[model]
    return build


def reference(tmp_path, model, stop, args, dt=STEP):
    """`mech simulate`'s CSV (header, rows), DOP853 at 1e-12."""
    path = tmp_path / f"{model}.csv"
    run("simulate", ROOT / "examples" / f"{model}.mech", "--until", stop, "--dt", dt,
        "--method", "dop853", "--rtol", "1e-12", "--atol", "1e-14", *args, "-o", path)
    return compare_csv.read_csv(path)


def recorded(path):
    """The names fmpy is to record: the continuous states, then the outputs."""
    description = fmpy.read_model_description(path)
    states = [v.derivative.name for v in description.modelVariables if v.derivative is not None]
    outputs = [v.name for v in description.modelVariables if v.causality == "output"]
    return states + [name for name in outputs if name not in states]


def as_csv(result):
    """fmpy's structured array as compare_csv's (header, rows)."""
    names = list(result.dtype.names)
    return ["t"] + names[1:], [[float(v) for v in row] for row in result]


@pytest.mark.parametrize("model", sorted(CASES))
def test_validates(fmu, model):
    assert fmpy.validation.validate_fmu(fmu(model)) == []


@pytest.mark.parametrize("fmi_type", ["ModelExchange", "CoSimulation"])
@pytest.mark.parametrize("model", sorted(CASES))
def test_simulates_as_mech(fmu, tmp_path, model, fmi_type):
    stop, start_values, args = CASES[model]
    path = fmu(model)
    result = fmpy.simulate_fmu(path, fmi_type=fmi_type, stop_time=stop, output_interval=STEP,
                               relative_tolerance=FMPY_RTOL, start_values=start_values,
                               output=recorded(path))
    ref_header, ref_rows = reference(tmp_path, model, stop, args)
    try:
        compare_csv.compare(ref_header, ref_rows, *as_csv(result), TOLERANCE)
    except compare_csv.Mismatch as mismatch:
        pytest.fail(f"{model} {fmi_type}: {mismatch}")


def cosine_input(stop, spacing=1e-4):
    """F = cos(1.5 t) as fmpy's input table, sampled finely (fmpy
    interpolates it linearly: an error of spacing^2/8 * 2.25, 3e-9 N)."""
    t = np.arange(0, stop + spacing / 2, spacing)
    table = np.zeros(len(t), dtype=[("time", np.float64), ("F", np.float64)])
    table["time"], table["F"] = t, np.cos(1.5 * t)
    return table


def largest_difference(fmu_path, fmi_type, interval, stop, ref, **options):
    result = fmpy.simulate_fmu(fmu_path, fmi_type=fmi_type, stop_time=stop, output_interval=interval,
                               relative_tolerance=FMPY_RTOL, input=cosine_input(stop),
                               output=["x", "x'"], **options)
    worst, _ = compare_csv.differences(*ref, *as_csv(result), end_tol=1e-9)
    return worst[0][0]


def test_time_varying_input_model_exchange(fmu, tmp_path):
    # fmpy's Model Exchange loop sets the inputs at its communication points
    # (and in CVode's root function), not in the right-hand side: the input
    # is held over each output interval h, a lag of about h/2, which moves
    # x by about (h/2) max|x'| (8.3e-4 of max|x| at h = 0.001; x' likewise
    # by (h/2) max|x''|). So the difference is of first order in h, not of
    # the tolerance's size: it must be within twice that estimate and
    # halve with h, that is converge to mech's trajectory.
    stop, path = 6, fmu("driven_oscillator")
    header, rows = ref = reference(tmp_path, "driven_oscillator", stop,
                                   ["--input", "F = cos(1.5*t)"], dt=0.001)
    column = np.array(rows)
    speed, size = np.abs(column[:, header.index("x'")]).max(), np.abs(column[:, header.index("x")]).max()
    coarse, fine = (largest_difference(path, "ModelExchange", h, stop, ref) for h in (0.002, 0.001))
    assert fine <= 2 * (0.001 / 2) * speed / size, (coarse, fine)
    assert 0.4 < fine / coarse < 0.6, (coarse, fine)


def test_time_varying_input_co_simulation_interpolated(fmu, tmp_path):
    # The FMU can interpolate inputs (canInterpolateInputs): with the
    # input's slope given by fmi2SetRealInputDerivatives at each step it
    # ramps F over the step, an error of about F'' h^2 / 2, second order:
    # within 1e-5 of the motion at h = 0.002, and a quarter of it at 0.001.
    stop, path = 6, fmu("driven_oscillator")
    ref = reference(tmp_path, "driven_oscillator", stop, ["--input", "F = cos(1.5*t)"], dt=0.001)
    coarse, fine = (largest_difference(path, "CoSimulation", h, stop, ref, set_input_derivatives=True)
                    for h in (0.002, 0.001))
    assert coarse <= 1e-5, coarse
    assert 0.15 < fine / coarse < 0.35, (coarse, fine)


# Every example of the gallery: the FMU builds and validates, or the build
# refuses it for a reason docs/library.md lists (a contact, a friction);
# each built one runs one second in both interfaces as `mech simulate`
# runs it. The first second holds the first events of the walkers and the
# projectile's apex; the stiff overdamped oscillator, which DOPRI5 crawls
# through (Co-Simulation's default), runs a tenth of it. A column that
# stays near 0 (a sleeping top's nutation rate, 2e-4 rad/s) is scaled by
# 0.1 at least: CVode's absolute error there, a few 1e-9, is not a fault.
REFUSED = {"bouncing_ball": "contact", "pendulum_wall": "contact", "incline": "friction",
           "stick_slip": "friction"}
GALLERY = sorted(p.stem for p in (ROOT / "examples").glob("*.mech"))
# The slider-crank: Model Exchange has no projection, and CVode at 1e-10
# passes the first dead centre (t = 0.17 s) but exceeds its mxstep at the
# second (t = 0.57 s); the first half second is compared (a known limit,
# docs/library.md#fmus).
SHORT = {"overdamped_oscillator": 0.1, "slider_crank_flywheel": 0.5}


@pytest.mark.parametrize("model", GALLERY)
def test_gallery(tmp_path, model):
    path = tmp_path / f"{model}.fmu"
    done = subprocess.run([MECH, "build", str(ROOT / "examples" / f"{model}.mech"), "--fmu", "-o",
                           str(path)], capture_output=True, text=True)
    if model in REFUSED:
        assert done.returncode == 1 and f"an FMU cannot hold {REFUSED[model]}" in done.stderr
        assert not path.exists()
        return
    assert done.returncode == 0, done.stderr
    assert fmpy.validation.validate_fmu(str(path)) == []
    stop = SHORT.get(model, 1)
    ref_header, ref_rows = reference(tmp_path, model, stop, [], dt=0.05)
    for fmi_type in ("ModelExchange", "CoSimulation"):
        # Rows on the output grid only: fmpy adds one at each event (the
        # winch's table rows are switches of its law).
        result = fmpy.simulate_fmu(str(path), fmi_type=fmi_type, stop_time=stop,
                                   output_interval=0.05, relative_tolerance=FMPY_RTOL,
                                   output=recorded(str(path)), record_events=False)
        try:
            compare_csv.compare(ref_header, ref_rows, *as_csv(result), TOLERANCE, floor=0.1)
        except compare_csv.Mismatch as mismatch:
            pytest.fail(f"{model} {fmi_type}: {mismatch}")


@pytest.mark.parametrize("model", ["cart_pole", "cartesian_pendulum"])
def test_directional_derivatives(tmp_path, model):
    # fmi2GetDirectionalDerivative in Model Exchange against central
    # differences of fmi2GetDerivatives and of the outputs, taken here
    # through the FMU's own value interface: d(x')/dx is exact in the FMU
    # (the state Jacobian), so it must agree to the differences' error
    # (about 1e-9 of the values at a step of 1e-5); the inputs' and the
    # outputs' parts are differences inside the FMU, to about 1e-8.
    from fmpy import extract, read_model_description
    from fmpy.fmi2 import FMU2Model

    path = tmp_path / f"{model}.fmu"
    run("build", ROOT / "examples" / f"{model}.mech", "--fmu", "-o", path)
    description = read_model_description(str(path))
    refs = {v.name: v.valueReference for v in description.modelVariables}
    states = [v.derivative.valueReference for v in description.modelVariables if v.derivative]
    derivatives = [v.valueReference for v in description.modelVariables if v.derivative]
    outputs = [v.valueReference for v in description.modelVariables if v.causality == "output"]
    inputs = [v.valueReference for v in description.modelVariables if v.causality == "input"]
    fmu = FMU2Model(guid=description.guid, unzipDirectory=extract(str(path)),
                    modelIdentifier=description.modelExchange.modelIdentifier, instanceName="d")
    fmu.instantiate()
    fmu.setupExperiment(startTime=0)
    fmu.enterInitializationMode()
    fmu.exitInitializationMode()
    fmu.enterContinuousTimeMode()
    def set_states(x):
        x = np.ascontiguousarray(x, dtype=np.float64)
        fmu.setContinuousStates(x.ctypes.data_as(ctypes.POINTER(ctypes.c_double)), len(x))

    x0 = np.array(fmu.getReal(states)) + np.linspace(0.05, 0.2, len(states))
    set_states(x0)
    knowns = states + inputs
    rng = np.random.default_rng(7)
    direction = rng.standard_normal(len(knowns))

    def values(step):
        set_states(x0 + step * direction[:len(states)])
        if inputs:
            fmu.setReal(inputs, list(step * direction[len(states):] + 0.5))
        return np.array(fmu.getReal(derivatives + outputs))

    h = 1e-5
    expected = (values(h) - values(-h)) / (2 * h)
    values(0.0)
    given = np.array(fmu.getDirectionalDerivative(derivatives + outputs, knowns, list(direction)))
    np.testing.assert_allclose(given, expected, rtol=1e-6, atol=1e-7 * np.max(np.abs(expected)))
    # Only states and inputs are knowns, only derivatives and outputs unknowns.
    with pytest.raises(Exception):
        fmu.getDirectionalDerivative(derivatives, [refs[description.modelVariables[0].name]], [1.0])
    fmu.terminate()
    fmu.freeInstance()


def test_piecewise_law_switches(tmp_path):
    # A mass dropped onto a spring that only pushes, max(0 [N], -k*y)
    # (tests/cli/models/one_sided_spring.mech): the law's g is the FMU's
    # event indicator, so that fmpy's CVode (Model Exchange) stops at each
    # contact and release and the FMU switches the law's branch there, and
    # the FMU's own integrator (Co-Simulation) does the same; both follow
    # the closed form of tests/cli/piecewise_reference.py over 3 periods.
    sys.path.insert(0, str(ROOT / "tests" / "cli"))
    from piecewise_reference import bounce, bounce_times

    path = tmp_path / "spring.fmu"
    run("build", ROOT / "tests" / "cli" / "models" / "one_sided_spring.mech", "--fmu", "-o", path)
    assert fmpy.validation.validate_fmu(str(path)) == []
    assert fmpy.read_model_description(str(path)).numberOfEventIndicators == 1
    p = dict(m=1, k=100, g=9.81, h=1)
    t1, tau = bounce_times(p)
    stop = 3 * (2 * t1 + tau)
    _, state, _ = bounce(p)
    for fmi_type in ("ModelExchange", "CoSimulation"):
        result = fmpy.simulate_fmu(str(path), fmi_type=fmi_type, stop_time=stop,
                                   output_interval=0.01, relative_tolerance=FMPY_RTOL,
                                   output=["y", "der(y)"])
        worst = max(abs(row["y"] - state(row["time"])[0]) for row in result)
        assert worst <= TOLERANCE, (fmi_type, worst)
