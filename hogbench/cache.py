"""hogbench's disk cache: $HOGBENCH_CACHE, else ~/.cache/hogbench. Everything in it can be
rebuilt, so a missing, unreadable or unwritable cache only costs time."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

CACHE_ENV = "HOGBENCH_CACHE"


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "hogbench")


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
