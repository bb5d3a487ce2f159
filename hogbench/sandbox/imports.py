"""What a submission may import: the standard library, numpy, the course's stand-in modules,
and the modules a course allows; and how to explain a failed import."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from hogbench.errors import UsageError

#: The course's helper modules (dice, ucb) as harmless stand-ins: real submissions import them.
COURSE_MODULES = (Path(__file__).parent.parent / "course_modules").resolve()
#: Always importable besides the standard library and the course's modules.
ALLOWED_BY_DEFAULT = ("numpy",)
_MISSING_NAME = re.compile(r"cannot import name '(\w+)' from '(\w+)' \((.*)\)$")

IMPORT_POLICY = (
    "submissions may import the standard library, numpy and the course's dice and ucb;"
    " a tournament file's allow_imports or --allow-import adds an installed module"
)


def missing_course_name(message: str) -> tuple[str, str] | None:
    """(module, name) when MESSAGE says a name is missing from one of the course stand-ins."""
    found = _MISSING_NAME.search(message)
    if found is None or found.group(3) != str(COURSE_MODULES / f"{found.group(2)}.py"):
        return None
    return found.group(2), found.group(1)


def absent_module(message: str) -> str | None:
    """The top-level module a "No module named" MESSAGE names, when it is not installed here
    either (so no allow_imports could help), else None."""
    import importlib.util

    found = re.search(r"No module named '([\w.]+)'", message)
    if found is None:
        return None
    top = found.group(1).split(".")[0]
    try:
        return top if importlib.util.find_spec(top) is None else None
    except (ImportError, ValueError):
        return top


@functools.cache
def course_names(module: str) -> tuple[str, ...]:
    """The public names a course stand-in module defines, read from its source."""
    import ast

    tree = ast.parse((COURSE_MODULES / f"{module}.py").read_text())
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
    return tuple(n for n in names if not n.startswith("_"))


@functools.cache
def importable_paths(extra: tuple[str, ...]) -> tuple[Path, ...]:
    """Where the allowed modules live: each package's folder or module's file, and the
    ``<name>.libs`` folder beside it where a wheel keeps its shared libraries."""
    import importlib.util

    paths: list[Path] = []
    for name in (*ALLOWED_BY_DEFAULT, *extra):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None or (spec.origin is None and not spec.submodule_search_locations):
            if name in ALLOWED_BY_DEFAULT:
                continue  # not installed here: submissions simply cannot import it
            raise UsageError(f"--allow-import {name}: no module of that name is installed")
        if spec.submodule_search_locations:
            where = Path(next(iter(spec.submodule_search_locations)))
        else:
            where = Path(spec.origin)  # type: ignore[arg-type]
        if spec.origin in (None, "built-in", "frozen") and not spec.submodule_search_locations:
            continue  # part of the interpreter: importable already
        paths.append(where.resolve())
        libs = where.parent / f"{name}.libs"
        if libs.is_dir():
            paths.append(libs.resolve())
    return tuple(dict.fromkeys(paths))  # numpy asked for again is numpy once


@functools.cache
def importable(extra: tuple[str, ...]) -> Path:
    """A folder holding only the allowed modules (links to where they are installed), for the
    worker's path: site-packages itself would make every installed package importable,
    hogbench included."""
    import atexit

    from hogbench.submission import private_folder, remove

    folder = private_folder("imports")  # removed at exit, or by a later run if we are killed
    atexit.register(remove, folder)
    for path in importable_paths(extra):
        (folder / path.name).symlink_to(path)
    return folder
