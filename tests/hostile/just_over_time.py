"""Sleeps 1.1 ms per call: 11 s for the 10000 states of goal 100, just over the contest's 10 s. Expected: timed out."""

import time


def final_strategy(score, opponent_score):
    time.sleep(0.0011)
    return 4
