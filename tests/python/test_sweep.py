# mech.sweep against the closed form of the harmonic oscillator's
# amplitude, against itself on 1 and 4 threads (bit for bit), and against
# the CLI's `mech sweep` on the same values (the same rows, bit for bit);
# Ctrl-C in a long sweep raises KeyboardInterrupt.
import csv
import io
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import mech


def test_amplitude_over_stiffness(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    k = np.linspace(1, 16, 7)
    r = mech.sweep(m, grid={"k": k}, summary=["amp = max(x)", "status"], until=10, dt=0.001,
                   rtol=1e-12, atol=1e-12)
    assert list(r["k"]) == list(k)
    # From x = 1, x' = 1: amplitude sqrt(1 + m/k); the samples every 1 ms
    # catch the peak to within its curvature, k/m * (dt/2)^2 / 2.
    assert np.all(np.abs(r["amp"] - np.sqrt(1 + 1 / k)) < 1e-5)
    assert r["status"] == ["ok"] * 7


def test_threads_bit_for_bit(root):
    m = mech.load(str(root / "examples/double_pendulum.mech"))
    grid = {"th1": np.linspace(-3, 3, 9), "th2": np.linspace(-3, 3, 8)}
    summary = ["at_end(th2)", "flipped = any(abs(th2) > pi)", "first_time(abs(th2) > pi)"]
    one = mech.sweep(m, grid=grid, summary=summary, until=10, init="th1'=0, th2'=0", threads=1)
    four = mech.sweep(m, grid=grid, summary=summary, until=10, init="th1'=0, th2'=0", threads=4)
    for name in one:
        if isinstance(one[name], list):
            assert one[name] == four[name]
        else:
            assert one[name].tobytes() == four[name].tobytes(), name
    assert 0 < np.sum(one["flipped"]) < 72


def test_same_rows_as_the_cli(root, mech_binary, tmp_path):
    out = tmp_path / "cli.csv"
    subprocess.run([mech_binary, "sweep", str(root / "examples/double_pendulum.mech"),
                    "--grid", "th1=-3..3:5, th2=-2..2:4", "--until", "5",
                    "--summary", "at_end(th1), max(abs(th2))", "-o", str(out)],
                   check=True, capture_output=True)
    rows = list(csv.reader(io.StringIO(out.read_text())))[1:]
    th1 = [float(r[0]) for r in rows[::4]]
    th2 = [float(r[1]) for r in rows[:4]]
    m = mech.load(str(root / "examples/double_pendulum.mech"))
    r = mech.sweep(m, grid={"th1": th1, "th2": th2}, summary="at_end(th1), max(abs(th2))",
                   until=5)
    assert len(r["th1"]) == len(rows) == 20
    for i, row in enumerate(rows):
        assert float(row[2]) == r["at_end(th1)"][i]
        assert float(row[3]) == r["max(abs(th2))"][i]
        assert row[4] == r["status"][i]


def test_failed_runs_are_rows(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    r = mech.sweep(m, grid={"m": [0.0, 0.5, 1.0]}, summary=["max(x)"], until=1)
    assert r["status"] == ["failed", "ok", "ok"]
    assert "mass matrix is singular" in r["message"][0]
    assert np.isnan(r["max(x)"][0]) and r["max(x)"][2] > 1


def test_ctrl_c_raises_keyboard_interrupt(root):
    script = f"""
import sys, numpy as np, mech
m = mech.load({str(root / "examples/double_pendulum.mech")!r})
print("started", flush=True)
try:
    mech.sweep(m, grid={{"th1": np.linspace(-3, 3, 400), "th2": np.linspace(-3, 3, 400)}},
               summary="at_end(th2)", until=10)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               env=os.environ, text=True)
    assert process.stdout.readline().strip() == "started"
    time.sleep(1.0)
    start = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 3, out
    assert "interrupted" in out
    assert time.monotonic() - start < 5


def test_points_are_paired(root):
    # Pairs (k, m) with k/m = 4: every run has omega = 2 and, from x = 1,
    # x' = 1, the amplitude sqrt(1 + 1/omega^2) = sqrt(1.25).
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    k = np.array([1.0, 2.0, 4.0, 8.0])
    r = mech.sweep(m, points={"k": k, "m": k / 4}, summary=["amp = max(x)"], until=10,
                   dt=0.001, rtol=1e-12, atol=1e-12, progress=False)
    assert list(r["k"]) == list(k) and list(r["m"]) == list(k / 4)
    assert np.all(np.abs(r["amp"] - np.sqrt(1.25)) < 1e-5)
    with pytest.raises(ValueError, match="one length"):
        mech.sweep(m, points={"k": [1.0, 2.0], "m": [1.0]}, summary=["max(x)"])
