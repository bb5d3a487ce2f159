"""hogbench's disk cache: $HOGBENCH_CACHE, else the platform's cache folder for hogbench
(platformdirs: ~/.cache/hogbench on Linux, ~/Library/Caches/hogbench on macOS).

Everything in it can be rebuilt, so a missing, unreadable or unwritable cache only costs time.
Every entry is sealed with this user's key (an HMAC over the entry's name, which is its content
key, and its bytes): an entry altered, or copied in from elsewhere, is rebuilt, never trusted.
Entries are read without following links and without blocking, so a FIFO or a device put at an
entry's path is only a missing entry.
Entries are keyed by content (the table, the rule set, and the source of the code that made
them), stored compactly (the narrowest integer types, compressed) or, when large and read on
every run, as they are for mapping into memory. The cache stays under a size cap
($HOGBENCH_CACHE_MAX_MB, 500 MB by default) by dropping the least recently used.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import io
import json
import os
import secrets
import stat
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import hogbench

if TYPE_CHECKING:
    import numpy as np


CACHE_ENV = "HOGBENCH_CACHE"
CAP_ENV = "HOGBENCH_CACHE_MAX_MB"
DEFAULT_CAP_MB = 500
#: The key that seals verdicts: never evicted, never counted as an entry.
SECRET = "secret"


def cache_root() -> Path:
    """Where the cache lives: $HOGBENCH_CACHE if set, else the platform's cache folder."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("hogbench", appauthor=False))


def cap_bytes() -> int:
    """The size the cache is kept under ($HOGBENCH_CACHE_MAX_MB, default 500 MB)."""
    try:
        megabytes = float(os.environ.get(CAP_ENV, DEFAULT_CAP_MB))
    except ValueError:
        megabytes = DEFAULT_CAP_MB
    return int(max(megabytes, 0) * 2**20)


def _source_digest(modules: tuple[str, ...]) -> str:
    """Hash of the source of MODULES (hogbench's own), found without importing them or their
    packages: finding ``hogbench.exact.rows`` through importlib would import ``hogbench.exact``,
    and with it numba, which a warm duel never needs."""
    package = Path(__file__).parent
    h = hashlib.sha256()
    for module in modules:
        parts = module.split(".")
        assert parts[0] == "hogbench", module
        path = package.joinpath(*parts[1:])
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        h.update(source.read_bytes())
    return h.hexdigest()


def table_entry(
    kind: str, rules: str, table: np.ndarray, made_by: tuple[str, ...], suffix: str = ".npz"
) -> Path:
    """Where the cache keeps data of KIND made from one strategy table under the rule set of
    identity RULES (``RuleSet.identity``: its key and the digest of its source) by the modules
    MADE_BY.

    The key is a digest of the content: the table, the rule set's identity, and the source of
    MADE_BY, so an entry never outlives the code it came from (no format numbers to keep by
    hand)."""
    key = hashlib.sha256(
        f"{hogbench.__version__}:{_source_digest(made_by)}:{rules}:".encode() + table.tobytes()
    ).hexdigest()[:32]
    return cache_root() / kind / f"{key}{suffix}"


def save_arrays(path: Path, **arrays: np.ndarray) -> None:
    """Keep ARRAYS at PATH compactly, as an ``.npz`` that ``numpy.load`` reads: integers in
    the narrowest type that holds them, all of it compressed (a Monte Carlo rows entry went
    from 69 MB to 2.3 MB, measured), then keep the cache under its cap.

    Compressed at zlib's fastest level, not numpy's default: a newcomer's first duel writes
    two rows entries, which took 0.45 s at the default and take 0.06 s so, 15% larger."""
    import numpy as np

    dtypes = {name: np.asarray(a).dtype.str for name, a in arrays.items()}
    stored = {name: _narrowest(np.asarray(a)) for name, a in arrays.items()}
    stored["__dtypes__"] = np.array(json.dumps(dtypes))

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        for name, array in stored.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, array, allow_pickle=False)
    write_entry(path, _sealed_writer(path, buffer.getbuffer()))


def load_arrays(path: Path) -> dict[str, np.ndarray]:
    """The arrays save_arrays kept at PATH, in their own types (OSError, ValueError or
    KeyError when there is no sound entry, or its seal does not hold). A read counts as a use
    for the cap."""
    import numpy as np

    with np.load(io.BytesIO(_unsealed(path, read_entry(path))), allow_pickle=False) as saved:
        dtypes = json.loads(str(saved["__dtypes__"]))
        arrays = {name: saved[name].astype(dtype, copy=False) for name, dtype in dtypes.items()}
    return arrays


def save_mapped(path: Path, **arrays: np.ndarray) -> None:
    """Keep ARRAYS at PATH as they are, as the fields of one record in a ``.npy`` file, for
    load_mapped to map into memory rather than read. For a large entry read on every run, of
    which a run touches only a part: hog-su20's memory rows are 45 MB, and reading them took
    60-130 ms where mapping them takes about 1 ms (measured)."""
    import numpy as np

    arrays = {name: np.asarray(a) for name, a in arrays.items()}
    fields = [(name, a.dtype, a.shape) for name, a in arrays.items()]
    record = np.zeros((), dtype=np.dtype(fields, align=True))  # aligned: fast field views
    for name, array in arrays.items():
        record[name] = array
    buffer = io.BytesIO()
    np.save(buffer, record)
    write_entry(path, _sealed_writer(path, buffer.getbuffer()))
    _stamp(path)


def load_mapped(path: Path) -> dict[str, np.ndarray]:
    """The arrays save_mapped kept at PATH, as read-only views of the mapped file (OSError or
    ValueError when there is no sound entry, or its seal does not hold).

    Checking the seal reads the whole file, which mapping was meant to avoid (hog-su20's 45 MB
    took 0.13 s to hash, measured): it is checked once, and a sealed stamp of the file's inode,
    size and change times (which no one but root can set back) says so to later runs. The
    stamp's use, not the file's, counts for the cap: touching the file would change them."""
    import numpy as np

    if not _stamped(path):
        with open_entry(path) as file:
            _unsealed(path, file.read())
        _stamp(path)
    record = np.load(path, mmap_mode="r")  # the seal after the array is not mapped
    if record.dtype.names is None or record.shape != ():
        raise ValueError(f"{path} is not a record of arrays")
    return {name: np.asarray(record[name]) for name in record.dtype.names}


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".stamp")


def _mark(path: Path) -> list[int]:
    info = os.stat(path, follow_symlinks=False)
    return [info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _stamped(path: Path) -> bool:
    stamp = read_sealed(_stamp_path(path), f"stamp:{path.name}")
    try:
        return stamp is not None and stamp.get("mark") == _mark(path)
    except OSError:
        return False


def _stamp(path: Path) -> None:
    try:
        write_sealed(_stamp_path(path), f"stamp:{path.name}", {"mark": _mark(path)})
    except OSError:
        pass


#: What ends every sealed entry: this marker, then the seal (32 bytes).
SEAL_MARK = b"\0hogbench-seal\0"
SEAL_BYTES = len(SEAL_MARK) + 32


def _mac(path: Path, payload: bytes | memoryview) -> bytes:
    """The seal of an entry: over its name (its content key), so an entry copied over another
    is caught too, and its bytes."""
    mac = hmac.new(_secret(), os.fsencode(path.name) + b"\0", hashlib.sha256)
    mac.update(payload)
    return mac.digest()


def _sealed_writer(path: Path, payload: memoryview) -> Callable[[BinaryIO], object]:
    seal = SEAL_MARK + _mac(path, payload)

    def write(file: BinaryIO) -> None:
        file.write(payload)
        file.write(seal)

    return write


def _unsealed(path: Path, data: bytes) -> memoryview:
    """DATA's payload if its seal holds; ValueError if not (an altered or foreign entry)."""
    view = memoryview(data)
    payload, mark, seal = view[:-SEAL_BYTES], view[-SEAL_BYTES:-32], view[-32:]
    if len(data) < SEAL_BYTES or bytes(mark) != SEAL_MARK:
        raise ValueError(f"{path.name}: not a sealed entry")
    if not hmac.compare_digest(bytes(seal), _mac(path, payload)):
        raise ValueError(f"{path.name}: its seal does not hold (altered, or not made here)")
    return payload


def open_entry(path: Path) -> BinaryIO:
    """An entry opened for reading: never through a link, never blocking on a FIFO or a
    device (OSError for anything but a regular file)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_entry(path: Path) -> bytes:
    """An entry's bytes (see open_entry); a read counts as a use for the cap."""
    with open_entry(path) as file:
        data = file.read()
    _touch(path)
    return data


def _narrowest(array: np.ndarray) -> np.ndarray:
    import numpy as np

    if array.dtype.kind not in "iu" or array.size == 0:
        return array
    low, high = int(array.min()), int(array.max())
    return array.astype(np.result_type(np.min_scalar_type(low), np.min_scalar_type(high)))


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def entries(root: Path | None = None) -> list[tuple[Path, os.stat_result]]:
    """Every entry file in the cache (not the sealing key), with its stat."""
    root = root or cache_root()
    found = []
    for folder, _, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if path == root / SECRET:
                continue
            try:
                found.append((path, path.stat()))
            except OSError:
                pass  # removed meanwhile by another process
    return found


def enforce_cap(cap: int | None = None) -> int:
    """Drop the least recently used entries until the cache is under CAP bytes (by default
    cap_bytes()); return the bytes freed. Another process removing an entry first is fine."""
    global _size_seen, _written_since
    cap = cap_bytes() if cap is None else cap
    found = entries()
    total = sum(info.st_size for _, info in found)
    freed = 0
    for path, info in sorted(found, key=lambda item: item[1].st_mtime):
        if total - freed <= cap:
            break
        try:
            path.unlink()
            freed += info.st_size
        except OSError:
            pass
    _size_seen, _written_since = total - freed, 0
    return freed


#: What this process last found the cache's size to be, and has written since. Looking at
#: every entry after every write made loading a class quadratic (1000 submissions: 2000
#: entries looked at 1000 times), so the cap is enforced after a write only when the cache may
#: be near it, or this process has written a sixteenth of it since it last looked.
_size_seen: int | None = None
_written_since = 0


def _after_write(size: int) -> None:
    global _written_since
    _written_since += size
    cap = cap_bytes()
    margin = cap // 16
    if _size_seen is None or _size_seen + _written_since > cap - margin or _written_since > margin:
        enforce_cap(cap)


def info() -> dict[str, object]:
    """Where the cache is, how big, what it holds by kind, and its cap."""
    root = cache_root()
    kinds: dict[str, dict[str, int]] = {}
    for path, status in entries(root):
        kind = path.relative_to(root).parts[0] if path.parent != root else "other"
        entry = kinds.setdefault(kind, {"entries": 0, "bytes": 0})
        entry["entries"] += 1
        entry["bytes"] += status.st_size
    return {
        "path": str(root),
        "bytes": sum(k["bytes"] for k in kinds.values()),
        "entries": sum(k["entries"] for k in kinds.values()),
        "kinds": kinds,
        "cap_bytes": cap_bytes(),
    }


def clear() -> dict[str, int]:
    """Remove every entry (the next runs rebuild what they need); the sealing key stays."""
    freed = removed = 0
    for path, status in entries():
        try:
            path.unlink()
            freed += status.st_size
            removed += 1
        except OSError:
            pass
    return {"entries": removed, "bytes": freed}


def write_entry(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write one cache entry with WRITE(file): to a temporary file first, so readers never see
    half an entry; then keep the cache under its cap. An unwritable cache only costs time, so
    errors are ignored."""
    temporary: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # A fresh name made with O_EXCL: never a FIFO or a link someone put there first.
        fd, name = tempfile.mkstemp(prefix=f"{path.name}.", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
        with os.fdopen(fd, "wb") as file:
            write(file)
            size = file.tell()
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        return
    _after_write(size)


#: Keys of this process by cache folder: a key that cannot be read or kept is made for the run.
_keys: dict[Path, bytes] = {}


def _secret() -> bytes:
    """This user's key for sealing cache entries, made on first use (readable by the user
    alone). A sealed entry that was altered, or copied in from elsewhere, is not trusted.

    A key file that cannot be read (a folder, a FIFO, no permission) costs only time: one
    line says so, and this run seals with a key of its own, so nothing kept is trusted."""
    path = cache_root() / SECRET
    if path in _keys:
        return _keys[path]
    key = _read_key(path)
    if key is None:
        key = secrets.token_bytes(32)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(key)
        except FileExistsError:
            key = _read_key(path) or _unreadable_key(path, key)
        except OSError:
            pass  # an unwritable cache: entries written this run cannot be read back anyway
    _keys[path] = key
    return key


def _read_key(path: Path) -> bytes | None:
    try:
        with open_entry(path) as file:
            key = file.read(65)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _unreadable_key(path, secrets.token_bytes(32), exc.strerror)
    return key if len(key) == 32 else _unreadable_key(path, secrets.token_bytes(32), "damaged")


def _unreadable_key(path: Path, key: bytes, why: str | None = "unreadable") -> bytes:
    print(
        f"hogbench: warning: the cache's key {path} cannot be used ({why}): nothing kept in"
        " the cache is trusted this run; remove the file to make a new key",
        file=sys.stderr,
    )
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
        record = json.loads(read_entry(path))
        entry = record["entry"]
        body = json.dumps(entry, sort_keys=True).encode()
        if record["key"] != key or not hmac.compare_digest(record["seal"], _seal(key, body)):
            return None
        return entry if isinstance(entry, dict) else None
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
