# Sourced by the benchmark scripts: sets $root (the source tree) and $mech,
# the mech to measure: $MECH, or a Release build in build-bench/, made on
# first use so that a benchmark never measures a debug or sanitizer build.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mech="${MECH:-$root/build-bench/mech}"
if [ ! -x "$mech" ]; then
  cmake -S "$root" -B "$root/build-bench" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  ninja -C "$root/build-bench" -j2 mech >/dev/null
fi

# The Python of the SciPy comparisons (PYTHON, default Debian's, which has
# SciPy) and the one that drives the measurements.
python="${PYTHON:-/usr/bin/python3}"
[ -x "$python" ] || python=python3
driver=/usr/bin/python3
[ -x "$driver" ] || driver=python3
