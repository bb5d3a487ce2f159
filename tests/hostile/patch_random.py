"""Monkeypatches random (to rig the dice) and builtins.print at import. Expected: valid; only the worker's own modules change, never hogbench's."""

import builtins
import random

random.randint = lambda a, b: b
random.random = lambda: 0.0
builtins.print = lambda *args, **kwargs: None


def final_strategy(score, opponent_score):
    return 4
