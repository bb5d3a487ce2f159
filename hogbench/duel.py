"""A match of two strategies: exact, or Monte Carlo with the first player alternating."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from hogbench import simulate
from hogbench.errors import HogbenchError, UsageError
from hogbench.loading import Entrant
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
    rules: RuleSet
    a: Entrant
    b: Entrant
    exact: bool
    first: Seat  # A moving first
    second: Seat  # A moving second
    seed: int | None
    seconds: float

    @property
    def total(self) -> Seat:
        if self.exact:
            return Seat(0, 0, 0, (self.first.win_rate + self.second.win_rate) / 2)
        f, s = self.first, self.second
        return Seat.from_counts(f.wins + s.wins, f.losses + s.losses, f.ties + s.ties)

    @property
    def interval(self) -> tuple[float, float]:
        t = self.total
        if self.exact:
            return t.win_rate, t.win_rate
        return wilson(t.wins + t.ties / 2, t.games)

    @property
    def games_per_second(self) -> float | None:
        if self.exact or self.seconds <= 0:
            return None
        return self.total.games / self.seconds

    def to_dict(self) -> dict:
        low, high = self.interval
        return {
            "rules": self.rules.name,
            "goal": self.rules.goal,
            "options": self.rules.options,
            "a": self.a.name,
            "b": self.b.name,
            "a_spec": self.a.spec.text,
            "b_spec": self.b.spec.text,
            "exact": self.exact,
            **self.total.to_dict(),
            "ci_low": low,
            "ci_high": high,
            "seed": self.seed,
            "first": self.first.to_dict(),
            "second": self.second.to_dict(),
            "seconds": self.seconds,
            "games_per_second": self.games_per_second,
        }


def player(entrant: Entrant, rules: RuleSet) -> simulate.Player:
    """How the Monte Carlo engine plays an entrant: from its table, or live."""
    if entrant.table is not None:
        return ("table", entrant.table.choices)
    return ("live", _opener(entrant, rules))


def _opener(entrant: Entrant, rules: RuleSet) -> Callable:
    """A picklable zero-argument function that gives a live strategy in any process."""
    import functools

    from hogbench import loading

    if entrant.spec.is_file:
        from hogbench import sandbox

        return functools.partial(sandbox.LiveStrategy, entrant.spec, rules)
    return functools.partial(loading.live_strategy, entrant.spec, rules)


def run_duel(
    rules: RuleSet,
    a: Entrant,
    b: Entrant,
    games: int = 100_000,
    seed: int | None = None,
    jobs: int = 1,
    exact_mode: bool = False,
    progress: Callable[[int], None] | None = None,
) -> DuelResult:
    """Play A against B: exact win probabilities, or GAMES Monte Carlo games."""
    start = time.perf_counter()
    if exact_mode:
        for e in (a, b):
            if e.table is None:
                raise HogbenchError(
                    f"{e.name}: cannot be evaluated exactly, it is not a decision table"
                    f" ({e.live_reason}); drop --exact to play it by Monte Carlo"
                )
        from hogbench import exact_rows

        seatings = exact_rows.evaluate(rules, a.table.choices, b.table.choices)
        if seatings is None:
            from hogbench import exact  # loaded only when asked: its kernels take a moment

            values = exact.evaluate(rules, a.table.choices, b.table.choices)
            seatings = values.first, values.second
        return DuelResult(
            rules,
            a,
            b,
            True,
            Seat(0, 0, 0, seatings[0]),
            Seat(0, 0, 0, seatings[1]),
            None,
            time.perf_counter() - start,
        )
    if games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    if seed is None:
        raise UsageError("a Monte Carlo duel needs a seed")
    counts = simulate.simulate(
        rules, player(a, rules), player(b, rules), games, seed, jobs, progress
    )
    return DuelResult(
        rules,
        a,
        b,
        False,
        Seat.from_counts(*map(int, counts[0])),
        Seat.from_counts(*map(int, counts[1])),
        seed,
        time.perf_counter() - start,
    )
