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
which command asked.

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


def choose(
    model: ModelFacts,
    *,
    batch: bool = False,
    tables: bool = True,
    periodic: bool = True,
    values: bool = False,
    memory_rows_ready: bool = False,
) -> Evaluator:
    """The evaluator for one pair (or, with BATCH, for pairs of many tables at once).

    TABLES: both strategies are decision tables over the model's observations (not per-state
    policies, as ``solve`` finds). PERIODIC: both read their choice at state x as
    ``table[x % period]`` (tables of most models, and per-state policies), which the search of
    reachable states needs. VALUES: the value at every state is wanted, not only the two
    seatings' (only the sweeps give it). MEMORY_ROWS_READY: the memory rows are built, or worth
    building (from a process's second pair on)."""
    if batch and not values and tables and not model.cyclic and model.has_rows:
        return Evaluator.GRID
    if not values and tables and model.memories and memory_rows_ready:
        return Evaluator.MEMORY_ROWS
    if not values and model.whole_turns:
        return Evaluator.TURNS
    if model.has_rows:
        return Evaluator.ROWS_SWEEPS if model.cyclic else Evaluator.ROWS_PASS
    if not values and not model.cyclic and periodic:
        return Evaluator.REACHABLE
    return Evaluator.SWEEP


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
