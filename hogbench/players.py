"""The two kinds of player the engines know: a decision table, or a strategy called live."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class TablePlayer:
    """A strategy known at every observation: CHOICES[observation] is its number of dice (or
    roll/hold). The exact engine and the fast Monte Carlo paths play tables only."""

    choices: np.ndarray

    def writable(self) -> TablePlayer:
        """This player with a writable, contiguous table of the same type: large arrays reach
        workers read-only (joblib memory-maps them, Dask may deserialise them in place), and
        the compiled engines take writable arrays only."""
        choices = self.choices
        if choices.flags.writeable and choices.flags.c_contiguous:
            return self
        return TablePlayer(np.array(choices, order="C"))


@dataclass(frozen=True, eq=False)
class LivePlayer:
    """A strategy asked at every decision. OPEN() gives a callable taking the rule set's
    strategy arguments and returning a raw answer; it may be a context manager (a sandboxed
    worker), and OPEN must be picklable, since blocks of games run in other processes."""

    open: Callable[[], Callable]


Player = TablePlayer | LivePlayer
