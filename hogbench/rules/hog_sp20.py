"""Hog, CS 61A Spring 2020: Pig Out, Free Bacon, Feral Hogs, Swine Swap.

Rules (the course's rules, from chenyuxiang0425/cs61a_sp20 ``hog/hog.py`` and ``hog/tests/``):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores one more than the absolute value of
  the alternating sum of the digits of the cube of the opponent's score (digits added and
  subtracted in turn; 44 cubed is 85184, 8 - 5 + 1 - 8 + 4 = 0, so 1 point).
* Feral Hogs. If the number of dice you roll is exactly 2 away (absolute difference) from the
  number of points you scored on the previous turn, you get 3 extra points for the turn. Treat
  the turn before the first turn as scoring 0 points. Do not take into account any previous
  feral hog bonuses or swine swap when calculating the number of points scored the previous
  turn.
* Swine Swap. Define the excitement of the game to be three to the power of the sum of both
  players' scores. After points of the turn are added to the current player's score, if the
  excitement's first digit and last digit are the same, the scores are swapped.

Readings, confirmed by the course's 11 seeded games of ``tests/05b.py``: "the previous turn" is
the player's own previous turn and its points are what ``take_turn`` returned; the swap is
checked after every turn, also when the mover has reached the goal. Feral Hogs is switched off
with the option ``feral_hogs`` (the course's ``play(..., feral_hogs=False)``).

The engines' model and the narration are the Feral Hogs kit's, as for hog-su20 (Feral Hogs on
the previous turn's points), with this term's Free Bacon and Swine Swap.
"""

from __future__ import annotations

from hogbench.rules._feral_term import make_feral_play
from hogbench.rules._kit import make_take_turn
from hogbench.rules._swap_term import make_bacon_strategy, make_swap_strategy
from hogbench.rules.hog_su20 import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    HogSu20,
    always_roll,
    announce_highest,
    feral_bonus,
    make_test_dice,
    other,
    pig_out,
    roll_dice,
    silence,
)


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(44), free_bacon(9)
    (1, 15)
    """
    cube, sign, total = score**3, 1, 0
    while cube:
        total, cube, sign = total + sign * (cube % 10), cube // 10, -sign
    return 1 + abs(total)


take_turn = make_take_turn(free_bacon, roll_dice)


def is_swap(player_score, opponent_score):
    """Return whether the scores are swapped: the excitement 3 ** (sum of the scores) has the
    same first and last digit.

    >>> is_swap(2, 4), is_swap(1, 0)
    (False, True)
    """
    excitement = str(3 ** (player_score + opponent_score))
    return excitement[0] == excitement[-1]


play = make_feral_play(take_turn, feral_bonus, is_swap)
bacon_strategy = make_bacon_strategy(free_bacon, num_rolls=6)
swap_strategy = make_swap_strategy(free_bacon, is_swap, num_rolls=6)


class HogSp20(HogSu20):
    name = "hog-sp20"
    title = "Hog, CS 61A Spring 2020"
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 1 + |alternating digit sum of the opponent's score³|"),
        ("Feral Hogs", "+3 when |dice rolled - your previous turn's points| is 2 (option)"),
        ("Swine Swap", "swap when 3^(sum of the scores) starts and ends with the same digit"),
    )
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    strategy_threshold = "margin"
    bacon_strategy_summary = ""
    swap_strategy_summary = "0 dice for a beneficial swap or >= margin points, else num_rolls"


RULES = HogSp20
