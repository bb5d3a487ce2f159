"""Hog, CS 61A Spring 2022: Sow Sad, Hefty Hogs, Hog Pile; a game may never end.

Rules (the course's project page and skeleton ``projects/hog/hog.py``, as in the repositories
lovelxc/cs61a-sp22 and ARE404/CS61A, and the term's ok tests ``tests/02.py`` ...):

* Sow Sad. "If any of the dice outcomes is a 1, the current player's score for the turn is 1."
* Hefty Hogs. "If the opponent's score is 0 and the player chooses to roll zero dice, the player
  will get 1 point. However, if the opponent's score is not 0, a player who chooses to roll zero
  dice will gain points according to the following: The opponent's score will be mapped to a
  series of functions to be applied to the player's score, starting from the rightmost digit
  (the one's place) and ending on the leftmost digit. Each digit from 0 to 9 corresponds to a
  pre-defined function, f0 through f9. The result of this series of calls modulo 30 is the
  amount of points the player receives for the turn." (``digit_fn``, ``hefty_hogs``.)
* Hog Pile. "After points for the turn are added to the current player's score, if the one's
  digit (ones_digit) of the current player's score is the same as the one's digit of the
  opponent player's score, the current player gains an additional ones_digit points."
  (``hog_pile(player_score, opponent_score)``: the points it adds.)

The course's ``play`` adds ``take_turn`` and then ``hog_pile`` for the mover, calls the
commentary, and the players alternate until a score reaches the goal.

Readings. The digit functions are the course's, Python's float arithmetic included (f7 is
``int(value * 8.8)``, f8 ``int(value / 99 * 15) + 10``), and Python's ``%`` makes a negative
result (f4 subtracts 5) count up from 0, as the course's tests take it (``hefty_hogs(5, 456)``
is 29). ``hog_pile_strategy`` compares Hefty Hogs' points alone with its threshold (the course's
hint builds it on ``hefty_hogs_strategy``).

A game may never end: Hefty Hogs can score 0, and Hog Pile then adds nothing unless both ones
digits match (a matching 0 adds 0), so two 0-point turns in a row give the first mover the
same state again, and two strategies that always choose so play forever (the course's ``play``
would loop). hogbench counts such a game as a tie: the exact engine values it half a win for
each player, and a simulated or watched game still going after 4 x goal turns is over and
tied. Between deterministic strategies that is no approximation: every turn but a 0-point one
raises the sum of the scores, and two 0-point turns in a row repeat a state, so a game that
lasts 4 x goal turns never ends.
"""

from __future__ import annotations

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._update_term import (  # noqa: F401  (the course's names, re-exported)
    UpdateTerm,
    always_roll,
    make_bonus_play,
    sow_sad,
)
from hogbench.rules.hog_fa23 import roll_dice  # noqa: F401  (the same course function)
from hogbench.rules.hog_su21 import next_player  # noqa: F401  (the same course function)
from hogbench.rules.hog_su22 import silence  # noqa: F401  (this term's commentary shape too)

GOAL_SCORE = 100

# The course's pre-defined functions f0 ... f9, by digit.
DIGIT_FUNCTIONS = (
    lambda value: value + 1,
    lambda value: value**2,
    lambda value: value * 3,
    lambda value: value // 4,
    lambda value: value - 5,
    lambda value: value % 6,
    lambda value: int((value % 7) * 8),
    lambda value: int(value * 8.8),
    lambda value: int(value / 99 * 15) + 10,
    lambda value: value,
)


def digit_fn(digit):
    """Return the function f0 ... f9 of DIGIT.

    >>> digit_fn(3)(10), digit_fn(7)(5), digit_fn(8)(72)
    (2, 44, 20)
    """
    assert isinstance(digit, int) and 0 <= digit < 10
    return DIGIT_FUNCTIONS[digit]


def hefty_hogs(player_score, opponent_score):
    """Return the points scored by player due to Hefty Hogs.

    >>> hefty_hogs(5, 123), hefty_hogs(5, 456), hefty_hogs(10, 32), hefty_hogs(7, 0)
    (9, 29, 7, 1)
    """
    if opponent_score == 0:
        return 1
    value = player_score
    while opponent_score:
        value = digit_fn(opponent_score % 10)(value)
        opponent_score //= 10
    return value % 30


def take_turn(num_rolls, player_score, opponent_score, dice=six_sided, goal=GOAL_SCORE):
    """Simulate a turn rolling NUM_ROLLS dice (Hefty Hogs for 0); return its points."""
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert max(player_score, opponent_score) < goal, "The game should be over."
    if num_rolls == 0:
        return hefty_hogs(player_score, opponent_score)
    return roll_dice(num_rolls, dice)


def hog_pile(player_score, opponent_score):
    """Return the points scored by player due to Hog Pile.

    >>> hog_pile(25, 43), hog_pile(7, 7), hog_pile(26, 36), hog_pile(30, 10)
    (0, 7, 6, 0)
    """
    ones = player_score % 10
    return ones if ones == opponent_score % 10 else 0


play = make_bonus_play(take_turn, hog_pile, silence)


def hefty_hogs_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """Roll 0 dice if Hefty Hogs gives at least THRESHOLD points, else NUM_ROLLS."""
    return 0 if hefty_hogs(score, opponent_score) >= threshold else num_rolls


def hog_pile_strategy(score, opponent_score, threshold=8, num_rolls=6):
    """Roll 0 dice when Hog Pile would then add points, or when Hefty Hogs gives at least
    THRESHOLD points; else NUM_ROLLS."""
    points = hefty_hogs(score, opponent_score)
    if hog_pile(score + points, opponent_score) or points >= threshold:
        return 0
    return num_rolls


class HogSp22(UpdateTerm):
    name = "hog-sp22"
    title = "Hog, CS 61A Spring 2022"
    rule_lines = (
        ("Sow Sad", "any die showing 1 makes the turn score 1"),
        (
            "Hefty Hogs",
            "rolling 0 applies the digit functions f0..f9 of the opponent's digits, ones first,"
            " to the mover's score, mod 30 (1 against 0)",
        ),
        ("Hog Pile", "equal ones digits after the turn add that digit"),
        (
            "No end",
            "two 0-point turns repeat a state, and a game may never end: a tie, half a win"
            " each exactly; simulated, watched or played, a tie after 4 x goal turns",
        ),
    )
    zero_rule, after_rule = "Hefty Hogs", "Hog Pile"
    zero_points = staticmethod(hefty_hogs)
    may_never_end = True
    zero_rule_strategy = staticmethod(hefty_hogs_strategy)
    after_rule_strategy = staticmethod(hog_pile_strategy)
    after_rule_strategy_summary = (
        "0 dice when Hog Pile would add points or Hefty Hogs >= threshold, else num_rolls"
    )

    @staticmethod
    def after_turn(score, opponent_score):
        return score + hog_pile(score, opponent_score)

    def turn_cap(self):
        return 4 * self.goal


RULES = HogSp22
