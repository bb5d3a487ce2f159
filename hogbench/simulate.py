"""The Monte Carlo engine: many games between two strategies, first player alternating.

Games come in pairs that share one dice stream with the seats swapped, which cancels much of the
luck between the two seatings. Each turn draws one uniform number and picks the turn's outcome
from the rule set's exact outcome distribution, so the simulator and the exact engine are two
readings of the same model.

Two strategies given as tables play on *rows*: each state's outcomes under that strategy's
choice, as an alias table (Walker), so a draw is one lookup whatever the number of outcomes.
Rows are built once per (rule set, table) and kept in the disk cache: with numpy, every state at
once, where the rule functions take arrays of states (most Hog terms), else by a compiled
kernel. The games themselves run in numpy, all games of a block in step. So a duel of those
terms never loads numba, whose start-up (0.7 s) and compiling (1.4 s) would cost more than the
100,000 games. Models too large for rows
(hog-su20 with Feral Hogs state, Pig, Big Pig) resolve each draw on the spot in a compiled
kernel, and strategies that are not tables are called live.

Work is cut into fixed blocks whose seeds are derived in the parent (numpy SeedSequence), so a
seed gives identical counts whatever the number of jobs. Blocks run through joblib: local
processes by default, or any joblib backend (Dask) the caller has set up.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hogbench.cache import load_arrays, save_arrays, table_entry
from hogbench.errors import HogbenchError, StrategyError
from hogbench.jit import compiled, jit, kernel
from hogbench.players import LivePlayer, Player
from hogbench.rules.base import (
    OTHER,
    SAME,
    TIE,
    WIN,
    GameModel,
    RuleSet,
    rule_function_types,
)
from hogbench.tables import DecisionTable, engine_table

#: Games per block. A block is the unit of seeding and of parallel work; small runs are one
#: block and stay in-process, because starting a worker costs more than such a run.
BLOCK_GAMES = 200_000
#: A game still running after this many turns is reported, not looped on forever. Where the
#: rules say a game may never end, it is over and tied after their ``turn_cap()`` turns.
MAX_TURNS = 100_000
#: Above this many states a duel resolves outcomes on the spot instead of building rows.
MAX_COMPACT_STATES = 500_000

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_BITS = 53  # a uniform is a 53-bit integer U, the number U / 2**53 in [0, 1)
_ONE = 1 << _BITS
_FRACTION = np.uint64(_ONE - 1)
_SHIFT_53 = np.uint64(_BITS)
_SHIFT_TO_53 = np.uint64(64 - _BITS)
_SHIFT30, _SHIFT27, _SHIFT31 = np.uint64(30), np.uint64(27), np.uint64(31)


# -- rows: one strategy's outcome distribution at every state, as alias tables ------------------
@dataclass(frozen=True)
class Rows:
    """State x's outcomes sit in slots ptr[x]..ptr[x+1]-1, one slot per outcome (Walker's alias
    method). A draw U picks slot s = ptr[x] + (U * width) >> 53 and keeps the slot's own outcome
    codes[s, 0] when the rest, (U * width) mod 2**53, is below keep[s], else takes codes[s, 1]."""

    start: int
    ptr: np.ndarray  # int64[n_states + 1]
    keep: np.ndarray  # uint64[slots], in units of 2**-53
    codes: np.ndarray  # int64[slots, 2], outcome(next_state, kind)


def _codes_signature(t):
    roll_kind, resolve = rule_function_types(t)
    i8 = t.int64[::1]
    return t.Tuple((i8, i8))(roll_kind, resolve, i8, i8, i8, i8, i8)


@kernel(_codes_signature)
def _outcome_codes(roll_kind, resolve, params, dist_ptr, dist_value, observation, table):
    """Each state's roll kind under the strategy TABLE, and its outcomes' codes, one per value
    of that kind's distribution, in the distribution's order. (Kept this small on purpose: it
    is what numba compiles for a first duel where the rule functions do not take arrays.)"""
    n = len(observation)
    kinds = np.empty(n, dtype=np.int64)
    total = 0
    for x in range(n):
        k = roll_kind(params, x, table[observation[x]])
        kinds[x] = k
        total += dist_ptr[k + 1] - dist_ptr[k]
    codes = np.empty(total, dtype=np.int64)
    j = 0
    for x in range(n):
        c = table[observation[x]]
        for d in range(dist_ptr[kinds[x]], dist_ptr[kinds[x] + 1]):
            codes[j] = resolve(params, x, c, dist_value[d])
            j += 1
    return kinds, codes


def _outcome_codes_of_arrays(m: GameModel, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What ``_outcome_codes`` returns, from rule functions that take arrays of states
    (``jit(arrays=True)``): one call per choice, roll kind and value, each for all the states
    that share them, instead of one per state. numpy alone, so a duel compiles nothing."""
    n = len(m.observation)
    states = np.arange(n, dtype=np.int64)
    choices = table[m.observation]
    kinds = np.empty(n, dtype=np.int64)
    for choice in np.unique(choices):
        at = states[choices == choice]
        kinds[at] = m.roll_kind(m.params, at, int(choice))
    width = m.dist_ptr[kinds + 1] - m.dist_ptr[kinds]
    first = np.zeros(n + 1, dtype=np.int64)  # each state's first code
    np.cumsum(width, out=first[1:])
    codes = np.empty(first[-1], dtype=np.int64)
    n_kinds = len(m.dist_ptr) - 1
    groups = choices * n_kinds + kinds
    for group in np.unique(groups):
        at = states[groups == group]
        choice, kind = divmod(int(group), n_kinds)
        for j, d in enumerate(range(m.dist_ptr[kind], m.dist_ptr[kind + 1])):
            codes[first[at] + j] = m.resolve(m.params, at, choice, int(m.dist_value[d]))
    return kinds, codes


def _alias_tables(dist_ptr: np.ndarray, dist_prob: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table of every distribution row (Vose's construction): for value d,
    keep[d] (in units of 2**-53) of its slot is its own, the rest goes to the value at index
    alias[d] of the same row. Each of a row's W slots holds 1/W of the probability, made of its
    own value topped up from one with more than 1/W."""
    keep = np.full(len(dist_prob), np.uint64(_ONE), dtype=np.uint64)
    alias = np.zeros(len(dist_prob), dtype=np.int64)
    for k in range(len(dist_ptr) - 1):
        lo, width = int(dist_ptr[k]), int(dist_ptr[k + 1] - dist_ptr[k])
        alias[lo : lo + width] = np.arange(width)
        scaled = [float(p) * width for p in dist_prob[lo : lo + width]]
        small = [i for i in range(width) if scaled[i] < 1.0]
        large = [i for i in range(width) if scaled[i] >= 1.0]
        while small and large:
            s, g = small.pop(), large[-1]
            keep[lo + s] = np.uint64(scaled[s] * _ONE + 0.5)
            alias[lo + s] = g
            scaled[g] -= 1.0 - scaled[s]
            if scaled[g] < 1.0:  # g now has less than a slot: it fills its own slot partly
                large.pop()
                small.append(g)
        # What is left holds a full slot up to rounding, and keeps it.
    return keep, alias


def _alias_rows(rules: RuleSet, table: np.ndarray) -> Rows:
    """The rows of TABLE (see Rows): each state's outcome codes from the compiled rules, and
    its slots' shares and aliases from its roll kind's alias table, which is the same for
    every state of that kind."""
    m = rules.model
    if getattr(m.roll_kind, "arrays", False) and getattr(m.resolve, "arrays", False):
        kinds, own = _outcome_codes_of_arrays(m, table)
    else:
        roll_kind, resolve = compiled(m.roll_kind), compiled(m.resolve)
        kinds, own = _outcome_codes(
            roll_kind, resolve, m.params, m.dist_ptr, m.dist_value, m.observation, table
        )
    keep_of, alias_of = _alias_tables(m.dist_ptr, m.dist_prob)
    width = m.dist_ptr[kinds + 1] - m.dist_ptr[kinds]
    ptr = np.zeros(len(kinds) + 1, dtype=np.int64)
    np.cumsum(width, out=ptr[1:])
    base = np.repeat(ptr[:-1], width)
    value = np.repeat(m.dist_ptr[kinds], width) + np.arange(len(own)) - base  # each slot's d
    codes = np.stack([own, own[base + alias_of[value]]], axis=1)
    return Rows(m.start, ptr, keep_of[value], codes)


#: Rows this process has read or built, by cache entry: a duel until decided plays block after
#: block of the same pair, and a worker many pairs of one entrant; reading an entry again costs
#: a tenth of what the games of a block do (it is compressed).
_KEPT_ROWS: OrderedDict[Path, Rows] = OrderedDict()
KEPT_ROWS = 8


def table_rows(rules: RuleSet, table: np.ndarray) -> Rows | None:
    """The rows of one strategy table, from the disk cache or built; None for models too large."""
    table = engine_table(table)  # kept tables are int8; the kernel and the cache key take int64
    path = table_entry("rows", rules.identity, table, made_by=(__name__,))
    rows = _KEPT_ROWS.get(path)
    if rows is None:
        rows = _read_or_build_rows(rules, table, path)
        if rows is None:
            return None
    _KEPT_ROWS[path] = rows
    _KEPT_ROWS.move_to_end(path)
    if len(_KEPT_ROWS) > KEPT_ROWS:
        _KEPT_ROWS.popitem(last=False)
    return rows


def _read_or_build_rows(rules: RuleSet, table: np.ndarray, path: Path) -> Rows | None:
    try:
        saved = load_arrays(path)
        return Rows(int(saved["start"]), saved["ptr"], saved["keep"], saved["codes"])
    except (OSError, ValueError, KeyError):
        pass  # not cached yet, or unreadable: build it
    if rules.model.n_states > MAX_COMPACT_STATES:
        return None
    rows = _alias_rows(rules, table)
    save_arrays(path, start=np.int64(rows.start), ptr=rows.ptr, keep=rows.keep, codes=rows.codes)
    return rows


# -- the numpy engine, on rows -------------------------------------------------------------------
def _splitmix(state: np.ndarray) -> np.ndarray:
    """Advance each SplitMix64 stream in STATE in place; return its next 53-bit integers. In
    place where it can be: a new array per step costs more than the arithmetic."""
    state += _GOLDEN
    z = state >> _SHIFT30
    z ^= state
    z *= _MIX1
    z ^= z >> _SHIFT27
    z *= _MIX2
    z ^= z >> _SHIFT31
    z >>= _SHIFT_TO_53
    return z


#: Games played in step at a time: the arrays of a few tens of thousands of games stay in the
#: processor's cache; those of a whole block (200,000) do not, and play 20-30% slower (measured).
CHUNK_GAMES = 32_768


def _play_rows(
    rows_a: Rows, rows_b: Rows, seeds: np.ndarray, n_games: int, max_turns: int = MAX_TURNS
) -> np.ndarray:
    """Play N_GAMES (even) games, pair i on stream seeds[i]: game 2i with A first, 2i + 1 with
    B first, for at most MAX_TURNS turns.

    The unfinished games of a chunk take a turn together. Both players' rows are stacked: a
    state x with B to move is row n + x. Returns the joint counts of each pair's two games,
    counts[A-first result, A-second result] with results (A won, A lost, tie, unfinished).
    """
    n = len(rows_a.ptr) - 1
    ptr = np.concatenate([rows_a.ptr[:-1], rows_b.ptr + rows_a.ptr[-1]]).astype(np.uint64)
    width = np.diff(ptr)
    ptr = ptr[:-1]
    keep = np.concatenate([rows_a.keep, rows_b.keep])
    codes = np.concatenate([rows_a.codes, rows_b.codes]).reshape(-1)
    row_offset = np.array([n, 0], dtype=np.int64)  # indexed by "A moves"
    result = np.full(n_games, 3, dtype=np.int64)
    for lo in range(0, n_games, CHUNK_GAMES):  # even: a pair's two games stay together
        game = np.arange(lo, min(n_games, lo + CHUNK_GAMES))
        rng = seeds[game // 2]  # a copy: the streams advance in place
        a_moves = game % 2 == 0
        row = np.where(a_moves, rows_a.start, n + rows_a.start)
        for _ in range(max_turns):
            if len(game) == 0:
                break
            draw = _splitmix(rng)
            draw *= width[row]
            slot = ptr[row]
            slot += draw >> _SHIFT_53
            draw &= _FRACTION
            code = codes[2 * slot + (draw >= keep[slot])]
            kind = code & 7
            a_moves ^= kind == OTHER
            row = code >> 3
            row += row_offset[a_moves.view(np.uint8)]
            going = _settle(kind, a_moves, game, result)
            if going is not None:
                game, rng, row, a_moves = game[going], rng[going], row[going], a_moves[going]
    return _joint(result)


def _settle(
    kind: np.ndarray, a_moves: np.ndarray, game: np.ndarray, result: np.ndarray
) -> np.ndarray | None:
    """Record in RESULT (0: A won, 1: A lost, 2: a tie) each game of GAME whose outcome KIND
    ended it, A_MOVES saying whether A made that move; the mask of the games going on, or None
    when none ended."""
    over = kind > SAME
    if not over.any():
        return None
    ended = np.flatnonzero(over)
    kind, mover_a = kind[ended], a_moves[ended]
    won = (kind == WIN) == mover_a
    result[game[ended]] = np.where(kind == TIE, 2, np.where(won, 0, 1))
    return ~over


def _joint(result: np.ndarray) -> np.ndarray:
    """Per-game results (game 2i with A first, 2i + 1 with B first) -> joint pair counts."""
    counts = np.zeros((4, 4), dtype=np.int64)
    np.add.at(counts, (result[0::2], result[1::2]), 1)
    return counts


# -- the compiled engine, for models too large for rows ------------------------------------------
@jit(inline="always")
def _next_uniform(state):
    """SplitMix64: a tiny counter-based generator, so each game pair replays its own stream."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return state, (z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit()
def _finish(kind, a_moves):
    """Column of the counts table for a finished game: 0 A won, 1 A lost, 2 tie."""
    if kind == TIE:
        return 2
    return 0 if (kind == WIN) == a_moves else 1


def _model_type(t):
    """The model as the kernels take it: rule functions, their parameters and distributions."""
    i8 = t.int64[::1]
    return t.Tuple((*rule_function_types(t), i8, i8, i8, t.float64[::1]))


@jit()
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


def _play_direct_signature(t):
    i8 = t.int64[::1]
    return t.void(
        _model_type(t), i8, t.int64, i8, i8, t.uint64[::1], t.int64, t.int64, t.int64[:, ::1]
    )


@kernel(_play_direct_signature)
def _play_direct(g, observation, start, table_a, table_b, seeds, n_games, max_turns, counts):
    """Play N_GAMES (even) games, pair i on stream seeds[i], A first in the pair's first game;
    add to COUNTS[A-first result, A-second result] (A won, A lost, tie, unfinished).
    """
    for i in range(n_games // 2):
        first = 3
        for seat in range(2):
            rng = seeds[i]
            x = start
            a_moves = seat == 0
            column = 3
            for _ in range(max_turns):
                rng, u = _next_uniform(rng)
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
            if seat == 0:
                first = column
            else:
                counts[first, column] += 1


# -- lockstep: strategies called live answer many games' decisions at once ----------------------
#: Games played in step when a strategy is called live: each round asks a live strategy for the
#: decisions of all its games at once (one message to its worker, not one per decision); small
#: enough that a duel's progress moves every second or two.
LIVE_CHUNK_GAMES = 16_384
#: Above this many (state, choice) pairs, draws are resolved on the spot instead of from every
#: choice's rows (Greed's 51 choices, the models with memories).
MAX_CHOICE_ROWS = 500_000


class Chooser:
    """A live player's side of lockstep play: ``ask`` sends the observations of a round's games
    (a sandboxed worker starts on them at once, so two workers answer at the same time),
    ``answers`` returns their validated choices, in order."""

    def __init__(self, rules: RuleSet, player: LivePlayer, stack, seed: int = 0) -> None:
        self.rules = rules
        self.identity = player.identity
        try:
            strategy = player.open(seed=seed) if player.takes_seed else player.open()
            if hasattr(strategy, "__enter__"):
                strategy = stack.enter_context(strategy)
        except StrategyError as exc:
            raise _charged(exc, player.identity) from None
        self.strategy = strategy
        self.batched = hasattr(strategy, "ask") and hasattr(strategy, "answers")
        self.asked = np.empty(0, dtype=np.int64)
        self.args: dict[int, tuple] = {}  # observation -> the strategy's arguments

    def ask(self, observations: np.ndarray) -> None:
        try:
            if self.batched:
                self.strategy.ask(observations)
            else:
                self.asked = observations
        except StrategyError as exc:
            raise _charged(exc, self.identity) from None

    def answers(self) -> np.ndarray:
        try:
            if self.batched:
                return self.strategy.answers()
            return np.fromiter(map(self._decide, self.asked.tolist()), np.int64, len(self.asked))
        except StrategyError as exc:
            raise _charged(exc, self.identity) from None

    def _decide(self, observation: int) -> int:
        args = self.args.get(observation)
        if args is None:
            args = self.args[observation] = self.rules.obs_args(observation)
        return self.rules.choice(self.strategy(*args))


class _ChoiceRows:
    """Every choice's rows, stacked: the outcomes of choice c at state x are row
    slot_of[c] * n + x. A draw reads them exactly as ``_play_rows`` reads a table's rows (a
    table's rows at x are its choice's rows at x), so a live strategy that happens to be
    deterministic plays the very games its table would, on the same seed."""

    def __init__(self, rules: RuleSet) -> None:
        m = rules.model
        n_obs = int(np.prod(rules.obs_shape))
        parts = [table_rows(rules, np.full(n_obs, c, dtype=np.int64)) for c in m.choices]
        self.n = m.n_states
        offsets = np.cumsum([0] + [len(r.keep) for r in parts[:-1]])
        ptr = np.concatenate([r.ptr[:-1] + o for r, o in zip(parts, offsets, strict=True)])
        ends = np.concatenate([r.ptr[1:] + o for r, o in zip(parts, offsets, strict=True)])
        self.ptr = ptr.astype(np.uint64)
        self.width = (ends - ptr).astype(np.uint64)
        self.keep = np.concatenate([r.keep for r in parts])
        self.codes = np.concatenate([r.codes for r in parts]).reshape(-1)
        self.slot_of = np.full(int(m.choices.max()) + 1, -1, dtype=np.int64)
        self.slot_of[m.choices] = np.arange(len(m.choices))

    def __call__(self, x: np.ndarray, choice: np.ndarray, rng: np.ndarray) -> np.ndarray:
        row = self.slot_of[choice] * self.n + x
        draw = _splitmix(rng)
        draw *= self.width[row]
        slot = self.ptr[row]
        slot += draw >> _SHIFT_53
        draw &= _FRACTION
        return self.codes[2 * slot + (draw >= self.keep[slot])]


def _draw_codes_signature(t):
    i8 = t.int64[::1]
    return t.void(_model_type(t), i8, i8, t.uint64[::1], i8)


@kernel(_draw_codes_signature)
def _draw_codes(g, states, choices, draws, codes):
    """codes[i]: the outcome of choices[i] at states[i] for the 53-bit draw draws[i], resolved
    on the spot as ``_play_direct`` resolves it."""
    for i in range(len(states)):
        codes[i] = _draw_direct(g, states[i], choices[i], draws[i] * (1.0 / 9007199254740992.0))


class _DirectDraws:
    """Draws resolved on the spot, for models too large for every choice's rows."""

    def __init__(self, rules: RuleSet) -> None:
        m = rules.model
        self.model = (
            compiled(m.roll_kind), compiled(m.resolve), m.params, m.dist_ptr, m.dist_value,
            m.dist_prob,
        )  # fmt: skip

    def __call__(self, x: np.ndarray, choice: np.ndarray, rng: np.ndarray) -> np.ndarray:
        codes = np.empty(len(x), dtype=np.int64)
        _draw_codes(self.model, x, choice, _splitmix(rng), codes)
        return codes


#: The last rule set's drawer: a tournament's live pairs, or the blocks of a long duel, each
#: play with the same one (every choice's rows are more than the table rows ``KEPT_ROWS`` holds).
_KEPT_DRAWER: dict[str, _ChoiceRows | _DirectDraws] = {}


def _drawer(rules: RuleSet) -> _ChoiceRows | _DirectDraws:
    m = rules.model
    key = f"{rules.identity}:{len(m.choices)}"  # a model grown to more answers (Greed's dice)
    drawer = _KEPT_DRAWER.get(key)
    if drawer is None:
        if m.n_states <= MAX_COMPACT_STATES and m.n_states * len(m.choices) <= MAX_CHOICE_ROWS:
            drawer = _ChoiceRows(rules)
        else:
            drawer = _DirectDraws(rules)
        _KEPT_DRAWER.clear()
        _KEPT_DRAWER[key] = drawer
    return drawer


def _play_lockstep(
    rules: RuleSet,
    sides: tuple[np.ndarray | Chooser, np.ndarray | Chooser],
    seeds: np.ndarray,
    n_games: int,
    max_turns: int,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play N_GAMES (even) games, pair i on stream seeds[i], game 2i with A first and 2i + 1
    with B first, where a side is a table (engine_table) or a Chooser called live.

    The unfinished games of a chunk take a turn together: each live side is asked once a round
    for the decisions of all the games where it moves (both sides asked before either answers,
    so two workers think at the same time), a table side is read, and each game draws its turn
    from its own stream. The games and their order of asking depend on the seeds alone, so a
    seed gives the same games whatever the number of jobs. Returns the joint pair counts, as
    ``_play_rows``; PROGRESS hears of each chunk's games."""
    m = rules.model
    draw = _drawer(rules)
    observation = m.observation
    result = np.full(n_games, 3, dtype=np.int64)
    for lo in range(0, n_games, LIVE_CHUNK_GAMES):  # even: a pair's two games stay together
        game = np.arange(lo, min(n_games, lo + LIVE_CHUNK_GAMES))
        rng = seeds[game // 2]  # a copy: the streams advance in place
        a_moves = game % 2 == 0
        x = np.full(len(game), m.start, dtype=np.int64)
        for _ in range(max_turns):
            if len(game) == 0:
                break
            choice = np.empty(len(game), dtype=np.int64)
            asked = []
            movers = np.flatnonzero(a_moves), np.flatnonzero(~a_moves)
            for side, at in zip(sides, movers, strict=True):
                if isinstance(side, np.ndarray):
                    choice[at] = side[observation[x[at]]]
                elif len(at):
                    side.ask(observation[x[at]])
                    asked.append((side, at))
            for side, at in asked:
                choice[at] = side.answers()
            code = draw(x, choice, rng)
            kind = code & 7
            a_moves ^= kind == OTHER
            x = code >> 3
            going = _settle(kind, a_moves, game, result)
            if going is not None:
                game, rng, x, a_moves = game[going], rng[going], x[going], a_moves[going]
        if progress is not None:
            progress(min(n_games, lo + LIVE_CHUNK_GAMES) - lo)
    return _joint(result)


def decider(rules: RuleSet, player: Player, stack) -> Callable[[int], int]:
    """A function state -> choice for one player, opening live strategies inside STACK."""
    if isinstance(player, DecisionTable):
        table = player.choices
        observation = rules.model.observation
        return lambda x: int(table[observation[x]])
    try:
        strategy = player.open()
        if hasattr(strategy, "__enter__"):
            strategy = stack.enter_context(strategy)
    except StrategyError as exc:
        raise _charged(exc, player.identity) from None

    def decide(x: int) -> int:
        try:
            return rules.choice(strategy(*rules.state_args(x)))
        except StrategyError as exc:
            raise _charged(exc, player.identity) from None

    return decide


def _charged(exc: StrategyError, identity: str | None) -> StrategyError:
    """EXC marked as the failure of the player IDENTITY (unless already marked)."""
    if exc.entrant is None:
        exc.entrant = identity
    return exc


def play_block(
    rules: RuleSet,
    a: Player,
    b: Player,
    seeds: np.ndarray,
    n_games: int,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play one block of game pairs; returns counts[A-first result, A-second result]. PROGRESS,
    if given, hears of the games played: all at once, or chunk by chunk where a strategy is
    called live."""
    from contextlib import ExitStack

    from hogbench.processes import die_with_parent
    from hogbench.rules import resident

    die_with_parent()
    rules = resident(rules)
    cap = rules.turn_cap()
    turns = MAX_TURNS if cap is None else cap
    if isinstance(a, DecisionTable) and isinstance(b, DecisionTable):
        table_a, table_b = engine_table(a.choices), engine_table(b.choices)
        rules.fit(table_a, table_b)
        rows_a = table_rows(rules, table_a)
        if rows_a is not None:
            counts = _play_rows(rows_a, table_rows(rules, table_b), seeds, n_games, turns)
        else:
            m = rules.model
            counts = np.zeros((4, 4), dtype=np.int64)
            rule_functions = (compiled(m.roll_kind), compiled(m.resolve))
            model = (*rule_functions, m.params, m.dist_ptr, m.dist_value, m.dist_prob)
            _play_direct(
                model, m.observation, m.start, table_a, table_b, seeds, n_games, turns, counts
            )
    else:
        rules.fit_any()  # a live strategy may give any answer
        with ExitStack() as stack:
            sides = tuple(
                engine_table(p.choices)
                if isinstance(p, DecisionTable)
                else Chooser(rules, p, stack, _live_seed(seeds, seat))
                for seat, p in enumerate((a, b))
            )
            counts = _play_lockstep(rules, sides, seeds, n_games, turns, progress)
            progress = None  # told chunk by chunk
    if progress is not None:
        progress(n_games)
    return counts if cap is None else _unfinished_tied(counts)


def _live_seed(seeds: np.ndarray, seat: int) -> int:
    """The seed of a live worker's ``random`` in the block whose dice streams are SEEDS: one
    for each block and seat, so a random strategy draws afresh in every block and two copies
    of one strategy draw apart, and the same whatever the jobs."""
    first = int(seeds[0]) if len(seeds) else 0
    return int(np.random.SeedSequence([first, seat]).generate_state(1)[0])


def _unfinished_tied(counts: np.ndarray) -> np.ndarray:
    """Joint pair counts with every game still going at the turn cap counted as a tie."""
    tied = counts.copy()
    tied[2, :] += tied[3, :]
    tied[3, :] = 0
    tied[:, 2] += tied[:, 3]
    tied[:, 3] = 0
    return tied


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


def simulate_pairs(
    rules: RuleSet,
    a: Player,
    b: Player,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play GAMES games of A against B in pairs that share one dice stream with the seats
    swapped (an odd GAMES is rounded up to whole pairs). Returns the joint counts of the pairs,
    counts[A-first result, A-second result], results (A won, A lost, tie): the pair, not the
    game, is the unit of sampling (see ``hogbench.stats``).

    PROGRESS, if given, is called with the number of games played: per block, or in this
    process as the block's games are played.
    """
    if games < 1:
        raise HogbenchError(f"the number of games must be at least 1, got {games}")
    work = blocks(games + games % 2, seed)
    in_process = jobs == 1 or len(work) == 1
    if in_process:
        results: Iterator[np.ndarray] = (
            play_block(rules, a, b, w.seeds, w.n_games, progress) for w in work
        )
    else:
        from joblib import Parallel, delayed  # only here: its import costs a tenth of a second

        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(play_block)(rules, a, b, w.seeds, w.n_games) for w in work
        )
    total = np.zeros((4, 4), dtype=np.int64)
    for w, counts in zip(work, results, strict=True):
        total += counts
        if progress is not None and not in_process:
            progress(w.n_games)
    unfinished = int(total[3, :].sum() + total[:, 3].sum())
    if unfinished:
        raise HogbenchError(
            f"{unfinished} games were still running after {MAX_TURNS} turns"
            " (do these strategies ever finish a game?)"
        )
    return total[:3, :3]


def seat_counts(joint: np.ndarray) -> np.ndarray:
    """Joint pair counts -> counts[seat, (A won, A lost, tie)], seat 0 = A moved first."""
    return np.stack([joint.sum(axis=1), joint.sum(axis=0)])


def simulate(
    rules: RuleSet,
    a: Player,
    b: Player,
    games: int,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Play GAMES games (whole pairs) of A against B; returns counts[seat, (A won, A lost, tie)]."""
    return seat_counts(simulate_pairs(rules, a, b, games, seed, jobs, progress))
