# Shared fixtures of the Python package's tests: where the sources and the
# CLI are (ctest passes them in the environment).
import os
import pathlib

import pytest

ROOT = pathlib.Path(os.environ.get("MECH_SOURCE", pathlib.Path(__file__).parents[2]))
MECH = os.environ.get("MECH_BINARY", str(ROOT / "build" / "mech"))


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def mech_binary():
    return MECH
