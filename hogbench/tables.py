"""Decision tables: a deterministic strategy, called once per observable state, as data.

Everything after table-making (both engines, tournaments, reports) works on tables, so submitted
code runs exactly once per state and never again.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hogbench.errors import IllegalChoice, StrategyError
from hogbench.rules.base import RuleSet


class NotDeterministic(StrategyError):
    """The strategy answered the same state differently on two calls: it cannot be a table."""


@dataclass(frozen=True, eq=False)
class DecisionTable:
    """A strategy's choice at every observation of a rule set (flat, in observation order): the
    one table type. The engines play it as it is (``players.Player``), and take its choices in
    the type each kernel needs through named conversions (``engine_table`` here; a policy of
    the exact engine: ``exact.policies.table_policy``). Two tables are the same strategy when
    their ``hash`` is equal."""

    rules_name: str
    goal: int
    choices: np.ndarray

    def __post_init__(self) -> None:
        # Kept in the narrowest integer type that holds them (int8 for every rule set so far):
        # a Big Pig table is 2 MB instead of 17, and a tournament's worker holds one per
        # opponent. The engines take them in the type each kernel needs.
        choices = np.asarray(self.choices).reshape(-1)
        if choices.size and choices.dtype != np.int8:
            narrow = np.int8 if -128 <= choices.min() and choices.max() <= 127 else np.int64
            choices = choices.astype(narrow)
        object.__setattr__(self, "choices", choices)

    @classmethod
    def from_choices(cls, rules: RuleSet, choices: np.ndarray) -> DecisionTable:
        """CHOICES (a choice per observation of RULES, in observation order, legal already) as
        RULES' table."""
        return cls(rules.name, rules.goal, choices)

    @functools.cached_property
    def hash(self) -> str:
        """Content hash: equal tables are the same strategy, whatever file they came from.

        Cached: tournaments ask for it at every pair."""
        h = hashlib.sha256(f"{self.rules_name}:{self.goal}:".encode())
        h.update(np.ascontiguousarray(self.choices, dtype=np.int64).tobytes())
        return h.hexdigest()[:16]

    def at(self, rules: RuleSet, *args: int) -> int:
        """The choice at one observation, e.g. ``table.at(rules, 10, 20)``."""
        return int(self.choices[np.ravel_multi_index(tuple(int(a) for a in args), rules.obs_shape)])


def engine_table(choices: np.ndarray) -> np.ndarray:
    """A table's CHOICES (``DecisionTable.choices``) as the compiled engines take them: flat,
    contiguous, int64 and writable. The engine's policies are made from this
    (``exact.policies``).

    A worker's tables may arrive read-only (joblib memory-maps large arrays, Dask may
    deserialise them in place); they are read where they lie, and copied only here."""
    table = np.ascontiguousarray(choices, dtype=np.int64).reshape(-1)
    return table if table.flags.writeable else table.copy()


class CodedAnswers(Sequence):
    """A pass of answers as its distinct VALUES and, per state, the index of its value (CODES).

    How a worker sends a pass whose answers are of one plain type (Big Pig's 2.3 million
    'roll'/'hold'): judged once per value, and compared and tabulated as arrays.
    """

    def __init__(self, values: Sequence[Any], codes: np.ndarray) -> None:
        self.values = tuple(values)
        self.codes = codes

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self.values[self.codes[index]]

    def __iter__(self) -> Iterator[Any]:
        return map(self.values.__getitem__, self.codes.tolist())


def call_everywhere(strategy: Callable, rules: RuleSet) -> tuple[list[Any], list[Any]]:
    """Call STRATEGY at every observation twice, the second pass in reverse order.

    Returns the raw answers of both passes in observation order. An exception propagates with
    the state attached as ``exc.hogbench_state``. This runs where the strategy's code may run
    (a sandboxed worker for submitted files).
    """
    states = list(rules.observations())
    first: list[Any] = [None] * len(states)
    second: list[Any] = [None] * len(states)
    for answers, indices in ((first, range(len(states))), (second, reversed(range(len(states))))):
        for i in indices:
            try:
                answers[i] = strategy(*states[i])
            except BaseException as exc:  # the strategy's failure is data, not our crash
                exc.hogbench_state = states[i]
                raise
    return first, second


@dataclass(frozen=True)
class Fault:
    """One state where a strategy broke a rule: its index in observation order, and why."""

    index: int
    problem: str


def find_faults(
    rules: RuleSet, first: Sequence[Any], second: Sequence[Any]
) -> tuple[list[Fault], list[Fault], dict[tuple, Any]]:
    """The contest's rules on raw answers of both passes: a legal move at every state (as
    ``rules.choice`` judges it), and the same answer when called again.

    Returns the illegal answers, the answers that changed (at states whose first answer was
    legal), and the verdict for each distinct answer. Tables can have millions of states
    (Big Pig), so answers are judged once per distinct value and compared in bulk; the
    state-by-state lists are built only when something is wrong.
    """
    if isinstance(first, CodedAnswers) and isinstance(second, CodedAnswers):
        return _coded_faults(rules, first, second)
    first, second = _listed(first), _listed(second)  # one pass coded, one not: as lists
    n = len(first)
    verdicts = _verdicts(rules, first)
    bad = {k for k, v in verdicts.items() if isinstance(v, IllegalChoice)}
    illegal = []
    if bad:
        illegal = [
            Fault(i, str(verdicts[_key(first[i])])) for i in range(n) if _key(first[i]) in bad
        ]
    unstable = []
    if not (first == second and list(map(type, first)) == list(map(type, second))):
        unstable = [
            _changed(i, first, second)
            for i in range(n)
            if not _same(first[i], second[i]) and _key(first[i]) not in bad
        ]
    return illegal, unstable, verdicts


class Faults(Sequence):
    """The faults at the states of INDICES, each made only when asked for: a Big Pig pass can
    break a rule at all its 2.3 million states, and as objects they took 500 MB."""

    def __init__(self, indices: np.ndarray, fault: Callable[[int], Fault]) -> None:
        self.indices = indices
        self.fault = fault

    def __len__(self) -> int:
        return len(self.indices)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self.fault(int(i)) for i in self.indices[index]]
        return self.fault(int(self.indices[index]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)


def _coded_faults(
    rules: RuleSet, first: CodedAnswers, second: CodedAnswers
) -> tuple[Sequence[Fault], Sequence[Fault], dict[tuple, Any]]:
    """find_faults on coded passes: each value judged once, the states compared as arrays."""
    verdicts = _verdicts(rules, first.values)
    legal = np.array([not isinstance(verdicts[_key(v)], IllegalChoice) for v in first.values])
    legal_at = legal[first.codes]
    illegal = Faults(np.flatnonzero(~legal_at), lambda i: Fault(i, str(verdicts[_key(first[i])])))
    # Each of the second pass's values as an index into the first's (-1: never a first answer).
    place = {_key(value): i for i, value in enumerate(first.values)}
    as_first = np.array([place.get(_key(value), -1) for value in second.values], dtype=np.int64)
    changed = np.flatnonzero((as_first[second.codes] != first.codes) & legal_at)
    return illegal, Faults(changed, lambda i: _changed(i, first, second)), verdicts


def _listed(answers: Sequence[Any]) -> Sequence[Any]:
    return list(answers) if isinstance(answers, CodedAnswers) else answers


def _changed(i: int, first: Sequence[Any], second: Sequence[Any]) -> Fault:
    return Fault(i, f"returned {first[i]!r}, then {second[i]!r} when called again")


def table_from_answers(
    rules: RuleSet, first: Sequence[Any], second: Sequence[Any], where: str
) -> DecisionTable:
    """Validate raw answers of both passes and build the table; StrategyError on the first fault
    (NotDeterministic when that is an answer that changed)."""
    n = int(np.prod(rules.obs_shape))
    if len(first) != n or len(second) != n:
        raise StrategyError(where, f"answered {len(first)} states, expected {n}")
    illegal, unstable, verdicts = find_faults(rules, first, second)
    if illegal and (not unstable or illegal[0].index < unstable[0].index):
        fault = illegal[0]
        raise StrategyError(where, f"illegal move: {fault.problem}", rules.obs_args(fault.index))
    if unstable:
        fault = unstable[0]
        raise NotDeterministic(
            where, f"not deterministic: {fault.problem}", rules.obs_args(fault.index)
        )
    kinds = {k[0] for k in verdicts}
    if isinstance(first, CodedAnswers):
        choices = np.array([verdicts[_key(v)] for v in first.values], dtype=np.int64)[first.codes]
    elif kinds == {int} and all(v == k[1] for k, v in verdicts.items()):
        choices = np.array(first, dtype=np.int64)  # plain ints, legal as they are
    elif len(kinds) == 1 and kinds <= {bool, int, str}:  # e.g. True/False or 'roll'/'hold'
        # One type: each answer's choice by its value alone (a Big Pig table's 2.3 million
        # answers in 0.15 s; sorting them to find the distinct ones took 0.6 s).
        lookup = {value: choice for (_, value), choice in verdicts.items()}
        choices = np.fromiter(map(lookup.__getitem__, first), dtype=np.int64, count=n)
    else:  # answers of several types: a verdict per answer, looked up without a Python loop
        try:
            keys = zip(map(type, first), first, strict=True)
            choices = np.fromiter(map(verdicts.__getitem__, keys), dtype=np.int64, count=n)
        except TypeError:  # an unhashable answer (its verdict is keyed by identity)
            choices = np.fromiter((verdicts[_key(v)] for v in first), dtype=np.int64, count=n)
    return DecisionTable.from_choices(rules, choices)


def _key(value: Any) -> tuple:
    """A dict key that keeps 1, 1.0 and True apart (they hash alike) and accepts any value."""
    try:
        hash(value)
    except TypeError:
        return (type(value), id(value))
    return (type(value), value)


def _verdicts(rules: RuleSet, answers: Sequence[Any]) -> dict[tuple, Any]:
    """The legal choice, or the IllegalChoice, for each distinct answer."""
    verdicts: dict[tuple, Any] = {}
    for value in answers if len(answers) < 64 else _distinct(answers):
        key = _key(value)
        if key not in verdicts:
            try:
                verdicts[key] = rules.choice(value)
            except IllegalChoice as exc:
                verdicts[key] = exc
    return verdicts


def _distinct(answers: Sequence[Any]) -> list[Any]:
    try:
        if len(set(map(type, answers))) == 1:  # one type (the usual case): values suffice,
            return list(set(answers))  # and no pair is built per answer (Big Pig: 2.3 million)
        return [v for _, v in set(zip(map(type, answers), answers, strict=True))]
    except TypeError:  # an unhashable answer: judge each one
        return list(answers)


def tabulate(strategy: Callable, rules: RuleSet, where: str) -> DecisionTable:
    """Make a trusted, in-process strategy (a built-in or a Python API caller's) into a table."""
    try:
        first, second = call_everywhere(strategy, rules)
    except Exception as exc:
        state = getattr(exc, "hogbench_state", None)
        raise StrategyError(where, f"raised {type(exc).__name__}: {exc}", state) from None
    return table_from_answers(rules, first, second, where)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b
