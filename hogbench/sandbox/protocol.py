"""The worker's replies as untrusted data: bounded reading, decoding and checking.

Protocol, one JSON object per line, each a one-key record (see ``worker.py``). Everything here
treats what arrives as hostile: anything that is not a well-formed reply is ``Malformed``, which
the session reports as "broke the protocol" for that entrant alone.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from hogbench.tables import CodedAnswers


class Malformed(Exception):
    """The worker broke the protocol (the submission tampered with it)."""


class Lines:
    """Splits what a worker writes into lines, holding at most LONGEST bytes of a line."""

    def __init__(self, longest: int) -> None:
        self.longest = longest
        self.buffer = bytearray()  # appended to in place: a table's answers are megabytes
        self.scanned = 0  # how much of the buffer holds no newline

    def next_line(self) -> bytes | None:
        """The next whole line (without its newline), or None until more arrives."""
        end = self.buffer.find(b"\n", self.scanned)
        if end < 0:
            self.scanned = len(self.buffer)
            return None
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        self.scanned = 0
        return line

    def feed(self, chunk: bytes) -> None:
        self.buffer += chunk
        if len(self.buffer) > self.longest:
            raise Malformed("a message longer than any answer")


def parse_message(line: bytes) -> dict:
    """A line as the one-key record it must be."""
    try:
        message = json.loads(line)
    except ValueError:
        raise Malformed("text that is not JSON") from None
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


def decode_pass(answers: Any, count: int) -> Sequence[Any]:
    """A pass of COUNT answers as the worker sent it: a list of encoded answers, or a coded pass
    (``{"values": [distinct plain answers], "codes": base64 of one byte per state}``) as
    CodedAnswers; Malformed if it is neither."""
    if type(answers) is list and len(answers) == count:
        if set(map(type, answers)) <= PLAIN:  # a list of plain answers, checked as a whole
            return answers
        return [decode_answer(a) for a in answers]
    if type(answers) is not dict or set(answers) != {"values", "codes"}:
        raise Malformed(f"not {count} answers")
    values, text = answers["values"], answers["codes"]
    if not (
        type(values) is list
        and 0 < len(values) <= 256
        and set(map(type, values)) <= PLAIN
        and len({(type(v), v) for v in values}) == len(values)
        and type(text) is str
    ):
        raise Malformed("a coded pass whose values are not distinct plain answers")
    try:
        codes = np.frombuffer(_strict_base64(text), dtype=np.uint8)
    except (binascii.Error, ValueError):
        raise Malformed("a coded pass whose codes are not base64") from None
    if len(codes) != count or codes.max() >= len(values):
        raise Malformed(f"not {count} codes, each naming one of its {len(values)} values")
    return CodedAnswers(values, codes)


def _strict_base64(text: str) -> bytes:
    """TEXT decoded as base64, refusing any character outside its alphabet (binascii.Error)."""
    if sys.version_info >= (3, 11):
        return binascii.a2b_base64(text, strict_mode=True)
    # Python 3.10's a2b_base64 has no strict mode: it would skip what is not base64.
    return base64.b64decode(text, validate=True)


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
