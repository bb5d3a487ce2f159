"""Hog, CS 61A Spring 2018: Pig Out, Free Bacon, Swine Swap.

Rules (the course's skeleton ``hog.py`` and its docstrings, as in Raouaaa/The-hog-game): as in
Fall 2017 (Pig Out; a swap when one score is an integer multiple of the other, both above 1,
checked after every turn), except

* Free Bacon. A player who chooses to roll zero dice scores 2 more than the absolute difference
  between the digits of the opponent's total score.
"""

from __future__ import annotations

from hogbench.rules._kit import make_take_turn
from hogbench.rules._swap_term import (
    make_bacon_strategy,
    make_play,
    make_swap_strategy,
)
from hogbench.rules.hog_fa17 import HogFa17, is_swap
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    always_roll,
    make_test_dice,
    other,
    pig_out,
    roll_dice,
    silence,
)


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon): 2 + |tens - ones| of the
    opponent's SCORE.

    >>> free_bacon(0), free_bacon(27), free_bacon(90)
    (2, 7, 11)
    """
    return 2 + abs((score // 10) % 10 - score % 10)


take_turn = make_take_turn(free_bacon, roll_dice)
play = make_play(take_turn, is_swap)
bacon_strategy = make_bacon_strategy(free_bacon)
swap_strategy = make_swap_strategy(free_bacon, is_swap, avoid_harmful=False)


class HogSp18(HogFa17):
    name = "hog-sp18"
    title = "Hog, CS 61A Spring 2018"
    free_bacon = staticmethod(free_bacon)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 2 + |tens - ones| of the opponent's score"),
        ("Swine Swap", "swap when one score (above 1) is a multiple of the other"),
    )


RULES = HogSp18
