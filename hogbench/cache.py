"""hogbench's disk cache: $HOGBENCH_CACHE, else ~/.cache/hogbench. Everything in it can be
rebuilt, so a missing, unreadable or unwritable cache only costs time."""

from __future__ import annotations

import hashlib
import hmac
import importlib.util
import json
import os
import secrets
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


def _secret() -> bytes:
    """This user's key for sealing cache entries, made on first use (readable by the user
    alone). A sealed entry that was altered, or copied in from elsewhere, is not trusted."""
    path = cache_root() / "secret"
    try:
        return path.read_bytes()
    except OSError:
        pass
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
    except FileExistsError:
        return path.read_bytes()
    except OSError:
        pass  # an unwritable cache: entries written this run cannot be read back anyway
    return key


def _seal(key: str, body: bytes) -> str:
    return hmac.new(_secret(), key.encode() + b"\0" + body, hashlib.sha256).hexdigest()


def write_sealed(path: Path, key: str, entry: dict) -> None:
    """Write a JSON entry with a seal over its key and content."""
    body = json.dumps(entry, sort_keys=True).encode()
    record = json.dumps({"key": key, "seal": _seal(key, body), "entry": entry}, sort_keys=True)
    write_entry(path, lambda f: f.write(record.encode()))


def read_sealed(path: Path, key: str) -> dict | None:
    """The entry at PATH if it is whole, made for KEY and unaltered; else None (rebuilt)."""
    try:
        record = json.loads(path.read_bytes())
        entry = record["entry"]
        body = json.dumps(entry, sort_keys=True).encode()
        if record["key"] != key or not hmac.compare_digest(record["seal"], _seal(key, body)):
            return None
        return entry if isinstance(entry, dict) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
