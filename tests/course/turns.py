"""One turn of every Hog rule set, written from the term's course functions: the reference the
engines are checked against (``tests.reference.win_chance``).

Each turn takes a state (mover's score, other's score, mover's hidden, other's hidden) and a
number of dice, and returns {(mover's score, other's score, mover's hidden, again): chance}.
A rule set added to hogbench adds its turn here; the contract test fails for one without.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import gcd
from types import ModuleType

from hogbench.dice import make_test_dice
from hogbench.rules import (
    hog_contest,
    hog_fa13,
    hog_fa14,
    hog_fa15,
    hog_fa16,
    hog_fa17,
    hog_fa18,
    hog_fa19,
    hog_fa20,
    hog_fa21,
    hog_fa22,
    hog_fa23,
    hog_sp15,
    hog_sp16,
    hog_sp18,
    hog_sp19,
    hog_sp20,
    hog_sp21,
    hog_sp22,
    hog_su19,
    hog_su20,
    hog_su21,
    hog_su22,
)
from tests.reference import roll_distribution


def _gather(pairs):
    out: dict = defaultdict(float)
    for key, p in pairs:
        out[key] += p
    return dict(out)


def _points(course, num_rolls, zero, sides=6):
    """The turn's points: ZERO for no dice, else the course's roll_dice over fair dice."""
    if num_rolls == 0:
        return {zero: 1.0}
    return roll_distribution(course.roll_dice, num_rolls, sides)


@dataclass(frozen=True)
class PointsRules:
    """A term whose turn is points, then an update of the mover's score, then perhaps another
    turn, in its course functions: ZERO_POINTS(mover, other) for rolling 0, AFTER_TURN(score,
    other) once the points are added, EXTRA_TURN(score, other)."""

    course: ModuleType
    zero_points: Callable[[int, int], int]
    after_turn: Callable[[int, int], int] = lambda score, other: score
    extra_turn: Callable[[int, int], bool] = lambda score, other: False

    def turn(self, state, num_rolls):
        mover, other, _, _ = state
        points = _points(self.course, num_rolls, self.zero_points(mover, other))
        out = []
        for x, p in points.items():
            new = self.after_turn(mover + x, other)
            out.append(((new, other, 0, bool(self.extra_turn(new, other))), p))
        return _gather(out)


#: The points-then-update terms (su21 and after, and fa20), as their course functions compose
POINTS_RULES = {
    "hog-su21": PointsRules(
        hog_su21, lambda m, o: hog_su21.piggy_points(o), extra_turn=hog_su21.more_boar
    ),
    "hog-sp21": PointsRules(
        hog_sp21, lambda m, o: hog_sp21.piggy_points(o), extra_turn=hog_sp21.more_boar
    ),
    "hog-fa20": PointsRules(
        hog_fa20, lambda m, o: hog_fa20.free_bacon(o), extra_turn=hog_fa20.extra_turn
    ),
    "hog-fa21": PointsRules(
        hog_fa21, lambda m, o: hog_fa21.picky_piggy(o), lambda s, o: s + hog_fa21.hog_pile(s, o)
    ),
    "hog-sp22": PointsRules(
        hog_sp22, hog_sp22.hefty_hogs, lambda s, o: s + hog_sp22.hog_pile(s, o)
    ),
    "hog-su22": PointsRules(
        hog_su22, hog_su22.oink_points, lambda s, o: s + hog_su22.pigs_on_prime(s, o)
    ),
    "hog-fa22": PointsRules(
        hog_fa22, lambda m, o: hog_fa22.tail_points(o), lambda s, o: hog_fa22.square_points(s)
    ),
    "hog-fa23": PointsRules(hog_fa23, hog_fa23.boar_brawl, lambda s, o: hog_fa23.sus_points(s)),
}


def swap_term(course, sides_for=None):
    """Free Bacon or dice (SIDES_FOR(mover, other) sides), then the course's is_swap(mover,
    other) after every turn (sp19, su19, fa17, sp18, fa18, fa13, fa14)."""

    def turn(state, num_rolls):
        mover, other, _, _ = state
        sides = sides_for(mover, other) if sides_for else 6
        points = _points(course, num_rolls, course.free_bacon(other), sides)
        out = []
        for x, p in points.items():
            new = mover + x
            out.append(
                (
                    (other, new, 0, False)
                    if course.is_swap(new, other)
                    else (new, other, 0, False),
                    p,
                )
            )
        return _gather(out)

    return turn


def _wild_sides(course):
    return lambda mover, other: 4 if course.select_dice(mover, other) is course.four_sided else 6


def sp15_turn(state, num_rolls):
    mover, other, _, _ = state
    sides = _wild_sides(hog_sp15)(mover, other)
    points = _points(hog_sp15, num_rolls, hog_sp15.free_bacon(other), sides)
    return _gather(
        ((*hog_sp15.hogtimus_prime(mover + x, other, x), 0, False), p) for x, p in points.items()
    )


def sp16_turn(state, num_rolls):
    """The dice in play (shared, hidden) give the sides; Hogtimus Prime, then Perfect Piggy on
    the turn score swaps the dice for both players, then Swine Swap."""
    mover, other, four, _ = state
    raw = _points(hog_sp16, num_rolls, hog_sp16.free_bacon(other), 4 if four else 6)
    out = []
    for x, p in raw.items():
        points = hog_sp16.hogtimus_prime(x)
        dice = four ^ int(hog_sp16.is_perfect_piggy(points))
        new = mover + points
        scores = (other, new) if hog_sp16.is_swap(new, other) else (new, other)
        out.append(((*scores, dice, dice, False), p))
    return _gather(out)


@cache
def _fa16_virtual_die(sides):
    """A die of the course's reroll as a fair die with more faces: every pair of outcomes of a
    fair SIDES-sided die replayed through hog_fa16.reroll, and the outcomes' counts divided by
    their greatest common divisor (the re-rolled six-sided die is a fair die of 12 faces)."""
    counts = Counter(
        hog_fa16.reroll(make_test_dice(*pair))()
        for pair in itertools.product(range(1, sides + 1), repeat=2)
    )
    unit = gcd(*counts.values())
    return tuple(face for face in sorted(counts) for _ in range(counts[face] // unit))


@cache
def _fa16_take_turn(faces):
    """The course's take_turn with a fair die of len(FACES) faces showing FACES."""

    def roll(num_rolls, dice):
        return hog_fa16.take_turn(num_rolls, 0, lambda: faces[dice() - 1])

    return roll


def _swapped(course, mover, other, points, shared):
    """Each of POINTS added to the mover, then the course's is_swap; SHARED kept by both."""
    out = []
    for x, p in points.items():
        new = mover + x
        scores = (other, new) if course.is_swap(new, other) else (new, other)
        out.append(((*scores, shared, shared, False), p))
    return _gather(out)


def fa16_turn(state, num_rolls):
    """Pork Chop (-1: 1 point, the dice in play exchanged for both players), else the course's
    select_dice (four-sided when exchanged, re-rolled under Hog Wild) and take_turn; then the
    course's is_swap."""
    mover, other, four, _ = state
    if num_rolls == -1:
        points, four = {1: 1.0}, 1 - four
    elif num_rolls == 0:
        points = {hog_fa16.take_turn(0, other): 1.0}
    else:
        dice = hog_fa16.select_dice(mover, other, bool(four))
        sides = 4 if four else 6
        faces = tuple(range(1, sides + 1))
        if dice not in (hog_fa16.six_sided, hog_fa16.four_sided):  # Hog Wild re-rolls
            faces = _fa16_virtual_die(sides)
        points = roll_distribution(_fa16_take_turn(faces), num_rolls, len(faces))
    return _swapped(hog_fa16, mover, other, points, four)


def fa13_ham_hijinks_turn(state, num_rolls):
    """hog-fa13 with its contest's Ham Hijinks: -1 scores 1 point and exchanges the dice for both
    players, else Free bacon or the dice of the course's exchanged_dice; then is_swap."""
    mover, other, exchanged, _ = state
    if num_rolls == -1:
        points, exchanged = {1: 1.0}, 1 - exchanged
    else:
        dice = hog_fa13.exchanged_dice(mover, other, exchanged)
        sides = 4 if dice is hog_fa13.four_sided else 6
        points = _points(hog_fa13, num_rolls, hog_fa13.free_bacon(other), sides)
    return _swapped(hog_fa13, mover, other, points, exchanged)


def feral_term(course, remember, feral=True):
    """Free Bacon or dice, Feral Hogs on the mover's hidden (REMEMBER(num_rolls, points) is what
    the mover keeps for next time; FERAL off: no bonus), then is_swap (su20, sp20: points; fa19:
    dice)."""

    def turn(state, num_rolls):
        mover, other, previous, _ = state
        points = _points(course, num_rolls, course.free_bacon(other))
        bonus = course.feral_bonus(num_rolls, previous) if feral else 0
        out = []
        for x, p in points.items():
            new, kept = mover + x + bonus, remember(num_rolls, x)
            swapped = course.is_swap(new, other)
            out.append((((other, new) if swapped else (new, other)) + (kept, False), p))
        return _gather(out)

    return turn


def _contest_roll(num_rolls, dice):
    """The contest's turn score of a roll: Pig Out by ones, then Hogtimus Prime."""
    return hog_contest.take_turn(num_rolls, 0, dice)


def contest_turn(state, num_rolls):
    """Pork Chop (-1: swap, once; later -1 rolls 10), else the dice with Hog Wild's sides and
    Hogtimus Prime (the course's take_turn), then Swine Swap."""
    mover, other, chopped, _ = state
    if num_rolls == -1 and not chopped:
        return {(other, mover, 1, False): 1.0}
    num_rolls = 10 if num_rolls == -1 else num_rolls
    sides = hog_contest.select_dice(mover, other, 6, 4)
    if num_rolls == 0:
        points = {hog_contest.take_turn(0, other): 1.0}
    else:
        points = roll_distribution(_contest_roll, num_rolls, sides)
    out = []
    for x, p in points.items():
        new = mover + x
        swapped = hog_contest.is_swap(new, other)
        out.append((((other, new) if swapped else (new, other)) + (chopped, False), p))
    return _gather(out)


def _fa15_roll(num_rolls, dice):
    """Fall 2015's turn score of a roll: Pig Out's 0, then Hogtimus Prime."""
    return hog_fa15.take_turn(num_rolls, 0, dice)


def fa15_turn(state, num_rolls):
    """Pork Chop (-1: swap, once; later -1 rolls 10), else the course's take_turn on Hog Wild's
    dice, Piggy Back (a turn of 0 points gives the other player the dice rolled), then is_swap."""
    mover, other, chopped, _ = state
    if num_rolls == -1 and not chopped:
        return {(other, mover, 1, False): 1.0}
    num_rolls = 10 if num_rolls == -1 else num_rolls
    sides = _wild_sides(hog_fa15)(mover, other)
    if num_rolls == 0:
        points = {hog_fa15.take_turn(0, other): 1.0}
    else:
        points = roll_distribution(_fa15_roll, num_rolls, sides)
    out = []
    for x, p in points.items():
        new, theirs = mover + x, other + (num_rolls if x == 0 else 0)
        swapped = hog_fa15.is_swap(new, theirs)
        out.append((((theirs, new) if swapped else (new, theirs)) + (chopped, False), p))
    return _gather(out)


def feral_dice(num_rolls, points):
    return num_rolls


def feral_points(num_rolls, points):
    return min(points, 13)  # a previous 13 or more never gives the bonus (dice are at most 10)


REFERENCE_TURNS = {
    **{name: rules.turn for name, rules in POINTS_RULES.items()},
    "hog-sp19": swap_term(hog_sp19),
    "hog-su19": swap_term(hog_su19),
    "hog-fa17": swap_term(hog_fa17),
    "hog-sp18": swap_term(hog_sp18),
    "hog-fa18": swap_term(hog_fa18),
    "hog-fa13": swap_term(hog_fa13, _wild_sides(hog_fa13)),
    "hog-fa14": swap_term(hog_fa14, _wild_sides(hog_fa14)),
    "hog-sp15": sp15_turn,
    "hog-sp16": sp16_turn,
    "hog-fa16": fa16_turn,
    "hog-su20": feral_term(hog_su20, feral_points),
    "hog-sp20": feral_term(hog_sp20, feral_points),
    "hog-fa19": feral_term(hog_fa19, feral_dice),
    "hog-contest": contest_turn,
    "hog-fa15": fa15_turn,
}
#: Rule sets that are another's rules under a term's name
SAME_RULES = {
    "hog-sp14": "hog-fa13",
    "hog-sp17": "hog-contest",
    "hog-sp23": "hog-fa22",
    "hog-sp24": "hog-fa23",
    "hog-fa24": "hog-fa23",
    "hog-sp25": "hog-fa23",
    "hog-fa25": "hog-fa23",
}
#: The cousins have their own references (tests/test_rules_cousins.py): they are not Hog terms.
COUSINS = {"pig", "big-pig", "greed"}


FERAL_HOGS = {
    "hog-su20": (hog_su20, feral_points),
    "hog-sp20": (hog_sp20, feral_points),
    "hog-fa19": (hog_fa19, feral_dice),
}


def reference_turn(name: str, feral_hogs: bool = True):
    """The reference turn of rule set NAME (FERAL_HOGS: that option of the terms that have it)."""
    name = SAME_RULES.get(name, name)
    if not feral_hogs:
        course, remember = FERAL_HOGS[name]
        return feral_term(course, remember, feral=False)
    return REFERENCE_TURNS[name]
