"""What of a submission the sandbox may see, read safely by the trusted side.

A worker never sees the user's folders. It sees a private, read-only copy of exactly the files
that belong to the entrant (its *share*), made here:

* a single-file command (``duel hog.py``): the file and the ``.py`` files beside it (a student's
  own helpers, which ``from hog import *`` may need);
* a flat class folder: the one file, and nothing of any classmate;
* a per-student folder: that folder, recursively.

Everything is read without trusting the folder: regular files only (a FIFO, a device or a link
to ``/dev/zero`` never blocks or floods us), of bounded size and number, through no symbolic
link that leaves the share. The copy's digest is the cache key of everything computed from it.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hogbench.errors import StrategyError
from hogbench.names import shown

MAX_FILE_BYTES = 1 << 20  # a strategy file is a few KB; a 1 MB one is not a strategy
MAX_TOTAL_BYTES = 20 << 20
MAX_FILES = 200
#: How deep into a student's folder, and into how many folders, helper files are looked for.
MAX_DEPTH = 8
MAX_FOLDERS = 400
SKIP_FOLDERS = {"__pycache__", ".git", ".hg", ".svn", "node_modules", ".ipynb_checkpoints"}


@dataclass(frozen=True)
class Snapshot:
    """The files an entrant's worker sees: relative path -> content, and which is the strategy."""

    main: str  # relative path of the strategy file
    files: dict[str, bytes]

    @property
    def digest(self) -> str:
        """What identifies the code: every file's name and content, and which one is main."""
        h = hashlib.sha256(os.fsencode(self.main))
        for name in sorted(self.files):
            # fsencode: a helper's name may be bytes that are not UTF-8 (kept as the OS has it)
            h.update(b"\0" + os.fsencode(name) + b"\0" + hashlib.sha256(self.files[name]).digest())
        return h.hexdigest()

    def materialize(self) -> Path:
        """Write the files into a fresh private folder, read-only; the caller removes it with
        ``remove``."""
        folder = private_folder("entrant")
        for name, data in self.files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            target.chmod(0o444)
        for path in sorted(folder.rglob("*"), reverse=True):
            if path.is_dir():
                path.chmod(0o555)
        folder.chmod(0o555)
        return folder


def private_folder(kind: str) -> Path:
    """A fresh folder under $TMPDIR, readable by this user alone, named for KIND and for this
    process, so that a later run can tell the leftovers of one killed with kill -9 (which runs
    no clean-up) from the folders of a run still going (``clean_leftovers``)."""
    return Path(tempfile.mkdtemp(prefix=f"hogbench-{kind}-{os.getpid()}-"))


_PRIVATE = re.compile(r"hogbench-[a-z]+-(\d+)-")


def clean_leftovers(folder: Path | None = None) -> int:
    """Remove the private folders (``private_folder``) that processes now gone left in FOLDER
    ($TMPDIR by default); this user's only. Returns how many were removed."""
    folder = Path(tempfile.gettempdir()) if folder is None else folder
    removed = 0
    try:
        listing = os.scandir(folder)
    except OSError:
        return 0
    with listing:
        for entry in listing:
            found = _PRIVATE.match(entry.name)
            try:
                if not found or not entry.is_dir(follow_symlinks=False):
                    continue
                if entry.stat(follow_symlinks=False).st_uid != os.getuid():
                    continue
            except OSError:
                continue
            if not _alive(int(found[1])):
                remove(Path(entry.path))
                removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process: alive
        return True
    return True


def remove(folder: Path) -> None:
    """Remove a private folder however it was left: read-only folders (a materialized copy),
    or a tree thousands deep that a worker run without the sandbox made in its scratch folder
    (shutil.rmtree recurses, and fails there). One descriptor is held at a time."""
    try:
        info = os.lstat(folder)
    except OSError:
        return
    if not stat.S_ISDIR(info.st_mode):
        _quietly(os.unlink, folder)
        return
    _quietly(os.chmod, folder, 0o700)
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return
    below: list[str] = []
    stuck: list[set[str]] = [set()]  # per level: folders that could not be entered
    while True:
        sub = None
        try:
            names = os.listdir(fd)
        except OSError:
            names = []
        for name in names:
            if name in stuck[-1]:
                continue
            try:
                mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
            except OSError:
                continue
            if not stat.S_ISDIR(mode):
                _quietly(os.unlink, name, dir_fd=fd)
                continue
            _quietly(os.chmod, name, 0o700, dir_fd=fd, follow_symlinks=False)
            sub = name
            break
        if sub is not None:
            try:
                inner = os.open(sub, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except OSError:
                stuck[-1].add(sub)
                continue
            os.close(fd)
            fd = inner
            below.append(sub)
            stuck.append(set())
        elif below:
            up = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = up
            stuck.pop()
            name = below.pop()
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                stuck[-1].add(name)  # something in it stays: leave it
        else:
            os.close(fd)
            break
    _quietly(os.rmdir, folder)


def _quietly(action, *args, **kwargs) -> None:  # noqa: ANN001
    try:
        action(*args, **kwargs)
    except OSError:
        pass


def snapshot(path: Path, share: Path | None = None) -> Snapshot:
    """The files of the entrant whose strategy file is PATH, given its SHARE (see the module
    docstring). StrategyError when the strategy file itself cannot be read safely."""
    where = shown(path)
    if share is None:  # a file the user named, and the .py files beside it
        # A link is followed as a tournament follows it: only to a file in its own folder (a
        # student's hog.py -> /etc/shadow is never read, so never quoted in a syntax error).
        main = path.name
        folder = Path(os.path.abspath(path)).parent.resolve()
        files = {main: _read(path, where, follow=False, root=folder)}
        for sibling in sorted(folder.glob("*.py")):
            if sibling.name != main and len(files) < MAX_FILES:
                data = _read_quietly(sibling, folder)
                if data is not None:
                    files[sibling.name] = data
        return _bounded(Snapshot(main, files), where)
    if share == path or share.is_file() or not share.exists():
        return Snapshot(path.name, {path.name: _read(path, where, follow=False)})
    try:
        root, real = share.resolve(), path.resolve(strict=True)
    except (OSError, RuntimeError):  # a loop, a broken link
        raise StrategyError(where, "is a link that leads to no file") from None
    main = str(real.relative_to(root)) if real.is_relative_to(root) else None
    if main is None:
        raise StrategyError(where, "is not inside its own folder")
    files = {main: _read(path, where, follow=False, root=root)}
    looked = 0
    for folder, dirs, names in os.walk(root):
        looked += 1
        depth = len(Path(folder).relative_to(root).parts)
        if depth >= MAX_DEPTH or looked >= MAX_FOLDERS:  # a tree thousands deep or wide
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if d not in SKIP_FOLDERS and not d.startswith("."))
        for name in sorted(names):
            if len(files) >= MAX_FILES:
                break
            full = Path(folder) / name
            relative = str(full.relative_to(root))
            if relative not in files:
                data = _read_quietly(full, root)
                if data is not None:
                    files[relative] = data
    return _bounded(Snapshot(main, files), where)


def _bounded(snap: Snapshot, where: str) -> Snapshot:
    """Drop helper files past the total size limit (the strategy file is always kept)."""
    total = len(snap.files[snap.main])
    kept = {snap.main: snap.files[snap.main]}
    for name, data in snap.files.items():
        if name != snap.main and total + len(data) <= MAX_TOTAL_BYTES:
            kept[name] = data
            total += len(data)
    return Snapshot(snap.main, kept)


def _read(path: Path, where: str, follow: bool, root: Path | None = None) -> bytes:
    """The strategy file's bytes; StrategyError saying why it cannot be the strategy."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise StrategyError(where, f"cannot be read ({exc.strerror})") from None
    if stat.S_ISLNK(info.st_mode):
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):  # a loop, a broken link
            raise StrategyError(where, "is a link that leads to no file") from None
        inside = root is not None and target.is_relative_to(root)
        if not follow and not inside:
            raise StrategyError(where, "is a link to a file outside its folder; hand in the file")
        path = target
    data, problem = _read_regular(path)
    if problem is not None:
        raise StrategyError(where, problem)
    return data  # type: ignore[return-value]


def _read_quietly(path: Path, root: Path) -> bytes | None:
    """A helper file's bytes, or None when it is not a regular file inside ROOT that fits."""
    try:
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            return None
    except (OSError, RuntimeError):
        return None
    data, problem = _read_regular(path)
    return None if problem is not None else data


def _read_regular(path: Path) -> tuple[bytes | None, str | None]:
    """Read a regular file of at most MAX_FILE_BYTES without ever blocking on it."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            return None, "is a folder, not a file"
        if not stat.S_ISREG(info.st_mode):
            return None, "is not a regular file (a pipe, socket or device)"
        if info.st_size > MAX_FILE_BYTES:
            return None, f"is larger than {MAX_FILE_BYTES >> 20} MB: not a strategy file"
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_FILE_BYTES:
                return None, f"is larger than {MAX_FILE_BYTES >> 20} MB: not a strategy file"
        return b"".join(chunks), None
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    finally:
        os.close(fd)
