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


def win_chance(turn, strategy_a, strategy_b, goal: int) -> float:
    """A's chance of beating B, A moving first, by memoised recursion over TURN.

    A state is (mover's score, other's score, mover's hidden, other's hidden): the hidden parts
    are what a term keeps beyond the scores (previous dice or points, a used Pork Chop), 0 where
    there is none. TURN(state, num_rolls) returns {(mover's score, other's score, mover's
    hidden, mover moves again): chance}, or with the other's hidden too, {(mover's score,
    other's score, mover's hidden, other's hidden, again): chance} (what both players share,
    such as the dice in play, is kept in both). The mover wins on reaching GOAL; a turn that leaves
    the other player at GOAL loses; both players' chances of winning add up to 1."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))

    @cache
    def mover_wins(state, a_moves):
        mover, other, _, theirs = state
        num_rolls = (strategy_a if a_moves else strategy_b)(mover, other)
        total = 0.0
        for key, p in turn(state, num_rolls).items():
            new, opponent, mine, *rest = key
            theirs, again = (theirs, *rest) if len(rest) == 1 else rest
            if new >= goal:
                total += p
            elif opponent >= goal:
                continue
            elif again:
                total += p * mover_wins((new, opponent, mine, theirs), a_moves)
            else:
                total += p * (1.0 - mover_wins((opponent, new, theirs, mine), not a_moves))
        return total

    return mover_wins((0, 0, 0, 0), True)
