"""Hog, CS 61A Summer 2022: Sow Sad, Oink Points, Pigs on Prime.

Rules (the course's skeleton ``projects/hog/hog.py`` and its docstrings, as in students' files
found by ``def oink_points``):

* Sow Sad. "If any of the dice outcomes is a 1, the current player's score for the turn is 1."
* Oink Points. A player who rolls zero dice scores ``max(1, 2 * tens - ones)``, where tens and
  ones are the digits of the opponent's score. (``oink_points(player_score, opponent_score)``.)
* Pigs on Prime. After the turn's points are added, a player whose score is prime gains points
  until it is the next prime. (``pigs_on_prime(player_score, opponent_score)``: the points.)

Reading: the course's ``is_prime`` counts 1 as prime (its loop never runs for 1), so a score of
1 after Sow Sad becomes 2. hogbench keeps the course's function, as the course's tests do.
The course's ``play`` adds ``take_turn`` and then ``pigs_on_prime`` for the mover; the players
alternate, and the game ends once a score reaches the goal.
"""

from __future__ import annotations

from math import isqrt

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    make_bonus_play,
    sow_sad,
)
from hogbench.rules.hog_fa23 import roll_dice  # noqa: F401  (the same course function)

GOAL_SCORE = 100


def oink_points(player_score, opponent_score):
    """Return the points scored by player due to Oink Points.

    >>> oink_points(12, 21), oink_points(5, 60), oink_points(0, 99), oink_points(1, 9)
    (3, 12, 9, 1)
    """
    tens, ones = (opponent_score // 10) % 10, opponent_score % 10
    return max(1, 2 * tens - ones)


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice (Oink Points for 0); return its points."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert max(player_score, opponent_score) < goal, "The game should be over."
    if num_rolls == 0:
        return oink_points(player_score, opponent_score)
    return roll_dice(num_rolls, dice)


def is_prime(n):
    """The course's primality test, which counts 1 as prime.

    >>> [n for n in range(12) if is_prime(n)]
    [1, 2, 3, 5, 7, 11]
    """
    if n == 2:
        return True
    if n % 2 == 0:
        return False
    return all(n % k for k in range(3, isqrt(n) + 1, 2))


def pigs_on_prime(player_score, opponent_score):
    """Return the points scored by the current player due to Pigs on Prime.

    >>> pigs_on_prime(19, 0), pigs_on_prime(20, 0), pigs_on_prime(1, 0), pigs_on_prime(97, 0)
    (4, 0, 1, 4)
    """
    if not is_prime(player_score):
        return 0
    gain = 1
    while not is_prime(player_score + gain):
        gain += 1
    return gain


def silence(score0, score1, leader=None):
    """Announce nothing (the course's commentary of this term returns the leader too)."""
    return leader, None


play = make_bonus_play(take_turn, pigs_on_prime, silence)


def oink_points_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """Roll 0 dice if Oink Points gives at least THRESHOLD points, else NUM_ROLLS."""
    return 0 if oink_points(score, opponent_score) >= threshold else num_rolls


def pigs_on_prime_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """Roll 0 dice when that makes Pigs on Prime take effect, or when Oink Points gives at least
    THRESHOLD points; else NUM_ROLLS."""
    free = score + oink_points(score, opponent_score)
    if pigs_on_prime(free, opponent_score) or oink_points(score, opponent_score) >= threshold:
        return 0
    return num_rolls


class HogSu22(UpdateTerm):
    name = "hog-su22"
    title = "Hog, CS 61A Summer 2022"
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        ("Oink Points", "rolling 0 scores max(1, 2 x tens - ones) of the opponent's score"),
        ("Pigs on Prime", "a prime score becomes the next prime (1 counts as prime)"),
    )
    zero_rule, after_rule = "Oink Points", "Pigs on Prime"
    zero_points = staticmethod(oink_points)
    zero_rule_strategy = staticmethod(oink_points_strategy)
    after_rule_strategy = staticmethod(pigs_on_prime_strategy)
    after_rule_strategy_summary = (
        "0 dice when that lands on a prime or Oink Points >= threshold, else num_rolls"
    )

    @staticmethod
    def after_turn(score, opponent_score):
        return score + pigs_on_prime(score, opponent_score)


RULES = HogSu22
