"""The exact engine: win probabilities by dynamic programming over a rule set's GameModel.

Values are always from the side of the player to move: ``v[x]`` is that player's chance of
winning from state ``x`` (a tie counts half). States are visited level by level, successors
first; a level whose transitions can stay inside it (a zero roll in Greed, a lost turn in Pig)
is iterated until no value moves by more than ``TOLERANCE``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, types

from hogbench.errors import HogbenchError
from hogbench.rules.base import (
    LOSE,
    OTHER,
    RESOLVE_SIGNATURE,
    ROLL_KIND_SIGNATURE,
    SAME,
    WIN,
    GameModel,
    RuleSet,
)

TOLERANCE = 1e-14
MAX_SWEEPS = 1_000_000

_i8 = types.int64[::1]
_f8 = types.float64[::1]
_roll_kind_t = types.FunctionType(ROLL_KIND_SIGNATURE)
_resolve_t = types.FunctionType(RESOLVE_SIGNATURE)


@njit(cache=True)
def _value(code, v_self, v_other):
    """The mover's chance of winning after one outcome, given successor values."""
    kind = code & 7
    y = code >> 3
    if kind == OTHER:
        return 1.0 - v_other[y]
    if kind == SAME:
        return v_self[y]
    if kind == WIN:
        return 1.0
    if kind == LOSE:
        return 0.0
    return 0.5  # TIE


@njit(cache=True)
def _expected(g, x, c, v_self, v_other):
    """Chance that the player to move at X wins after choosing C, given successor values.

    G is the model tuple (see _game); outcomes come from the transitions when there are any.
    """
    roll_kind, resolve, params, dist_ptr, dist_value, dist_prob, choices, row_ptr, codes, probs = g
    total = 0.0
    if len(row_ptr) > 1:
        row = x * len(choices) + (c - choices[0])
        for j in range(row_ptr[row], row_ptr[row + 1]):
            total += probs[j] * _value(codes[j], v_self, v_other)
    else:
        k = roll_kind(params, x, c)
        for j in range(dist_ptr[k], dist_ptr[k + 1]):
            total += dist_prob[j] * _value(resolve(params, x, c, dist_value[j]), v_self, v_other)
    return total


GAME_TYPE = types.Tuple((_roll_kind_t, _resolve_t, _i8, _i8, _i8, _f8, _i8, _i8, _i8, _f8))


@njit(
    types.int64(
        GAME_TYPE,
        _i8,
        _i8,
        _i8,
        types.boolean,
        _i8,
        _i8,
        _f8,
        _f8,
        types.float64,
    ),
    cache=True,
)
def _evaluate(g, observation, order, level_ptr, cyclic, table_a, table_b, va, vb, tol):
    """Fill va/vb (A resp. B to move) for fixed decision tables; return -1 or a stuck level."""
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                obs = observation[x]
                a = _expected(g, x, table_a[obs], va, vb)
                b = _expected(g, x, table_b[obs], vb, va)
                delta = max(delta, abs(a - va[x]), abs(b - vb[x]))
                va[x] = a
                vb[x] = b
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@njit(
    types.int64(
        GAME_TYPE,
        _i8,
        _i8,
        _i8,
        types.boolean,
        _i8,
        types.boolean,
        _f8,
        _f8,
        _i8,
        types.float64,
    ),
    cache=True,
)
def _solve(
    g, observation, order, level_ptr, cyclic, opponent_table, against, v_me, v_opp, policy, tol
):
    """Best play for the mover: against itself, or (AGAINST) against a fixed opponent table.

    Fills v_me, policy (and v_opp when AGAINST); ties between choices go to the earlier one.
    Returns -1, or the level that did not converge.
    """
    choices = g[6]
    for level in range(len(level_ptr) - 1):
        lo, hi = level_ptr[level], level_ptr[level + 1]
        for _ in range(MAX_SWEEPS):
            delta = 0.0
            for i in range(lo, hi):
                x = order[i]
                v_other = v_opp if against else v_me
                best = -1.0
                best_choice = choices[0]
                for c in choices:
                    q = _expected(g, x, c, v_me, v_other)
                    if q > best + 1e-15:
                        best = q
                        best_choice = c
                delta = max(delta, abs(best - v_me[x]))
                v_me[x] = best
                policy[x] = best_choice
                if against:
                    b = _expected(g, x, opponent_table[observation[x]], v_opp, v_me)
                    delta = max(delta, abs(b - v_opp[x]))
                    v_opp[x] = b
            if not cyclic or delta < tol:
                break
        else:
            return level
    return -1


@njit(cache=True)
def _choice_values(g, v_me, v_other):
    choices = g[6]
    n = len(v_me)
    q = np.empty((n, len(choices)))
    for x in range(n):
        for i in range(len(choices)):
            q[x, i] = _expected(g, x, choices[i], v_me, v_other)
    return q


def game_tuple(model: GameModel) -> tuple:
    """The model as the tuple the compiled kernels take (functions, tables, transitions)."""
    m = model
    t = m.transitions
    return (
        m.roll_kind,
        m.resolve,
        m.params,
        m.dist_ptr,
        m.dist_value,
        m.dist_prob,
        m.choices,
        t.row_ptr,
        t.codes,
        t.probs,
    )


@dataclass(frozen=True)
class SeatValues:
    """Exact win probabilities of a pair of strategies in both seatings."""

    first: float  # A's chance of winning when A moves first
    second: float  # A's chance of winning when A moves second
    v_a: np.ndarray  # A's chance of winning from each state with A to move
    v_b: np.ndarray  # B's chance of winning from each state with B to move

    @property
    def average(self) -> float:
        return (self.first + self.second) / 2


def evaluate(rules: RuleSet, table_a: np.ndarray, table_b: np.ndarray) -> SeatValues:
    """Exact chances that strategy A (decision table) beats strategy B, in both seatings."""
    m = rules.model
    va = np.zeros(m.n_states)
    vb = np.zeros(m.n_states)
    stuck = _evaluate(
        game_tuple(m),
        m.observation,
        m.order,
        m.level_ptr,
        m.cyclic,
        _as_table(table_a),
        _as_table(table_b),
        va,
        vb,
        TOLERANCE,
    )
    _check_converged(rules, stuck)
    return SeatValues(first=float(va[m.start]), second=float(1.0 - vb[m.start]), v_a=va, v_b=vb)


@dataclass(frozen=True)
class Solution:
    """Optimal play for the mover at every state (against itself, or against one strategy)."""

    policy: np.ndarray  # state -> best choice
    v_me: np.ndarray  # the solver's chance of winning with it to move
    v_opp: np.ndarray  # the opponent's chance with it to move (same array when self-play)
    start: int


def solve(rules: RuleSet, against: np.ndarray | None = None) -> Solution:
    """Optimal play by backward induction (value iteration on cyclic levels).

    Without AGAINST both players play optimally; with a decision table it is the best response.
    """
    m = rules.model
    v_me = np.zeros(m.n_states)
    v_opp = np.zeros(m.n_states)
    policy = np.zeros(m.n_states, dtype=np.int64)
    table = _as_table(against) if against is not None else np.zeros(1, dtype=np.int64)
    stuck = _solve(
        game_tuple(m),
        m.observation,
        m.order,
        m.level_ptr,
        m.cyclic,
        table,
        against is not None,
        v_me,
        v_opp,
        policy,
        TOLERANCE,
    )
    _check_converged(rules, stuck)
    return Solution(
        policy=policy, v_me=v_me, v_opp=v_opp if against is not None else v_me, start=m.start
    )


def model_q(model: GameModel, v_me: np.ndarray, v_other: np.ndarray) -> np.ndarray:
    """Q[x, i] for every state and every legal choice (see choice_values)."""
    return _choice_values(game_tuple(model), v_me, v_other)


def _as_table(table: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(table, dtype=np.int64).reshape(-1)


def _check_converged(rules: RuleSet, stuck: int) -> None:
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: values did not converge within {MAX_SWEEPS} sweeps at level {stuck}"
            " (a pair of strategies that can loop forever without progress?)"
        )
