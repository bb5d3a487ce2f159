"""hogbench: measure strategies for Hog (CS 61A) and its cousins Greed, Big Pig and Pig.

The course's own names work here with the course's semantics (rule set hog-su21 by default):

>>> from hogbench import always_roll, average_win_rate, make_averaged, max_scoring_num_rolls
>>> from hogbench import run_experiments, winner
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Imported on first use, so that `hogbench --help` does not load the compiled engines.
_EXPORTS = {
    "always_roll": "hogbench.experiments",
    "average_win_rate": "hogbench.experiments",
    "make_averaged": "hogbench.experiments",
    "max_scoring_num_rolls": "hogbench.experiments",
    "roll_dice": "hogbench.experiments",
    "run_experiments": "hogbench.experiments",
    "winner": "hogbench.experiments",
    "four_sided": "hogbench.dice",
    "make_fair_dice": "hogbench.dice",
    "make_test_dice": "hogbench.dice",
    "six_sided": "hogbench.dice",
    "get_rules": "hogbench.rules",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'hogbench' has no attribute {name!r}")
