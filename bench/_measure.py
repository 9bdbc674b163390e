"""Run `agentunit` in a child process and read its own peak RSS (VmHWM) as it exits.

RUSAGE_CHILDREN is not used: on Linux a child's ru_maxrss keeps the high-water mark of the
pre-exec parent image, so a big benchmark parent would inflate the figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

_LAUNCHER = """
import atexit, sys
_PEAK_FILE = sys.argv[1]
def _peak():
    with open('/proc/self/status') as s:
        line = next(l for l in s if l.startswith('VmHWM'))
    with open(_PEAK_FILE, 'w') as out:
        out.write(line.split()[1])
atexit.register(_peak)
sys.argv = ['agentunit'] + sys.argv[2:]
from agentunit.cli import program
program()
"""


def run_agentunit(args: list[str], env: dict[str, str] | None = None) -> tuple[int, float, float]:
    """Returns (exit code, wall seconds, peak RSS in MB) of ``agentunit ARGS``."""
    fd, peak_file = tempfile.mkstemp(prefix="au-peak-")
    os.close(fd)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _LAUNCHER, peak_file, *args], env=env)
    wall = time.perf_counter() - start
    with open(peak_file) as handle:
        text = handle.read().strip()
    os.unlink(peak_file)
    return proc.returncode, wall, (int(text) / 1024 if text else float("nan"))
