"""Hog, CS 61A Spring 2021: Sow Sad, Piggy Points, More Boar.

Rules (the course's skeleton ``projects/hog/hog.py``, its doctests and ok tests, as in
ikventure/cs61a-sp21, CdErro/CS61A-2021Spring and vc-zju/cs61a-sp21):

* Sow Sad. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Piggy Points. A player who chooses to roll zero dice scores 3 more than the smallest digit of
  the square of the opponent's score (``piggy_points(score)``).
* More Boar. After the turn's points are added, the current player takes another turn when both
  the leading digit and the second digit of their score are smaller than the opponent's. A score
  below 10 has leading digit 0; the course's tests read the first two digits of larger scores.
  (``more_boar(player_score, opponent_score)``.)

The course's ``play`` adds ``take_turn`` and then asks ``more_boar``; the game ends as soon as a
score reaches the goal.
"""

from __future__ import annotations

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    make_extra_turn_play,
    sow_sad,
)
from hogbench.rules.hog_fa23 import roll_dice  # noqa: F401  (the same course function)
from hogbench.rules.hog_su21 import (  # noqa: F401  (the course's names, re-exported)
    HogSu21,
    announce_highest,
    make_strategies,
    next_player,
    silence,
)

GOAL_SCORE = 100


def piggy_points(score):
    """Return the points scored from rolling 0 dice, given the opponent's SCORE.

    >>> piggy_points(4), piggy_points(3), piggy_points(0), piggy_points(20)
    (4, 12, 3, 3)
    """
    return 3 + min(int(digit) for digit in str(score**2))


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice (Piggy Points for 0); return its points."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert opponent_score < goal, "The game should be over."
    return piggy_points(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def more_boar(player_score, opponent_score):
    """Return whether the player gets an extra turn.

    >>> more_boar(21, 43), more_boar(22, 43), more_boar(43, 21), more_boar(12, 12), more_boar(7, 8)
    (True, True, False, False, False)
    """
    player, opponent = f"{player_score:02d}", f"{opponent_score:02d}"
    return player[0] < opponent[0] and player[1] < opponent[1]


play = make_extra_turn_play(take_turn, more_boar)


piggypoints_strategy, more_boar_strategy = make_strategies(piggy_points, more_boar)


class HogSp21(HogSu21):
    """Summer 2021's game (the same kit) with this term's Piggy Points and More Boar."""

    name = "hog-sp21"
    title = "Hog, CS 61A Spring 2021"
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        ("Piggy Points", "rolling 0 scores 3 + the smallest digit of the opponent's score squared"),
        ("More Boar", "extra turn if both your first two digits are below the opponent's"),
    )
    extra_turn = staticmethod(more_boar)
    piggy_points = staticmethod(piggy_points)
    zero_rule_strategy = staticmethod(piggypoints_strategy)
    after_rule_strategy = staticmethod(more_boar_strategy)


RULES = HogSp21
