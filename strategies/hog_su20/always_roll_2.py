"""Always roll 2 dice, whatever the scores.

Few dice rarely Pig Out (any 1 scores 1), but the sum is small.
"""

TEAM_NAME = "Always 2"


def final_strategy(score, opponent_score):
    return 2
