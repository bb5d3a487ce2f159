"""Always roll 6 dice, whatever the scores.

About the most points per turn on average under Pig Out.
"""

TEAM_NAME = "Always 6"


def final_strategy(score, opponent_score):
    return 6
