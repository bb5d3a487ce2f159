"""The Hog kit: what the terms share and write the same way (not a rule set: the registry skips
modules whose names start with ``_``).

The course's ``always_roll`` and ``take_turn`` of a Free Bacon term, its strategies as built-ins (the threshold strategies
``bacon_strategy``, ``tail_strategy``, ``sus_strategy``: 0 dice when a rule gives enough, else a
number of dice; others of their parameters), and how a narrated turn says its points.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from hogbench.dice import six_sided
from hogbench.rules.base import Builtin


def always_roll(n):
    """Return a player strategy that always rolls N dice (the course's ``always_roll``)."""
    assert 0 <= n <= 10, f"always_roll takes 0 to 10 dice, got {n}"

    def strategy(score, opponent_score):
        return n

    return strategy


ALWAYS_ROLL = Builtin(always_roll, "always roll N dice: always_roll:6")


def make_take_turn(free_bacon, roll_dice):
    """The course's take_turn for a term of FREE_BACON(opponent_score) and ROLL_DICE."""

    def take_turn(num_rolls, opponent_score, dice=six_sided):
        """Simulate a turn rolling NUM_ROLLS dice, which may be 0 (Free Bacon)."""
        assert type(num_rolls) is int, "num_rolls must be an integer."
        assert num_rolls >= 0, "Cannot roll a negative number of dice in take_turn."
        assert num_rolls <= 10, "Cannot roll more than 10 dice."
        if num_rolls == 0:
            return free_bacon(opponent_score)
        return roll_dice(num_rolls, dice)

    return take_turn


def course_builtin(strategy: Callable, summary: str, **defaults: object) -> Builtin:
    """A course strategy as a built-in of SUMMARY: the parameters it takes after the two scores
    are DEFAULTS' names, given in order or by name (bacon_strategy:9,5), each DEFAULTS' value
    when not given."""

    def make(*args, **params):
        given = make.__signature__.bind(*args, **params).arguments  # a TypeError if unknown
        values = {**defaults, **given}

        def bound(score, opponent_score):
            return strategy(score, opponent_score, *values.values())

        bound.__name__ = f"{strategy.__name__}({', '.join(f'{k}={v}' for k, v in values.items())})"
        return bound

    # The parameters a built-in takes are read from its signature (and named in errors).
    make.__signature__ = inspect.Signature(
        [
            inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default)
            for name, default in defaults.items()
        ]
    )
    return Builtin(make, summary)


def threshold_builtin(
    strategy: Callable,
    threshold: int,
    num_rolls: int,
    what: str,
    summary: str = "",
    name: str = "threshold",
) -> Builtin:
    """A course strategy with a THRESHOLD (called NAME in its term) and NUM_ROLLS as a built-in;
    its summary is "0 dice when WHAT >= NAME, else num_rolls" unless SUMMARY is given."""
    summary = summary or f"0 dice when {what} >= {name}, else num_rolls"
    return course_builtin(strategy, summary, **{name: threshold, "num_rolls": num_rolls})


def points_event(dice: tuple[int, ...], points: int, zero_rule: str, ones_rule: str) -> str:
    """What ``watch`` says of a turn's POINTS: those of ZERO_RULE for no dice (Free Bacon), of
    ONES_RULE when a die shows 1 (Pig Out, Sow Sad), else the dice's sum."""
    plural = "s" * (points != 1)
    if not dice:
        return f"{zero_rule}: {points} point{plural}"
    return f"{ones_rule}! {points} point{plural}" if 1 in dice else f"{points} points"
