#!/usr/bin/env bash
# Installs the Python packages the tests use that Debian does not package
# (scripts/install-deps.sh installs the rest): fmpy, which validates and
# simulates the FMUs of `mech build --fmu` (tests/python/test_fmu.py). They
# go into a virtual environment, $root/.venv, made over Debian's python3
# with its site packages (NumPy, pytest), so that nothing is installed into
# the system's Python. Without a network (or with any other failure) it
# says why and exits 0: the tests that need fmpy are then reported skipped,
# and the caller (scripts/test.sh) goes on.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
fmpy_version=0.3.22

not_installed() {
  echo "install-python-extras.sh: fmpy not installed: $1"
  exit 0
}

if [ ! -x "$venv/bin/python" ]; then
  [ -x /usr/bin/python3 ] || not_installed "/usr/bin/python3 is missing (scripts/install-deps.sh)"
  out="$(/usr/bin/python3 -m venv --system-site-packages "$venv" 2>&1)" ||
    not_installed "python3 -m venv failed (python3-venv): $(tail -1 <<<"$out")"
fi

if [ "$("$venv/bin/python" -c 'import fmpy; print(fmpy.__version__)' 2>/dev/null)" = "$fmpy_version" ]; then
  exit 0
fi
# pip's own retries are cut short: without a network it would otherwise
# wait for minutes before giving up.
out="$("$venv/bin/python" -m pip install --disable-pip-version-check --retries 1 --timeout 15 \
  "fmpy==$fmpy_version" 2>&1)" || not_installed "pip failed: $(grep -m1 -E 'ERROR|error' <<<"$out" || tail -1 <<<"$out")"
echo "install-python-extras.sh: fmpy $fmpy_version installed in $venv"
