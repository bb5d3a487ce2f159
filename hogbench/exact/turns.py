"""Evaluation by whole turns, for games whose turns are chains of rolls (Pig, Big Pig).

In Pig a turn is many decisions (roll or hold at each turn total), and the state space is
mostly those decisions: Big Pig has 4.5 million states, of which 30,000 begin a turn. A model
that lists its ``turn_starts`` (the states a turn can begin in) is evaluated here on those
alone. For one decision table, each turn start's turn is followed through its rolls (the
table's choice at each, the outcomes resolved on the spot) to the distribution of how the turn
ends: the other player's turn starts, with the turn's points banked or lost, or the end of the
game. That is a row per turn start, like the engine's rows but for a whole turn; a pair of
tables is then evaluated on those rows, level by level as the engine's sweeps go (a lost turn
hands the round back to its start, so levels are cyclic, and extrapolated as in
``evaluation``).

A table's turn rows take some megabytes and a fraction of a second to make, and are kept (up
to KEPT_BYTES per model), so a tournament of a dozen makes them about once per entrant; the
model's full rows, which ``solve`` uses, are never built for it.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from numba import njit, types

from hogbench.errors import HogbenchError
from hogbench.exact.core import (
    _FAST,
    F8,
    I4,
    I8,
    MAX_SWEEPS,
    RULES,
    TOLERANCE,
    Policy,
    SeatValues,
    level_sweeps,
    resolve_all,
)
from hogbench.exact.rows import engine
from hogbench.jit import jit, kernel
from hogbench.processes import return_freed_memory
from hogbench.rules.base import (
    OTHER,
    SAME,
    TIE,
    WIN,
    GameModel,
    RuleSet,
    widest_roll,
)

#: Room for the states of one turn, grown when a turn has more (a few hundred in Big Pig).
FIRST_ROOM = 1024
#: Ends of a turn in a table's turn rows, per turn start, about (Big Pig: 16.5 to 18.5 for
#: holding at 30 to 10, measured); the rows have room for a few more before they grow.
ENDS_PER_TURN = 18
#: Turn rows a model keeps, most recently used first (a tournament's worker plays one entrant
#: against many): a Big Pig table's take 5.7 MB, so this is 7 tables, within a worker's
#: 300 MB; rows of one pair are always kept.
KEPT_BYTES = 40 << 20


@dataclass(frozen=True)
class TurnRows:
    """One table's turns: for turn start ``turn_starts[i]``, the mover's chance of winning is
    const[i] plus, for each slot s in ptr[i]..ptr[i+1]-1, p[s] * w[to[s]], where w[2j + 1] is
    the other player's value at turn start j (p is negative: a handed-on turn is won by the
    mover when the other player loses it). The game's chance of ending tied from turn start i
    is tie[i] plus, for each slot, -p[s] times the tie chance at to[s] (``tie_turns``)."""

    const: np.ndarray
    ptr: np.ndarray
    to: np.ndarray
    p: np.ndarray
    #: tie[i]: the chance that turn start i's turn ends the game tied (const counts it half)
    tie: np.ndarray


#: A table as kept (int8), read where it lies: a worker's tables may arrive read-only (memory-
#: mapped), and copying them made a Big Pig worker hold each twice.
KEPT_TABLE = types.Array(types.int8, 1, "C", readonly=True)

#: An odd constant whose products mix a state's bits into the high ones (Knuth's multiplicative
#: hashing); a hash table's slot is taken from bits 20 and up.
HASH_MULTIPLIER = 6364136223846793005


@jit(inline="always")
def _hash_table(count):
    """An empty open-addressed table for up to COUNT keys (-1 marks an empty slot), at most half
    full, and the values beside it."""
    size = 16
    while size < 2 * count:
        size *= 2
    return np.full(size, -1, dtype=np.int64), np.empty(size, dtype=np.int64)


@jit(inline="always")
def _slot(keys, key):
    """The slot of KEY in the open-addressed table KEYS, or the empty slot where it goes."""
    mask = len(keys) - 1
    at = ((key * HASH_MULTIPLIER) >> 20) & mask
    while keys[at] != -1 and keys[at] != key:
        at = (at + 1) & mask
    return at


@kernel(
    types.Tuple((F8, I8, I4, F8, F8))(RULES, I8, KEPT_TABLE, I8, types.int64, I8),
    fastmath=_FAST,
)
def _turn_rows(rules, turn_starts, table, index, room, stop):
    """Each turn start's turn under TABLE (choice table[index[x]] at state x; int8, as tables
    are kept: a Big Pig table is 2.3 million choices), followed through its rolls to the
    distribution of its ends. STOP[0] is set to a state whose roll leads back into its turn or
    to another turn's start, or hands the turn to a state no turn begins in (the model does
    not have the shape this evaluation needs), else left -1.

    One turn's states are a few hundred of the model's millions: they are numbered as found
    (state -> number in a small hash table, emptied after each turn; the turn starts' numbers
    in another), and the turn's arrays have ROOM for that many: STOP[0] is set to -2 if a turn
    has more (call again with more room). No array over the model's states is made: one such
    array is 18 MB in Big Pig, and a worker has 300 MB. The arrays do not grow inside the
    loop: reallocating them there made numba's code twice as slow (measured). A turn's chances
    are carried forward from a state once every roll into it has been (WAITING counts those
    left), so no order of the model's states is needed; a state still waiting at the end lies
    on a loop."""
    roll_kind, resolve, _, resolve_row, by_row, params, dist_ptr, dist_value, dist_prob, _ = rules
    n_turns = len(turn_starts)
    outcomes = np.empty((room, widest_roll(dist_ptr)), dtype=np.int64)  # each found state's
    kind_of = np.empty(room, dtype=np.int64)  # roll kind and outcomes, resolved once
    # and where each outcome leads, found once: its number in the turn (SAME), -2 - the turn
    # start it hands on to (OTHER), or -1 (the game ends)
    leads = np.empty((room, widest_roll(dist_ptr)), dtype=np.int64)
    start_keys, start_number = _hash_table(n_turns)
    for i in range(n_turns):
        at = _slot(start_keys, turn_starts[i])
        start_keys[at], start_number[at] = turn_starts[i], i
    seen_keys, seen_number = _hash_table(room)  # the current turn's states
    seen_at = np.empty(room, dtype=np.int64)  # where each is in it
    found = np.empty(room, dtype=np.int64)  # the current turn's states, in the order found
    waiting = np.zeros(len(found), dtype=np.int64)  # rolls into each not yet carried forward
    ready = np.empty(len(found), dtype=np.int64)  # found states in the order carried forward
    mass = np.zeros(len(found))  # chance of reaching each of them
    handed = np.zeros(n_turns)  # chance of handing the turn on to each turn start
    ended = np.empty(n_turns, dtype=np.int64)  # the turn starts it hands on to
    const = np.zeros(n_turns)
    tie = np.zeros(n_turns)  # the turn's chance of ending the game tied
    ptr = np.zeros(n_turns + 1, dtype=np.int64)
    to = np.empty(max(16, (ENDS_PER_TURN + 2) * n_turns), dtype=np.int32)
    p = np.empty(len(to))
    m = 0
    for i in range(n_turns):
        x0 = turn_starts[i]
        # Find the turn's states (every state a roll of this table leads to without ending
        # the turn) and count the rolls into each.
        n_found = 1
        found[0] = x0
        at = _slot(seen_keys, x0)
        seen_keys[at], seen_number[at], seen_at[0] = x0, 0, at
        waiting[0] = 0
        j = 0
        while j < n_found:
            x = found[j]
            codes = outcomes[j]
            lead = leads[j]
            c = np.int64(table[index[x]])
            k = roll_kind(params, x, c)
            kind_of[j] = k
            j += 1
            lo, hi = dist_ptr[k], dist_ptr[k + 1]
            resolve_all(resolve, resolve_row, by_row, params, x, c, dist_value, lo, hi, codes)
            for d in range(hi - lo):
                code = codes[d]
                kind = code & 7
                if kind == SAME:
                    y = code >> 3
                    at = _slot(seen_keys, y)
                    if seen_keys[at] != y:  # found now
                        if start_keys[_slot(start_keys, y)] == y:  # a roll may not begin a turn
                            stop[0] = x
                            return const, ptr, to, p, tie
                        if n_found == room:
                            stop[0] = -2
                            return const, ptr, to, p, tie
                        seen_keys[at], seen_number[at], seen_at[n_found] = y, n_found, at
                        found[n_found] = y
                        waiting[n_found] = 0
                        n_found += 1
                    lead[d] = seen_number[at]
                    waiting[lead[d]] += 1
                elif kind == OTHER:
                    y = code >> 3
                    at = _slot(start_keys, y)
                    if start_keys[at] != y:  # handed to a state no turn begins in
                        stop[0] = x
                        return const, ptr, to, p, tie
                    lead[d] = -2 - start_number[at]
                else:
                    lead[d] = -1
        if waiting[0] > 0:
            stop[0] = x0
            return const, ptr, to, p, tie
        # Carry the turn's chances forward, each state once all rolls into it are carried.
        mass[0] = 1.0
        ready[0] = 0
        n_ready = 1
        r = 0
        win = 0.0
        n_ended = 0
        while r < n_ready:
            lx = ready[r]
            r += 1
            here = mass[lx]
            k = kind_of[lx]
            codes = outcomes[lx]
            lead = leads[lx]
            lo, hi = dist_ptr[k], dist_ptr[k + 1]
            for d in range(lo, hi):
                ly = lead[d - lo]
                q = here * dist_prob[d]
                if ly >= 0:  # SAME
                    mass[ly] += q
                    waiting[ly] -= 1
                    if waiting[ly] == 0:
                        ready[n_ready] = ly
                        n_ready += 1
                elif ly <= -2:  # OTHER
                    t = -2 - ly
                    if handed[t] == 0.0:
                        ended[n_ended] = t
                        n_ended += 1
                    handed[t] += q
                else:
                    kind = codes[d - lo] & 7
                    if kind == WIN:
                        win += q
                    elif kind == TIE:
                        win += 0.5 * q
                        tie[i] += q
        if n_ready < n_found:  # some states were never ready: rolls loop inside the turn
            for r in range(n_found):
                if waiting[r] > 0:
                    stop[0] = found[r]
                    return const, ptr, to, p, tie
        for r in range(n_found):
            seen_keys[seen_at[r]] = -1
            mass[r] = 0.0
        # The turn's row: handing the turn on with chance q is winning with q * (1 - theirs).
        if m + n_ended > len(to):  # by half: a worker's peak is while these are made
            grown = max(len(to) + len(to) // 2, m + n_ended)
            to = np.concatenate((to[:m], np.empty(grown - m, dtype=np.int32)))
            p = np.concatenate((p[:m], np.empty(grown - m)))
        for e in range(n_ended):
            t = ended[e]
            win += handed[t]
            to[m] = 2 * t + 1
            p[m] = -handed[t]
            handed[t] = 0.0
            m += 1
        const[i] = win
        ptr[i + 1] = m
    return const, ptr, to[:m].copy(), p[:m].copy(), tie


@njit(cache=True, fastmath=_FAST, inline="always")
def _turn_values(i, x, w, data):
    """A's and B's values at turn start i, from their tables' turn rows."""
    const_a, ptr_a, to_a, p_a, const_b, ptr_b, to_b, p_b = data
    a = const_a[i]
    for s in range(ptr_a[i], ptr_a[i + 1]):
        a += p_a[s] * w[to_a[s]]
    b = const_b[i]
    for s in range(ptr_b[i], ptr_b[i + 1]):
        b += p_b[s] * w[to_b[s] ^ 1]
    return a, b


_sweep_turns = level_sweeps(_turn_values)


@kernel(
    types.int64(F8, I8, I4, F8, F8, I8, I4, F8, I8, F8, types.float64),
    fastmath=_FAST,
)
def _evaluate_turns(
    const_a, ptr_a, to_a, p_a, const_b, ptr_b, to_b, p_b, level_ptr, w, tol
):  # fmt: skip
    """Fill w (w[2i]: A to move at turn start i, w[2i+1]: B) from the two tables' turn rows,
    level by level, sweeping each until no value moves by TOL (extrapolated after a few
    sweeps); return -1 or a level that did not converge."""
    identity = np.arange(len(const_a))
    data = (const_a, ptr_a, to_a, p_a, const_b, ptr_b, to_b, p_b)
    return _sweep_turns(identity, level_ptr, True, w, tol, data)


@njit(cache=True, fastmath=_FAST, inline="always")
def _turn_ties(i, x, t, data):
    """The chances that the game ends tied from turn start i, A and B to move, from their
    tables' turn rows: the turn's own tie, and each hand-on's chance (-p: the rows keep it
    negative) times the tie chance where it leads. A tie is the same end for both players, so
    no ``1 -`` as in a value."""
    tie_a, ptr_a, to_a, p_a, tie_b, ptr_b, to_b, p_b = data
    a = tie_a[i]
    for s in range(ptr_a[i], ptr_a[i + 1]):
        a -= p_a[s] * t[to_a[s]]
    b = tie_b[i]
    for s in range(ptr_b[i], ptr_b[i + 1]):
        b -= p_b[s] * t[to_b[s] ^ 1]
    return a, b


_sweep_turn_ties = level_sweeps(_turn_ties)


@kernel(
    types.int64(F8, I8, I4, F8, F8, I8, I4, F8, I8, F8, types.float64),
    fastmath=_FAST,
)
def _tie_turns(tie_a, ptr_a, to_a, p_a, tie_b, ptr_b, to_b, p_b, level_ptr, t, tol):  # fmt: skip
    """Fill t (t[2i]: A to move at turn start i, t[2i+1]: B) with the chance of a tied end, as
    _evaluate_turns fills values; return -1 or a level that did not converge."""
    identity = np.arange(len(tie_a))
    data = (tie_a, ptr_a, to_a, p_a, tie_b, ptr_b, to_b, p_b)
    return _sweep_turn_ties(identity, level_ptr, True, t, tol, data)


@dataclass
class _Turns:
    """A model's turn starts as this evaluation takes them, and the tables' rows it keeps."""

    level_ptr: np.ndarray  # the turn starts' levels (they come in the model's order)
    kept: OrderedDict


def _turns(model: GameModel) -> _Turns:
    cached = model.__dict__.get("_exact_turns")
    if cached is not None:
        return cached
    if not -128 <= model.choices.min() <= model.choices.max() <= 127:
        raise HogbenchError("whole turns take choices that fit in int8 (as tables are kept)")
    starts = model.turn_starts
    # Each turn start's level, from its position in the order (found here, not from the
    # engine's state -> position map: a state array that a worker would keep for this alone;
    # a mask, as np.isin sorted copies of the order, 45 MB more at a worker's peak in Big Pig).
    is_start = np.zeros(model.n_states, dtype=bool)
    is_start[starts] = True
    position = np.flatnonzero(is_start[model.order])
    if len(position) != len(starts) or not np.array_equal(model.order[position], starts):
        raise HogbenchError("a model's turn starts must be played, in the order of its levels")
    level = np.searchsorted(model.level_ptr, position, side="right") - 1
    level_ptr = np.r_[0, np.flatnonzero(np.diff(level)) + 1, len(starts)].astype(np.int64)
    built = _Turns(level_ptr, OrderedDict())
    model.__dict__["_exact_turns"] = built
    return built


def opponents_at_once(model: GameModel) -> int:
    """How many opponents an entrant should meet before the next entrant meets them, so that
    their turn rows are still kept: the tables whose rows fit KEPT_BYTES, less two (the
    entrant's, and the previous entrant's, which is not the least recently used)."""
    per_table = len(model.turn_starts) * (16 + 12 * ENDS_PER_TURN)
    return max(1, KEPT_BYTES // per_table - 2)


def _size(rows: TurnRows) -> int:
    return sum(a.nbytes for a in (rows.const, rows.ptr, rows.to, rows.p, rows.tie))


def turn_rows(rules: RuleSet, policy: Policy) -> TurnRows:
    """POLICY's turn rows, made once and kept (up to KEPT_BYTES per model)."""
    m = rules.model
    e = engine(m)
    turns = _turns(m)
    table = np.ascontiguousarray(policy.table, dtype=np.int8)  # no copy for a kept table
    key = (id(policy.index), hashlib.blake2b(table, digest_size=16).digest())
    rows = turns.kept.get(key)
    if rows is not None:
        turns.kept.move_to_end(key)
        return rows
    room = FIRST_ROOM
    while True:
        stop = np.full(1, -1, dtype=np.int64)
        made = _turn_rows(e.rules, m.turn_starts, table, policy.index, room, stop)
        if stop[0] != -2:
            break
        room *= 4
    if stop[0] >= 0:
        raise HogbenchError(
            f"{rules.name}: at {rules.describe_state(int(stop[0]))} a roll leaves its turn"
            " other than by handing it on (the model's turn starts are not its turns)"
        )
    rows = TurnRows(*made)
    turns.kept[key] = rows
    while len(turns.kept) > 2 and sum(map(_size, turns.kept.values())) > KEPT_BYTES:
        turns.kept.popitem(last=False)
    return_freed_memory()  # the rows grew by doubling, and rows given up leave holes
    return rows


def evaluate_turns(rules: RuleSet, a: Policy, b: Policy) -> SeatValues:
    """A's exact chances against B, in both seatings, from their turn rows."""
    m = rules.model
    turns = _turns(m)
    ra, rb = turn_rows(rules, a), turn_rows(rules, b)
    w = np.zeros(2 * len(m.turn_starts))
    stuck = _evaluate_turns(
        ra.const, ra.ptr, ra.to, ra.p, rb.const, rb.ptr, rb.to, rb.p, turns.level_ptr, w,
        TOLERANCE,
    )  # fmt: skip
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: values did not converge within {MAX_SWEEPS} sweeps at level {stuck}"
            " (a pair of strategies that can loop forever without progress?)"
        )
    at = int(np.flatnonzero(m.turn_starts == m.start)[0])
    return SeatValues(first=float(w[2 * at]), second=float(1.0 - w[2 * at + 1]), v_a=None, v_b=None)


def tie_turns(rules: RuleSet, a: Policy, b: Policy) -> tuple[float, float]:
    """The chance that A against B ends tied, A first and A second, from their turn rows (the
    rows ``evaluate_turns`` uses: a pair's tie costs what its value costs)."""
    m = rules.model
    turns = _turns(m)
    ra, rb = turn_rows(rules, a), turn_rows(rules, b)
    t = np.zeros(2 * len(m.turn_starts))
    stuck = _tie_turns(
        ra.tie, ra.ptr, ra.to, ra.p, rb.tie, rb.ptr, rb.to, rb.p, turns.level_ptr, t, TOLERANCE
    )
    if stuck >= 0:
        raise HogbenchError(
            f"{rules.name}: tie chances did not converge within {MAX_SWEEPS} sweeps at level"
            f" {stuck} (a pair of strategies that can loop forever without progress?)"
        )
    at = int(np.flatnonzero(m.turn_starts == m.start)[0])
    return float(t[2 * at]), float(t[2 * at + 1])
