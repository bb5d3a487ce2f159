"""One worker process: started (in bwrap or not), fed on one pipe, read on another, its output
drained and cut, its clocks watched, and killed with its whole process group."""

from __future__ import annotations

import json
import math
import os
import select
import signal
import struct
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hogbench.errors import HogbenchError
from hogbench.names import without_host_paths
from hogbench.sandbox.bwrap import bwrap_args, choose, worker_command
from hogbench.sandbox.imports import COURSE_MODULES, importable, importable_paths
from hogbench.sandbox.limits import CPU_CHECK_SECONDS, Clock, cpu_used
from hogbench.sandbox.protocol import SMALL, Bounds, Lines, clean, format_size, parse_message
from hogbench.sandbox.request import Request
from hogbench.submission import private_folder, remove

KEEP_OUTPUT = 2048  # bytes kept from the start and from the end of stdout, and of stderr

#: This thread's workers with a reply under way (live play asks two workers at once, then reads
#: one reply after the other): while the parent waits on one worker, the others' replies are
#: read as they arrive, so each worker is timed to the moment its own reply was whole, never to
#: the moment the parent got round to it.
_under_way = threading.local()


def _answering() -> set[Worker]:
    if not hasattr(_under_way, "workers"):
        _under_way.workers = set()
    return _under_way.workers


class Timeout(Exception):
    """The worker did not answer in time (wall clock, or its CPU budget ran out)."""


class Stopped(HogbenchError):
    """The run is being stopped (Ctrl-C): the worker was killed by hogbench, so what it did
    says nothing of the submission, and no verdict may be drawn from it."""


#: Every worker of this process still open, and whether the run is stopping (see ``stop_all``).
_open_workers: weakref.WeakSet[Worker] = weakref.WeakSet()
_stopping = threading.Event()


def stopping() -> bool:
    return _stopping.is_set()


@contextmanager
def stop_all() -> Iterator[None]:
    """Kill every worker of this process, from any thread, and start none until the block
    ends. Ctrl-C while loading in threads: the loads under way end at once instead of running
    to their limits (each worker is in a session of its own, so the terminal's SIGINT does not
    reach it), and none of them becomes a verdict."""
    _stopping.set()
    try:
        for worker in list(_open_workers):
            worker.kill()
        yield
    finally:
        _stopping.clear()


def worker_environment(home: str) -> dict[str, str]:
    """The whole environment a worker starts with, its home and temporary folder HOME: nothing
    of hogbench's own is passed on."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONHASHSEED": "0",  # the same set order in every run, so cached tables stay true
        # numpy's BLAS would start threads, which the process limit refuses
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


class Worker:
    """One worker process: the job goes in on one pipe, messages come back on another."""

    def __init__(self, folder: Path, request: Request, cpu_seconds: int, bundled: bool = False):
        if stopping():
            raise Stopped("the run is stopping: no worker is started")
        exe = choose(request, bundled)
        self.isolated = exe is not None
        self.lines = Lines()
        self.closed = False
        self.status: int | None = None
        #: seconds the worker may take in all, as ``limits.Clock`` counts them from its start
        self.budget: float | None = None
        self.over_budget = False
        #: seconds (as ``limits.Clock`` counts them) spent answering what it was asked: from
        #: each request to its whole reply; the worker's own time in live play, its idle time
        #: between requests left out
        self.answering = 0.0
        self._asked_at: float | None = None
        self._whole: Any = None  # says, of what has arrived, whether the reply is whole
        # The index of the call under way, written by the worker, read here after a hang/crash.
        self.positions = tempfile.TemporaryFile()
        self.positions.write(struct.pack("q", -1))
        self.positions.flush()
        cmd_read, self.cmd = os.pipe()
        self.res, res_write = os.pipe()
        fds = (cmd_read, res_write, self.positions.fileno())
        memory = request.memory_mb << 20
        command, code_fds = worker_command()
        argv = [*command, *map(str, fds), str(memory)]
        argv += [str(cpu_seconds), str(int(exe is not None))]
        self.scratch = None
        if exe is not None:
            allowed = request.allow_imports
            visible = [COURSE_MODULES, importable(allowed), *importable_paths(allowed)]
            argv = [*bwrap_args(exe, folder, visible), "--", *argv]
            home = "/tmp"  # private to this worker
        else:
            self.scratch = home = str(private_folder("worker"))  # removed by a later run if we die
        env = worker_environment(home)
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(*fds, *code_fds),
                cwd=folder,
                env=env,
                start_new_session=True,  # one process group, killed as one
            )
        except BaseException as exc:
            for fd in (self.cmd, self.res):
                os.close(fd)
            self.closed = True
            if isinstance(exc, OSError):  # this machine's fault, not the submission's: one line
                raise HogbenchError(
                    f"cannot start a worker process: {exc.strerror} ({without_host_paths(argv[0])})"
                ) from None
            raise
        finally:
            os.close(cmd_read)
            os.close(res_write)
        os.set_blocking(self.cmd, False)
        _open_workers.add(self)
        if stopping():  # stop_all ran while it was starting
            self.kill()
        self.clock = Clock(self.proc.pid)
        self.stdout = Capture(self.proc.stdout)
        self.stderr = Capture(self.proc.stderr)

    def send(self, message: Any, deadline: float) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n", deadline)

    def send_raw(self, block: bytes, deadline: float) -> None:
        """Write BLOCK whole (a line, or the raw data a line announced)."""
        data = memoryview(block)
        while data:
            self._wait(self.cmd, select.POLLOUT, deadline)
            try:
                data = data[os.write(self.cmd, data[: 1 << 16]) :]
            except BlockingIOError:
                pass

    def asked(self, whole: Any) -> None:
        """A request was sent: time it until its reply is whole (``WHOLE(buffer)`` says when,
        and must say so too once the buffer is past the reply's bounds) or ``answered``."""
        self._asked_at = self.clock.taken()[0]
        self._whole = whole
        _answering().add(self)

    def answered(self) -> None:
        """The reply to the request under way is whole: its time is the worker's own."""
        if self._asked_at is not None:
            self.answering += max(self.clock.taken()[0] - self._asked_at, 0.0)
        self._asked_at = self._whole = None
        _answering().discard(self)

    def _collect(self) -> None:
        """Read what has come of a reply under way while the parent waits on another worker."""
        try:
            chunk = os.read(self.res, 1 << 20)
        except OSError:  # its pipe is broken: it has said all it will (its reader finds why)
            chunk = b""
        self.lines.feed(chunk)
        if not chunk or self._whole(self.lines.buffer):
            self.answered()

    def receive(self, deadline: float, bounds: Bounds = SMALL) -> dict | None:
        """The next message (a one-key dict, within BOUNDS), or None when the worker closed its
        pipe; Malformed as soon as it is over its bounds, so the parent never holds more."""
        while (line := self.lines.next_line(bounds.size)) is None:
            if not self._read(deadline):
                return None
        return parse_message(line, bounds)

    def receive_raw(self, count: int, deadline: float) -> bytes | None:
        """The next COUNT raw bytes, or None when the worker closed its pipe first."""
        while (block := self.lines.take(count)) is None:
            if not self._read(deadline):
                return None
        return block

    def _read(self, deadline: float) -> bool:
        self._wait(self.res, select.POLLIN, deadline)
        chunk = os.read(self.res, 1 << 20)
        self.lines.feed(chunk)
        return bool(chunk)

    def _wait(self, fd: int, event: int, deadline: float) -> None:
        """Wait for FD until DEADLINE (wall clock), or until the worker has taken more time than
        its budget; Timeout then."""
        # poll, not select: a tournament loading in threads may hold fds past select's 1024.
        while True:
            poller = select.poll()
            poller.register(fd, event)
            others = {w.res: w for w in _answering() if w is not self}
            for other in others:
                poller.register(other, select.POLLIN)
            timeout = deadline - time.monotonic()
            if timeout <= 0:
                raise Timeout
            ready = poller.poll(math.ceil(min(timeout, CPU_CHECK_SECONDS) * 1000))
            for ready_fd, _ in ready:
                if ready_fd in others:
                    others[ready_fd]._collect()
            if any(ready_fd == fd for ready_fd, _ in ready):
                return
            if ready:
                continue
            if self.budget is not None and self.clock.taken()[0] > self.budget:
                self.over_budget = True
                raise Timeout

    def cpu_used(self) -> float:
        """CPU seconds used so far by the worker's processes."""
        return cpu_used(self.proc.pid)

    def position(self) -> int:
        try:
            return struct.unpack("q", os.pread(self.positions.fileno(), 8, 0))[0]
        except (OSError, ValueError, struct.error):
            return -1

    def output(self) -> tuple[str, int]:
        """What the worker printed (stdout, then stderr, each cut), and how many bytes in all."""
        text = "\n".join(filter(None, (self.stdout.text(), self.stderr.text())))
        return text, self.stdout.total + self.stderr.total

    def exit_status(self) -> int | None:
        """The status of a worker that closed its pipe, or None if it lives on without it."""
        try:
            self.status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None
        return self.status

    def signal_of(self, status: int) -> int:
        if status < 0:
            return -status
        if self.isolated and status > 128:  # bwrap reports a death by signal as 128 + signal
            return status - 128
        return 0

    def kill(self) -> None:
        """Kill the worker's whole process group, from any thread (the thread reading from it
        then sees it die, and closes it)."""
        if not self.closed and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass

    def close(self) -> None:
        """Kill the worker's whole process group and reap it; safe to call again."""
        if self.closed:
            return
        self.closed = True
        _answering().discard(self)  # its pipes close: nobody may wait on them any more
        if self.proc.poll() is None:  # once reaped, its pid may belong to someone else
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
        self.proc.wait()
        for fd in (self.cmd, self.res):
            os.close(fd)
        self.positions.close()
        if self.scratch is not None:
            remove(Path(self.scratch))  # however deep the worker made it


class Capture:
    """Drains a worker's stdout or stderr in a thread, keeping only its head and tail."""

    def __init__(self, stream: Any) -> None:
        self.head = b""
        self.tail = b""
        self.total = 0
        self.thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self.thread.start()

    def _drain(self, stream: Any) -> None:
        with stream:
            while chunk := os.read(stream.fileno(), 1 << 16):
                self.total += len(chunk)
                if len(self.head) < KEEP_OUTPUT:
                    self.head += chunk[: KEEP_OUTPUT - len(self.head)]
                self.tail = (self.tail + chunk)[-KEEP_OUTPUT:]

    def text(self) -> str:
        self.thread.join(timeout=1.0)  # the worker is gone or done: the pipe ends promptly
        rest = self.total - len(self.head)  # bytes after the head
        if rest <= len(self.tail):
            data = self.head + self.tail[len(self.tail) - rest :]
        else:
            cut = f"\n[... {format_size(rest - len(self.tail))} cut ...]\n".encode()
            data = self.head + cut + self.tail
        return clean(data.decode("utf-8", "replace"), 3 * KEEP_OUTPUT, newlines=True)
