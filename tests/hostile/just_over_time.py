"""Computes 1.1 ms per call: 11 s of CPU for the 10000 states of goal 100, over a 10 s limit. Expected: timed out."""

import time


def final_strategy(score, opponent_score):
    end = time.process_time() + 0.0011
    while time.process_time() < end:
        pass
    return 4
