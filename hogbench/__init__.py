"""hogbench: measure strategies for Hog (CS 61A) and its cousins Greed, Big Pig and Pig.

The course's own names work here with the course's semantics (rule set hog-su21 by default):

>>> from hogbench import always_roll, average_win_rate, make_averaged, max_scoring_num_rolls
>>> from hogbench import run_experiments, winner
"""

from __future__ import annotations

from hogbench.lazy import lazy_names

__version__ = "0.1.0"

# Imported on first use, so that `hogbench --help` does not load the compiled engines.
__all__, __getattr__ = lazy_names(
    __name__,
    {
        "experiments": (
            "always_roll", "average_win_rate", "make_averaged", "max_scoring_num_rolls",
            "roll_dice", "run_experiments", "winner",
        ),
        "dice": ("four_sided", "make_fair_dice", "make_test_dice", "six_sided"),
        "rules": ("get_rules",),
    },
)  # fmt: skip
