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
are also parameters with those defaults.

The option ``ham_hijinks`` (off by default) adds the terms' contest rule (the Fall 2013 and
Spring 2014 contest pages, ``proj/hog_contest/hog_contest.html``):

* Ham Hijinks. "A player may choose to roll -1 dice; she scores 1 point for the turn and
  exchanges the dice. If the total number of times any player has exchanged the dice during the
  game is odd, then four-sided dice are rolled when six-sided dice would normally be rolled, and
  vice versa. That is, players will roll four-sided dice unless Hog Wild is in effect, in which
  case they will roll six-sided dice." Its sample game has a -1 invoke Swine swap ("the score is
  7 to 14"), so the swap follows a Ham Hijinks turn as any other. "Players do not know how many
  dice the opponent chose to roll and thus cannot be certain how many times the dice have been
  exchanged": the exchanges are hidden state, shared by both players.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.jit import jit
from hogbench.rules._swap_term import SwapTerm, make_bacon_strategy, make_swap_strategy
from hogbench.rules.base import (
    LOSE,
    MAX_DICE,
    OTHER,
    WIN,
    Builtin,
    GameModel,
    Step,
    check_int_choice,
    dice_rows,
    outcome,
    resolve_signature,
    roll_kind_signature,
    score_sum_model,
)
from hogbench.rules.hog_contest import always_roll as always_roll_or_ham
from hogbench.rules.hog_sp19 import (  # noqa: F401  (the course's names, re-exported)
    always_roll,
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


HAM_HIJINKS = -1  # the number of dice that asks for the contest's Ham Hijinks


def exchanged_dice(score, opponent_score, exchanged):
    """The dice of a turn in the contest: select_dice's, or the other kind when the dice have been
    EXCHANGED an odd number of times (Ham Hijinks).

    >>> exchanged_dice(0, 1, True) == four_sided, exchanged_dice(7, 14, True) == six_sided
    (True, True)
    """
    dice = select_dice(score, opponent_score)
    if exchanged:
        return six_sided if dice is four_sided else four_sided
    return dice


def play(strategy0, strategy1, goal=GOAL_SCORE, ham_hijinks=False):
    """Simulate a game and return the final scores of both players, Player 0's first. With
    HAM_HIJINKS (the contest's rule) a strategy may return -1: 1 point, the dice exchanged."""
    if not ham_hijinks:
        return make_wild_play(take_turn, select_dice, is_swap)(strategy0, strategy1, goal=goal)
    scores, who, exchanged = [0, 0], 0, False
    while max(scores) < goal:
        score, opponent = scores[who], scores[other(who)]
        num_rolls = (strategy0, strategy1)[who](score, opponent)
        if num_rolls == HAM_HIJINKS:
            score, exchanged = score + 1, not exchanged
        else:
            score += take_turn(num_rolls, opponent, exchanged_dice(score, opponent, exchanged))
        if is_swap(score, opponent):
            score, opponent = opponent, score
        scores[who], scores[other(who)] = score, opponent
        who = other(who)
    return tuple(scores)


bacon_strategy = make_bacon_strategy(free_bacon, BASELINE_NUM_ROLLS)
swap_strategy = make_swap_strategy(free_bacon, is_swap, num_rolls=BASELINE_NUM_ROLLS)


# The dice exchanged for both players for the rest of the game by a -1 that scores 1 point (the
# contest's Ham Hijinks; hog-fa16's Pork Chop), hidden from strategies: state = exchanged *
# goal^2 + score * goal + opponent. Roll kinds: 0-9 1 to 10 dice of variant 0, 10 Free bacon,
# 11-40 1 to 10 dice of variants 1, 2 and 3, 41 the -1; variant = 2 * exchanged + Hog wild.
# params [goal, bacon[opponent] ..., wild[score * goal + opponent] ..., swap[score * goal +
# opponent] ...].
EXCHANGE_KIND = 4 * MAX_DICE + 1


@jit(roll_kind_signature)
def _exchange_roll_kind(params, state, choice):
    goal = params[0]
    area = goal * goal
    if choice == 0:
        return MAX_DICE
    if choice == HAM_HIJINKS:
        return EXCHANGE_KIND
    variant = 2 * (state // area) + params[1 + goal + state % area]
    return choice - 1 if variant == 0 else variant * MAX_DICE + choice


@jit(resolve_signature)
def _exchange_resolve(params, state, choice, value):
    goal = params[0]
    area = goal * goal
    exchanged, score, opponent = state // area, (state % area) // goal, state % goal
    if choice == 0:
        value = params[1 + opponent]
    if choice == HAM_HIJINKS:
        exchanged = 1 - exchanged
    score += value
    if params[1 + goal + area + score * goal + opponent]:
        score, opponent = opponent, score
    if score >= goal:
        return WIN
    if opponent >= goal:
        return LOSE
    return outcome(exchanged * area + opponent * goal + score, OTHER)


def exchange_model(goal, variants, bacon, wild, is_swap) -> GameModel:
    """The model of a term whose -1 scores 1 point and exchanges the dice: VARIANTS holds the
    rows of 1 to 10 dice (their points, every rule applied) without and with Hog wild, then the
    same after an exchange; BACON[opponent] the points of 0 dice; WILD[score * goal + opponent]
    1 under Hog wild; IS_SWAP(score, opponent) the term's swap."""
    rows = [*variants[0], {0: 1.0}, *variants[1], *variants[2], *variants[3], {1: 1.0}]
    score_rows = goal + max(*bacon, *(max(row) for row in rows))
    swap = [int(is_swap(s, o)) for s in range(score_rows) for o in range(goal)]
    params = [goal, *bacon, *wild, *swap]
    model = score_sum_model(goal, rows, params, _exchange_roll_kind, _exchange_resolve, 2)
    return dataclasses.replace(model, choices=np.arange(HAM_HIJINKS, MAX_DICE + 1))


class HogFa13(SwapTerm):
    name = "hog-fa13"
    title = "Hog, CS 61A Fall 2013 and Spring 2014"
    baseline = "always_roll:5"
    strategy_num_rolls = BASELINE_NUM_ROLLS
    free_bacon = staticmethod(free_bacon)
    select_dice = staticmethod(select_dice)
    is_swap = staticmethod(is_swap)
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    rule_lines = (
        ("Pig out", "any die showing 1 makes the turn score 1"),
        ("Free bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Hog wild", "four-sided dice when the sum of the scores is a multiple of 7"),
        ("Swine swap", "swap when one score is double the other, even at the goal"),
    )


class HamHijinks:
    """The Fall 2013 and Spring 2014 contest's Ham Hijinks as an option of a Hog wild term."""

    options_help = {
        "ham_hijinks": (False, "the contest's Ham Hijinks: -1 scores 1 and exchanges the dice"),
    }
    hidden_state = "whether the dice are exchanged (Ham Hijinks, when that option is on)"
    choice_help = "number of dice 0 to 10 (-1 for Ham Hijinks with ham_hijinks=true)"
    rule_lines = (
        *HogFa13.rule_lines,
        ("Ham Hijinks", "contest option: -1 scores 1 and exchanges four- and six-sided dice"),
    )

    def choice(self, value) -> int:
        if not self.options["ham_hijinks"]:
            return super().choice(value)
        return check_int_choice(value, HAM_HIJINKS, MAX_DICE, f"{self.name}: {self.choice_help}")

    def describe_choice(self, choice: int) -> str:
        return "Ham Hijinks (-1)" if choice == HAM_HIJINKS else f"roll {choice}"

    def builtins(self) -> dict[str, Builtin]:
        found = super().builtins()
        if self.options["ham_hijinks"]:
            found["always_roll"] = Builtin(
                always_roll_or_ham, "always roll N dice, -1 to 10: always_roll:5"
            )
        return found

    def build_model(self) -> GameModel:
        if not self.options["ham_hijinks"]:
            return super().build_model()
        goal = self.goal
        six, four = dice_rows(pig_out), dice_rows(pig_out, (1, 2, 3, 4))
        bacon = [self.free_bacon(o) for o in range(goal)]
        return exchange_model(goal, (six, four, four, six), bacon, self.wild_table(), self.is_swap)

    def play_step(self, state: int, choice: int, rng: random.Random) -> Step:
        if not self.options["ham_hijinks"]:
            return super().play_step(state, choice, rng)
        m, exchanged = self.model, state >= self.goal * self.goal
        score, opponent = self.scores(state)
        dice: tuple[int, ...] = ()
        if choice == HAM_HIJINKS:
            points, events = 1, ["Ham Hijinks: 1 point, the dice exchanged"]
        elif choice == 0:
            points = self.free_bacon(opponent)
            events = [f"Free bacon: {points} point{'s' * (points != 1)}"]
        else:
            wild = self.select_dice(score, opponent) is four_sided
            sides = 4 if wild != exchanged else 6
            dice = tuple(rng.randint(1, sides) for _ in range(choice))
            points = pig_out(dice)
            why = [w for w, on in (("Hog wild", wild), ("dice exchanged", exchanged)) if on]
            events = [f"{', '.join(why)}: {'four' if sides == 4 else 'six'}-sided dice"] * bool(why)
            events += ["Pig out! 1 point"] if 1 in dice else [f"{points} points"]
        new, other_score = score + points, opponent
        if self.is_swap(new, other_score):
            new, other_score = other_score, new
            events.append("Swine swap!")
        code = int(m.resolve(m.params, state, choice, 0 if choice == 0 else points))
        final = (new, other_score) if code & 7 in (WIN, LOSE) else None
        return Step(dice, events, code, final)


class HogFa13Contest(HamHijinks, HogFa13):
    """hog-fa13 (and hog-sp14): the term's rules, its contest's Ham Hijinks an option. Later terms
    build on HogFa13, without the option."""


RULES = HogFa13Contest
