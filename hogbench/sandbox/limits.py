"""Clocks and budgets: what a worker has used, read from the kernel, never from the worker.

The worker sets its own resource limits (``worker.py``, before it imports anything submitted);
here the parent measures the worker's processes from /proc, where a submission cannot lie.
"""

from __future__ import annotations

import os

_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
CPU_CHECK_SECONDS = 0.1  # how often a waiting parent looks at the worker's clocks


def cpu_used(root: int) -> float:
    """CPU seconds used so far by process ROOT and every process it started (bwrap and what it
    started), read from /proc."""
    total, pending, seen = 0, [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
                pending += [int(child) for child in f.read().split()]
        except (OSError, ValueError, IndexError):
            continue
    return total / _CLOCK_TICKS
