"""Clocks and budgets: what a worker has used, read from the kernel, never from the worker.

The worker sets its own resource limits (``worker.py``, before it imports anything submitted);
here the parent measures the worker's processes from /proc, where a submission cannot lie.

The course's time rule: calling the strategy at every state takes less than its limit (10 s).
A pass is timed as wall time minus the time the worker waited for a CPU (``Clock``), so a
strategy that sleeps is charged for its sleep, and one that computes is not charged for a
machine busy with other work.
"""

from __future__ import annotations

import os
import time

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


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", "rb") as f:
            return [int(child) for child in f.read().split()]
    except (OSError, ValueError):
        return []


def run_queue_wait(pid: int) -> float | None:
    """Seconds the tasks (threads) of process PID have waited, runnable, for a CPU: the second
    field of each task's /proc schedstat. None where the kernel does not report it."""
    total, found = 0, False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as f:
                total += int(f.read().split()[1])
            found = True
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9 if found else None


class Clock:
    """The time a worker takes, as the course's rule means it: wall time minus the time the
    worker waited for a CPU (its run-queue wait, which a busy machine adds and the worker cannot
    help), but never less than the CPU time it used. So sleeping and waiting count, and the
    load of the machine does not.

    ROOT is the process started (bwrap, or the worker itself); the worker is the last of its
    line of single children (bwrap starts one child, which starts the worker), and a worker can
    start no process of its own.
    """

    def __init__(self, root: int) -> None:
        self.root = root
        self.worker = root
        self.started = time.monotonic()
        self.waited = 0.0
        self.cpu = 0.0

    def start(self) -> None:
        """Start counting now (the worker has started and read its job)."""
        pid = self.root
        while len(children := _children(pid)) == 1:
            pid = children[0]
        self.worker = pid
        self.started = time.monotonic()
        self.waited = run_queue_wait(self.worker) or 0.0
        self.cpu = cpu_used(self.root)

    def taken(self) -> tuple[float, float]:
        """(seconds taken since start, of which computing), the first as the rule counts it."""
        wall = time.monotonic() - self.started
        cpu = cpu_used(self.root) - self.cpu
        waited = run_queue_wait(self.worker)
        if waited is None:  # no schedstat: the wall clock, which a busy machine stretches
            return wall, cpu
        return max(wall - (waited - self.waited), cpu), cpu


def how(taken: float, computing: float) -> str:
    """What a worker did with TAKEN seconds, COMPUTING of them on a CPU, in words."""
    idle = max(taken - computing, 0.0)
    if idle <= 0.1 * taken:
        return "computing"
    if computing <= 0.1 * taken:
        return "sleeping or waiting"
    return "computing, and sleeping or waiting"
