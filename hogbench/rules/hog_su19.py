"""Hog, CS 61A Summer 2019: Pig Out, Free Bacon, Swine Swap.

The course's 1000 seeded games (``tests/play.sol`` with ``tests/play_utils.py``, found in a
student's repository with the term's skeleton, exuanbo/cs61a-su19 ``projects/hog``) are all
replayed with these functions and match (tests/test_term_hog_su19.py). The rules are those of the
rule-sources table (semesters.md): Free Bacon = 10 - min(tens, ones) of the opponent's score; the
scores are swapped when the current player's leading digit equals the opponent's ones digit.

Readings, confirmed by the seeded games: the swap is checked after every turn as in the terms
around it (Spring and Fall 2019), so also when the mover has reached the goal (83 of the games
differ without it); a score's leading digit is its first digit (0 for a score of 0);
tens = (score // 10) % 10.

The engines' model is the swap kit's, built from these functions.
"""

from __future__ import annotations

from hogbench.rules._kit import make_take_turn
from hogbench.rules._swap_term import SwapTerm, make_bacon_strategy, make_play, make_swap_strategy
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    GOAL_SCORE,
    always_roll,
    announce_highest,
    make_test_dice,
    other,
    pig_out,
    roll_dice,
    silence,
)


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(39)
    7
    """
    return 10 - min((score // 10) % 10, score % 10)


take_turn = make_take_turn(free_bacon, roll_dice)


def is_swap(player_score, opponent_score):
    """Return whether the scores are swapped: the current player's leading digit equals the
    opponent's ones digit.

    >>> is_swap(42, 14), is_swap(42, 41)
    (True, False)
    """
    while player_score >= 10:
        player_score //= 10
    return player_score == opponent_score % 10


play = make_play(take_turn, is_swap)
bacon_strategy = make_bacon_strategy(free_bacon)
swap_strategy = make_swap_strategy(free_bacon, is_swap)


class HogSu19(SwapTerm):
    name = "hog-su19"
    title = "Hog, CS 61A Summer 2019"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 10 - min(tens, ones) of the opponent's score"),
        ("Swine Swap", "swap when your leading digit equals the opponent's ones digit"),
    )


RULES = HogSu19
