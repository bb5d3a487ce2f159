"""Hog, CS 61A Fall 2019: Pig Out, Free Bacon, Feral Hogs, Swine Swap.

Rules (the course's rules, from the term's skeleton AnthonyNg404/61A ``projects/hog/hog.py`` and
its ``play(..., feral_hogs=True)``; also laevatin/CS61A-fa19, yuzhoumo/cs61a-fa2019):

* Pig Out. If any of the dice outcomes is a 1, the current player's score for the turn is 1.
* Free Bacon. A player who chooses to roll zero dice scores ten minus the minimum of the tens
  digit and the ones digit of the opponent's score.
* Feral Hogs. If the number of dice you roll is exactly 2 away (absolute difference) from the
  number of dice you rolled on your previous turn, you get 3 extra points for the turn. Treat
  the turn before your first turn as rolling 0 dice. Rolling 0 dice is a number of dice too.
* Swine Swap. After points for the turn are added to the current player's score, if the first
  digit of the current player's score times its ones digit equals the first digit of the
  opponent's score times its ones digit, the scores are swapped (also when the current player
  has reached the goal: the course's ``play`` checks after every turn).

The staff contest engine's figures confirm two readings: always_roll(4) against always_roll(6)
wins 0.4610395535 moving first and 0.4313770522 moving second (0.4462083029 averaged), which
this rule set reproduces to 1e-12; without a swap at the goal it would be 0.4577/0.4258, and with
the tens digit as the "first digit" of 100..109 0.4612/0.4310. The Feral Hogs readings (0 before
a player's first turn; a 0-dice turn counts as 0 dice) follow the course's ``play``, which
records the number of dice of every turn; rolling 4 or 6 never tests them. The course's 1000
seeded games (``tests/play.sol``, found in Tangjacson/cs61a ``proj/hog``) test them: all replay
with these functions (tests/test_term_hog_fa19.py), while 978 differ if a 0-dice turn does not
count as 0 dice for Feral Hogs, 999 without Feral Hogs and 30 without the swap at the goal.
Feral Hogs is switched off with the option ``feral_hogs`` (the course's
``play(..., feral_hogs=False)``).

Hidden state: each player's previous number of dice, 0..10 (11 values each). No smaller state
is exact: a previous p triggers the bonus for the choices p - 2 and p + 2, a different pair for
every p. A strategy sees only the two scores.

Free Bacon is Summer 2019's, and with it ``take_turn`` and ``bacon_strategy``: they are imported
from there.
"""

from __future__ import annotations

from hogbench.rules._feral_term import FeralTerm, make_feral_play
from hogbench.rules._swap_term import make_swap_strategy
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
from hogbench.rules.hog_su19 import bacon_strategy, free_bacon, take_turn  # noqa: F401


def is_swap(player_score, opponent_score):
    """Return whether the two scores should be swapped: equal first digit times ones digit.

    >>> is_swap(19, 91), is_swap(23, 32), is_swap(106, 16)
    (True, True, True)
    """

    def first_times_last(score):
        first = score
        while first >= 10:
            first //= 10
        return first * (score % 10)

    return first_times_last(player_score) == first_times_last(opponent_score)


def feral_bonus(num_rolls, previous_rolls):
    """Feral Hogs: 3 extra points when NUM_ROLLS is exactly 2 away from PREVIOUS_ROLLS."""
    return 3 if abs(num_rolls - previous_rolls) == 2 else 0


play = make_feral_play(take_turn, feral_bonus, is_swap, remembers="dice")
swap_strategy = make_swap_strategy(free_bacon, is_swap)


class HogFa19(FeralTerm):
    name = "hog-fa19"
    title = "Hog, CS 61A Fall 2019"
    hidden_state = "how many dice each player rolled on their previous turn (Feral Hogs)"
    options_help = {
        "feral_hogs": (True, "Feral Hogs: +3 when the dice rolled are 2 away from your last"),
    }
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score 1"),
        ("Free Bacon", "rolling 0 scores 10 - min(tens, ones) of the opponent's score"),
        ("Feral Hogs", "+3 when |dice rolled - dice you rolled last turn| is 2 (option)"),
        ("Swine Swap", "swap when first digit x ones digit match for both scores, even at goal"),
    )
    free_bacon = staticmethod(free_bacon)
    feral_bonus = staticmethod(feral_bonus)
    is_swap = staticmethod(is_swap)
    remembers, memory_text = "dice", "dice on the previous turn"
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)


RULES = HogFa19
