"""Always roll 4 dice, whatever the scores.

A middle number of dice: Pig Out scores the number of 1s (at most 7 here), not 1.
"""

TEAM_NAME = "Always 4"


def final_strategy(score, opponent_score):
    return 4
