"""Hog, CS 61A Fall 2017: Pig Out, Free Bacon, Swine Swap.

Rules (the course's skeleton ``hog/hog.py`` and its docstrings, as in Aztreas/CS61A---Fall-2017;
the project page copied in czahie/CS61A ``Projects/hog/README.md``):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores one more than the largest digit in
  the opponent's total score.
* Swine Swap. After points for the turn are added to the current player's score, if one of the
  scores is a positive integer multiple of the other (``is_swap``: "Return whether one of the
  scores is an integer multiple of the other"), the two scores are swapped. Scores of 0 and 1
  never swap (the course's examples: 1 is not counted as a divisor here).

Only six-sided dice. Reading: the swap is checked after every turn, so also when the mover has
reached the goal (the course's ``play`` checks before the loop's test), and a swap of equal
scores changes nothing.
"""

from __future__ import annotations

from hogbench.rules._kit import make_take_turn
from hogbench.rules._swap_term import (
    SwapTerm,
    make_bacon_strategy,
    make_play,
    make_swap_strategy,
)
from hogbench.rules.hog_fa13 import free_bacon
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    always_roll,
    make_test_dice,
    other,
    pig_out,
    roll_dice,
    silence,
)


def is_swap(score0, score1):
    """Return whether one of the scores is an integer multiple of the other (both above 1).

    >>> is_swap(2, 4), is_swap(18, 6), is_swap(1, 5), is_swap(7, 7), is_swap(12, 18)
    (True, True, False, True, False)
    """
    if score0 <= 1 or score1 <= 1:
        return False
    return max(score0, score1) % min(score0, score1) == 0


take_turn = make_take_turn(free_bacon, roll_dice)
play = make_play(take_turn, is_swap)
bacon_strategy = make_bacon_strategy(free_bacon)
swap_strategy = make_swap_strategy(free_bacon, is_swap, avoid_harmful=False)


class HogFa17(SwapTerm):
    name = "hog-fa17"
    title = "Hog, CS 61A Fall 2017"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    swap_strategy_summary = "0 dice for a beneficial swap or >= margin points, else num_rolls"
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Swine Swap", "swap when one score (above 1) is a multiple of the other"),
    )


RULES = HogFa17
