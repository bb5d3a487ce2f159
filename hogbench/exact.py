"""The exact engine: win probabilities by dynamic programming over a rule set's GameModel.

Values are always from the side of the player to move: the chance that the player to move at
state ``x`` wins (a tie counts half). States are visited level by level, successors first; a
level whose transitions can stay inside it (a zero roll in Greed, a lost turn in Pig) is
iterated until no value moves by more than ``TOLERANCE``.

A game that never ends (hog-sp22, where two 0-point turns repeat a state: a model's
``may_never_end``) is a tie, so a value is the chance of winning plus half the chance that the
game never ends, and the value after a turn is still 1 minus the opponent's value there. Such a
model's cyclic levels start from 1/2, not 0: a closed loop then keeps 1/2 (each sweep gives
1 - 1/2), and the rest converges to the same values as from any start, because the sweeps from
1/2 add up exactly the chances of the games that end, and nothing for those that never do.
``ending_chance`` gives the chance that a game ends.

The engine is generic over rule sets. What makes it fast:

* Rows. When a model's outcomes fit in memory, every (state, choice) is resolved once into a
  *row*: the value of the outcomes that end the game, plus the outcomes that continue it, each
  a successor and a signed probability. Rows are stored choice by choice in the order states
  are solved, so a pass over one strategy's choices reads memory front to back, and the sum
  over a row keeps four partial sums, so it is not one long chain of dependent additions.
* One value array. The values of both players (or of the solver and its opponent) sit side by
  side, ``w[2 * x]`` and ``w[2 * x + 1]``. An outcome is stored as ``2 * y + 1`` when the other
  player moves next, ``2 * y`` when the same player moves again: the first player reads
  ``w[to]``, the second ``w[to ^ 1]``, with no branch, and the two values of a state share a
  cache line.
* Reachable states only. A model too large for rows (hog-su20 with its Feral Hogs state) is
  evaluated by a depth-first search from the start that visits only the states the two
  strategies can reach, as a memoised recursion would, without recursion or Python.
* Shared choice values. A model may declare ``q_keys``, a key for each (state, choice): states
  and choices with equal keys have the same outcomes, so the value of a choice is computed once
  per key (in hog-su20 the previous-turn points only matter through whether Feral Hogs fires).
* Levels in parallel. When no outcome stays in its level (hog-su20: every turn raises the sum
  of the scores), the solver splits each level between numba's threads.
* Whole rolls at once. A model may resolve all values of a roll with one call (``resolve_row``)
  and key a run of (state, choice) pairs with one call: a call through a function pointer
  costs more than the rule it runs.

Policies come in two shapes: a decision table indexed by observation (what a strategy sees), or
a per-state policy (what the solver finds when a state holds more than the strategy sees). The
kernels take both as ``table[index[x]]``: the index is the model's observation map or the
identity.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange, types

from hogbench.errors import HogbenchError
from hogbench.jit import kernel
from hogbench.rules.base import (
    OTHER,
    SAME,
    TIE,
    WIN,
    GameModel,
    RuleSet,
    divider,
    fast_divide,
    q_keys_signature,
    resolve_row_signature,
    resolve_signature,
    roll_kind_signature,
    widest_roll,
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

_i4 = types.int32[::1]
_i8 = types.int64[::1]
_f8 = types.float64[::1]
_roll_kind_t = types.FunctionType(roll_kind_signature(types))
_resolve_t = types.FunctionType(resolve_signature(types))
_resolve_row_t = types.FunctionType(resolve_row_signature(types))
_q_keys_t = types.FunctionType(q_keys_signature(types))


# The rows: choices, row_ptr, row_const, row_to, row_p (see _build_rows). Kernels that need no
# compiled rule function take only these: passing compiled functions to a kernel costs about a
# millisecond per call (their addresses are looked up in Python each time).
_ROWS = types.Tuple((_i8, _i8, _f8, _i4, _f8))
# The rule functions and tables: roll_kind, resolve, q_keys, resolve_row, by_row (whether the
# model has its own resolve_row), params, dist_ptr, dist_value, dist_prob, choices.
_RULES = types.Tuple(
    (_roll_kind_t, _resolve_t, _q_keys_t, _resolve_row_t, types.boolean, _i8, _i8, _i8, _f8, _i8)
)
_MEMO = types.Tuple((_f8, _i8))  # a choice-value memo: values, and their sweeps (see _memo)


@njit(q_keys_signature(types), cache=True)
def _no_keys(params, states, choices, lo, hi, out):
    """The q_keys of a model that declares none: every (state, choice) is its own."""
    for j in range(lo, hi):
        out[j] = -1


@njit(resolve_row_signature(types), cache=True)
def _no_row(params, state, choice, values, lo, hi, out):
    """The resolve_row of a model that declares none: never called (by_row is false)."""
    return


@njit(cache=True, inline="always")
def _resolve_all(resolve, resolve_row, by_row, params, x, c, dist_value, lo, hi, codes):
    """codes[d - lo] = the outcome of value dist_value[d] for choice C at X, lo <= d < hi."""
    if by_row:
        resolve_row(params, x, c, dist_value, lo, hi, codes)
    else:
        for d in range(lo, hi):
            codes[d - lo] = resolve(params, x, c, dist_value[d])


# ---------------------------------------------------------------------------------------------
# Rows
# ---------------------------------------------------------------------------------------------


@kernel(types.int64(_roll_kind_t, _i8, _i8, _i8, _i8, types.int64))
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


@kernel(types.int64(_roll_kind_t, _resolve_t, _i8, _i8, _i8, _i8, _i8, types.int64))
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
    types.Tuple((_i8, _f8, _i4, _f8))(
        _roll_kind_t, _resolve_t, _i8, _i8, _i8, _i8, _i8, _f8, types.int64
    ),
)
def _build_rows(roll_kind, resolve, params, order, choices, dist_ptr, dist_value, dist_prob, size):
    """Rows for every (choice, position in ORDER): row ci * n + i, for at most SIZE entries.

    row_const is the mover's value from outcomes that need no successor value: wins, half of
    ties, and the 1 in each ``1 - v`` of an outcome where the other player moves next. Then per
    continuing outcome: row_to = 2 * successor + (1 if the other player moves next), row_p =
    its probability, negative when the other player moves next (its value counts as 1 - v).
    """
    n = len(order)
    nc = len(choices)
    row_ptr = np.zeros(n * nc + 1, dtype=np.int64)
    row_const = np.zeros(n * nc)
    to = np.empty(size, dtype=np.int32)
    prob = np.empty(size)
    m = 0
    for ci in range(nc):
        c = choices[ci]
        for i in range(n):
            x = order[i]
            k = roll_kind(params, x, c)
            const = 0.0
            for d in range(dist_ptr[k], dist_ptr[k + 1]):
                code = resolve(params, x, c, dist_value[d])
                kind = code & 7
                p = dist_prob[d]
                if kind == WIN:
                    const += p
                elif kind == TIE:
                    const += 0.5 * p
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
    return row_ptr, row_const, to[:m].copy(), prob[:m].copy()


@njit(cache=True, fastmath=_FAST, inline="always")
def _row_sum(r, flip, w, row_ptr, row_const, row_to, row_p):
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
def _resolved_value(
    x, c, flip, w, roll_kind, resolve, resolve_row, by_row, params, dist_ptr, dist_value,
    dist_prob, codes,
):  # fmt: skip
    """The mover's chance of winning after choosing C at X, resolving each outcome into CODES
    (a buffer); values in W as in _row_sum."""
    k = roll_kind(params, x, c)
    lo, hi = dist_ptr[k], dist_ptr[k + 1]
    _resolve_all(resolve, resolve_row, by_row, params, x, c, dist_value, lo, hi, codes)
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


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------
#
# Taking an array out of a tuple, or passing arrays to a function that is not inlined, costs
# two atomic reference-count updates, more than the work of one choice: kernels unpack their
# tuples once, at the top, and the helpers above are inlined. Inlined helpers still left
# reference counting inside the loops of the solver's sweep and of the reachable search (a
# third and a quarter of their time, measured), so those loops are written out in full, and
# the reachable search takes its policies as plain arrays. A rule function comes through a
# pointer and is never inlined: resolving one value per call cost 25 ns, a whole roll per call
# 5.5 ns a value (measured), which is why resolve_row and q_keys take runs.


@kernel(
    types.int64(_ROWS, _i8, _i8, types.boolean, _i8, _i8, _i8, _i8, _f8, types.float64),
    fastmath=_FAST,
)
def _evaluate_rows(rows, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, w, tol):
    """Fill w (w[2x]: A to move at x, w[2x+1]: B) for fixed policies, from rows; return -1 or a
    level that did not converge. An acyclic model is one pass over the order. (Serving both
    players from one pass over a row when they choose alike was slower, measured.)"""
    choices, row_ptr, row_const, row_to, row_p = rows
    n = len(order)
    c0 = choices[0]
    if not cyclic:
        for i in range(n):
            x = order[i]
            ra = (tab_a[idx_a[x]] - c0) * n + i
            rb = (tab_b[idx_b[x]] - c0) * n + i
            w[2 * x] = _row_sum(ra, 0, w, row_ptr, row_const, row_to, row_p)
            w[2 * x + 1] = _row_sum(rb, 1, w, row_ptr, row_const, row_to, row_p)
        return -1
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                ra = (tab_a[idx_a[x]] - c0) * n + i
                rb = (tab_b[idx_b[x]] - c0) * n + i
                a = _row_sum(ra, 0, w, row_ptr, row_const, row_to, row_p)
                b = _row_sum(rb, 1, w, row_ptr, row_const, row_to, row_p)
                delta = max(delta, abs(a - w[2 * x]), abs(b - w[2 * x + 1]))
                w[2 * x] = a
                w[2 * x + 1] = b
            if delta < tol:
                break
        else:
            return level
    return -1


@kernel(
    types.void(_ROWS, _i8, _i8, _i8, types.int64[:, ::1], types.float64[:, ::1], _f8),
    fastmath=_FAST,
)
def _evaluate_rows_many(rows, order, tab_a, index, tabs_b, w, acc):
    """An acyclic model: A against each of K opponents (the rows of TABS_B), in one pass over
    the order. w[2x, k]: A to move at x against opponent k; w[2x+1, k]: opponent k to move.

    A's row at a state is read once for all K opponents, and the K values of a successor sit
    side by side, so A's sum is K multiply-adds per entry on contiguous memory. Opponents'
    rows are summed one by one (measured with 16 opponents of the course's cutoff kind: 2.3
    times faster per pair than pair by pair; random tables 1.4 times)."""
    choices, row_ptr, row_const, row_to, row_p = rows
    n = len(order)
    k_count = tabs_b.shape[0]
    c0 = choices[0]
    for i in range(n):
        x = order[i]
        o = index[x]
        ra = (tab_a[o] - c0) * n + i
        const = row_const[ra]
        for k in range(k_count):
            acc[k] = const
        for j in range(row_ptr[ra], row_ptr[ra + 1]):
            p = row_p[j]
            to = row_to[j]
            for k in range(k_count):
                acc[k] += p * w[to, k]
        for k in range(k_count):
            w[2 * x, k] = acc[k]
            rb = (tabs_b[k, o] - c0) * n + i
            total = row_const[rb]
            for j in range(row_ptr[rb], row_ptr[rb + 1]):
                total += row_p[j] * w[row_to[j] ^ 1, k]
            w[2 * x + 1, k] = total


@kernel(
    types.int64(_RULES, _i8, _i8, types.boolean, _i8, _i8, _i8, _i8, _f8, types.float64),
)
def _evaluate_sweep(rules, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, w, tol):
    """Like _evaluate_rows, for models without rows: each outcome resolved on the spot."""
    roll_kind, resolve, _, resolve_row, by_row, params, dist_ptr, dist_value, dist_prob, _ = rules
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                a = _resolved_value(
                    x, tab_a[idx_a[x]], 0, w, roll_kind, resolve, resolve_row, by_row, params,
                    dist_ptr, dist_value, dist_prob, codes,
                )  # fmt: skip
                b = _resolved_value(
                    x, tab_b[idx_b[x]], 1, w, roll_kind, resolve, resolve_row, by_row, params,
                    dist_ptr, dist_value, dist_prob, codes,
                )  # fmt: skip
                if cyclic:
                    delta = max(delta, abs(a - w[2 * x]), abs(b - w[2 * x + 1]))
                w[2 * x] = a
                w[2 * x + 1] = b
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@njit(cache=True, inline="always")
def _wrap(x, period, multiplier):
    """x % period, with a multiplier from ``divider(period, n_states)``."""
    return x - fast_divide(x, period, multiplier) * period


UNSEEN = -1.0  # a node's value in the reachable search before it is opened
OPEN = -2.0  # and while it is open


@njit(cache=True)
def _forget(value, opened, n_opened, flag):
    """Mark the first N_OPENED nodes of OPENED unseen again; (0, 0, FLAG)."""
    for i in range(n_opened):
        value[opened[i]] = UNSEEN
    return 0.0, 0.0, flag


@kernel(
    types.UniTuple(types.float64, 3)(
        _RULES, types.int64, _i8, types.int64, types.int64, _i8, types.int64, types.int64,
        types.int64, _f8, _i8,
    ),
)  # fmt: skip
def _evaluate_reachable(rules, start, tab_a, per_a, mul_a, tab_b, per_b, mul_b, cap, value, opened):
    """Both seatings of an acyclic model, visiting only states reachable from START.

    A depth-first search with an explicit stack plays the part of a memoised recursion. A node
    is (key, seat): the key of (state, choice), or the state when the model has no q_keys; its
    value is the chance that the seat's player (0: A, 1: B), to move there, wins. A frame is
    opened (its outcomes resolved, its unseen successors pushed above it) and later closed (its
    value summed from its successors, all closed by then).

    A's choice at state x is tab_a[x % per_a] (see Policy; mul_a makes the division cheap), the
    same for B, found as the search meets x: writing out both policies for every state first
    cost more than the search saves by it (measured). VALUE has a slot per node, UNSEEN
    everywhere on entry and again on return (the nodes opened are listed in OPENED, and only
    they are reset); OPEN marks a node being searched. One array for both, because the search
    is bound by reads scattered over memory, one per outcome. The caller keeps the arrays from
    call to call: fresh memory costs a page fault per page on first touch. The stacks have CAP
    entries, fixed (growing them in the loop would cost reference counting on every step).
    Returns (A first, A second, -1); (0, 0, state) if a state can reach itself; (0, 0, -2) if
    the stacks were too small (call again with more).
    """
    roll_kind, resolve, q_keys, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, choices = rules[5:]
    width = widest_roll(dist_ptr)
    codes = np.empty(width, dtype=np.int64)
    f_state = np.empty(cap, dtype=np.int64)
    f_node = np.empty(cap, dtype=np.int64)
    f_edge = np.empty(cap, dtype=np.int64)  # -1 until opened, then its first edge
    f_const = np.empty(cap)
    e_node = np.empty(cap, dtype=np.int64)
    e_prob = np.empty(cap)  # -p for OTHER (value 1 - v), +p for SAME
    e_state = np.empty(cap, dtype=np.int64)
    e_choice = np.empty(cap, dtype=np.int64)
    e_key = np.empty(cap, dtype=np.int64)
    top = 0
    edges = 0
    n_opened = 0
    roots = np.empty(2, dtype=np.int64)
    for seat in range(2):
        e_state[0] = start
        e_choice[0] = (
            tab_a[_wrap(start, per_a, mul_a)] if seat == 0 else tab_b[_wrap(start, per_b, mul_b)]
        )
        q_keys(params, e_state, e_choice, 0, 1, e_key)
        roots[seat] = 2 * (start if e_key[0] < 0 else e_key[0]) + seat
        f_state[top] = start
        f_node[top] = roots[seat]
        f_edge[top] = -1
        top += 1
    while top > 0:
        t = top - 1
        node = np.uint64(f_node[t])  # unsigned indices: numba checks no sign (see _row_sum)
        if f_edge[t] < 0:  # open
            if value[node] != UNSEEN:
                top -= 1  # a duplicate of a node opened elsewhere: done by now
                continue
            value[node] = OPEN
            opened[n_opened] = node
            n_opened += 1
            x = f_state[t]
            seat = node & np.uint64(1)
            c = tab_a[_wrap(x, per_a, mul_a)] if seat == 0 else tab_b[_wrap(x, per_b, mul_b)]
            k = roll_kind(params, x, c)
            first = f_edge[t] = edges
            if edges + width > cap or top + width > cap:
                return _forget(value, opened, n_opened, -2.0)
            const = 0.0
            lo, hi = dist_ptr[k], dist_ptr[k + 1]
            if by_row:  # _resolve_all, written out (see "Kernels")
                resolve_row(params, x, c, dist_value, lo, hi, codes)
            else:
                for d in range(lo, hi):
                    codes[d - lo] = resolve(params, x, c, dist_value[d])
            # First the successors (no branch on memory loaded here, so the loads of many
            # outcomes overlap), then their status.
            for d in range(lo, hi):
                code = codes[d - lo]
                kind = code & 7
                p = dist_prob[d]
                if kind == WIN:
                    const += p
                elif kind == TIE:
                    const += 0.5 * p
                elif kind == OTHER or kind == SAME:
                    y = np.uint64(code >> 3)
                    next_seat = seat if kind == SAME else np.uint64(1) - seat
                    if kind == OTHER:
                        const += p
                    e_node[edges] = next_seat  # its node, once the key is known
                    e_prob[edges] = p if kind == SAME else -p
                    e_state[edges] = y
                    e_choice[edges] = (
                        tab_a[_wrap(y, per_a, mul_a)]
                        if next_seat == 0
                        else tab_b[_wrap(y, per_b, mul_b)]
                    )
                    edges += 1
            f_const[t] = const
            q_keys(params, e_state, e_choice, first, edges, e_key)
            for j in range(first, edges):
                key = e_key[j]
                child = np.uint64(2 * (e_state[j] if key < 0 else key) + e_node[j])
                e_node[j] = child
                seen = value[child]
                if seen == OPEN:
                    return _forget(value, opened, n_opened, float(e_state[j]))
                if seen == UNSEEN:
                    f_state[top] = e_state[j]
                    f_node[top] = child
                    f_edge[top] = -1
                    top += 1
        else:  # close: every successor is done
            total = f_const[t]
            first = f_edge[t]
            for j in range(first, edges):
                total += e_prob[j] * value[np.uint64(e_node[j])]
            value[node] = total
            edges = first
            top -= 1
    first, second = value[roots[0]], 1.0 - value[roots[1]]
    _forget(value, opened, n_opened, -1.0)
    return first, second, -1.0


@kernel(
    types.int64(
        _ROWS, _i8, _i8, types.boolean, _i8, _i8, types.boolean, _f8, _i8, types.float64
    ),
    fastmath=_FAST,
)  # fmt: skip
def _solve_rows(rows, order, level_ptr, cyclic, tab_b, idx_b, against, w, policy, tol):
    """Best play for the mover, from rows: against itself, or (AGAINST) against B's policy.

    w[2x] is the solver's value with it to move at x, w[2x+1] its opponent's (the same number
    in self-play). Fills w and policy. The value is the best choice's; the choice is the
    earliest within TIE_MARGIN of it. Returns -1, or the level that did not converge.
    """
    choices, row_ptr, row_const, row_to, row_p = rows
    n = len(order)
    c0 = choices[0]
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                best = top = -1.0
                best_choice = c0
                for ci in range(len(choices)):
                    q = _row_sum(ci * n + i, 0, w, row_ptr, row_const, row_to, row_p)
                    top = max(top, q)
                    if q > best + TIE_MARGIN:
                        best = q
                        best_choice = choices[ci]
                best = top  # the value is the maximum; near-ties only decide the choice
                b = best
                if against:
                    r = (tab_b[idx_b[x]] - c0) * n + i
                    b = _row_sum(r, 1, w, row_ptr, row_const, row_to, row_p)
                if cyclic:
                    delta = max(delta, abs(best - w[2 * x]), abs(b - w[2 * x + 1]))
                w[2 * x] = best
                w[2 * x + 1] = b
                policy[x] = best_choice
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@njit(cache=True, fastmath=_FAST, inline="always")
def _solve_span(rules, order, lo, hi, cyclic, tab_b, idx_b, against, w, policy, memo, memo_b,
                stamp):  # fmt: skip
    """One sweep of _solve_sweep over the states order[lo:hi]; returns the largest change of a
    value (cyclic levels). The loop is written out in full (see the note above _evaluate_rows).
    Two spans may run at once on states whose outcomes lie outside both: a choice value both
    compute is the same number, and either write of it is the whole of it."""
    roll_kind, resolve, q_keys, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, choices = rules[5:]
    nc = len(choices)
    c0 = choices[0]
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    # the keys of every choice at a state, and of the opponent's choice (at [nc])
    at = np.empty(nc + 1, dtype=np.int64)
    asked = np.empty(nc + 1, dtype=np.int64)
    asked[:nc] = choices
    key_of = np.full(nc + 1, -1, dtype=np.int64)
    values, stamps = memo
    values_b, stamps_b = memo_b
    keys = len(values) > 0
    delta = 0.0
    for i in range(lo, hi):
        x = order[i]
        best = top = -1.0
        best_choice = c0
        b = 0.0
        asked[nc] = tab_b[idx_b[x]] if against else c0
        if keys:
            at[:] = x
            q_keys(params, at, asked, 0, nc + 1 if against else nc, key_of)
        # ci == nc: the opponent's own choice, for its value (only when against)
        for ci in range(nc + 1 if against else nc):
            me = ci < nc
            flip = 0 if me else 1
            c = asked[ci]
            key = key_of[ci]
            q = -1.0
            if key >= 0:
                q = values[key] if me else values_b[key]
                if cyclic and (stamps[key] if me else stamps_b[key]) != stamp:
                    q = -1.0
            if q < 0.0:
                k = roll_kind(params, x, c)
                d0, d1 = dist_ptr[k], dist_ptr[k + 1]
                if by_row:
                    resolve_row(params, x, c, dist_value, d0, d1, codes)
                else:
                    for d in range(d0, d1):
                        codes[d - d0] = resolve(params, x, c, dist_value[d])
                q = 0.0
                for d in range(d0, d1):
                    code = codes[d - d0]
                    kind = code & 7
                    p = dist_prob[d]
                    if kind == OTHER:
                        q += p * (1.0 - w[(2 * (code >> 3) + 1) ^ flip])
                    elif kind == SAME:
                        q += p * w[(2 * (code >> 3)) ^ flip]
                    elif kind == WIN:
                        q += p
                    elif kind == TIE:
                        q += 0.5 * p
                if key >= 0 and me:
                    values[key] = q
                    if cyclic:
                        stamps[key] = stamp
                elif key >= 0:
                    values_b[key] = q
                    if cyclic:
                        stamps_b[key] = stamp
            if not me:
                b = q
            else:
                top = max(top, q)
                if q > best + TIE_MARGIN:
                    best = q
                    best_choice = c
        best = top  # the value is the maximum; near-ties only decide the choice
        if not against:
            b = best
        if cyclic:
            delta = max(delta, abs(best - w[2 * x]), abs(b - w[2 * x + 1]))
        w[2 * x] = best
        w[2 * x + 1] = b
        policy[x] = best_choice
    return delta


@kernel(
    types.int64(
        _RULES, _i8, _i8, types.boolean, types.boolean, _i8, _i8, types.boolean, _f8, _i8,
        _MEMO, _MEMO, types.float64, types.int64,
    ),
    fastmath=_FAST,
    parallel=True,
)  # fmt: skip
def _solve_sweep(rules, order, level_ptr, cyclic, independent, tab_b, idx_b, against, w, policy,
                 memo, memo_b, tol, parts):  # fmt: skip
    """Like _solve_rows, for models without rows: outcomes resolved on the spot, once per key
    of the model's q_keys when it has them (MEMO for the solver, MEMO_B for its opponent).
    When no outcome stays in its level (INDEPENDENT), a level's states are solved in PARTS
    spans at once."""
    stamp = 1
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        if independent:
            size = hi - lo
            for part in prange(parts):
                _solve_span(
                    rules, order, lo + part * size // parts, lo + (part + 1) * size // parts,
                    cyclic, tab_b, idx_b, against, w, policy, memo, memo_b, stamp,
                )  # fmt: skip
            continue
        for _ in range(MAX_SWEEPS):
            if cyclic:
                stamp += 1  # a cyclic level's choice values change from sweep to sweep
            delta = _solve_span(
                rules, order, lo, hi, cyclic, tab_b, idx_b, against, w, policy, memo, memo_b,
                stamp,
            )  # fmt: skip
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@kernel(
    types.int64(
        _RULES, _ROWS, _i8, _i8, types.int32[::1], _i8, types.boolean, _i8, _i8, _i8, _i8, _f8,
        types.float64, types.int64, types.boolean[::1],
    ),
)  # fmt: skip
def _reach(rules, rows, order, level_ptr, level_of, position, cyclic, tab_a, idx_a, tab_b, idx_b,
           r, tol, max_sweeps, keep):  # fmt: skip
    """Expected visits to each state with A (r[2x]) and B (r[2x+1]) to move, from the masses
    given in R.

    States are taken predecessors first (the model's order backwards); states no one reaches
    are skipped. In an acyclic model one pass moves all mass on (a move may stay in its level,
    as a Pork Chop does, but then to a state earlier in the order). Inside a cyclic level the
    visits solve r = inflow + (moves within the level) r, by iteration, and then the level's
    mass moves on. KEEP (empty, or a flag per r[i]) marks where mass arrives and stays. Returns
    -1, or the level that did not converge (the pair can loop without end).
    """
    roll_kind, resolve, _, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, choices = rules[5:]
    _, row_ptr, _, row_to, row_p = rows
    n = len(order)
    has_rows = len(row_ptr) > 1
    c0 = choices[0]
    width = widest_roll(dist_ptr)
    codes = np.empty(width, dtype=np.int64)
    to = np.empty(width, dtype=np.int64)  # a continuing outcome, as in row_to
    ps = np.empty(width)
    spans = len(level_ptr) - 1 if cyclic else 1  # acyclic: the whole order in one pass
    for level in range(spans - 1, -1, -1):
        lo, hi = (level_ptr[level], level_ptr[level + 1]) if cyclic else (0, n)
        size = hi - lo
        inflow = np.empty(2 * size if cyclic else 0)
        if cyclic:
            for i in range(lo, hi):
                inflow[2 * (i - lo)] = r[2 * order[i]]
                inflow[2 * (i - lo) + 1] = r[2 * order[i] + 1]
        # phase 0 (cyclic levels only, repeated): moves within the level; phase 1: out of it
        sweep = 0
        phase = 0 if cyclic else 1
        while phase < 2:
            new = inflow.copy()
            for i in range(hi - 1, lo - 1, -1):
                x = order[i]
                for seat in range(2):
                    mass = r[2 * x + seat]
                    if mass == 0.0 or (len(keep) > 0 and keep[2 * x + seat]):
                        continue
                    c = tab_a[idx_a[x]] if seat == 0 else tab_b[idx_b[x]]
                    m = 0
                    if has_rows:
                        row = (c - c0) * n + i
                        for j in range(row_ptr[row], row_ptr[row + 1]):
                            to[m] = row_to[j]
                            ps[m] = abs(row_p[j])
                            m += 1
                    else:
                        k = roll_kind(params, x, c)
                        d0, d1 = dist_ptr[k], dist_ptr[k + 1]
                        _resolve_all(
                            resolve, resolve_row, by_row, params, x, c, dist_value, d0, d1, codes
                        )
                        for d in range(d0, d1):
                            code = codes[d - d0]
                            if code & 7 == OTHER or code & 7 == SAME:
                                to[m] = 2 * (code >> 3) + (1 if code & 7 == OTHER else 0)
                                ps[m] = dist_prob[d]
                                m += 1
                    for j in range(m):
                        y = to[j] >> 1
                        slot = to[j] ^ seat  # 2y + the seat that moves at y
                        inside = cyclic and level_of[y] == level
                        if phase == 0 and inside:
                            new[2 * (position[y] - lo) + (slot & 1)] += mass * ps[j]
                        elif phase == 1 and not inside:
                            r[slot] += mass * ps[j]
            if phase == 1:
                break
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                for seat in range(2):
                    delta = max(delta, abs(new[2 * (i - lo) + seat] - r[2 * x + seat]))
                    r[2 * x + seat] = new[2 * (i - lo) + seat]
            sweep += 1
            if delta < tol:
                phase = 1
            elif sweep >= max_sweeps:
                return level
    return -1


@kernel(
    types.int64(_RULES, _ROWS, _i8, _i8, _i8, _i8, _i8, _i8, _f8, types.float64),
)
def _ending(rules, rows, order, level_ptr, tab_a, idx_a, tab_b, idx_b, e, tol):
    """Fill e (e[2x]: A to move at x, e[2x+1]: B) with the chance that the game ends, for fixed
    policies: the outcomes that end it, plus each continuing outcome's chance of ending, level
    by level from 0 (a closed loop stays at 0). Returns -1, or a level that did not converge."""
    roll_kind, resolve, _, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, choices = rules[5:]
    _, row_ptr, _, row_to, row_p = rows
    n = len(order)
    has_rows = len(row_ptr) > 1
    c0 = choices[0]
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                for seat in range(2):
                    c = tab_a[idx_a[x]] if seat == 0 else tab_b[idx_b[x]]
                    total = 1.0  # less (1 - e) for each continuing outcome
                    if has_rows:
                        r = (c - c0) * n + i
                        for j in range(row_ptr[r], row_ptr[r + 1]):
                            total -= abs(row_p[j]) * (1.0 - e[row_to[j] ^ seat])
                    else:
                        k = roll_kind(params, x, c)
                        d0, d1 = dist_ptr[k], dist_ptr[k + 1]
                        _resolve_all(
                            resolve, resolve_row, by_row, params, x, c, dist_value, d0, d1, codes
                        )
                        for d in range(d0, d1):
                            code = codes[d - d0]
                            if code & 7 == OTHER or code & 7 == SAME:
                                to = 2 * (code >> 3) + (1 if code & 7 == OTHER else 0)
                                total -= dist_prob[d] * (1.0 - e[to ^ seat])
                    delta = max(delta, abs(total - e[2 * x + seat]))
                    e[2 * x + seat] = total
            if delta < tol:
                break
        else:
            return level
    return -1


@kernel(
    types.float64[:, ::1](_RULES, _ROWS, _i8, _i8, _i8, _f8, _f8, types.int64, _MEMO),
    fastmath=_FAST,
)
def _choice_values(rules, rows, order, observation, tab, weight, w, n_obs, memo):
    """Values of choices for the mover at the states of ORDER, from values W (w[2y]: the mover
    to move at y, w[2y+1]: the other player).

    With N_OBS = 0: out[x, 0] is the value of the policy's choice tab[observation[x]] (pass the
    identity as OBSERVATION for a per-state policy). Otherwise: out[o, i] sums weight[x] times
    the value of choices[i] over the states x of observation o that have weight.
    """
    roll_kind, resolve, q_keys, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, choices = rules[5:]
    _, row_ptr, row_const, row_to, row_p = rows
    n = len(order)
    has_rows = len(row_ptr) > 1
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    values, _ = memo
    per_obs = n_obs > 0
    asked = choices.copy()  # the choices valued at a state (its policy's one, without N_OBS)
    at = np.empty(len(asked), dtype=np.int64)
    key_of = np.full(len(asked), -1, dtype=np.int64)
    out = np.zeros((n_obs, len(choices)) if per_obs else (len(w) // 2, 1))
    for i in range(n):
        x = order[i]
        if per_obs and weight[x] <= 0.0:
            continue
        asked_here = len(choices) if per_obs else 1
        if not per_obs:
            asked[0] = tab[observation[x]]
        if not has_rows and len(values):
            at[:] = x
            q_keys(params, at, asked, 0, asked_here, key_of)
        for ci in range(asked_here):
            c = asked[ci]
            if has_rows:
                q = _row_sum((c - choices[0]) * n + i, 0, w, row_ptr, row_const, row_to, row_p)
            else:
                key = key_of[ci]
                q = values[key] if key >= 0 else -1.0
                if q < 0.0:
                    q = _resolved_value(
                        x, c, 0, w, roll_kind, resolve, resolve_row, by_row, params, dist_ptr,
                        dist_value, dist_prob, codes,
                    )  # fmt: skip
                    if key >= 0:
                        values[key] = q
            if per_obs:
                out[observation[x], ci] += weight[x] * q
            else:
                out[x, 0] = q
    return out


# ---------------------------------------------------------------------------------------------
# The model as the kernels take it
# ---------------------------------------------------------------------------------------------


@dataclass
class _Workspace:
    """Buffers of the reachable-states search, kept between calls (see _evaluate_reachable)."""

    value: np.ndarray
    opened: np.ndarray


@dataclass
class _Engine:
    """A model prepared for the kernels, built once per model and kept on it."""

    rules: tuple  # the compiled rule functions and their tables (_RULES)
    rows: tuple  # the rows (_ROWS); row_ptr has one entry when the model has none
    n_keys: int  # size of a choice-value memo (0: the model declares no q_keys)
    identity: np.ndarray  # the index of a per-state policy
    observation_period: int  # P if the model's observation of state x is x % P, else 0
    level_of: np.ndarray  # state -> its level (-1: never played)
    position: np.ndarray  # state -> its position in the model's order (-1: never played)
    start_value: float = 0.0  # where values start: 1/2 where a game may never end
    lock: threading.Lock = field(default_factory=threading.Lock)
    _workspace: _Workspace | None = None
    _values: np.ndarray | None = None

    def values(self) -> np.ndarray:
        """A value array for a sweep at its start value, the same memory every call: fresh
        memory costs a page fault per page on first touch, here more than an evaluation of
        hog-su21."""
        if self._values is None:
            self._values = np.full(2 * len(self.identity), self.start_value)
        else:
            self._values[:] = self.start_value
        return self._values

    @property
    def has_rows(self) -> bool:
        return len(self.rows[1]) > 1

    def __getstate__(self) -> dict:
        # A model may be pickled with its engine: the lock and the buffers stay behind.
        return {
            k: v for k, v in self.__dict__.items() if k not in ("lock", "_workspace", "_values")
        }

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, lock=threading.Lock(), _workspace=None, _values=None)

    def workspace(self, nodes: int) -> _Workspace:
        if self._workspace is None:
            value = np.full(nodes, UNSEEN)
            self._workspace = _Workspace(value, np.empty(nodes, np.int64))
        return self._workspace

    def periodic(self, policy: Policy) -> tuple[np.ndarray, int, int]:
        """POLICY as _evaluate_reachable takes it: table, period, multiplier."""
        return policy.table, policy.period, divider(policy.period, len(self.identity))


def _period(index: np.ndarray) -> int:
    """P when index[x] == x % P for every x, else 0."""
    period = int(index.max()) + 1
    return period if np.array_equal(index, np.arange(len(index)) % period) else 0


def engine(model: GameModel) -> _Engine:
    """The kernels' view of MODEL (rows included when they fit), cached on the model."""
    cached = model.__dict__.get("_exact_engine")
    if cached is not None:
        return cached
    m = model
    assert np.array_equal(m.choices, np.arange(m.choices[0], m.choices[0] + len(m.choices))), (
        "choices must be consecutive integers"
    )
    q_keys = m.q_keys
    limit = 2 * MAX_ROW_ENTRIES
    size = _count_entries(m.roll_kind, m.params, m.order, m.choices, m.dist_ptr, limit)
    if MAX_ROW_ENTRIES < size <= limit:
        # Ends of the game fold into each row's constant and take no room, so a model a little
        # too large may still fit by its continuing outcomes. Counting those costs a resolve
        # per outcome (seconds for hog-su20 with Feral Hogs, where most outcomes continue), so
        # only a model within a factor of two is counted, and the count stops at the limit.
        size = _count_continuing(
            m.roll_kind, m.resolve, m.params, m.order, m.choices, m.dist_ptr, m.dist_value,
            MAX_ROW_ENTRIES,
        )  # fmt: skip
    if size <= MAX_ROW_ENTRIES:
        rows = _build_rows(
            m.roll_kind, m.resolve, m.params, m.order, m.choices, m.dist_ptr, m.dist_value,
            m.dist_prob, size,
        )  # fmt: skip
    else:
        rows = (np.zeros(1, np.int64), np.zeros(0), np.zeros(0, np.int32), np.zeros(0))
    level_of = np.full(m.n_states, -1, dtype=np.int32)
    for level in range(len(m.level_ptr) - 1):
        level_of[m.order[m.level_ptr[level] : m.level_ptr[level + 1]]] = level
    position = np.full(m.n_states, -1, dtype=np.int64)
    position[m.order] = np.arange(len(m.order))
    built = _Engine(
        rules=(
            m.roll_kind,
            m.resolve,
            q_keys or _no_keys,
            m.resolve_row or _no_row,
            m.resolve_row is not None,
            m.params,
            m.dist_ptr,
            m.dist_value,
            m.dist_prob,
            m.choices,
        ),  # fmt: skip
        rows=(m.choices, *rows),
        n_keys=m.n_keys if q_keys is not None else 0,
        identity=np.arange(m.n_states, dtype=np.int64),
        observation_period=_period(m.observation),
        level_of=level_of,
        position=position,
        start_value=0.5 if m.may_never_end else 0.0,
    )
    m.__dict__["_exact_engine"] = built  # a frozen dataclass still has a __dict__
    return built


def _memo(size: int, cyclic: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """A choice-value memo: values (-1: not known yet, as values are chances) and, for cyclic
    models, the sweep each value is from (values change from sweep to sweep)."""
    return np.full(size, -1.0), np.zeros(size if cyclic else 0, dtype=np.int64)


def _pair(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Two per-state value arrays side by side, as the kernels keep them."""
    w = np.empty(2 * len(first))
    w[0::2] = first
    w[1::2] = second
    return w


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------


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


def table_policy(model: GameModel, table: np.ndarray) -> Policy:
    """A decision table (one choice per observation) as a policy."""
    return Policy(_as_table(table), model.observation, engine(model).observation_period)


def state_policy(model: GameModel, policy: np.ndarray) -> Policy:
    """A choice per state (as ``solve`` finds) as a policy."""
    return Policy(_as_table(policy), engine(model).identity, model.n_states)


def evaluate(rules: RuleSet, table_a: np.ndarray, table_b: np.ndarray) -> SeatValues:
    """Exact chances that strategy A (decision table) beats strategy B, in both seatings."""
    m = rules.model
    return evaluate_policies(rules, table_policy(m, table_a), table_policy(m, table_b))


def evaluate_many(
    rules: RuleSet, table_a: np.ndarray, tables_b: list[np.ndarray]
) -> list[SeatValues]:
    """Exact chances that strategy A beats each of TABLES_B, in both seatings (without the
    per-state values): one pass for all of them where the model is acyclic and has rows (a
    tournament's many pairs of one entrant), pair by pair otherwise."""
    m = rules.model
    e = engine(m)
    if m.cyclic or not e.has_rows or len(tables_b) < 2:
        return [evaluate(rules, table_a, b) for b in tables_b]
    k_count = len(tables_b)
    tabs_b = np.ascontiguousarray(np.stack([_as_table(b) for b in tables_b]))
    w = np.empty((2 * m.n_states, k_count))
    _evaluate_rows_many(
        e.rows, m.order, _as_table(table_a), m.observation, tabs_b, w, np.empty(k_count)
    )
    first, second = w[2 * m.start], 1.0 - w[2 * m.start + 1]
    return [
        SeatValues(first=float(f), second=float(s), v_a=None, v_b=None)
        for f, s in zip(first, second, strict=True)
    ]


def evaluate_policies(rules: RuleSet, a: Policy, b: Policy, *, values: bool = False) -> SeatValues:
    """Like ``evaluate`` for policies; VALUES asks for the per-state values in any case."""
    m = rules.model
    e = engine(m)
    if not e.has_rows and not m.cyclic and not values and a.period and b.period:
        n_keys = e.n_keys or m.n_states
        with e.lock:
            ws = e.workspace(2 * n_keys)
            # A path of the search moves down the levels, so it is rarely much longer.
            cap = 4 * len(m.level_ptr) * (int(np.diff(m.dist_ptr).max()) + 1)
            while True:
                first, second, stuck = _evaluate_reachable(
                    e.rules, m.start, *e.periodic(a), *e.periodic(b), cap, ws.value, ws.opened
                )
                if stuck != -2:
                    break
                cap *= 4
        if stuck >= 0:
            raise HogbenchError(
                f"{rules.name}: state {rules.describe_state(int(stuck))} can reach itself"
                " in a model declared acyclic"
            )
        return SeatValues(first=float(first), second=float(second), v_a=None, v_b=None)
    kernel, model = (_evaluate_rows, e.rows) if e.has_rows else (_evaluate_sweep, e.rules)
    with e.lock:
        w = e.values()
        stuck = kernel(
            model, m.order, m.level_ptr, m.cyclic, a.table, a.index, b.table, b.index, w,
            TOLERANCE,
        )  # fmt: skip
        _check_converged(rules, stuck)
        return SeatValues(
            first=float(w[2 * m.start]),
            second=float(1.0 - w[2 * m.start + 1]),
            v_a=w[0::2].copy(),
            v_b=w[1::2].copy(),
        )


@dataclass(frozen=True)
class Solution:
    """Optimal play for the mover at every state (against itself, or against one strategy)."""

    policy: np.ndarray  # state -> best choice
    v_me: np.ndarray  # the solver's chance of winning with it to move
    v_opp: np.ndarray  # the opponent's chance with it to move (same array when self-play)
    start: int
    against: Policy | None = None
    # The solver's choice values by q_keys (models without rows, acyclic), kept so that
    # choice_values and observation_values need not recompute them.
    memo: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @property
    def first(self) -> float:
        """The solver's chance of winning when it moves first."""
        return float(self.v_me[self.start])

    @property
    def second(self) -> float:
        """The solver's chance of winning when the opponent moves first."""
        return float(1.0 - self.v_opp[self.start])


def solve(rules: RuleSet, against: np.ndarray | Policy | None = None) -> Solution:
    """Optimal play by backward induction (value iteration on cyclic levels).

    Without AGAINST both players play optimally; with a decision table (or a Policy) it is the
    best response to it. The solver sees the whole state: where a state holds more than a
    strategy sees (hog-su20's previous-turn points), this is an upper bound for strategies.
    """
    m = rules.model
    e = engine(m)
    if against is not None and not isinstance(against, Policy):
        against = table_policy(m, against)
    w = np.full(2 * m.n_states, e.start_value)
    policy = np.full(m.n_states, m.choices[0], dtype=np.int64)
    none = np.zeros(1, dtype=np.int64)
    b = against if against is not None else Policy(none, none)
    memo = _memo(e.n_keys if not e.has_rows else 0, m.cyclic)
    if e.has_rows:
        stuck = _solve_rows(
            e.rows, m.order, m.level_ptr, m.cyclic, b.table, b.index, against is not None, w,
            policy, TOLERANCE,
        )  # fmt: skip
    else:
        stuck = _solve_sweep(
            e.rules, m.order, m.level_ptr, m.cyclic, m.independent_levels, b.table, b.index,
            against is not None, w, policy, memo,
            _memo(e.n_keys if against is not None else 0, m.cyclic), TOLERANCE,
            numba.get_num_threads(),
        )  # fmt: skip
    _check_converged(rules, stuck)
    v_me = w[0::2].copy()
    v_opp = w[1::2].copy() if against is not None else v_me
    if m.may_never_end:
        _leave_loops(rules, policy, v_me, v_opp, against)
    keep = memo if e.n_keys and not m.cyclic else None
    return Solution(policy, v_me, v_opp, m.start, against, memo=keep)


def _leave_loops(
    rules: RuleSet, policy: np.ndarray, v_me: np.ndarray, v_opp: np.ndarray, against
) -> None:
    """Where a game may never end, make POLICY achieve the solved values. The solver takes the
    earliest choice within TIE_MARGIN of the best, and a 0-point turn into a loop that the
    other player would leave is worth exactly the state's own value (the play comes back to
    it), so it ties with the way out and is taken, and then the game never ends. Where the
    policy falls short of the values, this moves its choice to the next one within
    TIE_MARGIN, until it does not (values are unchanged; at most one round per choice)."""
    m = rules.model
    zeros = np.zeros(m.n_states, dtype=np.int64)
    q = np.stack(
        [choice_values(rules, Policy(np.array([c]), zeros), v_me, v_opp) for c in m.choices],
        axis=1,
    )
    best = q >= v_me[:, None] - TIE_MARGIN
    for _ in range(len(m.choices)):
        me = state_policy(m, policy)
        played = evaluate_policies(rules, me, against if against is not None else me, values=True)
        short = np.flatnonzero(played.v_a < v_me - 1e-9)
        if len(short) == 0:
            return
        for x in short:
            later = np.flatnonzero(best[x] & (m.choices > policy[x]))
            if len(later):
                policy[x] = m.choices[later[0]]


def reach(rules: RuleSet, a: Policy, b: Policy) -> tuple[np.ndarray, np.ndarray]:
    """Chance of each state occurring with A (resp. B) to move, averaged over both seatings.

    In acyclic models a state occurs at most once in a game, so these are probabilities; in
    cyclic ones they are expected numbers of visits. Where a game may never end (a model's
    ``may_never_end``), a state with A to move from which the pair's game never ends
    (``ending``) is counted until A first comes to it, and nothing after: the chance of that.
    """
    m = rules.model
    e = engine(m)
    r = np.zeros(2 * m.n_states)
    r[2 * m.start] += 0.5
    r[2 * m.start + 1] += 0.5
    keep = np.zeros(0, dtype=np.bool_)
    if m.may_never_end:
        keep = np.zeros(2 * m.n_states, dtype=np.bool_)
        keep[0::2] = ending(rules, a, b)[0] < NEVER
    stuck = _reach(
        e.rules, e.rows, m.order, m.level_ptr, e.level_of, e.position, m.cyclic, a.table,
        a.index, b.table, b.index, r, TOLERANCE, 100_000, keep,
    )  # fmt: skip
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: this pair of strategies can loop without end (level {stuck})"
        )
    return r[0::2].copy(), r[1::2].copy()


def ending(rules: RuleSet, a: Policy, b: Policy) -> tuple[np.ndarray, np.ndarray]:
    """The chance that a game of A against B ends, from each state with A to move and with B to
    move: 1 everywhere but where a game may never end (a model's ``may_never_end``)."""
    m = rules.model
    e = engine(m)
    chance = np.zeros(2 * m.n_states)
    stuck = _ending(
        e.rules, e.rows, m.order, m.level_ptr, a.table, a.index, b.table, b.index, chance,
        TOLERANCE,
    )  # fmt: skip
    _check_converged(rules, stuck)
    return chance[0::2].copy(), chance[1::2].copy()


def ending_chance(rules: RuleSet, a: Policy, b: Policy) -> tuple[float, float]:
    """The chance that a game of A against B ends, A moving first and A moving second. The
    rest is the chance of a game that never ends, a tie, which ``evaluate`` counts half."""
    first, second = ending(rules, a, b)
    start = rules.model.start
    return float(first[start]), float(second[start])


def choice_values(
    rules: RuleSet, policy: Policy, v_self: np.ndarray, v_other: np.ndarray, memo=None
) -> np.ndarray:
    """At each state, the mover's chance of winning with POLICY's choice there, when the values
    afterwards are V_SELF (the mover to move) and V_OTHER (the opponent to move). MEMO: a
    Solution's memo, when these are its values."""
    m = rules.model
    e = engine(m)
    out = _choice_values(
        e.rules, e.rows, m.order, policy.index, policy.table, np.zeros(0), _pair(v_self, v_other),
        0, memo if memo is not None else _memo(e.n_keys),
    )  # fmt: skip
    return out[:, 0].copy()


def observation_values(
    rules: RuleSet, weight: np.ndarray, v_self: np.ndarray, v_other: np.ndarray, memo=None
) -> np.ndarray:
    """W[o, i]: sum over the states x of observation o of weight[x] * Q(x, choices[i]). MEMO: a
    Solution's memo, when V_SELF and V_OTHER are its values."""
    m = rules.model
    e = engine(m)
    n_obs = int(np.prod(rules.obs_shape))
    return _choice_values(
        e.rules, e.rows, m.order, m.observation, np.zeros(1, np.int64),
        np.ascontiguousarray(weight, dtype=np.float64), _pair(v_self, v_other), n_obs,
        memo if memo is not None else _memo(e.n_keys),
    )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The course's experiments, exactly
# ---------------------------------------------------------------------------------------------


def expected_turn_scores(rules: RuleSet, sides: int = 6) -> dict[int, float]:
    """The exact mean of ``roll_dice(n, dice)`` for n = 1..10 with fair SIDES-sided dice.

    Computed from the rule set's own ``dice_points`` (the function the model's dice
    distributions are built from), enumerated over every roll: what the course's
    ``max_scoring_num_rolls`` experiment estimates.
    """
    from hogbench.rules.base import dice_distribution

    points = rules.dice_rule()
    faces = tuple(range(1, sides + 1))
    return {
        n: sum(v * p for v, p in dice_distribution(n, faces, points).items()) for n in range(1, 11)
    }


def average_win_rate_exact(rules: RuleSet, table: np.ndarray, baseline_table: np.ndarray) -> float:
    """The course's ``average_win_rate`` exactly: the mean over both seatings of the chance that
    TABLE beats BASELINE_TABLE (a tie counts half)."""
    return evaluate(rules, table, baseline_table).average


def _as_table(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.int64).reshape(-1)


def _check_converged(rules: RuleSet, stuck: int) -> None:
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: values did not converge within {MAX_SWEEPS} sweeps at level {stuck}"
            " (a pair of strategies that can loop forever without progress?)"
        )
