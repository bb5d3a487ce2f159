"""The two kinds of player the engines know: a decision table (``tables.DecisionTable``, played
as it is), or a strategy called live (``LivePlayer``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hogbench.tables import DecisionTable


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


Player = DecisionTable | LivePlayer
