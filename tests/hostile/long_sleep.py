"""Sleeps an hour at (2, 5). Expected: timed out at (2, 5)."""

import time


def final_strategy(score, opponent_score):
    if (score, opponent_score) == (2, 5):
        time.sleep(3600)
    return 4
