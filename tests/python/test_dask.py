# mech.sweep on a Dask cluster (a LocalCluster of worker processes that load
# the model from its source text) against the same sweep on threads: the
# same columns, bit for bit. Skipped without Debian's python3-distributed.
import numpy as np
import pytest

import mech

distributed = pytest.importorskip("distributed",
                                  reason="Dask's distributed is not installed "
                                         "(python3-distributed)")


def test_dask_sweep_equals_threads(root):
    m = mech.load(str(root / "examples/double_pendulum.mech"), set={"m2": 0.5})
    grid = {"th1": np.linspace(-3, 3, 11), "th2": np.linspace(-2, 2, 5)}
    summary = ["at_end(th2)", "flipped = any(abs(th2) > pi)"]
    threads = mech.sweep(m, grid=grid, summary=summary, until=5, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            remote = mech.sweep(m, grid=grid, summary=summary, until=5, client=client)
    assert set(remote) == set(threads)
    for name, values in threads.items():
        if isinstance(values, list):
            assert remote[name] == values
        else:
            assert remote[name].tobytes() == values.tobytes(), name


def test_dask_paired_points_equal_threads(root):
    m = mech.load(str(root / "tests/cli/models/harmonic_oscillator.mech"))
    points = {"k": np.linspace(1, 9, 13), "m": np.linspace(0.5, 2, 13)}
    threads = mech.sweep(m, points=points, summary=["max(x)"], until=3, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            remote = mech.sweep(m, points=points, summary=["max(x)"], until=3, client=client)
    for name, values in threads.items():
        if isinstance(values, list):
            assert remote[name] == values
        else:
            assert remote[name].tobytes() == values.tobytes(), name
