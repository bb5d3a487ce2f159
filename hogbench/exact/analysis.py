"""Analysis: how often each state occurs under two strategies, and the value of each choice
where a strategy chooses (what ``solve`` explains and ``analyze`` reports)."""

from __future__ import annotations

import numpy as np
from numba import njit, types

from hogbench.errors import HogbenchError
from hogbench.exact import plan
from hogbench.exact.core import (
    _FAST,
    F8,
    I4,
    I8,
    MAX_SWEEPS,
    MEMO,
    NEVER,
    ROWS,
    RULES,
    TOLERANCE,
    Policy,
    check_converged,
    level_sweeps,
    new_memo,
    pair,
    resolve_all,
    resolved_value,
    roll_outcomes,
    row_sum,
    successor,
)
from hogbench.exact.plan import Evaluator
from hogbench.exact.policies import kept_table_policy, table_policy
from hogbench.exact.rows import engine
from hogbench.jit import kernel
from hogbench.rules.base import OTHER, SAME, TIE, RuleSet, widest_roll


@kernel(
    types.int64(
        RULES, ROWS, I8, I8, I4, I4, types.boolean, I8, I8, I8, I8, F8,
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
                        d0, d1 = roll_outcomes(
                            roll_kind, resolve, resolve_row, by_row, params, dist_ptr,
                            dist_value, x, c, codes,
                        )  # fmt: skip
                        for d in range(d0, d1):
                            place = successor(codes[d - d0])
                            if place >= 0:
                                to[m] = place
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
    types.float64[:, ::1](RULES, ROWS, I8, I8, I8, F8, F8, types.int64, MEMO),
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
                q = row_sum((c - choices[0]) * n + i, 0, w, row_ptr, row_const, row_to, row_p)
            else:
                key = key_of[ci]
                q = values[key] if key >= 0 else -1.0
                if q < 0.0:
                    q = resolved_value(
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


@njit(cache=True, inline="always")
def _ending_row(r, seat, e, row_ptr, row_to, row_p):
    """The chance that the game ends after row R, for the player in SEAT: 1, less (1 - e) for
    each continuing outcome."""
    total = 1.0
    for j in range(row_ptr[r], row_ptr[r + 1]):
        total -= abs(row_p[j]) * (1.0 - e[row_to[j] ^ seat])
    return total


@njit(cache=True, inline="always")
def _ending_row_values(i, x, e, data):
    """The chances that the game ends at x (the i-th state of the order), A to move and B to
    move, from rows. Both from the values before x's (as the evaluation's sweeps): where B's
    outcome is x with A to move (Greed's, Pig's cyclic levels) the sweeps reach the same
    limit by another path, within 5e-15 of the loop that wrote A's value first."""
    rows, tab_a, idx_a, tab_b, idx_b, n = data
    choices, row_ptr, _, row_to, row_p = rows
    c0 = choices[0]
    a = _ending_row((tab_a[idx_a[x]] - c0) * n + i, 0, e, row_ptr, row_to, row_p)
    b = _ending_row((tab_b[idx_b[x]] - c0) * n + i, 1, e, row_ptr, row_to, row_p)
    return a, b


_ending_row_sweeps = level_sweeps(_ending_row_values, extrapolate=False)


@kernel(
    types.int64(RULES, ROWS, I8, I8, types.boolean, I8, I8, I8, I8, F8, types.float64),
)
def _ending(rules, rows, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, e, tol):
    """Fill e (e[2x]: A to move at x, e[2x+1]: B) with the chance that the game ends, for fixed
    policies: the outcomes that end it, plus each continuing outcome's chance of ending, level
    by level from 0 (a closed loop stays at 0). Returns -1, or a level that did not converge.

    From rows, through ``core.level_sweeps`` (no extrapolation: a closed loop's 0 is exact).
    Without rows, each outcome is resolved on the spot in a loop written out, as in
    ``evaluation._evaluate_sweep``: through the factory, with the rule functions taken from a
    tuple at each state, Pig's took 1.4 times as long (210 against 150 ms, measured side by
    side)."""
    if len(rows[1]) > 1:
        data = (rows, tab_a, idx_a, tab_b, idx_b, len(order))
        return _ending_row_sweeps(order, level_ptr, cyclic, e, tol, data)
    roll_kind, resolve, _, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, _ = rules[5:]
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
                    d0, d1 = roll_outcomes(
                        roll_kind, resolve, resolve_row, by_row, params, dist_ptr, dist_value,
                        x, c, codes,
                    )  # fmt: skip
                    for d in range(d0, d1):
                        place = successor(codes[d - d0])
                        if place >= 0:
                            total -= dist_prob[d] * (1.0 - e[place ^ seat])
                    delta = max(delta, abs(total - e[2 * x + seat]))
                    e[2 * x + seat] = total
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


def ending(rules: RuleSet, a: Policy, b: Policy) -> tuple[np.ndarray, np.ndarray]:
    """The chance that a game of A against B ends, from each state with A to move and with B to
    move: 1 everywhere but where a game may never end (a model's ``may_never_end``)."""
    m = rules.model
    e = engine(m)
    chance = np.zeros(2 * m.n_states)
    stuck = _ending(
        e.rules, e.rows, m.order, m.level_ptr, m.cyclic, a.table, a.index, b.table, b.index,
        chance, TOLERANCE,
    )  # fmt: skip
    check_converged(rules, stuck)
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
        e.rules, e.rows, m.order, policy.index, policy.table, np.zeros(0), pair(v_self, v_other),
        0, memo if memo is not None else new_memo(e.n_keys),
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
        np.ascontiguousarray(weight, dtype=np.float64), pair(v_self, v_other), n_obs,
        memo if memo is not None else new_memo(e.n_keys),
    )  # fmt: skip


@njit(cache=True, fastmath=_FAST, inline="always")
def _tie_sum(r, flip, t, row_ptr, row_tie, row_to, row_p):
    """Row R's chance of ending tied, tie chances in T seen from the first player (FLIP = 1:
    the second): its own tie, and each continuing outcome's chance times the tie chance there.
    A tie is one end for both players, so an outcome handed to the other player counts as it
    is (row_p keeps it negative, for the ``1 - v`` of a value). Written like ``row_sum``."""
    t0 = row_tie[r]
    t1 = 0.0
    j = np.uint64(row_ptr[r])
    end = np.uint64(row_ptr[r + 1])
    f = np.uint64(flip)
    one, two = np.uint64(1), np.uint64(2)
    while j + one < end:
        t0 += abs(row_p[j]) * t[np.uint64(row_to[j]) ^ f]
        t1 += abs(row_p[j + one]) * t[np.uint64(row_to[j + one]) ^ f]
        j += two
    if j < end:
        t0 += abs(row_p[j]) * t[np.uint64(row_to[j]) ^ f]
    return t0 + t1


@njit(cache=True, fastmath=_FAST, inline="always")
def _row_tie_values(i, x, t, data):
    """A's and B's chances of a tied end at x (the i-th state of the order), from their rows."""
    rows, row_tie, tab_a, idx_a, tab_b, idx_b, n = data
    choices, row_ptr, _, row_to, row_p = rows
    c0 = choices[0]
    ra = (tab_a[idx_a[x]] - c0) * n + i
    rb = (tab_b[idx_b[x]] - c0) * n + i
    a = _tie_sum(ra, 0, t, row_ptr, row_tie, row_to, row_p)
    b = _tie_sum(rb, 1, t, row_ptr, row_tie, row_to, row_p)
    return a, b


_sweep_row_ties = level_sweeps(_row_tie_values)


@kernel(
    types.int64(ROWS, F8, I8, I8, types.boolean, I8, I8, I8, I8, F8, types.float64),
    fastmath=_FAST,
)
def _tying_rows(rows, row_tie, order, level_ptr, cyclic, tab_a, idx_a, tab_b, idx_b, t, tol):
    """Like _tying, from the model's rows and each row's own tie (``engine.row_ties``): the
    sweep a pair's value takes on rows (``evaluation._evaluate_rows``), and about its cost."""
    data = (rows, row_tie, tab_a, idx_a, tab_b, idx_b, len(order))
    return _sweep_row_ties(order, level_ptr, cyclic, t, tol, data)


@kernel(
    types.int64(RULES, I8, I8, I8, I8, I8, I8, F8, types.float64),
)
def _tying(rules, order, level_ptr, tab_a, idx_a, tab_b, idx_b, t, tol):
    """Fill t (t[2x]: A to move at x, t[2x+1]: B) with the chance that the game ends in a tie,
    for fixed policies: the outcomes that tie, plus each continuing outcome's chance of tying,
    level by level from 0 (a closed loop stays at 0: a game that never ends is ``ending``'s).
    Every outcome is resolved on the spot: for models without rows (``_tying_rows`` reads them
    where they exist). Returns -1, or a level that did not converge."""
    roll_kind, resolve, _, resolve_row, by_row = rules[:5]
    params, dist_ptr, dist_value, dist_prob, choices = rules[5:]
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                for seat in range(2):
                    c = tab_a[idx_a[x]] if seat == 0 else tab_b[idx_b[x]]
                    total = 0.0
                    k = roll_kind(params, x, c)
                    d0, d1 = dist_ptr[k], dist_ptr[k + 1]
                    resolve_all(
                        resolve, resolve_row, by_row, params, x, c, dist_value, d0, d1, codes
                    )
                    for d in range(d0, d1):
                        code = codes[d - d0]
                        if code & 7 == TIE:
                            total += dist_prob[d]
                        elif code & 7 == OTHER or code & 7 == SAME:
                            to = 2 * (code >> 3) + (1 if code & 7 == OTHER else 0)
                            total += dist_prob[d] * t[to ^ seat]
                    delta = max(delta, abs(total - t[2 * x + seat]))
                    t[2 * x + seat] = total
            if delta < tol:
                break
        else:
            return level
    return -1


def tie_chance(rules: RuleSet, a: Policy, b: Policy) -> tuple[float, float]:
    """The chance that a game of A against B ends in a tie (equal final scores: Greed, Big
    Pig), A moving first and A moving second; 0 where the rules have no tie. With the chance
    of a win, ``evaluate``'s value (a tie counts half) splits into win, loss and tie.

    Computed as the pair's value is (``plan.choose``): on whole turns, on rows, or resolving
    each outcome on the spot, so that a tie costs about what the value costs."""
    m = rules.model
    if not getattr(rules, "has_ties", False):
        return 0.0, 0.0
    e = engine(m)
    tables = a.period == b.period == e.observation_period != 0
    how = plan.choose(e, tables=tables, periodic=bool(a.period and b.period))
    if how is Evaluator.TURNS:
        from hogbench.exact.turns import tie_turns

        return tie_turns(rules, a, b)
    chance = np.zeros(2 * m.n_states)
    with e.lock:
        if how in (Evaluator.ROWS_PASS, Evaluator.ROWS_SWEEPS):
            stuck = _tying_rows(
                e.rows, e.row_ties, m.order, m.level_ptr, m.cyclic, a.table, a.index, b.table,
                b.index, chance, TOLERANCE,
            )  # fmt: skip
        else:
            stuck = _tying(
                e.rules, m.order, m.level_ptr, a.table, a.index, b.table, b.index, chance,
                TOLERANCE,
            )  # fmt: skip
    check_converged(rules, stuck)
    return float(chance[2 * m.start]), float(chance[2 * m.start + 1])


def tie_grid(
    rules: RuleSet, tables_a: list[np.ndarray], tables_b: list[np.ndarray], wanted: np.ndarray
) -> np.ndarray:
    """The chance of a tied end of each of TABLES_A against each of TABLES_B where WANTED[i, j]
    says so, as ``evaluation.evaluate_grid`` gives their values: ties[i, j] = (A_i first, A_i
    second), NaN where not wanted. A tie is an end on equal scores (``tie_chance``: Greed, Big
    Pig) or, where a game may never end (hog-sp22: the rules' ``turn_cap``), a game that never
    does (1 - ``ending_chance``): either way what a value counts half. 0 where neither can be."""
    ties = np.full((len(tables_a), len(tables_b), 2), np.nan)
    endless = rules.turn_cap() is not None
    if not getattr(rules, "has_ties", False) and not endless:
        ties[wanted] = 0.0
        return ties
    m = rules.fit(*tables_a, *tables_b)
    if engine(m).whole_turns:  # turn rows are kept by the table as kept (int8)
        policies_a, policies_b = (
            [kept_table_policy(m, t) for t in ts] for ts in (tables_a, tables_b)
        )
    else:
        policies_a, policies_b = ([table_policy(m, t) for t in ts] for ts in (tables_a, tables_b))
    for i, j in zip(*np.nonzero(wanted), strict=True):
        a, b = policies_a[i], policies_b[j]
        if endless:
            ties[i, j] = [1.0 - p for p in ending_chance(rules, a, b)]
        else:
            ties[i, j] = tie_chance(rules, a, b)
    return ties
