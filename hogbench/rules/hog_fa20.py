"""Hog, CS 61A Fall 2020: Pig Out, Free Bacon, Swine Align and Pig Pass (extra turns).

Rules (the course's skeleton 23u18u24/cs61a ``projects/hog/hog.py`` with its docstrings, and the
ok tests of 311zzb/cs61a_fall2020 ``projects/hog/tests/``):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores 3 plus the digit of pi at the index
  given by the opponent's score, counting the leading 3 as index 0 (the skeleton trims
  ``FIRST_101_DIGITS_OF_PI`` to score + 1 digits and adds 3 to the last one).
* Swine Align. "Return whether the player gets an extra turn due to Swine Align": after the
  turn's points are added, both scores are positive and their greatest common divisor is at
  least 10 (30 and 45: GCD 15, an extra turn; 35 and 45: GCD 5, none).
* Pig Pass. "Return whether the player gets an extra turn due to Pig Pass": after the turn's
  points are added, the current player is behind by less than 3 (10 vs 12: yes; 12 vs 12: no).
* ``extra_turn`` is Pig Pass or Swine Align; extra turns can follow each other.

Readings, confirmed by the course's tests (``swine_align(15, 0)`` is False; the seeded games of
``tests/05.py``): the extra turn is decided on the scores after the turn, and a player who
reaches the goal has won.
"""

from __future__ import annotations

from math import gcd

from hogbench.commentary import make_announce_highest
from hogbench.dice import six_sided
from hogbench.rules._kit import make_take_turn
from hogbench.rules._update_term import UpdateTerm
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    always_roll,
    make_test_dice,
    other,
    pig_out,
    roll_dice,
    silence,
)

FIRST_101_DIGITS_OF_PI = 31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679  # noqa: E501


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(0), free_bacon(1), free_bacon(13)
    (6, 4, 10)
    """
    assert score < 100, "The game should be over."
    return FIRST_101_DIGITS_OF_PI // 10 ** (100 - score) % 10 + 3


take_turn = make_take_turn(free_bacon, roll_dice)


def extra_turn(player_score, opponent_score):
    """Return whether the player gets an extra turn."""
    return pig_pass(player_score, opponent_score) or swine_align(player_score, opponent_score)


def swine_align(player_score, opponent_score):
    """Return whether the player gets an extra turn due to Swine Align.

    >>> swine_align(30, 45)  # The GCD is 15.
    True
    >>> swine_align(35, 45)  # The GCD is 5.
    False
    """
    return player_score > 0 and opponent_score > 0 and gcd(player_score, opponent_score) >= 10


def pig_pass(player_score, opponent_score):
    """Return whether the player gets an extra turn due to Pig Pass.

    >>> pig_pass(9, 12), pig_pass(10, 12), pig_pass(11, 12), pig_pass(12, 12), pig_pass(13, 12)
    (False, True, True, False, False)
    """
    return 0 < opponent_score - player_score < 3


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players, Player 0's score first."""
    who = 0  # Who is about to take a turn, 0 (first) or 1 (second)
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice)
            again = extra_turn(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice)
            again = extra_turn(score1, score0)
        if not again:
            who = other(who)
        say = say(score0, score1)
    return score0, score1


announce_highest = make_announce_highest("{gain} point(s)! The most yet for Player {who}")


def bacon_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points, and rolls NUM_ROLLS
    otherwise."""
    return 0 if free_bacon(opponent_score) >= cutoff else num_rolls


def extra_turn_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers an extra turn. It also rolls 0 dice if it
    gives at least CUTOFF points and does not give an extra turn. Otherwise, it rolls
    NUM_ROLLS."""
    if extra_turn(score + free_bacon(opponent_score), opponent_score):
        return 0
    return bacon_strategy(score, opponent_score, cutoff, num_rolls)


class HogFa20(UpdateTerm):
    name = "hog-fa20"
    title = "Hog, CS 61A Fall 2020"
    announce_highest = staticmethod(announce_highest)
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 3 + the digit of pi at the opponent's score (0: the 3)"),
        ("Swine Align", "extra turn when both scores are positive and their GCD is at least 10"),
        ("Pig Pass", "extra turn when you end the turn behind by 1 or 2"),
    )
    dice_points = staticmethod(pig_out)
    zero_rule, ones_rule = "Free Bacon", "Pig Out"
    extra_turn = staticmethod(extra_turn)
    strategy_threshold = ("cutoff", 8)
    zero_rule_strategy = staticmethod(bacon_strategy)
    after_rule_strategy = staticmethod(extra_turn_strategy)
    after_rule_strategy_summary = (
        "0 dice when it gives an extra turn or >= cutoff points, else num_rolls"
    )

    def zero_points(self, score, opponent_score):
        return free_bacon(opponent_score)

    def extra_rule_at(self, score, opponent_score):
        return "Pig Pass" if pig_pass(score, opponent_score) else "Swine Align"


RULES = HogFa20
