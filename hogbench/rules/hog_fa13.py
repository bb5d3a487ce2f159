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

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._swap_term import (
    SwapTerm,
    make_bacon_strategy,
    make_swap_strategy,
    make_wild_play,
)
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


class HogFa13Contest(HogFa13):
    """hog-fa13 (and hog-sp14): the term's rules, its contest's Ham Hijinks an option. Later terms
    build on HogFa13, without the option."""

    exchange_rule = "Ham Hijinks"
    options_help = {
        "ham_hijinks": (False, "the contest's Ham Hijinks: -1 scores 1 and exchanges the dice"),
    }
    hidden_state = "whether the dice are exchanged (Ham Hijinks, when that option is on)"
    choice_help = "number of dice 0 to 10 (-1 for Ham Hijinks with --option ham_hijinks=true)"
    rule_lines = (
        *HogFa13.rule_lines,
        ("Ham Hijinks", "contest option: -1 scores 1 and exchanges four- and six-sided dice"),
    )

    def __init__(self, goal: int | None = None, **options: object) -> None:
        super().__init__(goal, **options)
        if self.exchanging():  # the contest's narration spells the rules as its page does
            self.zero_rule, self.ones_rule = "Free bacon", "Pig out"
            self.wild_rule, self.swap_rule = "Hog wild", "Swine swap"

    def exchanging(self) -> bool:
        return self.options["ham_hijinks"]


RULES = HogFa13Contest
