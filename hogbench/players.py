"""The two kinds of player the engines know: a decision table, or a strategy called live."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from hogbench.tables import DecisionTable


@dataclass(frozen=True, eq=False)
class TablePlayer:
    """A strategy known at every observation: CHOICES[observation] is its number of dice (or
    roll/hold). The exact engine and the fast Monte Carlo paths play tables only."""

    choices: np.ndarray

    @classmethod
    def from_table(cls, table: DecisionTable) -> TablePlayer:
        """TABLE's choices played as they are kept (the engines convert them where a kernel
        needs another type: ``engine_table``, ``exact.policies``)."""
        return cls(table.choices)


def engine_table(choices: np.ndarray) -> np.ndarray:
    """CHOICES as the compiled engines take a table: flat, contiguous, int64 and writable.

    A worker's tables may arrive read-only (joblib memory-maps large arrays, Dask may
    deserialise them in place); they are read where they lie, and copied only here."""
    table = np.ascontiguousarray(choices, dtype=np.int64).reshape(-1)
    return table if table.flags.writeable else table.copy()


class Meter:
    """The seconds a live player's workers have spent answering, added up across the blocks of
    a pair (as the sandbox counts them: from each request to its whole reply, less the time
    spent waiting for a busy CPU). Blocks played in another process add to their own copy."""

    def __init__(self) -> None:
        self.seconds = 0.0


@dataclass(frozen=True, eq=False)
class LivePlayer:
    """A strategy asked at every decision. OPEN() gives a callable taking the rule set's
    strategy arguments and returning a raw answer; it may be a context manager (a sandboxed
    worker), and OPEN must be picklable, since blocks of games run in other processes. Where
    TAKES_SEED, OPEN(seed=N) seeds the strategy's ``random`` (a file's worker): each block of
    games gives its own.
    IDENTITY is the entrant's key: a failure while playing is marked with it, so it is charged
    to this player and no other. METER, where OPEN's strategies add their own time to it (a
    file's worker), is what a pair's time budget charges this player with."""

    open: Callable[..., Callable]
    identity: str | None = None
    takes_seed: bool = False
    meter: Meter | None = None


Player = TablePlayer | LivePlayer
