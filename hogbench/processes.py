"""Worker processes that do not outlive hogbench, and hand back the memory they free; and the
cycle collector paused where hogbench makes objects by the hundred thousand.

joblib's worker processes run batches of pairs. When hogbench is killed (kill -9, a closed
terminal), nothing tells them; they used to go on for minutes. Each asks the kernel, once, to
be killed with the process that started it.
"""

from __future__ import annotations

import functools
import gc
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager


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


#: Starts a command with Ctrl-C ignored: an ignored signal stays ignored across exec, and a
#: Python started so installs no KeyboardInterrupt handler of its own.
_DEAF = ("/bin/sh", "-c", 'trap "" INT; exec "$0" "$@"')


@functools.cache
def pool_workers_deaf_to_ctrl_c() -> None:
    """Start joblib's pool workers (loky's) with Ctrl-C ignored from birth.

    Ctrl-C reaches the whole foreground process group. A pool worker still starting (Python
    importing joblib) or waiting for its first batch took it as a KeyboardInterrupt, printed
    a traceback of its own on hogbench's stderr, and died, breaking the pool while the main
    process was shutting it down. The main process alone stops the pool (it kills its
    workers), so its workers need not hear Ctrl-C at all. ``die_with_parent`` ignores it too,
    but only once a batch has started. Where loky or /bin/sh is missing, nothing changes."""
    if os.name != "posix" or not os.access(_DEAF[0], os.X_OK):
        return
    try:
        from joblib.externals.loky.backend import fork_exec as launcher
    except ImportError:
        return
    start = getattr(launcher, "fork_exec", None)
    if start is None:
        return

    def fork_exec(cmd: list, keep_fds: list, env: dict | None = None) -> int:
        return start([*_DEAF, *cmd], keep_fds, env=env)

    launcher.fork_exec = fork_exec  # loky looks it up each time it starts a worker


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


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector for a block that makes objects by the hundred thousand and
    no reference cycles (a class's pair results, their records): each collection walks every
    object made so far, 2.7 s of a 1000-entrant report. Reference counting frees what it frees
    as before; the collector then runs as it was set."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
