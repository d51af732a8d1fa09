"""The cart pole's LQR controller run against the plant as an FMU: the
loop a control engineer closes in a system-simulation tool.

1. `m.build("cart_pole.fmu", fmu=True)` writes examples/cart_pole.mech (its
   input the force F on the cart) as an FMI 2.0 FMU.
2. fmpy steps the FMU's Co-Simulation interface every 10 ms; between steps a
   digital controller reads the state (x, th, x', th') and sets the input
   F = -K x, the LQR gain of cart_pole_lqr.py, held over the step (a zero-
   order hold, as a controller on a real rig holds its output).
3. The sampled loop is compared with the continuous one that mech
   simulates from examples/cart_pole_lqr.mech (the same law written in the
   model): at 100 Hz they differ by about 2 % of the motion (the hold's
   delay of half a period), and both bring the pole up from a tilt of
   0.2 rad.

Needs fmpy (scripts/install-python-extras.sh installs it into .venv). Run
from the repository's root with the Python package built:
    PYTHONPATH=build/python .venv/bin/python examples/python/cart_pole_fmu.py
"""
import pathlib
import shutil
import sys
import tempfile

import numpy as np

import mech

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import cart_pole_lqr  # noqa: E402  (the gain's design, from mech's A and B)

from fmpy import extract, read_model_description  # noqa: E402
from fmpy.fmi2 import FMU2Slave  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
STATES = ("x", "th", "x'", "th'")


def sampled_loop(fmu_path, K, period=0.01, until=8.0, tilt=0.2):
    """Steps the plant FMU with F = -K x held over each period; returns the
    times and the states at them."""
    description = read_model_description(fmu_path)
    refs = {v.name: v.valueReference for v in description.modelVariables}
    folder = extract(fmu_path)
    plant = FMU2Slave(guid=description.guid, unzipDirectory=folder,
                      modelIdentifier=description.coSimulation.modelIdentifier,
                      instanceName="plant")
    try:
        plant.instantiate()
        plant.setupExperiment(startTime=0.0)
        plant.enterInitializationMode()
        plant.setReal([refs["th"]], [tilt])
        plant.exitInitializationMode()
        state_refs = [refs[name] for name in STATES]
        times, states = [0.0], [plant.getReal(state_refs)]
        steps = int(round(until / period))
        for k in range(steps):
            force = -float(K[0] @ np.array(states[-1]))
            plant.setReal([refs["F"]], [force])
            plant.doStep(currentCommunicationPoint=k * period, communicationStepSize=period)
            times.append((k + 1) * period)
            states.append(plant.getReal(state_refs))
        plant.terminate()
        plant.freeInstance()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return np.array(times), np.array(states)


def main():
    _, _, K = cart_pole_lqr.lqr_gain()
    with tempfile.TemporaryDirectory() as folder:
        fmu_path = mech.load(str(ROOT / "examples" / "cart_pole.mech")).build(
            f"{folder}/cart_pole.fmu", fmu=True)
        times, states = sampled_loop(fmu_path, K)
    _, _, continuous = cart_pole_lqr.closed_loop(K)
    reference = np.column_stack([np.interp(times, continuous["t"], continuous[name])
                                 for name in STATES])
    gap = np.max(np.abs(states[:, :2] - reference[:, :2]), axis=0)
    print("K =", np.array2string(K[0], precision=6))
    print(f"sampled at 100 Hz through the FMU: after 8 s x = {states[-1, 0]:.2e} m, "
          f"th = {states[-1, 1]:.2e} rad")
    print(f"largest gap to mech's continuous loop: x {gap[0]:.2e} m, th {gap[1]:.2e} rad "
          f"(largest |x| {np.max(np.abs(reference[:, 0])):.3f} m, "
          f"|th| {np.max(np.abs(reference[:, 1])):.3f} rad)")
    return times, states, reference


if __name__ == "__main__":
    main()
