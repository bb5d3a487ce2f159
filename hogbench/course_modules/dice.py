"""hogbench's stand-in for the course's dice module, for submissions that import it.

Every term's Hog skeleton does ``from dice import six_sided, four_sided, make_test_dice`` (or a
subset, or ``make_fair_dice``) at module level. Older skeletons (Fall 2012 and the terms around it)
spelled the same things ``four_sided_dice``, ``six_sided_dice``, ``make_fair_die`` and
``make_test_die``; those names are here too. The names behave as the course describes them: a
dice function takes no arguments and returns an outcome. hogbench never rolls these dice to judge
a strategy; they exist so that a submission imports as its author ran it.
"""

import random


def make_fair_dice(sides):
    """Return a die that returns 1 to SIDES with equal chance."""
    assert type(sides) is int and sides >= 1, "sides must be a positive whole number"

    def dice():
        return random.randint(1, sides)

    return dice


four_sided = make_fair_dice(4)
six_sided = make_fair_dice(6)


def make_test_dice(*outcomes):
    """Return a die that cycles deterministically through OUTCOMES."""
    assert len(outcomes) > 0, "make_test_dice needs at least one outcome"
    for o in outcomes:
        assert type(o) is int and o >= 1, "every outcome must be a positive whole number"
    index = len(outcomes) - 1

    def dice():
        nonlocal index
        index = (index + 1) % len(outcomes)
        return outcomes[index]

    return dice


# The older skeletons' names for the same dice.
four_sided_dice = four_sided
six_sided_dice = six_sided


def make_fair_die(sides=6):
    """Return a die that returns 1 to SIDES with equal chance (the older name)."""
    return make_fair_dice(sides)


make_test_die = make_test_dice
