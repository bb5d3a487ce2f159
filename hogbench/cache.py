"""hogbench's disk cache: $HOGBENCH_CACHE, else ~/.cache/hogbench. Everything in it can be
rebuilt, so a missing, unreadable or unwritable cache only costs time."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "HOGBENCH_CACHE"


def cache_root() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "hogbench")
