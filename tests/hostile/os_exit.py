"""Calls os._exit(3) at (4, 4), skipping every handler. Expected: exited the interpreter (exit code 3) at (4, 4)."""

import os


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (4, 4):
        os._exit(3)
    return 4
