"""The exact engine: win probabilities by dynamic programming over a rule set's GameModel.

Values are always from the side of the player to move: ``v[x]`` is that player's chance of
winning from state ``x`` (a tie counts half). States are visited level by level, successors
first; a level whose transitions can stay inside it (a zero roll in Greed, a lost turn in Pig)
is iterated until no value moves by more than ``TOLERANCE``.

The engine is generic over rule sets; three things make it fast.

* Rows. When a model's outcomes fit in memory, every (state, choice) is resolved once into a
  *row*: the probability of the outcomes that end the game, plus *runs* of outcomes whose
  successors are consecutive states of one kind (in Hog, rolling k more points moves from
  (s, o) to (o, s + k)). A run is a dot product of a slice of the model's dice distribution
  with a slice of the value array, so the inner loop is contiguous. Rows are stored choice by
  choice in the order states are solved, so a pass over one strategy's choices reads memory
  front to back.
* Reachable states only. A model too large for rows (hog-su20 with its Feral Hogs state) is
  evaluated by a depth-first search from the start that visits only the states the two
  strategies can reach, as a memoised recursion would, without recursion or Python.
* Shared choice values. A model may declare ``q_key(params, state, choice)``: states and choices
  with equal keys have the same outcomes, so the value of a choice is computed once per key (in
  hog-su20 the previous-turn points only matter through whether Feral Hogs fires).

Policies come in two shapes: a decision table indexed by observation (what a strategy sees), or
a per-state policy (what the solver finds when a state holds more than the strategy sees). The
kernels take both as ``table[index[x]]``: the index is the model's observation map or the
identity.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

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
    GameModel,
    RuleSet,
)

TOLERANCE = 1e-14
MAX_SWEEPS = 1_000_000
#: Above this many (state, choice, outcome) entries a model is solved without rows.
MAX_ROW_ENTRIES = 30_000_000
#: Choices whose values differ by less than this are a tie, and the earlier choice (fewer dice)
#: wins it. Exact ties are common (every choice wins, or two choices have the same outcomes) and
#: rounding, up to about 1e-14 after summing many outcomes, must not decide them. With this
#: reading the optimal hog-contest strategy (Pork Chop off) beats always_roll(4) 0.7757493759 of
#: the time on average, the published figure.
TIE_MARGIN = 1e-12
# Only reassociation: lets the dot products of runs use SIMD; results move by ~1e-16.
_FAST = {"reassoc", "nsz"}

_i8 = types.int64[::1]
_f8 = types.float64[::1]
_roll_kind_t = types.FunctionType(ROLL_KIND_SIGNATURE)
_resolve_t = types.FunctionType(RESOLVE_SIGNATURE)

#: The model tuple the Monte Carlo engine takes (see ``game_tuple``).
GAME_TYPE = types.Tuple((_roll_kind_t, _resolve_t, _i8, _i8, _i8, _f8, _i8, _i8, _i8, _f8))

# The engine's own view of a model (see _Engine.ctx): roll_kind, resolve, q_key, params,
# dist_ptr, dist_value, dist_prob, choices, row_ptr, row_const, run_at, run_span.
_CTX = types.Tuple(
    (_roll_kind_t, _resolve_t, _roll_kind_t, _i8, _i8, _i8, _f8, _i8, _i8, _f8, _i8, _i8)
)
_MEMO = types.Tuple((_f8, _i8))  # a choice-value memo: values and the sweep that computed them


@njit(ROLL_KIND_SIGNATURE, cache=True)
def _no_key(params, state, choice):
    """The q_key of a model that declares none: every (state, choice) is its own."""
    return -1


# ---------------------------------------------------------------------------------------------
# Rows
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def _grow(a, size):
    out = np.empty(size, dtype=a.dtype)
    out[: len(a)] = a
    return out


@njit(types.int64(_roll_kind_t, _i8, _i8, _i8, _i8), cache=True)
def _count_entries(roll_kind, params, order, choices, dist_ptr):
    total = 0
    for x in order:
        for c in choices:
            k = roll_kind(params, x, c)
            total += dist_ptr[k + 1] - dist_ptr[k]
    return total


_STRIDE_BIAS = 1 << 22  # run strides are stored biased, in the 23 bits above bit 40
_MAX_RUN = 255


@njit(
    types.Tuple((_i8, _f8, _i8, _i8))(_roll_kind_t, _resolve_t, _i8, _i8, _i8, _i8, _i8, _f8),
    cache=True,
)
def _build_rows(roll_kind, resolve, params, order, choices, dist_ptr, dist_value, dist_prob):
    """Rows for every (position in ORDER, choice), choice-major: row (ci, i) is ci * n + i.

    row_const is the mover's value from outcomes that need no successor value: wins, half of
    ties, and the 1 in each ``1 - v_other`` of OTHER outcomes. Run j is run_span[j] >> 32 & 255
    consecutive outcomes of one kind (SAME when run_at[j] & 1, else OTHER) whose successors
    start at y = run_at[j] >> 1 and step by a constant stride, with probabilities dist_prob
    from d = run_span[j] & 0xFFFFFFFF on. A stride is usually 1 (Hog: rolling one more point
    moves to the next state), but any constant step makes a run.
    """
    n = len(order)
    nc = len(choices)
    counts = np.zeros(n * nc, dtype=np.int64)  # runs per row, position-major while building
    consts = np.zeros(n * nc)
    cap = 4 * n * nc
    at = np.empty(cap, dtype=np.int64)
    span = np.empty(cap, dtype=np.int64)
    m = 0
    for i in range(n):
        x = order[i]
        for ci in range(nc):
            c = choices[ci]
            k = roll_kind(params, x, c)
            first = m
            const = 0.0
            last_y = last_d = last_start_d = length = stride = 0
            last_kind = -1
            for d in range(dist_ptr[k], dist_ptr[k + 1]):
                code = resolve(params, x, c, dist_value[d])
                kind = code & 7
                y = code >> 3
                p = dist_prob[d]
                if kind == WIN:
                    const += p
                elif kind == TIE:
                    const += 0.5 * p
                elif kind == OTHER or kind == SAME:
                    if kind == OTHER:
                        const += p
                    step = y - last_y
                    if (
                        m > first
                        and kind == last_kind
                        and d == last_d + 1
                        and length < _MAX_RUN
                        and (step == stride or length == 1)
                        and abs(step) < _STRIDE_BIAS
                    ):
                        stride = step
                        length += 1
                        span[m - 1] = (
                            last_start_d | (length << 32) | ((stride + _STRIDE_BIAS) << 40)
                        )
                    else:
                        if m == cap:
                            cap *= 2
                            at = _grow(at, cap)
                            span = _grow(span, cap)
                        at[m] = 2 * y + (1 if kind == SAME else 0)
                        span[m] = d | (1 << 32) | (_STRIDE_BIAS << 40)
                        last_start_d = d
                        length = 1
                        stride = 0
                        m += 1
                    last_y = y
                    last_d = d
                    last_kind = kind
                # LOSE adds nothing
            counts[i * nc + ci] = m - first
            consts[i * nc + ci] = const
    # Reorder position-major -> choice-major.
    starts = np.zeros(n * nc + 1, dtype=np.int64)
    for r in range(n * nc):
        starts[r + 1] = starts[r] + counts[r]
    row_ptr = np.zeros(n * nc + 1, dtype=np.int64)
    row_const = np.empty(n * nc)
    run_at = np.empty(m, dtype=np.int64)
    run_span = np.empty(m, dtype=np.int64)
    q = 0
    for ci in range(nc):
        for i in range(n):
            src = i * nc + ci
            dst = ci * n + i
            for j in range(starts[src], starts[src + 1]):
                run_at[q] = at[j]
                run_span[q] = span[j]
                q += 1
            row_ptr[dst + 1] = q
            row_const[dst] = consts[src]
    return row_ptr, row_const, run_at, run_span


# ---------------------------------------------------------------------------------------------
# The value of one choice
# ---------------------------------------------------------------------------------------------
#
# Taking an array out of a tuple, or passing arrays to a function that is not inlined, costs
# two atomic reference-count updates, more than the work of one choice. So kernels unpack the
# model tuple once, at the top, and these helpers are inlined into them. In _solve_sweep the
# helpers still left reference counting inside the loop (a third of its time, measured), so
# its loops are written out in full.


@njit(cache=True, fastmath=_FAST, inline="always")
def _row_value(r, v_self, v_other, dist_prob, row_ptr, row_const, run_at, run_span):
    """The mover's chance of winning in row R."""
    total = row_const[r]
    for j in range(row_ptr[r], row_ptr[r + 1]):
        a = run_at[j]
        s = run_span[j]
        y = a >> 1
        d = s & 0xFFFFFFFF
        stride = (s >> 40) - _STRIDE_BIAS
        acc = 0.0
        if a & 1:
            for k in range((s >> 32) & _MAX_RUN):
                acc += dist_prob[d + k] * v_self[y + k * stride]
            total += acc
        else:
            for k in range((s >> 32) & _MAX_RUN):
                acc += dist_prob[d + k] * v_other[y + k * stride]
            total -= acc
    return total


@njit(cache=True, fastmath=_FAST, inline="always")
def _row_values(r, va, vb, dist_prob, row_ptr, row_const, run_at, run_span):
    """Row R's value for A to move (A's values VA) and for B to move, in one pass."""
    total_a = total_b = row_const[r]
    for j in range(row_ptr[r], row_ptr[r + 1]):
        a = run_at[j]
        s = run_span[j]
        y = a >> 1
        d = s & 0xFFFFFFFF
        stride = (s >> 40) - _STRIDE_BIAS
        acc_a = acc_b = 0.0
        for k in range((s >> 32) & _MAX_RUN):
            p = dist_prob[d + k]
            acc_a += p * va[y + k * stride]
            acc_b += p * vb[y + k * stride]
        if a & 1:
            total_a += acc_a
            total_b += acc_b
        else:
            total_a -= acc_b
            total_b -= acc_a
    return total_a, total_b


@njit(cache=True, inline="always")
def _resolved_value(
    x, c, v_self, v_other, roll_kind, resolve, params, dist_ptr, dist_value, dist_prob
):
    """The mover's chance of winning after choosing C at X, resolving each outcome."""
    k = roll_kind(params, x, c)
    total = 0.0
    for d in range(dist_ptr[k], dist_ptr[k + 1]):
        code = resolve(params, x, c, dist_value[d])
        kind = code & 7
        p = dist_prob[d]
        if kind == OTHER:
            total += p * (1.0 - v_other[code >> 3])
        elif kind == SAME:
            total += p * v_self[code >> 3]
        elif kind == WIN:
            total += p
        elif kind == TIE:
            total += 0.5 * p
    return total


@njit(cache=True, inline="always")
def _memo_value(
    x, c, v_self, v_other, values, stamps, stamp, q_key, roll_kind, resolve, params, dist_ptr,
    dist_value, dist_prob,
):  # fmt: skip
    """Value of choice C at X, resolved once per key of the model's q_key (VALUES/STAMPS: a
    slot per key, valid when its stamp is STAMP); without keys, resolved every time."""
    key = q_key(params, x, c) if len(values) else -1
    if key >= 0 and stamps[key] == stamp:
        return values[key]
    q = _resolved_value(
        x, c, v_self, v_other, roll_kind, resolve, params, dist_ptr, dist_value, dist_prob
    )
    if key >= 0:
        values[key] = q
        stamps[key] = stamp
    return q


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------


@njit(
    types.int64(_CTX, _i8, _i8, types.boolean, _i8, _i8, _i8, _i8, _f8, _f8, types.float64),
    cache=True,
    fastmath=_FAST,
)
def _evaluate_sweep(ctx, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, va, vb, tol):
    """Fill va/vb (A resp. B to move) for fixed policies; return -1 or a stuck level."""
    (roll_kind, resolve, _, params, dist_ptr, dist_value, dist_prob, choices, row_ptr,
     row_const, run_at, run_span) = ctx  # fmt: skip
    n = len(order)
    rows = len(row_ptr) > 1
    c0 = choices[0]
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                ca = tab_a[idx_a[x]]
                cb = tab_b[idx_b[x]]
                if not rows:
                    a = _resolved_value(
                        x, ca, va, vb, roll_kind, resolve, params, dist_ptr, dist_value, dist_prob
                    )
                    b = _resolved_value(
                        x, cb, vb, va, roll_kind, resolve, params, dist_ptr, dist_value, dist_prob
                    )
                elif ca == cb:  # one pass over the row serves both players
                    a, b = _row_values(
                        (ca - c0) * n + i, va, vb, dist_prob, row_ptr, row_const, run_at, run_span
                    )
                else:
                    a = _row_value(
                        (ca - c0) * n + i, va, vb, dist_prob, row_ptr, row_const, run_at, run_span
                    )
                    b = _row_value(
                        (cb - c0) * n + i, vb, va, dist_prob, row_ptr, row_const, run_at, run_span
                    )
                if cyclic:
                    delta = max(delta, abs(a - va[x]), abs(b - vb[x]))
                va[x] = a
                vb[x] = b
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@njit(
    types.UniTuple(types.float64, 3)(
        _CTX, types.int64, types.int8[::1], types.int8[::1], types.int64, types.int64,
        types.int8[::1], _f8,
    ),
    cache=True,
)  # fmt: skip
def _evaluate_reachable(ctx, start, choice_a, choice_b, n_keys, cap, status, value):
    """Both seatings of an acyclic model, visiting only states reachable from START.

    A depth-first search with an explicit stack plays the part of a memoised recursion. A node
    is (key, seat): key = q_key(state, choice), or the state when the model has no q_key; its
    value is the chance that the seat's player (0: A, 1: B), to move there, wins. A frame is
    opened (its outcomes resolved, its unseen successors pushed above it) and later closed (its
    value summed from its successors, all closed by then).

    CHOICE_A/B hold each player's choice at every state, less choices[0], as bytes: the search
    reads them at scattered states, and small arrays stay in cache. STATUS (all 0: unseen; 1
    open, 2 done) and VALUE have a slot per node; the caller keeps them from call to call,
    because fresh memory costs a page fault per page on first touch. The stacks have CAP
    entries, fixed (growing them in the loop would cost reference counting on every step).
    Returns (A first, A second, -1); (0, 0, state) if a state can reach itself; (0, 0, -2) if
    the stacks were too small (call again with more).
    """
    roll_kind, resolve, q_key, params, dist_ptr, dist_value, dist_prob, choices = ctx[:8]
    c0 = choices[0]
    width = 1
    for k in range(len(dist_ptr) - 1):
        width = max(width, dist_ptr[k + 1] - dist_ptr[k])
    f_state = np.empty(cap, dtype=np.int64)
    f_node = np.empty(cap, dtype=np.int64)
    f_edge = np.empty(cap, dtype=np.int64)  # -1 until opened, then its first edge
    f_const = np.empty(cap)
    e_node = np.empty(cap, dtype=np.int64)
    e_prob = np.empty(cap)  # -p for OTHER (value 1 - v), +p for SAME
    e_state = np.empty(cap, dtype=np.int64)
    top = 0
    edges = 0
    roots = np.empty(2, dtype=np.int64)
    for seat in range(2):
        c = c0 + (choice_a[start] if seat == 0 else choice_b[start])
        key = q_key(params, start, c)
        roots[seat] = 2 * (start if key < 0 else key) + seat
        f_state[top] = start
        f_node[top] = roots[seat]
        f_edge[top] = -1
        top += 1
    while top > 0:
        t = top - 1
        node = f_node[t]
        if f_edge[t] < 0:  # open
            if status[node] != 0:
                top -= 1  # a duplicate of a node opened elsewhere: done by now
                continue
            status[node] = 1
            x = f_state[t]
            seat = node & 1
            c = c0 + (choice_a[x] if seat == 0 else choice_b[x])
            k = roll_kind(params, x, c)
            first = f_edge[t] = edges
            if edges + width > cap or top + width > cap:
                return 0.0, 0.0, -2.0
            const = 0.0
            # First the successors (no branch on memory loaded here, so the loads of many
            # outcomes overlap), then their status.
            for d in range(dist_ptr[k], dist_ptr[k + 1]):
                code = resolve(params, x, c, dist_value[d])
                kind = code & 7
                p = dist_prob[d]
                if kind == WIN:
                    const += p
                elif kind == TIE:
                    const += 0.5 * p
                elif kind == OTHER or kind == SAME:
                    y = code >> 3
                    next_seat = seat if kind == SAME else 1 - seat
                    cy = c0 + (choice_a[y] if next_seat == 0 else choice_b[y])
                    key = q_key(params, y, cy)
                    if kind == OTHER:
                        const += p
                    e_node[edges] = 2 * (y if key < 0 else key) + next_seat
                    e_prob[edges] = p if kind == SAME else -p
                    e_state[edges] = y
                    edges += 1
            f_const[t] = const
            for j in range(first, edges):
                child = e_node[j]
                if status[child] == 1:
                    return 0.0, 0.0, float(e_state[j])
                if status[child] == 0:
                    f_state[top] = e_state[j]
                    f_node[top] = child
                    f_edge[top] = -1
                    top += 1
        else:  # close: every successor is done
            total = f_const[t]
            first = f_edge[t]
            for j in range(first, edges):
                total += e_prob[j] * value[e_node[j]]
            value[node] = total
            status[node] = 2
            edges = first
            top -= 1
    return value[roots[0]], 1.0 - value[roots[1]], -1.0


@njit(
    types.int64(
        _CTX, _i8, _i8, types.boolean, _i8, _i8, types.boolean, _f8, _f8, _i8, _MEMO, _MEMO,
        types.float64,
    ),
    cache=True,
    fastmath=_FAST,
)  # fmt: skip
def _solve_sweep(
    ctx, order, level_ptr, cyclic, tab_b, idx_b, against, v_me, v_opp, policy, memo, memo_b, tol
):
    """Best play for the mover: against itself, or (AGAINST) against B's fixed policy.

    Fills v_me, policy (and v_opp when AGAINST); ties between choices go to the earlier one.
    MEMO (and MEMO_B for B's values) serve models without rows that declare a q_key.
    Returns -1, or the level that did not converge. The loops are written out in full (see
    the note above _row_value).
    """
    (roll_kind, resolve, q_key, params, dist_ptr, dist_value, dist_prob, choices, row_ptr,
     row_const, run_at, run_span) = ctx  # fmt: skip
    n = len(order)
    nc = len(choices)
    rows = len(row_ptr) > 1
    c0 = choices[0]
    values, stamps = memo
    values_b, stamps_b = memo_b
    keys = len(values) > 0
    stamp = 1
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            if cyclic:
                stamp += 1  # a cyclic level's choice values change from sweep to sweep
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                best = -1.0
                best_choice = c0
                # ci == nc: B's choice, for B's value (only when against)
                for ci in range(nc + 1 if against else nc):
                    me = ci < nc
                    c = choices[ci] if me else tab_b[idx_b[x]]
                    if rows:
                        r = (c - c0) * n + i
                        q = row_const[r]
                        for j in range(row_ptr[r], row_ptr[r + 1]):
                            a = run_at[j]
                            s = run_span[j]
                            y = a >> 1
                            d = s & 0xFFFFFFFF
                            stride = (s >> 40) - _STRIDE_BIAS
                            acc = 0.0
                            if (a & 1) == 1 and me or (a & 1) == 0 and not me:
                                for k in range((s >> 32) & _MAX_RUN):
                                    acc += dist_prob[d + k] * v_me[y + k * stride]
                            elif against:
                                for k in range((s >> 32) & _MAX_RUN):
                                    acc += dist_prob[d + k] * v_opp[y + k * stride]
                            else:
                                for k in range((s >> 32) & _MAX_RUN):
                                    acc += dist_prob[d + k] * v_me[y + k * stride]
                            q += acc if a & 1 else -acc
                    else:
                        key = q_key(params, x, c) if keys else -1
                        hit = key >= 0 and (stamps[key] if me else stamps_b[key]) == stamp
                        if hit:
                            q = values[key] if me else values_b[key]
                        else:
                            k = roll_kind(params, x, c)
                            q = 0.0
                            for d in range(dist_ptr[k], dist_ptr[k + 1]):
                                code = resolve(params, x, c, dist_value[d])
                                kind = code & 7
                                p = dist_prob[d]
                                if kind == WIN:
                                    q += p
                                elif kind == TIE:
                                    q += 0.5 * p
                                elif kind == OTHER or kind == SAME:
                                    # the mover's own values when SAME, the other side's else
                                    if (kind == SAME) == me:
                                        v = v_me[code >> 3]
                                    elif against:
                                        v = v_opp[code >> 3]
                                    else:
                                        v = v_me[code >> 3]
                                    q += p * v if kind == SAME else p * (1.0 - v)
                            if key >= 0 and me:
                                values[key] = q
                                stamps[key] = stamp
                            elif key >= 0:
                                values_b[key] = q
                                stamps_b[key] = stamp
                    if not me:
                        if cyclic:
                            delta = max(delta, abs(q - v_opp[x]))
                        v_opp[x] = q
                    elif q > best + TIE_MARGIN:
                        best = q
                        best_choice = c
                if cyclic:
                    delta = max(delta, abs(best - v_me[x]))
                v_me[x] = best
                policy[x] = best_choice
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@njit(
    types.int64(
        _CTX, _i8, _i8, types.int32[::1], _i8, types.boolean, _i8, _i8, _i8, _i8, _f8, _f8,
        types.float64, types.int64,
    ),
    cache=True,
)  # fmt: skip
def _reach(ctx, order, level_ptr, level_of, position, cyclic, tab_a, idx_a, tab_b, idx_b, ra, rb,
           tol, max_sweeps):  # fmt: skip
    """Expected visits to each state with A (ra) and B (rb) to move, from the masses given.

    States are taken predecessors first (the model's order backwards); states no one reaches
    are skipped. In an acyclic model one pass moves all mass on (a move may stay in its level,
    as a Pork Chop does, but then to a state earlier in the order). Inside a cyclic level the
    visits solve r = inflow + (moves within the level) r, by iteration, and then the level's
    mass moves on. Returns -1, or the level that did not converge (the pair can loop without
    end).
    """
    (roll_kind, resolve, _, params, dist_ptr, dist_value, dist_prob, choices, row_ptr, _,
     run_at, run_span) = ctx  # fmt: skip
    n = len(order)
    rows = len(row_ptr) > 1
    c0 = choices[0]
    width = 1
    for k in range(len(dist_ptr) - 1):
        width = max(width, dist_ptr[k + 1] - dist_ptr[k])
    ys = np.empty(width, dtype=np.int64)
    kinds = np.empty(width, dtype=np.int64)
    ps = np.empty(width)
    spans = len(level_ptr) - 1 if cyclic else 1  # acyclic: the whole order in one pass
    for level in range(spans - 1, -1, -1):
        lo, hi = (level_ptr[level], level_ptr[level + 1]) if cyclic else (0, n)
        size = hi - lo
        inflow = np.empty(2 * size if cyclic else 0)
        for i in range(lo, hi):
            if cyclic:
                inflow[i - lo] = ra[order[i]]
                inflow[size + i - lo] = rb[order[i]]
        # phase 0 (cyclic levels only, repeated): moves within the level; phase 1: out of it
        sweep = 0
        phase = 0 if cyclic else 1
        while phase < 2:
            new = inflow.copy()
            for i in range(hi - 1, lo - 1, -1):
                x = order[i]
                for seat in range(2):
                    mass = ra[x] if seat == 0 else rb[x]
                    if mass == 0.0:
                        continue
                    c = tab_a[idx_a[x]] if seat == 0 else tab_b[idx_b[x]]
                    # The outcomes that continue the game, into ys/kinds/ps.
                    m = 0
                    if rows:
                        r = (c - c0) * n + i
                        for j in range(row_ptr[r], row_ptr[r + 1]):
                            y = run_at[j] >> 1
                            kind = SAME if run_at[j] & 1 else OTHER
                            d = run_span[j] & 0xFFFFFFFF
                            stride = (run_span[j] >> 40) - _STRIDE_BIAS
                            for k in range((run_span[j] >> 32) & _MAX_RUN):
                                ys[m] = y + k * stride
                                kinds[m] = kind
                                ps[m] = dist_prob[d + k]
                                m += 1
                    else:
                        k = roll_kind(params, x, c)
                        for d in range(dist_ptr[k], dist_ptr[k + 1]):
                            code = resolve(params, x, c, dist_value[d])
                            if code & 7 == OTHER or code & 7 == SAME:
                                ys[m] = code >> 3
                                kinds[m] = code & 7
                                ps[m] = dist_prob[d]
                                m += 1
                    for j in range(m):
                        to_a = (seat == 0) == (kinds[j] == SAME)
                        inside = cyclic and level_of[ys[j]] == level
                        if phase == 0 and inside:
                            new[(0 if to_a else size) + position[ys[j]] - lo] += mass * ps[j]
                        elif phase == 1 and not inside:
                            if to_a:
                                ra[ys[j]] += mass * ps[j]
                            else:
                                rb[ys[j]] += mass * ps[j]
            if phase == 1:
                break
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                delta = max(delta, abs(new[i - lo] - ra[x]), abs(new[size + i - lo] - rb[x]))
                ra[x] = new[i - lo]
                rb[x] = new[size + i - lo]
            sweep += 1
            if delta < tol:
                phase = 1
            elif sweep >= max_sweeps:
                return level
    return -1


@njit(_f8(_CTX, _i8, _i8, _i8, _f8, _f8, _MEMO), cache=True, fastmath=_FAST)
def _policy_q(ctx, order, tab, idx, v_self, v_other, memo):
    """The value of the policy's own choice at each state (0 outside ORDER)."""
    (roll_kind, resolve, q_key, params, dist_ptr, dist_value, dist_prob, choices, row_ptr,
     row_const, run_at, run_span) = ctx  # fmt: skip
    n = len(order)
    rows = len(row_ptr) > 1
    values, stamps = memo
    out = np.zeros(len(v_self))
    for i in range(n):
        x = order[i]
        c = tab[idx[x]]
        if rows:
            out[x] = _row_value(
                (c - choices[0]) * n + i, v_self, v_other, dist_prob, row_ptr, row_const, run_at,
                run_span,
            )  # fmt: skip
        else:
            out[x] = _memo_value(
                x, c, v_self, v_other, values, stamps, 1, q_key, roll_kind, resolve, params,
                dist_ptr, dist_value, dist_prob,
            )  # fmt: skip
    return out


@njit(
    types.float64[:, ::1](_CTX, _i8, _i8, _f8, types.int64, _f8, _f8, _MEMO),
    cache=True,
    fastmath=_FAST,
)
def _weighted_q(ctx, order, observation, weight, n_obs, v_self, v_other, memo):
    """Sum over the states of each observation of weight * (value of each choice)."""
    (roll_kind, resolve, q_key, params, dist_ptr, dist_value, dist_prob, choices, row_ptr,
     row_const, run_at, run_span) = ctx  # fmt: skip
    n = len(order)
    rows = len(row_ptr) > 1
    values, stamps = memo
    out = np.zeros((n_obs, len(choices)))
    for i in range(n):
        x = order[i]
        w = weight[x]
        if w > 0.0:
            o = observation[x]
            for ci in range(len(choices)):
                if rows:
                    q = _row_value(
                        ci * n + i, v_self, v_other, dist_prob, row_ptr, row_const, run_at,
                        run_span,
                    )  # fmt: skip
                else:
                    q = _memo_value(
                        x, choices[ci], v_self, v_other, values, stamps, 1, q_key, roll_kind,
                        resolve, params, dist_ptr, dist_value, dist_prob,
                    )  # fmt: skip
                out[o, ci] += w * q
    return out


# ---------------------------------------------------------------------------------------------
# The model as the kernels take it
# ---------------------------------------------------------------------------------------------


@dataclass
class _Workspace:
    """Buffers of the reachable-states search, kept between calls (see _evaluate_reachable)."""

    choice_a: np.ndarray
    choice_b: np.ndarray
    status: np.ndarray
    value: np.ndarray


@dataclass
class _Engine:
    """A model prepared for the kernels, built once per model and kept on it."""

    ctx: tuple
    rows: bool  # every (state, choice) resolved into rows
    n_keys: int  # size of a choice-value memo (0: the model declares no q_key)
    identity: np.ndarray  # the index of a per-state policy
    level_of: np.ndarray  # state -> its level (-1: never played)
    position: np.ndarray  # state -> its position in the model's order (-1: never played)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _workspace: _Workspace | None = None

    def workspace(self, nodes: int) -> _Workspace:
        if self._workspace is None:
            n = len(self.identity)
            self._workspace = _Workspace(
                np.empty(n, np.int8), np.empty(n, np.int8), np.zeros(nodes, np.int8),
                np.empty(nodes),
            )  # fmt: skip
        return self._workspace


def engine(model: GameModel) -> _Engine:
    """The kernels' view of MODEL (rows included when they fit), cached on the model."""
    cached = model.__dict__.get("_exact_engine")
    if cached is not None:
        return cached
    m = model
    assert np.array_equal(m.choices, np.arange(m.choices[0], m.choices[0] + len(m.choices))), (
        "choices must be consecutive integers"
    )
    q_key = getattr(m, "q_key", None)
    size = _count_entries(m.roll_kind, m.params, m.order, m.choices, m.dist_ptr)
    if size <= MAX_ROW_ENTRIES:
        rows = _build_rows(
            m.roll_kind, m.resolve, m.params, m.order, m.choices, m.dist_ptr, m.dist_value,
            m.dist_prob,
        )  # fmt: skip
    else:
        rows = (np.zeros(1, np.int64), np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64))
    level_of = np.full(m.n_states, -1, dtype=np.int32)
    for level in range(len(m.level_ptr) - 1):
        level_of[m.order[m.level_ptr[level] : m.level_ptr[level + 1]]] = level
    position = np.full(m.n_states, -1, dtype=np.int64)
    position[m.order] = np.arange(len(m.order))
    ctx = (
        m.roll_kind, m.resolve, q_key or _no_key, m.params, m.dist_ptr, m.dist_value,
        m.dist_prob, m.choices, *rows,
    )  # fmt: skip
    built = _Engine(
        ctx=ctx,
        rows=size <= MAX_ROW_ENTRIES,
        n_keys=int(getattr(m, "n_keys", 0)) if q_key is not None else 0,
        identity=np.arange(m.n_states, dtype=np.int64),
        level_of=level_of,
        position=position,
    )
    m.__dict__["_exact_engine"] = built  # a frozen dataclass still has a __dict__
    return built


def game_tuple(model: GameModel) -> tuple:
    """The model as the Monte Carlo kernels take it (functions, tables, transitions)."""
    m = model
    t = m.transitions
    return (
        m.roll_kind, m.resolve, m.params, m.dist_ptr, m.dist_value, m.dist_prob, m.choices,
        t.row_ptr, t.codes, t.probs,
    )  # fmt: skip


def _memo(size: int) -> tuple[np.ndarray, np.ndarray]:
    return np.empty(size), np.zeros(size, dtype=np.int64)


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
    """A choice for every state: ``table[index[state]]``."""

    table: np.ndarray
    index: np.ndarray


def table_policy(model: GameModel, table: np.ndarray) -> Policy:
    """A decision table (one choice per observation) as a policy."""
    return Policy(_as_table(table), model.observation)


def state_policy(model: GameModel, policy: np.ndarray) -> Policy:
    """A choice per state (as ``solve`` finds) as a policy."""
    return Policy(_as_table(policy), engine(model).identity)


def evaluate(rules: RuleSet, table_a: np.ndarray, table_b: np.ndarray) -> SeatValues:
    """Exact chances that strategy A (decision table) beats strategy B, in both seatings."""
    m = rules.model
    return evaluate_policies(rules, table_policy(m, table_a), table_policy(m, table_b))


def evaluate_policies(rules: RuleSet, a: Policy, b: Policy, *, values: bool = False) -> SeatValues:
    """Like ``evaluate`` for policies; VALUES asks for the per-state values in any case."""
    m = rules.model
    e = engine(m)
    if not e.rows and not m.cyclic and not values:
        n_keys = e.n_keys or m.n_states
        with e.lock:
            ws = e.workspace(2 * n_keys)
            np.take((a.table - m.choices[0]).astype(np.int8), a.index, out=ws.choice_a)
            np.take((b.table - m.choices[0]).astype(np.int8), b.index, out=ws.choice_b)
            # A path of the search moves down the levels, so it is rarely much longer.
            cap = 4 * len(m.level_ptr) * (int(np.diff(m.dist_ptr).max()) + 1)
            while True:
                first, second, stuck = _evaluate_reachable(
                    e.ctx, m.start, ws.choice_a, ws.choice_b, n_keys, cap, ws.status, ws.value
                )
                ws.status[:] = 0
                if stuck != -2:
                    break
                cap *= 4
        if stuck >= 0:
            raise HogbenchError(
                f"{rules.name}: state {rules.describe_state(int(stuck))} can reach itself"
                " in a model declared acyclic"
            )
        return SeatValues(first=float(first), second=float(second), v_a=None, v_b=None)
    va = np.zeros(m.n_states)
    vb = np.zeros(m.n_states)
    stuck = _evaluate_sweep(
        e.ctx, m.order, m.level_ptr, m.cyclic, a.table, a.index, b.table, b.index, va, vb,
        TOLERANCE,
    )  # fmt: skip
    _check_converged(rules, stuck)
    return SeatValues(first=float(va[m.start]), second=float(1.0 - vb[m.start]), v_a=va, v_b=vb)


@dataclass(frozen=True)
class Solution:
    """Optimal play for the mover at every state (against itself, or against one strategy)."""

    policy: np.ndarray  # state -> best choice
    v_me: np.ndarray  # the solver's chance of winning with it to move
    v_opp: np.ndarray  # the opponent's chance with it to move (same array when self-play)
    start: int
    against: Policy | None = None

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
    v_me = np.zeros(m.n_states)
    v_opp = np.zeros(m.n_states) if against is not None else v_me
    policy = np.zeros(m.n_states, dtype=np.int64)
    none = np.zeros(1, dtype=np.int64)
    stuck = _solve_sweep(
        e.ctx, m.order, m.level_ptr, m.cyclic,
        against.table if against is not None else none,
        against.index if against is not None else none,
        against is not None, v_me, v_opp, policy,
        _memo(e.n_keys), _memo(e.n_keys if against is not None else 0), TOLERANCE,
    )  # fmt: skip
    _check_converged(rules, stuck)
    return Solution(policy=policy, v_me=v_me, v_opp=v_opp, start=m.start, against=against)


def reach(rules: RuleSet, a: Policy, b: Policy) -> tuple[np.ndarray, np.ndarray]:
    """Chance of each state occurring with A (resp. B) to move, averaged over both seatings.

    In acyclic models a state occurs at most once in a game, so these are probabilities; in
    cyclic ones they are expected numbers of visits.
    """
    m = rules.model
    e = engine(m)
    ra = np.zeros(m.n_states)
    rb = np.zeros(m.n_states)
    ra[m.start] += 0.5
    rb[m.start] += 0.5
    stuck = _reach(
        e.ctx, m.order, m.level_ptr, e.level_of, e.position, m.cyclic, a.table, a.index, b.table, b.index,
        ra, rb, TOLERANCE, 100_000,
    )  # fmt: skip
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: this pair of strategies can loop without end (level {stuck})"
        )
    return ra, rb


def choice_values(
    rules: RuleSet, policy: Policy, v_self: np.ndarray, v_other: np.ndarray
) -> np.ndarray:
    """At each state, the mover's chance of winning with POLICY's choice there, when the values
    afterwards are V_SELF (the mover to move) and V_OTHER (the opponent to move)."""
    m = rules.model
    e = engine(m)
    return _policy_q(e.ctx, m.order, policy.table, policy.index, v_self, v_other, _memo(e.n_keys))


def observation_values(
    rules: RuleSet, weight: np.ndarray, v_self: np.ndarray, v_other: np.ndarray
) -> np.ndarray:
    """W[o, i]: sum over the states x of observation o of weight[x] * Q(x, choices[i])."""
    m = rules.model
    e = engine(m)
    n_obs = int(np.prod(rules.obs_shape))
    return _weighted_q(
        e.ctx, m.order, m.observation, np.ascontiguousarray(weight, dtype=np.float64), n_obs,
        v_self, v_other, _memo(e.n_keys),
    )  # fmt: skip


def model_q(model: GameModel, v_me: np.ndarray, v_other: np.ndarray) -> np.ndarray:
    """Q[x, i] for every state and every legal choice (small models only)."""
    e = engine(model)
    q = np.zeros((model.n_states, len(model.choices)))
    for i, c in enumerate(model.choices):
        table = np.full(1, c, dtype=np.int64)
        q[:, i] = _policy_q(
            e.ctx, model.order, table, np.zeros(model.n_states, dtype=np.int64), v_me, v_other,
            _memo(e.n_keys),
        )  # fmt: skip
    return q


# ---------------------------------------------------------------------------------------------
# The course's experiments, exactly
# ---------------------------------------------------------------------------------------------


def expected_turn_scores(rules: RuleSet, sides: int = 6) -> dict[int, float]:
    """The exact mean of ``roll_dice(n, dice)`` for n = 1..10 with fair SIDES-sided dice.

    Computed from the rule module's own ``dice_points`` (the function the model's dice
    distributions are built from), enumerated over every roll: what the course's
    ``max_scoring_num_rolls`` experiment estimates.
    """
    import importlib

    from hogbench.rules.base import dice_distribution

    module = importlib.import_module(type(rules).__module__)
    points = getattr(module, "dice_points", None)
    if points is None:
        raise HogbenchError(f"{rules.name} has no dice_points rule: no turn-score experiment")
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
