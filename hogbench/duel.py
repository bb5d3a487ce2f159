"""A match of two strategies: exact, or Monte Carlo with the first player alternating."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from hogbench import simulate, stats
from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, StrategyError, UsageError
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
        return data


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
        from hogbench import exact_rows

        seatings = exact_rows.evaluate(rules, a.table.choices, b.table.choices)
        never_ends = None
        if seatings is None:
            from hogbench import exact  # loaded only when asked: its kernels take a moment

            values = exact.evaluate(rules, a.table.choices, b.table.choices)
            seatings = values.first, values.second
            if rules.turn_cap() is not None:  # a game may never end: how likely, a tie
                pa, pb = (exact.table_policy(rules.model, e.table.choices) for e in (a, b))
                never_ends = tuple(1.0 - p for p in exact.ending_chance(rules, pa, pb))
        return DuelResult(
            rules,
            a,
            b,
            True,
            Seat(0, 0, 0, seatings[0]),
            Seat(0, 0, 0, seatings[1]),
            None,
            time.perf_counter() - start,
            never_ends=never_ends,
        )
    if games < 1:
        raise UsageError(f"-n must be at least 1, got {games}")
    if seed is None:
        raise UsageError("a Monte Carlo duel needs a seed")
    joint, decision, verdict = play_mc(
        rules,
        player(a, rules),
        player(b, rules),
        games,
        seed,
        jobs,
        progress,
        until_decided,
        sprt,
        on_look,
    )
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
            "verdict": verdict or "undecided at the cap",
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
        decision=decision,
        threshold=until_decided,
        sprt=sprt_data,
    )


def play_mc(
    rules: RuleSet,
    a: simulate.Player,
    b: simulate.Player,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    until_decided: float | None = None,
    sprt: stats.Sprt | None = None,
    on_look: Callable[[stats.PairedEstimate], None] | None = None,
    seconds: float | None = None,
    live_budget: float | None = None,
) -> tuple[np.ndarray, str | None, str | None]:
    """Monte Carlo game pairs of A against B: GAMES of them, or with UNTIL_DECIDED (a threshold)
    or SPRT, blocks until decided with GAMES as the cap, and SECONDS (if given) as a cap on
    time: no block starts after it. LIVE_BUDGET (seconds) is what a pair with a live strategy
    may take in all, checked after each block: past it, StrategyError, so that a tournament
    disqualifies the live strategy with the reason. Returns the joint pair counts, the decision
    (until decided) and the SPRT's verdict ('H0', 'H1' or None at a cap)."""
    started = time.perf_counter()
    if until_decided is None and sprt is None:
        return simulate.simulate_pairs(rules, a, b, games, seed, jobs, progress), None, None
    plan = decision_plan(games) if sprt is None else sprt_plan(games)
    z = stats.sequential_z(len(plan))
    joint = np.zeros((3, 3), dtype=np.int64)
    decision = verdict = None
    done = 0
    for look, total in enumerate(plan):
        joint += simulate.simulate_pairs(
            rules, a, b, 2 * (total - done), block_seed(seed, look), jobs, progress
        )
        done = total
        elapsed = time.perf_counter() - started
        if live_budget is not None and "live" in (a[0], b[0]) and elapsed > live_budget:
            raise StrategyError(
                "played live",
                f"took more than its budget of {live_budget:g} s for one pair"
                f" ({elapsed:.1f} s for {int(joint.sum()):,} game pairs)",
            )
        estimate = stats.PairedEstimate.from_joint(joint)
        if on_look is not None:
            on_look(estimate)
        if sprt is not None:
            verdict = sprt.verdict(estimate)
            if verdict is not None:
                break
        else:
            decision = stats.decision(estimate, until_decided, z)
            if decision != stats.UNDECIDED:
                break
        if seconds is not None and elapsed > seconds:
            break  # out of time: undecided, with what it has
    return joint, decision, verdict


def decision_plan(games: int) -> list[int]:
    """The pair totals at which a match played until decided looks, for a cap of GAMES."""
    return stats.looks(FIRST_LOOK_PAIRS, -(-games // 2))


def decision_z(games: int) -> float:
    """The z each look of a match capped at GAMES uses (see ``stats.sequential_z``)."""
    return stats.sequential_z(len(decision_plan(games)))


def sprt_plan(games: int) -> list[int]:
    cap = -(-games // 2)
    return list(range(SPRT_BLOCK_PAIRS, cap, SPRT_BLOCK_PAIRS)) + [cap]


#: Pairs before the first look of ``--until-decided``; the looks then double up to the cap.
FIRST_LOOK_PAIRS = 1_000
#: Pairs between two looks of an SPRT.
SPRT_BLOCK_PAIRS = 1_000


def block_seed(seed: int, look: int) -> int:
    """The seed of a sequential match's LOOK-th block: derived from SEED alone, so a match
    is the same whatever the number of jobs, and a longer cap only adds blocks."""
    return int(np.random.SeedSequence([seed, look]).generate_state(1, dtype=np.uint64)[0])
