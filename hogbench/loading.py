"""The one door for strategies: spec -> Entrant, data flowing one way.

    spec -> (built-in: called in-process | file: the verdict cache, else the sandbox) -> table

Built-ins are hogbench's own code and run in-process. Submitted files are only ever imported and
called by ``hogbench.sandbox``, which returns their raw answers; they are judged here (with
``hogbench.tables``) and the verdict is kept in the verdict cache (``hogbench.verdicts``).
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hogbench import sandbox, verdicts
from hogbench.cache import load_arrays, save_arrays, table_entry
from hogbench.entrants import Entrant, Spec, clean_name, not_a_folder, parse_spec
from hogbench.errors import StrategyError, UsageError
from hogbench.names import shown
from hogbench.rules.base import RuleSet
from hogbench.submission import snapshot
from hogbench.tables import DecisionTable, NotDeterministic, table_from_answers, tabulate

__all__ = ["Entrant", "Spec", "load_entrant", "parse_spec", "remember"]


def _parameter(spec: Spec, value: Any, rules: RuleSet) -> Any:
    """A built-in's parameter: a number as it is, or another built-in (``improve:strat=sample1``),
    an unknown one named with the whole spec it stands in."""
    if not isinstance(value, Spec):
        return value
    try:
        return builtin_strategy(value, rules)
    except UsageError as exc:
        shown = f"{spec.text}: {value.text!r} is neither a number nor a built-in ({exc})"
        raise UsageError(shown) from None


def builtin_strategy(spec: Spec, rules: RuleSet) -> Callable:
    """Make a built-in strategy function from its spec; UsageError if unknown or misused."""
    known = rules.builtins()
    builtin = known.get(spec.function or "")
    if builtin is None:
        if not spec.params and not spec.kwargs and Path(spec.text).is_dir():
            raise UsageError(not_a_folder(spec.text))  # a folder named without its slash
        names = ", ".join(known) or "none"
        raise UsageError(
            f"unknown strategy {spec.function!r} for {rules.name} (built-ins: {names})"
        )
    params = [_parameter(spec, p, rules) for p in spec.params]
    kwargs = {k: _parameter(spec, v, rules) for k, v in spec.kwargs}
    try:
        return builtin.make(*params, **kwargs)
    except (TypeError, AssertionError, ValueError) as exc:
        # A TypeError names the maker (a lambda inside the rule set); the built-in's help
        # names its parameters, which is what the user needs.
        why = builtin.help if isinstance(exc, TypeError) or not str(exc) else str(exc)
        names = _parameter_names(builtin.make)
        takes = f"; it takes {', '.join(names)}" if names else ""
        raise UsageError(f"{spec.text}: bad parameters ({why}{takes})") from None


def _parameter_names(make: Callable) -> list[str]:
    try:
        return list(inspect.signature(make).parameters)
    except (TypeError, ValueError):
        return []


def load_entrant(
    text: str | Spec, rules: RuleSet, request: sandbox.Request | None = None, **options: Any
) -> Entrant:
    """Load a spec into an Entrant. Raises UsageError or StrategyError with a clear message.

    A file runs as REQUEST says (``sandbox.Request``; OPTIONS, its fields, change it)."""
    spec = parse_spec(text) if isinstance(text, str) else text
    if spec.is_file:
        return _load_file(spec, rules, sandbox.Request.for_rules(rules, request, **options))
    strategy = builtin_strategy(spec, rules)
    try:
        table = _builtin_table(strategy, spec, rules)
    except NotDeterministic as exc:
        return Entrant(spec, spec.text, None, _builtin_hash(spec, rules), live_reason=str(exc))
    return Entrant(spec, spec.text, table, _builtin_hash(spec, rules))


def load_for_one_game(
    text: str | Spec, rules: RuleSet, request: sandbox.Request | None = None, **options: Any
) -> Entrant:
    """An Entrant for a single game (``watch``, ``play``). A built-in is called live, at the
    states the game reaches, instead of being tabulated at every state first: Big Pig's 2.3
    million observations took 3-5 s before the first turn (measured). Files load as in
    load_entrant."""
    spec = parse_spec(text) if isinstance(text, str) else text
    if spec.is_file:
        return _load_file(spec, rules, sandbox.Request.for_rules(rules, request, **options))
    builtin_strategy(spec, rules)  # an unknown or misused built-in is refused here
    reason = "a built-in, called live for one game"
    return Entrant(spec, spec.text, None, _builtin_hash(spec, rules), live_reason=reason)


def _builtin_table(strategy: Callable, spec: Spec, rules: RuleSet) -> DecisionTable:
    """The table of a built-in, read from the disk cache or made in-process and kept there: a
    Big Pig table takes 2 s to make (2.3 million calls), and a duel of two built-ins spent 4
    of its 5 s on them every time; a Hog table takes 8 ms to make and 2 ms to read."""
    named = np.frombuffer(spec.text.encode(), dtype=np.uint8)
    path = table_entry(
        "builtin-tables", rules.identity, named, made_by=(__name__, "hogbench.tables")
    )
    try:
        return DecisionTable.from_choices(rules, load_arrays(path)["choices"])
    except (OSError, ValueError, KeyError):
        pass  # not made yet, or unreadable: make it
    table = tabulate(strategy, rules, spec.text)
    save_arrays(path, choices=table.choices)
    return table


def _builtin_hash(spec: Spec, rules: RuleSet) -> str:
    return hashlib.sha256(f"{rules.name}:{spec.text}".encode()).hexdigest()[:16]


def _load_file(spec: Spec, rules: RuleSet, request: sandbox.Request) -> Entrant:
    """A strategy file: its cached verdict, else its answers from a sandboxed worker, judged.

    StrategyError says why the file cannot play (and is cached too, so a file that hangs costs
    its limit once). A strategy that is not deterministic is not an error here: it comes back
    with ``table=None`` and ``live_reason`` (the Monte Carlo engine then plays it live, through
    ``sandbox.LiveStrategy``).
    """
    files = snapshot(spec.path, spec.share)
    key = verdicts.key(spec, rules, files.digest, request)
    if request.cache:
        entrant = verdicts.read(key, spec, rules, request, files.digest)
        if entrant is not None:
            return entrant
    try:
        answers = sandbox.collect_answers(spec, rules, files, request)
    except StrategyError as exc:
        if request.cache:
            verdicts.write_failure(key, exc, request)
        raise
    return remember(spec, rules, answers, request)


def remember(
    spec: Spec,
    rules: RuleSet,
    answers: sandbox.Answers,
    request: sandbox.Request,
) -> Entrant:
    """Judge a worker's answers into an Entrant and keep the verdict in the cache (unless
    REQUEST, already resolved for RULES, says not to)."""
    where = f"{shown(spec.path)}:{answers.function}"
    try:
        table = table_from_answers(rules, answers.first, answers.second, where)
        live_reason = None
    except NotDeterministic as exc:
        table, live_reason = None, str(exc)
        if answers.across_imports:
            live_reason += f" ({sandbox.ACROSS_IMPORTS})"
    notes = []
    if answers.output_bytes:
        notes.append(f"it printed {sandbox.format_size(answers.output_bytes)} (discarded)")
    if not answers.isolated:
        notes.append("it ran without the sandbox (resource limits only)")
    entrant = Entrant(
        spec,
        clean_name(answers.team, None) if answers.team else spec.text,  # views shorten it
        table,
        answers.digest[:16],
        live_reason=live_reason,
        function=answers.function,
        notes=notes,
    )
    if request.cache:
        verdicts.write(verdicts.key(spec, rules, answers.digest, request), entrant, answers.seconds)
    return entrant


def live_strategy(spec: Spec, rules: RuleSet) -> Callable:
    """A callable for live play of a built-in (files go through ``sandbox.LiveStrategy``)."""
    return builtin_strategy(spec, rules)
