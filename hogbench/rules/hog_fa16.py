"""Hog, CS 61A Fall 2016: Pig Out (the number of 1s), Free Bacon, Hogtimus Prime, When Pigs Fly,
Hog Wild (odd outcomes re-rolled), Pork Chop (the dice exchanged), Swine Swap.

Rules (the course's skeleton and ok tests, paulhzq/cs61a ``projects/Hog/hog/hog.py`` and
``tests/01.py``-``10.py``; a completed copy of the term's file, Muchen-W/cs61a-16fall
``project/hog/hog.py``; the project page's prose was not found, so the text quoted is the
skeleton's):

* Pig Out. ``roll_dice``: "Return the sum of the outcomes unless any of the outcomes is 1. In
  that case, return the number of 1's rolled." (ok test: 4 dice of 1, 2, 3, 1 score 2.)
* Free Bacon. Rolling 0 dice scores 1 + the larger digit of the opponent's score (ok tests:
  the Free Bacon of 24 is 5, boosted to 7).
* Hogtimus Prime and When Pigs Fly. ``take_turn`` "Also implements the Hogtimus Prime and When
  Pigs Fly rules": a prime turn score becomes the next prime, and then the turn scores at most
  25 minus the number of dice rolled (ok tests: ``take_turn(10, 0, make_test_dice(5))`` is 15,
  ``take_turn(2, 0, make_test_dice(2, 3, 5))`` is 7).
* Hog Wild. ``select_dice``: "Return the dice used for a turn, which may be re-rolled (Hog Wild)
  and/or swapped for four-sided dice (Pork Chop)", re-rolled when the sum of the scores is a
  multiple of 7; ``reroll``: "Return dice that return even outcomes and re-roll odd outcomes of
  DICE." Each odd outcome is rolled once more and the new outcome stands, odd or not (ok test:
  ``reroll(make_test_dice(1, 1, 1, 1, 2))`` gives 1, 1, 2, 1).
* Pork Chop. "All strategy outputs must be integers from -1 to 10": -1 scores 1 point and
  exchanges the six-sided and four-sided dice for both players for the rest of the game
  ("DICE_SWAPPED is True if and only if four-sided dice are being used"; ok test: from 98-91,
  -1 makes 99, and the opponent's 3 four-sided dice of 1 score 3, boosted to 5).
* Swine Swap. After every turn, if one score is double the other, the scores swap, also when
  that hands the opponent the goal (ok test: 95 + 15 against 55 ends 55-110).

Readings: the order in a turn is the dice in play (re-rolled under Hog Wild), Pig Out, Hogtimus
Prime, When Pigs Fly, the points added, Swine Swap, as the ok tests require. Pork Chop is part
of the game, not a contest option: the skeleton's ``play`` keeps ``dice_swapped`` and its
``check_strategy`` accepts -1, and the ok tests play -1. A Pork Chop's point is followed by the
Swine Swap check like any turn: no course test decides it, and the three students' ``play`` found
(Muchen-W/cs61a-16fall, gandirapp/CS61A-Fall-2016, hacker0sean/CS61A-2016) all do so. The dice in
play are shared by both players and hidden from strategies, which see the two scores. The
course's strategies use ``take_turn(0, ...)`` (Hogtimus Prime included), as hog-sp16's.
"""

from __future__ import annotations

import functools
import itertools
import random
from math import factorial, prod

from hogbench.dice import four_sided, make_test_dice, six_sided  # noqa: F401
from hogbench.rules._kit import points_event
from hogbench.rules._swap_term import SwapTerm
from hogbench.rules.base import MAX_DICE
from hogbench.rules.hog_contest import always_roll  # noqa: F401  (-1 to 10 dice)
from hogbench.rules.hog_fa13 import free_bacon, is_swap, other
from hogbench.rules.hog_sp16 import bacon_strategy, hogtimus_prime, swap_strategy

GOAL_SCORE = 100
PORK_CHOP = -1


def pig_out(outcomes):
    """Pig Out: the number of 1s if any outcome is a 1, else the sum of the outcomes."""
    return outcomes.count(1) or sum(outcomes)


def roll_dice(num_rolls, dice=six_sided):
    """Simulate rolling the DICE exactly NUM_ROLLS > 0 times (Pig Out).

    >>> roll_dice(4, make_test_dice(1, 2, 3))
    2
    """
    assert type(num_rolls) is int and num_rolls > 0, "Must roll at least once."
    return pig_out([dice() for _ in range(num_rolls)])


def take_turn(num_rolls, opponent_score, dice=six_sided):
    """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon), with Hogtimus Prime
    and When Pigs Fly.

    >>> take_turn(10, 0, make_test_dice(5)), take_turn(0, 60)
    (15, 11)
    """
    assert type(num_rolls) is int and 0 <= num_rolls <= 10
    assert opponent_score < 100, "The game should be over."
    points = free_bacon(opponent_score) if num_rolls == 0 else roll_dice(num_rolls, dice)
    return min(hogtimus_prime(points), 25 - num_rolls)


def reroll(dice):
    """Return dice that return even outcomes and re-roll odd outcomes of DICE.

    >>> rerolled = reroll(make_test_dice(1, 1, 1, 1, 2))
    >>> [rerolled() for _ in range(4)]
    [1, 1, 2, 1]
    """

    def rerolled():
        outcome = dice()
        return outcome if outcome % 2 == 0 else dice()

    return rerolled


def select_dice(score, opponent_score, dice_swapped):
    """The dice of a turn: four-sided when DICE_SWAPPED (Pork Chop), re-rolled when the sum of
    the scores is a multiple of 7 (Hog Wild)."""
    dice = four_sided if dice_swapped else six_sided
    return reroll(dice) if (score + opponent_score) % 7 == 0 else dice


def play(strategy0, strategy1, score0=0, score1=0, goal=GOAL_SCORE):
    """Simulate a game and return the final scores of both players, Player 0's first."""
    player, dice_swapped = 0, False
    while score0 < goal and score1 < goal:
        score, opponent = (score0, score1) if player == 0 else (score1, score0)
        num_rolls = (strategy0 if player == 0 else strategy1)(score, opponent)
        if num_rolls == PORK_CHOP:
            points, dice_swapped = 1, not dice_swapped
        else:
            points = take_turn(num_rolls, opponent, select_dice(score, opponent, dice_swapped))
        score += points
        if is_swap(score, opponent):
            score, opponent = opponent, score
        score0, score1 = (score, opponent) if player == 0 else (opponent, score)
        player = other(player)
    return score0, score1


# The engines' model: the swap kit's, the dice exchanged by Pork Chop (hidden, shared by both
# players), its variants six-sided, six-sided re-rolled, four-sided, four-sided re-rolled, each
# row holding take_turn's points.


def dice_faces(sides, rerolled):
    """{outcome: chance} of a fair die of SIDES, RE-ROLLED by the course's reroll or not: every
    pair of outcomes replayed through reroll."""
    if not rerolled:
        return dict.fromkeys(range(1, sides + 1), 1 / sides)
    chances = dict.fromkeys(range(1, sides + 1), 0.0)
    for pair in itertools.product(range(1, sides + 1), repeat=2):
        chances[reroll(make_test_dice(*pair))()] += 1 / sides**2
    return chances


def turn_rows(faces):
    """take_turn's {points: chance} for 1 to 10 dice showing FACES ({outcome: chance})."""
    rows = []
    for n in range(1, MAX_DICE + 1):
        row: dict[int, float] = {}
        for combo in itertools.combinations_with_replacement(sorted(faces), n):
            ways = factorial(n) // prod(factorial(combo.count(f)) for f in set(combo))
            points = take_turn(n, 0, make_test_dice(*combo))
            row[points] = row.get(points, 0.0) + ways * prod(faces[f] for f in combo)
        rows.append(row)
    return rows


class HogFa16(SwapTerm):
    name = "hog-fa16"
    title = "Hog, CS 61A Fall 2016"
    hidden_state = "which dice are in play (Pork Chop exchanges them for both players)"
    choice_help = "number of dice 0 to 10, or -1 for Pork Chop"
    exchange_rule = "Pork Chop"
    dice_points = staticmethod(pig_out)
    free_bacon = staticmethod(free_bacon)
    select_dice = staticmethod(select_dice)
    is_swap = staticmethod(is_swap)
    announce_highest = None  # the term had no commentary functions
    bacon_strategy = staticmethod(bacon_strategy)
    swap_strategy = staticmethod(swap_strategy)
    swap_strategy_summary = "0 dice for a beneficial swap or >= margin points, else num_rolls"
    variant_sides = (6, 6, 4, 4)  # the exchanged dice are four-sided; Hog Wild re-rolls
    rule_lines = (
        ("Pig Out", "any die showing 1 makes the turn score the number of 1s"),
        ("Free Bacon", "rolling 0 scores 1 + the largest digit of the opponent's score"),
        ("Hogtimus Prime", "a prime turn score becomes the next prime"),
        ("When Pigs Fly", "then the turn scores at most 25 - the number of dice rolled"),
        ("Hog Wild", "when the scores sum to a multiple of 7, odd outcomes are re-rolled once"),
        (
            "Pork Chop",
            "-1 scores 1 and exchanges six- and four-sided dice for the rest of the game",
        ),
        ("Swine Swap", "swap when one score is double the other, even at the goal"),
    )

    def variant_rows(self, variant: int) -> list[dict[int, float]]:
        return turn_rows(dice_faces(self.variant_sides[variant], rerolled=variant % 2 == 1))

    def zero_points(self, opponent_score: int) -> int:
        return take_turn(0, opponent_score)

    def hog_wild(self, score: int, opponent_score: int) -> bool:
        return select_dice(score, opponent_score, False) is not six_sided

    def die(self, rng: random.Random, variant: int) -> int:
        dice = functools.partial(rng.randint, 1, self.variant_sides[variant])
        return (reroll(dice) if variant % 2 else dice)()

    def roll_points(self, outcomes: tuple[int, ...]) -> int:
        return take_turn(len(outcomes), 0, make_test_dice(*outcomes))

    def exchange_event(self, exchanged: int) -> str:
        return f"Pork Chop: 1 point, {'six' if exchanged else 'four'}-sided dice from now on"

    def dice_events(self, variant: int, exchanged: int) -> list[str]:
        rerolled = ["Hog Wild: odd outcomes re-rolled once"] * (variant % 2)
        return ["four-sided dice"] * exchanged + rerolled

    def points_events(self, dice: tuple[int, ...], points: int, opponent_score: int) -> list[str]:
        # The course functions say what the points were before Hogtimus Prime and When Pigs Fly.
        raw = pig_out(list(dice)) if dice else free_bacon(opponent_score)
        boosted = hogtimus_prime(raw)
        return [
            points_event(dice, raw, self.zero_rule, self.ones_rule),
            *[f"Hogtimus Prime: {raw} becomes {boosted}"] * (boosted != raw),
            *[f"When Pigs Fly: at most {points} points"] * (points < boosted),
        ]


RULES = HogFa16
