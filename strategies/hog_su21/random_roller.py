"""A randomised strategy: roll a random number of dice between 3 and 7.

It is not a function of the scores (two calls at the same scores may differ), so it cannot be
turned into a decision table or evaluated exactly. Course contests disqualify such strategies;
hogbench plays it live, by Monte Carlo, and says so in the standings.
"""

import random

TEAM_NAME = "Dice Roulette"


def final_strategy(score, opponent_score):
    return random.randint(3, 7)
