"""Evaluation: the exact chances of two fixed strategies (decision tables or per-state
policies), from rows, by sweeps that resolve outcomes on the spot, or by a search of the states
the two strategies reach."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from hogbench.errors import HogbenchError
from hogbench.exact import plan
from hogbench.exact.core import (
    _FAST,
    F8,
    I8,
    MAX_SWEEPS,
    OPEN,
    ROWS,
    RULES,
    TOLERANCE,
    UNSEEN,
    Policy,
    SeatValues,
    check_converged,
    extrapolation_step,
    level_sweeps,
    level_width,
    resolved_value,
    row_sum,
)
from hogbench.exact.intrinsics import LANES, line_sums, prefetch
from hogbench.exact.memory import evaluate_tables
from hogbench.exact.plan import Evaluator
from hogbench.exact.rows import engine
from hogbench.jit import kernel
from hogbench.players import engine_table
from hogbench.rules.base import (
    OTHER,
    SAME,
    TIE,
    WIN,
    GameModel,
    RuleSet,
    check_answers,
    fast_divide,
    widest_roll,
)


@njit(cache=True, fastmath=_FAST, inline="always")
def _row_values(i, x, w, data):
    """A's and B's values at x (the i-th state of the order), from their rows."""
    rows, tab_a, idx_a, tab_b, idx_b, n = data
    choices, row_ptr, row_const, row_to, row_p = rows
    c0 = choices[0]
    ra = (tab_a[idx_a[x]] - c0) * n + i
    rb = (tab_b[idx_b[x]] - c0) * n + i
    a = row_sum(ra, 0, w, row_ptr, row_const, row_to, row_p)
    b = row_sum(rb, 1, w, row_ptr, row_const, row_to, row_p)
    return a, b


_sweep_rows = level_sweeps(_row_values)


@kernel(
    types.int64(ROWS, I8, I8, types.boolean, I8, I8, I8, I8, F8, types.float64),
    fastmath=_FAST,
)
def _evaluate_rows(rows, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, w, tol):
    """Fill w (w[2x]: A to move at x, w[2x+1]: B) for fixed policies, from rows; return -1 or a
    level that did not converge. An acyclic model is one pass over the order. (Serving both
    players from one pass over a row when they choose alike was slower, measured.)"""
    data = (rows, tab_a, idx_a, tab_b, idx_b, len(order))
    return _sweep_rows(order, level_ptr, cyclic, w, tol, data)


#: The grid kernel's tables (each column one table, its choices at an observation side by side)
#: and values (a place's values of a row of pairs side by side).
TABLES = types.int64[:, ::1]
VALUES = types.float64[:, :, ::1]

#: Tables a side of one pass of the grid kernel: GRID x GRID pairs, whose values at every state
#: it keeps twice (20 MB in Hog). Measured per pair over 32 by 32 tables, one core, when the
#: kernel summed over a row of pairs in a loop: 0.77 ms at 4 by 4, 0.50 ms at 8 by 8, 0.54 ms
#: at 16 by 16; 0.60 ms at 8 by 16. A row's sums are now one vector (``line_sums``), so
#: GRID is its number of lanes, one cache line of values.
GRID = LANES


@kernel(types.void(ROWS, I8, TABLES, I8, TABLES, VALUES, VALUES), fastmath=_FAST)
def _evaluate_rows_grid(rows, order, tabs_a, index, tabs_b, wa, wb):
    """An acyclic model: each of 8 strategies (the columns of TABS_A: the 8 choices at an
    observation side by side) against each of 8 (TABS_B), in one pass over the order. A pair's
    value at place t (2x: its A to move at x, 2x + 1: its B) is kept twice, as wa[t, a, b]
    and as wb[t ^ 1, b, a]: in wb, 2x is where B moves, so that B reads the rows as A does.

    A's row at a state is read once for all 8 opponents, summing wa over contiguous b; B's
    once for all 8 of A, summing wb over contiguous a. Either way a successor's values for a
    row's pairs are one cache line, where one entrant against many read one for each of its
    opponents' values (measured over 32 by 32 tables, one core: 0.50 ms a pair, against 0.75
    ms for one entrant against 32 opponents at a time). A row's eight sums are one vector
    (``line_sums``): one load of a cache line and one multiply-add per outcome (16 tables
    like the benchmark's, one core: 0.20 ms a pair, against 0.30 with eight sums spelt out,
    which the compiler vectorised across outcomes instead, gathering every value on its own;
    0.34 for a loop of eight over an array, which went through memory). Indices are
    unsigned, which spares numba's check for negative ones; B's places trade as above, which
    spares a flip of every successor's place (0.30 ms with it).

    Where the time goes (16 such tables, CPU time, medians on a busy machine): 0.14-0.16 ms a
    pair; 0.07-0.09 ms with the same rows and arithmetic when every successor's place is made
    0 or 1, so its values are always in the first-level cache; 0.25 ms with the places
    shuffled. So about half is waiting for values: a pass keeps 64 pairs' values, 1 KB a
    state in each of wa and wb, and a level's successors span some 36 levels (about 7 MB),
    far more than a core's 1 MB second-level cache. Tried and not kept, as the whole
    evaluate_grid was no faster, measured side by side: entries as one 32-bit code (place,
    and the index of its chance among Hog's 288), a state's rows side by side, places by
    position in the order (the kernel alone 1.07 times faster, 1.49 with the values near);
    the values on 64-byte boundaries; four partial sums per row; asking for the next
    state's successor values early."""
    n = len(order)
    c0 = rows[0][0]
    _, row_ptr, _, row_to, row_p = rows
    flat_a, flat_b = wa.reshape(-1), wb.reshape(-1)
    for i in range(n):
        x, o = order[i], index[order[i]]
        # The 16 rows of a state lie far apart (a row for each choice, 26 MB of rows in Hog):
        # asked for two states early, they do not wait in turn (10% with two processes busy).
        if i + 2 < n:
            ahead = index[order[i + 2]]
            for a in range(8):
                for tabs in (tabs_a, tabs_b):
                    lo = row_ptr[(tabs[ahead, a] - c0) * n + i + 2]
                    prefetch(row_to, lo)
                    prefetch(row_p, lo)
        _grid_rows(rows, c0, n, i, tabs_a, o, x, flat_a, flat_b)  # A moves at x
        _grid_rows(rows, c0, n, i, tabs_b, o, x, flat_b, flat_a)  # B moves at x


@njit(cache=True, fastmath=_FAST, inline="always")
def _grid_rows(rows, c0, n, i, tabs, o, x, mover, opponent):
    """The values at x of 8 movers (their choices TABS[O] at x, the i-th state of the order)
    against 8 opponents each, from the values at the successors in MOVER: mover[2x, a, :]
    and opponent[2x + 1, :, a]."""
    _, row_ptr, row_const, row_to, row_p = rows
    u = np.uint64
    here = u(x) * u(128)
    for a in range(8):
        r = u((tabs[o, a] - c0) * n + i)
        s0, s1, s2, s3, s4, s5, s6, s7 = line_sums(
            row_const[r], row_to, row_p, row_ptr[r], row_ptr[r + u(1)], mover, 64, a * 8
        )
        at = here + u(a) * u(8)  # mover[2x, a, :]
        mover[at], mover[at + u(1)], mover[at + u(2)], mover[at + u(3)] = s0, s1, s2, s3
        mover[at + u(4)], mover[at + u(5)], mover[at + u(6)] = s4, s5, s6
        mover[at + u(7)] = s7
        at = here + u(64) + u(a)  # opponent[2x + 1, :, a]
        opponent[at], opponent[at + u(8)], opponent[at + u(16)] = s0, s1, s2
        opponent[at + u(24)], opponent[at + u(32)], opponent[at + u(40)] = s3, s4, s5
        opponent[at + u(48)], opponent[at + u(56)] = s6, s7


@kernel(
    types.int64(RULES, I8, I8, types.boolean, I8, I8, I8, I8, F8, types.float64),
)
def _evaluate_sweep(rules, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, w, tol):
    """Like _evaluate_rows, for models without rows: each outcome resolved on the spot. Its
    loop is ``core.level_sweeps`` written out: through the factory, with the rule functions
    taken from a tuple at each state, a hog-su20 sweep took 1.1 times as long (measured side
    by side, 200 against 180 ms at goal 60)."""
    roll_kind, resolve, _, resolve_row, by_row, params, dist_ptr, dist_value, dist_prob, _ = rules
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    width = level_width(level_ptr) if cyclic else 0
    first, second = np.empty(2 * width), np.empty(2 * width)
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for sweep in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                a = resolved_value(
                    x, tab_a[idx_a[x]], 0, w, roll_kind, resolve, resolve_row, by_row, params,
                    dist_ptr, dist_value, dist_prob, codes,
                )  # fmt: skip
                b = resolved_value(
                    x, tab_b[idx_b[x]], 1, w, roll_kind, resolve, resolve_row, by_row, params,
                    dist_ptr, dist_value, dist_prob, codes,
                )  # fmt: skip
                if cyclic:
                    delta = max(delta, abs(a - w[2 * x]), abs(b - w[2 * x + 1]))
                w[2 * x] = a
                w[2 * x + 1] = b
            if not cyclic or delta < tol:
                break
            extrapolation_step(sweep, order, lo, hi, w, first, second)
        else:
            return level
    return -1


@njit(cache=True, inline="always")
def _wrap(x, period, multiplier):
    """x % period, with a multiplier from ``divider(period, n_states)``."""
    return x - fast_divide(x, period, multiplier) * period


@njit(cache=True)
def _forget(value, opened, n_opened, flag):
    """Mark the first N_OPENED nodes of OPENED unseen again; (0, 0, FLAG)."""
    for i in range(n_opened):
        value[opened[i]] = UNSEEN
    return 0.0, 0.0, flag


@kernel(
    types.UniTuple(types.float64, 3)(
        RULES, types.int64, I8, types.int64, types.int64, I8, types.int64, types.int64,
        types.int64, F8, I8,
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
        node = np.uint64(f_node[t])  # unsigned indices: numba checks no sign (see row_sum)
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
            if by_row:  # resolve_all, written out (see "Kernels")
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


def table_policy(model: GameModel, table: np.ndarray) -> Policy:
    """A decision table (one choice per observation) as a policy."""
    check_answers(model, [table])  # the kernels index outcomes by the answer
    return Policy(engine_table(table), model.observation, engine(model).observation_period)


def state_policy(model: GameModel, policy: np.ndarray) -> Policy:
    """A choice per state (as ``solve`` finds) as a policy."""
    return Policy(engine_table(policy), engine(model).identity, model.n_states)


def evaluate(rules: RuleSet, table_a: np.ndarray, table_b: np.ndarray) -> SeatValues:
    """Exact chances that strategy A (decision table) beats strategy B, in both seatings."""
    m = rules.fit(table_a, table_b)
    if plan.choose(engine(m)) is Evaluator.TURNS:  # whole turns take tables as kept (int8)
        from hogbench.exact.turns import evaluate_turns

        a, b = (Policy(np.asarray(t).reshape(-1), m.observation) for t in (table_a, table_b))
        return evaluate_turns(rules, a, b)
    return evaluate_policies(rules, table_policy(m, table_a), table_policy(m, table_b))


def evaluate_grid(
    rules: RuleSet, tables_a: list[np.ndarray], tables_b: list[np.ndarray], wanted: np.ndarray
) -> np.ndarray:
    """Exact chances of each of TABLES_A against each of TABLES_B where WANTED[i, j] says so
    (a tournament's batch: a tile of its pair matrix), without the per-state values:
    values[i, j] = (A_i first, A_i second), NaN where not wanted. Where the model is acyclic
    and has rows, GRID by GRID pairs a pass, skipping the passes with no pair wanted; else pair
    by pair, each A against its opponents in turn (whole-turn models keep the tables they met
    last)."""
    m = rules.fit(*tables_a, *tables_b)
    e = engine(m)
    values = np.full((len(tables_a), len(tables_b), 2), np.nan)
    if plan.choose(e, batch=True) is not Evaluator.GRID:
        for i, j in zip(*np.nonzero(wanted), strict=True):
            v = evaluate(rules, tables_a[i], tables_b[j])
            values[i, j] = v.first, v.second
        return values
    tabs_a, tabs_b = (
        np.stack([engine_table(t) for t in ts], axis=1) for ts in (tables_a, tables_b)
    )
    places = 2 * m.n_states
    wa, wb = np.empty((places, GRID, GRID)), np.empty((places, GRID, GRID))
    for lo_a in range(0, len(tables_a), GRID):
        ta = _grid_side(tabs_a[:, lo_a : lo_a + GRID])
        for lo_b in range(0, len(tables_b), GRID):
            tb = _grid_side(tabs_b[:, lo_b : lo_b + GRID])
            ka, kb = min(GRID, len(tables_a) - lo_a), min(GRID, len(tables_b) - lo_b)
            if not wanted[lo_a : lo_a + ka, lo_b : lo_b + kb].any():
                continue
            _evaluate_rows_grid(e.rows, m.order, ta, m.observation, tb, wa, wb)
            values[lo_a : lo_a + ka, lo_b : lo_b + kb, 0] = wa[2 * m.start, :ka, :kb]
            values[lo_a : lo_a + ka, lo_b : lo_b + kb, 1] = 1.0 - wa[2 * m.start + 1, :ka, :kb]
    values[~wanted] = np.nan
    return values


def _grid_side(tables: np.ndarray) -> np.ndarray:
    """GRID tables side by side for the grid kernel; fewer are filled up with the last one,
    whose extra pairs are computed and not read."""
    missing = GRID - tables.shape[1]
    return np.ascontiguousarray(np.pad(tables, ((0, 0), (0, missing)), mode="edge"))


def opponents_at_once(rules: RuleSet) -> int | None:
    """How many opponents a round robin should give each entrant at a time (None: all of a
    batch). Whole-turn models (Pig, Big Pig) keep a few tables' turn rows, so each entrant
    meets a block of that many before the next block, and each table's turns are made about
    once per block instead of once per pair."""
    m = rules.model
    if m.turn_starts is None:
        return None
    from hogbench.exact import turns

    return turns.opponents_at_once(m)


def evaluate_policies(rules: RuleSet, a: Policy, b: Policy, *, values: bool = False) -> SeatValues:
    """Like ``evaluate`` for policies; VALUES asks for the per-state values in any case."""
    m = rules.model
    e = engine(m)
    tables = a.period == b.period == e.observation_period != 0
    how = plan.choose(
        e,
        tables=tables,
        periodic=bool(a.period and b.period),
        values=values,
        # asked last, and only where it decides: it counts the process's pairs of tables
        memory_rows_ready=e.memories and tables and not values and e.on_memory_rows(),
    )
    if how is Evaluator.MEMORY_ROWS:
        with e.lock:
            first, second = evaluate_tables(m, e.memory_rows, a.table, b.table, e.memory_values)
        return SeatValues(first=float(first), second=float(second), v_a=None, v_b=None)
    if how is Evaluator.TURNS:
        from hogbench.exact.turns import evaluate_turns

        return evaluate_turns(rules, a, b)
    if how is Evaluator.REACHABLE:
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
    # ROWS_PASS, ROWS_SWEEPS (one kernel: a pass is a sweep of each level) or SWEEP
    kernel, model = (
        (_evaluate_rows, e.rows) if how is not Evaluator.SWEEP else (_evaluate_sweep, e.rules)
    )
    with e.lock:
        w = e.values()
        stuck = kernel(
            model, m.order, m.level_ptr, m.cyclic, a.table, a.index, b.table, b.index, w,
            TOLERANCE,
        )  # fmt: skip
        check_converged(rules, stuck)
        return SeatValues(
            first=float(w[2 * m.start]),
            second=float(1.0 - w[2 * m.start + 1]),
            v_a=w[0::2].copy(),
            v_b=w[1::2].copy(),
        )
