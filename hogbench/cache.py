"""hogbench's disk cache: $HOGBENCH_CACHE, else ~/.cache/hogbench. Everything in it can be
rebuilt, so a missing, unreadable or unwritable cache only costs time."""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import hogbench

if TYPE_CHECKING:
    import numpy as np

    from hogbench.rules.base import RuleSet

CACHE_ENV = "HOGBENCH_CACHE"


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "hogbench")


def _source_digest(modules: tuple[str, ...]) -> str:
    """Hash of the source of MODULES, found without importing them."""
    h = hashlib.sha256()
    for module in modules:
        with open(importlib.util.find_spec(module).origin, "rb") as source:
            h.update(source.read())
    return h.hexdigest()


def table_entry(
    kind: str, version: int, rules: RuleSet, table: np.ndarray, made_by: tuple[str, ...]
) -> Path:
    """Where the cache keeps data of KIND (in its format VERSION) made from one strategy table
    by the code of the modules MADE_BY.

    The key covers hogbench's version and the source of the rule set and of MADE_BY, so an entry
    never outlives the code it came from."""
    modules = (type(rules).__module__, "hogbench.rules.base", *made_by)
    key = hashlib.sha256(
        f"{version}:{hogbench.__version__}:{_source_digest(modules)}:{rules.key}:".encode()
        + table.tobytes()
    ).hexdigest()[:32]
    return cache_root() / kind / f"{key}.npz"


def write_entry(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write one cache entry with WRITE(file): to a temporary file first, so readers never see
    half an entry. An unwritable cache only costs time, so errors are ignored."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as file:
            write(file)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
