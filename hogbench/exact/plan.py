"""Which evaluator values a pair, or a batch of pairs: one pure function, ``choose``.

Every exact value goes through it: a duel's and a gauntlet's pair (``pairs.play_pair``, then
``exact.evaluate`` or the numpy evaluation of rows kept on disk, ``exact.kept``) and a
tournament's batch (``pairs.play_exact_grid``, then ``exact.evaluate_grid``). The evaluators
give the same values (to about 1e-14; tests/test_exact.py compares them), and differ in what
they cost:

- ``MEMORY_ROWS``: a model whose hidden state is each player's memory of their last turn, read
  through a class (the Feral Hogs terms), evaluated over observations, classes and the
  opponent's memory (``exact.memory``). Its rows take about 0.15 s to build, some ten searches
  of the reachable states, so a process's first pair is searched instead.
- ``TURNS``: games whose turns are chains of rolls (Pig, Big Pig), on whole turns
  (``exact.turns``).
- ``REACHABLE``: an acyclic model too large for rows, by a search of the states the two
  strategies reach, as a memoised recursion would.
- ``ROWS_PASS``: an acyclic model with rows, one pass over its order.
- ``ROWS_SWEEPS``: a cyclic model with rows, each level swept until it converges.
- ``SWEEP``: a model without rows, its outcomes resolved on the spot, level by level.
- ``GRID``: a batch of an acyclic model with rows, GRID by GRID pairs in one pass.

The choice depends only on facts of the model (``ModelFacts``) and of the request, never on
which command asked: ``refusal`` says whether an evaluator can value a request, and ``choose``
takes the first in ``PREFERENCE`` that can. ``evaluate`` and ``evaluate_policies`` take
``method=`` to name one instead (an evaluator that cannot is an error that says why), as
``solve`` does.

``solve`` (optimal play) has two methods, named by ``Solver`` and chosen by ``choose_solver``
unless its caller names one, as QuantEcon's ``DiscreteDP.solve(method=...)`` does:

- ``ROWS``: backward induction (value iteration on cyclic levels) over the model's rows.
- ``SWEEP``: the same, each outcome resolved on the spot (shared by q_keys, levels split between
  threads where no outcome stays in its level): the one for models too large for rows.

Both give the same values (to about 1e-14; tests/test_exact.py compares them on every rule set).

A best response's two figures alone (its chances against one table, moving first and second:
what a tournament's regret reads) have two ways, named by ``BestResponse`` and chosen by
``choose_best_response``:

- ``MEMORY_ROWS``: a model with memories (the Feral Hogs terms), on its memory rows
  (``exact.memory.best_response``): the solver's values over observations, its own memory and
  the opponent's, the opponent's table read through its memory's class. Some 20 times less
  CPU than ``solve`` on hog-fa19 (bench/exact.py), and worth building the rows (0.15 s) for a
  single table.
- ``SOLVE``: ``solve`` against the table, which also gives the policy and every state's value.

Both give the same figures (to about 1e-15; tests/test_exact_memory.py compares them).
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol


class Evaluator(str, Enum):
    MEMORY_ROWS = "memory rows"
    TURNS = "whole turns"
    REACHABLE = "reachable states"
    ROWS_PASS = "rows, one pass"
    ROWS_SWEEPS = "rows, sweeps"
    SWEEP = "sweeps, resolved on the spot"
    GRID = "grid of pairs on rows"


class Solver(str, Enum):
    ROWS = "rows"
    SWEEP = "sweep"


class BestResponse(str, Enum):
    MEMORY_ROWS = "memory rows"
    SOLVE = "solve"


class ModelFacts(Protocol):
    """What the choice reads of a model. ``has_rows`` may cost a count of the model's outcomes
    (the engine keeps it), so ``choose`` reads it only when the other facts leave a choice."""

    @property
    def cyclic(self) -> bool: ...  # some outcome stays within its level

    @property
    def memories(self) -> bool: ...  # the model declares memories read through classes

    @property
    def whole_turns(self) -> bool: ...  # the model lists the states a turn can begin in

    @property
    def has_rows(self) -> bool: ...  # the model's rows fit in memory


def refusal(
    method: Evaluator,
    model: ModelFacts,
    *,
    batch: bool = False,
    tables: bool = True,
    periodic: bool = True,
    values: bool = False,
) -> str | None:
    """Why METHOD cannot value a pair (or, with BATCH, pairs of many tables at once) on MODEL,
    asked as ``choose`` is asked (None: it can). Every evaluator that can gives the same
    values; they differ in cost alone."""
    if method is Evaluator.GRID:
        if not batch:
            return "values a batch of pairs (evaluate_grid), not one pair"
        if values or not tables:
            return "takes decision tables and gives no per-state values"
        if model.cyclic:
            return "needs an acyclic model (one pass over its order)"
        return None if model.has_rows else "needs the model's rows, which do not fit in memory"
    if method is Evaluator.MEMORY_ROWS:
        if values or not tables:
            return "takes decision tables and gives no per-state values"
        return None if model.memories else "needs a model with memories read through classes"
    if method is Evaluator.TURNS:
        if values:
            return "gives no per-state values"
        return None if model.whole_turns else "needs a model whose turns are chains of rolls"
    if method in (Evaluator.ROWS_PASS, Evaluator.ROWS_SWEEPS):
        sweeps = method is Evaluator.ROWS_SWEEPS  # a pass is one sweep of each level
        if bool(model.cyclic) != sweeps:
            return "is for a cyclic model" if sweeps else "is for an acyclic model"
        return None if model.has_rows else "needs the model's rows, which do not fit in memory"
    if method is Evaluator.REACHABLE:
        if values:
            return "gives no per-state values"
        if model.cyclic:
            return "needs an acyclic model"
        return None if periodic else "needs strategies that read their choice by period"
    return None  # SWEEP: any model, any strategies


#: The evaluators from the cheapest: ``choose`` takes the first that can value the request.
PREFERENCE = (
    Evaluator.GRID,
    Evaluator.MEMORY_ROWS,
    Evaluator.TURNS,
    Evaluator.ROWS_PASS,
    Evaluator.ROWS_SWEEPS,
    Evaluator.REACHABLE,
    Evaluator.SWEEP,
)


def choose(
    model: ModelFacts,
    *,
    batch: bool = False,
    tables: bool = True,
    periodic: bool = True,
    values: bool = False,
    memory_rows_ready: bool = False,
) -> Evaluator:
    """The evaluator for one pair (or, with BATCH, for pairs of many tables at once): the first
    in ``PREFERENCE`` that can (``refusal``).

    TABLES: both strategies are decision tables over the model's observations (not per-state
    policies, as ``solve`` finds). PERIODIC: both read their choice at state x as
    ``table[x % period]`` (tables of most models, and per-state policies), which the search of
    reachable states needs. VALUES: the value at every state is wanted, not only the two
    seatings' (only the sweeps give it). MEMORY_ROWS_READY: the memory rows are built, or worth
    building (from a process's second pair on); before, a pair is valued another way."""
    asked = {"batch": batch, "tables": tables, "periodic": periodic, "values": values}
    for method in PREFERENCE:
        if method is Evaluator.MEMORY_ROWS and not memory_rows_ready:
            continue
        if refusal(method, model, **asked) is None:
            return method
    return Evaluator.SWEEP  # (refuses nothing: the loop has returned it)


def named(method: Evaluator | str) -> Evaluator:
    """The evaluator METHOD names: an Evaluator, its value ("rows, one pass") or its name
    ("rows_pass"); ValueError naming the known ones otherwise."""
    if isinstance(method, Evaluator):
        return method
    for evaluator in Evaluator:
        if method in (evaluator.value, evaluator.name.lower(), evaluator.name):
            return evaluator
    known = ", ".join(e.name.lower() for e in Evaluator)
    raise ValueError(f"no evaluator {method!r} (evaluators: {known})")


def choose_solver(model: ModelFacts) -> Solver:
    """The method ``solve`` uses unless told: rows where they fit in memory, for they are
    resolved once and read many times (Greed's levels are swept some twenty times)."""
    return Solver.ROWS if model.has_rows else Solver.SWEEP


def applies(method: Solver, model: ModelFacts) -> bool:
    """Whether ``solve`` can use METHOD on MODEL: rows need the model's rows to fit."""
    return method is Solver.SWEEP or model.has_rows


def choose_best_response(model: ModelFacts) -> BestResponse:
    """How to find a best response's two figures: on memory rows where the model has memories
    (their pass reads observations successors first, so an acyclic model), else by ``solve``."""
    if model.memories and not model.cyclic:
        return BestResponse.MEMORY_ROWS
    return BestResponse.SOLVE
