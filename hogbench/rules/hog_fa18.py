"""Hog, CS 61A Fall 2018: Pig Out, Free Bacon, Swine Swap.

Rules (the course's skeleton ``hog.py`` and its docstrings, as in 18rberry/Hog):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores ``max(1, 2 * tens - ones)``, with
  tens and ones the digits of the opponent's score.
* Swine Swap. After points for the turn are added to the current player's score, the scores are
  swapped when "the current player's score has the same absolute difference between its last two
  digits as the opponent's score" (``is_swap``).

Readings: the swap is checked after every turn, so also when the mover has reached the goal (the
course's ``play`` checks it before the loop's test); the last two digits of a score of 100 or
more are its tens and ones. The course's 1000 seeded games (yngz/cs61a
``projects/hog/tests/play.sol``, which records each game's first turns and its final scores)
are reproduced; without the swap at the goal 103 of them differ.
"""

from __future__ import annotations

from hogbench.rules._kit import make_take_turn
from hogbench.rules._swap_term import (
    SwapTerm,
    make_bacon_strategy,
    make_play,
    make_swap_strategy,
)
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
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(0), free_bacon(35), free_bacon(19), free_bacon(90)
    (1, 1, 1, 18)
    """
    tens, ones = (score // 10) % 10, score % 10
    return max(1, 2 * tens - ones)


def is_swap(player_score, opponent_score):
    """Return whether the current player's score has the same absolute difference between its
    last two digits as the opponent's score.

    >>> is_swap(19, 91), is_swap(77, 22), is_swap(105, 50), is_swap(12, 13)
    (True, True, True, False)
    """

    def last_two_apart(score):
        return abs((score // 10) % 10 - score % 10)

    return last_two_apart(player_score) == last_two_apart(opponent_score)


take_turn = make_take_turn(free_bacon, roll_dice)
play = make_play(take_turn, is_swap)
bacon_strategy = make_bacon_strategy(free_bacon)
swap_strategy = make_swap_strategy(free_bacon, is_swap)


class HogFa18(SwapTerm):
    name = "hog-fa18"
    title = "Hog, CS 61A Fall 2018"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores max(1, 2 x tens - ones) of the opponent's score"),
        ("Swine Swap", "swap when |tens - ones| of both scores are equal, even at the goal"),
    )


RULES = HogFa18
