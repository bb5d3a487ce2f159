"""From a strategy spec to an Entrant: a name and a decision table, or a way to call it live.

A spec is one of

* ``path.py``: the file's ``final_strategy``, else ``strategy``, else its one public function of
  the rule set's arity (the rule set's ``strategy_names`` give the preferred names);
* ``path.py:name``: that function;
* a built-in with parameters: ``always_roll:6``, ``bacon_strategy:cutoff=8,num_rolls=6``;
* a built-in wrapping another built-in: ``improve(sample1)`` (Greed).

Built-ins are hogbench's own code and run in-process. Submitted files are only ever imported and
called by the sandbox (see ``hogbench.sandbox``).
"""

from __future__ import annotations

import hashlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hogbench.errors import StrategyError, UsageError
from hogbench.rules.base import RuleSet
from hogbench.tables import DecisionTable, NotDeterministic, tabulate


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
        if not path.is_file():
            raise UsageError(f"no such strategy file: {head}")
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
            kwargs[key.strip()] = _number(value.strip(), text)
        else:
            params.append(_number(part, text))
    return Spec(text, function=head, params=tuple(params), kwargs=tuple(kwargs.items()))


def _number(value: str, spec: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    if value in ("True", "False", "true", "false"):
        return value.lower() == "true"
    raise UsageError(f"{spec}: parameter {value!r} is not a number")


def builtin_strategy(spec: Spec, rules: RuleSet) -> Callable:
    """Make a built-in strategy function from its spec; UsageError if unknown or misused."""
    known = rules.builtins()
    builtin = known.get(spec.function or "")
    if builtin is None:
        names = ", ".join(known) or "none"
        raise UsageError(
            f"unknown strategy {spec.function!r} for {rules.name} (built-ins: {names})"
        )
    params = [builtin_strategy(p, rules) if isinstance(p, Spec) else p for p in spec.params]
    try:
        return builtin.make(*params, **dict(spec.kwargs))
    except (TypeError, AssertionError, ValueError) as exc:
        raise UsageError(f"{spec.text}: bad parameters ({str(exc) or builtin.help})") from None


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


def load_entrant(text: str | Spec, rules: RuleSet, **sandbox_options: Any) -> Entrant:
    """Load a spec into an Entrant. Raises UsageError or StrategyError with a clear message."""
    spec = parse_spec(text) if isinstance(text, str) else text
    if spec.is_file:
        from hogbench import sandbox

        return sandbox.load_file_entrant(spec, rules, **sandbox_options)
    strategy = builtin_strategy(spec, rules)
    source_hash = hashlib.sha256(f"{rules.name}:{spec.text}".encode()).hexdigest()[:16]
    try:
        table = tabulate(strategy, rules, spec.text)
    except NotDeterministic as exc:
        return Entrant(spec, spec.text, None, source_hash, live_reason=str(exc))
    return Entrant(spec, spec.text, table, source_hash)


def live_strategy(spec: Spec, rules: RuleSet) -> Callable:
    """A callable for live play of a built-in (files go through ``sandbox.LiveStrategy``)."""
    return builtin_strategy(spec, rules)


def find_strategy(
    namespace: dict[str, Any], rules: RuleSet, name: str | None, where: str, module: str = ""
) -> tuple[str, Callable]:
    """Pick the strategy function in a loaded file's namespace.

    NAME if given; else the first of the rule set's ``strategy_names`` present; else the one
    public function defined in MODULE (not imported into it) taking as many arguments as the
    rule set's strategies. Raises StrategyError naming the candidates otherwise.
    """
    if name is not None:
        func = namespace.get(name)
        if not callable(func):
            raise StrategyError(where, f"no function named {name!r}")
        return name, func
    for preferred in rules.strategy_names:
        if callable(namespace.get(preferred)):
            return preferred, namespace[preferred]
    arity = len(rules.strategy_args)
    candidates = [
        key
        for key, value in namespace.items()
        if not key.startswith("_")
        and inspect.isfunction(value)
        and (not module or value.__module__ == module)
        and _arity(value) == arity
    ]
    wanted = " or ".join(rules.strategy_names)
    if len(candidates) == 1:
        return candidates[0], namespace[candidates[0]]
    if not candidates:
        raise StrategyError(
            where, f"no strategy function: define {wanted}, or one function of {arity} arguments"
        )
    raise StrategyError(
        where,
        f"ambiguous strategy: no {wanted}, and {len(candidates)} candidates"
        f" ({', '.join(candidates)}); name one as {where}:NAME",
    )


def _arity(func: Callable) -> int | None:
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return len([p for p in params if p.default is p.empty and p.kind in positional])
