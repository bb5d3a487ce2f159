"""Hog, CS 61A Fall 2014: Pig out, Free bacon, Hog wild, Swine swap.

Rules (the term's skeleton and ok tests, chrisno12/cs61a-hog ``hog.py`` and ``tests/``): those of
Fall 2013 (see hog-fa13: Pig out, Hog wild's four-sided dice when the sum of the scores is a
multiple of 7, Swine swap when one score is double the other, even at the goal), except

* Free bacon. A player who rolls zero dice scores one more than the absolute difference of the
  digits of the opponent's score. (The course's locked tests, unlocked with the term's key:
  35 gives 3, 71 gives 7, 7 gives 8.)
"""

from __future__ import annotations

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._swap_term import make_bacon_strategy, make_swap_strategy, make_wild_play
from hogbench.rules.hog_fa13 import (  # noqa: F401  (the course's names, re-exported)
    BASELINE_NUM_ROLLS,
    GOAL_SCORE,
    HogFa13,
    always_roll,
    is_swap,
    other,
    roll_dice,
)


def free_bacon(score):
    """Points for rolling 0 dice: 1 + |tens - ones| of the opponent's SCORE.

    >>> free_bacon(35), free_bacon(71), free_bacon(7)
    (3, 7, 8)
    """
    return 1 + abs((score // 10) % 10 - score % 10)


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free bacon)."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert opponent_score < 100, "The game should be over."
    return free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def select_dice(score, opponent_score):
    """Six-sided dice unless the sum of the scores is a multiple of 7: four-sided (Hog wild)."""
    return four_sided if (score + opponent_score) % 7 == 0 else six_sided


play = make_wild_play(take_turn, select_dice, is_swap)


bacon_strategy = make_bacon_strategy(free_bacon, BASELINE_NUM_ROLLS)
swap_strategy = make_swap_strategy(free_bacon, is_swap, num_rolls=BASELINE_NUM_ROLLS)


class HogFa14(HogFa13):
    name = "hog-fa14"
    title = "Hog, CS 61A Fall 2014"
    free_bacon = staticmethod(free_bacon)
    select_dice = staticmethod(select_dice)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        HogFa13.rule_lines[0],
        ("Free bacon", "rolling 0 scores 1 + |tens - ones| of the opponent's score"),
        *HogFa13.rule_lines[2:],
    )


RULES = HogFa14
