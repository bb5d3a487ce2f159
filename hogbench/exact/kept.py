"""Exact win rates of two decision tables in numpy, from rows kept in the disk cache.

numba's start-up and the model's construction take half a second; the exact evaluation of two
tables in a small acyclic model (hog-su21, hog-contest, hog-su20 without Feral Hogs) takes a
few milliseconds. So the first evaluation of a table takes its rows from the exact engine and
keeps them, and after that a ``duel --exact`` needs neither numba nor the model. A model with
memories (the Feral Hogs terms, too large for rows) keeps its memory rows (``exact.memory``)
instead, once for every table: a later pair of any tables needs neither. Other models (cycles,
no rows) are left to ``exact.evaluate``. Which model keeps which rows is ``plan.choose``'s answer:
the rows of a pair it would evaluate in one pass (``ROWS_PASS``), or its memory rows.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from hogbench.cache import load_arrays, load_mapped, save_arrays, save_mapped, table_entry
from hogbench.exact import plan
from hogbench.exact.plan import Evaluator
from hogbench.rules.base import RuleSet
from hogbench.tables import engine_table

#: The code cached rows come from: a change to it makes them be built again.
MADE_BY = (
    __name__, "hogbench.exact.core", "hogbench.exact.rows", "hogbench.exact.memory",
    "hogbench.exact.plan",
)  # fmt: skip


@dataclass(frozen=True)
class TableRows:
    """One table's row at every state the model plays, in the exact engine's solving order
    (successors first). The mover's chance of winning at order[i] is const[i] plus, for each
    slot s in ptr[i]..ptr[i+1]-1, p[s] * w[to[s]], where w[2y] is the value of the player who
    moves at y when that is this table's player and w[2y+1] the other's (the exact engine's
    rows; see exact.rows._build_rows). No row's successors lie in its own segment of the order
    (segment_ptr), so a segment's values can be computed at once."""

    start: int
    n_states: int
    order: np.ndarray
    segment_ptr: np.ndarray
    const: np.ndarray
    ptr: np.ndarray
    to: np.ndarray
    p: np.ndarray

    @classmethod
    def load(cls, path: Path) -> TableRows:
        saved = load_arrays(path)
        fields = {name: saved[name] for name in cls.__dataclass_fields__}
        return cls(**fields | {"start": int(fields["start"]), "n_states": int(fields["n_states"])})


def table_rows(rules: RuleSet, table: np.ndarray) -> TableRows | None:
    """The rows of TABLE, from the disk cache or built; None when the model has cycles or no
    rows (the evaluation here is one pass over the order)."""
    table = engine_table(table)
    path = table_entry("exact-rows", rules.identity, table, made_by=MADE_BY)
    try:
        return TableRows.load(path)
    except (OSError, ValueError, KeyError):
        pass  # not cached yet, or unreadable: build it
    from hogbench.exact.rows import engine  # the kernels: numba loads here

    m = rules.fit(table)
    e = engine(m)
    if plan.choose(e) is not Evaluator.ROWS_PASS:
        return None
    choices, row_ptr, row_const, row_to, row_p = e.rows
    n = len(m.order)
    row = (table[m.observation[m.order]] - choices[0]) * n + np.arange(n)
    lengths = row_ptr[row + 1] - row_ptr[row]
    ptr = np.r_[0, np.cumsum(lengths)]
    slots = np.repeat(row_ptr[row] - ptr[:-1], lengths) + np.arange(ptr[-1])
    to = row_to[slots]
    rows = TableRows(
        int(m.start), m.n_states, m.order, _segments(m, ptr, to), row_const[row], ptr, to,
        row_p[slots],
    )  # fmt: skip
    save_arrays(path, **{k: np.asarray(v) for k, v in rows.__dict__.items()})
    return rows


def _segments(m, ptr: np.ndarray, to: np.ndarray) -> np.ndarray:
    """Cut the order where a row needs a value from the segment it would join. Levels are not
    enough: in hog-contest a Pork Chop keeps the sum of the scores and moves within its level."""
    position = np.full(m.n_states, -1)
    position[m.order] = np.arange(len(m.order))
    need = np.full(len(m.order), -1)  # each row's latest successor in the order
    filled = np.flatnonzero(np.diff(ptr))
    if len(filled):
        need[filled] = np.maximum.reduceat(position[to >> 1], ptr[filled])
    assert (need < np.arange(len(need))).all(), "successors come first in an acyclic order"
    cuts = [0]
    for i, latest in enumerate(need.tolist()):
        if latest >= cuts[-1]:
            cuts.append(i)
    return np.array([*cuts, len(m.order)])


def evaluate(
    rules: RuleSet, table_a: np.ndarray, table_b: np.ndarray
) -> tuple[float, float] | None:
    """A's exact chance of beating B moving first and moving second, or None (see table_rows
    and memory_rows).

    Segment by segment (see TableRows), A's and B's values at once."""
    table_a, table_b = engine_table(table_a), engine_table(table_b)
    memory = _load_memory_rows(rules)
    if memory is not None:
        return _evaluate_memory(memory, table_a, table_b)
    a, b = table_rows(rules, table_a), table_rows(rules, table_b)
    if a is None or b is None:
        memory = memory_rows(rules)
        return None if memory is None else _evaluate_memory(memory, table_a, table_b)
    w = np.zeros(2 * a.n_states)
    sides = [
        (rows, seat, np.repeat(np.arange(len(a.order)), np.diff(rows.ptr)))
        for rows, seat in ((a, 0), (b, 1))
    ]
    cuts = np.union1d(a.segment_ptr, b.segment_ptr)  # a part of a segment is one too
    for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
        for rows, seat, position in sides:
            s0, s1 = rows.ptr[lo], rows.ptr[hi]
            # For B's rows the two values of each state trade places: w[to ^ 1].
            terms = rows.p[s0:s1] * w[rows.to[s0:s1] ^ seat]
            sums = np.bincount(position[s0:s1] - lo, weights=terms, minlength=hi - lo)
            w[2 * a.order[lo:hi] + seat] = rows.const[lo:hi] + sums
    return float(w[2 * a.start]), float(1.0 - w[2 * a.start + 1])


def _memory_entry(rules: RuleSet) -> Path:
    empty = np.zeros(0, np.int64)
    return table_entry("exact-memory-rows", rules.identity, empty, made_by=MADE_BY, suffix=".npy")


def _load_memory_rows(rules: RuleSet) -> dict[str, np.ndarray] | None:
    path = _memory_entry(rules)
    if not os.path.exists(path):  # False, not an error, for a folder that cannot be read
        return None
    try:
        return load_mapped(path)
    except (OSError, ValueError):
        return None  # unreadable: built again


def memory_rows(rules: RuleSet) -> dict[str, np.ndarray] | None:
    """The memory rows of a model with memories (see ``exact.memory``), as the engine builds
    them, with the levels of the observations and where play starts; kept in the disk cache.
    None for any other model."""
    if not rules.model.memories:
        return None
    from hogbench.exact import memory
    from hogbench.exact.rows import engine

    m = rules.model
    e = engine(m)
    rows = e.memory_rows
    level = e.level_of[rows.order]
    places = memory.layout(len(rows.order), m.memories)
    saved = {
        **rows._asdict(),
        "level_ptr": np.r_[0, np.flatnonzero(np.diff(level)) + 1, len(level)],
        "facts": np.array([m.start, m.choices[0], m.memories, *places]),
    }
    # Mapped, not read: a pair of tables touches about a tenth of them (see save_mapped).
    save_mapped(_memory_entry(rules), **saved)
    return saved


class _MemorySide(NamedTuple):
    """One table's memory rows, in the order of evaluation: rows (position * 2 + class)
    with their entries from ptr[row] on, and the table's choice index at each observation."""

    ptr: np.ndarray
    const: np.ndarray
    to: np.ndarray
    p: np.ndarray
    row_of: np.ndarray  # the row of each entry
    choice_at: np.ndarray


def _evaluate_memory(
    saved: dict[str, np.ndarray], table_a: np.ndarray, table_b: np.ndarray
) -> tuple[float, float]:
    """``exact.memory``'s evaluation of two tables in numpy, level by level: the observations
    of a level do not depend on each other, so each level is a few array operations for each
    player, over all memories of the opponent and both classes at once."""
    order, level_ptr, classes = saved["order"], saved["level_ptr"], saved["classes"]
    start, c0, memories, stride, to_bits = (int(v) for v in saved["facts"])
    area = len(order)
    n_choices = len(classes) // memories
    classes = classes.reshape(n_choices, memories)
    near = (classes == 1).astype(np.float64)  # choice -> its class-1 memories
    row_ptr, row_const, row_code, probs = (
        saved[k] for k in ("row_ptr", "row_const", "row_code", "probs")
    )
    positions = np.arange(area)
    sides = []
    for table in (table_a, table_b):
        choice = table[order] - c0  # by position in the order
        rows = ((choice * area + positions)[:, None] * 2 + np.arange(2)).ravel()
        lengths = row_ptr[rows + 1] - row_ptr[rows]
        ptr = np.r_[0, np.cumsum(lengths)]
        slots = np.repeat(row_ptr[rows] - ptr[:-1], lengths) + np.arange(ptr[-1])
        # A code is the chance's index over the place m' * stride + x' (exact.memory).
        code = row_code[slots].astype(np.int64)
        to, p = code & ((1 << to_bits) - 1), probs[code >> to_bits]
        choice_at = np.zeros(stride, dtype=np.int64)
        choice_at[order] = choice
        choice_at = np.tile(choice_at, memories)  # by place m' * stride + x', as `to` is
        row_of = np.repeat(np.arange(2 * area), lengths)
        sides.append(_MemorySide(ptr, row_const[rows], to, p, row_of, choice_at))
    # value[P][m, x]: P to move at x with a class-0 memory, the opponent remembering m;
    # extra[P][m, x]: what a class-1 memory adds.
    value = np.zeros((2, memories, stride))
    extra = np.zeros((2, memories, stride))
    for lo, hi in zip(level_ptr[:-1], level_ptr[1:], strict=True):
        xs = order[lo:hi]
        for player in range(2):
            side, opponent_choice = sides[player], sides[1 - player].choice_at
            s0, s1 = side.ptr[2 * lo], side.ptr[2 * hi]
            to, p, row = side.to[s0:s1], side.p[s0:s1], side.row_of[s0:s1] - 2 * lo
            n_rows = 2 * (hi - lo)
            opponent_value = value[1 - player].ravel()
            taken = np.bincount(row, p * opponent_value[to], minlength=n_rows)
            by_choice = np.bincount(
                row * n_choices + opponent_choice[to],
                p * extra[1 - player].ravel()[to],
                minlength=n_rows * n_choices,
            ).reshape(n_rows, n_choices)
            values = ((side.const[2 * lo : 2 * hi] - taken)[:, None] - by_choice @ near).reshape(
                hi - lo, 2, memories
            )
            value[player][:, xs] = values[:, 0].T
            extra[player][:, xs] = (values[:, 1] - values[:, 0]).T
    own, other = divmod(start // area, memories)
    start_x = start % area
    seated = []
    for player in range(2):
        cls = classes[sides[player].choice_at[start_x], own]  # the first tile: x itself
        seated.append(value[player][other, start_x] + cls * extra[player][other, start_x])
    return float(seated[0]), float(1.0 - seated[1])
