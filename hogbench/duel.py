"""A match of two strategies: exact, or Monte Carlo with the first player alternating."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hogbench import simulate, stats
from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, UsageError
from hogbench.pairs import play_pair, player_of
from hogbench.rules.base import RuleSet

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (ties count half a success)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Seat:
    """A's results in one seating (or both): counts for Monte Carlo, a probability when exact."""

    wins: int
    losses: int
    ties: int
    win_rate: float

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties

    @classmethod
    def from_counts(cls, wins: int, losses: int, ties: int) -> Seat:
        games = wins + losses + ties
        return cls(wins, losses, ties, (wins + ties / 2) / games if games else float("nan"))

    def to_dict(self) -> dict:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "win_rate": self.win_rate,
        }


@dataclass(frozen=True)
class DuelResult:
    """A's results against B. Monte Carlo results carry the joint counts of the game pairs,
    whose paired estimate (``hogbench.stats``) gives the win rate's interval."""

    rules: RuleSet
    a: Entrant
    b: Entrant
    exact: bool
    first: Seat  # A moving first
    second: Seat  # A moving second
    seed: int | None
    seconds: float
    joint: np.ndarray | None = None  # Monte Carlo: pairs by [A-first result, A-second result]
    identical: bool = False  # the same decision table: exactly even, nothing played
    decision: str | None = None  # --until-decided: above / below / undecided the threshold
    threshold: float | None = None
    sprt: dict | None = None  # --sprt: the test, its final LLR and verdict
    #: exact, where a game may never end: the chance of that (a tie), A first and A second
    never_ends: tuple[float, float] | None = None
    remembered: bool = False  # exact: the values were kept from an earlier run of this pair

    @property
    def total(self) -> Seat:
        if self.exact:
            return Seat(0, 0, 0, (self.first.win_rate + self.second.win_rate) / 2)
        f, s = self.first, self.second
        return Seat.from_counts(f.wins + s.wins, f.losses + s.losses, f.ties + s.ties)

    @property
    def paired(self) -> stats.PairedEstimate | None:
        return None if self.joint is None else stats.PairedEstimate.from_joint(self.joint)

    @property
    def interval(self) -> tuple[float, float] | None:
        """The paired 95% interval of A's win rate; None when the value is exact."""
        if self.exact:
            return None
        return self.paired.interval()

    @property
    def games_per_second(self) -> float | None:
        if self.exact or self.seconds <= 0:
            return None
        return self.total.games / self.seconds

    def to_dict(self) -> dict:
        interval = self.interval
        data = {
            "rules": self.rules.name,
            "goal": self.rules.goal,
            "options": self.rules.options,
            "a": self.a.name,
            "b": self.b.name,
            "a_spec": self.a.spec.text,
            "b_spec": self.b.spec.text,
            "exact": self.exact,
            "identical_tables": self.identical,
            **self.total.to_dict(),
            "ci_low": None if interval is None else interval[0],
            "ci_high": None if interval is None else interval[1],
            "seed": self.seed,
            "first": self.first.to_dict(),
            "second": self.second.to_dict(),
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }
        if self.joint is not None:
            data["paired"] = self.paired.to_dict()
        if self.decision is not None:
            data["decision"] = {"threshold": self.threshold, "result": self.decision}
        if self.sprt is not None:
            data["sprt"] = self.sprt
        if self.never_ends is not None:
            data["never_ends"] = dict(zip(("first", "second"), self.never_ends, strict=True))
        if self.exact:
            data["kept_from_earlier_run"] = self.remembered
        return data


def run_duel(
    rules: RuleSet,
    a: Entrant,
    b: Entrant,
    games: int = 100_000,
    seed: int | None = None,
    jobs: int = 1,
    exact_mode: bool = False,
    progress: Callable[[int], None] | None = None,
    until_decided: float | None = None,
    sprt: stats.Sprt | None = None,
    on_look: Callable[[stats.PairedEstimate], None] | None = None,
) -> DuelResult:
    """Play A against B: exact win probabilities, or Monte Carlo game pairs.

    Monte Carlo plays GAMES games; with UNTIL_DECIDED (a threshold) it plays blocks of pairs
    until the interval excludes the threshold, with SPRT until the test accepts a hypothesis,
    GAMES being then the cap. ON_LOOK is called with the estimate after every block.
    """
    start = time.perf_counter()
    if a.table is not None and b.table is not None and a.table.hash == b.table.hash:
        even = Seat(0, 0, 0, 0.5)
        return DuelResult(rules, a, b, True, even, even, None, 0.0, identical=True)
    if exact_mode:
        for e in (a, b):
            if e.table is None:
                raise HogbenchError(
                    f"{e.name}: cannot be evaluated exactly, it is not a decision table"
                    f" ({e.live_reason}); drop --exact to play it by Monte Carlo"
                )
    elif games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    elif seed is None:
        raise UsageError("a Monte Carlo duel needs a seed")
    played = play_pair(
        rules,
        player_of(a, rules),
        player_of(b, rules),
        "exact" if exact_mode else "mc",
        games,
        seed or 0,
        until_decided=until_decided,
        sprt=sprt,
        jobs=jobs,
        progress=progress,
        on_look=on_look,
        remember=True,
    )
    if played.exact:
        first, second = Seat(0, 0, 0, played.first), Seat(0, 0, 0, played.second)
        seconds = time.perf_counter() - start
        return DuelResult(
            rules, a, b, True, first, second, None, seconds, never_ends=played.never_ends,
            remembered=played.remembered,
        )  # fmt: skip
    joint = played.joint
    seat = simulate.seat_counts(joint)
    sprt_data = None
    if sprt is not None:
        estimate = stats.PairedEstimate.from_joint(joint)
        sprt_data = {
            "p0": sprt.p0,
            "p1": sprt.p1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "llr": sprt.llr(estimate),
            "lower": sprt.lower,
            "upper": sprt.upper,
            "verdict": played.verdict or "undecided at the cap",
        }
    return DuelResult(
        rules,
        a,
        b,
        False,
        Seat.from_counts(*map(int, seat[0])),
        Seat.from_counts(*map(int, seat[1])),
        seed,
        time.perf_counter() - start,
        joint=joint,
        decision=played.decision,
        threshold=until_decided,
        sprt=sprt_data,
    )
