"""Rows: every (state, choice) of a model resolved once into its outcomes, and the engine
(a model prepared for the kernels, built once per model and kept on it)."""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import types

from hogbench.exact.core import (
    F8,
    I4,
    I8,
    MAX_ROW_ENTRIES,
    RESOLVE_T,
    ROLL_KIND_T,
    UNSEEN,
    Policy,
    Rows,
    RuleFunctions,
    no_keys,
    no_row,
)
from hogbench.exact.memory import (
    MemoryRows,
    best_response_scratch_size,
    build_memory_rows,
    scratch_size,
)
from hogbench.jit import compiled, kernel
from hogbench.rules.base import OTHER, SAME, TIE, WIN, GameModel, divider


@kernel(types.int64(ROLL_KIND_T, I8, I8, I8, I8, types.int64))
def _count_entries(roll_kind, params, order, choices, dist_ptr, limit):
    """The outcomes of every (state, choice), or the first count above LIMIT."""
    total = 0
    for x in order:
        for c in choices:
            k = roll_kind(params, x, c)
            total += dist_ptr[k + 1] - dist_ptr[k]
        if total > limit:
            return total
    return total


@kernel(types.int64(ROLL_KIND_T, RESOLVE_T, I8, I8, I8, I8, I8, types.int64))
def _count_continuing(roll_kind, resolve, params, order, choices, dist_ptr, dist_value, limit):
    """The entries rows really store (outcomes after which someone moves again), or the first
    count above LIMIT."""
    total = 0
    for x in order:
        for c in choices:
            k = roll_kind(params, x, c)
            for d in range(dist_ptr[k], dist_ptr[k + 1]):
                kind = resolve(params, x, c, dist_value[d]) & 7
                total += kind == OTHER or kind == SAME
        if total > limit:
            return total
    return total


@kernel(
    types.Tuple((I8, F8, I4, F8, I8, F8))(
        ROLL_KIND_T, RESOLVE_T, I8, I8, I8, I8, I8, F8, types.int64
    ),
)
def _build_rows(roll_kind, resolve, params, order, choices, dist_ptr, dist_value, dist_prob, size):
    """Rows for every (choice, position in ORDER): row ci * n + i, for at most SIZE entries.

    row_const is the mover's value from outcomes that need no successor value: wins, half of
    ties, and the 1 in each ``1 - v`` of an outcome where the other player moves next. Then per
    continuing outcome: row_to = 2 * successor + (1 if the other player moves next), row_p =
    its probability, negative when the other player moves next (its value counts as 1 - v).

    The rows that can end tied, and their chance of it (tie_row, tie_p), are kept apart too:
    row_const holds a tie only at half its weight, and a tie's chance is asked for on its own
    (``analysis.tie_chance``). Few rows can tie (Greed's and Big Pig's last turns; none in Hog),
    so they are listed rather than kept for every row.
    """
    n = len(order)
    nc = len(choices)
    row_ptr = np.zeros(n * nc + 1, dtype=np.int64)
    row_const = np.zeros(n * nc)
    to = np.empty(size, dtype=np.int32)
    prob = np.empty(size)
    m = 0
    tie_row = np.empty(0, dtype=np.int64)
    tie_p = np.empty(0)
    ties = 0
    for ci in range(nc):
        c = choices[ci]
        for i in range(n):
            x = order[i]
            k = roll_kind(params, x, c)
            const = 0.0
            tie = 0.0
            for d in range(dist_ptr[k], dist_ptr[k + 1]):
                code = resolve(params, x, c, dist_value[d])
                kind = code & 7
                p = dist_prob[d]
                if kind == WIN:
                    const += p
                elif kind == TIE:
                    const += 0.5 * p
                    tie += p
                elif kind == OTHER:
                    const += p
                    to[m] = 2 * (code >> 3) + 1
                    prob[m] = -p
                    m += 1
                elif kind == SAME:
                    to[m] = 2 * (code >> 3)
                    prob[m] = p
                    m += 1
            row_const[ci * n + i] = const
            row_ptr[ci * n + i + 1] = m
            if tie > 0.0:
                if ties == len(tie_row):  # rare: grown by doubling
                    tie_row = np.concatenate((tie_row, np.empty(max(16, ties), np.int64)))
                    tie_p = np.concatenate((tie_p, np.empty(max(16, ties))))
                tie_row[ties] = ci * n + i
                tie_p[ties] = tie
                ties += 1
    tie_row, tie_p = tie_row[:ties].copy(), tie_p[:ties].copy()
    return row_ptr, row_const, to[:m].copy(), prob[:m].copy(), tie_row, tie_p


class GridRows(NamedTuple):
    """The rows as the grid kernel reads them (``evaluation._evaluate_rows_grid``), built once
    per model from its rows (``GridRows.of``).

    Row ``ci * n + i`` is, as in Rows, choice ``choices[ci]`` at the i-th state of the order:
    its constant, then its entries from ``row_ptr[r]`` to ``row_ptr[r + 1]``, each one 32-bit
    code ``place << chance_bits | k``: its chance ``chances[k]`` as in Rows (negative where the
    other player moves next; the chances are few: 144 in hog-su21, 288 with their signs), its
    successor's values at ``place``.

    Values are kept by slot, not by state: a state's slot (``slot``, by position in the order)
    is one no state still to be computed reads any more, so the places a pass keeps are those of
    the states alive at once (3738 slots in hog-su21, of 10000 states), and with them the memory
    the pass reads from (3.7 MB of values for 64 pairs, against 20 MB by state). Slot s has
    places 2s (A to move) and 2s + 1 (B to move), each laid out for the other player's rows
    (see ``intrinsics.grid_values``). A state that some row reaches with the same player to
    move again (1080 in hog-su21, none in most Hog terms) also has a second slot, its places
    from ``second_place`` (by position; -1: none) laid out for the mover's own rows: an entry
    where the same player moves again reads those."""

    row_ptr: np.ndarray
    row_const: np.ndarray
    codes: np.ndarray  # uint32
    chances: np.ndarray
    chance_bits: int
    slot: np.ndarray  # by position in the order
    second_place: np.ndarray  # by position in the order
    observation: np.ndarray  # by position in the order
    n_places: int
    start_slot: int

    @classmethod
    def of(cls, rows: Rows, model: GameModel, position: np.ndarray) -> GridRows | None:
        """ROWS laid out for the grid kernel (POSITION: each state's in the order), or None
        when a code would not fit in 32 bits."""
        n = len(model.order)
        last, same = _grid_lives(rows.row_ptr, rows.row_to, position, n, model.start)
        slot, n_slots = _grid_slots(last, np.ones(n, dtype=np.bool_))
        second, n_seconds = _grid_slots(last, same)
        second_place = np.where(second < 0, -1, 2 * (n_slots + second))
        n_places = 2 * (n_slots + n_seconds)
        chances = np.unique(rows.row_p)
        chance_bits = (len(chances) - 1).bit_length()
        if (n_places - 1).bit_length() + chance_bits > 32:
            return None
        k = np.searchsorted(chances, rows.row_p)
        codes = _grid_codes(rows.row_to, k, position, slot, second_place, chance_bits)
        return cls(
            rows.row_ptr, rows.row_const, codes, chances, chance_bits, slot,
            second_place, np.ascontiguousarray(model.observation[model.order]), n_places,
            int(slot[position[model.start]]),
        )  # fmt: skip


@kernel(types.Tuple((I8, types.boolean[::1]))(I8, I4, I4, types.int64, types.int64))
def _grid_lives(row_ptr, row_to, position, n, start):
    """By position in the order: the last position that reads the state's values (its own if
    none; past the end for the start state, read after the pass), and whether a row reaches it
    with the same player to move again."""
    last = np.arange(n)
    same = np.zeros(n, dtype=np.bool_)
    for r in range(len(row_ptr) - 1):
        i = r % n  # row ci * n + i
        for j in range(row_ptr[r], row_ptr[r + 1]):
            p = position[row_to[j] >> 1]
            last[p] = max(last[p], i)
            same[p] |= (row_to[j] & 1) == 0
    last[position[start]] = n
    return last, same


@kernel(types.Tuple((I8, types.int64))(I8, types.boolean[::1]))
def _grid_slots(last, member):
    """A slot for each MEMBER position of the order (-1 for the others), and how many slots,
    such that no position takes a slot before the last reader (LAST) of the one that held it
    has been computed: the lives, from a position to its last reader's, are intervals, and
    given a free slot in order of their starts they take as many slots as are alive at once."""
    n = len(last)
    by_end = np.argsort(last, kind="mergesort")
    slot = np.full(n, -1, dtype=np.int64)
    free = np.empty(n, dtype=np.int64)
    n_free = n_slots = ended = 0
    for i in range(n):
        while ended < n and last[by_end[ended]] < i:  # last >= own position: seen already
            if member[by_end[ended]]:
                free[n_free] = slot[by_end[ended]]
                n_free += 1
            ended += 1
        if not member[i]:
            continue
        if n_free > 0:
            n_free -= 1
            slot[i] = free[n_free]
        else:
            slot[i] = n_slots
            n_slots += 1
    return slot, n_slots


@kernel(types.uint32[::1](I4, I8, I4, I8, I8, types.int64))
def _grid_codes(row_to, chance, position, slot, second_place, chance_bits):
    """The rows' entries as codes (see GridRows): where the other player moves next, the place
    of the successor's slot where that player moves (2s + 1: laid out for the mover's rows,
    XOR 1 for B's); where the same player moves again, its second slot's."""
    codes = np.empty(len(row_to), dtype=np.uint32)
    for j in range(len(row_to)):
        p = position[row_to[j] >> 1]
        place = 2 * slot[p] + 1 if row_to[j] & 1 else second_place[p]
        codes[j] = np.uint32((place << chance_bits) | chance[j])
    return codes


@dataclass
class _Workspace:
    """Buffers of the reachable-states search, kept between calls (see _evaluate_reachable)."""

    value: np.ndarray
    opened: np.ndarray


@dataclass
class _Engine:
    """A model prepared for the kernels, built once per model and kept on it. Rows and the
    per-state maps are built on first need: evaluating a pair of Pig or Big Pig tables by turns
    (``exact.turns``) needs neither, and Big Pig's rows take 400 MB."""

    model: GameModel = field(repr=False)
    rules: RuleFunctions  # the compiled rule functions and their tables (RULES)
    row_limit: int  # the most entries rows may have (MAX_ROW_ENTRIES when built)
    n_keys: int  # size of a choice-value memo (0: the model declares no q_keys)
    observation_period: int  # P if the model's observation of state x is x % P, else 0
    start_value: float = 0.0  # where values start: 1/2 where a game may never end
    table_pairs: int = 0  # pairs of tables evaluated (see on_memory_rows)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _workspace: _Workspace | None = None
    _values: np.ndarray | None = None
    _row_ties: tuple[np.ndarray, np.ndarray] | None = None  # (row, chance), set with the rows
    _grid_values: np.ndarray | None = None

    @functools.cached_property
    def row_entries(self) -> int:
        """The entries the rows would take (past the limit: some number above it)."""
        m, r, limit = self.model, self.rules, self.row_limit
        size = _count_entries(r.roll_kind, m.params, m.order, m.choices, m.dist_ptr, 2 * limit)
        if limit < size <= 2 * limit:
            # Ends of the game fold into each row's constant and take no room, so a model a
            # little too large may still fit by its continuing outcomes. Counting those costs a
            # resolve per outcome (seconds for hog-su20 with Feral Hogs, where most outcomes
            # continue), so only a model within a factor of two is counted, to the limit.
            size = _count_continuing(
                r.roll_kind, r.resolve, m.params, m.order, m.choices, m.dist_ptr, m.dist_value,
                limit,
            )  # fmt: skip
        return size

    # The facts ``plan.choose`` reads (``plan.ModelFacts``).
    @property
    def cyclic(self) -> bool:
        return bool(self.model.cyclic)

    @property
    def memories(self) -> bool:
        return bool(self.model.memories)

    @property
    def whole_turns(self) -> bool:
        return self.model.turn_starts is not None

    @property
    def has_rows(self) -> bool:
        """Whether the model's rows fit in memory (they are built on first need)."""
        return self.row_entries <= self.row_limit

    @functools.cached_property
    def rows(self) -> Rows:
        """The rows (ROWS); row_ptr has one entry when the model has none."""
        m = self.model
        if not self.has_rows:
            return Rows(m.choices, np.zeros(1, np.int64), np.zeros(0), np.zeros(0, np.int32),
                        np.zeros(0))  # fmt: skip
        r = self.rules
        *built, tie_row, tie_p = _build_rows(
            r.roll_kind, r.resolve, m.params, m.order, m.choices, m.dist_ptr, m.dist_value,
            m.dist_prob, self.row_entries,
        )  # fmt: skip
        self._row_ties = tie_row, tie_p
        return Rows(m.choices, *built)

    @functools.cached_property
    def grid_rows(self) -> GridRows | None:
        """The rows as the grid kernel reads them (None: they do not fit its codes)."""
        return GridRows.of(self.rows, self.model, self.position)

    @functools.cached_property
    def row_ties(self) -> np.ndarray:
        """Each row's chance of ending tied right away (a tie's whole weight, where row_const
        holds half of it): zero but for the few rows that can tie."""
        rows = self.rows
        tie = np.zeros(len(rows.row_ptr) - 1)
        if self._row_ties is not None:
            tie_row, tie_p = self._row_ties
            tie[tie_row] = tie_p
        return tie

    @functools.cached_property
    def memory_rows(self) -> MemoryRows:
        """The memory rows of a model that declares memories (``exact.memory``)."""
        return build_memory_rows(self.model, self.rules)

    def on_memory_rows(self) -> bool:
        """Whether to evaluate this pair of tables on memory rows: from the second pair in a
        process on. Building them takes 0.15 s (hog-fa19, hog-su20), some ten searches of the
        reachable states: a duel of one pair should not wait for them, and every later pair
        (a tournament's, a benchmark's) is several times faster on them."""
        self.table_pairs += 1
        return self.table_pairs > 1

    @functools.cached_property
    def memory_values(self) -> np.ndarray:
        """Scratch for ``exact.memory``'s values, the same memory every call (see values)."""
        return np.empty(scratch_size(self.model))

    @functools.cached_property
    def memory_best_values(self) -> np.ndarray:
        """Scratch for ``exact.memory.best_response``, the same memory every call (see values):
        17 MB in hog-fa19, whose first touch is a page fault per page."""
        return np.empty(best_response_scratch_size(self.model))

    @functools.cached_property
    def identity(self) -> np.ndarray:
        """The index of a per-state policy."""
        return np.arange(self.model.n_states, dtype=np.int64)

    @functools.cached_property
    def level_of(self) -> np.ndarray:
        """State -> its level (-1: never played)."""
        m = self.model
        level_of = np.full(m.n_states, -1, dtype=np.int32)
        for level in range(len(m.level_ptr) - 1):
            level_of[m.order[m.level_ptr[level] : m.level_ptr[level + 1]]] = level
        return level_of

    @functools.cached_property
    def position(self) -> np.ndarray:
        """State -> its position in the model's order (-1: never played). 32 bits: Big Pig has
        4.5 million states, and a tournament's worker keeps this beside its model."""
        m = self.model
        position = np.full(m.n_states, -1, dtype=np.int32)
        position[m.order] = np.arange(len(m.order), dtype=np.int32)
        return position

    def values(self) -> np.ndarray:
        """A value array for a sweep at its start value, the same memory every call: fresh
        memory costs a page fault per page on first touch, here more than an evaluation of
        hog-su21."""
        if self._values is None:
            self._values = np.full(2 * self.model.n_states, self.start_value)
        else:
            self._values[:] = self.start_value
        return self._values

    def grid_values(self, size: int) -> np.ndarray:
        """SIZE doubles from a 64-byte boundary, for the grid kernel's values (see GridRows),
        the same memory every call (fresh memory costs a page fault per page on first touch):
        each vector the kernel reads or writes is then one cache line (numpy's large arrays
        start 16 bytes past one)."""
        if self._grid_values is None or len(self._grid_values) < size:
            spare = np.empty(size + 8)
            skip = (-spare.ctypes.data % 64) // 8
            self._grid_values = spare[skip : skip + size]
        return self._grid_values[:size]

    #: What stays behind when a model is pickled with its engine: the lock and the buffers.
    _NOT_PICKLED = (
        "lock", "_workspace", "_values", "_grid_values", "memory_values", "memory_best_values",
    )  # fmt: skip

    def __getstate__(self) -> dict:
        # A model may be pickled with its engine: the lock and the buffers stay behind.
        return {k: v for k, v in self.__dict__.items() if k not in self._NOT_PICKLED}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(
            state, lock=threading.Lock(), _workspace=None, _values=None, _grid_values=None
        )

    def workspace(self, nodes: int) -> _Workspace:
        if self._workspace is None:
            value = np.full(nodes, UNSEEN)
            self._workspace = _Workspace(value, np.empty(nodes, np.int64))
        return self._workspace

    def periodic(self, policy: Policy) -> tuple[np.ndarray, int, int]:
        """POLICY as _evaluate_reachable takes it: table, period, multiplier."""
        return policy.table, policy.period, divider(policy.period, self.model.n_states)


def _period(index: np.ndarray) -> int:
    """P when index[x] == x % P for every x, else 0. (Compared block by block: Big Pig's
    index has 4.5 million entries, and x % P for all of them would take 72 MB.)"""
    period = int(index.max()) + 1
    pattern = np.arange(period, dtype=index.dtype)
    full, rest = divmod(len(index), period)
    blocks = index[: full * period].reshape(full, period)
    return (
        period
        if (blocks == pattern).all() and (index[full * period :] == pattern[:rest]).all()
        else 0
    )


def engine(model: GameModel) -> _Engine:
    """The kernels' view of MODEL, cached on the model (its rows are built on first need)."""
    cached = model.__dict__.get("_exact_engine")
    if cached is not None:
        return cached
    m = model
    assert np.array_equal(m.choices, np.arange(m.choices[0], m.choices[0] + len(m.choices))), (
        "choices must be consecutive integers"
    )
    q_keys = m.q_keys
    built = _Engine(
        model=m,
        rules=RuleFunctions(
            compiled(m.roll_kind),
            compiled(m.resolve),
            compiled(q_keys or no_keys),
            compiled(m.resolve_row or no_row),
            m.resolve_row is not None,
            m.params,
            m.dist_ptr,
            m.dist_value,
            m.dist_prob,
            m.choices,
        ),  # fmt: skip
        row_limit=MAX_ROW_ENTRIES,
        n_keys=m.n_keys if q_keys is not None else 0,
        observation_period=_period(m.observation),
        start_value=0.5 if m.may_never_end else 0.0,
    )
    m.__dict__["_exact_engine"] = built  # a frozen dataclass still has a __dict__
    return built
