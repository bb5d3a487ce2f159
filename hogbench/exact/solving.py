"""Solving: optimal play by backward induction (value iteration on cyclic levels), against
itself or as the best response to one strategy."""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np
from numba import njit, prange, types

from hogbench.errors import HogbenchError
from hogbench.exact import plan
from hogbench.exact.analysis import choice_values
from hogbench.exact.core import (
    _FAST,
    F8,
    I8,
    MAX_SWEEPS,
    MEMO,
    ROWS,
    RULES,
    TIE_MARGIN,
    TOLERANCE,
    Policy,
    SeatValues,
    check_converged,
    level_sweeps,
    new_memo,
    row_sum,
)
from hogbench.exact.evaluation import evaluate_policies
from hogbench.exact.memory import best_response as best_response_on_memory_rows
from hogbench.exact.plan import BestResponse, Solver
from hogbench.exact.policies import constant_policy, no_policy, state_policy, table_policy
from hogbench.exact.rows import engine
from hogbench.jit import kernel
from hogbench.rules.base import OTHER, SAME, TIE, WIN, RuleSet, widest_roll


@njit(cache=True, fastmath=_FAST, inline="always")
def _best_row(i, x, rows, w, policy, n):
    """The best value for the mover at x (the i-th state of the order), from rows; its choice
    goes to POLICY[x]: the earliest within TIE_MARGIN of the best (the value is the maximum;
    near-ties only decide the choice)."""
    choices, row_ptr, row_const, row_to, row_p = rows
    best = top = -1.0
    best_choice = choices[0]
    for ci in range(len(choices)):
        q = row_sum(ci * n + i, 0, w, row_ptr, row_const, row_to, row_p)
        top = max(top, q)
        if q > best + TIE_MARGIN:
            best = q
            best_choice = choices[ci]
    policy[x] = best_choice
    return top


@njit(cache=True, fastmath=_FAST, inline="always")
def _self_play_values(i, x, w, data):
    """The solver's value at x in self-play, for both seats."""
    rows, policy, n = data
    best = _best_row(i, x, rows, w, policy, n)
    return best, best


@njit(cache=True, fastmath=_FAST, inline="always")
def _best_response_values(i, x, w, data):
    """The solver's best value at x, and its opponent's, who plays B's choice."""
    rows, tab_b, idx_b, policy, n = data
    choices, row_ptr, row_const, row_to, row_p = rows
    best = _best_row(i, x, rows, w, policy, n)
    r = (tab_b[idx_b[x]] - choices[0]) * n + i
    return best, row_sum(r, 1, w, row_ptr, row_const, row_to, row_p)


# Two sweeps, not one with a branch on AGAINST: an array read only in a branch kept its
# reference counting inside the loop, which made Pig's self-play four times slower (measured).
_self_play_sweeps = level_sweeps(_self_play_values, extrapolate=False)
_best_response_sweeps = level_sweeps(_best_response_values, extrapolate=False)


@kernel(
    types.int64(
        ROWS, I8, I8, types.boolean, I8, I8, types.boolean, F8, I8, types.float64
    ),
    fastmath=_FAST,
)  # fmt: skip
def _solve_rows(rows, order, level_ptr, cyclic, tab_b, idx_b, against, w, policy, tol):
    """Best play for the mover, from rows: against itself, or (AGAINST) against B's policy.

    w[2x] is the solver's value with it to move at x, w[2x+1] its opponent's (the same number
    in self-play). Fills w and policy. The value is the best choice's; the choice is the
    earliest within TIE_MARGIN of it. Returns -1, or the level that did not converge.
    """
    if against:
        data = (rows, tab_b, idx_b, policy, len(order))
        return _best_response_sweeps(order, level_ptr, cyclic, w, tol, data)
    return _self_play_sweeps(order, level_ptr, cyclic, w, tol, (rows, policy, len(order)))


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
    # the keys of every choice at a state, and of the opponent's choice (at [nc]). Filled by
    # plain loops: in the parallel kernel an array expression (np.full, a slice assigned) is a
    # parallel loop of its own, whose threads were woken at every state of every sweep, Pig's
    # self-play 4-9 s on two threads against 0.06 s on one (measured).
    at = np.empty(nc + 1, dtype=np.int64)
    asked = np.empty(nc + 1, dtype=np.int64)
    key_of = np.empty(nc + 1, dtype=np.int64)
    for ci in range(nc + 1):
        asked[ci] = choices[min(ci, nc - 1)]
        key_of[ci] = -1
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
            for ci in range(nc + 1):
                at[ci] = x
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
        RULES, I8, I8, types.boolean, types.boolean, I8, I8, types.boolean, F8, I8,
        MEMO, MEMO, types.float64, types.int64,
    ),
    fastmath=_FAST,
    parallel=True,
)  # fmt: skip
def _solve_sweep(rules, order, level_ptr, cyclic, independent, tab_b, idx_b, against, w, policy,
                 memo, memo_b, tol, parts):  # fmt: skip
    """Like _solve_rows, for models without rows: outcomes resolved on the spot, once per key
    of the model's q_keys when it has them (MEMO for the solver, MEMO_B for its opponent).
    When no outcome stays in its level (INDEPENDENT), a level's states are solved in PARTS
    spans at once. Its loop is not ``core.level_sweeps``: a sweep here also stamps the memo's
    values (a cyclic level's choice values hold for one sweep) and splits levels between
    threads, and the sweeps that resolve outcomes on the spot were 1.1 to 1.4 times slower
    through the factory (``evaluation._evaluate_sweep``, ``analysis._ending``)."""
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


def solve(
    rules: RuleSet,
    against: np.ndarray | Policy | None = None,
    *,
    method: Solver | str | None = None,
) -> Solution:
    """Optimal play by backward induction (value iteration on cyclic levels).

    Without AGAINST both players play optimally; with a decision table (or a Policy) it is the
    best response to it. The solver sees the whole state: where a state holds more than a
    strategy sees (hog-su20's previous-turn points), this is an upper bound for strategies.

    METHOD names how (``plan.Solver``: "rows" or "sweep"); by default ``plan.choose_solver``
    picks it. Every method gives the same values; a method the model cannot take (rows that
    do not fit in memory) is an error that says so.
    """
    table = against is not None and not isinstance(against, Policy)
    m = rules.fit(against) if table else rules.model
    e = engine(m)
    if method is None:
        how = plan.choose_solver(e)
    else:
        try:
            how = plan.Solver(method)
        except ValueError:
            known = ", ".join(s.value for s in plan.Solver)
            raise HogbenchError(f"no solve method {method!r} (methods: {known})") from None
        if not plan.applies(how, e):
            raise HogbenchError(
                f"{rules.name}: solve by {how.value} needs the model's rows, which do not fit in"
                f" memory ({e.row_entries:,} entries, at most {e.row_limit:,})"
            )
    if table:
        against = table_policy(m, against)
    w = np.full(2 * m.n_states, e.start_value)
    policy = np.full(m.n_states, m.choices[0], dtype=np.int64)
    b = against if against is not None else no_policy()
    memo = new_memo(e.n_keys if how is plan.Solver.SWEEP else 0, m.cyclic)
    if how is plan.Solver.ROWS:
        stuck = _solve_rows(
            e.rows, m.order, m.level_ptr, m.cyclic, b.table, b.index, against is not None, w,
            policy, TOLERANCE,
        )  # fmt: skip
    else:
        stuck = _solve_sweep(
            e.rules, m.order, m.level_ptr, m.cyclic, m.independent_levels, b.table, b.index,
            against is not None, w, policy, memo,
            new_memo(e.n_keys if against is not None else 0, m.cyclic), TOLERANCE,
            numba.get_num_threads(),
        )  # fmt: skip
    check_converged(rules, stuck)
    v_me = w[0::2].copy()
    v_opp = w[1::2].copy() if against is not None else v_me
    if m.may_never_end:
        _leave_loops(rules, policy, v_me, v_opp, against)
    keep = memo if e.n_keys and not m.cyclic else None
    return Solution(policy, v_me, v_opp, m.start, against, memo=keep)


def best_response(rules: RuleSet, table: np.ndarray) -> SeatValues:
    """The best response's chances against the decision table TABLE, moving first and second
    (``first``, ``second``; no per-state values): the same figures as ``solve(rules, table)``,
    found the way ``plan.choose_best_response`` picks (on memory rows where the model has
    memories, some 20 times less CPU on hog-fa19)."""
    m = rules.fit(table)
    e = engine(m)
    if plan.choose_best_response(e) is BestResponse.MEMORY_ROWS:
        with e.lock:
            first, second = best_response_on_memory_rows(
                m, e.memory_rows, np.ascontiguousarray(table, dtype=np.int64).reshape(-1),
                e.memory_best_values,
            )  # fmt: skip
        return SeatValues(first=float(first), second=float(second), v_a=None, v_b=None)
    solved = solve(rules, table)
    return SeatValues(first=solved.first, second=solved.second, v_a=None, v_b=None)


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
    q = np.stack(
        [choice_values(rules, constant_policy(m, c), v_me, v_opp) for c in m.choices],
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
