"""Runs a Monte Carlo experiment at import, as a real Spring 2015 file did, and picks its number of dice from it. Expected: not deterministic, from one import to the next."""

import random

trials = [sum(random.randint(1, 6) for _ in range(3)) for _ in range(50)]
DICE = 1 + sum(trials) % 10  # another import, another number of dice


def final_strategy(score, opponent_score):
    return DICE
