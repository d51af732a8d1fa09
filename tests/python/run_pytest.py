# Runs the Python package's tests under ctest, or says why they are skipped
# (exit 77): pytest or NumPy missing, or a test skipped for a missing
# package (its reason printed): a part not run is never reported as passed.
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as missing:
    print(f"skipped: {missing.name} is not installed (python3-numpy, python3-pytest; "
          "scripts/install-deps.sh)")
    sys.exit(77)

# Guarded: Dask's worker processes (test_dask.py) start by importing the
# main module, which must not run the tests again.
class Skips:
    # The tests pytest skipped, with their reasons.
    def __init__(self):
        self.reasons = []

    def pytest_runtest_logreport(self, report):
        if report.skipped:
            self.reasons.append(f"{report.nodeid}: {report.longrepr[2]}")


if __name__ == "__main__":
    skips = Skips()
    status = pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]], plugins=[skips])
    if status == 0 and skips.reasons:
        for reason in skips.reasons:
            print(f"skipped: {reason}")
        sys.exit(77)
    sys.exit(status)
