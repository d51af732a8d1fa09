# Runs tests/python/test_fmu.py (fmpy against the FMUs of `mech build
# --fmu`) under a Python that has fmpy: the project's .venv, where
# scripts/install-python-extras.sh installs it (fmpy is not a Debian
# package), else the system's python3. Without fmpy in either, the test is
# skipped (exit 77, which ctest reports as Skipped) with the reason, never
# passed. Argument: SOURCE_ROOT; ctest sets MECH_BINARY and MECH_SOURCE.
root="$1"
# No __pycache__ folders in the source tree (test_fmu.py imports
# tests/fmu/compare_csv.py).
export PYTHONDONTWRITEBYTECODE=1
for python in "$root/.venv/bin/python" /usr/bin/python3 python3; do
  if "$python" -c 'import fmpy' 2>/dev/null; then
    # With the Python package built (PYTHONPATH), also the tests of other
    # files that need fmpy (the control example's FMU loop).
    tests="$root/tests/python/test_fmu.py"
    if "$python" -c 'import mech' 2>/dev/null; then
      tests="$tests $root/tests/python/test_control_example.py"
    fi
    exec "$python" "$root/tests/python/run_pytest.py" $tests -m fmpy
  fi
done
if [ -x "$root/.venv/bin/python" ]; then
  echo "skipped: fmpy is not installed in $root/.venv nor for the system's python3 (scripts/install-python-extras.sh installs it; it needs the network)"
else
  echo "skipped: fmpy is not installed ($root/.venv is missing: scripts/install-python-extras.sh makes it and installs fmpy)"
fi
exit 77
