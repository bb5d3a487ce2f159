"""Hog, CS 61A Fall 2021: Sow Sad, Picky Piggy, Hog Pile.

Rules (the course's skeleton ``projects/hog/hog.py`` and its docstrings, as in the repositories
Antigen-1/cs61a and AlliesChen/cs61a_fa21):

* Sow Sad. "If any of the dice outcomes is a 1, the current player's score for the turn is 1."
* Picky Piggy. A player who rolls zero dice scores the nth digit after the decimal point of 1/7
  (0.142857...), where n is the opponent's score; when n is 0 the player scores 7.
  (``picky_piggy(score)``.)
* Hog Pile. After the turn's points are added, if the current player's score equals the
  opponent's, the current player's score doubles. (``hog_pile(player_score, opponent_score)``:
  the points it adds.)

The course's ``play`` adds ``take_turn`` and then ``hog_pile`` for the mover, calls the
commentary, and the players alternate.
"""

from __future__ import annotations

from hogbench.commentary import silence
from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    sow_sad,
)
from hogbench.rules.hog_fa23 import roll_dice  # noqa: F401  (the same course function)

GOAL_SCORE = 100
ONE_SEVENTH = "142857"  # the repeating digits of 1/7 = 0.142857 142857 ...


def picky_piggy(score):
    """Return the points scored by rolling 0 dice according to Picky Piggy.

    >>> [picky_piggy(n) for n in (0, 1, 2, 3, 4, 5, 6, 7, 14, 99)]
    [7, 1, 4, 2, 8, 5, 7, 1, 4, 2]
    """
    # The nth digit repeats with period 6; n = 0 falls on the sixth, 7, as the rule's special case.
    return int(ONE_SEVENTH[(score - 1) % 6])


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice (Picky Piggy for 0); return its points."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert opponent_score < goal, "The game should be over."
    return picky_piggy(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def hog_pile(player_score, opponent_score):
    """Return the points scored by player due to Hog Pile.

    >>> hog_pile(20, 20), hog_pile(20, 21), hog_pile(0, 0)
    (20, 0, 0)
    """
    return player_score if player_score == opponent_score else 0


def play(strategy0, strategy1, score0=0, score1=0, dice=six_sided, goal=GOAL_SCORE, say=silence):
    """Simulate a game and return the final scores of both players, Player 0's first."""
    who = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 += take_turn(strategy0(score0, score1), score1, dice, goal)
            score0 += hog_pile(score0, score1)
        else:
            score1 += take_turn(strategy1(score1, score0), score0, dice, goal)
            score1 += hog_pile(score1, score0)
        say = say(score0, score1)
        who = 1 - who
    return score0, score1


def picky_piggy_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice if Picky Piggy gives at least CUTOFF points, else NUM_ROLLS."""
    return 0 if picky_piggy(opponent_score) >= cutoff else num_rolls


def hog_pile_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """Roll 0 dice when that makes Hog Pile take effect, or when Picky Piggy gives at least
    CUTOFF points; else NUM_ROLLS."""
    points = picky_piggy(opponent_score)
    if hog_pile(score + points, opponent_score) or points >= cutoff:
        return 0
    return num_rolls


class HogFa21(UpdateTerm):
    name = "hog-fa21"
    title = "Hog, CS 61A Fall 2021"
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        ("Picky Piggy", "rolling 0 scores the nth digit of 1/7, n the opponent's score (0: 7)"),
        ("Hog Pile", "a score equal to the opponent's after the turn doubles"),
    )
    zero_rule, after_rule = "Picky Piggy", "Hog Pile"
    strategy_threshold = ("cutoff", 8)
    zero_rule_strategy = staticmethod(picky_piggy_strategy)
    after_rule_strategy = staticmethod(hog_pile_strategy)
    after_rule_strategy_summary = (
        "0 dice when that makes Hog Pile happen or Picky Piggy >= cutoff, else num_rolls"
    )

    @staticmethod
    def zero_points(score, opponent_score):
        return picky_piggy(opponent_score)

    @staticmethod
    def after_turn(score, opponent_score):
        return score + hog_pile(score, opponent_score)


RULES = HogFa21
