"""Hog, CS 61A Fall 2013 and Spring 2014: Pig out, Free bacon, Hog wild, Swine swap.

Rules (the course's project page and skeleton, ``proj/hog/hog.html`` and ``hog.py`` in the Spring
2014 course-site copy twistedmove/61a-sp14-website):

* Pig out. "Her turn score is the sum of the dice outcomes, unless any of the dice come up a 1,
  in which case the score for her turn is only 1 point."
* Free bacon. "If a player chooses to roll zero dice, she scores one more than the largest digit
  in her opponent's score."
* Hog wild. "If the sum of both players' total scores is a multiple of seven (e.g., 14, 21, 35),
  then the current player rolls four-sided dice instead of the usual six-sided dice."
  (``select_dice``; 0 + 0 is a multiple of seven, as its doctest says.)
* Swine swap. "If at the end of a turn one of the player's total score is exactly double the
  other's, then the players swap total scores", also when that hands the opponent the goal
  ("Player 1 wins the game 100 to 50").

The course's strategies read constants (``BACON_MARGIN`` 8, ``BASELINE_NUM_ROLLS`` 5); here they
are also parameters with those defaults. Not modelled: the term's contest variant Ham Hijinks
(-1 dice, which exchanges the four- and six-sided dice for the rest of the game).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules.base import (
    GameModel,
    dice_rows,
    distribution_table,
    roll_kind_signature,
)
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    MAX_DICE,
    SwapTerm,
    always_roll,
    make_bacon_strategy,
    make_play,
    make_swap_strategy,
    other,
    pig_out,
    roll_dice,
    silence,
)

GOAL_SCORE = 100
BASELINE_NUM_ROLLS = 5
BACON_MARGIN = 8


def free_bacon(score):
    """Points for rolling 0 dice: one more than the largest digit of the opponent's SCORE.

    >>> free_bacon(42), free_bacon(48), free_bacon(0)
    (5, 9, 1)
    """
    return 1 + max(int(digit) for digit in str(score))


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free bacon)."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert opponent_score < 100, "The game should be over."
    return free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)


def select_dice(score, opponent_score):
    """Select six-sided dice unless the sum of SCORE and OPPONENT_SCORE is a multiple of 7, in
    which case select four-sided dice (Hog wild).

    >>> select_dice(4, 24) == four_sided, select_dice(16, 64) == six_sided
    (True, True)
    """
    return four_sided if (score + opponent_score) % 7 == 0 else six_sided


def is_swap(score0, score1):
    """Swine swap: whether one score is exactly double the other."""
    return score0 == 2 * score1 or score1 == 2 * score0


def make_wild_play(take_turn, select_dice, is_swap):
    """The course's play for a Hog wild term: the mover rolls SELECT_DICE(score, opponent)."""

    def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
        """Simulate a game and return the final scores of both players, Player 0's first."""
        who = 0
        while score0 < goal and score1 < goal:
            if who == 0:
                score0 += take_turn(strategy0(score0, score1), score1, select_dice(score0, score1))
            else:
                score1 += take_turn(strategy1(score1, score0), score0, select_dice(score1, score0))
            if is_swap(score0, score1):
                score0, score1 = score1, score0
            who = other(who)
        return score0, score1

    return play


def play(strategy0, strategy1, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players, Player 0's first."""
    return make_wild_play(take_turn, select_dice, is_swap)(strategy0, strategy1, goal=goal)


bacon_strategy = make_bacon_strategy(free_bacon, BASELINE_NUM_ROLLS)
swap_strategy = make_swap_strategy(free_bacon, is_swap, num_rolls=BASELINE_NUM_ROLLS)


# The engines' model: SwapTerm's, with the four-sided rows after the six-sided ones and the
# Hog wild table (1 where the sum of the scores is a multiple of 7) at the end of the params.
WILD_KINDS = MAX_DICE + 1  # roll kinds 0-9: six-sided, 10: no dice, 11-20: four-sided


@jit(roll_kind_signature)
def _roll_kind(params, state, choice):
    goal = params[0]
    if choice == 0:
        return MAX_DICE
    if params[len(params) - goal * goal + state]:
        return WILD_KINDS + choice - 1
    return choice - 1


class HogWildTerm(SwapTerm):
    """SwapTerm with Hog wild: four-sided dice when ``four_sided_dice(score, opponent)``."""

    baseline = "always_roll:5"
    strategy_num_rolls = BASELINE_NUM_ROLLS

    @staticmethod
    def four_sided_dice(score, opponent):
        return (score + opponent) % 7 == 0

    def dice_sides(self, score: int, opponent: int) -> int:
        return 4 if self.four_sided_dice(score, opponent) else 6

    def build_model(self) -> GameModel:
        model = super().build_model()
        rows = [*dice_rows(pig_out), {0: 1.0}, *dice_rows(pig_out, (1, 2, 3, 4))]
        ptr, values, probs = distribution_table(rows)
        goal = self.goal
        wild = [int(self.four_sided_dice(s, o)) for s in range(goal) for o in range(goal)]
        return dataclasses.replace(
            model,
            params=np.concatenate([model.params, np.array(wild, dtype=np.int64)]),
            roll_kind=_roll_kind,
            dist_ptr=ptr,
            dist_value=values,
            dist_prob=probs,
        )


class HogFa13(HogWildTerm):
    name = "hog-fa13"
    title = "Hog, CS 61A Fall 2013 and Spring 2014"
    free_bacon = staticmethod(free_bacon)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        ("Pig out", "any die showing 1 makes the turn score 1"),
        ("Free bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Hog wild", "four-sided dice when the sum of the scores is a multiple of 7"),
        ("Swine swap", "swap when one score is double the other, even at the goal"),
    )


RULES = HogFa13
