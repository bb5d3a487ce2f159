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
from hogbench.exact.intrinsics import LANES, grid_values, prefetch
from hogbench.exact.memory import evaluate_tables
from hogbench.exact.plan import Evaluator
from hogbench.exact.policies import kept_table_policy, table_policy
from hogbench.exact.rows import engine
from hogbench.jit import kernel
from hogbench.rules.base import (
    OTHER,
    SAME,
    TIE,
    WIN,
    RuleSet,
    fast_divide,
    widest_roll,
)
from hogbench.tables import engine_table


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


#: The grid kernel's tables: each column one table, its choices' indices at an observation side
#: by side.
TABLES = types.int64[:, ::1]
#: The grid rows as the kernel takes them (``rows.GridRows``, its first seven fields).
GRID_ROWS = types.Tuple((I8, F8, types.uint32[::1], F8, types.int64, I8, I8))

#: Tables a side of one pass of the grid kernel: GRID x GRID pairs, whose values at a slot it
#: keeps in one place of 64 values (see ``grid_values``). Measured per pair over 32 by 32
#: tables, one core, when the kernel summed over a row of pairs in a loop: 0.77 ms at 4 by 4,
#: 0.50 ms at 8 by 8, 0.54 ms at 16 by 16; 0.60 ms at 8 by 16. A row's sums are now one vector,
#: so GRID is its number of lanes, one cache line of values.
GRID = LANES


@kernel(types.void(GRID_ROWS, I8, TABLES, TABLES, F8), fastmath=_FAST)
def _evaluate_rows_grid(grid, observation, tabs_a, tabs_b, values):
    """An acyclic model: each of 8 strategies (the columns of TABS_A: the indices of their 8
    choices at an observation side by side) against each of 8 (TABS_B), in one pass over the
    order. VALUES has a place of 64 values for each player to move at each slot (see
    ``grid_values`` for their layout): the values of the state that last took the slot.

    A's row at a state is read once for all 8 opponents, B's once for all 8 of A: either way a
    successor's values for a row's pairs are one cache line, one multiply-add of a vector per
    outcome. A side's eight sums are transposed in registers and stored as whole lines (and,
    for a state some row reaches with the same player to move again, stored as they are in a
    second slot).

    Where the time goes (16 benchmark-like hog-su21 tables, one core, CPU time, medians,
    measured side by side, the machine's other core busy with other work; "the grid" is
    ``evaluate_grid`` of 16 by 16, as bench/exact.py times it, "the kernel" one pass).

    Before: the kernel kept each pair's values twice (the mover's row and the opponent's) at
    every state, 20 MB for 64 pairs, and read rows of 12 bytes an entry: the grid 0.15-0.19
    ms a pair. The kernel 0.14-0.15 ms; 0.08-0.09 when every successor was made place 0 or 1,
    so its values were always in the first-level cache: half the time waited for values.
    Reads here beyond some 4 MB wait for main memory (a chase of random lines: 150-185 ns
    from 8 MB up, 20 ns within 4 MB; the last-level cache is shared with the other core).

    What made it faster, each step measured side by side: values kept by slot, the states
    alive at once (3738 of hog-su21's 10000), once and not twice, rows as 32-bit codes (a
    chance's index among 288) and a side's sums stored as whole lines: the kernel 0.09-0.10 ms
    against 0.14-0.15 (the stores alone 0.136 against 0.146). A second slot for the 1080 states
    reached with the same player to move again, instead of gathering a column from eight
    lines: the grid 0.093-0.096 against 0.096-0.101. One loop a row instead of two (the sign
    in the chance): the grid 0.083-0.094 against 0.092-0.114. In all, three runs each,
    alternating, at load average 20: the grid 0.080-0.088 ms a pair against 0.179-0.185 with
    the core to itself for the few seconds of a run (real-time priority), 0.107-0.122 against
    0.158-0.167 sharing it with the other work.

    Where the limit lies now (the kernel, two runs a minute apart): 0.063-0.082 ms a pair;
    0.033-0.038 with every value in the first-level cache, the rows' own work (some 190
    entries a state in 16 rows, a load of a code, of a chance and of a line of values, and a
    multiply-add each); 0.008-0.010 with empty rows (a state's bookkeeping and stores). The
    rest, about half, is waiting for values: the slots take 4.2 MB for 64 pairs, at the edge
    of what stays in cache here. Fewer pairs a pass would fit, but each row's work would then
    serve fewer pairs; more would not fit.

    Tried and not kept (no gain side by side, or a loss): reordering the states (in tiles of
    score ranges, or in shells of the lower score, which cut simulated second-level cache
    misses threefold), before and after the slots; taking freed slots first in, first out;
    asking for the next state's successor values early (0.14 against 0.105); asking for rows
    without keeping them in cache; values on 2 MB boundaries; rows padded to blocks of 2 or 4
    entries so that a row's loop has no remainder; rows asked for 1 or 4 states early instead
    of 2; the values kept twice, by slot (0.117 against 0.100)."""
    row_ptr, row_const, codes, chances, chance_bits, slot, second = grid
    n = len(slot)
    for i in range(n):
        o = observation[i]
        # The 16 rows of a state lie far apart (a row for each choice): asked for two states
        # early, they do not wait in turn.
        if i + 2 < n:
            ahead = observation[i + 2]
            for a in range(GRID):
                prefetch(codes, row_ptr[tabs_a[ahead, a] * n + i + 2])
                prefetch(codes, row_ptr[tabs_b[ahead, a] * n + i + 2])
        here = slot[i] * 2 * GRID * GRID
        grid_values(
            row_ptr, row_const, codes, chances, chance_bits, tabs_a, o, n, i, values, 0, here,
            second[i],
        )  # A moves at the state  # fmt: skip
        grid_values(
            row_ptr, row_const, codes, chances, chance_bits, tabs_b, o, n, i, values, 1,
            here + GRID * GRID, second[i],
        )  # B moves at the state  # fmt: skip


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


def evaluate(
    rules: RuleSet,
    table_a: np.ndarray,
    table_b: np.ndarray,
    *,
    method: Evaluator | str | None = None,
) -> SeatValues:
    """Exact chances that strategy A (decision table) beats strategy B, in both seatings.

    METHOD names the evaluator (``plan.Evaluator``, e.g. "rows_pass" or "reachable"); by
    default ``plan.choose`` picks it. Every evaluator gives the same values; one the model or
    the request cannot take is an error that says why."""
    m = rules.fit(table_a, table_b)
    e = engine(m)
    how = plan.choose(e) if method is None else _evaluator(rules, e, method, tables=True)
    if how is Evaluator.TURNS:  # whole turns take tables as kept (int8)
        from hogbench.exact.turns import evaluate_turns

        a, b = (kept_table_policy(m, t) for t in (table_a, table_b))
        return evaluate_turns(rules, a, b)
    a, b = table_policy(m, table_a), table_policy(m, table_b)
    return evaluate_policies(rules, a, b, method=method)


def _evaluator(
    rules: RuleSet, e: plan.ModelFacts, method: Evaluator | str, **asked: bool
) -> Evaluator:
    """The evaluator METHOD names, if it can value the pair ASKED of on the engine E of RULES'
    model (``plan.refusal``)."""
    try:
        how = plan.named(method)
    except ValueError as exc:
        raise HogbenchError(str(exc)) from None
    why = plan.refusal(how, e, **asked)
    if why is not None:
        raise HogbenchError(f"{rules.name}: evaluating by {how.name.lower()} {why}")
    return how


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
    grid = e.grid_rows if plan.choose(e, batch=True) is Evaluator.GRID else None
    if grid is None:  # (or its rows' codes would not fit in 32 bits: no rule set so far)
        for i, j in zip(*np.nonzero(wanted), strict=True):
            v = evaluate(rules, tables_a[i], tables_b[j])
            values[i, j] = v.first, v.second
        return values
    c0 = m.choices[0]
    tabs_a, tabs_b = (
        np.stack([engine_table(t) - c0 for t in ts], axis=1) for ts in (tables_a, tables_b)
    )
    start = 2 * grid.start_slot * GRID * GRID
    kernel_rows = tuple(grid[:7])
    with e.lock:
        w = e.grid_values(grid.n_places * GRID * GRID)
        _grid_passes(kernel_rows, grid.observation, tabs_a, tabs_b, wanted, w, start, values)
    values[~wanted] = np.nan
    return values


def _grid_passes(
    kernel_rows: tuple, observation: np.ndarray, tabs_a: np.ndarray, tabs_b: np.ndarray,
    wanted: np.ndarray, w: np.ndarray, start: int, values: np.ndarray,
) -> None:  # fmt: skip
    """The grid kernel's passes over GRID by GRID blocks of TABS_A and TABS_B with a pair
    WANTED, into VALUES (see evaluate_grid); W holds the kernel's values, START is where the
    start state's are."""
    for lo_a in range(0, tabs_a.shape[1], GRID):
        ta = _grid_side(tabs_a[:, lo_a : lo_a + GRID])
        for lo_b in range(0, tabs_b.shape[1], GRID):
            tb = _grid_side(tabs_b[:, lo_b : lo_b + GRID])
            ka, kb = min(GRID, tabs_a.shape[1] - lo_a), min(GRID, tabs_b.shape[1] - lo_b)
            if not wanted[lo_a : lo_a + ka, lo_b : lo_b + kb].any():
                continue
            _evaluate_rows_grid(kernel_rows, observation, ta, tb, w)
            a_first = w[start : start + GRID * GRID].reshape(GRID, GRID).T  # laid out [b, a]
            b_first = w[start + GRID * GRID : start + 2 * GRID * GRID].reshape(GRID, GRID)
            values[lo_a : lo_a + ka, lo_b : lo_b + kb, 0] = a_first[:ka, :kb]
            values[lo_a : lo_a + ka, lo_b : lo_b + kb, 1] = 1.0 - b_first[:ka, :kb]


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


def evaluate_policies(
    rules: RuleSet,
    a: Policy,
    b: Policy,
    *,
    values: bool = False,
    method: Evaluator | str | None = None,
) -> SeatValues:
    """Like ``evaluate`` for policies; VALUES asks for the per-state values in any case."""
    m = rules.model
    e = engine(m)
    tables = a.period == b.period == e.observation_period != 0
    periodic = bool(a.period and b.period)
    if method is not None:
        how = _evaluator(rules, e, method, tables=tables, periodic=periodic, values=values)
    else:
        how = plan.choose(
            e,
            tables=tables,
            periodic=periodic,
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
