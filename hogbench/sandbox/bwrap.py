"""Namespaces and mounts: the bubblewrap sandbox a worker runs in, and when to do without it.

Where bwrap works (tried once per process), the worker runs inside it:

* unshared network, IPC, UTS and PID namespaces (``--unshare-all``: no network at all), its own
  session, killed when we die, every capability dropped (even as root);
* read-only system directories, Python installation and the worker's own files; of the user's
  files only the submission's private copy, read-only; a private empty ``/tmp``, which is also
  HOME; nothing else (no home directory, no other submissions); the root itself is read-only.

Without bwrap (or with --no-sandbox) the worker runs with its limits and system-call filter
only, after a one-line warning; ``require_sandbox`` refuses instead.
"""

from __future__ import annotations

import functools
import marshal
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hogbench.bundled import is_bundled
from hogbench.errors import HogbenchError, StrategyError, UsageError
from hogbench.sandbox.request import Request
from hogbench.submission import snapshot

#: The worker script and the stdlib-only modules it loads beside it: all a worker sees of us.
WORKER = Path(__file__).with_name("worker.py").resolve()
WORKER_FILES = tuple(
    Path(__file__).with_name(name).resolve() for name in ("worker.py", "seccomp.py", "landlock.py")
)
INSIDE = "/submission"  # where a worker inside bwrap finds its private copy
SANDBOX_ENV = "HOGBENCH_SANDBOX"  # no longer read: only --no-sandbox turns the sandbox off
STARTUP_SECONDS = 10.0
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

#: What a submission can do when it runs without bwrap, said whenever that happens.
UNSANDBOXED = (
    "submitted strategies run with resource limits, a system-call filter and Landlock where the"
    " kernel has it, but no sandbox: each can read every file you can read, and, where the"
    " kernel has no Landlock, change or delete your files, other submissions and the results"
    " store"
)

_warned = False


@functools.cache
def bwrap_path() -> str | None:
    """bwrap, if it is installed and can build our sandbox on this machine (tried once)."""
    exe = shutil.which("bwrap")
    if exe is None:
        return None
    probe = [*bwrap_args(exe, WORKER.parent), "--", sys.executable, "-S", "-c", "pass"]
    try:
        done = subprocess.run(probe, capture_output=True, timeout=STARTUP_SECONDS)
    except (OSError, subprocess.SubprocessError):
        return None
    return exe if done.returncode == 0 else None


def turned_off(request: Request | None = None) -> bool:
    """Whether the user asked for no sandbox: --no-sandbox (no_sandbox in the request) alone.

    HOGBENCH_SANDBOX=off once turned it off too, so a setting left in a shell's profile ran a
    whole tournament unsandboxed without a word on the command line. It means nothing now;
    where it is set, one line says so."""
    global _env_noted
    if request is not None and request.no_sandbox:
        return True
    if os.environ.get(SANDBOX_ENV, "").strip() and not _env_noted:
        _env_noted = True
        print(
            f"hogbench: note: {SANDBOX_ENV} is ignored; pass --no-sandbox to run submissions"
            " without the sandbox",
            file=sys.stderr,
        )
    return False


_env_noted = False


#: Said once when a run goes on without bwrap because its files are hogbench's own.
BUNDLED_ONLY = (
    "bwrap (bubblewrap) is not installed or does not work here: these entrants are hogbench's"
    " own bundled strategy files (each matches its recorded digest), so they run without the"
    " sandbox, under its limits; a folder of submissions needs bubblewrap"
)


def refuse_without_sandbox(
    what: str, request: Request | None = None, files: Sequence[Any] = ()
) -> bool:
    """For commands that run several submissions: refuse to start without a working bwrap
    unless the user turned the sandbox off knowingly, or every one of FILES (entries with a
    ``path`` and ``share``) is one of hogbench's own bundled files.

    True when the run goes on only because of the latter: it then says so in one line, and
    should run with ``bundled_only`` so that a file changed since is refused, not run.
    """
    if turned_off(request) or bwrap_path() is not None:
        return False
    if files and all(_bundled(entry.path, entry.share) for entry in files):
        print(f"hogbench: {BUNDLED_ONLY}", file=sys.stderr)
        return True
    raise UsageError(
        f"bwrap (bubblewrap) is not installed or does not work here, so {what} would run"
        " submissions unsandboxed: install it (apt-get install bubblewrap), or pass"
        f" --no-sandbox to run them anyway ({UNSANDBOXED})"
    )


def _bundled(path: Path, share: Path | None) -> bool:
    """Whether every file an entrant's worker would see is one of hogbench's own."""
    try:
        return is_bundled(snapshot(path, share).files.values())
    except StrategyError:  # unreadable: it is disqualified when loaded, and is not ours
        return False


def choose(request: Request, bundled: bool = False) -> str | None:
    """The bwrap to run a worker in, or None to run it with its limits only (warned once;
    BUNDLED: the worker's files are all hogbench's own, so there is nothing to warn about)."""
    global _warned
    if turned_off(request):
        why = "the sandbox is turned off"
    else:
        exe = bwrap_path()
        if exe is not None:
            return exe
        why = "bwrap (bubblewrap) is not installed or does not work here"
    if request.require_sandbox:
        raise HogbenchError(f"refusing to run submitted code without the sandbox: {why}")
    if bundled:
        return None
    if request.bundled_only:
        raise HogbenchError(
            f"refusing to run a file without the sandbox ({why}): it is no longer one of"
            " hogbench's own bundled files"
        )
    if not _warned:
        _warned = True
        print(f"hogbench: warning: {why}; {UNSANDBOXED}", file=sys.stderr)
    return None


def bwrap_args(exe: str, folder: Path, visible: Sequence[Path] = ()) -> list[str]:
    """bwrap's arguments for a worker that sees FOLDER (read-only, at INSIDE) and VISIBLE."""
    # --cap-drop ALL: run as root, bwrap would otherwise leave the worker every capability
    # inside its namespaces (enough to remount its folder writable).
    args = [exe, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    # The kernel's knobs stay read-only even for a worker that got a capability back.
    args += ["--ro-bind", "/proc/sys", "/proc/sys"]
    for top in SYSTEM_DIRS:
        if os.path.islink(top):  # merged /usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    args += ["--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]  # the dynamic linker's index
    for path in [*python_dirs(), *map(str, WORKER_FILES), *map(str, visible)]:
        args += ["--ro-bind", path, path]
    args += ["--ro-bind", str(folder), INSIDE]
    # Last: the root (where bwrap made the mount points) becomes read-only; /tmp stays writable.
    return [*args, "--chdir", INSIDE, "--remount-ro", "/"]


#: Runs the worker compiled into sealed memory file FD of SIZE bytes (``worker_command``): the
#: path's first entry (the folder it starts in, the submission's) goes before anything is
#: imported, as the worker does when run as a script.
BOOTSTRAP = (
    "import sys;del sys.path[0];import marshal,os;"
    "_COMPILED=marshal.loads(os.pread({fd},{size},0));os.close({fd});"
    "__file__={file!r};exec(_COMPILED.pop('worker'))"
)

_compiling = threading.Lock()
_compiled: tuple[list[str], tuple[int, ...]] | None = None


def worker_command() -> tuple[list[str], tuple[int, ...]]:
    """How to start a worker: the interpreter's command line before the worker's arguments,
    and the file descriptors it must inherit.

    On Linux the worker and its siblings are compiled here once per process, not by every
    worker from source (4 ms a start, measured), into a memory file sealed against any change
    (``memfd_create``, ``F_SEAL_WRITE``): code a submission could have written is never run as
    ours. Elsewhere, or where the kernel cannot seal, the worker runs as a script."""
    global _compiled
    with _compiling:
        if _compiled is None:
            _compiled = _sealed_worker() or ([sys.executable, "-S", "-B", str(WORKER)], ())
        return _compiled


def _sealed_worker() -> tuple[list[str], tuple[int, ...]] | None:
    if not hasattr(os, "memfd_create"):
        return None
    import fcntl

    codes = {}
    for path in WORKER_FILES:
        codes[path.stem] = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    data = marshal.dumps(codes)
    try:
        fd = os.memfd_create("hogbench-worker", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    except OSError:
        return None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        seals = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, seals)
    except (OSError, AttributeError):
        os.close(fd)
        return None
    code = BOOTSTRAP.format(fd=fd, size=len(data), file=str(WORKER))
    return [sys.executable, "-S", "-B", "-c", code], (fd,)


@functools.cache
def python_dirs() -> list[str]:
    """Where the interpreter lives, outside the system directories (a pyenv, venv or conda)."""
    dirs = {sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))}
    dirs.add(os.path.dirname(sys.executable))
    outside = [
        d for d in dirs if not any(d == top or d.startswith(top + "/") for top in SYSTEM_DIRS)
    ]
    return sorted(outside, key=len)  # parents before children
