# Runs the Python package's tests under ctest, or says why they are skipped
# (exit 77): pytest or NumPy missing.
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
if __name__ == "__main__":
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
