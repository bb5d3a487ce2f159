"""Hog, CS 61A Summer 2020: Pig Out, Free Bacon, Feral Hogs, Swine Swap.

Rules (from the course text):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores points equal to ten minus the value of
  the opponent score's ones digit, summed with the value of the opponent's score's tens digit.
* Feral Hogs. If the number of dice you roll is exactly 2 away (absolute difference) from the
  number of points you scored on the previous turn, you get 3 extra points for the turn. Treat
  the turn before the first turn as scoring 0 points. Do not take into account any previous feral
  hog bonuses or swine swap when calculating the number of points scored the previous turn.
* Swine Swap. After points for the turn are added to the current player's score, if the absolute
  value of the difference between the current player score's ones digit and the opponent score's
  ones digit is equal to the value of the opponent score's tens digit, the scores are swapped. A
  swap may occur at the end of a turn in which a player reaches the goal score, leading to the
  opponent winning.

Readings: tens = (score // 10) % 10, so Free Bacon and Swine Swap are defined past 100; "the
previous turn" is the player's own previous turn, and its points are what ``take_turn`` returned
(Feral Hogs bonus and swaps excluded), 0 before a player's first turn, also when a game starts
from other scores. Feral Hogs is on by default and switched off with the option ``feral_hogs``
(the course's ``play(..., feral_hogs=False)``).

Feral Hogs makes the game depend on more than the two scores: the engines' state carries each
player's previous-turn points. A strategy sees only the two scores (as the course says, it
cannot know the points of the previous turn, so it cannot predict Feral Hogs); its decision table
is therefore the same whatever the previous points, and the optimal *score-only* strategy is not
what ``solve`` finds (``solve`` optimises a player who also sees the previous points).

The module is the course's own code (the readable reference); the Feral Hogs kit builds the
engines' model from these functions and narrates turns with them (``HogSu20`` names them).
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
from hogbench.rules._feral_term import FeralTerm, make_feral_play
from hogbench.rules._kit import always_roll, make_take_turn  # noqa: F401  (the course's names)
from hogbench.rules._swap_term import announce_highest, pig_out  # noqa: F401
from hogbench.rules.hog_contest import next_player, other  # noqa: F401
from hogbench.rules.hog_sp19 import GOAL_SCORE, roll_dice  # noqa: F401  (the same functions)

# ---------------------------------------------------------------------------------------------
# The course's functions
# ---------------------------------------------------------------------------------------------


def free_bacon(score):
    """Return the points scored from rolling 0 dice (Free Bacon), given the opponent's SCORE.

    >>> free_bacon(32)
    11
    """
    tens = (score // 10) % 10
    ones = score % 10
    return 10 - ones + tens


take_turn = make_take_turn(free_bacon, roll_dice)


def feral_bonus(num_rolls, previous_points):
    """Feral Hogs: 3 extra points when NUM_ROLLS is exactly 2 away from the points the player
    scored on their previous turn (PREVIOUS_POINTS, bonuses and swaps excluded), else 0.

    >>> feral_bonus(5, 7)
    3
    """
    return 3 if abs(num_rolls - previous_points) == 2 else 0


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped (Swine Swap).

    >>> is_swap(55, 23)
    True
    """
    difference = abs(player_score % 10 - opponent_score % 10)
    return difference == (opponent_score // 10) % 10


play = make_feral_play(take_turn, feral_bonus, is_swap)


def bacon_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice if that gives at least CUTOFF points, and rolls NUM_ROLLS
    otherwise (Feral Hogs bonuses are not counted: a strategy cannot predict them)."""
    return 0 if free_bacon(opponent_score) >= cutoff else num_rolls


def swap_strategy(score, opponent_score, cutoff=8, num_rolls=6):
    """This strategy rolls 0 dice when it triggers a beneficial swap. It also rolls 0 dice if it
    gives at least CUTOFF points and does not trigger a non-beneficial swap. Otherwise, it rolls
    NUM_ROLLS. A swap of equal scores is neither beneficial nor detrimental."""
    new_score = score + free_bacon(opponent_score)
    if is_swap(new_score, opponent_score):
        if new_score < opponent_score:
            return 0
        if new_score > opponent_score:
            return num_rolls
    return bacon_strategy(score, opponent_score, cutoff, num_rolls)


def final_strategy(score, opponent_score):
    """A placeholder final strategy."""
    return 6


class HogSu20(FeralTerm):
    name = "hog-su20"
    title = "Hog, CS 61A Summer 2020"
    hidden_state = "each player's points on their previous turn (Feral Hogs)"
    options_help = {
        "feral_hogs": (
            True,
            "Feral Hogs: +3 when the dice rolled are 2 away from your previous turn's points",
        ),
    }
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 10 - ones + tens of the opponent's score"),
        ("Feral Hogs", "+3 when |dice rolled - your previous turn's points| is 2 (option)"),
        ("Swine Swap", "swap when |your ones - their ones| equals their tens, even at the goal"),
    )
    # The course text measures final strategies against always_roll(4).
    baseline = "always_roll:4"
    free_bacon = staticmethod(free_bacon)
    feral_bonus = staticmethod(feral_bonus)
    is_swap = staticmethod(is_swap)
    remembers, memory_text = "points", "previous turn's points"
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    strategy_num_rolls, strategy_threshold = 6, "cutoff"
    bacon_strategy_summary = "0 dice when Free Bacon gives >= cutoff, else num_rolls"
    swap_strategy_summary = (
        "0 dice for a beneficial swap or >= cutoff points (never a harmful swap), else num_rolls"
    )


RULES = HogSu20
