"""One way to play a pair of strategies, used by ``duel``, ``gauntlet`` and tournaments alike,
so that a speed-up of either engine lands everywhere.

A pair is played exactly (both players are decision tables: each seating's exact chance of
winning) or by Monte Carlo (game pairs sharing one dice stream with the seats swapped; a fixed
number, or blocks until the paired interval decides against a threshold, or until an SPRT
accepts a hypothesis). Engines load on first need: a warm exact duel of a small acyclic model
reads cached rows with numpy and never imports numba.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from hogbench import simulate, stats
from hogbench.cache import load_arrays, save_arrays, table_entry
from hogbench.entrants import Entrant
from hogbench.errors import HogbenchError, StrategyError
from hogbench.players import LivePlayer, Meter, Player
from hogbench.rules.base import RuleSet
from hogbench.tables import DecisionTable

if TYPE_CHECKING:
    from hogbench.sandbox.request import Request

#: Pairs before the first look of a match played until decided; the looks then double.
FIRST_LOOK_PAIRS = 1_000
#: Pairs between two looks of an SPRT.
SPRT_BLOCK_PAIRS = 1_000


@dataclass(frozen=True)
class PairPlay:
    """What playing A against B gave, from A's side."""

    exact: bool
    first: float  # A's chance (exact) or win rate, ties half (Monte Carlo), moving first
    second: float  # the same, A moving second
    seconds: float
    joint: np.ndarray | None = None  # Monte Carlo: pairs by [A-first result, A-second result]
    decision: str | None = None  # until decided: above / below / undecided the threshold
    verdict: str | None = None  # SPRT: 'H0', 'H1', or None at the cap
    #: exact, where a game may never end (the rules' turn_cap): the chance of that (a tie), A
    #: first and A second
    never_ends: tuple[float, float] | None = None
    remembered: bool = False  # exact: the values were kept from an earlier run (REMEMBER)
    #: exact, where the rules have ties (``RuleSet.has_ties``): the chance of a tied end, A
    #: first and A second; FIRST and SECOND count it half
    ties: tuple[float, float] | None = None


def player_of(entrant: Entrant, rules: RuleSet, request: Request | None = None) -> Player:
    """How the engines play an entrant: from its table, or live (a sandboxed worker for a file,
    the strategy itself for a built-in or an expression). REQUEST is the command's sandbox
    request (``sandbox.Request``), so a file played live runs under the same policy (allowed
    imports, the sandbox or not) as it was loaded under."""
    if entrant.table is not None:
        return entrant.table
    import functools

    from hogbench import loading

    if entrant.spec.is_file:
        from hogbench import sandbox

        meter = Meter()  # the same one in the opener and the player, pickled or not
        opener = functools.partial(sandbox.LiveStrategy, entrant.spec, rules, request, meter=meter)
        return LivePlayer(opener, identity=entrant.key, takes_seed=True, meter=meter)
    opener = functools.partial(loading.live_strategy, entrant.spec, rules)
    return LivePlayer(opener, identity=entrant.key)


def play_pair(
    rules: RuleSet,
    a: Player,
    b: Player,
    mode: str = "exact",
    games: int = 0,
    seed: int = 0,
    *,
    until_decided: float | None = None,
    sprt: stats.Sprt | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    on_look: Callable[[stats.PairedEstimate], None] | None = None,
    seconds: float | None = None,
    live_budget: float | None = None,
    remember: bool = False,
) -> PairPlay:
    """Play A against B. MODE 'exact' needs two tables; 'mc' plays GAMES games from SEED, or
    with UNTIL_DECIDED (a threshold) or SPRT blocks until decided, GAMES being then the cap.

    REMEMBER keeps an exact pair's values in the disk cache and takes them from there the next
    time: a student runs the same duel again and again, and the engines' start-up (numba, the
    model) costs far more than reading two numbers. Tournaments keep results in their own store.

    SECONDS caps a sequential match's time (no block starts after it); LIVE_BUDGET is what a
    pair with a live player may take in all, past which the live player fails (StrategyError).
    ON_LOOK is given the estimate after every block, PROGRESS the games each block played.
    """
    start = time.perf_counter()
    if mode == "exact":
        kept = _kept_exact(rules, a, b) if remember else None
        first, second, never_ends, ties = kept or _exact(rules, a, b, remember)
        seconds = time.perf_counter() - start
        return PairPlay(
            True, first, second, seconds, never_ends=never_ends, remembered=bool(kept), ties=ties
        )
    if mode != "mc":
        raise HogbenchError(f"a pair is played 'exact' or 'mc', not {mode!r}")
    joint, decision, verdict = _monte_carlo(
        rules, a, b, games, seed, jobs, progress, until_decided, sprt, on_look, seconds,
        live_budget,
    )  # fmt: skip
    first, second = (
        (w + t / 2) / (w + lost + t) for w, lost, t in simulate.seat_counts(joint).tolist()
    )
    return PairPlay(False, first, second, time.perf_counter() - start, joint, decision, verdict)


def play_exact_grid(
    rules: RuleSet,
    players_a: list[DecisionTable],
    players_b: list[DecisionTable],
    wanted: np.ndarray,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Each of PLAYERS_A against each of PLAYERS_B exactly, where WANTED[i, j] says so:
    values[i, j] = (A first, A second), NaN elsewhere. A round robin's batch is a tile of its
    pair matrix, and the engine plays a grid of its pairs in one pass where the model allows
    (``exact.evaluate_grid``). Where games can tie (``RuleSet.has_ties``, or a game that may
    never end: the rules' ``turn_cap``), also the chance of a tie, ties[i, j] = (A first, A
    second) (``exact.tie_grid``), so that a win rate (a tie counting half) splits into win,
    loss and tie; else None."""
    from hogbench import exact

    tables_a, tables_b = ([p.choices for p in ps] for ps in (players_a, players_b))
    values = exact.evaluate_grid(rules, tables_a, tables_b, wanted)
    can_tie = rules.has_ties or rules.turn_cap() is not None
    ties = exact.tie_grid(rules, tables_a, tables_b, wanted) if can_tie else None
    return values, ties


def opponents_at_once(rules: RuleSet) -> int | None:
    """How many opponents a round robin should give each entrant at a time in a batch of exact
    pairs (None: all), as the engine keeps its work (``exact.opponents_at_once``)."""
    from hogbench import exact

    return exact.opponents_at_once(rules)


ExactValues = tuple[float, float, tuple[float, float] | None, tuple[float, float] | None]
#: The modules an exact pair's values come from, besides the rule set's: a kept pair never
#: outlives them (see ``cache.table_entry``).
EXACT_ENGINE = (
    __name__, "hogbench.exact", "hogbench.exact.core", "hogbench.exact.rows",
    "hogbench.exact.evaluation", "hogbench.exact.turns", "hogbench.exact.analysis",
    "hogbench.exact.memory", "hogbench.exact.kept", "hogbench.exact.plan",
)  # fmt: skip


def _exact(rules: RuleSet, a: Player, b: Player, keep: bool = False) -> ExactValues:
    """A's exact chance moving first and second, where a game may never end (the rules'
    turn_cap) the chance of that (a tie) in each seating, and where the rules have ties the
    chance of a tied end in each. KEEP keeps them in the disk cache."""
    if not (isinstance(a, DecisionTable) and isinstance(b, DecisionTable)):
        raise HogbenchError("an exact pair needs two decision tables")
    from hogbench.exact import kept as kept_rows

    seatings = kept_rows.evaluate(rules, a.choices, b.choices)
    if seatings is None:
        from hogbench import exact  # loaded only when asked: its kernels take a moment

        values = exact.evaluate(rules, a.choices, b.choices)
        seatings = values.first, values.second
    never_ends = ties = None
    if rules.turn_cap() is not None or rules.has_ties:
        from hogbench import exact

        pa, pb = exact.table_policies(rules, a.choices, b.choices)
        if rules.turn_cap() is not None:
            never_ends = tuple(1.0 - p for p in exact.ending_chance(rules, pa, pb))
        if rules.has_ties:
            ties = exact.tie_chance(rules, pa, pb)
    if keep:
        save_arrays(
            _pair_entry(rules, a, b),
            values=np.array(seatings, dtype=np.float64),
            never_ends=np.array(never_ends or (), dtype=np.float64),
            ties=np.array(ties or (), dtype=np.float64),
        )
    return (*seatings, never_ends, ties)


def _pair_entry(rules: RuleSet, a: DecisionTable, b: DecisionTable) -> Path:
    pair = np.concatenate([np.asarray(p.choices, dtype=np.int64).ravel() for p in (a, b)])
    return table_entry("exact-pair", rules.identity, pair, made_by=EXACT_ENGINE)


def _kept_exact(rules: RuleSet, a: Player, b: Player) -> ExactValues | None:
    """The values ``_exact`` kept for this pair under these rules and this code, if any."""
    if not (isinstance(a, DecisionTable) and isinstance(b, DecisionTable)):
        return None
    try:
        kept = load_arrays(_pair_entry(rules, a, b))
        first, second = kept["values"].tolist()
        never_ends, ties = (tuple(kept[name].tolist()) or None for name in ("never_ends", "ties"))
    except (OSError, ValueError, KeyError):
        return None  # not kept yet, or unreadable (or kept by an earlier layout)
    return first, second, never_ends, ties


def _monte_carlo(
    rules: RuleSet,
    a: Player,
    b: Player,
    games: int,
    seed: int,
    jobs: int,
    progress: Callable[[int], None] | None,
    until_decided: float | None,
    sprt: stats.Sprt | None,
    on_look: Callable[[stats.PairedEstimate], None] | None,
    seconds: float | None,
    live_budget: float | None,
) -> tuple[np.ndarray, str | None, str | None]:
    """The joint pair counts, the decision (until decided) and the SPRT's verdict."""
    started = time.perf_counter()
    if until_decided is None and sprt is None:
        return simulate.simulate_pairs(rules, a, b, games, seed, jobs, progress), None, None
    plan = decision_plan(games) if sprt is None else sprt_plan(games)
    z = stats.sequential_z(len(plan))
    # Each live player with a meter is charged for its own time alone: a slow file cannot
    # spend its partner's budget, whoever sits across from it.
    meters = {
        p.identity: (p.meter, p.meter.seconds)
        for p in (a, b)
        if isinstance(p, LivePlayer) and p.meter is not None
    }
    joint = np.zeros((3, 3), dtype=np.int64)
    decision = verdict = None
    done = 0
    for look, total in enumerate(plan):
        joint += simulate.simulate_pairs(
            rules, a, b, 2 * (total - done), block_seed(seed, look), jobs, progress
        )
        done = total
        elapsed = time.perf_counter() - started
        if live_budget is not None:
            _charge_budget(meters, live_budget, elapsed, int(joint.sum()))
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


def _charge_budget(
    meters: dict[str | None, tuple[Meter, float]], budget: float, elapsed: float, games: int
) -> None:
    """StrategyError charged to each live player whose own time in the pair (its meter, less
    its reading at the pair's start) is over BUDGET; nobody else pays for it."""
    over = {
        identity: meter.seconds - start
        for identity, (meter, start) in meters.items()
        if meter.seconds - start > budget
    }
    if not over:
        return
    own = " and ".join(f"{seconds:.1f} s" for seconds in over.values())
    whose = "its own answering" if len(over) == 1 else "answering, each over it on its own"
    first, *others = over
    raise StrategyError(
        "played live",
        f"took more than its budget of {budget:g} s for one pair ({own} of {whose};"
        f" {elapsed:.1f} s for the pair's {games:,} game pairs)",
        entrant=first,
        also=tuple(o for o in others if o is not None),
    )


def decision_plan(games: int) -> list[int]:
    """The pair totals at which a match played until decided looks, for a cap of GAMES."""
    return stats.looks(FIRST_LOOK_PAIRS, -(-games // 2))


def decision_z(games: int) -> float:
    """The z each look of a match capped at GAMES uses (see ``stats.sequential_z``)."""
    return stats.sequential_z(len(decision_plan(games)))


def sprt_plan(games: int) -> list[int]:
    cap = -(-games // 2)
    return list(range(SPRT_BLOCK_PAIRS, cap, SPRT_BLOCK_PAIRS)) + [cap]


def block_seed(seed: int, look: int) -> int:
    """The seed of a sequential match's LOOK-th block: derived from SEED alone, so a match
    is the same whatever the number of jobs, and a longer cap only adds blocks."""
    return int(np.random.SeedSequence([seed, look]).generate_state(1, dtype=np.uint64)[0])
