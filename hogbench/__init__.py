"""hogbench: measure strategies for Hog (CS 61A) and its cousins Greed, Big Pig and Pig.

The course's own names work here with the course's semantics (rule set hog-su21 by default):

>>> from hogbench import always_roll, average_win_rate, make_averaged, max_scoring_num_rolls
"""

from hogbench.dice import four_sided, make_fair_dice, make_test_dice, six_sided
from hogbench.experiments import (
    always_roll,
    average_win_rate,
    make_averaged,
    max_scoring_num_rolls,
    roll_dice,
)
from hogbench.rules import get_rules

__version__ = "0.1.0"

__all__ = [
    "always_roll",
    "average_win_rate",
    "four_sided",
    "get_rules",
    "make_averaged",
    "make_fair_dice",
    "make_test_dice",
    "max_scoring_num_rolls",
    "roll_dice",
    "six_sided",
]
