"""What every kernel family of the exact engine shares: its constants, the numba types of the
bundles kernels take, and the small inlined helpers that sum a row or resolve a choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import typeof_impl

from hogbench.errors import HogbenchError
from hogbench.rules.base import (
    OTHER,
    SAME,
    TIE,
    WIN,
    RuleSet,
    q_keys_signature,
    resolve_row_signature,
    resolve_signature,
    roll_kind_signature,
)

TOLERANCE = 1e-14
#: A chance of ending below this is none: the game never ends from there (``reach``). Exactly
#: 0 from a closed loop; a few roundings of 1 - p from a state whose every move leads into one.
NEVER = 1e-12
MAX_SWEEPS = 1_000_000
#: Above this many continuing (state, choice, outcome) entries a model has no rows (12 bytes
#: each, so at most about 480 MB); its choices are resolved on the spot. Big Pig at goal 100 has
#: 32M and is some ten times faster on rows.
MAX_ROW_ENTRIES = 40_000_000
#: Choices whose values differ by less than this are a tie, and the earlier choice (fewer dice)
#: wins it. Exact ties are common (every choice wins, or two choices have the same outcomes) and
#: rounding, up to about 1e-14 after summing many outcomes, must not decide them. With this
#: reading the optimal hog-contest strategy (Pork Chop off) beats always_roll(4) 0.7757493759 of
#: the time on average, the published figure.
TIE_MARGIN = 1e-12
# Only reassociation: lets sums be split into partial sums; results move by ~1e-16.
_FAST = {"reassoc", "nsz"}

I1 = types.int8[::1]
I4 = types.int32[::1]
I8 = types.int64[::1]
F8 = types.float64[::1]
ROLL_KIND_T = types.FunctionType(roll_kind_signature(types))
RESOLVE_T = types.FunctionType(resolve_signature(types))
RESOLVE_ROW_T = types.FunctionType(resolve_row_signature(types))
Q_KEYS_T = types.FunctionType(q_keys_signature(types))


class Rows(NamedTuple):
    """Every (state, choice) of a model resolved once (see ``rows._build_rows``): row
    ``ci * n + i`` is choice ``choices[ci]`` at ``order[i]``; its value is ``row_const`` plus,
    for each slot from ``row_ptr[r]`` to ``row_ptr[r + 1]``, ``row_p`` times the value at
    ``row_to`` (``2 * y + 1``: the other player moves next at y; ``2 * y``: the same player).
    ``row_ptr`` has one entry when the model has no rows."""

    choices: np.ndarray
    row_ptr: np.ndarray
    row_const: np.ndarray
    row_to: np.ndarray
    row_p: np.ndarray


class RuleFunctions(NamedTuple):
    """A model's compiled rule functions and their tables, as the kernels that resolve
    outcomes on the spot take them (kernels unpack it at their top, in this order)."""

    roll_kind: object
    resolve: object
    q_keys: object  # _no_keys when the model declares none
    resolve_row: object  # _no_row when the model declares none
    by_row: bool  # whether the model has its own resolve_row
    params: np.ndarray
    dist_ptr: np.ndarray
    dist_value: np.ndarray
    dist_prob: np.ndarray
    choices: np.ndarray


@typeof_impl.register(Rows)
@typeof_impl.register(RuleFunctions)
def _typeof_bundle(value: tuple, context: object) -> types.Type:
    """A bundle reaches compiled code as the plain tuple of its fields: a compiled rule
    function in a tuple is taken as a first-class function, in a named tuple it is not."""
    return types.Tuple([typeof_impl(v, context) for v in value])


# Kernels that need no compiled rule function take only the rows: passing compiled functions to
# a kernel costs about a millisecond per call (their addresses are looked up in Python each
# time).
ROWS = types.Tuple((I8, I8, F8, I4, F8))
RULES = types.Tuple(
    (ROLL_KIND_T, RESOLVE_T, Q_KEYS_T, RESOLVE_ROW_T, types.boolean, I8, I8, I8, F8, I8)
)
MEMO = types.Tuple((F8, I8))  # a choice-value memo: values, and their sweeps (see memo)
#: The reachable search's marks: a state not seen yet, and one whose value is being computed.
UNSEEN = -1.0  # a node's value in the reachable search before it is opened
OPEN = -2.0  # and while it is open


# Taking an array out of a tuple, or passing arrays to a function that is not inlined, costs
# two atomic reference-count updates, more than the work of one choice: kernels unpack their
# tuples once, at the top, and the helpers above are inlined. Inlined helpers still left
# reference counting inside the loops of the solver's sweep and of the reachable search (a
# third and a quarter of their time, measured), so those loops are written out in full, and
# the reachable search takes its policies as plain arrays. A rule function comes through a
# pointer and is never inlined: resolving one value per call cost 25 ns, a whole roll per call
# 5.5 ns a value (measured), which is why resolve_row and q_keys take runs.


@njit(q_keys_signature(types), cache=True)
def no_keys(params, states, choices, lo, hi, out):
    """The q_keys of a model that declares none: every (state, choice) is its own."""
    for j in range(lo, hi):
        out[j] = -1


@njit(resolve_row_signature(types), cache=True)
def no_row(params, state, choice, values, lo, hi, out):
    """The resolve_row of a model that declares none: never called (by_row is false)."""
    return


@njit(cache=True, inline="always")
def resolve_all(resolve, resolve_row, by_row, params, x, c, dist_value, lo, hi, codes):
    """codes[d - lo] = the outcome of value dist_value[d] for choice C at X, lo <= d < hi."""
    if by_row:
        resolve_row(params, x, c, dist_value, lo, hi, codes)
    else:
        for d in range(lo, hi):
            codes[d - lo] = resolve(params, x, c, dist_value[d])


@njit(cache=True, inline="always")
def roll_outcomes(roll_kind, resolve, resolve_row, by_row, params, dist_ptr, dist_value, x, c,
                  codes):  # fmt: skip
    """A state's roll, written once: the outcomes of choice C at X resolved into CODES
    (codes[d - lo] is the outcome of value dist_value[d]), and the range (lo, hi) of the roll's
    values in the model's distribution."""
    k = roll_kind(params, x, c)
    lo, hi = dist_ptr[k], dist_ptr[k + 1]
    resolve_all(resolve, resolve_row, by_row, params, x, c, dist_value, lo, hi, codes)
    return lo, hi


@njit(cache=True, inline="always")
def successor(code):
    """Where an outcome leads, as rows keep it: 2y + 1 when the other player moves next at y,
    2y when the same player does, -1 when the game ends."""
    kind = code & 7
    if kind == OTHER:
        return 2 * (code >> 3) + 1
    if kind == SAME:
        return 2 * (code >> 3)
    return -1


@njit(cache=True, fastmath=_FAST, inline="always")
def row_sum(r, flip, w, row_ptr, row_const, row_to, row_p):
    """Row R's value for its mover, values in W seen from the first player (FLIP = 1: the
    second). Four partial sums keep the additions from waiting on each other, and indices are
    unsigned: numba then skips its check for negative indices, which made this 1.6 times
    slower (measured)."""
    t0 = row_const[r]
    t1 = t2 = t3 = 0.0
    j = np.uint64(row_ptr[r])
    end = np.uint64(row_ptr[r + 1])
    f = np.uint64(flip)
    one, two, three, four = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    while j + three < end:
        t0 += row_p[j] * w[np.uint64(row_to[j]) ^ f]
        t1 += row_p[j + one] * w[np.uint64(row_to[j + one]) ^ f]
        t2 += row_p[j + two] * w[np.uint64(row_to[j + two]) ^ f]
        t3 += row_p[j + three] * w[np.uint64(row_to[j + three]) ^ f]
        j += four
    while j < end:
        t0 += row_p[j] * w[np.uint64(row_to[j]) ^ f]
        j += one
    return (t0 + t1) + (t2 + t3)


@njit(cache=True, inline="always")
def resolved_value(
    x, c, flip, w, roll_kind, resolve, resolve_row, by_row, params, dist_ptr, dist_value,
    dist_prob, codes,
):  # fmt: skip
    """The mover's chance of winning after choosing C at X, resolving each outcome into CODES
    (a buffer); values in W as in _row_sum."""
    lo, hi = roll_outcomes(
        roll_kind, resolve, resolve_row, by_row, params, dist_ptr, dist_value, x, c, codes
    )
    total = 0.0
    for d in range(lo, hi):
        code = codes[d - lo]
        kind = code & 7
        p = dist_prob[d]
        if kind == OTHER:
            total += p * (1.0 - w[(2 * (code >> 3) + 1) ^ flip])
        elif kind == SAME:
            total += p * w[(2 * (code >> 3)) ^ flip]
        elif kind == WIN:
            total += p
        elif kind == TIE:
            total += 0.5 * p
    return total


def new_memo(size: int, cyclic: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A choice-value memo: values (-1: not known yet, as values are chances) and, for cyclic
    models, the sweep each value is from (values change from sweep to sweep)."""
    return np.full(size, -1.0), np.zeros(size if cyclic else 0, dtype=np.int64)


def pair(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Two per-state value arrays side by side, as the kernels keep them."""
    w = np.empty(2 * len(first))
    w[0::2] = first
    w[1::2] = second
    return w


def check_converged(rules: RuleSet, stuck: int) -> None:
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: values did not converge within {MAX_SWEEPS} sweeps at level {stuck}"
            " (a pair of strategies that can loop forever without progress?)"
        )


@dataclass(frozen=True)
class SeatValues:
    """Exact win probabilities of a pair of strategies in both seatings."""

    first: float  # A's chance of winning when A moves first
    second: float  # A's chance of winning when A moves second
    v_a: np.ndarray | None  # A's chance of winning from each state with A to move
    v_b: np.ndarray | None  # B's chance from each state with B to move (None: only reachable
    # states were evaluated)

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2


@dataclass(frozen=True)
class Policy:
    """A choice for every state: ``table[index[state]]``, also ``table[state % period]`` when
    the period is not 0 (the reachable search computes it rather than read the index: states
    that differ only in what a strategy cannot see lie far apart in the index)."""

    table: np.ndarray
    index: np.ndarray
    period: int = 0


# Sweeps of a cyclic level converge geometrically: a sweep reads values of its own level from
# the previous sweep only where the order meets the level's cycle, and every value is an affine
# function of those. Where one such value closes the cycle (Pig, Big Pig: a lost turn hands the
# round's turn back to its start), each value approaches its limit by the same ratio each sweep,
# so three sweeps give the ratio and the limit exactly (Aitken's extrapolation), where plain
# sweeps need some twenty to reach the tolerance. Elsewhere the extrapolated values are a better
# start, and the sweeps that follow converge from them as from any other.
EXTRAPOLATE_AFTER = 3  # sweeps


@njit(cache=True)
def level_width(level_ptr):
    width = 0
    for level in range(len(level_ptr) - 1):
        width = max(width, level_ptr[level + 1] - level_ptr[level])
    return width


@njit(cache=True)
def _keep_level(order, lo, hi, w, into):
    """Copy the level's values (both players) into INTO."""
    for i in range(lo, hi):
        x = order[i]
        into[2 * (i - lo)] = w[2 * x]
        into[2 * (i - lo) + 1] = w[2 * x + 1]


@njit(cache=True)
def _extrapolate(order, lo, hi, w, first, second):
    """Move the level's values to the limit of the sweeps FIRST, SECOND, w (three in a row), by
    the ratio of the last two steps where the second-to-last one was largest."""
    step, big = 0.0, 0.0
    for k in range(2 * (hi - lo)):
        x = order[lo + k // 2]
        d1 = second[k] - first[k]
        if abs(d1) > big:
            big = abs(d1)
            step = (w[2 * x + k % 2] - second[k]) / d1
    if big == 0.0 or not abs(step) < 0.999:  # no movement, or no contraction to extrapolate
        return
    gain = step / (1.0 - step)
    for k in range(2 * (hi - lo)):
        x = order[lo + k // 2]
        w[2 * x + k % 2] += (w[2 * x + k % 2] - second[k]) * gain


@njit(cache=True)
def extrapolation_step(sweep, order, lo, hi, w, first, second):
    """After sweep SWEEP of a level: keep the first two of three sweeps in a row (FIRST,
    SECOND), and after the third move the level's values to their limit."""
    if sweep == EXTRAPOLATE_AFTER - 3:
        _keep_level(order, lo, hi, w, first)
    elif sweep == EXTRAPOLATE_AFTER - 2:
        _keep_level(order, lo, hi, w, second)
    elif sweep == EXTRAPOLATE_AFTER - 1:
        _extrapolate(order, lo, hi, w, first, second)


def level_sweeps(values_at, extrapolate=True):
    """The level sweep, written once: a compiled function ``sweeps(order, level_ptr, cyclic, w,
    tol, data)`` that fills w (w[2x]: A to move at x, w[2x + 1]: B) level by level, each level
    in ORDER's order, and returns -1, or a level that did not converge. An acyclic level is one
    pass; a cyclic one is swept until no value moves by TOL, extrapolated after a few sweeps
    (``extrapolation_step``) when EXTRAPOLATE says so. The solver's sweeps do not: a best
    choice is a maximum, and the values are not affine in the level's own, so the ratio that
    extrapolation reads has no meaning there.

    VALUES_AT(i, x, w, data) gives the two values at x, the i-th state of the order, from
    DATA (a tuple of arrays: a model's rows and two tables, or two tables' turn rows). It and
    the sweep are inlined into the kernel that calls the sweep, so the loop costs what it cost
    written out in each kernel (measured side by side, CPU time, medians: a hog-su21 pair on
    rows 0.28-0.29 ms either way, greed 12.3-12.5 ms, Pig by whole turns 5.4-5.6 ms; the
    values bit for bit the same). A tuple holding compiled rule functions is another matter:
    the sweep that resolves outcomes on the spot was 1.1 times slower through here, and keeps
    its own loop."""

    @njit(cache=True, fastmath=_FAST, inline="always")
    def sweeps(order, level_ptr, cyclic, w, tol, data):
        if not cyclic:  # one pass over the order, its levels in turn
            for i in range(len(order)):
                x = order[i]
                w[2 * x], w[2 * x + 1] = values_at(i, x, w, data)
            return -1
        width = level_width(level_ptr) if extrapolate else 0
        first, second = np.empty(2 * width), np.empty(2 * width)
        for level in range(len(level_ptr) - 1):
            lo, hi = level_ptr[level], level_ptr[level + 1]
            for sweep in range(MAX_SWEEPS):
                delta = 0.0
                for i in range(lo, hi):
                    x = order[i]
                    a, b = values_at(i, x, w, data)
                    delta = max(delta, abs(a - w[2 * x]), abs(b - w[2 * x + 1]))
                    w[2 * x] = a
                    w[2 * x + 1] = b
                if delta < tol:
                    break
                if extrapolate:
                    extrapolation_step(sweep, order, lo, hi, w, first, second)
            else:
                return level
        return -1

    return sweeps
