"""Worker processes that do not outlive hogbench, and hand back the memory they free.

joblib's worker processes run batches of pairs. When hogbench is killed (kill -9, a closed
terminal), nothing tells them; they used to go on for minutes. Each asks the kernel, once, to
be killed with the process that started it.
"""

from __future__ import annotations

import functools
import signal
import sys
import threading


@functools.cache
def die_with_parent() -> None:
    """In a worker process (joblib's, a cluster's): be killed when the process that started it
    dies (Linux; elsewhere nothing happens), and leave Ctrl-C to it. hogbench's own main
    process is left alone."""
    if not sys.platform.startswith("linux"):
        return
    import multiprocessing  # here: the rule sets import this module, and a duel needs no more

    if multiprocessing.current_process().name == "MainProcess":
        return
    # Ctrl-C is the main process's to handle (it stops the run and says how to resume); a
    # worker that took it too printed a traceback of its own, one per worker.
    # A Dask worker runs tasks in threads, where no handler can be set (ValueError).
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def return_freed_memory() -> None:
    """Give the memory freed on the heap back to the system (glibc's malloc_trim; elsewhere
    nothing). Building Big Pig's model frees some 100 MB of temporaries of mixed sizes, and the
    C library keeps a third of it in holes that a worker then carries for its life (measured:
    236 MB resident after the build, 202 MB after the trim). It takes about 2 ms."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass
