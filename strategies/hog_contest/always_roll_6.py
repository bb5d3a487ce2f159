"""Always roll 6 dice, whatever the scores.

More dice, bigger sums; Pig Out caps the score at 11 - 6 = 5 points.
"""

TEAM_NAME = "Always 6"


def final_strategy(score, opponent_score):
    return 6
