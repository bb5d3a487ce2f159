"""A randomised strategy: Free Bacon half the time, otherwise 2 to 6 dice at random.

Not a function of the scores, so it has no decision table and cannot be evaluated exactly;
hogbench plays it live, by Monte Carlo.
"""

import random

TEAM_NAME = "Coin Flipper"


def final_strategy(score, opponent_score):
    if random.random() < 0.5:
        return 0
    return random.randint(2, 6)
