"""Rolls a random number of dice. Expected: not deterministic (loads as a live strategy without a table)."""

import random


def final_strategy(score, opponent_score):
    return random.randint(1, 10)
