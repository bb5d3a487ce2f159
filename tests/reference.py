"""Plain, independent reference calculations for the tests (no hogbench engine code).

The exact value is a memoised recursion over the course's own turn functions, on dice
distributions enumerated here by brute force: the way the course's win-rate calculator works.
"""

from __future__ import annotations

import itertools
import sys
from functools import cache


def sow_sad_distribution(num_rolls: int, sides: int = 6) -> dict[int, float]:
    """Every ordered roll enumerated: 1 if any die shows 1, else the sum."""
    dist: dict[int, float] = {}
    total = sides**num_rolls
    for roll in itertools.product(range(1, sides + 1), repeat=num_rolls):
        points = 1 if 1 in roll else sum(roll)
        dist[points] = dist.get(points, 0.0) + 1 / total
    return dist


def su21_win_probability(strategy_a, strategy_b, goal: int, max_dice: int = 6) -> float:
    """Chance that A, moving first, beats B in hog-su21 to GOAL (strategies roll <= max_dice)."""

    def piggy(score):
        return abs((score // 10) % 10 - score % 10) + 4

    def digits(n):
        return [int(d) for d in str(n)]

    def boar(player, opponent):
        p, o = digits(player), digits(opponent)
        return min(p) < min(o) and max(p) > max(o)

    dists = {n: sow_sad_distribution(n) for n in range(1, max_dice + 1)}
    sys.setrecursionlimit(100_000)

    @cache
    def a_wins(a_score, b_score, a_to_move):
        mover, other = (a_score, b_score) if a_to_move else (b_score, a_score)
        n = (strategy_a if a_to_move else strategy_b)(mover, other)
        outcomes = {piggy(other): 1.0} if n == 0 else dists[n]
        total = 0.0
        for points, p in outcomes.items():
            new = mover + points
            if new >= goal:
                total += p * (1.0 if a_to_move else 0.0)
                continue
            again = boar(new, other)
            next_a, next_b = (new, other) if a_to_move else (other, new)
            total += p * a_wins(next_a, next_b, a_to_move if again else not a_to_move)
        return total

    return a_wins(0, 0, True)


# ---------------------------------------------------------------------------------------------
# One reference recursion for every Hog term
# ---------------------------------------------------------------------------------------------


@cache
def roll_distribution(roll_dice, num_rolls: int, sides: int) -> dict[int, float]:
    """Exact {points: chance} of the course's ROLL_DICE(num_rolls, dice) with fair SIDES-sided
    dice: every multiset of outcomes replayed through the course's test dice, weighted by its
    number of orders (every Hog dice rule ignores the order)."""
    from math import factorial, prod

    from hogbench.dice import make_test_dice

    dist: dict[int, float] = {}
    for combo in itertools.combinations_with_replacement(range(1, sides + 1), num_rolls):
        ways = factorial(num_rolls) // prod(factorial(combo.count(f)) for f in set(combo))
        points = roll_dice(num_rolls, make_test_dice(*combo))
        dist[points] = dist.get(points, 0.0) + ways / sides**num_rolls
    return dist


class _Loop(Exception):
    """The recursion came back to a state it is computing: this game can repeat a state."""


def win_chance(turn, strategy_a, strategy_b, goal: int) -> float:
    """A's chance of beating B, A moving first, by memoised recursion over TURN; where play can
    come back to a state (hog-sp22's 0-point turns), by ``win_chance_by_equations`` instead.

    A state is (mover's score, other's score, mover's hidden, other's hidden): the hidden parts
    are what a term keeps beyond the scores (previous dice or points, a used Pork Chop), 0 where
    there is none. TURN(state, num_rolls) returns {(mover's score, other's score, mover's
    hidden, mover moves again): chance}, or with the other's hidden too, {(mover's score,
    other's score, mover's hidden, other's hidden, again): chance} (what both players share,
    such as the dice in play, is kept in both). The mover wins on reaching GOAL; a turn that leaves
    the other player at GOAL loses; both players' chances of winning add up to 1."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))
    computing = set()

    @cache
    def mover_wins(state, a_moves):
        if (state, a_moves) in computing:
            raise _Loop
        computing.add((state, a_moves))
        total = 0.0
        outcomes = _moves(turn, state, a_moves, strategy_a, strategy_b)
        for (new, opponent, mine, theirs), again, p in outcomes:
            if new >= goal:
                total += p
            elif opponent >= goal:
                continue
            elif again:
                total += p * mover_wins((new, opponent, mine, theirs), a_moves)
            else:
                total += p * (1.0 - mover_wins((opponent, new, theirs, mine), not a_moves))
        computing.discard((state, a_moves))
        return total

    try:
        return mover_wins((0, 0, 0, 0), True)
    except _Loop:
        return win_chance_by_equations(turn, strategy_a, strategy_b, goal)


def _moves(turn, state, a_moves, strategy_a, strategy_b):
    """The outcomes of the mover's turn at STATE: ((mover's score, other's score, mover's
    hidden, other's hidden), whether the mover moves again, chance)."""
    mover, other, _, theirs = state
    num_rolls = (strategy_a if a_moves else strategy_b)(mover, other)
    for key, p in turn(state, num_rolls).items():
        new, opponent, mine, *rest = key
        theirs, again = (theirs, *rest) if len(rest) == 1 else rest
        yield (new, opponent, mine, theirs), again, p


def win_chance_by_equations(turn, strategy_a, strategy_b, goal: int) -> float:
    """A's chance of beating B, A moving first, where a game may never end, which counts as a
    tie: P(A wins) + P(never ends) / 2."""
    a_wins, b_wins = outcome_chances(turn, strategy_a, strategy_b, goal)
    return a_wins + (1.0 - a_wins - b_wins) / 2


def outcome_chances(turn, strategy_a, strategy_b, goal: int) -> tuple[float, float]:
    """The chances that A wins and that B wins, A moving first (the rest: the game never ends).

    Linear algebra, nothing iterated. The positions play reaches (a state and whether A moves)
    are split into their strongly connected components (Tarjan's depth-first search), which
    come out successors first; within a component each position's chances that A wins and
    that B wins are equations in the component's own and in the known chances of what lies
    beyond, solved by numpy. A component with no way out at all is a game that never ends:
    nobody wins there."""
    import numpy as np

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))

    @cache
    def moves(node):
        """(chances that A wins and that B wins now, [(next position, chance)])."""
        state, a_moves = node
        won, out = np.zeros(2), []
        for (new, opponent, mine, theirs), again, p in _moves(
            turn, state, a_moves, strategy_a, strategy_b
        ):
            if new >= goal or opponent >= goal:
                won[int((new >= goal) != a_moves)] += p  # [0]: A wins, [1]: B wins
            elif again:
                out.append((((new, opponent, mine, theirs), a_moves), p))
            else:
                out.append((((opponent, new, theirs, mine), not a_moves), p))
        return won, out

    order, low, stack, on_stack, chances = {}, {}, [], set(), {}

    def visit(node):
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for nxt, _ in moves(node)[1]:
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            solve(component)

    def solve(component):
        at = {node: k for k, node in enumerate(component)}
        q = np.zeros((len(component), len(component)))
        known = np.zeros((len(component), 2))
        leaves = False
        for k, node in enumerate(component):
            won, out = moves(node)
            known[k] += won
            leaves |= won.sum() > 0
            for nxt, p in out:
                if nxt in at:
                    q[k, at[nxt]] += p
                else:
                    known[k] += p * chances[nxt]
                    leaves = True
        solved = np.linalg.solve(np.eye(len(component)) - q, known) if leaves else known
        for k, node in enumerate(component):
            chances[node] = solved[k]

    start = ((0, 0, 0, 0), True)
    visit(start)
    return float(chances[start][0]), float(chances[start][1])
