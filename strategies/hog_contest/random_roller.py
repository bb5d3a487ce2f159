"""A randomised strategy: 3 to 7 dice at random, and a Pork Chop by chance when behind.

Not a function of the scores, so it has no decision table; contests disqualify such strategies,
and hogbench plays it live, by Monte Carlo.
"""

import random

TEAM_NAME = "Loaded Dice"


def final_strategy(score, opponent_score):
    if opponent_score > score and random.random() < 0.1:
        return -1
    return random.randint(3, 7)
