"""Hog, CS 61A Summer 2021: Sow Sad, Piggy Points, More Boar.

Rules (from the course text):

* Sow Sad. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Piggy Points. A player who chooses to roll zero dice scores ``k + 4`` points, where ``k`` is the
  absolute value of the tens digit minus the ones digit in the opponent's score. If the
  opponent's score is only one digit, assume the tens digit is 0. You may not assume that the
  score is under 100.
* More Boar. After the points for the turn are added to the current player's score, the current
  player takes an extra turn if the minimum digit of the current player's score is strictly
  smaller than the minimum digit of the opponent's score and the maximum digit of the current
  player's score is strictly larger than the maximum digit of the opponent's score. More Boar can
  be activated multiple times in a row for the same player.

Readings: tens = (score // 10) % 10, so Piggy Points is defined past 100; a score's digits are
its own (7 has the single digit 7); a player who reaches the goal has won and does not go again.

The module is the course's own code (the readable reference); the Sow Sad kit builds the
engines' model from these functions (``HogSu21`` names them).
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
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    make_extra_turn_play,
    sow_sad,
)

GOAL_SCORE = 100

# ---------------------------------------------------------------------------------------------
# The course's functions
# ---------------------------------------------------------------------------------------------


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times. Return the sum of the outcomes
    unless any of the outcomes is 1. In that case, return 1.

    >>> roll_dice(4, make_test_dice(4, 6, 1))
    1
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls > 0, "Must roll at least once."
    return sow_sad([dice() for _ in range(num_rolls)])


def piggy_points(score):
    """Return the points scored by rolling 0 dice according to Piggy Points.

    >>> piggy_points(23)
    5
    """
    tens = (score // 10) % 10
    ones = score % 10
    return abs(tens - ones) + 4


def take_turn(num_rolls, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 in the case of a player using
    Piggy Points. Return the points scored for the turn by the current player.
    """
    assert type(num_rolls) is int, "num_rolls must be an integer."
    assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
    assert num_rolls <= 10, "Cannot roll more than 10 dice."
    if num_rolls == 0:
        return int(piggy_points(opponent_score))
    return roll_dice(num_rolls, dice)


def smallest_and_largest_digit(n):
    """The smallest and largest decimal digit of N >= 0 (7 has the single digit 7)."""
    smallest, largest = n % 10, n % 10
    n //= 10
    while n > 0:
        d = n % 10
        smallest = min(smallest, d)
        largest = max(largest, d)
        n //= 10
    return smallest, largest


def more_boar(player_score, opponent_score):
    """Return whether the player gets an extra turn.

    >>> more_boar(25, 43)
    True
    >>> more_boar(32, 33)
    False
    """
    player_min, player_max = smallest_and_largest_digit(player_score)
    opponent_min, opponent_max = smallest_and_largest_digit(opponent_score)
    return player_min < opponent_min and player_max > opponent_max


def next_player(who):
    """Return the other player, for a player WHO numbered 0 or 1."""
    return 1 - who


play = make_extra_turn_play(take_turn, more_boar)


announce_highest = make_announce_highest(
    "Player {who} has reached a new maximum point gain. {gain} point(s)!"
)


def make_strategies(piggy_points, more_boar):
    """The course's piggypoints_strategy and more_boar_strategy for a term's PIGGY_POINTS and
    MORE_BOAR (Summer and Spring 2021)."""

    def piggypoints_strategy(score, opponent_score, cutoff=8, num_rolls=6):
        """Roll 0 dice if Piggy Points gives at least CUTOFF points, else NUM_ROLLS."""
        return 0 if piggy_points(opponent_score) >= cutoff else num_rolls

    def more_boar_strategy(score, opponent_score, cutoff=8, num_rolls=6):
        """Roll 0 dice if that gives an extra turn through More Boar, or at least CUTOFF points;
        otherwise roll NUM_ROLLS."""
        if more_boar(score + piggy_points(opponent_score), opponent_score):
            return 0
        return piggypoints_strategy(score, opponent_score, cutoff, num_rolls)

    return piggypoints_strategy, more_boar_strategy


piggypoints_strategy, more_boar_strategy = make_strategies(piggy_points, more_boar)


def final_strategy(score, opponent_score):
    """The course's placeholder final strategy."""
    return 6


class HogSu21(UpdateTerm):
    name = "hog-su21"
    title = "Hog, CS 61A Summer 2021"
    announce_highest = staticmethod(announce_highest)
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        ("Piggy Points", "rolling 0 scores |tens - ones| of the opponent's score + 4"),
        ("More Boar", "extra turn if your smallest digit < theirs and your largest > theirs"),
    )
    zero_rule, extra_rule = "Piggy Points", "More Boar"
    extra_turn = staticmethod(more_boar)
    piggy_points = staticmethod(piggy_points)
    strategy_threshold = ("cutoff", 8)
    zero_rule_strategy = staticmethod(piggypoints_strategy)
    after_rule_strategy = staticmethod(more_boar_strategy)
    after_rule_strategy_summary = (
        "0 dice when it triggers More Boar or gives >= cutoff, else num_rolls"
    )

    def zero_points(self, score, opponent_score):
        return self.piggy_points(opponent_score)


RULES = HogSu21
