"""The Monte Carlo engine: many games between two strategies, first player alternating.

Games come in pairs that share one dice stream with the seats swapped, which cancels much of the
luck between the two seatings. Each turn draws one uniform number and picks the turn's outcome
from the rule set's exact outcome distribution, so the simulator and the exact engine are two
readings of the same model.

Work is cut into fixed blocks whose seeds are derived in the parent (numpy SeedSequence), so a
seed gives identical counts whatever the number of jobs. Blocks run through joblib: local
processes by default, or any joblib backend (Dask, Ray) the caller has set up.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
from numba import njit, types

from hogbench.errors import HogbenchError
from hogbench.rules.base import (
    OTHER,
    RESOLVE_SIGNATURE,
    ROLL_KIND_SIGNATURE,
    SAME,
    TIE,
    WIN,
    RuleSet,
    kernel,
)

#: Games per block. A block is the unit of seeding and of parallel work; small runs are one
#: block and stay in-process, because starting a worker costs more than such a run.
BLOCK_GAMES = 200_000
#: A game still running after this many turns is reported, not looped on forever.
MAX_TURNS = 100_000

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK = (1 << 64) - 1


@njit(cache=True, inline="always")
def _next_uniform(state):
    """SplitMix64: a tiny counter-based generator, so each game pair replays its own stream."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return state, (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _finish(kind, a_moves):
    """Column of the counts table for a finished game: 0 A won, 1 A lost, 2 tie."""
    if kind == TIE:
        return 2
    return 0 if (kind == WIN) == a_moves else 1


#: The model as the kernels take it: rule functions, their parameters and the roll distributions.
MODEL_TYPE = types.Tuple(
    (
        types.FunctionType(ROLL_KIND_SIGNATURE),
        types.FunctionType(RESOLVE_SIGNATURE),
        types.int64[::1],
        types.int64[::1],
        types.int64[::1],
        types.float64[::1],
    )
)
_rows_t = types.Tuple((types.int64[::1], types.float64[:, ::1], types.float64[:, ::1]))


@kernel(_rows_t(MODEL_TYPE, types.int64[::1], types.int64[::1]))
def _rows_for_table(g, observation, table):
    """One strategy's outcomes at every state, likeliest first: (ptr, packed).

    packed[j] = (cumulative probability, outcome code). A duel takes one choice per state for
    each player, so resolving just those is cheaper than the model's full transitions and stays
    in cache; the pairs put each draw's data on one cache line, and likeliest-first shortens the
    search for the drawn outcome.
    """
    roll_kind, resolve, params, dist_ptr, dist_value, dist_prob = g
    n = len(observation)
    ptr = np.zeros(n + 1, dtype=np.int64)
    for x in range(n):
        k = roll_kind(params, x, table[observation[x]])
        ptr[x + 1] = ptr[x] + dist_ptr[k + 1] - dist_ptr[k]
    packed = np.empty((ptr[n], 2), dtype=np.float64)
    for x in range(n):
        c = table[observation[x]]
        k = roll_kind(params, x, c)
        lo = dist_ptr[k]
        order = np.argsort(-dist_prob[lo : dist_ptr[k + 1]], kind="mergesort")
        acc = 0.0
        for i in range(len(order)):
            acc += dist_prob[lo + order[i]]
            packed[ptr[x] + i, 0] = acc
            # exact as a float: outcome codes are far below 2**53
            packed[ptr[x] + i, 1] = resolve(params, x, c, dist_value[lo + order[i]])
        packed[ptr[x + 1] - 1, 0] = 1.0
    # The likeliest outcome of every state, apart: small enough to stay in the nearest cache,
    # and most draws end there (a Hog roll of six dice is a 1 two times in three).
    head = np.empty((n, 2), dtype=np.float64)
    for x in range(n):
        head[x] = packed[ptr[x]]
    return ptr, packed, head


@njit(cache=True, inline="always")
def _draw(ptr, packed, head, x, u):
    """The outcome code at state X for the uniform draw U, from compact rows."""
    if u < head[x, 0]:
        return np.int64(head[x, 1])
    j = ptr[x] + 1
    last = ptr[x + 1] - 1
    while j < last and u >= packed[j, 0]:
        j += 1
    return np.int64(packed[j, 1])


@njit(cache=True)
def _draw_direct(g, x, c, u):
    """The outcome code of choice C at state X for draw U, resolving it on the spot."""
    roll_kind, resolve, params, dist_ptr, dist_value, dist_prob = g
    k = roll_kind(params, x, c)
    j = dist_ptr[k]
    last = dist_ptr[k + 1] - 1
    acc = dist_prob[j]
    while j < last and u >= acc:
        j += 1
        acc += dist_prob[j]
    return resolve(params, x, c, dist_value[j])


@kernel(
    types.void(
        MODEL_TYPE,
        _rows_t,
        _rows_t,
        types.int64[::1],
        types.int64,
        types.int64[::1],
        types.int64[::1],
        types.uint64[::1],
        types.int64,
        types.int64,
        types.int64[:, ::1],
    ),
)
def _play_tables(
    g, rows_a, rows_b, observation, start, table_a, table_b, seeds, n_games, max_turns, counts
):
    """Play N_GAMES games, pair i on stream seeds[i], A first in even games; add to COUNTS.

    counts[seat, column]: seat 0 = A moved first; columns A won, A lost, tie, unfinished.
    ROWS_A/ROWS_B are compact rows (ptr, codes, cum) or empty, then outcomes are resolved on
    the spot.
    """
    compact = len(rows_a[0]) > 1
    ptr_a, packed_a, head_a = rows_a
    ptr_b, packed_b, head_b = rows_b
    for i in range(len(seeds)):
        for seat in range(2):
            if 2 * i + seat >= n_games:
                break
            rng = seeds[i]
            x = start
            a_moves = seat == 0
            column = 3
            for _ in range(max_turns):
                rng, u = _next_uniform(rng)
                if compact and a_moves:
                    code = _draw(ptr_a, packed_a, head_a, x, u)
                elif compact:
                    code = _draw(ptr_b, packed_b, head_b, x, u)
                else:
                    table = table_a if a_moves else table_b
                    code = _draw_direct(g, x, table[observation[x]], u)
                kind = code & 7
                if kind == OTHER:
                    x = code >> 3
                    a_moves = not a_moves
                elif kind == SAME:
                    x = code >> 3
                else:
                    column = _finish(kind, a_moves)
                    break
            counts[seat, column] += 1


def _next_uniform_py(state: int) -> tuple[int, float]:
    """SplitMix64 in plain Python, the same stream as _next_uniform (for the live path)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return state, (z >> 11) * (1.0 / 9007199254740992.0)


# A player in a block: ("table", choices) or ("live", opener) where opener() gives a callable
# taking the strategy's arguments and returning a raw answer, and may be a context manager.
Player = tuple[str, object]


def _draw_py(m, x: int, c: int, u: float) -> int:
    """_draw_direct for the live path, calling the model's compiled functions from Python."""
    k = m.roll_kind(m.params, x, c)
    j, last = int(m.dist_ptr[k]), int(m.dist_ptr[k + 1]) - 1
    acc = m.dist_prob[j]
    while j < last and u >= acc:
        j += 1
        acc += m.dist_prob[j]
    return int(m.resolve(m.params, x, c, int(m.dist_value[j])))


def _play_live(rules: RuleSet, a: Callable, b: Callable, seeds: np.ndarray, n_games: int):
    """The slow path: at least one strategy is called at every decision."""
    m = rules.model
    counts = np.zeros((2, 4), dtype=np.int64)
    for i, pair_seed in enumerate(seeds):
        for seat in range(2):
            if 2 * i + seat >= n_games:
                break
            rng = int(pair_seed)
            x = m.start
            a_moves = seat == 0
            column = 3
            for _ in range(MAX_TURNS):
                c = (a if a_moves else b)(int(x))
                rng, u = _next_uniform_py(rng)
                code = _draw_py(m, x, c, u)
                kind = code & 7
                if kind == OTHER:
                    x, a_moves = code >> 3, not a_moves
                elif kind == SAME:
                    x = code >> 3
                else:
                    column = int(_finish(kind, a_moves))
                    break
            counts[seat, column] += 1
    return counts


def decider(rules: RuleSet, player: Player, stack) -> Callable[[int], int]:
    """A function state -> choice for one player, opening live strategies inside STACK."""
    kind, what = player
    if kind == "table":
        table = what
        observation = rules.model.observation
        return lambda x: int(table[observation[x]])
    strategy = what()
    if hasattr(strategy, "__enter__"):
        strategy = stack.enter_context(strategy)
    return lambda x: rules.choice(strategy(*rules.state_args(x)))


def play_block(rules: RuleSet, a: Player, b: Player, seeds: np.ndarray, n_games: int) -> np.ndarray:
    """Play one block of games; returns counts[seat, (A won, A lost, tie, unfinished)]."""
    from contextlib import ExitStack

    rules = _cached_rules(rules.name, rules.goal, tuple(sorted(rules.options.items())))
    m = rules.model
    if a[0] == "table" and b[0] == "table":
        table_a, table_b = _table(a[1]), _table(b[1])
        counts = np.zeros((2, 4), dtype=np.int64)
        _play_tables(
            _model_tuple(m),
            _rows(m, table_a),
            _rows(m, table_b),
            m.observation,
            m.start,
            table_a,
            table_b,
            seeds,
            n_games,
            MAX_TURNS,
            counts,
        )
        return counts
    with ExitStack() as stack:
        return _play_live(rules, decider(rules, a, stack), decider(rules, b, stack), seeds, n_games)


@functools.cache
def _cached_rules(name: str, goal: int, options: tuple) -> RuleSet:
    """One rule set (and so one built model) per process, however many blocks it plays."""
    from hogbench.rules import get_rules

    return get_rules(name, goal, **dict(options))


def _table(choices: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(choices, dtype=np.int64)


#: Above this many states a duel resolves outcomes on the spot instead of tabling them.
MAX_COMPACT_STATES = 500_000


def _rows(m, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Compact rows for one table, or empty arrays for models too large to tabulate."""
    if m.n_states > MAX_COMPACT_STATES:
        return np.zeros(1, np.int64), np.zeros((0, 2), np.float64), np.zeros((0, 2), np.float64)
    return _rows_for_table(_model_tuple(m), m.observation, table)


def _model_tuple(m) -> tuple:
    """The model as the compiled kernels take it (see MODEL_TYPE)."""
    return (m.roll_kind, m.resolve, m.params, m.dist_ptr, m.dist_value, m.dist_prob)


@dataclass(frozen=True)
class Block:
    seeds: np.ndarray  # one stream seed per pair of games
    n_games: int


def blocks(games: int, seed: int) -> list[Block]:
    """Cut GAMES into fixed blocks with seeds derived from SEED (independent of jobs)."""
    n_blocks = -(-games // BLOCK_GAMES)
    children = np.random.SeedSequence(seed).spawn(n_blocks)
    out = []
    for b, child in enumerate(children):
        n = min(BLOCK_GAMES, games - b * BLOCK_GAMES)
        rng = np.random.Generator(np.random.PCG64(child))
        out.append(Block(rng.integers(0, 2**64, size=-(-n // 2), dtype=np.uint64), n))
    return out


def simulate(
    rules: RuleSet,
    a: Player,
    b: Player,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play GAMES games of A against B; returns counts[seat, (A won, A lost, tie)].

    PROGRESS, if given, is called with the number of games each finished block played.
    """
    if games < 1:
        raise HogbenchError(f"the number of games must be at least 1, got {games}")
    work = blocks(games, seed)
    if jobs == 1 or len(work) == 1:
        results: Iterator[np.ndarray] = (play_block(rules, a, b, w.seeds, w.n_games) for w in work)
    else:
        from joblib import Parallel, delayed  # only here: its import costs a tenth of a second

        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(play_block)(rules, a, b, w.seeds, w.n_games) for w in work
        )
    total = np.zeros((2, 4), dtype=np.int64)
    for w, counts in zip(work, results, strict=True):
        total += counts
        if progress is not None:
            progress(w.n_games)
    if total[:, 3].any():
        raise HogbenchError(
            f"{int(total[:, 3].sum())} games were still running after {MAX_TURNS} turns"
            " (do these strategies ever finish a game?)"
        )
    return total[:, :3]
