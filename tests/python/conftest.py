# Shared fixtures of the Python package's tests: where the sources and the
# CLI are (ctest passes them in the environment).
import os
import pathlib

import pytest

ROOT = pathlib.Path(os.environ.get("MECH_SOURCE", pathlib.Path(__file__).parents[2]))
MECH = os.environ.get("MECH_BINARY", str(ROOT / "build" / "mech"))


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "optional: needs a package scripts/install-deps.sh does not install; run by "
        "the ctest python_optional_tests, reported Skipped with the reason without it")
    config.addinivalue_line(
        "markers", "fmpy: needs fmpy (scripts/install-python-extras.sh puts it in .venv); run by "
        "the ctest python_fmu_tests under that Python, reported Skipped without it")


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def mech_binary():
    return MECH
