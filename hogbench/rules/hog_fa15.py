"""Hog, CS 61A Fall 2015: Pig Out (0 points), Piggy Back, Free Bacon, Hog Wild, Hogtimus Prime,
Swine Swap (reversed digits); the term's contest added Pork Chop (an option here).

Rules (the project page's text, as copied in kirtibhanu1000P/Game_Of_HOG ``README.md``; skeleton
and ok tests, with the seeded games of ``tests/play.sol`` and ``tests/play_utils.py``:
hexinatgithub/sicp-python3 ``cs61a/projects/hog/``):

* Pig Out. "If any of the dice outcomes is a 1, the current player's score for the turn is 0."
* Piggy Back. "When the current player scores 0, the opposing player receives points equal to
  the number of dice rolled that turn."
* Free Bacon. "A player who chooses to roll zero dice scores one more than the largest digit in
  the opponent's total score." (42: 5, 48: 9, 7: 8.)
* Hog Wild. "If the sum of both players' total scores is a multiple of seven (e.g., 14, 21, 35),
  then the current player rolls four-sided dice instead of the usual six-sided dice."
* Hogtimus Prime. "If a player's score for the turn is a prime number, then the turn score is
  increased to the next largest prime number. [...] This boost only applies to the current
  player. Note: 1 is not a prime number!"
* Swine Swap. "After the turn score is added, if the last two digits of each player's score are
  the reverse of each other, the players swap total scores." Its examples: 19 and 91; "The
  reverse of 80 is 08, the opponent's score" (8); 109 against 90: "The last two digits 09 and 90
  are the reverse of each other, so the scores are swapped. The opponent ends the turn with 109
  and wins the game."
* Pork Chop (the term's contest; option ``pork_chop``, off by default). "A player may choose to
  roll -1 dice, which scores no points for the turn, but swaps both players' scores (similar to
  Swine Swap). This move can only be used once by each player; every subsequent roll of -1 will
  be treated as if that player rolled 10 dice instead. Note: If Swine Swap would trigger
  immediately after Pork Chop, that swap doesn't take effect!" (the contest's rule list, as
  copied into a student's project README; the same words as the later contest's.)

Readings, checked against the course's tests: any 1 makes the turn score 0, and only then (a
Free Bacon scores at least 1) does Piggy Back give the opponent the number of dice rolled, not
raised by Hogtimus Prime ("only applies to the current player"). Hogtimus Prime raises Free Bacon
too (the ok tests: ``take_turn(0, 60)`` is 11; "Account for hogtimus prime rule":
``bacon_strategy(20, 20, margin=5)`` is 0); one contest entry that leaves Free Bacon as it is
disagrees with them. Piggy Back comes before Swine Swap, which compares the scores after both:
the course's 1000 seeded games (``play.sol``) are reproduced with this order and not with the
other. Hog Wild picks the dice from the scores before the turn; Piggy Back counts the dice
whatever their sides. Scores are compared on their last two digits, a one-digit score read with a
leading 0 (``is_swap(2, 20)``, ``is_swap(114, 41)``, ``is_swap(55, 55)`` in the ok tests), at the
goal too (five of the seeded games need the swap at the goal). A Pork Chop is the turn's only
event (no Piggy Back: no dice are rolled); a later -1 is a turn of 10 dice, Hog Wild, Piggy Back
and Swine Swap included.

The model is hog-contest's (``HogContest``) with these course functions and Piggy Back.
"""

from __future__ import annotations

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._kit import ALWAYS_ROLL, course_builtin, threshold_builtin
from hogbench.rules.base import Builtin
from hogbench.rules.hog_contest import (  # noqa: F401  (the course's names, re-exported)
    MAX_DICE,
    PORK_CHOP,
    HogContest,
    always_roll,
    other,
)
from hogbench.rules.hog_fa13 import free_bacon
from hogbench.rules.hog_sp16 import hogtimus_prime

GOAL_SCORE = 100
BASELINE_NUM_ROLLS = 5


def pig_out(outcomes) -> int:
    """Pig Out: the sum of the OUTCOMES, or 0 if any is a 1."""
    return 0 if 1 in outcomes else sum(outcomes)


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS times. Return the sum of the outcomes unless
    any of the outcomes is 1. In that case, return 0.

    >>> roll_dice(3, make_test_dice(4, 6, 1)), roll_dice(2, make_test_dice(4, 6, 1))
    (0, 10)
    """
    assert type(num_rolls) is int and num_rolls > 0, "Must roll at least once."
    return pig_out([dice() for _ in range(num_rolls)])


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon), with Hogtimus Prime.

    >>> take_turn(0, 60), take_turn(1, 0, make_test_dice(3)), take_turn(3, 0, make_test_dice(4, 6, 1))
    (11, 5, 0)
    """
    assert type(num_rolls) is int and 0 <= num_rolls <= MAX_DICE
    return hogtimus_prime(
        free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)
    )


def select_dice(score, opponent_score):
    """Six-sided dice unless the sum of SCORE and OPPONENT_SCORE is a multiple of 7 (Hog Wild)."""
    return four_sided if (score + opponent_score) % 7 == 0 else six_sided


def is_swap(score0, score1):
    """Whether the last two digits of SCORE0 and SCORE1 are each other's reverse.

    >>> is_swap(19, 91), is_swap(2, 20), is_swap(114, 41), is_swap(55, 55), is_swap(71, 107)
    (True, True, True, True, False)
    """
    return score0 % 100 == score1 % 10 * 10 + score1 // 10 % 10


def chop_or_take_turn(num_rolls, score, opponent_score, chopped):
    """One turn of the player with SCORE choosing NUM_ROLLS: a Pork Chop when -1 and not CHOPPED,
    else the dice of Hog Wild (10 of them for -1), Piggy Back and Swine Swap. Return the player's
    score, the opponent's and CHOPPED after the turn."""
    if num_rolls == PORK_CHOP and not chopped:
        return opponent_score, score, True
    if num_rolls == PORK_CHOP:
        num_rolls = MAX_DICE
    points = take_turn(num_rolls, opponent_score, select_dice(score, opponent_score))
    if points == 0:  # Piggy Back
        opponent_score += num_rolls
    score += points
    if is_swap(score, opponent_score):
        score, opponent_score = opponent_score, score
    return score, opponent_score, chopped


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE, pork_chop=False):
    """Simulate a game and return the final scores of both players, Player 0's first. With
    PORK_CHOP, a strategy may return -1 (the contest's Pork Chop)."""
    who, chopped = 0, [False, False]
    while score0 < goal and score1 < goal:
        strategy = strategy1 if who else strategy0
        score, opponent = (score1, score0) if who else (score0, score1)
        num_rolls = strategy(score, opponent)
        assert pork_chop or num_rolls != PORK_CHOP, "Pork Chop (-1) is off in this game."
        score, opponent, chopped[who] = chop_or_take_turn(num_rolls, score, opponent, chopped[who])
        score0, score1 = (opponent, score) if who else (score, opponent)
        who = other(who)
    return score0, score1


def bacon_strategy(score, opponent_score, margin=8, num_rolls=BASELINE_NUM_ROLLS):
    """This strategy rolls 0 dice if that gives at least MARGIN points, and rolls NUM_ROLLS
    otherwise."""
    return 0 if take_turn(0, opponent_score) >= margin else num_rolls


def swap_strategy(score, opponent_score, num_rolls=BASELINE_NUM_ROLLS):
    """This strategy rolls 0 dice when it results in a beneficial swap and rolls NUM_ROLLS
    otherwise."""
    new = score + take_turn(0, opponent_score)
    return 0 if is_swap(new, opponent_score) and new < opponent_score else num_rolls


class HogFa15(HogContest):
    name = "hog-fa15"
    title = "Hog, CS 61A Fall 2015 (the contest's Pork Chop an option)"
    baseline = "always_roll:5"
    dice_points = staticmethod(pig_out)
    take_turn = staticmethod(take_turn)
    free_bacon = staticmethod(free_bacon)
    select_dice = staticmethod(select_dice)
    is_swap = staticmethod(is_swap)
    piggy_back = True
    hidden_state = "nothing beyond the two scores (with Pork Chop on: who has used it)"
    choice_help = "number of dice 0 to 10 (-1 for Pork Chop with --option pork_chop=true)"
    options_help = {
        "pork_chop": (False, "the contest's Pork Chop: -1 swaps the scores, once per player"),
    }
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 0"),
        ("Piggy Back", "a turn scoring 0 gives the opponent the number of dice rolled"),
        ("Free Bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Hog Wild", "four-sided dice when the sum of the scores is a multiple of 7"),
        ("Hogtimus Prime", "a prime turn score becomes the next prime (Free Bacon too)"),
        ("Swine Swap", "swap when the last two digits are each other's reverse, even at the goal"),
        ("Pork Chop", "the contest's rule, an option: -1 swaps the scores, once per player"),
    )

    def builtins(self) -> dict[str, Builtin]:
        return {
            "always_roll": ALWAYS_ROLL,
            "bacon_strategy": threshold_builtin(
                bacon_strategy,
                8,
                BASELINE_NUM_ROLLS,
                "Free Bacon (Hogtimus Prime in)",
                name="margin",
            ),
            "swap_strategy": course_builtin(
                swap_strategy,
                "0 dice for a beneficial swap, else num_rolls",
                num_rolls=BASELINE_NUM_ROLLS,
            ),
        }


RULES = HogFa15
