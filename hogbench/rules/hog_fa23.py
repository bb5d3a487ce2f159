"""Hog, CS 61A Fall 2023 (the rules of every term since, to Fall 2025): Sow Sad, Boar Brawl,
Sus Fuss.

Rules (the course's skeleton ``hog/hog.py`` and its docstrings, as in the repositories
Aoblex/2023-fall-UCB-CS61A, hqhq1025/cs61a-24fall and Lin-2z/CS61A-fa25):

* Sow Sad. "If any of the dice outcomes is a 1, the current player's score for the turn is 1."
* Boar Brawl. "A player who chooses to roll zero dice scores three times the absolute difference
  between the tens digit of the opponent's score and the ones digit of the current player's
  score, or 1, whichever is larger." (``boar_brawl(player_score, opponent_score)``.)
* Sus Fuss. "A number is sus if it has exactly 3 or 4 factors, including 1 and the number
  itself. If, after rolling, the current player's score is a sus number, they gain enough points
  such that their score instantly increases to the next prime number."
  (``num_factors``, ``sus_points``, ``sus_update``.)

The course's ``play(strategy0, strategy1, update, ...)`` applies ``update`` (``sus_update`` in
the game, ``simple_update`` without Sus Fuss) for the mover each turn; the players alternate.
Reading: the tens digit of a score is ``(score // 10) % 10``, as the course's tests take it.
"""

from __future__ import annotations

from hogbench.dice import six_sided
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    sow_sad,
)
from hogbench.rules.hog_sp15 import is_prime

GOAL = 100


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times (Sow Sad)."""
    assert type(num_rolls) is int and num_rolls > 0, "Must roll at least once."
    return sow_sad([dice() for _ in range(num_rolls)])


def boar_brawl(player_score, opponent_score):
    """Return the points scored by rolling 0 dice according to Boar Brawl.

    >>> boar_brawl(21, 46), boar_brawl(52, 79), boar_brawl(7, 5), boar_brawl(44, 40)
    (9, 15, 21, 1)
    """
    return max(1, 3 * abs((opponent_score // 10) % 10 - player_score % 10))


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the points scored on a turn rolling NUM_ROLLS dice (Boar Brawl for 0)."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    if num_rolls == 0:
        return boar_brawl(player_score, opponent_score)
    return roll_dice(num_rolls, dice)


def simple_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the total score of a player who starts their turn with PLAYER_SCORE and then
    rolls NUM_ROLLS DICE, ignoring Sus Fuss."""
    return player_score + take_turn(num_rolls, player_score, opponent_score, dice)


def num_factors(n):
    """Return the number of factors of N, including 1 and N itself.

    >>> num_factors(1), num_factors(9), num_factors(10), num_factors(13)
    (1, 3, 4, 2)
    """
    return sum(1 for k in range(1, n + 1) if n % k == 0)


def sus_points(score):
    """Return the new score of a player taking into account the Sus Fuss rule.

    >>> sus_points(5), sus_points(9), sus_points(21), sus_points(16)
    (5, 11, 23, 16)
    """
    if num_factors(score) not in (3, 4):
        return score
    score += 1
    while not is_prime(score):
        score += 1
    return score


def sus_update(num_rolls, player_score, opponent_score, dice=six_sided):
    """Return the total score of a player who starts their turn with PLAYER_SCORE and then
    rolls NUM_ROLLS DICE, *including* Sus Fuss."""
    return sus_points(simple_update(num_rolls, player_score, opponent_score, dice))


def play(strategy0, strategy1, update, score0=0, score1=0, dice=six_sided, goal=GOAL):
    """Simulate a game and return the final scores of both players, Player 0's first."""
    who = 0
    while score0 < goal and score1 < goal:
        if who == 0:
            score0 = update(strategy0(score0, score1), score0, score1, dice)
        else:
            score1 = update(strategy1(score1, score0), score1, score0, dice)
        who = 1 - who
    return score0, score1


def boar_strategy(score, opponent_score, threshold=11, num_rolls=6):
    """Roll 0 dice if Boar Brawl gives at least THRESHOLD points, else NUM_ROLLS."""
    return 0 if boar_brawl(score, opponent_score) >= threshold else num_rolls


def sus_strategy(score, opponent_score, threshold=11, num_rolls=6):
    """Roll 0 dice when that raises the score by at least THRESHOLD (Sus Fuss included)."""
    return 0 if sus_update(0, score, opponent_score) - score >= threshold else num_rolls


class HogFa23(UpdateTerm):
    name = "hog-fa23"
    title = "Hog, CS 61A Fall 2023 (and every term since)"
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        ("Boar Brawl", "rolling 0 scores max(1, 3 x |opponent's tens - own ones|)"),
        ("Sus Fuss", "a score with exactly 3 or 4 factors becomes the next prime"),
    )
    zero_rule, after_rule = "Boar Brawl", "Sus Fuss"
    zero_points = staticmethod(boar_brawl)
    strategy_threshold = ("threshold", 11)
    zero_rule_strategy = staticmethod(boar_strategy)
    after_rule_strategy = staticmethod(sus_strategy)
    after_rule_strategy_summary = "0 dice when the gain with Sus Fuss >= threshold, else num_rolls"

    @staticmethod
    def after_turn(score, opponent_score):
        return sus_points(score)


RULES = HogFa23
