"""Sleeps 2 ms a call: 20 s for the 10000 states of goal 100, computing almost nothing. Expected: timed out sleeping or waiting."""

import time


def final_strategy(score, opponent_score):
    time.sleep(0.002)
    return 4
