"""Worker processes that do not outlive hogbench.

joblib's worker processes run batches of pairs. When hogbench is killed (kill -9, a closed
terminal), nothing tells them; they used to go on for minutes. Each asks the kernel, once, to
be killed with the process that started it.
"""

from __future__ import annotations

import functools
import multiprocessing
import signal
import sys


@functools.cache
def die_with_parent() -> None:
    """In a worker process (joblib's, a cluster's): be killed when the process that started it
    dies (Linux; elsewhere nothing happens). hogbench's own main process is left alone."""
    if not sys.platform.startswith("linux"):
        return
    if multiprocessing.current_process().name == "MainProcess":
        return
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
