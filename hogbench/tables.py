"""Decision tables: a deterministic strategy, called once per observable state, as data.

Everything after table-making (both engines, tournaments, reports) works on tables, so submitted
code runs exactly once per state and never again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hogbench.errors import IllegalChoice, StrategyError
from hogbench.rules.base import RuleSet


class NotDeterministic(StrategyError):
    """The strategy answered the same state differently on two calls: it cannot be a table."""


@dataclass(frozen=True)
class DecisionTable:
    """A strategy's choice at every observation of a rule set (flat, in observation order)."""

    rules_name: str
    goal: int
    choices: np.ndarray

    @property
    def hash(self) -> str:
        """Content hash: equal tables are the same strategy, whatever file they came from."""
        h = hashlib.sha256(f"{self.rules_name}:{self.goal}:".encode())
        h.update(np.ascontiguousarray(self.choices, dtype=np.int64).tobytes())
        return h.hexdigest()[:16]

    def at(self, rules: RuleSet, *args: int) -> int:
        """The choice at one observation, e.g. ``table.at(rules, 10, 20)``."""
        return int(self.choices[np.ravel_multi_index(tuple(int(a) for a in args), rules.obs_shape)])


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


def table_from_answers(
    rules: RuleSet, first: Sequence[Any], second: Sequence[Any], where: str
) -> DecisionTable:
    """Validate raw answers of both passes and build the table; StrategyError on the first fault."""
    states = list(rules.observations())
    if len(first) != len(states) or len(second) != len(states):
        raise StrategyError(where, f"answered {len(first)} states, expected {len(states)}")
    choices = np.empty(len(states), dtype=np.int64)
    for i, state in enumerate(states):
        try:
            choices[i] = rules.choice(first[i])
        except IllegalChoice as exc:
            raise StrategyError(where, f"illegal move: {exc}", state) from None
        if not _same(first[i], second[i]):
            raise NotDeterministic(
                where,
                f"not deterministic: returned {first[i]!r}, then {second[i]!r} when called again",
                state,
            )
    return DecisionTable(rules.name, rules.goal, choices)


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
