"""What a strategy spec names, and what loading makes of it: plain data, no code run.

A spec is one of

* ``path.py``: the file's ``final_strategy``, else ``strategy``, else its one public function of
  the rule set's arity (the rule set's ``strategy_names`` give the preferred names);
* ``path.py:name``: that function;
* a built-in with parameters: ``always_roll:6``, ``bacon_strategy:cutoff=8,num_rolls=6``;
* a built-in wrapping another built-in: ``improve(sample1)`` (Greed).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hogbench.errors import UsageError
from hogbench.names import shown
from hogbench.tables import DecisionTable

#: The most characters of a TEAM_NAME shown anywhere.
NAME_WIDTH = 40


@dataclass(frozen=True)
class Spec:
    """A parsed strategy spec."""

    text: str
    path: Path | None = None  # a file, or None for a built-in
    function: str | None = None  # the function in the file, or the built-in's name
    params: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()
    #: The files a file's worker may see (``hogbench.submission``): None, the file's own
    #: folder's .py files (a file the user named); a file, only that file (a flat class
    #: folder); a folder, that folder (a student's own folder).
    share: Path | None = None

    @property
    def is_file(self) -> bool:
        return self.path is not None


#: A built-in that wraps another built-in, e.g. Greed's ``improve(sample1)``.
_WRAPPER = re.compile(r"([A-Za-z_]\w*)\((.+)\)")


def not_a_folder(head: str) -> str:
    """What to say when HEAD, given as a strategy, is a folder: its hog.py, if it has one."""
    hog = Path(head) / "hog.py"
    if hog.is_file():
        return f"{head} is a folder, not a strategy file: give its strategy file, {hog}"
    return f"{head} is a folder, not a strategy file: give the .py file in it that holds one"


def parse_spec(text: str) -> Spec:
    """Parse a strategy spec; UsageError when it is malformed or the file is missing."""
    text = text.strip()
    if not text:
        raise UsageError("empty strategy spec")
    wrapped = _WRAPPER.fullmatch(text)
    if wrapped:
        inner = parse_spec(wrapped.group(2))
        if inner.is_file:
            raise UsageError(
                f"{text}: {wrapped.group(1)}(...) takes a built-in strategy, not a file"
            )
        return Spec(text, function=wrapped.group(1), params=(inner,))
    head, _, rest = text.partition(":")
    if head.endswith(".py") or "/" in head or head.endswith(".py)"):
        path = Path(head)
        if path.is_dir():
            raise UsageError(not_a_folder(head))
        if path.exists() and not path.is_file():
            raise UsageError(
                f"{shown(head)} is not a regular file (a device, a pipe or a socket), so it holds no"
                " strategy: give a .py file"
            )
        if not path.is_file():
            if os.path.islink(path):  # a link that leads nowhere: a loop, or a broken link
                raise UsageError(f"{shown(head)} is a link that leads to no file")
            raise UsageError(f"no such strategy file: {shown(head)}")
        if path.suffix != ".py":
            raise UsageError(f"{head} is not a Python file: a strategy file's name ends in .py")
        function = rest.strip() or None
        if function is not None and not function.isidentifier():
            raise UsageError(f"{text}: {function!r} is not a function name")
        return Spec(text, path=path, function=function)
    if not head.isidentifier():
        raise UsageError(f"{text!r} is neither a .py file nor a built-in strategy name")
    params: list[Any] = []
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if eq:
            kwargs[key.strip()] = _parameter(value.strip(), text)
        else:
            params.append(_parameter(part, text))
    return Spec(text, function=head, params=tuple(params), kwargs=tuple(kwargs.items()))


def _parameter(value: str, spec: str) -> Any:
    """A built-in's parameter: a number, a truth value, or another built-in by name (Greed's
    improve:strat=sample1, as the course writes improve(sample1))."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    if value in ("True", "False", "true", "false"):
        return value.lower() == "true"
    if value.isidentifier():
        return Spec(value, function=value)
    raise UsageError(f"{spec}: parameter {value!r} is neither a number nor a built-in's name")


@dataclass
class Entrant:
    """A strategy ready for the engines: a table when it is one, else callable live."""

    spec: Spec
    name: str
    table: DecisionTable | None
    source_hash: str  # what identifies the code (file content, or the built-in spec)
    live_reason: str | None = None  # why it is not a table (then it plays Monte Carlo live)
    function: str | None = None  # the strategy function used, for files
    notes: list[str] = field(default_factory=list)

    @property
    def tableable(self) -> bool:
        return self.table is not None

    @property
    def key(self) -> str:
        """The identity used in results: the table hash, or the code's hash for live play."""
        return self.table.hash if self.table is not None else f"live-{self.source_hash}"


def clean_name(name: str, width: int | None = NAME_WIDTH) -> str:
    """A name as shown: printable characters only, and at most WIDTH of them.

    TEAM_NAME comes from a submission; control characters in it could rewrite the terminal, and
    a very long one would push the standings apart. Specs (paths) are not cut.
    """
    text = re.sub(r"\s+", " ", "".join(c if c.isprintable() else " " for c in str(name))).strip()
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return text or "(no name)"
