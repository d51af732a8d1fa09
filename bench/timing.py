# What the benchmark scripts share: running a command as a timed process,
# and reading the summary `mech simulate` prints.
import os
import re
import subprocess
import tempfile
import time


def timed(argv, env=None):
    """Runs argv; returns wall (s), CPU (s, user + system), stdout, stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if code != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {code}:\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime, stdout, stderr


SUMMARY = re.compile(r"(\d+) steps accepted, (\d+) rejected, (\d+) rhs evaluations.*?"
                     r"derive ([\d.]+) s(?: \(cached\))?, compile ([\d.]+) s \(cache (\w+)\), "
                     r"integrate ([\d.]+) s; first step ([\d.]+) s after start", re.S)


def mech_summary(stderr):
    """The numbers of mech simulate's summary: accepted and rejected steps,
    rhs evaluations (nfev), the derive, compile, integrate and first-step
    times (s), and the kernel cache's outcome (cache)."""
    m = SUMMARY.search(stderr)
    if not m:
        raise RuntimeError(f"no summary from mech:\n{stderr}")
    acc, rej, nfev, derive, comp, cache, integ, first = m.groups()
    return dict(accepted=int(acc), rejected=int(rej), nfev=int(nfev), derive=float(derive),
                compile=float(comp), cache=cache, integrate=float(integ), first=float(first))
