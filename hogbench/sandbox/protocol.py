"""The worker's replies as untrusted data: bounded reading, decoding and checking.

Protocol, one JSON object per line, each a one-key record (see ``worker.py``). Everything here
treats what arrives as hostile: anything that is not a well-formed reply is ``Malformed``, which
the session reports as "broke the protocol" for that entrant alone.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

import numpy as np

from hogbench.tables import CodedAnswers


class Malformed(Exception):
    """The worker broke the protocol (the submission tampered with it)."""


@dataclass(frozen=True)
class Bounds:
    """What one message may be: its SIZE in bytes, the DEPTH of its nesting and its ITEMS
    (arrays, objects and the commas between elements, outside strings), checked before it is
    parsed, so that no reply makes the parent recurse, or hold more than a few MB."""

    size: int
    depth: int = 4
    items: int = 256

    def __or__(self, other: Bounds) -> Bounds:
        return Bounds(
            max(self.size, other.size), max(self.depth, other.depth), max(self.items, other.items)
        )


#: started, loaded, a live answer, an error report (2,000 characters of traceback escaped)
SMALL = Bounds(64 << 10)
#: Distinct answers a pass may name (``worker.MAX_VALUES``, and its stand-in for the rest).
MAX_VALUES = 1024 + 1
#: The line naming a pass's values: each is at most about 2 KB encoded (a type's name and a
#: short repr, escaped).
PASS = Bounds((MAX_VALUES * 2400) + (64 << 10), items=4 * MAX_VALUES + 64)


def probe_bounds(calls: int) -> Bounds:
    """The reply to a probe of CALLS calls: each result a short encoded value."""
    return Bounds(256 * calls + (64 << 10), items=4 * calls + 256)


class Lines:
    """Splits what a worker writes into lines and raw blocks, holding no more than the bound
    of the message being read (plus one read's worth)."""

    def __init__(self) -> None:
        self.buffer = bytearray()  # appended to in place
        self.scanned = 0  # how much of the buffer holds no newline

    def next_line(self, longest: int) -> bytes | None:
        """The next whole line (without its newline), or None until more arrives; Malformed
        once it is longer than LONGEST bytes, whether or not its end has come."""
        end = self.buffer.find(b"\n", self.scanned)
        if end < 0:
            self.scanned = len(self.buffer)
            if self.scanned > longest:
                raise Malformed(f"a message longer than {longest} bytes")
            return None
        if end > longest:
            raise Malformed(f"a message longer than {longest} bytes")
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        self.scanned = 0
        return line

    def take(self, count: int) -> bytes | None:
        """The next COUNT raw bytes, or None until they have arrived."""
        if len(self.buffer) < count:
            return None
        block = bytes(self.buffer[:count])
        del self.buffer[:count]
        self.scanned = 0
        return block

    def feed(self, chunk: bytes) -> None:
        self.buffer += chunk


_CHUNK = 1 << 20  # bytes of a line scanned at once
#: Lines up to this long are scanned byte by byte: numpy's twenty steps cost 0.3 ms a line
#: whatever its length, five times a worker's few short messages (measured).
_SHORT = 512
_OPENS, _CLOSES = frozenset(b"[{"), frozenset(b"]}")


def json_shape(line: bytes, bounds: Bounds) -> None:
    """Check LINE's nesting and item count against BOUNDS without parsing it; Malformed if
    over. Strings are skipped (a quote preceded by an odd run of backslashes is inside one), in
    blocks of a MB with numpy, so a line of megabytes takes milliseconds and little memory.

    The nesting is the most brackets ([ and {) open at once, the items the opening brackets and
    the commas, all outside strings."""
    if len(line) <= _SHORT:
        _short_shape(line, bounds)
    else:
        _long_shape(line, bounds)


def _long_shape(line: bytes, bounds: Bounds) -> None:
    """``json_shape`` of a LINE of any length, with numpy."""
    depth = deepest = items = 0
    inside = False  # within a string where the block starts
    carried = 0  # backslashes ending the previous block
    view = memoryview(line)
    for start in range(0, len(line), _CHUNK):
        a = np.frombuffer(view[start : start + _CHUNK], dtype=np.uint8)
        backslash = a == 0x5C
        # index of the last byte at or before each that is not a backslash (-1: none)
        last = np.maximum.accumulate(np.where(backslash, -1, np.arange(len(a))))
        quotes = np.flatnonzero(a == 0x22)
        before = np.maximum(quotes - 1, 0)
        run = np.where(quotes > 0, quotes - 1 - last[before], 0)
        run += np.where((quotes == 0) | (last[before] < 0), carried, 0)
        real = quotes[run % 2 == 0]
        carried = len(a) - 1 - int(last[-1]) + (carried if last[-1] < 0 else 0)
        marks = np.flatnonzero((a == 0x5B) | (a == 0x7B) | (a == 0x5D) | (a == 0x7D) | (a == 0x2C))
        outside = marks[(np.searchsorted(real, marks) + inside) % 2 == 0]
        inside ^= bool(len(real) % 2)
        chars = a[outside]
        if not len(chars):
            continue
        opens = (chars == 0x5B) | (chars == 0x7B)
        steps = opens.astype(np.int64) - ((chars == 0x5D) | (chars == 0x7D))
        levels = depth + np.cumsum(steps)
        deepest = max(deepest, int(levels.max()))
        depth = int(levels[-1])
        items += len(chars) - int(np.count_nonzero(steps < 0))
        if deepest > bounds.depth:
            raise Malformed(f"a message nested more than {bounds.depth} deep")
        if items > bounds.items:
            raise Malformed(f"a message of more than {bounds.items} items")


def _short_shape(line: bytes, bounds: Bounds) -> None:
    """``json_shape`` of a short LINE, the same rule byte by byte in plain Python."""
    depth = deepest = items = backslashes = 0
    inside = False
    for byte in line:
        if byte == 0x5C:  # a backslash
            backslashes += 1
            continue
        if byte == 0x22:  # a quote
            if backslashes % 2 == 0:
                inside = not inside
        elif not inside:
            if byte in _OPENS:
                depth += 1
                items += 1
                deepest = max(deepest, depth)
            elif byte in _CLOSES:
                depth -= 1
            elif byte == 0x2C:  # a comma
                items += 1
        backslashes = 0
    if deepest > bounds.depth:
        raise Malformed(f"a message nested more than {bounds.depth} deep")
    if items > bounds.items:
        raise Malformed(f"a message of more than {bounds.items} items")


def parse_message(line: bytes, bounds: Bounds = SMALL) -> dict:
    """A line as the one-key record it must be, within BOUNDS; Malformed otherwise."""
    if len(line) > bounds.size:
        raise Malformed(f"a message longer than {bounds.size} bytes")
    json_shape(line, bounds)
    try:
        message = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):  # RecursionError: not reached within the bounds
        raise Malformed("text that is not JSON in UTF-8") from None
    if not isinstance(message, dict) or len(message) != 1:
        raise Malformed("a message that is not a one-key record")
    return message


class Foreign:
    """An answer of a type that does not cross the pipe: its type's name and a short repr."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


@functools.lru_cache(maxsize=256)
def _foreign_type(name: str) -> type:
    # One class per type name, so that messages say "returned [1, 2] (list)".
    return type(name, (Foreign,), {})


PLAIN = {type(None), bool, int, float, str}  # answers that cross the pipe as themselves


def decode_answer(value: Any) -> Any:
    """An answer as the worker encoded it; Malformed if it is not one."""
    if type(value) in PLAIN:
        return value
    if type(value) is dict and set(value) == {"type", "repr"}:
        name = clean(value["type"], 60) or "object"
        return _foreign_type(name)(clean(value["repr"], 120))
    raise Malformed("an answer that is not an encoded value")


def decode_pass(header: Any, codes: bytes | None, count: int) -> CodedAnswers:
    """A pass of COUNT answers as the worker sent it: HEADER, ``{"values": [distinct encoded
    answers]}``, and CODES, the raw bytes naming each state's value (one a state, or two,
    little-endian, when there are more than 256 values); Malformed if they are not that."""
    if type(header) is not dict or set(header) != {"values"} or type(header["values"]) is not list:
        raise Malformed(f"not a pass of {count} answers")
    values = [decode_answer(v) for v in header["values"]]
    if not 0 < len(values) <= MAX_VALUES:
        raise Malformed(f"a pass naming {len(values)} distinct answers")
    if len({(type(v), v) for v in values}) != len(values):
        raise Malformed("a pass whose values are not distinct")
    width = 1 if len(values) <= 256 else 2
    if codes is None or len(codes) != width * count:
        raise Malformed(f"not {count} codes")
    array = np.frombuffer(codes, dtype=np.uint8 if width == 1 else np.dtype("<u2"))
    if int(array.max()) >= len(values):
        raise Malformed(f"codes that do not name one of its {len(values)} values")
    return CodedAnswers(values, array)


def pass_size(header: Any, count: int) -> int:
    """How many raw bytes of codes follow a pass's HEADER (checked later by decode_pass)."""
    values = header.get("values") if type(header) is dict else None
    return count * (2 if type(values) is list and len(values) > 256 else 1)


def clean(text: Any, limit: int, newlines: bool = False) -> str:
    """Untrusted text made safe to show: a string, cut, without control characters."""
    if not isinstance(text, str):
        return ""
    keep = "\n\t" if newlines else ""
    return "".join(c if c.isprintable() or c in keep else "?" for c in text[:limit])


def format_size(n: int) -> str:
    for unit in ("bytes", "KB", "MB"):
        if n < 1024 or unit == "MB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} bytes"  # not reached
