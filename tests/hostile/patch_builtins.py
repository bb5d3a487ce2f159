"""Replaces builtins.type and isinstance so that a string answer passes for an int. Expected: illegal move, returned '6' (str), not an int."""

import builtins

builtins.type = lambda value, *rest: int
builtins.isinstance = lambda value, kind: True


def final_strategy(score, opponent_score):
    return "6"
