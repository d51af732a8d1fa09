# What the benchmark scripts share: running a command as a timed process.
import os
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
