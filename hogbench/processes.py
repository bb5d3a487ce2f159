"""Worker processes that do not outlive hogbench.

joblib's worker processes run batches of pairs. When hogbench is killed (kill -9, a closed
terminal), nothing tells them; they used to go on for minutes. Each asks the kernel, once, to
be killed with the hogbench process that started it.
"""

from __future__ import annotations

import functools
import os
import signal
import sys

#: The pid of the hogbench process that imported this first; its workers inherit it.
PARENT_ENV = "HOGBENCH_PARENT_PID"
os.environ.setdefault(PARENT_ENV, str(os.getpid()))


@functools.cache
def die_with_parent() -> None:
    """In a worker that hogbench started: be killed when hogbench dies (Linux; elsewhere
    nothing happens). hogbench itself, whose parent is a shell, is left alone."""
    if not sys.platform.startswith("linux"):
        return
    if str(os.getppid()) != os.environ.get(PARENT_ENV):
        return
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
