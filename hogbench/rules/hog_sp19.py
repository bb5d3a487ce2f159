"""Hog, CS 61A Spring 2019: Pig Out, Free Bacon, Swine Swap.

Rules (the course's text, as copied in gretasharoyan/hog ``README.md``; skeleton and ok tests:
1246245906/CS61A ``projects/hog/hog.py``, Kaiyuan-Lei/MyProject ``Hog/tests/``):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores one more than the minimum of the
  ones and tens digit of the opponent's score.
* Swine Swap. After points for the turn are added to the current player's score, if the current
  and other player's scores share any digits in the same place value, the scores are swapped.
  Note: a 0 at the beginning of a number does not count. This includes the 0 in the tens place
  of 5, the hundreds place of 23, and the ones place of 0. However, a 0 at the end of a number
  does count, so 20 and 30 are a swap.

Readings: the course's ``play`` checks ``is_swap`` after every turn, so a swap also happens when
the mover has reached the goal (the ok test "Free bacon refers to correct opponent score": from
11-98, Player 1 reaches 100 against 30, they swap, and Player 0 wins 100-30). Free Bacon uses
tens = (score // 10) % 10 (the opponent's score is below the goal when it is asked).

This module is the course's own code (the readable reference); the engines' model and the
narrated turn are the swap kit's (``_swap_term``), built from these functions.
"""

from __future__ import annotations

from hogbench.commentary import (  # noqa: F401  (the course's names, re-exported)
    announce_lead_changes,
    both,
    make_announce_highest,
    say_scores,
    silence,
)
from hogbench.dice import four_sided, make_fair_dice, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._kit import always_roll, make_take_turn  # noqa: F401
from hogbench.rules._swap_term import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    SwapTerm,
    announce_highest,
    make_bacon_strategy,
    make_play,
    make_swap_strategy,
    pig_out,
)
from hogbench.rules.hog_contest import other  # noqa: F401  (the course's name, re-exported)


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of the outcomes
    unless any of the outcomes is 1. In that case, return 1.

    >>> roll_dice(2, make_test_dice(3, 4))
    7
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    return pig_out([dice() for _ in range(num_rolls)])


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(39)
    4
    """
    return 1 + min((score // 10) % 10, score % 10)


take_turn = make_take_turn(free_bacon, roll_dice)


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped: a digit shared in the same place.

    >>> is_swap(117, 14), is_swap(8, 2), is_swap(20, 0)
    (True, False, False)
    """
    while player_score > 0 and opponent_score > 0:
        if player_score % 10 == opponent_score % 10:
            return True
        player_score, opponent_score = player_score // 10, opponent_score // 10
    return False


play = make_play(take_turn, is_swap)
bacon_strategy = make_bacon_strategy(free_bacon)
swap_strategy = make_swap_strategy(free_bacon, is_swap)


class HogSp19(SwapTerm):
    name = "hog-sp19"
    title = "Hog, CS 61A Spring 2019"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 1 + min(tens, ones) of the opponent's score"),
        ("Swine Swap", "swap when the scores share a digit in the same place, even at the goal"),
    )


RULES = HogSp19
