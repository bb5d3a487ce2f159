"""Hog, CS 61A Fall 2022 (and Spring 2023): Sow Sad, Pig Tail, Square Swine.

Rules (the course's skeleton ``projects/hog/hog.py`` and its docstrings, as in the repositories
1NC4NDESCENCE/cs61a-fall2022, FruWhite/cs61a_22fa and silver-ymz/cs61a-sp23):

* Sow Sad. "If any of the dice outcomes is a 1, the current player's score for the turn is 1."
* Pig Tail. "A player who chooses to roll zero dice scores 2 * abs(tens - ones) + 1 points;
  where tens, ones are the tens and ones digits of the opponent's score."
  (``tail_points(opponent_score)``.)
* Square Swine. "After a player gains points for their turn, if the resulting score is a perfect
  square, then increase their score to the next higher perfect square."
  (``perfect_square``, ``next_perfect_square``, ``square_update``.)

The course's ``play(strategy0, strategy1, update, ...)`` applies ``update`` (``square_update``
in the game) for the mover each turn; the players alternate.
"""

from __future__ import annotations

from math import isqrt

from hogbench.dice import six_sided
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    sow_sad,
)
from hogbench.rules.hog_fa23 import play, roll_dice  # noqa: F401  (the same course functions)

GOAL = 100


def tail_points(opponent_score):
    """Return the points scored by rolling 0 dice according to Pig Tail.

    >>> tail_points(2), tail_points(22), tail_points(57), tail_points(91)
    (5, 1, 5, 17)
    """
    tens, ones = (opponent_score // 10) % 10, opponent_score % 10
    return 2 * abs(tens - ones) + 1


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Return the points scored on a turn rolling NUM_ROLLS dice (Pig Tail for 0)."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    return tail_points(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the total score of a player who starts with PLAYER_SCORE and rolls NUM_ROLLS."""
    return player_score + take_turn(num_rolls, opponent_score, dice)


def perfect_square(score):
    """Return whether SCORE is a perfect square.

    >>> perfect_square(16), perfect_square(15), perfect_square(1)
    (True, False, True)
    """
    return isqrt(score) ** 2 == score


def next_perfect_square(score):
    """Return the next perfect square above SCORE, a perfect square.

    >>> next_perfect_square(16), next_perfect_square(1)
    (25, 4)
    """
    return (isqrt(score) + 1) ** 2


def square_points(score):
    """The score after Square Swine: a perfect square becomes the next one."""
    return next_perfect_square(score) if perfect_square(score) else score


def square_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the total score of a player who starts their turn with PLAYER_SCORE and then
    rolls NUM_ROLLS DICE, *including* Square Swine."""
    return square_points(simple_update(num_rolls, player_score, opponent_score, dice))


def tail_strategy(score, opponent_score, threshold=12, num_rolls=6):
    """Roll 0 dice if Pig Tail gives at least THRESHOLD points, else NUM_ROLLS."""
    return 0 if tail_points(opponent_score) >= threshold else num_rolls


def square_strategy(score, opponent_score, threshold=12, num_rolls=6):
    """Roll 0 dice when that raises the score by at least THRESHOLD (Square Swine included)."""
    return 0 if square_update(0, score, opponent_score) - score >= threshold else num_rolls


class HogFa22(UpdateTerm):
    name = "hog-fa22"
    title = "Hog, CS 61A Fall 2022 (and Spring 2023)"
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        ("Pig Tail", "rolling 0 scores 2 x |tens - ones| + 1 of the opponent's score"),
        ("Square Swine", "a perfect-square score becomes the next perfect square"),
    )
    zero_rule, after_rule = "Pig Tail", "Square Swine"
    strategy_threshold = ("threshold", 12)
    zero_rule_strategy = staticmethod(tail_strategy)
    after_rule_strategy = staticmethod(square_strategy)
    after_rule_strategy_summary = (
        "0 dice when the gain with Square Swine >= threshold, else num_rolls"
    )

    @staticmethod
    def after_turn(score, opponent_score):
        return square_points(score)

    @staticmethod
    def zero_points(score, opponent_score):
        return tail_points(opponent_score)


RULES = HogFa22
