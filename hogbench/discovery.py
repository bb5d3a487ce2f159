"""Finding the entrants of a class tournament in what a course exports.

A source is a built-in spec (``always_roll:6``), a file, a glob, or a folder. A folder is read
as the layouts course exports have:

* flat: ``subs/alice.py``, ``subs/bob.py`` (each file one entrant, seeing only itself);
* per student: ``subs/alice/hog.py`` with Alice's own helper files, possibly a level or two
  deeper (``subs/alice/submission/hog.py``): the entrant is named after the student's folder
  and sees that folder only;
* both at once.

The course's own helper modules (dice.py, ucb.py, hog_gui.py, tests ...) are never entrants.
Nothing here opens a file: folder entries are classified with lstat, so a FIFO, a device, a
folder named like a file, a link out of the folder, a link loop, or a name that is not UTF-8
text or holds control characters becomes an entry that carries its problem (and is disqualified
with it) instead of blocking or aborting the tournament. A student's folder is searched a few
levels deep, and by a bounded number of folders, however deep or wide the tree.
"""

from __future__ import annotations

import dataclasses
import errno
import glob
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from hogbench.errors import UsageError
from hogbench.names import name_problem, shown

#: Files and folders of the course's skeleton that sit beside submissions.
HELPERS = {
    "dice.py",
    "ucb.py",
    "hog_gui.py",
    "hog_grader.py",
    "hog_ui.py",
    "gui.py",
    "graphics.py",
    "default_graphics.py",
    "construct_check.py",
    "autograder.py",
    "calc.py",
    "tests",
    "gui_files",
    "images",
    "ok",
}
#: How deep below a student's folder the strategy file may sit.
MAX_DEPTH = 3
#: How many folders of a student's tree are looked into, at most.
MAX_FOLDERS = 200
NO_FILE = "holds no .py file"


@dataclass(frozen=True)
class Entry:
    """One entrant as found: its spec as shown, the strategy file, what its worker may see, and
    the problem that keeps it from playing, if any."""

    spec: str
    path: Path | None = None  # the strategy file (None: a built-in)
    share: Path | None = None  # the file alone, or the student's folder
    function: str | None = None  # a function asked for with path.py:NAME
    name: str | None = None  # a readable name: the student's folder, or folder/file.py
    problem: str | None = None


def is_helper(name: str) -> bool:
    """Whether a folder entry belongs to the course's skeleton or to Python, not a student."""
    return name in HELPERS or name.startswith(("_", ".", "test_")) or name.endswith("_test.py")


def discover(items: list[str], base: Path) -> list[Entry]:
    """The entrants named by ITEMS (paths relative to BASE), in order, each file once."""
    entries: list[Entry] = []
    for item in items:
        head, sep, function = item.partition(":")
        if not head.endswith((".py", "/")) and "/" not in head and not _has_glob(head):
            if not (base / head).is_dir():
                entries.append(Entry(item.strip()))  # a built-in, checked when it is loaded
                continue
        path = base / head
        if _has_glob(head):
            matches = sorted(glob.glob(str(path), recursive=True))
            found = [
                _file_entry(Path(m), None, function or None) for m in matches if _wanted(Path(m))
            ]
            found += [_student(Path(m)) for m in matches if _is_folder(Path(m))]
            if not found:
                raise UsageError(f"{item!r} matches no .py file or folder")
            entries += found
        elif _is_folder(path):
            found = folder_entries(path)
            if not found:
                raise UsageError(f"folder {head!r} holds no submissions (.py files or folders)")
            entries += found
        elif os.path.lexists(path):
            entries.append(_file_entry(path, None, function or None))
        else:
            raise UsageError(f"no such strategy file or folder: {path}")
    seen: set[str] = set()
    unique = []
    for entry in entries:
        if entry.spec not in seen:
            seen.add(entry.spec)
            unique.append(entry)
    return unique


def _is_dir(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def folder_entries(folder: Path) -> list[Entry]:
    """A folder's entrants: its .py files (flat) and its students' folders."""
    entries = []
    try:
        with os.scandir(folder) as listing:
            found_entries = sorted(listing, key=lambda e: e.name)
    except OSError as exc:
        raise UsageError(f"cannot read folder {shown(display(folder))} ({exc.strerror})") from None
    for entry in found_entries:
        path = Path(entry.path)
        if is_helper(entry.name):
            continue
        if entry.name.endswith(".py"):
            found = _file_entry(path, folder, None)
            if os.path.isabs(found.spec):  # a folder outside the working directory: a short name
                found = dataclasses.replace(found, name=shown(f"{folder.name}/{entry.name}"))
            entries.append(found)
        elif _is_dir(entry):
            student = _student(path)
            if student.problem != NO_FILE:  # a folder of something else (images, notes)
                entries.append(student)
        elif entry.is_symlink():
            problem = _folder_link_problem(path, folder)
            if problem is not None:  # a student's folder as a link, or a loop: never followed
                spec = display(path)
                entries.append(Entry(spec, None, None, name=shown(entry.name), problem=problem))
    return entries


def _folder_link_problem(path: Path, folder: Path) -> str | None:
    """Why a link in a class folder that is not a .py file is disqualified (a link to a folder,
    or a loop), or None when it is something else (a link to a notes file): ignored."""
    target = _resolved(path)
    if isinstance(target, str):
        return target if "loop" in target else None
    if not target.is_dir():
        return None
    return "is a link to a folder; hand in the folder itself, not a link"


def _resolved(path: Path) -> Path | str:
    """Where a link leads, or why it leads nowhere (a loop, a broken link)."""
    try:
        return path.resolve(strict=True)
    except RuntimeError:  # Python before 3.13 reports a loop so
        return "is a link loop"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a link loop"
        return f"is a broken link ({exc.strerror})"


def _student(folder: Path) -> Entry:
    """A student's folder: its hog.py (or its one strategy-looking .py file), a level or more
    down if need be; the worker sees the whole folder."""
    spec = display(folder)
    name = shown(folder.name)
    problem = name_problem(folder.name)
    if problem is not None:
        return Entry(spec, None, folder, name=name, problem=problem)
    candidates: list[Path] = []
    looked = 0
    for root, dirs, files in os.walk(folder):
        looked += 1
        depth = len(Path(root).relative_to(folder).parts)
        deeper = depth < MAX_DEPTH and looked < MAX_FOLDERS
        dirs[:] = sorted(d for d in dirs if not is_helper(d)) if deeper else []
        candidates += [Path(root) / f for f in sorted(files) if _wanted_name(f)]
    hogs = [c for c in candidates if c.name == "hog.py"]
    pick = hogs[:1] if hogs else candidates
    if len(pick) == 1:
        entry = _file_entry(pick[0], folder, None)
        return Entry(spec, entry.path, folder, None, name, entry.problem)
    if not pick:
        return Entry(spec, None, folder, name=name, problem=NO_FILE)
    names = ", ".join(shown(p.relative_to(folder)) for p in pick[:4])
    return Entry(
        spec, None, folder, name=name, problem=f"holds no hog.py and several files: {names}"
    )


def _file_entry(path: Path, root: Path | None, function: str | None) -> Entry:
    """A file entrant that sees only itself, or the problem with it (by lstat: never opened)."""
    spec = display(path) + (f":{function}" if function else "")
    problem = name_problem(path.name)
    if problem is not None:
        return Entry(spec, path, path, function, problem=problem)
    try:
        root = (root or path.parent).resolve()
        info = os.lstat(path)
    except (OSError, RuntimeError) as exc:
        why = getattr(exc, "strerror", None) or "a link loop"
        return Entry(spec, path, path, function, problem=f"cannot be read ({why})")
    if stat.S_ISLNK(info.st_mode):
        target = _resolved(path)
        if isinstance(target, str):
            return Entry(spec, path, path, function, problem=target)
        if not target.is_relative_to(root):
            return Entry(
                spec, path, path, function, problem="is a link to a file outside its folder"
            )
        try:
            info = os.stat(target)
        except OSError as exc:
            return Entry(spec, path, path, function, problem=f"is a broken link ({exc.strerror})")
        path = target
    if stat.S_ISDIR(info.st_mode):
        return Entry(spec, path, path, function, problem="is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        problem = "is not a regular file (a pipe, socket or device)"
        return Entry(spec, path, path, function, problem=problem)
    return Entry(spec, path, path, function)


def _has_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink()
    except OSError:  # a name too long, a loop in a folder above it
        return False


def _wanted(path: Path) -> bool:
    return _wanted_name(path.name) and os.path.lexists(path)


def _wanted_name(name: str) -> bool:
    return name.endswith(".py") and not is_helper(name)


def display(path: Path) -> str:
    """A path as short as it can be: relative to the working directory when it is below it,
    with bytes that are not UTF-8 and control characters as escapes (``names.shown``)."""
    absolute = Path(os.path.abspath(path))
    try:
        return shown(absolute.relative_to(Path.cwd()))
    except ValueError:
        return shown(absolute)
