"""A match of two strategies: exact, or Monte Carlo with the first player alternating."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from hogbench import simulate, stats
from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, UsageError
from hogbench.pairs import play_pair, player_of
from hogbench.rules.base import RuleSet

if TYPE_CHECKING:
    from hogbench.sandbox.request import Request

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
    """A's results in one seating (or both): the chances of a win, a loss and a tie (exact), or
    the games won, lost and tied with their fractions (Monte Carlo). A game that never ends is
    a tie."""

    win: float
    loss: float
    tie: float
    wins: int | None = None  # Monte Carlo counts; None when exact (no game was played)
    losses: int | None = None
    ties: int | None = None

    @property
    def games(self) -> int | None:
        return None if self.wins is None else self.wins + self.losses + self.ties

    @property
    def win_rate(self) -> float:
        """A's score per game: a tie counts half a win."""
        return self.win + self.tie / 2

    @classmethod
    def from_counts(cls, wins: int, losses: int, ties: int) -> Seat:
        games = wins + losses + ties
        if not games:
            nan = float("nan")
            return cls(nan, nan, nan, wins, losses, ties)
        return cls(wins / games, losses / games, ties / games, wins, losses, ties)

    @classmethod
    def from_value(cls, value: float, tie: float = 0.0) -> Seat:
        """An exact seat from the engine's value (a win plus half a tie) and the tie chance."""
        win = max(0.0, value - tie / 2)
        return cls(win, max(0.0, 1.0 - win - tie), tie)

    def to_dict(self) -> dict:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "win": self.win,
            "loss": self.loss,
            "tie": self.tie,
            "win_rate": self.win_rate,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


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
    #: A and B are the same strategy (one decision table, or one spec): the average is 50% by
    #: symmetry, and the seats show what moving first is worth. Both seatings are played.
    identical: bool = False
    decision: str | None = None  # --until-decided: above / below / undecided the threshold
    threshold: float | None = None
    sprt: dict | None = None  # --sprt: the test, its final LLR and verdict
    #: exact, where a game may never end: the chance of that (a tie), A first and A second
    never_ends: tuple[float, float] | None = None
    remembered: bool = False  # exact: the values were kept from an earlier run of this pair

    @property
    def total(self) -> Seat:
        f, s = self.first, self.second
        if self.exact:
            return Seat((f.win + s.win) / 2, (f.loss + s.loss) / 2, (f.tie + s.tie) / 2)
        return Seat.from_counts(f.wins + s.wins, f.losses + s.losses, f.ties + s.ties)

    @property
    def has_ties(self) -> bool:
        """Whether ties are worth a column: the rules have them, or some game tied."""
        return self.rules.has_ties or self.never_ends is not None or self.total.tie > 0

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
    def elo(self) -> float:
        """The Elo difference of A over B that its win rate means (``stats.elo_difference``)."""
        return stats.elo_difference(self.total.win_rate)

    @property
    def elo_interval(self) -> tuple[float, float] | None:
        """The Elo difference's 95% interval, from the win rate's; None when exact."""
        interval = self.interval
        return None if interval is None else tuple(map(stats.elo_difference, interval))

    @property
    def likelihood_of_superiority(self) -> float:
        """The chance that A is the stronger (``stats.likelihood_of_superiority``); when exact,
        a certainty: 1 above 50%, 0 below, 1/2 at exactly 50%."""
        if self.exact:
            rate = self.total.win_rate
            return 0.5 if abs(rate - 0.5) < 1e-12 else float(rate > 0.5)
        return stats.likelihood_of_superiority(self.paired)

    @property
    def symmetry_note(self) -> str | None:
        if not self.identical:
            return None
        return (
            "the same strategy on both sides: the average is 50% by symmetry; each seat's figure"
            " is what moving first or second is worth"
        )

    @property
    def games_per_second(self) -> float | None:
        if self.exact or self.seconds <= 0:
            return None
        return self.total.games / self.seconds

    def to_dict(self) -> dict:
        """One schema for exact and Monte Carlo duels: counts, intervals and whatever was not
        played are null, never 0."""
        interval = self.interval or (None, None)
        elo_interval = self.elo_interval or (None, None)
        return {
            "rules": self.rules.name,
            "goal": self.rules.goal,
            "options": self.rules.options,
            "a": self.a.name,
            "b": self.b.name,
            "a_spec": self.a.spec.text,
            "b_spec": self.b.spec.text,
            "mode": "exact" if self.exact else "monte-carlo",
            "exact": self.exact,
            "identical": self.identical,
            "note": self.symmetry_note,
            **self.total.to_dict(),
            "ci_low": interval[0],
            "ci_high": interval[1],
            "elo": {
                "difference": _finite(self.elo),
                "ci_low": None if elo_interval[0] is None else _finite(elo_interval[0]),
                "ci_high": None if elo_interval[1] is None else _finite(elo_interval[1]),
            },
            "likelihood_of_superiority": self.likelihood_of_superiority,
            "first": self.first.to_dict(),
            "second": self.second.to_dict(),
            "never_ends": (
                None
                if self.never_ends is None
                else dict(zip(("first", "second"), self.never_ends, strict=True))
            ),
            "paired": None if self.joint is None else self.paired.to_dict(),
            "decision": (
                None
                if self.decision is None
                else {"threshold": self.threshold, "result": self.decision}
            ),
            "sprt": self.sprt,
            "seed": self.seed,
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
            "kept_from_earlier_run": self.remembered if self.exact else None,
        }


def same_strategy(a: Entrant, b: Entrant) -> bool:
    """A and B play alike everywhere: one decision table, or (played live) one spec."""
    if a.table is not None and b.table is not None:
        return a.table.hash == b.table.hash
    return a.spec.text == b.spec.text


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
    request: Request | None = None,
) -> DuelResult:
    """Play A against B: exact win probabilities, or Monte Carlo game pairs.

    Monte Carlo plays GAMES games; with UNTIL_DECIDED (a threshold) it plays blocks of pairs
    until the interval excludes the threshold, with SPRT until the test accepts a hypothesis,
    GAMES being then the cap. ON_LOOK is called with the estimate after every block. REQUEST
    is the sandbox request a file played live runs under (the one it was loaded under).
    """
    start = time.perf_counter()
    identical = same_strategy(a, b)
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
        player_of(a, rules, request),
        player_of(b, rules, request),
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
        endless = played.never_ends or (0.0, 0.0)
        tied = played.ties or (0.0, 0.0)
        first, second = (
            Seat.from_value(value, tie + never)
            for value, tie, never in zip((played.first, played.second), tied, endless, strict=True)
        )
        seconds = time.perf_counter() - start
        return DuelResult(
            rules, a, b, True, first, second, None, seconds, identical=identical,
            never_ends=played.never_ends, remembered=played.remembered,
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
        identical=identical,
        decision=played.decision,
        threshold=until_decided,
        sprt=sprt_data,
    )
