"""Two decision tables in a game whose hidden state is each player's memory of their own last
turn (a model's ``memories``): the values over observations, the mover's memory class and the
opponent's memory, from memory rows.

A state is (mover's memory, opponent's memory, observation). The turn reads the mover's memory
only through its class for the choice (0 or 1: say, whether Feral Hogs' bonus fires), keeps the
opponent's memory and gives the mover a new one. With decision tables, A's value at a state is
then W_A(observation, class, opponent's memory), and one outcome contributes

    1 - W_B(x', class of B's memory for B's choice t at x', m')

for every memory B may hold. Since B's memory enters only through its class for t, that is
``1 - W_B(x', 0, m')`` for all of them, less ``W_B(x', 1, m') - W_B(x', 0, m')`` for the few in
class 1 for t (the values of class 1 are kept as that difference). Each (observation, class) is
one pass over its outcomes and then one value per opponent's memory: about twenty times less
work than the states (121 memory pairs per observation in hog-fa19), and no rule function is
called per pair of tables, since the outcomes are resolved once per model into memory rows: row
``(ci * P + i) * 2 + class``, for the i-th observation in the order of evaluation (a pass then
reads rows front to back), holds the chance of winning at once, and each continuing outcome as
one 32-bit code: the place of B's value, ``m' * S + x'`` (class 0 and memory m'; class 1 is M *
S further), below the index of its chance in the model's dice distributions (``probs``). Codes
of four bytes instead of an index and a chance in twelve made always_roll:4 against
always_roll:6 1.5 times faster. The observation is innermost: the outcomes of one roll lead to
neighbouring observations, and their values then share cache lines. S, the stride of a memory,
is an odd number of cache lines, at least the observations: the same observation under
different memories then falls in different cache sets (with S a power of two, the 44 values a
hog-fa19 state writes competed for the 8 places of one cache set: random tables took some 15%
longer).

A class-1 value is needed only where the mover can hold a memory of that class: where the new
memory is the choice made (``memory_is_choice``, hog-fa19's dice), a table that always rolls 4
never holds 2 or 6, and those values are skipped, as are the corrections that would read them.

The same rows give a best response to one table (``best_response``): the solver sees both
memories, so its value keeps its own memory instead of a class, and each (choice, class) row is
summed once per observation as a vector over the memory the turn keeps (the other player's).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types

from hogbench.exact.core import _FAST, F8, I4, I8, RULES, RuleFunctions, resolve_all
from hogbench.exact.intrinsics import prefetch
from hogbench.jit import kernel
from hogbench.rules.base import LOSE, OTHER, TIE, WIN, GameModel, widest_roll


class MemoryRows(NamedTuple):
    """A model with memories, resolved once per (observation, choice, class) (see above)."""

    order: np.ndarray  # observations, each one's successors before it
    classes: np.ndarray  # classes[ci * M + memory]: the class of a memory for choices[ci]
    near_ptr: np.ndarray  # near_mem[near_ptr[ci]:near_ptr[ci + 1]]: the class-1 memories of ci
    near_mem: np.ndarray
    row_ptr: np.ndarray
    row_const: np.ndarray
    row_code: np.ndarray  # int32: the chance's index << to_bits | m' * S + x'
    probs: np.ndarray  # the chances, the model's dist_prob


class Layout(NamedTuple):
    """Where the values of a memory and an observation lie (see above)."""

    stride: int  # S: one memory's values
    to_bits: int  # the bits of a place m' * S + x' in a code


#: Values in a cache line.
LINE = 8


def layout(area: int, memories: int) -> Layout:
    """The layout of AREA observations under MEMORIES memories."""
    lines = -(-area // LINE)
    stride = (lines | 1) * LINE
    return Layout(stride, (memories * stride - 1).bit_length())


MEMORY_ROWS = types.Tuple((I8, I8, I8, I8, I8, F8, I4, F8))


@kernel(
    types.Tuple((I4, types.int64))(RULES, I8, I8, types.int64, types.int64, types.int64, I8, F8)
)
def _build_memory_rows(rules, order, rep, memories, stride, to_bits, row_ptr, row_const):
    """Fill the rows; REP[ci * 2 + class] is a memory of that class for choices[ci] (-1: none).
    Returns row_code and -1, or a state y if an outcome lets the mover move again there."""
    roll_kind, resolve, _, resolve_row, by_row, params, dist_ptr, dist_value, dist_prob, choices = (
        rules
    )
    area = len(order)
    codes = np.empty(widest_roll(dist_ptr), dtype=np.int64)
    bound = 0  # every outcome of every row: the continuing ones are fewer
    for ci in range(len(choices)):
        for x in range(area):
            for cls in range(2):
                own = rep[ci * 2 + cls]
                if own >= 0:
                    k = roll_kind(params, own * memories * area + x, choices[ci])
                    bound += dist_ptr[k + 1] - dist_ptr[k]
    row_code = np.empty(bound, dtype=np.int32)
    m = 0
    for ci in range(len(choices)):
        c = choices[ci]
        for i in range(area):
            x = order[i]
            for cls in range(2):
                r = (ci * area + i) * 2 + cls
                row_ptr[r] = m
                row_const[r] = 0.0
                own = rep[ci * 2 + cls]
                if own < 0:
                    continue
                state = own * memories * area + x  # the opponent's memory 0
                k = roll_kind(params, state, c)
                lo, hi = dist_ptr[k], dist_ptr[k + 1]
                resolve_all(
                    resolve, resolve_row, by_row, params, state, c, dist_value, lo, hi, codes
                )
                const = 0.0
                for d in range(lo, hi):
                    code, p = codes[d - lo], dist_prob[d]
                    kind = code & 7
                    if kind == OTHER:  # 1 - the opponent's value: p here, -p * value there
                        y = code >> 3
                        new = y // area  # the mover's new memory: the opponent's is 0
                        row_code[m] = (d << to_bits) + new * stride + y - new * area
                        m += 1
                        const += p
                    elif kind == WIN:
                        const += p
                    elif kind == TIE:
                        const += 0.5 * p
                    elif kind != LOSE:  # SAME: the mover goes again, which memories exclude
                        return row_code, code >> 3
                row_const[r] = const
    row_ptr[len(row_ptr) - 1] = m
    return row_code[:m].copy(), -1


def build_memory_rows(model: GameModel, rules: RuleFunctions) -> MemoryRows:
    """Resolve MODEL (which declares memories) into memory rows, once per model."""
    m, memories = model, model.memories
    area = m.n_states // memories**2
    order = m.order[m.order < area]  # the states with memories 0, 0: every observation once
    classes = np.ascontiguousarray(m.memory_class, dtype=np.int64)
    n_choices = len(m.choices)
    assert classes.shape == (n_choices, memories) and set(np.unique(classes)) <= {0, 1}
    assert len(order) == area and (classes == 0).any(axis=1).all(), "every choice has class 0"
    rep = np.array(  # the first memory of each class, -1 if it has none
        [np.append(np.flatnonzero(row == cls), -1)[0] for row in classes for cls in (0, 1)]
    )
    near_ptr = np.concatenate([[0], np.cumsum((classes == 1).sum(axis=1))])
    near_mem = np.flatnonzero(classes.reshape(-1) == 1) % memories
    places = layout(area, memories)
    if places.to_bits + (len(m.dist_prob) - 1).bit_length() > 31 or n_choices > 127:
        raise AssertionError("a model with memories too large for 32-bit codes or int8 choices")
    row_ptr = np.empty(2 * area * n_choices + 1, dtype=np.int64)
    row_const = np.empty(2 * area * n_choices)
    row_code, again = _build_memory_rows(
        rules, order, rep, memories, places.stride, places.to_bits, row_ptr, row_const
    )
    if again >= 0:
        raise AssertionError(f"a model with memories lets the mover go again at state {again}")
    return MemoryRows(
        order, classes.reshape(-1), near_ptr.astype(np.int64), near_mem.astype(np.int64),
        row_ptr, row_const, row_code, np.array(m.dist_prob, dtype=np.float64),
    )  # fmt: skip


@njit(cache=True)
def _prepare(classes, near_ptr, near_mem, tab_a, tab_b, c0, start_memories, by_choice):
    """For both players (P = 0: A, 1: B): choice[P * area + x], the index of the choice at x;
    both[P * area + x], whether P at x may hold a class-1 memory (then both classes are
    needed); and the memories P may hold, held[P * M : P * M + count[P]]. A player holds the
    start's memories, and then only memories its turns give: with BY_CHOICE, its choices."""
    n_choices = len(near_ptr) - 1
    memories = len(classes) // n_choices
    area = len(tab_a)
    choice = np.empty(2 * area, dtype=np.int8)  # small: the opponent's is read per outcome
    choice[:area] = tab_a - c0
    choice[area:] = tab_b - c0
    holds = np.zeros(2 * memories, dtype=np.bool_)
    for player in range(2):
        for q in start_memories:
            holds[player * memories + q] = True
        if by_choice:
            for x in range(area):
                holds[player * memories + choice[player * area + x]] = True
        else:
            holds[player * memories : (player + 1) * memories] = True
    both = np.zeros(2 * area, dtype=np.bool_)
    held = np.empty(2 * memories, dtype=np.int64)
    count = np.zeros(2, dtype=np.int64)
    for player in range(2):
        may = np.zeros(n_choices, dtype=np.bool_)
        for ci in range(n_choices):
            for k in range(near_ptr[ci], near_ptr[ci + 1]):
                may[ci] |= holds[player * memories + near_mem[k]]
        for x in range(area):
            both[player * area + x] = may[choice[player * area + x]]
        for q in range(memories):
            if holds[player * memories + q]:
                held[player * memories + count[player]] = q
                count[player] += 1
    return choice, both, held, count


@kernel(
    types.UniTuple(types.float64, 2)(
        MEMORY_ROWS, I8, I8, types.int64, types.int64, types.boolean, types.int64, types.int64, F8,
    ),
    fastmath=_FAST,
)  # fmt: skip
def _evaluate_tables(rows, tab_a, tab_b, start, c0, by_choice, stride, to_bits, w):
    """Both seatings' values at START (A first, A second), on the layout STRIDE, TO_BITS; W
    is scratch (``scratch_size``): w[(P * 2 * M + q) * S + x] is player P's value
    at x (0: A) with a class-0 memory, when its opponent remembers q, and M * S further is what
    a class-1 memory adds to it. Only the memories the opponent may hold are written, and only
    they are read."""
    order, classes, near_ptr, near_mem, row_ptr, row_const, row_code, probs = rows
    n_choices = len(near_ptr) - 1
    memories = len(classes) // n_choices
    area = len(order)
    plane = memories * stride  # the values of one player and class
    start_x = start % area
    own, other = divmod(start // area, memories)
    starts = np.array([own, other])
    choice, both, held, count = _prepare(
        classes, near_ptr, near_mem, tab_a, tab_b, c0, starts, by_choice
    )
    has_both = (both[:area].any(), both[area:].any())
    if not (has_both[0] or has_both[1]):
        _pass_without_classes(
            order, choice, held, count, row_ptr, row_const, row_code, probs, stride, to_bits, w
        )
    else:
        corr = np.zeros(memories)
        # What the opponent's class 1 adds, by the opponent's choice, in two halves: outcomes take
        # turns, so that one outcome's addition need not wait for the previous one's store (10%).
        wide = np.uint64(n_choices)
        by_choice_t = np.zeros(2 * n_choices)
        near_choice = np.empty(len(near_mem), dtype=np.uint64)  # near_mem[k] is class 1 for it
        for t in range(n_choices):
            near_choice[near_ptr[t] : near_ptr[t + 1]] = t
        # The opponent's choice index by the place of its value, m' * S + x', a copy for each
        # memory: an outcome's code then gives it without working out x' (a tenth of the pass).
        choice_at = np.empty(2 * plane, dtype=np.uint8)
        for player in range(2):
            if has_both[player]:  # read where this player is the opponent with class 1
                for q in range(memories):
                    lo = player * plane + q * stride
                    choice_at[lo : lo + area] = choice[player * area : (player + 1) * area]
        # Indices are unsigned: numba then skips its check for negative ones, which made this loop
        # 1.7 times slower (measured). (An unsigned and a signed integer add up to a float in
        # numba, so every index below is unsigned.)
        u, one, two = np.uint64, np.uint64(1), np.uint64(2)
        plane_u = u(plane)
        place_bits, place_mask = u(to_bits), u((1 << to_bits) - 1)
        # A table of one choice reads its rows front to back, which the processor foresees. Rows
        # of varied choices lie all over the rows (14 MB in hog-fa19), and each (observation,
        # player) waited on two misses in a row, its row_ptr and then its codes: they are asked
        # for AHEAD and 2 * AHEAD observations early (random tables 1.2 times faster).
        varied = (tab_a != tab_a[0]).any() or (tab_b != tab_b[0]).any()
        ahead = 4
        for i in range(area):
            x = order[i]
            if varied and i + 2 * ahead < area:
                for player in range(2):
                    later = i + 2 * ahead
                    prefetch(row_ptr, (choice[player * area + order[later]] * area + later) * 2)
            if varied and i + ahead < area:
                for player in range(2):
                    later = i + ahead
                    r = (choice[player * area + order[later]] * area + later) * 2
                    lo, hi = row_ptr[r], row_ptr[r + 2]  # both classes' rows
                    for k in range(lo, hi, 16):  # a cache line of codes each
                        prefetch(row_code, k)
                    prefetch(row_code, hi - 1)
            for player in range(2):
                opponent = 1 - player
                at_opponent, opponent_plane = u(opponent * 2 * plane), u(opponent * plane)
                ci = choice[player * area + x]
                at = player * 2 * plane + x
                held_lo, held_hi = opponent * memories, opponent * memories + count[opponent]
                for cls in range(2 if both[player * area + x] else 1):
                    r = (ci * area + i) * 2 + cls
                    lo, end = u(row_ptr[r]), u(row_ptr[r + 1])
                    # The row's constant holds the chances of every continuing outcome: each takes
                    # the opponent's value off.
                    s0 = s1 = 0.0
                    j = lo
                    if has_both[opponent]:  # and the difference where the opponent's is class 1
                        while j + one < end:  # two of each sum (see by_choice_t above)
                            c0_, c1_ = u(row_code[j]), u(row_code[j + one])
                            to0, to1 = c0_ & place_mask, c1_ & place_mask
                            p0, p1 = probs[c0_ >> place_bits], probs[c1_ >> place_bits]
                            s0 += p0 * w[at_opponent + to0]
                            s1 += p1 * w[at_opponent + to1]
                            by_choice_t[choice_at[opponent_plane + to0]] += (
                                p0 * w[at_opponent + plane_u + to0]
                            )
                            by_choice_t[wide + choice_at[opponent_plane + to1]] += (
                                p1 * w[at_opponent + plane_u + to1]
                            )
                            j += two
                        if j < end:
                            c0_ = u(row_code[j])
                            to0, p0 = c0_ & place_mask, probs[c0_ >> place_bits]
                            s0 += p0 * w[at_opponent + to0]
                            by_choice_t[choice_at[opponent_plane + to0]] += (
                                p0 * w[at_opponent + plane_u + to0]
                            )
                        # Without a branch on which choices came up: it was mispredicted half the
                        # time, a tenth of the pass with random tables.
                        for k in range(len(near_mem)):
                            t = near_choice[k]
                            corr[near_mem[k]] -= by_choice_t[t] + by_choice_t[wide + t]
                        for t in range(2 * wide):
                            by_choice_t[t] = 0.0
                    else:  # two sums, so the additions do not wait on each other
                        while j + one < end:
                            c0_, c1_ = u(row_code[j]), u(row_code[j + one])
                            s0 += probs[c0_ >> place_bits] * w[at_opponent + (c0_ & place_mask)]
                            s1 += probs[c1_ >> place_bits] * w[at_opponent + (c1_ & place_mask)]
                            j += two
                        if j < end:
                            c0_ = u(row_code[j])
                            s0 += probs[c0_ >> place_bits] * w[at_opponent + (c0_ & place_mask)]
                    base = row_const[r] - (s0 + s1)
                    for k in range(held_lo, held_hi):
                        q = held[k]
                        if cls == 0:
                            w[at + q * stride] = base + corr[q]
                        else:  # class 1 as the difference from class 0
                            w[at + plane + q * stride] = base + corr[q] - w[at + q * stride]
                    if has_both[opponent]:  # only that path writes corrections; a slice
                        for q in range(memories):  # assignment here cost a fifth of the time
                            corr[q] = 0.0
                if has_both[player] and not both[player * area + x]:
                    for k in range(held_lo, held_hi):  # no class 1 here: no difference
                        w[at + plane + held[k] * stride] = 0.0
    first = w[other * stride + start_x]
    second = 1.0 - w[2 * plane + other * stride + start_x]
    if classes[choice[start_x] * memories + own]:
        first += w[plane + other * stride + start_x]
    if classes[choice[area + start_x] * memories + own]:
        second -= w[3 * plane + other * stride + start_x]
    return first, second


@njit(cache=True, fastmath=_FAST)
def _pass_without_classes(
    order, choice, held, count, row_ptr, row_const, row_code, probs, stride, to_bits, w
):
    """``_evaluate_tables``'s pass where neither table can hold a class-1 memory (say,
    always_roll:4 against always_roll:6): one row per observation and player, whose value
    every memory the opponent may hold shares. Without the general pass's classes and
    corrections, always_roll:4 against always_roll:6 is 1.5 times faster."""
    area = len(order)
    memories = len(held) // 2
    plane = memories * stride
    u, one, two = np.uint64, np.uint64(1), np.uint64(2)
    place_bits, place_mask = u(to_bits), u((1 << to_bits) - 1)
    for i in range(area):
        x = order[i]
        for player in range(2):
            opponent = 1 - player
            at_opponent = u(opponent * 2 * plane)
            r = (choice[player * area + x] * area + i) * 2
            j, end = u(row_ptr[r]), u(row_ptr[r + 1])
            # The general pass's loop again, spelt out: as a shared function taking the arrays,
            # numba counted references to them at every row (this pass 1.8 times slower).
            s0 = s1 = 0.0  # two sums, so the additions do not wait on each other
            while j + one < end:
                c0_, c1_ = u(row_code[j]), u(row_code[j + one])
                s0 += probs[c0_ >> place_bits] * w[at_opponent + (c0_ & place_mask)]
                s1 += probs[c1_ >> place_bits] * w[at_opponent + (c1_ & place_mask)]
                j += two
            if j < end:
                c0_ = u(row_code[j])
                s0 += probs[c0_ >> place_bits] * w[at_opponent + (c0_ & place_mask)]
            value = row_const[r] - (s0 + s1)
            at = player * 2 * plane + x
            for k in range(opponent * memories, opponent * memories + count[opponent]):
                w[at + held[k] * stride] = value


def evaluate_tables(
    model: GameModel, rows: MemoryRows, tab_a: np.ndarray, tab_b: np.ndarray, scratch: np.ndarray
) -> tuple[float, float]:
    """A's chances against B moving first and second: decision tables TAB_A, TAB_B of MODEL,
    which declares memories, resolved into ROWS; SCRATCH as ``scratch_size`` says."""
    places = layout(len(rows.order), model.memories)
    return _evaluate_tables(
        tuple(rows), tab_a, tab_b, model.start, model.choices[0], model.memory_is_choice,
        *places, scratch,
    )  # fmt: skip


def scratch_size(model: GameModel) -> int:
    """The values evaluate_tables keeps: two players, two classes, M memories, S places."""
    return 4 * model.memories * layout(model.n_states // model.memories**2, model.memories).stride


@njit(cache=True, fastmath=_FAST, inline="always")
def _row_vector(r, row_ptr, row_code, probs, to_bits, place_mask, values, acc):
    """ACC = the sum over row R's continuing outcomes of p times the vector of VALUES (as long
    as ACC) that starts at the outcome's place times that length."""
    memories = len(acc)
    acc[:] = 0.0
    for j in range(row_ptr[r], row_ptr[r + 1]):
        code = row_code[j]
        p = probs[code >> to_bits]
        at = (code & place_mask) * memories
        for m in range(memories):
            acc[m] += p * values[at + m]


@kernel(
    types.UniTuple(types.float64, 2)(
        MEMORY_ROWS, I8, types.int64, types.int64, types.int64, types.int64, F8, F8
    ),
    fastmath=_FAST,
)
def _best_response(rows, tab_b, start, c0, stride, to_bits, u, v):
    """The best response's chances against B's table TAB_B, moving first and second, at START.

    The solver A sees the whole state (observation x, A's memory a, B's memory b); B plays its
    table t, so B's memory enters only through its class k for t(x):

        U_B(x, k, a) = const(x, t(x), k) - sum over outcomes p * V_A(x', a, b')
        V_A(x, a, b) = max over c of const(x, c, class(a, c)) - sum p * U_B(x', class(b, t(x')), a')

    (const holds the chance of winning at once, half of a tie's, and every continuing chance;
    b' and a' are the mover's new memories from the outcome's code). Each observation is done
    for both players, successors first. A's rows depend on a only through its class, so each
    (choice, class) row is summed once, as a vector over b, and each a takes the maximum over
    choices of its classes' vectors. The values are vectors over the memory that is kept, so
    a row's outcome reads M values in a row: U lies at u[(a * S + x) * M + b], already read
    through b's class for t(x), and V at v[(b * S + x) * M + a], where a code's place
    m' * S + x' times M is where its vector starts."""
    order, classes, near_ptr, _, row_ptr, row_const, row_code, probs = rows
    n_choices = len(near_ptr) - 1
    memories = len(classes) // n_choices
    area = len(order)
    place_mask = (1 << to_bits) - 1
    acc = np.empty(memories)
    b_values = np.empty(2 * memories)  # U_B(x, k, a) at [k * M + a]
    a_rows = np.empty(2 * n_choices * memories)  # A's row (ci, class) as a vector over b
    for i in range(area):
        x = order[i]
        # B at x: its choice's rows, class 1 only if some memory has it for that choice
        t = tab_b[x] - c0
        for k in range(2 if near_ptr[t + 1] > near_ptr[t] else 1):
            r = (t * area + i) * 2 + k
            _row_vector(r, row_ptr, row_code, probs, to_bits, place_mask, v, acc)
            for a in range(memories):
                b_values[k * memories + a] = row_const[r] - acc[a]
        for a in range(memories):
            at = (a * stride + x) * memories
            for b in range(memories):
                u[at + b] = b_values[classes[t * memories + b] * memories + a]
        # A at x: every choice's rows
        for ci in range(n_choices):
            for k in range(2 if near_ptr[ci + 1] > near_ptr[ci] else 1):
                r = (ci * area + i) * 2 + k
                _row_vector(r, row_ptr, row_code, probs, to_bits, place_mask, u, acc)
                at = (ci * 2 + k) * memories
                for b in range(memories):
                    a_rows[at + b] = row_const[r] - acc[b]
        for a in range(memories):
            for b in range(memories):
                best = a_rows[classes[a] * memories + b]
                for ci in range(1, n_choices):
                    best = max(best, a_rows[(ci * 2 + classes[ci * memories + a]) * memories + b])
                v[(b * stride + x) * memories + a] = best
    start_x = start % area
    own, other = divmod(start // area, memories)
    first = v[(other * stride + start_x) * memories + own]
    second = 1.0 - u[(other * stride + start_x) * memories + own]
    return first, second


def best_response(
    model: GameModel, rows: MemoryRows, table: np.ndarray, scratch: np.ndarray
) -> tuple[float, float]:
    """The best response's chances against the decision table TABLE of MODEL (which declares
    memories, resolved into ROWS), moving first and second: the solver sees the whole state,
    as ``exact.solve`` does. SCRATCH as ``best_response_scratch_size`` says."""
    places = layout(len(rows.order), model.memories)
    half = len(scratch) // 2
    return _best_response(
        tuple(rows), table, model.start, model.choices[0], *places, scratch[:half], scratch[half:]
    )


def best_response_scratch_size(model: GameModel) -> int:
    """The values best_response keeps: both players' values over M memories kept, M memories
    of the mover and S places."""
    memories = model.memories
    return 2 * memories * memories * layout(model.n_states // memories**2, memories).stride
